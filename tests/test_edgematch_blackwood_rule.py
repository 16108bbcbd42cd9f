"""The Blackwood break rule (`--break-rule blackwood`): its schedule, its loop with packed
candidate records (`_breakscan.fast_step`) walking the general loop's tree where no break is
allowed, and its boards keeping at most one break per placement, none between frame pieces."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from conftest import INSTANCES, walk

from tilesolve.core import squaregrid as sq
from tilesolve.core.errors import InputError
from tilesolve.families.edgematch import breakscan
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.parse import read_instance


def seven():
    return read_instance(INSTANCES / "e2_7x7.txt")


def test_blackwood_schedule_puts_the_breaks_at_its_depths_then_spreads_the_rest():
    ten = breakscan.blackwood_allow(10, 256)
    assert ten[:197].sum() == 0 and ten[197] == 1 and ten[202] == 1 and ten[203] == 2
    assert ten[237] == 9 and ten[238] == 10 and ten[255] == 10
    more = breakscan.blackwood_allow(14, 256)  # 4 more from 197 + 58 k / 4: 211, 226, 240, 255
    assert more[196] == 0 and more[197] == 1 and more[210] == 3 and more[211] == 4
    assert more[226] == 8 and more[238] == 12 and more[240] == 13 and more[255] == 14
    assert breakscan.blackwood_allow(3, 256).tolist() == ten.clip(max=3).tolist()


def test_with_no_break_allowed_the_fast_loop_walks_the_general_loops_tree():
    tables = breakscan.BreakTables(seven())
    zero = np.zeros(tables.ncells, np.int32)
    for seed in (0, 3):  # lists per cell, as the general loop's: the same order, entry by entry
        general = walk(breakscan.BreakSearcher(tables, seed, zero, "python"), steps=60)
        fast = walk(breakscan.FastSearcher(tables, seed, zero, zero, shared=False), steps=60)
        assert fast == general and len(fast) == 60


def test_cells_with_the_same_candidates_share_one_kind():
    inst = replace(seven(), fixed={(3, 3): (15, 2)})
    tables = breakscan.BreakTables(inst)
    kind, rows = tables.kinds()
    grid = kind.reshape(7, 7)
    # 4 corners, 4 sides, the inner cells, the fixed cell: 10 kinds, one list each
    assert int(kind.max()) + 1 == 10 and len(set(grid[1:6, 1:6].ravel())) == 2
    assert grid[1, 1] == grid[5, 5] != grid[3, 3] and grid[0, 1] == grid[0, 5] != grid[6, 1]
    picked = tables.rows[rows]
    for i in range(tables.ncells):  # each cell's candidates are its kind's, no more, no less
        own = tables.rows[tables.rows[:, 0] == i][:, 1:]
        theirs = picked[kind[picked[:, 0]] == kind[i]][:, 1:]
        assert sorted(map(tuple, own)) == sorted(map(tuple, theirs))


def test_c_core_and_python_loop_walk_the_same_tree_under_the_blackwood_rule():
    inst = replace(seven(), fixed={(3, 3): (15, 2)})
    tables = breakscan.BreakTables(inst)
    allow = breakscan.blackwood_allow(6, tables.ncells)
    exact = breakscan.eii_exact(inst, tables.cells)
    walks = [walk(breakscan.FastSearcher(tables, 2, allow, exact, engine=e), steps=40)
             for e in ("python", "auto")]
    assert walks[0] == walks[1] and sum(w[0] == 1 for w in walks[0]) >= 2  # boards on the way


def boards(searcher, limit: int = 40) -> list:
    out, code = [], 0
    while code != -1 and len(out) < limit:
        code, _ = searcher.step(100_000)
        if code == 1:
            out.append(searcher.solution())
    return out


def test_fast_boards_keep_one_break_per_placement_and_the_frame_exact():
    inst = seven()
    tables = breakscan.BreakTables(inst)
    allow = breakscan.blackwood_allow(6, tables.ncells)
    exact = breakscan.eii_exact(inst, tables.cells)
    found = boards(breakscan.FastSearcher(tables, 1, allow, exact))
    assert len(found) == 40
    for board in found:
        rep = verify(inst, board, "matches")
        assert rep.ok
        broken = 0
        for d, (r, c) in enumerate(tables.cells):
            here = inst.edges(*board[(r, c)])
            west = c > 0 and inst.edges(*board[(r, c - 1)])[sq.E] != here[sq.W]
            north = r > 0 and inst.edges(*board[(r - 1, c)])[sq.S] != here[sq.N]
            assert not (west and north)  # one break per placement at most
            assert not (west and exact[d] & 1) and not (north and exact[d] & 2)
            broken += west + north
            assert broken <= allow[d]
        assert rep.score == sq.join_count(7, 7) - broken


def test_blackwood_rule_search_gives_verified_boards_and_lowers_its_cap():
    inst = seven()
    sched = breakscan.schedule_of(inst, {"break_rule": "blackwood"})
    assert sched.rule == "blackwood" and sched.breaks == round(30 * 49 / 256)
    seen = []
    res = breakscan.search(inst, sched, 0, node_limit=3_000_000,
                           on_board=lambda b, k: seen.append(k))
    assert res.board is not None and seen == sorted(seen, reverse=True) and len(seen) >= 2
    assert len(set(seen)) == len(seen)  # each board better than the last
    rep = verify(inst, res.board, "matches")
    assert rep.ok and rep.score == sq.join_count(7, 7) - res.breaks


def test_break_rule_blackwood_on_the_command_line(cli):
    proc = cli("solve", INSTANCES / "e2_7x7.txt", "-b", "search", "--objective", "matches",
               "--break-rule", "blackwood", "--seed", "0", "-t", "8", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["status"] in ("feasible", "solved") and out["stats"]["solver"] == "breakscan"
    assert out["verified"] and out["objective"] == 84 - out["stats"]["breaks"]


def test_libblackwoods_fill_order_keeps_west_and_north_before_each_cell():
    order = breakscan.blackwood_order(16, 16)
    depth = {cell: d for d, cell in enumerate(order)}
    assert len(depth) == 256 and order[:176] == [(r, c) for r in range(11) for c in range(16)]
    # its jb470 scenario's depths, read the right way up
    assert [depth[c] for c in ((11, 4), (12, 0), (11, 5), (15, 5), (11, 12), (12, 12))] == \
        [180, 181, 201, 205, 236, 240]
    assert [depth[c] for c in ((12, 13), (13, 13), (13, 14), (14, 15), (15, 15))] == \
        [244, 247, 250, 253, 255]
    for (r, c), d in depth.items():
        assert all(depth[n] < d for n in ((r, c - 1), (r - 1, c)) if n in depth)
        assert all(depth[n] > d for n in ((r, c + 1), (r + 1, c)) if n in depth)
    assert breakscan.blackwood_order(8, 8) == [(r, c) for r in range(8) for c in range(8)]


def test_the_blackwood_fill_order_walks_the_same_tree_in_both_cores_and_gives_boards():
    inst = read_instance(INSTANCES / "e2_16x16.txt")
    order = breakscan.blackwood_order(16, 16)
    tables = breakscan.BreakTables(inst, order=order)
    assert tables.cells == order and tables.left[201] == 180 and tables.up[201] == 165
    allow = breakscan.blackwood_allow(30, 256)
    exact = breakscan.eii_exact(inst, tables.cells)
    walks = [walk(breakscan.FastSearcher(tables, 1, allow, exact, engine=e), steps=12,
                  budget=20_000) for e in ("python", "auto")]
    assert walks[0] == walks[1] and walks[0][-1][2] > 150
    params = {"break_rule": "blackwood", "scan_order": "blackwood", "fill_holes": "24"}
    res = breakscan.search(inst, breakscan.schedule_of(inst, params), 0, node_limit=20_000_000)
    report = verify(inst, res.board, objective="matches")
    assert report.ok and report.score == 480 - res.breaks
    with pytest.raises(InputError, match="--scan-order works with --break-rule blackwood"):
        breakscan.schedule_of(inst, {"scan_order": "blackwood"})


def test_a_fixed_pieces_neighbours_before_it_meet_it_exactly_under_the_blackwood_rule():
    inst = replace(seven(), fixed={(3, 3): (15, 2)})
    tables = breakscan.BreakTables(inst)
    allow = np.full(tables.ncells, 8, np.int32)  # breaks anywhere, the fixed piece's joins too
    exact = breakscan.eii_exact(inst, tables.cells)
    found = boards(breakscan.FastSearcher(tables, 3, allow, exact), limit=20)
    assert len(found) == 20
    for board in found:  # (3, 2) and (2, 3) come before the fixed piece: their lists meet it
        fixed = inst.edges(*board[(3, 3)])
        assert inst.edges(*board[(3, 2)])[sq.E] == fixed[sq.W]
        assert inst.edges(*board[(2, 3)])[sq.S] == fixed[sq.N]
        assert board[(3, 3)] == (15, 2) and verify(inst, board, "matches").ok


def test_compiled_and_numpy_lists_of_a_run_are_the_same():
    inst = replace(seven(), fixed={(3, 3): (15, 2)})
    tables = breakscan.BreakTables(inst)
    exact = breakscan.eii_exact(inst, tables.cells)
    base = tables.fast_base(True, (4,), exact)
    for seed in (0, 1, 2):
        buckets = tables.buckets(seed, base.rows, base.keys, base.sizes, base.rank)
        compiled, numpy_ = (breakscan.fast_lists(base, buckets, c) for c in (True, False))
        assert (compiled[0] == numpy_[0]).all() and (compiled[1] == numpy_[1]).all()
    lists, rows = compiled
    assert (rows == breakscan.END).sum() == len(base.head) and (rows >= 0).sum() > 1000
