"""The estimate of lab/scripts/e2_streams.py: a target's share of tasks, measured or
extrapolated from the tail."""

from __future__ import annotations

import math

import e2_streams


def test_a_share_reached_often_enough_is_measured():
    scores = [460] * 5 + [465] * 5
    assert e2_streams.share(scores, 465) == (0.5, "5/10 tasks")


def test_a_share_beyond_the_scores_follows_the_tail():
    # the survival curve halves with each point: 1/2 at 461, 1/4 at 462, 1/8 at 463
    scores = [460] * 4 + [461] * 2 + [462] + [463]
    p, how = e2_streams.share(scores, 465)
    assert math.isclose(p, 1 / 32, rel_tol=1e-6)
    assert how.startswith("extrapolated: each point x2.00")
    assert e2_streams.share([451, -math.inf], 465)[0] is None  # one score: no slope


def test_the_estimate_divides_a_task_cpu_by_the_share():
    tasks = [{"cpu_seconds": 3600.0, "score": s} for s in [465] * 5 + [460] * 5]
    lines = e2_streams.estimate({"stats": {"tasks": tasks}})
    assert lines[0] == "tasks 10, 3600.0 CPU s each, boards 10, scores 460-465"
    assert lines[1] == "  465: 2 CPU hours (5/10 tasks)"
