"""Fitting a text drawing of a board to the terminal that shows it."""

from __future__ import annotations

import os
import sys


def terminal_columns() -> int | None:
    """The width the board is shown at: $COLUMNS, else the terminal's; None when stdout is a
    pipe or a file (no width to keep to: the whole board is printed)."""
    env = os.environ.get("COLUMNS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        if sys.stdout.isatty():
            return os.get_terminal_size(sys.stdout.fileno()).columns
    except (OSError, ValueError):
        pass
    return None


def board_summary(text: str, columns: int | None) -> str | None:
    """One line in place of a board wider than `columns` (None: it fits, print it)."""
    lines = text.rstrip("\n").splitlines()
    widest = max((len(line) for line in lines), default=0)
    if columns is None or widest <= columns:
        return None
    return (f"board: {len(lines)} rows up to {widest} columns wide, more than the terminal's "
            f"{columns}; --render FILE.svg draws it, -o FILE writes it")
