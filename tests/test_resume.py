"""Long runs keep their work: a run stopped by SIGTERM is resumed (`--resume`) with its best
board and its figures, and keeps writing the same checkpoint.

Real runs of the command line on the 8x8 edge-matching instance with `--objective matches`
(the 16x16's portfolio took 12 s to its first board, the 8x8's 3 s): the first has no time
limit and is stopped by the signal once its checkpoint is on disk; the resumed run has a
few seconds. Waits poll, never a fixed sleep.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import uuid

import pytest
from conftest import ROOT, popen_cli, run_cli, wait_for, wait_gone

INSTANCE = "instances/e2_8x8.txt"
MARK = "# tilesolve checkpoint "


def _header(path) -> dict:
    line = path.read_text().splitlines()[0]
    assert line.startswith(MARK), line
    return json.loads(line[len(MARK):])


def _score(board) -> int:
    out = run_cli("verify", INSTANCE, str(board), "--objective", "matches", "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    return json.loads(out.stdout)["score"]


@contextlib.contextmanager
def _running(*args: str, tag: str):
    """The command, running; killed with its processes if the test ends before it does."""
    proc = popen_cli(*args, tag=tag)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=30)


@pytest.fixture(scope="module")
def stopped(tmp_path_factory):
    """A portfolio run stopped by SIGTERM after its checkpoint was written: (checkpoint,
    its JSON answer)."""
    folder = tmp_path_factory.mktemp("resume")
    checkpoint = folder / "run.txt"
    tag = uuid.uuid4().hex
    with _running("solve", INSTANCE, "--objective", "matches", "--json", "--quiet",
                  "--checkpoint", str(checkpoint), tag=tag) as proc:
        assert wait_for(checkpoint.exists), proc.communicate(timeout=5)
        os.kill(proc.pid, signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, out + err
    assert wait_gone(tag) == []
    return checkpoint, json.loads(out)


def test_a_stopped_run_leaves_its_board_and_figures(stopped):
    checkpoint, answer = stopped
    assert answer["status"] == "interrupted" and answer["verified"] is True
    head = _header(checkpoint)
    assert head["instance"] == "e2_8x8" and head["objective"] == "matches"
    assert head["runs"] == 1 and head["best_score"] == answer["objective"]
    assert head["total_seconds"] == answer["stats"]["total_seconds"] > 0
    assert "resumed_from" not in answer["stats"]
    assert _score(checkpoint) == answer["objective"]


def test_a_resumed_run_goes_on_from_the_board_and_its_figures(stopped, tmp_path):
    first, answer = stopped
    checkpoint = tmp_path / "run.txt"
    checkpoint.write_text(first.read_text())
    before = _header(checkpoint)
    r = run_cli("solve", INSTANCE, "--objective", "matches", "--json", "--quiet", "-t", "2",
                "--resume", str(checkpoint))
    assert r.returncode == 0, r.stdout + r.stderr
    res = json.loads(r.stdout)
    assert res["verified"] is True and res["objective"] >= answer["objective"]
    stats = res["stats"]
    assert stats["resumed_from"] == str(checkpoint) and stats["runs"] == 2
    assert stats["total_seconds"] > before["total_seconds"] + res["seconds"] * 0.9
    assert stats["total_cpu_seconds"] >= before["total_cpu_seconds"]
    assert stats["best_score"] == res["objective"]
    for key, count in before["totals"].items():  # the lanes' restarts, nodes... add up
        assert stats["totals"][key] >= count
    # the same checkpoint, rewritten: the resumed run's best and figures, and it verifies
    after = _header(checkpoint)
    assert after["runs"] == 2 and after["total_seconds"] == stats["total_seconds"]
    assert _score(checkpoint) == res["objective"]


def test_one_backend_resumes_too_and_json_checkpoints_work(stopped, tmp_path):
    first, answer = stopped
    board = tmp_path / "start.json"
    out = run_cli("solve", INSTANCE, "--objective", "matches", "--backend", "lns", "-t", "2",
                  "--quiet", "--resume", str(first), "--checkpoint", str(board), "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    res = json.loads(out.stdout)
    assert res["objective"] >= answer["objective"] and res["stats"]["runs"] >= 2
    saved = json.loads(board.read_text())
    assert saved["checkpoint"]["runs"] == res["stats"]["runs"]
    assert _score(board) == res["objective"]


def test_a_checkpoint_of_another_instance_is_refused(stopped):
    checkpoint, _ = stopped
    r = run_cli("solve", "instances/e2_7x7.txt", "--objective", "matches", "-t", "2",
                "--resume", str(checkpoint))
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and str(checkpoint) in lines[0]
    assert "a checkpoint of another instance (e2_8x8" in lines[0]


def test_a_broken_board_or_no_objective_is_refused(stopped, tmp_path):
    checkpoint, _ = stopped
    text = checkpoint.read_text().splitlines()
    cells = text[1].split()
    text[1] = " ".join([cells[1], *cells[1:]])  # the second piece twice
    broken = tmp_path / "broken.txt"
    broken.write_text("\n".join(text) + "\n")
    r = run_cli("solve", INSTANCE, "--objective", "matches", "-t", "2", "--json",
                "--resume", str(broken))
    assert r.returncode == 2, r.stdout
    assert "not a verified board" in json.loads(r.stdout)["error"]
    r = run_cli("solve", INSTANCE, "-t", "2", "--json", "--resume", str(checkpoint))
    assert r.returncode == 2
    assert json.loads(r.stdout)["error"] == \
        "--resume continues an --objective run; add --objective"


def test_a_stopped_portfolio_counts_the_cpu_of_its_lanes(tmp_path):
    """The lanes are killed at Ctrl-C and never report: the CPU their processes used goes
    into the figures all the same (it counted the parent's own alone: 2.3 CPU s for a
    two-lane run of 920 s)."""
    checkpoint, tag = tmp_path / "run.txt", uuid.uuid4().hex
    with _running("solve", INSTANCE, "--objective", "matches", "--threads", "2", "--json",
                  "--quiet", "--checkpoint", str(checkpoint), tag=tag) as proc:
        assert wait_for(checkpoint.exists), proc.communicate(timeout=5)
        start = _header(checkpoint)["total_seconds"]
        # two lanes searching for 4 s more: 8 CPU s on two free cores
        assert not wait_for(lambda: proc.poll() is not None, patience=4.0)
        os.kill(proc.pid, signal.SIGINT)
        out, _err = proc.communicate(timeout=120)
    assert wait_gone(tag) == []
    figures = json.loads(out)["stats"]
    assert figures["total_seconds"] >= start + 4.0
    # the parent alone used about 0.5 CPU s; the lanes at least a quarter core each
    assert figures["total_cpu_seconds"] >= 0.5 * figures["total_seconds"], figures
    assert _header(checkpoint)["total_cpu_seconds"] == figures["total_cpu_seconds"]


def test_the_figures_count_the_cpu_of_live_child_processes_while_the_run_goes(tmp_path):
    """A checkpoint written while a portfolio's lanes run counted the parent's CPU alone: the
    ledger now adds its live descendants' (here a grandchild that burns 1 CPU s under a
    child that waits for it, as a lane under the forkserver), and at the answer the larger of
    that and what the lanes reported, so a lane is not counted twice."""
    import subprocess
    import sys

    from tilesolve.core.checkpoint import Ledger, descendants_cpu
    from tilesolve.core.family import get_family

    family = get_family("edgematch")
    ledger = Ledger(family, family.read_instance(ROOT / INSTANCE), "matches")
    # 1.5 CPU s against a 1.0 bound: /proc counts in clock ticks, which may fall a tick short
    burn = ("import os, time\nt = time.process_time()\n"
            "while time.process_time() - t < 1.5: pass\n"
            "print(os.getpid(), flush=True)\ntime.sleep(60)\n")
    parent = ("import subprocess, sys\n"
              f"p = subprocess.Popen([sys.executable, '-c', {burn!r}])\np.wait()\n")
    child = subprocess.Popen([sys.executable, "-c", parent], stdout=subprocess.PIPE, text=True)
    grandchild = int(child.stdout.readline())
    try:
        # the child's subtree alone: other tests' processes may end meanwhile
        assert wait_for(lambda: descendants_cpu(child.pid) >= 1.0, patience=60.0)
        assert ledger.children_cpu() >= 1.0  # the grandchild's share of this process's
    finally:
        os.kill(grandchild, signal.SIGKILL)
        child.wait(timeout=30)
        child.stdout.close()
    assert descendants_cpu(child.pid) == 0.0  # both gone: their CPU is now this process's own
    ledger.lanes_cpu = 0.0
    ledger.ended = (0.0, 0.0, 3.0)
    assert ledger.children_cpu() == 3.0
    ledger.lanes_cpu = 5.0
    assert ledger.children_cpu() == 5.0
