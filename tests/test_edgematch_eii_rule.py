"""The eii break rule (`--break-rule eii`, after Verhaard's eii): its break table, the joins
that may not break, the piece groups' gates, and the C core and the Python loop agreeing."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from conftest import E2_DATA, INSTANCES, needs_e2_data, walk

from tilesolve.core import squaregrid as sq
from tilesolve.families.edgematch import breakscan, eii_groups
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.instance import EdgeInstance
from tilesolve.families.edgematch.parse import read_instance

ENGINES = ("python", "auto")


def no_gates(tables, **kw) -> eii_groups.Gates:
    n, big = tables.ncells, np.iinfo(np.int32).max
    args = {"flags": np.zeros(tables.npieces, np.int32), "good_max": np.full(n, big, np.int32),
            "precious_max": np.full(n, big, np.int32), "useless_min": np.zeros(n, np.int32)}
    return eii_groups.Gates(**{**args, **kw})


def run_out(tables, allow, engine, **kw) -> tuple[int, object]:
    """(code, searcher) after the first board (1) or the end of the tree (-1)."""
    s = breakscan.BreakSearcher(tables, 0, allow, engine, **kw)
    code = 0
    while code == 0:
        code, _ = s.step(10_000)
    return code, s


def test_eii_table_gives_the_jth_break_its_stretched_depth():
    allow = breakscan.eii_allow(12, 192, 256)
    # break j at depth 192 + (EII_SLIPS[j] - 192) * 63 / 48, rounded up, as a 0-based cell
    assert allow[:193].tolist() == [0] * 193  # break 1: depth 193 -> 193.3 -> cell 193
    assert allow[193] == 1 and allow[204] == 1 and allow[205] == 2  # break 2: 202 -> 205.1
    assert allow[251] == 10 and allow[252] == 11 and allow[253] == 11  # break 11: 238 -> 252.4
    assert allow[254] == allow[255] == 12  # break 12: 240 -> 255
    assert np.all(np.diff(allow) >= 0)
    # more breaks than the table: the same depths, denser (break 1 of 30: 192.4 -> 192.5)
    more = breakscan.eii_allow(30, 192, 256)
    assert more[191] == 0 and more[192] == 1 and more[255] == 30 and np.all(more >= allow)
    assert breakscan.eii_allow(0, 192, 256).sum() == 0


def test_no_join_between_two_frame_pieces_may_break():
    inst = read_instance(INSTANCES / "e2_4x4.txt")
    exact = breakscan.eii_exact(inst, inst.cells()).reshape(4, 4)
    # bit 0: the west join is between frame pieces (top and bottom rows); bit 1: the north
    # join (left and right columns); inner joins are free
    assert exact.tolist() == [[0, 1, 1, 1],
                              [2, 0, 0, 2],
                              [2, 0, 0, 2],
                              [2, 1, 1, 3]]


def four_strangers() -> EdgeInstance:
    """A 2x2 board of corners that share no colour: every join breaks, all are frame joins."""
    pieces = [(0, 2 * k + 1, 2 * k + 2, 0) for k in range(4)]
    return EdgeInstance(2, 2, pieces)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_break_where_the_rule_forbids_one_is_refused(engine):
    tables = breakscan.BreakTables(four_strangers())
    allow = np.full(4, 4, np.int32)
    code, s = run_out(tables, allow, engine)
    assert code == 1 and s.breaks == 4  # without the rule: the four joins break
    exact = np.array([0, 1, 0, 0], np.int32)  # the west join of cell (0, 1) must match
    code, _ = run_out(tables, allow, engine, exact=exact)
    assert code == -1  # no piece can meet it: no board at all


def seven() -> EdgeInstance:
    return read_instance(INSTANCES / "e2_7x7.txt")


@pytest.mark.parametrize("engine", ENGINES)
def test_the_gates_count_good_precious_and_useless_pieces_by_depth(engine):
    inst = seven()
    tables = breakscan.BreakTables(inst)
    n = tables.ncells
    allow = np.full(n, sq.join_count(7, 7), np.int32)  # any board: only the gates prune
    inner = [p for p in range(inst.n) if inst.kind(p + 1) == "inner"]
    flags = np.zeros(inst.n, np.int32)
    good, useless = inner[:5], inner[-3:]  # inner cells from depth 31 on: 8
    flags[good] = eii_groups.FLAG_GOOD
    flags[good[:2]] |= eii_groups.FLAG_PRECIOUS
    flags[useless] = eii_groups.FLAG_USELESS
    d = np.arange(n)
    good_max = np.where(d < 24, 0, np.where(d < 31, 1, 99))
    precious_max = np.where(d < 36, 0, 99)
    # every useless piece by depth 20: at least 3 minus the inner cells left up to it
    inner_cell = np.array([0 < r < 6 and 0 < c < 6 for r, c in tables.cells])
    left = np.array([inner_cell[i + 1:21].sum() for i in range(n)])
    useless_min = np.maximum(0, 3 - left)
    gates = no_gates(tables, flags=flags, good_max=good_max.astype(np.int32),
                     precious_max=precious_max.astype(np.int32),
                     useless_min=useless_min.astype(np.int32))
    code, s = run_out(tables, allow, engine, gates=gates)
    assert code == 1
    board = s.solution()
    at = {board[cell][0] - 1: i for i, cell in enumerate(tables.cells)}
    assert min(at[p] for p in good) >= 24  # no good piece before depth 24
    assert sum(at[p] < 31 for p in good) <= 1  # at most one by depth 31
    assert min(at[p] for p in good[:2]) >= 36  # no precious piece before depth 36
    assert max(at[p] for p in useless) <= 20  # every useless piece by depth 20
    rep = verify(inst, board, "matches")
    assert rep.ok and rep.score == sq.join_count(7, 7) - s.breaks


@pytest.mark.parametrize("engine", ENGINES)
def test_gates_no_board_can_meet_leave_no_board(engine):
    tables = breakscan.BreakTables(four_strangers())
    allow = np.full(4, 4, np.int32)
    flags = np.array([1, 0, 4, 0], np.int32)  # piece 1 good, piece 3 useless
    for bad in (no_gates(tables, flags=flags, good_max=np.zeros(4, np.int32)),  # good nowhere
                no_gates(tables, flags=flags, useless_min=np.full(4, 2, np.int32))):  # 2 of 1
        assert run_out(tables, allow, engine, gates=bad)[0] == -1
    ok = no_gates(tables, flags=flags, good_max=np.array([0, 0, 0, 1], np.int32),
                  useless_min=np.array([0, 1, 1, 1], np.int32))
    code, s = run_out(tables, allow, engine, gates=ok)
    board = s.solution()
    assert code == 1 and board[(1, 1)][0] == 1  # the good piece last
    assert 3 in (board[(0, 0)][0], board[(0, 1)][0])  # the useless one by the second cell


def test_c_core_and_python_loop_walk_the_same_tree_under_the_eii_rule():
    inst = seven()
    tables = breakscan.BreakTables(inst)
    allow = breakscan.Schedule(8, 4, rule="eii").allow(7, 7)
    exact = breakscan.eii_exact(inst, tables.cells)
    flags = np.zeros(inst.n, np.int32)
    flags[[p for p in range(inst.n) if inst.kind(p + 1) == "inner"][::3]] = 1
    gates = no_gates(tables, flags=flags,
                     good_max=np.where(np.arange(49) < 30, 2, 99).astype(np.int32))
    walks = [walk(breakscan.BreakSearcher(tables, 5, allow, engine, exact, gates), steps=60)
             for engine in ENGINES]
    assert walks[0] == walks[1]
    assert any(code == 1 for code, *_ in walks[0])


def test_fillings_count_the_ways_to_fill_a_2x3_rectangle():
    # one piece, one colour on all four edges: each of the 6 cells takes any of its 4 turns
    inst = EdgeInstance(3, 3, [(1, 1, 1, 1)])
    look, k = eii_groups.looks(inst, [1])
    assert k == 1 and eii_groups.fillings(eii_groups.oriented(look, k)) == 4 ** 6
    # two pieces that meet nowhere (colours 1-4 and 5-8 in order round each piece): a 2x3
    # filling needs a piece whose east meets a west; turning (1,2,3,4) by two gives west 2
    # for east 2, so each piece fills alone in as many ways as its own turns allow
    inst = EdgeInstance(3, 3, [(1, 2, 3, 4), (5, 6, 7, 8)])
    look, k = eii_groups.looks(inst, [1, 2])
    both = eii_groups.fillings(eii_groups.oriented(look, k))
    one = eii_groups.fillings(eii_groups.oriented(look[:1], k))
    two = eii_groups.fillings(eii_groups.oriented(look[1:], k))
    assert both == one + two > 0


def test_exchanges_only_raise_a_groups_fillings():
    inst = seven()
    inner = [p for p in range(1, inst.n + 1) if inst.kind(p) == "inner"]
    look, k = eii_groups.looks(inst, inner)
    for seed in (0, 1):
        start = eii_groups.good_group(look, k, 12, np.random.default_rng(seed), swaps=0)
        better = eii_groups.good_group(look, k, 12, np.random.default_rng(seed), swaps=60)
        assert better.sum() == start.sum() == 12
        value = eii_groups.fillings(eii_groups.oriented(look[better], k))
        assert value > eii_groups.fillings(eii_groups.oriented(look[start], k))


@needs_e2_data()
def test_eii_gates_on_eternity_ii_follow_the_documents_depths():
    from tilesolve.families.edgematch.official import apply_rules

    inst = apply_rules(read_instance(E2_DATA / "e2_256.txt"))
    g = eii_groups.gates(inst, inst.cells(), 0, {139})
    good, precious, useless = (g.flags & f > 0 for f in (1, 2, 4))
    assert good.sum() == 97 and precious.sum() == useless.sum() == 16  # half of 195, 16, 16
    assert not (precious & ~good).any() and not (useless & good).any()
    assert not good[138] and not useless[138]  # the start piece is in no group
    assert g.good_max[61] == 0 and g.good_max[62] == 6 and g.good_max[77] == 6
    assert g.good_max[78] > 200  # depths 63 and 79 of eii, 1-based
    assert g.precious_max[98] == 0 and g.precious_max[99] > 200  # depth 100
    assert g.useless_min[95] == 16 and g.useless_min[255] == 16  # all by depth 96
    # before that, as many as the inner cells left up to cell 95 force: after cell 80 the
    # inner cells 81-94 are left (14), so 2 must be down; after 81, 13 (3); after 77, 15 (1)
    assert g.useless_min[80] == 2 and g.useless_min[81] == 3 and g.useless_min[77] == 1
    assert g.useless_min[60] == 0


def test_eii_rule_boards_are_verified_permutations():
    inst = replace(seven(), fixed={(3, 3): (15, 2)})
    sched = breakscan.schedule_of(inst, {"break_rule": "eii", "breaks": 10})
    assert sched == breakscan.Schedule(10, 5, False, "eii")
    for engine in ENGINES:  # 30,000 nodes: the Python loop's first board (5 breaks) took 16,171
        res = breakscan.search(inst, sched, 0, node_limit=30_000, engine=engine)
        assert res.board is not None and res.breaks <= 10
        rep = verify(inst, res.board, "matches")
        assert rep.ok and rep.score == sq.join_count(7, 7) - res.breaks
        assert res.board[(3, 3)] == (15, 2)


def test_break_rule_is_a_choice(cli):
    proc = cli("solve", INSTANCES / "e2_4x4.txt", "-b", "search", "--objective", "matches",
               "--break-rule", "maybe")
    assert proc.returncode == 2 and "break-rule" in proc.stderr and "eii" in proc.stderr


def test_the_eii_rule_is_the_default_from_16x16():
    small = breakscan.schedule_of(seven(), {})
    big = breakscan.schedule_of(read_instance(INSTANCES / "e2_16x16.txt"), {})
    assert small.rule == "ramp" and small == breakscan.default_schedule(seven())
    assert big.rule == "eii" and (big.breaks, big.start_row) == (30, 12)
    ramp = breakscan.schedule_of(read_instance(INSTANCES / "e2_16x16.txt"),
                                 {"break_rule": "ramp"})
    assert (ramp.rule, ramp.breaks) == ("ramp", 45)


def test_eii_groups_are_not_built_once_the_search_must_stop():
    inst = seven()
    inner = [p for p in range(1, inst.n + 1) if inst.kind(p) == "inner"]
    look, k = eii_groups.looks(inst, inner)
    rng = np.random.default_rng(0)
    assert eii_groups.good_group(look, k, 12, rng, swaps=60, stop=lambda: True) is None
    big = read_instance(INSTANCES / "e2_16x16.txt")
    assert eii_groups.gates(big, big.cells(), 0, set(), stop=lambda: True) is None
    res = breakscan.search(big, breakscan.schedule_of(big, {}), 0, stop=lambda: True)
    assert res.board is None and res.nodes == 0


def test_break_search_answers_by_its_limit_and_writes_its_board(cli, tmp_path):
    """The search's own answer, not the watchdog's (which answers a run still going past the
    limit, and writes no -o file): the limit counts the process's start and table building
    (the search counted its -t from its own start, and ran 0.25 s past -t 2 at a load of 3)."""
    import json

    board = tmp_path / "best.txt"
    inst = INSTANCES / "e2_8x8.txt"  # boards within milliseconds, none without a break
    proc = cli("solve", inst, "-b", "search", "--objective", "matches", "-t", "2", "--json",
               "-o", board)
    res = json.loads(proc.stdout)
    assert res["status"] == "feasible" and res["verified"], proc.stderr
    assert "stopped" not in res["stats"] and res["stats"]["solver"] == "breakscan"
    check = cli("verify", inst, board, "--objective", "matches")
    assert check.returncode == 0 and f"score {res['objective']}/112" in check.stdout


def test_a_bound_from_other_lanes_keeps_the_search_to_better_boards():
    """`--share`: a board of k breaks found elsewhere makes the search look only for fewer,
    as its own board would; a solution found elsewhere ends it at once."""
    inst = replace(seven(), fixed={(3, 3): (15, 2)})
    sched = breakscan.schedule_of(inst, {"break_rule": "eii", "breaks": 10})
    free = breakscan.search(inst, sched, 0, node_limit=300_000)
    k = free.breaks
    assert k is not None and k >= 1 and free.bounded == 0
    met: list[int] = []
    res = breakscan.search(inst, sched, 0, node_limit=300_000, bound=lambda: k,
                           on_board=lambda board, n: met.append(n))
    assert res.bounded == 1 and all(n < k for n in met)
    assert (res.board is None) == (not met) and (res.board is None or res.breaks < k)
    done = breakscan.search(inst, sched, 0, node_limit=300_000, bound=lambda: 0)
    assert done.board is None and done.nodes == 0 and done.bounded == 1


def test_the_bound_is_the_newest_score_the_portfolio_sent():
    from tilesolve.hybrid.lanes import Inbox

    inbox = Inbox()
    breaks = breakscan.elsewhere(inbox, 84)
    assert breaks() is None
    inbox.put({}, 80)
    assert breaks() == 4 and breaks() == 4  # kept after the inbox is read
    inbox.put({}, 82)
    assert breaks() == 2
    assert breakscan.elsewhere(None, 84)() is None
