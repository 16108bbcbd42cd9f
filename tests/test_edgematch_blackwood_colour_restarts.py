"""Two options of the Blackwood rule: Blackwood's colour-exhaustion rule (`--colour-rule`,
colour_rule.py) and restarts at a node limit (`--restart-nodes`), on the official Eternity II
set and the generated 7x7 board."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import E2_DATA, INSTANCES, walk

from tilesolve.core import squaregrid as sq
from tilesolve.core.errors import InputError
from tilesolve.families.edgematch import breakscan, colour_rule
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.official import apply_rules
from tilesolve.families.edgematch.parse import read_instance

OFFICIAL = E2_DATA / "e2_256.txt"
official_only = pytest.mark.skipif(not OFFICIAL.exists(), reason="official set not at hand")


def official():
    return apply_rules(read_instance(OFFICIAL))


def seven():
    return read_instance(INSTANCES / "e2_7x7.txt")


def test_floor_is_blackwoods_piecewise_linear_one_up_to_depth_160():
    due = colour_rule.floor(256, 122)
    # libblackwood's jb470 values at these depths: (d - 16) * 2.8 rounded down, then
    # 28 + 1.43333 (d - 26), 71 + 0.9 (d - 56), 89 + 0.6538 (d - 76), 106 + (d - 102) / 4.4615
    assert due[:17].sum() == 0 and due[17] == 2 and due[26] == 28 and due[40] == 48
    assert due[70] == 83 and due[90] == 98 and due[130] == 112 and due[160] == 119
    assert due[161:].sum() == 0 and (np.diff(due[17:161]) >= 0).all()
    assert colour_rule.floor(128, 61)[80] == 119 // 2  # scaled: depth 160 of 256, half the sides


@official_only
def test_blackwoods_colours_are_one_frame_and_two_inner_colours_of_the_official_set():
    inst = official()
    assert colour_rule.chosen(inst, "blackwood") == (5, 7, 20)
    sides = [sum(e.count(c) for e in inst.pieces) for c in (5, 7, 20)]
    assert sides == [24, 48, 50] and 5 in inst.frame_colours() and {7, 20} <= inst.inner_colours()
    assert colour_rule.weights(inst, (5, 7, 20)).sum() == 122


def test_colour_rule_refuses_what_the_board_cannot_have():
    with pytest.raises(InputError, match="official"):
        breakscan.schedule_of(seven(), {"break_rule": "blackwood", "colour_rule": "blackwood"})
    with pytest.raises(InputError, match="colour 30 is on no piece"):
        breakscan.schedule_of(seven(), {"break_rule": "blackwood", "colour_rule": "4,30"})
    with pytest.raises(InputError, match="--break-rule blackwood"):
        breakscan.schedule_of(seven(), {"break_rule": "ramp", "colour_rule": "4,7"})
    with pytest.raises(InputError, match="eii"):
        breakscan.schedule_of(seven(), {"break_rule": "eii", "restart_nodes": 1000})
    sched = breakscan.schedule_of(seven(), {"break_rule": "blackwood", "colour_rule": "7,4"})
    assert sched.colours == (7, 4) and sched.restart_nodes is None


def short_of_floor(inst, pieces) -> list[int]:
    """The depths where the chosen colours' sides on the pieces (0-based, in scan order)
    fall short of the floor."""
    weight = colour_rule.weights(inst, colour_rule.BLACKWOOD_COLOURS)
    due = colour_rule.floor(inst.width * inst.height, int(weight.sum()))
    got = np.cumsum(weight[np.asarray(pieces, int)])
    return [d for d in range(len(pieces)) if got[d] < due[d]]


def official_searcher(colours) -> tuple:
    """The official set, its tables, and a seed-0 searcher of the Blackwood rule (30 breaks)."""
    inst = official()
    tables = breakscan.BreakTables(inst)
    allow = breakscan.blackwood_allow(30, 256)
    exact = breakscan.eii_exact(inst, tables.cells)
    return inst, tables, breakscan.FastSearcher(tables, 0, allow, exact, colours=colours)


@official_only
def test_colour_rule_boards_on_the_official_set_obey_the_floor():
    inst, tables, s = official_searcher(colour_rule.BLACKWOOD_COLOURS)
    code = nodes = 0
    while code != 1 and nodes < 10_000_000:  # one run: seed 0's first board at 6.0 million
        code, done = s.step(1_000_000)
        nodes += done
    assert code == 1
    board = s.solution()
    rep = verify(inst, board, "matches")
    assert rep.ok and rep.score == sq.join_count(16, 16) - s.breaks
    assert short_of_floor(inst, [board[cell][0] - 1 for cell in tables.cells]) == []


@official_only
def test_colour_rule_prunes_the_partial_boards_the_plain_rule_walks():
    short = {}
    for colours in (colour_rule.BLACKWOOD_COLOURS, ()):
        inst, tables, s = official_searcher(colours)
        short[colours] = 0
        for _ in range(200):  # the partial board after every 10 000 placements
            s.step(10_000)
            depth = int(s.state[0])
            short[colours] += bool(short_of_floor(inst, s.piece[:depth]))
    assert short[colour_rule.BLACKWOOD_COLOURS] == 0 and short[()] > 100


@official_only
def test_colour_rule_lists_candidates_with_more_of_the_colours_first():
    inst = official()
    tables = breakscan.BreakTables(inst)
    zero = np.zeros(tables.ncells, np.int32)
    s = breakscan.FastSearcher(tables, 0, zero, zero, colours=(5, 7, 20))
    weight = colour_rule.weights(inst, (5, 7, 20))
    start, idx = s.buckets[0], s.buckets[1]
    ordered = [np.all(np.diff(weight[tables.rows[idx[a:b], 1]]) <= 0)
               for a, b in zip(start[:-1], start[1:], strict=True) if b - a > 1]
    assert len(ordered) > 100 and all(ordered)


def test_c_core_and_python_loop_walk_the_same_tree_under_the_colour_rule():
    inst = seven()
    tables = breakscan.BreakTables(inst)
    allow = breakscan.blackwood_allow(6, tables.ncells)
    exact = breakscan.eii_exact(inst, tables.cells)
    walks = [walk(breakscan.FastSearcher(tables, 2, allow, exact, engine=e, colours=(4,)),
                  steps=40) for e in ("python", "auto")]
    plain = walk(breakscan.FastSearcher(tables, 2, allow, exact), steps=40)
    assert walks[0] == walks[1] and walks[0] != plain


def run(seed: int, nodes: int | None) -> tuple[breakscan.BreakResult, int]:
    """A blackwood-rule search of the 7x7 board, and the boards it found on the way."""
    inst, found = seven(), []
    params = {"break_rule": "blackwood", "restart_nodes": nodes}
    res = breakscan.search(inst, breakscan.schedule_of(inst, params), seed,
                           node_limit=2_000_000, on_board=lambda b, k: found.append(k))
    return res, len(found)


def test_restarts_at_the_node_limit_are_counted_and_a_seed_repeats_its_run():
    every, boards = run(0, 20_000)
    # a run ends 20 000 placements after it began or last found a board, not later; this
    # seed's runs find a board without a break, where the search stops: the end is the same
    assert every.breaks == 0 and every.restarts >= 10
    assert every.nodes <= 20_000 * (every.restarts + 1 + boards)
    again = run(0, 20_000)[0]
    assert (again.restarts, again.breaks, again.nodes, again.board) == \
        (every.restarts, every.breaks, every.nodes, every.board)
    assert run(0, 0)[0].restarts == 0  # one run
    assert run(0, None)[0].restarts <= 1  # Luby's first unit is 2 million placements
    assert run(5, 20_000)[0].board != every.board


def test_each_restart_shuffles_every_cells_candidates_anew():
    inst = seven()
    sched = breakscan.schedule_of(inst, {"break_rule": "blackwood", "restart_nodes": 1000})
    runs = breakscan._Runs(inst, sched, 0, None, None, "auto", lambda: False)
    first = runs.searcher().buckets
    second = runs.next().buckets
    assert [a.tolist() for a in first[0::2]] == [a.tolist() for a in second[0::2]]
    assert first[1].tolist() != second[1].tolist()
    assert sorted(first[1].tolist()) == sorted(second[1].tolist())


def test_restart_nodes_and_colour_rule_on_the_command_line(cli):
    proc = cli("solve", INSTANCES / "e2_7x7.txt", "-b", "search", "--objective", "matches",
               "--break-rule", "blackwood", "--restart-nodes", "10000", "--seed", "0",
               "-t", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["verified"] and out["stats"]["restarts"] > 0
    bad = cli("solve", INSTANCES / "e2_7x7.txt", "-b", "search", "--objective", "matches",
              "--break-rule", "blackwood", "--colour-rule", "blackwood", "-t", "3")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "official" in bad.stderr
