"""An interrupted run keeps its best verified board: in the answer, in -o, on disk as it goes.

Real runs of the command line on an 8x8 edge-matching instance with `--objective matches`
(no time limit: only the signal ends them; 112 joins are not reached in minutes). Each waits
until the run has written verified boards while it still runs, then sends the signal; every
board the run left is checked by the family's checker (`Puzzle.verify`, what `tilesolve
verify` runs). Waits poll with a generous patience, never a fixed sleep.
"""

from __future__ import annotations

import json
import os
import signal
import uuid
from pathlib import Path

import pytest
from conftest import popen_cli, wait_for, wait_gone

import tilesolve

# the 16x16's portfolio took 12 s to its first board, the 8x8's 3 s
INSTANCE = "instances/e2_8x8.txt"
# SIGINT to the whole process group, as a terminal's Ctrl-C; the others to the command alone
RUNS = {
    "ctrl-c portfolio": (signal.SIGINT, 130, ()),
    "sigterm lns": (signal.SIGTERM, 143, ("--backend", "lns")),
    "sighup search": (signal.SIGHUP, 129, ("--backend", "search")),
}


def _start(tmp_path: Path, *extra: str) -> tuple:
    tag = uuid.uuid4().hex
    log = tmp_path / "log.jsonl"
    proc = popen_cli("solve", INSTANCE, "--objective", "matches", "--json", "--quiet",
                     "--log-jsonl", str(log), *extra, tag=tag)
    return proc, tag, log


def _lines(log: Path) -> list[dict]:
    text = log.read_text() if log.exists() else ""
    return [json.loads(line) for line in text.splitlines() if line.endswith("}")]


def _score(board: Path | str) -> int:
    """The checker's score of a board file (the checker must accept it)."""
    report = tilesolve.load(INSTANCE).verify(board, "matches")
    assert report.ok, report
    return report.score


def _send(proc, sig: int) -> str:
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)
    else:
        os.kill(proc.pid, sig)
    out, err = proc.communicate(timeout=120)
    return out


def _stop(proc) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=30)


@pytest.mark.parametrize("run", RUNS)
def test_a_signal_answers_with_the_best_board_and_writes_it(run, tmp_path):
    sig, code, backend = RUNS[run]
    out_file, checkpoint = tmp_path / "best.txt", tmp_path / "checkpoint.json"
    proc, tag, log = _start(tmp_path, *backend, "-o", str(out_file), "--checkpoint",
                            str(checkpoint), "--log-boards")
    try:
        # verified boards are on disk while the run goes on
        assert wait_for(lambda: checkpoint.exists() and len(_lines(log)) >= 2), \
            proc.communicate(timeout=5)
        assert proc.poll() is None
        during = _score(checkpoint)
        assert during > 0
        out = _send(proc, sig)
    finally:
        _stop(proc)
    assert proc.returncode == code, out
    answer = json.loads(out)
    assert answer["status"] == "interrupted" and answer["verified"] is True
    assert answer["stats"]["interrupted_by"] == signal.Signals(sig).name
    assert answer["objective_max"] == 112 and answer["objective"] >= during
    assert answer["solution"]["board"]
    # the work done so far is counted (placements of the search, also the LNS's start board's
    # and a portfolio's lanes stopped before they answered): a resumed run goes on from it
    assert answer["stats"]["totals"].get("nodes", 0) > 0, answer["stats"]
    # the answer's board is the one in -o, in the checkpoint and in the last log line
    assert _score(out_file) == _score(checkpoint) == answer["objective"]
    lines = _lines(log)
    assert lines[-1]["verified"] and lines[-1]["score"] == answer["objective"]
    # every logged board (the first ones and the last) verifies with its score
    for entry in [*lines[:3], lines[-1]]:
        line = tmp_path / "line.json"
        line.write_text(json.dumps(entry))
        assert _score(line) == entry["score"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "best.txt", "checkpoint.json", "line.json", "log.jsonl"]
    assert wait_gone(tag) == []


def test_kill_9_leaves_the_last_board_whole_and_no_temporary_file(tmp_path):
    out_file = tmp_path / "best.txt"
    proc, tag, log = _start(tmp_path, "-o", str(out_file))
    try:
        # -o is rewritten at each improvement of an --objective run: wait for a second one
        assert wait_for(lambda: out_file.exists() and len(_lines(log)) >= 2), \
            proc.communicate(timeout=5)
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
    finally:
        _stop(proc)
    assert proc.returncode == -signal.SIGKILL
    assert wait_gone(tag) == []
    assert _score(out_file) in {entry["score"] for entry in _lines(log)}
    # a temporary file made just before the kill is removed by the watcher once the run is gone
    assert wait_for(lambda: sorted(p.name for p in tmp_path.iterdir()) ==
                    ["best.txt", "log.jsonl"]), sorted(p.name for p in tmp_path.iterdir())


def test_log_boards_needs_a_log(cli):
    out = cli("solve", INSTANCE, "--objective", "matches", "--log-boards", "--json")
    assert out.returncode == 2
    assert json.loads(out.stdout)["error"] == \
        "--log-boards adds boards to --log-jsonl; add --log-jsonl FILE"
