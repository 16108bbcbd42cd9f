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
from tilesolve.hybrid.streams import Trail, stream_seed, summary  # noqa: E402

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
    # 3.5 s less the start and the closing margin: epochs of 1 s (8 s took 14 CPU s)
    res = run_cli("solve", BOARD, "--objective", "matches", "--islands", "2", "-t", "3.5",
                  "--epoch", "1", "--island-methods", "lns,memetic", "--json",
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


def test_streams_run_seeded_break_searches_and_sum_their_counters(cluster):
    # 3 s in tasks of 1 s: two tasks or more a stream
    res = run_cli("solve", BOARD, "--objective", "matches", "--islands", "2", "-t", "3",
                  "--epoch", "1", "--migration", "none", "--island-methods", "search",
                  "--break-rule", "blackwood", "--json",
                  "--scheduler", cluster.scheduler_address, timeout=120)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["verified"] and data["objective"] == _verified_score(BOARD, data["solution"])
    stats = data["stats"]
    assert stats["migration"] == "none" and stats["epochs"] == [] and stats["rejected"] == []
    tasks = [t for t in stats["tasks"] if t.get("nodes") is not None]
    assert {t["island"] for t in tasks} == {0, 1}
    seeds = [t["seed"] for t in stats["tasks"]]
    assert len(set(seeds)) == len(seeds)  # each task a seed of its own, started from nothing
    assert all("start_score" not in t for t in stats["tasks"])
    for t in tasks:
        assert t["nodes"] > 0 and t["restarts"] >= 0 and 0 < t["max_depth"] <= 64
        if t.get("score") is not None:  # the backend's breaks, as the client counted them
            assert t["score"] == 112 - t["breaks"] == t["trail"]["boards"][-1][1]
    streams = stats["streams"]
    total = streams["total"]
    assert total["nodes"] == sum(t["nodes"] for t in tasks) and total["tasks"] == len(tasks)
    assert total["runs"] == sum(t["restarts"] + 1 for t in tasks)
    assert [s["island"] for s in streams["streams"]] == [0, 1]
    assert sum(s["nodes"] for s in streams["streams"]) == total["nodes"]
    assert set(streams["workers"]) == set(cluster.scheduler_info["workers"])
    assert sum(w["nodes"] for w in streams["workers"].values()) == total["nodes"]
    assert max(total["task_scores"], key=int) == str(data["objective"])


@pytest.mark.slow
def test_streams_on_the_default_local_cluster_count_each_workers_placements():
    board = INSTANCES / "e2_16x16.txt"
    res = run_cli("solve", board, "--objective", "matches", "--islands", "2", "-t", "20",
                  "--migration", "none", "--island-methods", "search", "--break-rule",
                  "blackwood", "--epoch", "6", "--json", timeout=180)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["verified"] and data["objective"] == _verified_score(board, data["solution"])
    streams = data["stats"]["streams"]
    assert data["stats"]["scheduler"] == "local" and len(streams["workers"]) == 2
    assert all(w["nodes"] > 0 and w["tasks"] >= 1 for w in streams["workers"].values())
    assert [s["tasks"] for s in streams["streams"]] == [
        sum(t["island"] == i and t.get("nodes") is not None for t in data["stats"]["tasks"])
        for i in (0, 1)]


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
    # epochs of 1 s, 2 s of room for a late first answer (10 s: 15 CPU s; 6 s: 7 CPU s)
    opts = SolveOptions(time_limit=4.5, objective="matches",
                        params={"epoch": "1", "island_methods": "lns"})
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


def test_stream_seeds_never_repeat_another_streams_runs():
    """The break search seeds run r with seed + 7919 r: no two tasks' seeds may be a small
    multiple of 7919 apart (seed + 7919 * island did: island 1's first run was island 0's
    second)."""
    seeds = [stream_seed(0, i, k) for i in range(8) for k in range(50)]
    assert len(set(seeds)) == len(seeds) and seeds[0] == stream_seed(0, 0, 0)
    assert all((a - b) % 7919 or abs(a - b) > 7919 * 10**3
               for a in seeds for b in seeds if a != b)
    assert stream_seed(1, 0, 0) != stream_seed(0, 0, 0)


def test_ring_islands_seeds_never_repeat_another_islands_runs():
    # the ring and best modes seeded island i's epoch e with seed + 7919 i + 104729 e, so
    # island 1's search repeated island 0's second restart (seed + 7919)
    family, inst = load_instance(BOARD)
    isl = Islands(family, inst, str(BOARD), SolveOptions(time_limit=60, objective="matches"), 4)
    seeds = [isl._task(i, e, 0.0, 0.0, None, "c", "s").seed for i in range(4) for e in range(20)]
    assert len(set(seeds)) == len(seeds)
    assert all((a - b) % 7919 or abs(a - b) > 7919 * 10**3
               for a in seeds for b in seeds if a != b)


def test_the_trail_notes_the_restart_of_each_new_depth_and_board():
    seen = []
    trail = Trail(seen.append)
    for restarts, depth in ((0, 10), (0, 30), (1, 25), (2, 31), (2, 31)):
        trail({"nodes": 1, "depth": depth, "restarts": restarts})
        if depth == 31:
            trail.board(100)
    trail({"best": 100})
    assert trail.json() == {"depths": [[0, 10], [0, 30], [2, 31]],
                            "boards": [[2, 100], [2, 100]]}
    assert len(seen) == 6  # everything goes on to the progress stream
    assert Trail().json() is None


def test_the_summary_adds_up_streams_and_workers():
    runs = [{"island": 0, "worker": "a", "nodes": 600, "restarts": 2, "max_depth": 50,
             "breaks": 4, "score": 108, "seconds": 2.0, "cpu_seconds": 2.0, "started": 1.0,
             "ended": 3.0},
            {"island": 1, "worker": "b", "nodes": 300, "restarts": 0, "max_depth": 64,
             "breaks": 3, "score": 109, "seconds": 1.0, "cpu_seconds": 1.0, "started": 1.0,
             "ended": 2.0},
            {"island": 1, "worker": "b", "nodes": 100, "restarts": 1, "max_depth": 40,
             "breaks": None, "score": None, "seconds": 1.0, "cpu_seconds": 0.5,
             "started": 2.0, "ended": 5.0},
            {"island": 0, "method": "lns", "status": "error", "started": 0.0}]
    out = summary(runs)
    assert out["total"] == {"tasks": 3, "nodes": 1000, "restarts": 3, "runs": 6,
                            "wall_seconds": 4.0, "cpu_seconds": 3.5, "nodes_per_second": 250,
                            "nodes_per_cpu_second": 286, "nodes_per_run": 167,
                            "task_scores": {"108": 1, "109": 1}}
    assert out["streams"][1] == {"island": 1, "tasks": 2, "nodes": 400, "restarts": 1,
                                 "max_depth": 64, "best_score": 109, "depths": [64, 40],
                                 "breaks": [3, None], "scores": [109, None],
                                 "nodes_per_second": 200}
    assert out["workers"] == {"a": {"tasks": 1, "nodes": 600, "seconds": 2.0,
                                    "nodes_per_second": 300},
                              "b": {"tasks": 2, "nodes": 400, "seconds": 2.0,
                                    "nodes_per_second": 200}}
    assert summary([{"island": 0, "started": 0.0}]) is None


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


# 5.4 CPU s; the default run: test_signals' islands moments (Ctrl-C at 0.6 s, SIGTERM at 2.0 s
# with the cluster running: the three signals take one path, core.interrupt)
@pytest.mark.slow
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
