"""The magic-hexagon post's Monte Carlo estimator, pinned at a fixed seed and sample."""

from __future__ import annotations

import magichex_montecarlo as mc
import numpy as np


def test_the_post_cost_of_the_solved_hexagon_is_zero():
    solved = [3, 17, 18, 19, 7, 1, 11, 16, 2, 5, 6, 9, 12, 4, 8, 14, 10, 13, 15]
    assert mc.post_cost(np.array([[0] + solved])).tolist() == [0]


def test_the_estimator_at_seed_0_on_1000_boards():
    assert mc.improvements(1000, 0, distinct=False) == 370
    mean, lo, hi = mc.mean_cost(mc.READINGS[0], 1000, 0)
    assert (round(mean, 3), lo < mean < hi) == (149.008, True)
