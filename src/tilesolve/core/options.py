"""Declared options: every backend, generator and race states the options it takes in one table.

An `Option` names one `--name value` option with its type, default and meaning; an `Options`
table validates a backend's parameters once (`validate`), so a misspelt option is refused with
the valid names, values are converted to their type and defaults filled in, and `tilesolve
options NAME` can list them. On/off switches accept on/off, true/false, yes/no and 1/0 (any case)
or a Python bool, so `--no-symmetry false` means the same to every backend.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .errors import InputError

TRUE = ("1", "true", "on", "yes")
FALSE = ("0", "false", "off", "no")


def parse_switch(value: object) -> bool:
    """on/off as a bool; ValueError for anything else."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    raise ValueError(value)


def flag(name: str) -> str:
    """The command-line spelling of an option name: no_symmetry -> --no-symmetry."""
    return "--" + name.replace("_", "-")


def switch(params: dict, name: str, default: bool) -> bool:
    """The switch `name` of a backend's options, `default` when absent; one line when it is
    neither on nor off."""
    if name not in params or params[name] is None:
        return default
    try:
        return parse_switch(params[name])
    except ValueError:
        raise InputError(f"{flag(name)} must be on or off, got {params[name]!r}") from None


# --- value types for options whose range matters --------------------------------------------
def positive_int(value: object) -> int:
    """a positive integer"""
    v = int(str(value))
    if v < 1:
        raise ValueError(value)
    return v


def count(value: object) -> int:
    """an integer >= 0"""
    v = int(str(value))
    if v < 0:
        raise ValueError(value)
    return v


def fraction(value: object) -> float:
    """a fraction in [0, 1]"""
    v = float(str(value))
    if not 0.0 <= v <= 1.0:
        raise ValueError(value)
    return v


def seconds(value: object) -> float:
    """a positive number of seconds"""
    v = float(str(value))
    if not 0 < v < math.inf:  # NaN too
        raise ValueError(value)
    return v


def non_negative(value: object) -> float:
    """a number >= 0"""
    v = float(str(value))
    if not 0 <= v < math.inf:
        raise ValueError(value)
    return v


def auto_switch(value: object) -> bool | None:
    """on, off or auto (None: the backend decides)"""
    if str(value).strip().lower() == "auto":
        return None
    return parse_switch(value)


def as_is(value: object) -> object:
    """any value (set by the program)"""
    return value


TYPE_NAMES = {bool: "on|off", int: "int", float: "number", str: "text", dict: "dict"}


@dataclass(frozen=True)
class Option:
    """One `--name value` option.

    `type` is bool (on/off), int, float, str, or a converter that raises ValueError (or an
    InputError with its own message) for a bad value. `default` is filled in when the option
    is not given; None leaves it to the backend (its `help` says what it does then).
    `internal` options are set by the program (the portfolio's CBGI link, CP-SAT
    parameters) and are not listed."""

    name: str
    type: Callable[[Any], Any] = str
    default: Any = None
    help: str = ""
    choices: tuple[str, ...] | None = None
    internal: bool = False

    @property
    def flag(self) -> str:
        return flag(self.name)

    @property
    def type_name(self) -> str:
        if self.choices:
            return "|".join(self.choices)
        return TYPE_NAMES.get(self.type) or (self.type.__doc__ or self.type.__name__).strip()

    def convert(self, value: object) -> Any:
        """The value as its type; one line naming the option and what it expects if not."""
        if value is None:
            return None
        if self.choices:
            return self._choice(value)
        try:
            return parse_switch(value) if self.type is bool else self.type(value)
        except (TypeError, ValueError):
            pass
        if self.type in (bool, parse_switch):
            raise InputError(f"{self.flag} must be on or off, got {value!r}")
        raise InputError(f"{self.flag} expects {self.type_name}, got {value!r}")

    def _choice(self, value: object) -> str:
        text = str(value).strip().lower()
        for candidate in (text, text.replace("-", "_"), text.replace("_", "-")):
            if candidate in self.choices:
                return candidate
        raise InputError(f"{self.flag} expects one of {', '.join(self.choices)}, got {text!r}")


class UnknownOptions(InputError):
    """Options no table of a run declares: their `names`, and the public names `expected`
    (the Python API words it as an unexpected keyword argument)."""

    def __init__(self, names: list[str], expected: list[str], owner: str) -> None:
        self.names, self.expected = names, expected
        shown = ", ".join(sorted(flag(e) for e in expected)) or "none"
        near = nearest(flag(names[0]), [flag(e) for e in expected])
        super().__init__(f"unknown option(s) {', '.join(flag(u) for u in names)} for "
                         f"{owner}{near}; expected {shown}")


class Options:
    """A table of options; later tables given to the constructor override earlier names."""

    def __init__(self, *parts: Option | Options | Iterable[Option]):
        self._by_name: dict[str, Option] = {}
        for part in parts:
            for opt in [part] if isinstance(part, Option) else part:
                self._by_name[opt.name] = opt

    def __iter__(self) -> Iterator[Option]:
        return iter(self._by_name.values())

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __getitem__(self, name: str) -> Option:
        return self._by_name[name]

    def __len__(self) -> int:
        return len(self._by_name)

    def value(self, params: dict, name: str) -> Any:
        """One option read from a backend's parameters: converted, else its default (for
        backends called directly, whose parameters `validate` has not seen)."""
        opt = self._by_name[name]
        raw = params.get(name)
        return opt.default if raw is None else opt.convert(raw)

    def names(self) -> list[str]:
        return list(self._by_name)

    def public(self) -> list[Option]:
        """The options a user may give, in declaration order."""
        return [o for o in self if not o.internal]

    def validate(self, params: dict, owner: str = "this backend") -> dict:
        """The options converted, with the declared defaults; one line for an option the table
        does not declare, listing the ones it does."""
        unknown = sorted(set(params) - set(self._by_name))
        if unknown:
            raise UnknownOptions(unknown, [o.name for o in self.public()], owner)
        return self.pick(params)

    def pick(self, params: dict) -> dict:
        """The options this table declares, converted, with its defaults; others left out
        (a race hands every lane the whole command line)."""
        out = {o.name: o.default for o in self if o.default is not None}
        for name, value in params.items():
            if name in self._by_name and value is not None:
                out[name] = self._by_name[name].convert(value)
        return out

    def rows(self) -> list[tuple[str, str, str, str]]:
        """(flag, type, default, meaning) per public option, for `tilesolve options`."""
        return [(o.flag, o.type_name, _shown(o.default), o.help) for o in self.public()]


def _shown(default: object) -> str:
    if default is None:
        return "-"
    if isinstance(default, bool):
        return "on" if default else "off"
    return str(default)


# one meaning in every backend with a symmetry-breaking pin (dropped anyway under --fix/--hint)
NO_SYMMETRY = Option("no_symmetry", bool, False,
                     "keep every symmetric copy of the board (no symmetry-breaking pin)")


# --- options on a command line ---------------------------------------------------------------
SWITCH_WORDS = (*TRUE, *FALSE, "auto")


def is_switch(opt: Option) -> bool:
    """An on/off option: alone on a command line it means on; a switch word may follow it."""
    if opt.choices:
        return set(opt.choices) <= {"on", "off", "auto"}
    return opt.type in (bool, parse_switch, auto_switch)


def nearest(word: str, known: Iterable[str]) -> str:
    """' (did you mean --x?)' naming the known spelling closest to `word`, or ''."""
    import difflib

    close = difflib.get_close_matches(word, sorted(set(known)), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def split_options(args: list[str], own: dict[str, bool], declared: Callable[[], Options],
                  owner: str, positional: int | None = None) -> tuple[list[str], dict[str, str]]:
    """A command line split into the command's own words and the declared options it carries.

    `own` maps each of the command's own flags to whether a value follows it; every other
    `--name` must be in the `declared` table (read only when one is met): a switch takes an
    on/off word when one follows, any other option the next word (or `--name=value`). So the
    options may stand anywhere, before or after the positional arguments. A switch followed
    by another word takes it too when the command has more words than its `positional`
    arguments (None: any number), so `--rts maybe` is refused as a value, not as a file.
    Returns (the words for the command, {option name: value text}); one line for an unknown
    option, naming its `owner` (the command and backend) and the nearest known option."""
    words: list[str | tuple[str, str]] = []  # (name, value) for a declared option
    table: Options | None = None
    i = 0
    while i < len(args):
        arg, i = args[i], i + 1
        if arg == "--":
            words += args[i - 1:]
            break
        if not arg.startswith("--") or arg.split("=", 1)[0] in own:
            words.append(arg)
            if own.get(arg) and i < len(args):
                words.append(args[i])
                i += 1
            continue
        table = table or declared()
        key, eq, value = arg[2:].partition("=")
        name = key.replace("-", "_")
        if name not in table or table[name].internal:
            known = [*own, *(o.flag for o in table.public())]
            raise InputError(f"unknown option(s) --{key} for {owner}"
                             f"{nearest('--' + key, known)}")
        if not eq:
            value, i = _value(table[name], args, i)
        words.append((name, value))
    return _settle(words, own, positional)


def _value(opt: Option, args: list[str], i: int) -> tuple[str | None, int]:
    """The value after option `opt` at args[i - 1], and where the next word is."""
    following = args[i] if i < len(args) else None
    if is_switch(opt):
        if following is not None and following.strip().lower() in SWITCH_WORDS:
            return following, i + 1
        return None, i  # bare: on (_settle)
    if following is None or following.startswith("--"):
        raise InputError(f"{opt.flag} needs a value ({opt.type_name})")
    return following, i + 1


def _settle(words: list, own: dict[str, bool],
            positional: int | None) -> tuple[list[str], dict[str, str]]:
    """The command's words and the options; the last words after a bare switch beyond the
    command's positional arguments are those switches' values."""
    loose = [k for k, w in enumerate(words) if isinstance(w, str)
             and (w == "-" or not w.startswith("-"))
             and (k == 0 or not isinstance(words[k - 1], str) or not own.get(words[k - 1]))]
    after_switch = [k for k in loose if k and isinstance(words[k - 1], tuple)
                    and words[k - 1][1] is None]
    surplus = 0 if positional is None else len(loose) - positional
    for k in after_switch[len(after_switch) - surplus:] if surplus > 0 else []:
        words[k - 1], words[k] = (words[k - 1][0], words[k]), None
    rest = [w for w in words if isinstance(w, str)]
    return rest, {w[0]: "on" if w[1] is None else w[1] for w in words if isinstance(w, tuple)}
