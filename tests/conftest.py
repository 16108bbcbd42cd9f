"""Shared test helpers: paths to shipped and public instances, and running the real CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
E2_DATA = ROOT.parent / "shared" / "e2_data"


def run_cli(*args: str, timeout: float = 300,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run `tesserae ARGS...` in a subprocess, as a user would (`env`: extra variables)."""
    return subprocess.run(
        [sys.executable, "-m", "tesserae", *map(str, args)],
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
