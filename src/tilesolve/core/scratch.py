"""A private scratch folder for a solver binary that neither the folder nor the binary outlives.

PuLP writes CBC's model, warm start and solution into files (68 MB of MPS for the 16x16
edge-matching board) and waits on the binary without giving us a handle to it. Each solve
gets its own folder; on the way out (an answer, an exception, Ctrl-C or SIGTERM turned into
an exception) every process of ours whose command line names the folder is killed and the
folder removed. When the solving process dies by SIGKILL, no code of it runs: a small
watcher process, started with the folder, holds the read end of a pipe from it; the end of
file tells the watcher the solver's owner is gone, and it does the same clean-up.

Processes are found through /proc (Linux); elsewhere only the folder is removed.

The same watcher removes the temporary files that `textfile.write_atomic` makes beside an
output (`leftovers`): a SIGKILL between such a file's creation and its rename left it behind
(once in four clean test runs), so each name is told to the watcher before the file exists.

This file runs as the watcher script too (`python -I -S scratch.py`, the names on its stdin,
not on its command line, so that the watcher is not one of the folder's users), so it
imports nothing but the standard library.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path


def users(folder: str) -> list[int]:
    """Our processes (not this one) whose command line names `folder`."""
    me, mine, needle = os.getpid(), os.getuid(), os.fsencode(folder)
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if entry.stat().st_uid != mine or int(entry.name) == me:
                continue
            if needle in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except (OSError, ValueError):
            continue
    return found


def kill_users(folder: str, sig: int = signal.SIGKILL) -> None:
    """Stop the binaries working in `folder` (CBC ignores SIGINT; its answer is lost anyway)."""
    for pid in users(folder):
        with contextlib.suppress(OSError):
            os.kill(pid, sig)


def clean(folder: str) -> None:
    kill_users(folder)
    shutil.rmtree(folder, ignore_errors=True)


_WATCHER = [sys.executable, "-I", "-S", os.path.abspath(__file__)]  # this file, as the watcher


def watch(folder: str | None = None) -> subprocess.Popen:
    """A watcher that cleans `folder` once this process ends, however it ends: a process in
    its own session (a Ctrl-C or a signal to our process group does not reach it) that waits
    for the end of file on its stdin, whose write end only this process holds. Without a
    folder it waits for one (`tell`)."""
    watcher = subprocess.Popen(
        _WATCHER,
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    if folder is not None:
        tell(watcher, folder)
    return watcher


_HELD: list[int] = []  # the pipes' write ends of the watchers held until this process ends


def watch_until_exit(folder: str) -> None:
    """A watcher that cleans `folder` once this process ends, held by nothing but the write
    end of its pipe as a bare descriptor, which only the process's end closes. `watch`'s
    Popen and pipe objects, kept to the end, were collected at the interpreter's exit with a
    ResourceWarning each ("subprocess ... is still running", "unclosed file") in the test
    runs that start a race in-process."""
    read, write = os.pipe()  # both close on exec: no other child of ours holds the write end
    try:
        os.posix_spawn(sys.executable, _WATCHER, os.environ, setsid=True, file_actions=[
            (os.POSIX_SPAWN_DUP2, read, 0),
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
    except BaseException:
        os.close(write)
        raise
    finally:
        os.close(read)
    os.write(write, b"D" + os.fsencode(folder) + b"\n")
    _HELD.append(write)


def tell(watcher: subprocess.Popen, name: str, kind: bytes = b"D") -> None:
    """Give a watcher a folder to clean (kind D), or a file to remove if it still exists when
    this process ends (kind F)."""
    watcher.stdin.write(kind + os.fsencode(name) + b"\n")
    watcher.stdin.flush()


_LEFTOVERS: tuple[int, subprocess.Popen] | None = None  # (owner pid, watcher) of this process


def leftovers() -> subprocess.Popen | None:
    """This process's watcher of temporary files (started on first use, one per process:
    a forked child starts its own); None where no watcher can be started."""
    global _LEFTOVERS
    if _LEFTOVERS is None or _LEFTOVERS[0] != os.getpid():
        try:
            _LEFTOVERS = (os.getpid(), watch())
        except OSError:
            return None
        atexit.register(_release_leftovers, *_LEFTOVERS)
    return _LEFTOVERS[1]


def _release_leftovers(owner: int, watcher: subprocess.Popen) -> None:
    """At a normal exit: let the watcher go (it removes what is left) and reap it."""
    if os.getpid() == owner:
        with contextlib.suppress(OSError, ValueError):
            release(watcher)


def tell_file(path: str) -> None:
    """Have `path` removed, if it is still there, once this process ends however it ends."""
    watcher = leftovers()
    if watcher is not None:
        with contextlib.suppress(OSError, ValueError):
            tell(watcher, path, b"F")


def release(watcher: subprocess.Popen) -> None:
    """Let the watcher go now (it finds nothing left and exits)."""
    watcher.stdin.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        watcher.wait(5)


@contextlib.contextmanager
def scratch_folder(prefix: str) -> Iterator[str]:
    """A fresh folder in the temporary directory, cleaned however this process ends. The
    watcher starts first and the folder is made after: a process killed while the watcher
    starts (tens of milliseconds) leaves no folder behind, where made first it did (one
    SIGTERM of 60 at a portfolio's lane start left one)."""
    folder, watcher = None, None
    try:
        watcher = watch()
        folder = tempfile.mkdtemp(prefix=prefix)
        tell(watcher, folder)
        yield folder
    finally:
        if folder is not None:
            clean(folder)
        if watcher is not None:
            release(watcher)


def _watcher_main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    folders, files = [], set()
    for line in sys.stdin.buffer:  # until the end of file: the owner is gone
        kind, name = line[:1], os.fsdecode(line[1:].rstrip(b"\n"))
        if name:
            (files.add(name) if kind == b"F" else folders.append(name))
    for name in files:
        with contextlib.suppress(OSError):
            os.unlink(name)
    for folder in folders:
        clean(folder)


if __name__ == "__main__":
    _watcher_main()
