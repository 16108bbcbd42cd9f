"""Niang's fitness (thesis section 4.7): P(s) = 1 - (1/k) sum_i (total_i - score_i) / total_i
over k constraint kinds, here the inner joins (a penalty per join whose two edges differ) and
the 2x2 areas (a penalty per area with any of its four inner joins unmatched).

The totals are the inner joins, 2n(n-1) on an n x n board, and the (n-1)^2 areas; the frame
is not counted. Four of the thesis's screenshots pin this down: 5x5 with 25 join and 13 area
violations shows 0.281 = 1 - (25/40 + 13/16)/2, 5x5 with 3 and 2 shows 0.900, 6x6 with 3 and 2
shows 0.935 = 1 - (3/60 + 2/25)/2, 4x4 with 3 and 2 shows 0.826 = 1 - (3/24 + 2/9)/2.
A solved board scores exactly 1.
"""

from __future__ import annotations

import numpy as np

from .genome import BoardGenome

TERMS = ("edges", "areas")


def bad_areas(mh: np.ndarray, mv: np.ndarray) -> np.ndarray:
    """2x2 areas with an unmatched inner join, per board, from `BoardGenome.join_matches`."""
    ok = mh[:, :-1, :] & mh[:, 1:, :] & mv[:, :, :-1] & mv[:, :, 1:]
    return (~ok).sum(axis=(1, 2))


def niang_fitness(b: BoardGenome, pop: np.ndarray, terms: tuple[str, ...] = TERMS) -> np.ndarray:
    """P(s) per board; `terms` picks the constraint kinds (the thesis's Table 7 runs one of
    four GAs with both, the others with the joins only)."""
    mh, mv = b.join_matches(pop)
    penalties = []
    if "edges" in terms:
        joins = mh.shape[1] * mh.shape[2] + mv.shape[1] * mv.shape[2]
        bad = joins - mh.sum(axis=(1, 2)) - mv.sum(axis=(1, 2))
        penalties.append(bad / joins)
    if "areas" in terms:
        areas = (b.h - 1) * (b.w - 1)
        penalties.append(bad_areas(mh, mv) / areas)
    return 1.0 - np.mean(penalties, axis=0)
