"""Shared reading of the line-oriented text formats: comments, blank lines, numbered records."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError

# ASCII digits only: int() also takes '٣', '３', '+2' and '1_0', which would silently change
# the puzzle. Magnitudes stay far below what CP-SAT's 64-bit domains and sums can hold.
_INT = re.compile(r"-?[0-9]+")
MAX_INT = 10**9


def strict_int(token: str) -> int:
    """An integer written in ASCII digits, |value| <= MAX_INT; ValueError otherwise."""
    if not _INT.fullmatch(token) or len(token) > 12:
        raise ValueError(token)
    value = int(token)
    if abs(value) > MAX_INT:
        raise ValueError(token)
    return value


@dataclass(frozen=True)
class Record:
    """One meaningful line of a text file: its 1-based line number and its tokens."""

    line: int
    tokens: list[str]
    path: str

    def error(self, message: str) -> InputError:
        return InputError(message, self.path, self.line)

    def ints(self, count: int | None = None, what: str = "integers") -> list[int]:
        """All tokens as integers, optionally exactly `count` of them."""
        if count is not None and len(self.tokens) != count:
            raise self.error(f"expected {count} {what}, found {len(self.tokens)} tokens")
        out = []
        for tok in self.tokens:
            try:
                out.append(strict_int(tok))
            except ValueError:
                raise self.error(f"expected {what} (at most {MAX_INT:,} in size), "
                                 f"found {tok!r}") from None
        return out


def read_text(path: str | Path) -> str:
    p = Path(path)
    if not p.exists():
        raise InputError("no such file", p)
    if p.is_dir():
        raise InputError("is a directory, expected a file", p)
    try:
        return p.read_text(encoding="utf-8-sig")  # a byte-order mark is not content
    except UnicodeDecodeError:
        raise InputError("not a UTF-8 text file", p) from None


def records(path: str | Path, text: str | None = None) -> list[Record]:
    """Non-blank lines with `#` comments removed, keeping their line numbers."""
    if text is None:
        text = read_text(path)
    out = []
    for no, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0].strip()
        if body:
            out.append(Record(no, body.split(), str(path)))
    return out


def parse_int(token: str, record: Record, what: str) -> int:
    try:
        return strict_int(token)
    except ValueError:
        raise record.error(f"expected {what} (at most {MAX_INT:,} in size), "
                           f"found {token!r}") from None


def write_atomic(path: str | Path, write) -> None:
    """Create `path` whole or not at all: `write(tmp)` fills a temporary file beside it, which
    then replaces `path` in one step (an interrupt leaves no partial file)."""
    import os
    import tempfile

    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix, dir=path.parent)
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # as open() would have made it, not mkstemp's 0600
    try:
        write(Path(tmp))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
