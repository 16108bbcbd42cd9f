"""Verhaard's eii piece groups: which inner pieces a scan-row search may place by which cell.

eii ("Details of Eternity II Solver eii", L. Verhaard, 2009) saves pieces that fit well
together for the end of the scan. How well a group of pieces fits together is its
*tileability*: the number of ways its pieces fill a 2x3 rectangle with every join inside it
matched. Good groups are built by a separate program that exchanges pieces in and out while
that number grows, and the solver uses 60 of them. The document's later sections (as quoted
by public reimplementations; the copies of the page found hold only its first
sections) take one group per restart: its pieces are "good", the others "bad", the best good
pieces "precious" and the worst bad ones "useless", with gates by scan depth: no good piece
before depth 63, at most 6 by depth 79, every useless piece placed by depth 96 and no
precious piece before depth 100 (1-based depths of the 256-cell scan).

Here the count of a group's 2x3 fillings is a tensor contraction over its oriented pieces, a
piece allowed twice in one filling (an upper bound of the count with distinct pieces), so
one exchange is tried in about a millisecond on Eternity II. On other board sizes the gate
depths scale with the number of cells.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .instance import EdgeInstance

GROUPS = 60  # eii keeps 60 groups and takes one per restart
# eii's gates on the 256 cells of Eternity II (1-based depth): no good piece before 63, at most
# 6 good pieces by 79, every useless piece placed by 96, no precious piece before 100
NO_GOOD_BEFORE, FEW_GOOD_BEFORE, FEW_GOOD, USELESS_BY, NO_PRECIOUS_BEFORE = 63, 79, 6, 96, 100
# of the inner pieces in the good group: half, a choice (the size is not in the part of the
# document read here; not tuned): the 98 bad pieces cover the 56 inner cells before depth 79
SIZE = 0.5
# precious (useless): the good (bad) pieces that add the most (least) fillings to the group;
# 16 each, a choice not tuned: with 16 the useless gate pins 16 of the 70 inner cells before
# depth 96
EXTREME = 16
# exchanges tried per group: 0.3 CPU s on Eternity II, a group per restart (runs of ~1.5 CPU s
# and more); fillings of a random group of 97 ~10 million, after 100 / 300 / 600 exchanges
# 14-17 / 21-24 / 27-33 million (seeds 0-2)
SWAPS = 300

FLAG_GOOD, FLAG_PRECIOUS, FLAG_USELESS = 1, 2, 4


def looks(inst: EdgeInstance, pieces) -> tuple[np.ndarray, int]:
    """looks[i, rot]: the flat index (w, n, e, s) of pieces[i] (1-based) turned by rot, the
    colours numbered in the order of the k colours the inner pieces show; and k."""
    colours = sorted({c for p in range(1, inst.n + 1) if inst.kind(p) == "inner"
                      for c in inst.pieces[p - 1]})
    code = {c: i for i, c in enumerate(colours)}
    k = len(code)
    out = np.zeros((len(pieces), 4), np.int64)
    for i, p in enumerate(pieces):
        for rot in range(4):
            n, e, s, w = (code.get(c, 0) for c in inst.edges(int(p), rot))
            out[i, rot] = ((w * k + n) * k + e) * k + s
    return out, k


def oriented(looks_of: np.ndarray, k: int) -> np.ndarray:
    """T[w, n, e, s]: how many of the pieces (their looks) show these colours in a rotation."""
    return np.bincount(looks_of.ravel(), minlength=k ** 4).astype(float).reshape(k, k, k, k)


def fillings(t: np.ndarray) -> float:
    """Ways to fill a 2x3 rectangle (top a b c, bottom d e f) with every inner join matched,
    the outer edges free, from the oriented pieces T (repeats allowed)."""
    a = t.sum(axis=(0, 1))  # [e=x1, s=y1]
    b = t.sum(axis=1)  # [w=x1, e=x2, s=y2]
    c = t.sum(axis=(1, 2))  # [w=x2, s=y3]
    d = t.sum(axis=(0, 3))  # [n=y1, e=z1]
    e = t.sum(axis=3)  # [w=z1, n=y2, e=z2]
    f = t.sum(axis=(2, 3))  # [w=z2, n=y3]
    k = len(a)
    # top[y1, y2, y3] = sum over x1, x2 of a[x1, y1] b[x1, x2, y2] c[x2, y3], by two products
    ab = (a.T @ b.reshape(k, k * k)).reshape(k, k, k)  # [y1, x2, y2]
    top = np.einsum("ixj,xm->ijm", ab, c, optimize=True)
    de = (d @ e.reshape(k, k * k)).reshape(k, k, k)  # [y1, y2, z2]
    bottom = de @ f  # [y1, y2, y3]
    return float((top * bottom).sum())


def good_group(look: np.ndarray, k: int, size: int, rng: np.random.Generator,
               swaps: int = SWAPS, stop: Callable[[], bool] = lambda: False
               ) -> np.ndarray | None:
    """inside[i]: piece i of `look` (looks of the inner pieces) is in a group of `size` that
    fills 2x3 rectangles in many ways: a random group, then exchanges of one piece in, one
    out, kept when the count grows. None once `stop()` says so (the search's time is up)."""
    inside = np.zeros(len(look), bool)
    inside[rng.choice(len(look), size=size, replace=False)] = True
    t = oriented(look[inside], k)
    flat = t.reshape(-1)
    value = fillings(t)
    for _ in range(swaps):
        if stop():
            return None
        i = rng.choice(np.flatnonzero(inside))
        j = rng.choice(np.flatnonzero(~inside))
        np.subtract.at(flat, look[i], 1)
        np.add.at(flat, look[j], 1)
        v = fillings(t)
        if v > value:
            value = v
            inside[i], inside[j] = False, True
        else:
            np.add.at(flat, look[i], 1)
            np.subtract.at(flat, look[j], 1)
    return inside


@dataclass(frozen=True)
class Gates:
    """flags[p] (0-based piece: good, precious, useless bits) and, per scan depth d (0-based),
    the most good and precious pieces allowed on cells 0..d and the fewest useless pieces
    that must be there."""

    flags: np.ndarray
    good_max: np.ndarray
    precious_max: np.ndarray
    useless_min: np.ndarray


def gates(inst: EdgeInstance, cells: list, seed: int, fixed_pieces: set[int],
          stop: Callable[[], bool] = lambda: False) -> Gates | None:
    """eii's gates for the scan `cells` with one seeded good group; None when `stop()` says so
    before the group is built. A group takes about 500 counts of fillings, 0.5 CPU s on
    Eternity II (0.9-1.7 s of wall time at a load of 3): without the check a restart near
    the end of `-t 10` ran 1.7 s past it."""
    rng = np.random.default_rng(seed)
    inner = [p for p in range(1, inst.n + 1) if inst.kind(p) == "inner" and p not in fixed_pieces]
    n = len(cells)
    flags = np.zeros(inst.n, np.int32)
    big = np.iinfo(np.int32).max
    if len(inner) < 4 * EXTREME:  # too few inner pieces for groups: no gates
        zeros = np.zeros(n, np.int32)
        return Gates(flags, np.full(n, big, np.int32), np.full(n, big, np.int32), zeros)
    look, k = looks(inst, inner)
    inside = good_group(look, k, int(SIZE * len(inner)), rng, stop=stop)
    if inside is None or stop():
        return None
    inner = np.asarray(inner)
    good, bad = inner[inside], inner[~inside]
    t = oriented(look[inside], k)
    flat = t.reshape(-1)
    whole = fillings(t)

    def changed(i: int, sign: int) -> float:  # fillings with piece i taken out (-1), put in (1)
        np.add.at(flat, look[i], sign)
        v = fillings(t)
        np.add.at(flat, look[i], -sign)
        return v

    gain = {int(inner[i]): whole - changed(i, -1) for i in np.flatnonzero(inside)}
    precious = sorted(good, key=lambda p: -gain[int(p)])[:EXTREME]
    with_bad = {int(inner[i]): changed(i, 1) for i in np.flatnonzero(~inside)}
    useless = sorted(bad, key=lambda p: with_bad[int(p)])[:EXTREME]
    flags[np.asarray(good) - 1] |= FLAG_GOOD
    flags[np.asarray(precious) - 1] |= FLAG_PRECIOUS
    flags[np.asarray(useless) - 1] |= FLAG_USELESS

    def depth(at: int) -> int:  # eii's 1-based depth of 256 cells -> 0-based index here
        return max(0, round(at * n / 256) - 1)

    d = np.arange(n)
    good_max = np.where(d < depth(NO_GOOD_BEFORE), 0,
                        np.where(d < depth(FEW_GOOD_BEFORE), FEW_GOOD, big)).astype(np.int32)
    precious_max = np.where(d < depth(NO_PRECIOUS_BEFORE), 0, big).astype(np.int32)
    # every useless piece by USELESS_BY: at depth d at least U minus the inner cells left
    # before it (the bound that prunes as soon as the gate cannot be met)
    inner_cell = np.array([0 < c[0] < inst.height - 1 and 0 < c[1] < inst.width - 1
                           for c in cells])
    by = depth(USELESS_BY)
    left = np.array([inner_cell[i + 1:by + 1].sum() if i < by else 0 for i in range(n)])
    useless_min = np.maximum(0, len(useless) - left).astype(np.int32)
    return Gates(flags, good_max, precious_max, useless_min)
