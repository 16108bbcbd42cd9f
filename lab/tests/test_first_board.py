"""The summary of lab/scripts/first_board.py: a seed without a board counts as longer than
the limit, so the median is a time only when more than half the seeds found one."""

from __future__ import annotations

import first_board


def rows(*walls: float | None, limit: float = 300.0) -> list[dict]:
    return [{"board": "b.txt", "seed": str(i), "limit": str(limit),
             "status": "solved" if w is not None else "timeout",
             "verified": "True" if w is not None else "False",
             "wall_s": str(w if w is not None else limit + 1), "cpu_s": "10"}
            for i, w in enumerate(walls)]


def test_the_median_counts_a_seed_without_a_board_as_over_the_limit():
    (line,) = first_board.summary(rows(100.0, 50.0, None, None, 20.0))
    assert "5 seeds, 3 boards within 300 s" in line
    assert "median wall to a first board 100.0 s" in line
    assert "solved at 20.0, 50.0, 100.0 s" in line and "50 CPU s in all" in line


def test_without_a_board_in_half_the_seeds_the_median_is_over_the_limit():
    (line,) = first_board.summary(rows(100.0, None, None, 20.0))
    assert "median wall to a first board over 300 s" in line


def test_an_unverified_board_is_not_counted():
    r = rows(100.0, 120.0, 130.0)
    r[0]["verified"] = "False"
    (line,) = first_board.summary(r)
    assert "2 boards" in line and "median wall to a first board 130.0 s" in line
