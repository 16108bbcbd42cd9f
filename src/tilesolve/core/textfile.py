"""Shared reading of the line-oriented text formats: comments, blank lines, numbered records."""

from __future__ import annotations

import os
import re
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .bounds import MAX_BYTES, MAX_INT, MAX_LINE_CHARS, MAX_LINES
from .errors import InputError

# ASCII digits only: int() also takes '٣', '３', '+2' and '1_0', which would silently change
# the puzzle. Magnitudes stay far below what CP-SAT's 64-bit domains and sums can hold.
_INT = re.compile(r"-?[0-9]+")
STDIN = "-"  # the path that names standard input


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
        return bounded_text(url.encode(), url)
    try:
        with urlopen(url, timeout=FETCH_TIMEOUT) as resp:  # noqa: S310 - http(s) only
            data = resp.read(MAX_BYTES + 1)
    except (URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise InputError(f"cannot fetch: {reason}", url) from None
    return bounded_text(data, url)


def bounded_text(data: bytes, path: str | Path) -> str:
    """Bytes read (at most MAX_BYTES + 1 of them) as text, refused in one line when there
    are too many bytes, lines or characters on a line, or they are not UTF-8."""
    if len(data) > MAX_BYTES:
        raise InputError(f"more than {MAX_BYTES:,} bytes; expected an instance file of at most "
                         f"{MAX_BYTES:,} (README: Limits)", path)
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark is not content
    except UnicodeDecodeError:
        raise InputError("not a UTF-8 text file", path) from None
    return checked_text(text, path)


def checked_text(text: str, path: str | Path) -> str:
    """`text` when its size, line count and longest line are within the bounds."""
    if len(text) > MAX_BYTES:
        raise InputError(f"more than {MAX_BYTES:,} characters; expected an instance of at "
                         f"most {MAX_BYTES:,} (README: Limits)", path)
    lines = text.count("\n") + (not text.endswith("\n"))  # a last newline ends a line
    if lines > MAX_LINES:
        raise InputError(f"{lines:,} lines; expected at most {MAX_LINES:,} (README: Limits)",
                         path)
    if len(text) > MAX_LINE_CHARS:
        longest = max(map(len, text.split("\n")))
        if longest > MAX_LINE_CHARS:
            raise InputError(f"a line of {longest:,} characters; expected at most "
                             f"{MAX_LINE_CHARS:,} (README: Limits)", path)
    return text


_STDIN_TEXT: list[str] = []  # standard input, once read (it cannot be read twice)


def read_stdin() -> str:
    """Standard input's text, bounded as a file's is; read once, then kept."""
    if not _STDIN_TEXT:
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise InputError("no standard input to read", STDIN)
        try:
            _STDIN_TEXT.append(bounded_text(stream.read(MAX_BYTES + 1), "<stdin>"))
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror or exc}", "<stdin>") from None
    return _STDIN_TEXT[0]


def stdin_file() -> Path:
    """Standard input's text in a file of its own (`stdin.txt` in a private folder removed
    at exit), for solves whose lanes read the instance from a path."""
    import atexit
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="tilesolve-stdin-")
    atexit.register(shutil.rmtree, folder, True)
    path = Path(folder) / "stdin.txt"
    path.write_text(read_stdin(), encoding="utf-8")
    return path


def kind_of(mode: int) -> str | None:
    """What a file that is not a regular file is, in words; None for a regular file."""
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"))
    return next((word for test, word in kinds if test(mode)), None if stat.S_ISREG(mode)
                else "not a regular file")


def read_bytes(path: str | Path, limit: int = MAX_BYTES + 1) -> bytes:
    """At most `limit` bytes of a regular file. A FIFO or a device is refused before it is
    read (a FIFO blocked the open, /dev/zero never ends): opened without waiting for a
    writer, then looked at. OS errors (no such file, permission, a name too long, EIO from
    /proc/self/mem) are bad input, named in one line."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise InputError(os_reason(exc), path) from None
    try:
        kind = kind_of(os.fstat(fd).st_mode)
        if kind is not None:
            raise InputError(f"is {kind}; expected a regular file (- reads standard input)",
                             path)
        chunks, size = [], 0
        while size < limit and (chunk := os.read(fd, min(1 << 20, limit - size))):
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise InputError(os_reason(exc), path) from None
    finally:
        os.close(fd)


def os_reason(exc: OSError) -> str:
    """An OS error as the one line bad input gets: 'cannot read: Permission denied'."""
    import errno

    words = {errno.ENOENT: "no such file", errno.EISDIR: "is a directory, expected a file"}
    return words.get(exc.errno, f"cannot read: {exc.strerror or exc}")


def read_text(path: str | Path) -> str:
    """A text file's contents, bounded (core.bounds); `-` reads standard input, and a
    file://, http:// or https:// URL is read (fetched) too."""
    if str(path) == STDIN:
        return read_stdin()
    url = as_url(path)
    if url is not None:
        return read_url(url)
    return bounded_text(read_bytes(path), path)


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


NAME_MAX = 255  # bytes in one file name on Linux and macOS file systems
TEMP_NAME = 16  # what write_atomic's temporary name adds to the file's


def check_writable(path: str | Path, append: bool = False) -> Path:
    """Refuse in one line, before any work, an output path that cannot be written: a
    directory or a device (an atomic write would replace the device node), a name too long,
    a folder that is not one or not ours to write in (a file appended to: the file itself).
    The OS has the last word when the file is written."""
    path = Path(path)
    room = NAME_MAX - (0 if append else TEMP_NAME)
    if len(os.fsencode(path.name)) > room:
        raise InputError(f"file name too long; expected at most {room} bytes", path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", path) from None
    if mode is not None:
        kind = kind_of(mode)
        if kind is not None and not (append and stat.S_ISCHR(mode)):  # a log to /dev/stderr
            raise InputError(f"is {kind}; expected a file to write", path)
        if append:
            if not os.access(path, os.W_OK):
                raise InputError("cannot write: permission denied", path)
            return path
    folder = path.absolute().parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # write_atomic makes the missing folders
    if not folder.is_dir():
        raise InputError(f"cannot write: {folder} is not a directory", path)
    try:  # the OS's word, not access(): root passes access() on /sys, /proc and read-only mounts
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise InputError(f"cannot write in {folder}: {exc.strerror or exc}", path) from None
    return path


def write_atomic(path: str | Path, write) -> None:
    """Create `path` whole or not at all: `write(tmp)` fills a temporary file beside it, which
    then replaces `path` in one step (an interrupt leaves no partial file)."""
    import secrets

    from .scratch import tell_file  # the watcher's script imports nothing of ours

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)  # `-o out/board.txt` in a fresh checkout
    while True:
        tmp = str(path.parent / f".{path.name}.{secrets.token_hex(4)}{path.suffix}")
        tell_file(tmp)  # before it exists: a SIGKILL from here on leaves no temporary file
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            break
        except FileExistsError:
            continue
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
