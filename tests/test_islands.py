"""Islands on Dask: real two-worker clusters, every board scored again by the client."""

from __future__ import annotations

import importlib
import json
import os
import signal
import time
import uuid

import pytest
from conftest import INSTANCES, popen_cli, run_cli, tagged_processes, wait_gone

from tilesolve.core.errors import InputError
from tilesolve.core.family import load_instance
from tilesolve.core.result import SolveOptions, SolveResult, Status

distributed = pytest.importorskip("distributed")

from tilesolve.hybrid.islands import Found, Islands, migrate, run_island  # noqa: E402

BOARD = INSTANCES / "e2_8x8.txt"  # 3 frame / 8 inner colours: not solved in seconds
LIAR = 10**6  # the score a lying worker claims


def _verified_score(path, board_json: dict) -> int:
    family, inst = load_instance(path)
    sol = family.solution_from_json(inst, board_json, "<test>")
    report = family.verify(inst, sol, "matches")
    assert report.ok
    return report.score


@pytest.fixture(scope="module")
def cluster():
    """A running two-worker cluster, its imports done (the tests time the islands, not the
    start of a cluster on a loaded machine; the Ctrl-C test starts the default one)."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as running:
        with distributed.Client(running) as client:
            client.run(importlib.import_module, "tilesolve.families.edgematch.memetic")
        yield running


def test_islands_on_an_existing_cluster_report_a_verified_board_and_its_island(
        cluster, tmp_path):
    jsonl, board = tmp_path / "progress.jsonl", tmp_path / "best.txt"
    # 5 s less the start and the closing margin: epochs of 1.5 s (8 s took 14 CPU s)
    res = run_cli("solve", BOARD, "--objective", "matches", "--islands", "2", "-t", "5",
                  "--epoch", "1.5", "--island-methods", "lns,memetic", "--json",
                  "--scheduler", cluster.scheduler_address,
                  "--progress-jsonl", jsonl, "-o", board, timeout=120)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["backend"] == "islands" and data["status"] == "feasible" and data["verified"]
    assert data["objective"] == _verified_score(BOARD, data["solution"])
    stats = data["stats"]
    assert stats["islands"] == 2 and stats["scheduler"] == cluster.scheduler_address
    assert stats["methods"] == ["lns", "memetic"] and stats["rejected"] == []
    where = stats["best_from"]
    assert where["island"] in (0, 1) and where["method"] in ("lns", "memetic")
    assert where["source"] in ("lns", "ga", "backtracker", "hint")
    # every island ran the method its turn gives it: (island + epoch) mod 2
    assert stats["epochs"]
    for epoch in stats["epochs"]:
        for run in epoch["runs"]:
            assert run["method"] == ("lns", "memetic")[(run["island"] + epoch["epoch"]) % 2]
    lines = [json.loads(x) for x in jsonl.read_text().splitlines()]
    assert lines and lines[-1]["score"] == data["objective"] and lines[-1]["max"] == 112
    assert lines[-1]["island"] == where["island"] and lines[-1]["method"] == where["method"]
    assert [x["score"] for x in lines] == sorted({x["score"] for x in lines})
    check = run_cli("verify", BOARD, board, "--objective", "matches", "--json")
    assert check.returncode == 0 and json.loads(check.stdout)["score"] == data["objective"]
    assert len(cluster.workers) == 2  # an existing cluster is left running


def test_more_islands_than_worker_threads_are_refused_in_one_line(cluster):
    res = run_cli("solve", BOARD, "--objective", "matches", "--islands", "3", "-t", "20",
                  "--scheduler", cluster.scheduler_address, "--json", timeout=120)
    assert res.returncode == 2, res.stderr
    assert json.loads(res.stdout)["status"] == "bad-input"
    assert res.stderr == (f"error: --islands 3 needs a worker thread per island; the Dask "
                          f"cluster at {cluster.scheduler_address} has 2 (start more `dask "
                          f"worker` processes or give --islands 2)\n")
    assert len(cluster.workers) == 2  # the cluster is left as it was


def test_lying_workers_are_rescored_and_broken_boards_rejected(cluster):
    def lying(task):
        """The real island, whose answer is then tampered with: island 1 claims an
        impossible score, island 0 hands back a board with one piece twice."""
        answer = run_island(task)
        if task.island == 1:
            answer["claimed"] = LIAR
        elif answer["board"] is not None:
            rows = json.loads(answer["board"])
            rows["board"][0][1] = rows["board"][0][0]
            answer.update(board=json.dumps(rows), claimed=LIAR)
        return answer

    family, inst = load_instance(BOARD)
    # two epochs of 1.5 s and 3 s, 2 s of room for a late first answer (10 s: 15 CPU s)
    opts = SolveOptions(time_limit=6, objective="matches",
                        params={"epoch": "1.5", "island_methods": "lns"})
    res = Islands(family, inst, str(BOARD), opts, 2, cluster.scheduler_address,
                  task=lying).run()
    assert isinstance(res, SolveResult) and res.status == Status.FEASIBLE and res.verified
    assert res.objective == _verified_score(BOARD, res.solution) < LIAR
    epochs = res.stats["epochs"]
    runs = [r for e in epochs for r in e["runs"]]
    liars = [r for r in runs if r["island"] == 1 and r.get("claimed") == LIAR]
    assert liars and all(r["score"] < LIAR for r in liars)
    assert res.stats["rescored"] >= len(liars)
    rejected = res.stats["rejected"]
    assert rejected and {r["island"] for r in rejected} == {0}
    assert all("verification" in r["reason"] for r in rejected)
    # the next epoch starts from verified boards only: the best of the first, never a claim
    assert len(epochs) >= 2
    first = max(r["score"] for r in epochs[0]["runs"] if r.get("score"))
    assert all(first <= r["start_score"] <= res.objective for r in epochs[1]["runs"])


def _found(score: int, island: int) -> Found:
    res = SolveResult("x", "edgematch", "islands", Status.FEASIBLE, True, 0.0, objective=score)
    return Found(res, {}, island, 0, "lns", "lns")


def test_migration_ring_passes_the_better_board_on_and_best_sends_the_top_one_everywhere():
    a, b, c = _found(100, 0), _found(105, 1), _found(103, 2)
    assert migrate([a, b, c], "ring") == [c, b, b]
    assert migrate([a, b, c], "best") == [b, b, b]
    assert migrate([None, a, None], "ring") == [None, a, a]
    assert migrate([None, None], "best") == [None, None]


def test_islands_options_are_checked_with_one_line():
    for args, word in ((("--scheduler", "tcp://127.0.0.1:1"), "--islands"),
                       (("--islands", "2", "-t", "5", "--backend", "lns"), "--backend")):
        res = run_cli("solve", BOARD, "--objective", "matches", *args)
        assert res.returncode == 2, (args, res.stderr)
        assert word in res.stderr and "Traceback" not in res.stderr
        assert len(res.stderr.strip().splitlines()) == 1
    family, inst = load_instance(BOARD)
    for limit, params, word in ((None, {}, "--time-limit"),
                                (5, {"migration": "star"}, "--migration"),
                                (5, {"island_methods": "lns,nope"}, "nope"),
                                (5, {"epoch": "-1"}, "--epoch"),
                                (5, {"breaks": "3", "pop": "9"}, "--pop")):
        opts = SolveOptions(time_limit=limit, objective="matches", params=params)
        with pytest.raises(InputError, match=word):
            Islands(family, inst, str(BOARD), opts, 2)


def test_ctrl_c_closes_the_local_cluster_with_no_process_left(tmp_path):
    tag, jsonl = uuid.uuid4().hex, tmp_path / "progress.jsonl"
    proc = popen_cli("solve", str(BOARD), "--objective", "matches", "--islands", "2",
                     "-t", "120", "--epoch", "30", "--progress-jsonl", str(jsonl), tag=tag)
    end = time.monotonic() + 60
    while not (jsonl.exists() and jsonl.read_text()) and time.monotonic() < end:
        time.sleep(0.2)  # wait until the islands run: a first board has come back
    assert len(tagged_processes(tag)) >= 3  # the command and its two workers
    os.killpg(proc.pid, signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert wait_gone(tag) == []
