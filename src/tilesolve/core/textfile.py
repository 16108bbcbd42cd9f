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


# "https://x" given where a path is expected: typer's Path arguments squash "//" into "/"
_URL = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*):/+(?P<rest>.*)$", re.S)
URL_SCHEMES = ("file", "http", "https")
FETCH_TIMEOUT = 20.0  # seconds before an unreachable server is reported


def as_url(path: str | Path) -> str | None:
    """The URL a path argument spells (file://, http://, https://), or None for a plain path."""
    m = _URL.match(str(path))
    if m is None or m["scheme"].lower() not in URL_SCHEMES:
        return None
    scheme = m["scheme"].lower()
    return f"{scheme}:///{m['rest']}" if scheme == "file" else f"{scheme}://{m['rest']}"


def source_stem(path: str | Path) -> str:
    """A short name for an instance file or URL (its file name without the extension)."""
    url = as_url(path)
    if url is None:
        return Path(path).stem
    from urllib.parse import parse_qs, urlsplit

    parts = urlsplit(url)
    named = parse_qs(parts.fragment or parts.query).get("puzzle")  # e2.bucas.name boards
    return named[0] if named else Path(parts.path).stem or parts.netloc


def read_url(url: str) -> str:
    """The text behind a URL. An e2.bucas.name board URL holds its board in the URL itself,
    so it is its own text and needs no download."""
    from urllib.error import URLError
    from urllib.parse import unquote, urlsplit
    from urllib.request import urlopen

    if url.startswith("file:"):
        return read_text(unquote(urlsplit(url).path))
    if "board_edges=" in url:
        return url
    try:
        with urlopen(url, timeout=FETCH_TIMEOUT) as resp:  # noqa: S310 - http(s) only
            data = resp.read()
    except (URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise InputError(f"cannot fetch: {reason}", url) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError("not a UTF-8 text file", url) from None


def read_text(path: str | Path) -> str:
    """A text file's contents; a file://, http:// or https:// URL is read (fetched) too."""
    url = as_url(path)
    if url is not None:
        return read_url(url)
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
    path.parent.mkdir(parents=True, exist_ok=True)  # `-o out/board.txt` in a fresh checkout
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


def write_text_atomic(path: str | Path, text: str) -> Path:
    """`write_atomic` for a text: the file appears whole or not at all; returns its path."""
    write_atomic(path, lambda tmp: tmp.write_text(text))
    return Path(path)
