"""The group of pieces kept for the last rows (eii's good group) and the break search that
places it last."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import numpy as np
from conftest import INSTANCES

from tilesolve.core import squaregrid as sq
from tilesolve.families.edgematch import breakscan, keep_last
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.parse import read_instance

FIXED = {(3, 3): (15, 2)}  # as on a perfect board; fixed mid-board, as Eternity II's start piece


def seven():
    inst = read_instance(INSTANCES / "e2_7x7.txt")
    return replace(inst, fixed=dict(FIXED))


def test_the_group_has_the_make_up_of_the_last_rows_and_no_swap_adds_pairs():
    inst = seven()
    kinds = [inst.kind(p + 1) for p in range(inst.n)]
    for seed in (0, 1):
        good = keep_last.good_group(inst, 4, seed)
        cells = Counter(sq.cell_kind(c, 7, 7) for c in inst.cells() if c[0] >= 4)
        assert Counter(kinds[p] for p in np.flatnonzero(good)) == cells
        assert not good[15 - 1]  # the fixed piece stays where it is
        base = keep_last.pairs(inst, good)
        for p in np.flatnonzero(good):
            for q in np.flatnonzero(~good):
                if kinds[p] == kinds[q] and q != 15 - 1:
                    swapped = good.copy()
                    swapped[p], swapped[q] = False, True
                    assert keep_last.pairs(inst, swapped) <= base
        rng = np.random.default_rng(seed)
        rand = np.zeros(inst.n, bool)
        for kind, size in cells.items():
            pool = [p for p in range(inst.n) if kinds[p] == kind and p != 15 - 1]
            rand[rng.choice(pool, size, replace=False)] = True
        assert base > keep_last.pairs(inst, rand)


def test_every_bucket_tries_the_kept_pieces_last():
    inst = seven()
    good = keep_last.good_group(inst, 4, 0)
    plain = breakscan.BreakTables(inst).buckets(3)
    kept = breakscan.BreakTables(inst, later=good).buckets(3)
    tables = breakscan.BreakTables(inst)
    piece = tables.cand[0]

    def disorders(buckets) -> int:  # kept pieces before others within a bucket
        out = 0
        for start, idx in zip(buckets[0::2], buckets[1::2], strict=True):
            for b in range(len(start) - 1):
                flags = good[piece[idx[start[b]:start[b + 1]]]]
                out += int(np.any(np.diff(flags.astype(int)) < 0))
        return out

    assert disorders(kept) == 0
    assert disorders(plain) > 0  # without the group the order is random
    for a, b in zip(plain[0::2], kept[0::2], strict=True):
        assert np.array_equal(a, b)  # the same buckets, only reordered


def test_keep_last_boards_are_permutations_with_the_fixed_piece_in_place():
    inst = seven()
    joins = sq.join_count(7, 7)
    for seed in (0, 1):
        res = breakscan.search(inst, breakscan.Schedule(10, 4, keep_last=True), seed,
                               node_limit=3_000_000)
        assert res.board is not None
        rep = verify(inst, res.board, "matches")  # every piece once, the fixed one in place
        assert rep.ok and rep.score == joins - res.breaks
        assert res.board[(3, 3)] == FIXED[(3, 3)]


def test_keep_last_is_an_on_off_option(cli):
    proc = cli("solve", INSTANCES / "e2_4x4.txt", "-b", "search", "--objective", "matches",
               "--keep-last", "maybe")
    assert proc.returncode == 2 and "keep-last" in proc.stderr
