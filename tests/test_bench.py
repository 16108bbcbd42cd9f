"""tilesolve bench: a sweep prints its table and writes CSV, JSON and a plot; Dask runs it too."""

from __future__ import annotations

import csv
import json

import pytest
from conftest import INSTANCES, run_cli

from tilesolve import bench

TINY = [str(INSTANCES / "e2_4x4.txt"), str(INSTANCES / "e2_5x5.txt")]


def test_bench_cli_prints_the_table_and_writes_csv_json_and_plot(tmp_path):
    csv_path, json_path, png = tmp_path / "b.csv", tmp_path / "b.json", tmp_path / "b.png"
    res = run_cli("bench", "instances/e2_4x4.txt", "instances/e2_5x5.txt", "--backends",
                  "cpsat,sat", "--seeds", "2", "--time-limit", "20", "--out", csv_path,
                  "--json", json_path, "--plot", png, timeout=240)
    assert res.returncode == 0, res.stderr
    for word in ("e2_4x4", "e2_5x5", "cpsat", "sat", "100%"):
        assert word in res.stdout
    with open(csv_path) as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 2 * 2 * 2
    assert {r["backend"] for r in rows} == {"cpsat", "sat"}
    assert all(r["status"] == "solved" and r["verified"] == "True" for r in rows)
    assert {r["size"] for r in rows} == {"4x4", "5x5"}
    data = json.loads(json_path.read_text())
    assert len(data["runs"]) == 8 and len(data["summary"]) == 4
    assert all(s["success_rate"] == 1.0 and s["runs"] == 2 for s in data["summary"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_run_one_reports_errors_as_rows_and_ga_evaluations():
    row = bench.run_one(str(INSTANCES / "no_such.txt"), "cpsat", 0, {"time_limit": 5})
    assert row["status"] == "error" and "no such file" in row["error"]
    ga = bench.run_one(TINY[0], "ga", 1, {"time_limit": 30, "max_evaluations": 200000})
    assert ga["family"] == "edgematch" and ga["cells"] == 16
    assert ga["status"] in ("solved", "budget") and ga["evaluations"] > 0


def test_summary_counts_successes_and_times_of_successful_runs_only():
    rows = [
        {"instance": "a", "family": "f", "size": "4", "cells": 4, "backend": "ga", "seed": s,
         "status": st, "solved": st == "solved", "seconds": t, "objective": None,
         "evaluations": ev}
        for s, (st, t, ev) in enumerate([("solved", 1.0, 10), ("solved", 3.0, 30),
                                         ("timeout", 9.0, 50), ("budget", 2.0, 80)])
    ]
    (s,) = bench.summarise(rows)
    assert (s["runs"], s["solved"]) == (4, 2)
    assert s["success_rate"] == pytest.approx(2 / 4, abs=1e-3)
    assert s["mean_seconds"] == 2.0 and s["median_seconds"] == 2.0
    assert s["mean_evaluations"] == 42.5
    assert s["timeouts"] == 1 and s["budgets"] == 1  # the clock, and a GA's own budget
    assert s["par2_seconds"] is None  # no limit given: no PAR-2


def test_summary_charges_timeouts_at_the_limit():
    rows = [
        {"instance": "a", "family": "f", "size": "4", "cells": 4, "backend": "ga", "seed": s,
         "status": st, "solved": st == "solved", "seconds": t, "objective": None,
         "evaluations": None}
        for s, (st, t) in enumerate([("solved", 1.0), ("timeout", 10.3), ("timeout", 10.1),
                                     ("timeout", 10.2), ("error", 0.5)])
    ]
    (s,) = bench.summarise(rows, time_limit=10.0)
    assert s["median_seconds"] == 1.0  # of the one solved run, as before
    assert s["timeouts"] == 3
    assert s["median_all_seconds"] == 10.1  # 1.0, 10.0 (error), 10.1, 10.2, 10.3
    assert s["par2_seconds"] == pytest.approx((1.0 + 4 * 20.0) / 5)


def test_backend_options_and_bad_input():
    assert bench.parse_backend("ga:cbgi=off:population=50") == (
        "ga", {"cbgi": "off", "population": "50"})
    res = run_cli("bench", "instances/e2_4x4.txt", "--backends", "cpsat,bogus")
    assert res.returncode == 2 and "bogus" in res.stderr and "Traceback" not in res.stderr
    res = run_cli("bench", "instances/e2_4x4.txt", "--seeds", "0")
    assert res.returncode == 2 and "--seeds" in res.stderr


def test_the_same_sweep_runs_on_a_local_dask_cluster(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        csv_path = tmp_path / "d.csv"
        res = run_cli("bench", *TINY, "--backends", "cpsat,sat", "--seeds", "1",
                      "--time-limit", "20", "--scheduler", cluster.scheduler_address,
                      "--out", csv_path, timeout=240)
    assert res.returncode == 0, res.stderr
    with open(csv_path) as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 4 and all(r["status"] == "solved" for r in rows)
    assert "e2_5x5" in res.stdout



def test_bench_hybrid_runs_its_parallel_method_through_the_bench(tmp_path, monkeypatch):
    """Two lns processes at once on the 4x4: the best verified score of the two, both
    progress streams merged into one curve, the CPU of both counted."""
    import importlib.util

    path = INSTANCES.parent / "lab" / "scripts" / "bench_hybrid.py"
    spec = importlib.util.spec_from_file_location("bench_hybrid", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    monkeypatch.setitem(script.INSTANCES, "tiny", INSTANCES / "e2_4x4.txt")
    row = script.run_one("tiny", "lns x2 (2 cores)", 0, 30.0, tmp_path)
    assert row["score"] == 24 and row["verified"]  # every inner join of the 4x4 matched
    assert [p["score"] for p in row["curve"]][-1] == 24
    board = row["board"]  # the better process's board, kept for `tilesolve verify`
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([
        "tiny_lns_x2__2_cores_s0.json", "tiny_lns_x2__2_cores_s0_p0.jsonl",
        "tiny_lns_x2__2_cores_s0_p1.jsonl", board])
    assert board in ("tiny_lns_x2__2_cores_s0_p0_board.txt",
                     "tiny_lns_x2__2_cores_s0_p1_board.txt")
    checked = run_cli("verify", str(INSTANCES / "e2_4x4.txt"), str(tmp_path / board),
                      "--objective", "matches")
    assert checked.returncode == 0 and "24" in checked.stdout
    one = bench.run_command(INSTANCES / "e2_4x4.txt", "lns", 0, 30.0,
                            extra=["--objective", "matches"], cwd=INSTANCES.parent)
    assert one["exit"] == 0 and one["result"]["objective"] == 24
    assert row["cpu"] > one["cpu"] / 2  # two processes counted, not none
    assert script.run_one("tiny", "lns x2 (2 cores)", 0, 30.0, tmp_path) == row  # kept
    assert row["joins"] == 24  # so the table counts the run as solved
    script.report([row], tmp_path, tmp_path / "hybrid.md")
    line = next(x for x in (tmp_path / "hybrid.md").read_text().splitlines()
                if x.startswith("| tiny |"))
    assert line.split(" | ")[1:7] == ["lns x2 (2 cores)", "1", "24", "24", "24", "1"]


def test_bench_hybrid_held_out_board_is_generated_once_with_a_solution(tmp_path):
    """The held-out 8x8: written on first use from its fixed seed, the same file after."""
    import importlib.util

    path = INSTANCES.parent / "lab" / "scripts" / "bench_hybrid.py"
    spec = importlib.util.spec_from_file_location("bench_hybrid", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    board = script.held_out(tmp_path)
    text = board.read_text()
    assert script.most_joins(board) == 112  # 7 x 8 joins across and 8 x 7 down
    assert script.held_out(tmp_path) == board and board.read_text() == text
    info = json.loads(run_cli("info", str(board), "--json").stdout)
    assert (info["size"], info["joins"]) == ("8x8", 112)
    assert (info["frame_colours"], info["inner_colours"]) == (3, 8)  # Brendan's 8x8 counts
