"""The one error type users see for bad input: it names the file, the line and the expectation."""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """Malformed or impossible input. Rendered as one line, exit code 2."""

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None):
        self.message = message
        """What is wrong and what was expected."""
        self.path = str(path) if path is not None else None
        """The file (or `<family>` for a puzzle built in memory), if one is to blame."""
        self.line = line
        """The 1-based line of `path`, where one is to blame."""
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.path or ""
        if self.line is not None:
            where += f":{self.line}" if where else f"line {self.line}"
        return f"{where}: {self.message}" if where else self.message
