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
        if self.type is bool:
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
        super().__init__(f"unknown option(s) {', '.join(flag(u) for u in names)} for {owner}; "
                         f"expected {shown}")


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
