"""Shared test helpers: paths to shipped and public instances, and running the real CLI."""

from __future__ import annotations

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
    """Run `tilesolve ARGS...` in a subprocess, as a user would (`env`: extra variables)."""
    return subprocess.run(
        [sys.executable, "-m", "tilesolve", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=None if env is None else {**os.environ, **env},
    )


@pytest.fixture
def cli():
    return run_cli


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
