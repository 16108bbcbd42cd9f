"""lab/scripts/tantrix_chain.py: runs chained end to end on one CPU clock, each line's CPU
seconds its wall second times the run's CPU over wall."""

from __future__ import annotations

import json

import tantrix_chain


def write_run(tmp_path, name: str, wall: float, cpu: float, lines: list[tuple[float, int]]):
    stem = tmp_path / name
    result = {"seconds": wall, "objective": lines[-1][1], "stats": {"total_cpu_seconds": cpu}}
    stem.with_suffix(".json").write_text(json.dumps(result))
    log = [{"t": t, "score": s, "verified": True} for t, s in lines]
    log.append({"t": 5.0, "score": 999, "verified": False})  # never counted
    (tmp_path / f"{name}.log.jsonl").write_text("\n".join(json.dumps(x) for x in log) + "\n")
    return str(stem)


def test_a_chain_adds_the_runs_cpu_and_keeps_the_best_score(tmp_path):
    first = tantrix_chain.read_run(write_run(tmp_path, "a", 1800, 3600, [(0, 100), (900, 104)]))
    second = tantrix_chain.read_run(write_run(tmp_path, "b", 900, 1800, [(0, 104), (450, 110)]))
    assert (first.start, first.end, first.cpu) == (100, 104, 3600)
    assert first.points == [(0, 100), (1800, 104)]  # wall 900 s at 2 CPU s per wall second
    points = tantrix_chain.chain_points([first, second])
    assert points == [(0, 100), (0.5, 104), (1.0, 104), (1.25, 110), (1.5, 110)]
    assert "| b | 104 | 110 | 1.50 |" in tantrix_chain.table("Loop", [first, second])
