"""Option values from the command line, read one way everywhere.

On/off switches accept on/off, true/false, yes/no and 1/0 (any case) or a Python bool, so
`--no-symmetry false` means the same to every backend.
"""

from __future__ import annotations

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


def switch(params: dict, name: str, default: bool) -> bool:
    """The switch `name` of a backend's options, `default` when absent; one line when it is
    neither on nor off."""
    if name not in params or params[name] is None:
        return default
    try:
        return parse_switch(params[name])
    except ValueError:
        raise InputError(f"--{name.replace('_', '-')} must be on or off, got "
                         f"{params[name]!r}") from None
