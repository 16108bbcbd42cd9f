"""Tables both Tantrix tree searches (the loop search and the line walk) build the same way."""

from __future__ import annotations

import numpy as np


def side_masks() -> list[int]:
    """6-bit side mask -> 18-bit mask with three bits per side (the side code width)."""
    return [sum(7 << (3 * d) for d in range(6) if m >> d & 1) for m in range(64)]


def candidate_order(levels: int, ncand: int, seed: int, natural_at_zero: bool = False):
    """Candidates per (level, entry side), flattened: placement (type * 6 + side) * 2 + arc
    end for both ends of every type, in a seeded order per level and side (the natural order
    for seed 0 when `natural_at_zero`)."""
    ti, end = np.arange(ncand) // 2, np.arange(ncand) % 2
    base = (ti[None, :] * 6 + np.arange(6)[:, None]) * 2 + end[None, :]  # [side, cand]
    if natural_at_zero and seed == 0:
        perm = np.broadcast_to(np.arange(ncand), (levels, 6, ncand))
    else:
        perm = np.random.default_rng(seed).random((levels, 6, ncand)).argsort(axis=2)
    return np.take_along_axis(np.broadcast_to(base, (levels, 6, ncand)), perm, axis=2).astype(
        np.int32).ravel()
