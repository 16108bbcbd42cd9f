"""Shared test helpers: paths to shipped and public instances, and running the real CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
E2_DATA = ROOT.parent / "shared" / "e2_data"


def run_cli(*args: str, timeout: float = 300,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run `tilesolve ARGS...` as a process of its own, as a user would (`env`: extra
    variables): a fork of the tests' command server (tests/cliserver.py), or a fresh
    interpreter when TILESOLVE_TESTS_FRESH=1 or the server cannot start."""
    argv = [str(a) for a in args]
    server = _cli_server()
    if server is not None:
        return server.run(argv, timeout, {**os.environ, **(env or {})})
    return subprocess.run(
        [sys.executable, "-m", "tilesolve", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=None if env is None else {**os.environ, **env},
    )


class _CliServer:
    """The client of tests/cliserver.py: one command at a time."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "cliserver.py")],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT)
        self.pending = b""

    def _reply(self, timeout: float | None) -> dict | None:
        """The next JSON line, or None when `timeout` seconds pass first."""
        import select

        end = None if timeout is None else time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.pending:
            left = None if end is None else max(0.0, end - time.monotonic())
            if left == 0.0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 4096)
            if not chunk:
                raise RuntimeError("the tests' command server ended")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return json.loads(line)

    def run(self, argv: list[str], timeout: float, env: dict) -> subprocess.CompletedProcess:
        import signal
        import tempfile

        cmd = [sys.executable, "-m", "tilesolve", *argv]
        with tempfile.TemporaryDirectory(prefix="tilesolve-cli-") as tmp:
            out, err = Path(tmp) / "out", Path(tmp) / "err"
            req = {"args": argv, "env": env, "cwd": str(ROOT), "out": str(out), "err": str(err)}
            self.proc.stdin.write(json.dumps(req).encode() + b"\n")
            self.proc.stdin.flush()
            pid = self._reply(60)["pid"]
            done = self._reply(timeout)
            if done is None:  # as subprocess.run: the command is killed, then waited for
                os.kill(pid, signal.SIGKILL)
                self._reply(None)
                raise subprocess.TimeoutExpired(cmd, timeout, output=_text(out),
                                                stderr=_text(err))
            return subprocess.CompletedProcess(cmd, done["rc"], _text(out), _text(err))

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        self.proc.stdout.close()  # else collected at the exit: "unclosed file" ResourceWarning


def _text(path: Path) -> str:
    with open(path, encoding="utf-8", errors="strict", newline=None) as f:
        return f.read()


_SERVER: list[_CliServer | None] = []


def _cli_server() -> _CliServer | None:
    if not _SERVER:
        server = None
        if os.environ.get("TILESOLVE_TESTS_FRESH") != "1" and hasattr(os, "fork"):
            try:
                server = _CliServer()
            except OSError:
                server = None
        _SERVER.append(server)
    return _SERVER[0]


def pytest_sessionfinish(session, exitstatus) -> None:
    if _SERVER and _SERVER[0] is not None:
        _SERVER[0].close()


@pytest.fixture
def cli():
    return run_cli


def ignored_signals() -> tuple[int, object]:
    """The signals this process ignores, as the kernel sees them (/proc: set by Python or by
    a solver's own C code), and Python's SIGINT handler."""
    import signal

    try:
        with open("/proc/self/status") as f:
            mask = next((int(line.split()[1], 16) for line in f if line.startswith("SigIgn:")),
                        0)
    except OSError:  # no /proc: Python's view alone
        mask = 0
    return mask, signal.getsignal(signal.SIGINT)


@pytest.fixture(autouse=True)
def signals_left_as_found():
    """A test, and the library code it calls, leaves the process's signal handling as it found
    it: a script that calls the API must still stop on Ctrl-C afterwards."""
    before = ignored_signals()
    yield
    assert ignored_signals() == before, "the test left this process's signal handling changed"


def needs_e2_data() -> pytest.MarkDecorator:
    return pytest.mark.skipif(not E2_DATA.exists(), reason="public edge-matching data not present")


def tagged_processes(tag: str) -> list[int]:
    """Processes (ours) whose environment carries the tag: the CLI and all it started."""
    pids = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            env = (d / "environ").read_bytes()
        except OSError:
            continue
        if f"TILESOLVE_TEST_TAG={tag}".encode() in env:
            pids.append(int(d.name))
    return pids


def wait_gone(tag: str, patience: float = 60.0) -> list[int]:
    """The tagged processes still alive after waiting up to `patience` seconds."""
    wait_for(lambda: not tagged_processes(tag), patience, 0.2)
    return tagged_processes(tag)


def wait_for(condition, patience: float = 120.0, step: float = 0.1) -> bool:
    """Poll `condition()` until it is true or `patience` seconds have passed (a loaded
    machine can take many times longer than an idle one: never a fixed sleep)."""
    end = time.monotonic() + patience
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(step)
    return True


def ctrl_c_default() -> None:
    """A child's `preexec_fn`: Ctrl-C at its default, as from a terminal, whatever an earlier
    test left in this process (an ignored SIGINT is inherited, and Python keeps ignoring it)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def popen_cli(*args: str, tag: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    """Start `tilesolve ARGS...` in its own session, its processes tagged in the environment
    (`env`: extra variables)."""
    env = {**os.environ, **(env or {}), "TILESOLVE_TEST_TAG": tag}
    return subprocess.Popen(
        [sys.executable, "-m", "tilesolve", *args], cwd=ROOT, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )


def walk(searcher, steps: int = 40, budget: int = 997) -> list[tuple]:
    """A resumable search run in small steps: (code, nodes, deepest, board) per step, to
    compare two cores (or two settings) that must walk the same tree."""
    out = []
    for _ in range(steps):
        code, nodes = searcher.step(budget)
        out.append((code, nodes, searcher.max_depth, searcher.solution() if code == 1 else None))
        if code == -1:
            break
    return out
