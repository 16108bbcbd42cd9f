"""Completing the deepest partial board (`--fill-holes N`, holefill.py): the Blackwood loop keeps
its deepest walk in both cores alike, the hole fill places the free pieces optimally and keeps
the fixed ones, and the search reports completed boards the checker accepts."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import E2_DATA, INSTANCES, needs_e2_data

from tilesolve.core import squaregrid as sq
from tilesolve.core.errors import InputError
from tilesolve.families.edgematch import breakscan, holefill
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.family import FAMILY
from tilesolve.families.edgematch.official import apply_rules
from tilesolve.families.edgematch.parse import read_instance


def deepest_after(engine: str, steps: int) -> tuple[int, dict]:
    inst = replace(read_instance(INSTANCES / "e2_7x7.txt"), fixed={(3, 3): (15, 2)})
    tables = breakscan.BreakTables(inst)
    allow = breakscan.blackwood_allow(2, tables.ncells)
    s = breakscan.FastSearcher(tables, 5, allow, breakscan.eii_exact(inst, tables.cells),
                               engine=engine)
    for _ in range(steps):
        s.step(97)
    return s.max_depth, s.deepest()


def test_both_cores_keep_the_same_deepest_walk():
    for steps in (1, 4, 30):
        python, c = deepest_after("python", steps), deepest_after("auto", steps)
        assert python == c
        depth, board = c
        assert len(board) == depth > 0
        assert len({p for p, _r in board.values()}) == depth  # each piece once


def test_the_deepest_walk_is_a_board_the_search_held():
    """Its joins between placed pieces break at most as often as the schedule allows."""
    depth, board = deepest_after("auto", 30)
    inst = read_instance(INSTANCES / "e2_7x7.txt")
    broken = sum(1 for a, s, b in sq.joins(7, 7) if a in board and b in board
                 and inst.edges(*board[a])[s] != inst.edges(*board[b])[sq.opposite(s)])
    assert depth < 49 and broken <= 2


@needs_e2_data()
def test_a_fill_restores_holes_cut_from_a_record_board_at_least_as_well():
    inst = apply_rules(read_instance(E2_DATA / "e2_256.txt"))
    record = FAMILY.read_solution(inst, E2_DATA / "e2_board_verhaard_467.txt")
    holes = [(r, c) for r in (5, 9) for c in (0, 4, 8, 12, 15)]  # border and inner cells
    partial = {cell: pr for cell, pr in record.items() if cell not in holes}
    board, breaks = holefill.HoleFiller(inst).complete(partial, time_limit=20)
    assert {c: board[c] for c in partial} == partial  # the placed pieces stay
    assert (8, 7) in partial and board[(8, 7)] == inst.fixed[(8, 7)]
    assert breaks <= 480 - 467  # the record's own pieces there are one fill
    report = verify(inst, board, objective="matches")
    assert report.ok and report.score == 480 - breaks


def test_fill_holes_needs_the_blackwood_rule():
    inst = read_instance(INSTANCES / "e2_7x7.txt")
    sched = breakscan.schedule_of(inst, {"break_rule": "blackwood", "fill_holes": "6"})
    assert sched.fill_holes == 6
    assert breakscan.schedule_of(inst, {"break_rule": "blackwood"}).fill_holes == 0
    with pytest.raises(InputError, match="--fill-holes works with --break-rule blackwood"):
        breakscan.schedule_of(inst, {"break_rule": "ramp", "fill_holes": "6"})


def test_fill_slack_completes_shallower_boards_too():
    inst = read_instance(INSTANCES / "e2_8x8.txt")
    params = {"break_rule": "blackwood", "breaks": "1", "fill_holes": "12",
              "restart_nodes": "20000"}  # 50 runs in the 1,000,000 placements below
    assert breakscan.schedule_of(inst, {**params, "fill_slack": "3"}).fill_slack == 3
    with pytest.raises(InputError, match="--fill-slack needs --fill-holes"):
        breakscan.schedule_of(inst, {"break_rule": "blackwood", "fill_slack": "3"})
    tries = [breakscan.search(inst, breakscan.schedule_of(inst, {**params, "fill_slack": k}), 0,
                              node_limit=1_000_000) for k in ("0", "6")]
    # with slack more of the runs' deepest boards are offered for completion
    assert tries[1].filled + tries[1].unfilled > 2 * (tries[0].filled + tries[0].unfilled)
    for t in tries:
        assert verify(inst, t.board, objective="matches").score == 112 - t.breaks


def test_the_search_reports_completed_boards_when_no_complete_one_fits_its_breaks():
    inst = read_instance(INSTANCES / "e2_8x8.txt")
    params = {"break_rule": "blackwood", "breaks": "1"}
    seen: list[tuple[dict, int]] = []
    plain = breakscan.search(inst, breakscan.schedule_of(inst, params), 0, node_limit=3_000_000)
    filled = breakscan.search(inst, breakscan.schedule_of(inst, {**params, "fill_holes": "12"}),
                              0, node_limit=3_000_000,
                              on_board=lambda b, k: seen.append((b, k)))
    # one break completes no board within these placements; the deepest partial boards do
    assert plain.board is None and plain.filled == 0
    # each completion that beat the best so far was reported; the others were not
    assert filled.filled == len(seen) >= 1 and filled.board is not None
    assert filled.filled + filled.unfilled >= 2
    assert [k for _b, k in seen] == sorted((k for _b, k in seen), reverse=True)
    assert seen[-1] == (filled.board, filled.breaks)
    report = verify(inst, filled.board, objective="matches")
    assert report.ok and report.score == 112 - filled.breaks and len(filled.board) == 64


def test_fills_look_only_for_boards_better_than_one_found_elsewhere():
    """A portfolio's other lane holds a board of k breaks: a completion of k or more would
    not be the race's best, so the fills are asked for fewer (and are reported only then)."""
    inst = read_instance(INSTANCES / "e2_8x8.txt")
    sched = breakscan.schedule_of(inst, {"break_rule": "blackwood", "breaks": "1",
                                         "fill_holes": "12"})
    alone = breakscan.search(inst, sched, 0, node_limit=3_000_000)
    k = alone.breaks - 1  # better than anything this search completes alone
    seen: list[int] = []
    raced = breakscan.search(inst, sched, 0, node_limit=3_000_000, bound=lambda: k,
                             on_board=lambda b, n: seen.append(n))
    assert raced.bounded == 1 and raced.unfilled >= 1
    assert all(n < k for n in seen) and raced.filled == len(seen)


@needs_e2_data()
def test_the_official_board_searches_with_blackwoods_setting_by_default():
    official = apply_rules(read_instance(E2_DATA / "e2_256.txt"))
    sched = breakscan.schedule_of(official, {})
    assert (sched.rule, sched.breaks, sched.fill_holes, sched.colours) == \
        ("blackwood", 10, 24, (5, 7, 20))
    assert (sched.order, sched.fill_slack) == ("blackwood", 2)
    assert breakscan.schedule_of(official, {"breaks": "14"}).breaks == 14  # one option changed
    assert breakscan.schedule_of(official, {"break_rule": "eii"}).rule == "eii"  # or the rule
    other = read_instance(INSTANCES / "e2_16x16.txt")  # another 16x16 set keeps the eii rule
    assert breakscan.schedule_of(other, {}).rule == "eii"


def test_a_fill_asked_to_beat_a_score_returns_none_when_it_cannot():
    """`below`: only completions with fewer mismatches count; CP-SAT proves the rest absent."""
    import tilesolve

    inst = read_instance(INSTANCES / "e2_6x6.txt")
    solution = tilesolve.solve(INSTANCES / "e2_6x6.txt", "cpsat", seed=0).solution
    holes = [(2, 1), (2, 2), (2, 3), (3, 2), (3, 3)]
    partial = {c: pr for c, pr in solution.items() if c not in holes}
    # one hole's piece swapped with a placed inner piece: no perfect fill is left
    away = (1, 4)
    partial[away] = solution[(2, 2)]
    filler = holefill.HoleFiller(inst)
    board, best = filler.complete(partial, time_limit=20)
    assert best > 0 and verify(inst, board, objective="matches").score == 60 - best
    assert filler.complete(partial, time_limit=20, below=best) is None
    again, k = filler.complete(partial, time_limit=20, below=best + 1)
    assert k == best and verify(inst, again, objective="matches").ok
    assert filler.complete(partial, below=0) is None  # nothing has fewer than 0
