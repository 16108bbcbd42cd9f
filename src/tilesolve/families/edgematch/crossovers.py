"""Crossovers on board genomes (see genome.py): a, b are (m, length) arrays of paired parents;
each returns two (m, length) arrays of children that keep every piece once, in its class.

* `region_exchange`: Niang's region exchange (thesis, Algorithm 7).
* `uniform`: a random template picks each cell from one parent or the other (thesis 4.6.2);
  pieces placed twice keep the donor's copy, the other copy gets a missing piece.
* `block_or_uniform`: the tuned preset's mix of block copies and uniform templates, both
  followed by that duplicate repair.
"""

from __future__ import annotations

import numpy as np

from .genome import BoardGenome
from .mutations import TRIES, random_region


# --- Niang's region exchange ---------------------------------------------------------------
def exchange_child(b: BoardGenome, base: np.ndarray, donor: np.ndarray,
                   region: np.ndarray, source: np.ndarray | None = None) -> np.ndarray:
    """One child of Algorithm 7: `base` with `donor`'s pieces in the region (taken from the
    donor's cells `source`, the same cells unless given: the two-regions reading).

    Steps 3-8: the donor's region pieces are removed from the base (leaving holes outside
    the region wherever the base kept them), the base's region pieces the donor's region lacks
    go to a list (in row-major order), the donor's region is copied in (pieces and turns),
    and the holes, taken in row-major order, are filled from the list. Classes are kept by
    filling each group's holes from the same group's list entries (one group on Niang's
    boards); listed pieces keep their turn (under keep_frame, frame pieces are re-turned grey
    side out)."""
    n = b.n
    source = region if source is None else source
    kid = base.copy()
    taken = np.zeros(b.inst.n, dtype=bool)
    taken[donor[source]] = True  # pieces the donor's region brings
    kept = np.zeros(b.inst.n, dtype=bool)
    kept[base[region]] = True  # pieces the base had in the region
    leftover = region[~taken[base[region]]]  # list A: base region cells whose piece is not taken
    where = np.empty(b.inst.n, dtype=np.int64)
    where[base[:n]] = np.arange(n)
    holes = np.sort(where[np.flatnonzero(taken & ~kept)])
    pieces, turns = base[leftover], base[n + leftover]
    kid[region], kid[n + region] = donor[source], donor[n + source]
    # pair holes and list entries class by class, each in row-major order
    hole_order = np.argsort(b.cell_group[holes], kind="stable")
    list_order = np.argsort(b.piece_group[pieces], kind="stable")
    kid[holes[hole_order]] = pieces[list_order]
    kid[n + holes[hole_order]] = turns[list_order]
    return kid


def region_exchange(b: BoardGenome, a: np.ndarray, bb: np.ndarray, rng,
                    rule: str = "corners") -> tuple[np.ndarray, np.ndarray]:
    """Algorithm 7 for each pair: one random block (step 1, see `random_region`), two
    children. Fixed cells are the same in both parents and stay out of the exchange.

    rule "two_regions" reads step 1's "select two points, a random length and width" (and
    4.6.1's "two regions randomly selected are exchanged") as two blocks of one size at two
    places, one in each parent: each child gets the other parent's block moved to its own."""
    c1, c2 = a.copy(), bb.copy()
    for k in range(len(a)):
        if rule == "two_regions":
            here, there = two_regions(b, rng)
        else:
            here = there = b.block(*random_region(b, rng, rule))
        keep = b.free[here] & b.free[there]
        here, there = here[keep], there[keep]
        c1[k] = exchange_child(b, a[k], bb[k], here, there)
        c2[k] = exchange_child(b, bb[k], a[k], there, here)
    return b.normalise(c1), b.normalise(c2)


def two_regions(b: BoardGenome, rng) -> tuple[np.ndarray, np.ndarray]:
    """Two blocks of one random size at two random places whose cells hold the same classes
    (on the frame layout a block moves within the interior or along like cells); after
    TRIES draws that never fit, one block at one place."""
    for _ in range(TRIES):
        hh, ww = int(rng.integers(1, b.h + 1)), int(rng.integers(1, b.w + 1))
        r0, r1 = (int(x) for x in rng.integers(0, b.h - hh + 1, 2))
        c0, c1 = (int(x) for x in rng.integers(0, b.w - ww + 1, 2))
        here, there = b.block(r0, c0, hh, ww), b.block(r1, c1, hh, ww)
        if (b.cell_group[here] == b.cell_group[there]).all():
            return here, there
    here = b.block(*random_region(b, rng))
    return here, here


# --- template crossovers with duplicate repair -------------------------------------------------
def repair_permutation(b: BoardGenome, g: np.ndarray, taken: np.ndarray, rng) -> None:
    """Pieces placed twice keep the donor's copy; the other copy gets a missing piece."""
    n = b.n
    for cells, pieces in b.groups:
        if len(cells) < 2:
            continue
        here = g[cells]
        counts = np.bincount(here, minlength=b.inst.n)
        missing = pieces[counts[pieces] == 0]
        if not len(missing):
            continue
        dup = (counts[here] > 1) & ~taken[cells]
        slots = cells[dup]
        missing = rng.permutation(missing)
        g[slots] = missing[: len(slots)]
        g[n + slots] = rng.integers(0, 4, len(slots))


def _child(b: BoardGenome, base: np.ndarray, donor: np.ndarray, take: np.ndarray,
           rng) -> np.ndarray:
    kid = base.copy()
    both = np.concatenate([take, take], axis=1)
    kid[both] = donor[both]
    for row, t in zip(kid, take, strict=True):
        repair_permutation(b, row, t, rng)
    return b.normalise(kid)


def block_or_uniform(b: BoardGenome, a: np.ndarray, bb: np.ndarray, rng,
                     uniform_rate: float) -> tuple[np.ndarray, np.ndarray]:
    """Per pair: a uniform template (with chance `uniform_rate`) or a random block copied
    from the other parent, then duplicate repair."""
    m = len(a)
    uniform_rows = rng.random(m) < uniform_rate
    take = np.zeros((m, b.n), dtype=bool)  # cells the child copies from the other parent
    take[uniform_rows] = rng.random((int(uniform_rows.sum()), b.n)) < 0.5
    for k in np.flatnonzero(~uniform_rows):
        hh, ww = int(rng.integers(1, b.h + 1)), int(rng.integers(1, b.w + 1))
        r0, c0 = int(rng.integers(0, b.h - hh + 1)), int(rng.integers(0, b.w - ww + 1))
        blk = np.zeros((b.h, b.w), dtype=bool)
        blk[r0 : r0 + hh, c0 : c0 + ww] = True
        take[k] = blk.ravel()
    take &= b.free
    return _child(b, a, bb, take, rng), _child(b, bb, a, take, rng)


def uniform(b: BoardGenome, a: np.ndarray, bb: np.ndarray, rng) -> tuple[np.ndarray, np.ndarray]:
    """Thesis 4.6.2: a template of 1s and 2s per pair; child 1 takes parent 1's cell where it
    reads 1 and parent 2's where it reads 2, child 2 the other way round; no piece twice."""
    return block_or_uniform(b, a, bb, rng, 1.0)
