"""Helpers shared by the bounds, signal, agreement and fuzz tests: the command under a 2 GB
address-space limit, its one-line error, a signal sent as a user sends it with the check that
nothing is left behind, and every backend's status on one puzzle."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from conftest import ROOT, wait_for, wait_gone

from tilesolve.core.errors import InputError
from tilesolve.core.result import SolveOptions
from tilesolve.dispatch import solve_file

TWO_GB = 2 * 1024**3


def under_2gb() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (TWO_GB, TWO_GB))


def run(*args, stdin=None, timeout: float = 60, preexec=under_2gb):
    """`tilesolve ARGS` as a user runs it, within 2 GB of address space."""
    return subprocess.run([sys.executable, "-m", "tilesolve", *map(str, args)],
                          input=stdin, capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, preexec_fn=preexec)


def one_line_error(r, code: int = 2) -> str:
    """The run's one-line error (no traceback), with exit `code`."""
    assert r.returncode == code, (r.returncode, r.stderr[-500:])
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    return lines[0]


# --------------------------------------------------------------------------- signals
# SIGINT goes to the whole process group, as a terminal's Ctrl-C does; the others to the
# command alone, as `kill` does. The exit code is the shell's 128 + signal (-9: killed).
SIGNALS = {"ctrl-c": (signal.SIGINT, 130), "sigterm": (signal.SIGTERM, 143),
           "kill-9": (signal.SIGKILL, -9)}


def send(proc, sig: int) -> None:
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)
    else:
        os.kill(proc.pid, sig)


def signal_and_check(proc, sig: int, code: int | tuple, tag: str, tmp: Path, before):
    """`before()`, the signal, then the exit `code` (or one of them), no tagged process and
    no file left in `tmp`: (stdout, stderr)."""
    try:
        before()
        send(proc, sig)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode in (code if isinstance(code, tuple) else (code,)), err
    assert wait_gone(tag) == []
    assert wait_for(lambda: not any(tmp.iterdir()), 30), list(tmp.rglob("*"))
    return out, err


# --------------------------------------------------------------------------- agreement
EXACT = ("cpsat", "milp", "sat")
HEURISTIC = ("ga", "search")
DECIDED = ("solved", "infeasible")


def write(text: str, prefix: str = "agree_") -> Path:
    fd, name = tempfile.mkstemp(suffix=".txt", prefix=prefix)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    return Path(name)


def answers(path: Path, backends=EXACT + HEURISTIC, exact_limit: float = 60,
            heuristic_limit: float = 3) -> dict[str, str]:
    """Each backend's status on the puzzle, `refused` for a one-line refusal."""
    out = {}
    for backend in backends:
        limit = exact_limit if backend in EXACT else heuristic_limit
        try:
            res = solve_file(path, backend, SolveOptions(time_limit=limit, threads=1))
        except InputError as exc:
            assert "\n" not in exc.message, exc.message
            out[backend] = "refused"
            continue
        assert res.status.value != "solved" or res.verified, (backend, res.violations)
        out[backend] = res.status.value
    return out


def one_status(found: dict[str, str], exact_decide: bool = True) -> str | None:
    """The status the deciding backends share (failing when two differ, when one answers
    `error`, or, with `exact_decide`, when an exact backend that ran did not decide); None
    when none decided."""
    assert "error" not in found.values(), found
    decided = {s for s in found.values() if s in DECIDED}
    assert len(decided) <= 1, found
    if exact_decide:
        assert len(decided) == 1, found
        assert all(found.get(b) in (*DECIDED, "refused", None) for b in EXACT), found
    return decided.pop() if decided else None
