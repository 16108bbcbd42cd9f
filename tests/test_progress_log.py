"""A log that cannot be written (`--log-jsonl` on a full disk) ends the log, not the run: one
warning line names the file, and the answer still comes (it was an internal error, exit 1,
and the board was lost)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_log_on_a_full_disk_warns_once_and_the_run_answers():
    # the 4x4's optimum is proven at once: the run ends by itself, its boards logged first
    r = run_cli("solve", "instances/e2_4x4.txt", "--backend", "cpsat", "--objective",
                "matches", "--threads", "1", "-t", "60", "--json", "--log-jsonl", "/dev/full")
    out = json.loads(r.stdout)
    assert r.returncode == 0 and out["verified"] and out["objective"] > 0, r.stderr
    warnings = [line for line in r.stderr.splitlines() if "/dev/full" in line]
    assert warnings == ["warning: --log-jsonl /dev/full: cannot write (No space left on "
                        "device); the run goes on without its log"]
