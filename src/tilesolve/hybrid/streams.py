"""Independent restart streams (`--islands N --migration none`): each task's seed and the
statistics of the run, gathered from what the backends report.

A stream is an island whose tasks share nothing: each starts from no board with a seed of its
own, so N streams on N workers are N independent searches and their placements add up. The
backend's own outcome statistics (the break search reports `nodes`, `restarts`, `max_depth`
and `breaks`) travel back with each task, and the client sums them per stream, per worker and
in all. The search reports its counters after every chunk (`SolveOptions.report`); the task
keeps from them the restart at which each new depth and each better board was reached, the
only per-restart facts the backend gives (its `max_depth` is the deepest of all its runs).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

SEARCH_STATS = ("nodes", "restarts", "max_depth", "breaks")  # kept from a backend's outcome
MAX_SEED = 2**31 - 1


def stream_seed(seed: int, island: int, task: int, *more: int) -> int:
    """Task `task` of stream `island`: a seed drawn from (seed, island, task, *more). Not an
    arithmetic step: the break search seeds its k-th run with seed + 7919 k, so seeds a
    multiple of 7919 apart would repeat each other's runs (island 1's first run would be island
    0's second)."""
    keys = [seed, island, task, *more]
    return int(np.random.SeedSequence(keys).generate_state(1)[0]) % MAX_SEED


class Trail:
    """The solver's progress fields, noted on their way to `forward`: the restart at which
    each new deepest depth was reached, and each better board's score with its restart."""

    def __init__(self, forward: Callable[[dict], None] | None = None) -> None:
        self.forward = forward
        self.restarts, self.depth = 0, -1
        self.depths: list[list[int]] = []  # [restart, depth], each a new deepest
        self.boards: list[list[float]] = []  # [restart, claimed score]

    def __call__(self, fields: dict[str, Any]) -> None:
        if "restarts" in fields:
            self.restarts = int(fields["restarts"])
            depth = fields.get("depth")
            if depth is not None and depth > self.depth:
                self.depth = int(depth)
                self.depths.append([self.restarts, self.depth])
        if self.forward is not None:
            self.forward(fields)

    def board(self, fitness: float | None) -> None:
        if fitness is not None:
            self.boards.append([self.restarts, fitness])

    def json(self) -> dict | None:
        if not self.depths and not self.boards:
            return None
        return {"depths": self.depths, "boards": self.boards}


def _rate(nodes: int, seconds: float) -> float | None:
    return round(nodes / seconds) if seconds > 0 else None


def _sum(runs: list[dict], key: str) -> float:
    return sum(r.get(key) or 0 for r in runs)


def _stream(island: int, runs: list[dict]) -> dict:
    """One stream's totals and its tasks' depths, breaks and verified scores in order."""
    nodes = int(_sum(runs, "nodes"))
    return {"island": island, "tasks": len(runs), "nodes": nodes,
            "restarts": int(_sum(runs, "restarts")),
            "max_depth": max((r["max_depth"] for r in runs if r.get("max_depth") is not None),
                             default=None),
            "best_score": max((r["score"] for r in runs if r.get("score") is not None),
                              default=None),
            "depths": [r.get("max_depth") for r in runs],
            "breaks": [r.get("breaks") for r in runs],
            "scores": [r.get("score") for r in runs],
            "nodes_per_second": _rate(nodes, _sum(runs, "seconds"))}


def _workers(runs: list[dict]) -> dict:
    """Placements per second of task time on each worker (its address)."""
    out: dict[str, dict] = {}
    for addr in sorted({r["worker"] for r in runs if r.get("worker")}):
        mine = [r for r in runs if r.get("worker") == addr]
        nodes = int(_sum(mine, "nodes"))
        out[addr] = {"tasks": len(mine), "nodes": nodes,
                     "seconds": round(_sum(mine, "seconds"), 3),
                     "nodes_per_second": _rate(nodes, _sum(mine, "seconds"))}
    return out


def summary(runs: list[dict]) -> dict | None:
    """The run's statistics from its tasks' records (those whose backend counted placements):
    per stream, per worker and in all. `nodes_per_second` in all is placements over the wall
    time from the first task's submission to the last answer (the cluster's start is not in
    it), what adding workers should multiply; `runs` counts each task's first run and its
    restarts. None when no backend reported placements."""
    counted = [r for r in runs if r.get("nodes") is not None]
    if not counted:
        return None
    nodes, restarts = int(_sum(counted, "nodes")), int(_sum(counted, "restarts"))
    wall = max(r.get("ended", 0.0) for r in counted) - min(r["started"] for r in counted)
    cpu = _sum(counted, "cpu_seconds")
    scores = Counter(r["score"] for r in counted if r.get("score") is not None)
    total = {"tasks": len(counted), "nodes": nodes, "restarts": restarts,
             "runs": restarts + len(counted), "wall_seconds": round(wall, 3),
             "cpu_seconds": round(cpu, 3), "nodes_per_second": _rate(nodes, wall),
             "nodes_per_cpu_second": _rate(nodes, cpu),
             "nodes_per_run": _rate(nodes, restarts + len(counted)),
             "task_scores": {str(k): scores[k] for k in sorted(scores)}}
    islands = sorted({r["island"] for r in counted})
    return {"total": total,
            "streams": [_stream(i, [r for r in counted if r["island"] == i]) for i in islands],
            "workers": _workers(counted)}
