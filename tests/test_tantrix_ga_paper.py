"""Downing's Tantrix-GA (the `paper` preset): development, fitness and operators against
examples worked by hand, and a small Discovery puzzle solved within his budget."""

from __future__ import annotations

import numpy as np
import pytest

from tilesolve.backends import ga as engine
from tilesolve.core import hexgrid as hx
from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.tantrix import ga
from tilesolve.families.tantrix.check import verify
from tilesolve.families.tantrix.downing_growth import (
    DowningGrower,
    PyramidReading,
    Weights,
    move_direction,
    paper_budget,
    paper_weights,
    pyramid_cells,
)
from tilesolve.families.tantrix.ga_downing import (
    DowningEncoding,
    flip_bits,
    move_run,
    single_point,
)
from tilesolve.families.tantrix.ga_growth import Grown
from tilesolve.families.tantrix.parse import read_instance

N, SE, NE, S, NW, SW = 3, 1, 2, 0, 4, 5  # Downing's move codes


def parse(text: str):
    return read_instance("x", text="tantrix\n" + text)


def figure5_genome(second_move: int = SE) -> list[int]:
    """Downing's Figure 5 walk on our tiles: moves N, SE, N, NW; priority order 3, 5, 1, 4, 2.

    Pairs (priority, orientation) per tile 1..5. Tile 3 turns 64 mod 6 = 4 steps (red on
    its N and NE edges); tile 5's orientation 131 is Downing's: 131 mod 2 = 1 picks the
    latter of its two fitting rotations."""
    return [N, second_move, N, NW, 2, 0, 4, 0, 0, 64, 3, 0, 1, 131]


def test_development_of_downings_worked_example():
    # By hand (our edges 0..5 = his N, NE, SE, S, SW, NW; cells (q, r), his N = (+1, -1)):
    # tile 3 (YYRRBB) turned 4: R R B B Y Y at (0, 0). Move N: (1, -1) borders its red N edge.
    # Tile 5 (YYRBBR) needs red on edge 3: rotations 1 and 4 fit; 131 mod 2 = 1 -> 4, i.e.
    # R B B R Y Y. Move SE from tile 5: (1, 0), tile 3's NE neighbour, sees red (tile 3) on
    # edge 4 and blue (tile 5) on edge 5; tile 1 (YYBRBR) fits only turned 1 (R Y Y B R B).
    # Move N: (2, -1) sees red on edge 3 and blue on edge 4: tile 4 (RYBYRB) only turned 5.
    # Move NW: (2, -2) sees red on edges 2 and 3: tile 2 (YYBRRB) only turned 5. A red loop.
    inst = parse("tiles 1-5\ngoal loop red\n")
    grower = DowningGrower(inst)
    grown = grower.develop(figure5_genome())
    assert grown.unplaced == []
    assert grown.board == {(0, 0): (2, 4), (1, -1): (4, 4), (1, 0): (0, 1), (2, -1): (3, 5),
                           (2, -2): (1, 5)}
    assert verify(inst, grower.solution(grown)).ok
    score = grower.judge(grown)
    # 7 touching pairs -> M = 14 / 5; no hole, no open red segment, a red cycle of 5
    assert score.solved and score.holes == 0 and score.segments == (0,) and score.cycles == (5,)
    assert score.fitness == pytest.approx(14 / 5 + 5)


def test_development_goes_counter_clockwise_from_a_cell_without_focal_arc():
    # Second move S from tile 5 points at tile 3's cell (taken); counter-clockwise from S the
    # next neighbour is SE, the same cell the worked example reaches: the same cluster.
    inst = parse("tiles 1-5\ngoal loop red\n")
    grower = DowningGrower(inst)
    assert grower.develop(figure5_genome(S)).board == grower.develop(figure5_genome()).board
    # Move NE from tile 5 reaches (2, -1), which borders only tile 5's blue edge: the search
    # goes on counter-clockwise to N, (2, -2), where tile 1 (next by priority) fits red on
    # edge 3 turned 0 or 4 and takes rotation 0 (orientation gene 0).
    grown = grower.develop(figure5_genome(NE))
    assert grown.board[(2, -2)] == (0, 0)


def test_moves_follow_downings_compass():
    # S, SE, NE, N, NW, SW (counter-clockwise) onto our edges N 0, NE 1, SE 2, S 3, SW 4, NW 5
    assert [move_direction(m) for m in range(6)] == [3, 2, 1, 0, 5, 4]
    assert move_direction(6 + N) == 0  # genes are read mod 6


def test_fitness_of_a_ring_with_a_hole():
    # Six tiles with a blue bend around the empty cell (0, 0): the cell in direction d holds
    # its blue arc on edges d+2, d+4 (towards its two ring neighbours), so blue closes a
    # 6-cycle. Six touching pairs -> M = 2; one hole costs 10: F_sum = 2 - 10 + 0 + 6 = -2.
    inst = parse("tiles 1 6 9 10 11 12\ngoal loop blue\n")
    grower = DowningGrower(inst)
    arcs = {1: 2, 6: 1, 9: 4, 10: 3, 11: 2, 12: 3}  # lower blue edge of each tile's bend
    dirs = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)]
    board = {}
    for d, (i, tile) in enumerate(enumerate(inst.tiles)):
        board[dirs[d]] = (i, (d + 2 - arcs[tile]) % 6)  # turn edge `low` onto edge d+2
    score = grower.judge(Grown(board, []))
    assert score.holes == 1 and score.cycles == (6,) and score.segments == (0,)
    assert score.compactness == pytest.approx(2.0)
    assert score.fitness == pytest.approx(-2.0) and not score.solved
    # F_max with Professor's weights: 2 - 10 + max(0, 1.5 * 6) = 1
    heavy = DowningGrower(inst, Weights(mode="max", k_cyc=1.5))
    assert heavy.judge(Grown(board, [])).fitness == pytest.approx(1.0)


def test_paper_weights_and_budgets_follow_the_tables():
    def inst(name):
        return read_instance(f"instances/tantrix_{name}.txt")

    assert paper_weights(inst("discovery_10")) == Weights()
    assert paper_weights(inst("super_professor")) == Weights(mode="max", k_cyc=1.5)
    assert paper_weights(inst("super_genius")) == Weights(mode="max", k_cyc=0.0)
    budgets = {name: paper_budget(inst(name)) for name in (
        "discovery_10", "discovery_15", "discovery_20", "discovery_25", "discovery_30",
        "rainbow_blue", "rainbow_red", "rainbow_yellow", "super_master", "super_professor",
        "super_genius")}
    assert budgets == {
        "discovery_10": (100, 100), "discovery_15": (100, 100), "discovery_20": (200, 200),
        "discovery_25": (300, 300), "discovery_30": (500, 300), "rainbow_blue": (200, 200),
        "rainbow_red": (200, 200), "rainbow_yellow": (100, 100), "super_master": (100, 100),
        "super_professor": (200, 200), "super_genius": (300, 300)}


def test_genome_layout_is_downings():
    inst = read_instance("instances/tantrix_discovery_30.txt")
    enc = DowningEncoding(inst)
    # 29 moves of 5 bits, then 30 (priority 7, orientation 8) pairs: his 595 bits
    assert int(enc.bits.sum()) == 595 and int(enc.bits[:29].sum()) == 145
    pyramid = DowningEncoding(read_instance("instances/tantrix_rainbow_blue.txt"))
    assert pyramid.grower.moves == 0 and pyramid.length == 20  # no shape genes


def test_pyramid_cell_orders():
    apex, row1, row2 = [(0, 0)], [(-1, 1), (0, 1)], [(-2, 2), (-1, 2), (0, 2)]
    assert pyramid_cells(3, "rows") == apex + row1 + row2
    assert pyramid_cells(3, "rows_rl") == apex + row1[::-1] + row2[::-1]
    assert pyramid_cells(3, "snake") == apex + row1[::-1] + row2
    assert pyramid_cells(3, "snake_lr") == apex + row1 + row2[::-1]
    assert pyramid_cells(3, "base") == row2 + row1 + apex
    assert pyramid_cells(3, "base_snake") == row2 + row1[::-1] + apex


def test_pyramid_middle_out_order():
    # Side 4: the middle cell, its ring counter-clockwise from Downing's South (our SW), then
    # the corners in the same turn: bottom right, apex, bottom left.
    assert pyramid_cells(4, "middle") == [
        (-1, 2), (-2, 3), (-1, 3), (0, 2), (0, 1), (-1, 1), (-2, 2), (0, 3), (0, 0), (-3, 3)]
    # side 3 has three middle cells; the first in row order starts
    assert pyramid_cells(3, "middle") == [(-1, 1), (-2, 2), (-1, 2), (0, 1), (0, 0), (0, 2)]
    # sec. 7.2: no tile goes beside more than 3 placed ones, and each touches a placed one
    for side in range(2, 7):
        placed: set = set()
        for k, cell in enumerate(pyramid_cells(side, "middle")):
            beside = sum(nb in placed for nb in hx.neighbours(cell))
            assert (k == 0 or 1 <= beside <= 3), (side, cell)
            placed.add(cell)


def test_pyramid_development_from_the_middle():
    # Tiles 1 4 6 7 8 10 on a triangle of side 3, priorities in that order, orientations 0.
    inst = parse("tiles 1 4 6 7 8 10\ngoal line yellow\nshape triangle 3\n")
    genome = [0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0]
    middle = DowningGrower(inst).develop(genome)  # the paper preset's order
    # Tile 1 (YYBRBR) goes in the middle, (-1, 1), turned 0 (gene 0 mod 6). Its SW edge is
    # red: at (-2, 2) tile 4 (RYBYRB) shows red on its NE edge turned 0 or 2; gene 0: 0. At
    # (-1, 2) the middle shows blue on the NW edge and tile 4 yellow on the W edge: tile 6
    # (RBYBRY) fits turned 2 only (Y B on W NW). The rest follow; the yellow line runs
    # through all six.
    assert list(middle.board.items()) == [
        ((-1, 1), (0, 0)), ((-2, 2), (1, 0)), ((-1, 2), (2, 2)), ((0, 1), (3, 0)),
        ((0, 0), (4, 0)), ((0, 2), (5, 4))]
    grower = DowningGrower(inst)
    assert grower.judge(middle).solved and verify(inst, grower.solution(middle)).ok
    # the same genome in row order from the apex stops at its fifth cell
    rows = DowningGrower(inst, pyramid=PyramidReading("rows")).develop(genome)
    assert len(rows.board) == 4 and rows.unplaced == [4, 5]
    assert ga.PAPER.options["pyramid_order"] == "middle"


def test_pyramid_development_in_row_order_and_by_focal_arcs():
    # Tiles 1, 2, 3 (YYBRBR, YYBRRB, YYRRBB) on a triangle of side 2, priority 3, 1, 2.
    # Tile 3 turned 5 shows R on its E and SE edges and B on its SW edge.
    inst = parse("tiles 1-3\ngoal line red\nshape triangle 2\n")
    genome = [1, 0, 2, 0, 0, 5]
    # In row order the cell SW of the apex comes next; it sees blue, and tile 1 fits turned
    # 2 or 4 (gene 0: 2: B R Y Y B R), by the golden rule alone. Then the SE cell sees red
    # from the apex and from tile 1: tile 2 fits turned 1 only, closing a red line of three.
    grower = DowningGrower(inst, pyramid=PyramidReading("rows"))
    rows = grower.develop(genome)
    assert rows.board == {(0, 0): (2, 5), (-1, 1): (0, 2), (0, 1): (1, 1)}
    assert grower.judge(rows).solved and verify(inst, grower.solution(rows)).ok
    # With the focal-arc rule the SW cell takes no tile and growth stops there.
    focal = DowningGrower(inst, pyramid=PyramidReading("rows", focal=True)).develop(genome)
    assert focal.board == {(0, 0): (2, 5)} and focal.unplaced == [0, 1]
    # ... or, read as skipping such a cell, goes on to the SE cell, where tile 1 fits turned
    # 0 or 2 (gene 0: 0), leaving tile 2 with no cell.
    skipping = PyramidReading("rows", focal=True, skip=True)
    skip = DowningGrower(inst, pyramid=skipping).develop(genome)
    assert skip.board == {(0, 0): (2, 5), (0, 1): (0, 0)} and skip.unplaced == [1]
    # "grow": the first free cell in row order that borders a red arc, the SE cell. Tile 1
    # fits there turned 0 or 2 (gene 0: 0) and leaves no red arc at the SW cell: stop.
    grown = DowningGrower(inst, pyramid=PyramidReading("grow")).develop(genome)
    assert grown.board == {(0, 0): (2, 5), (0, 1): (0, 0)} and grown.unplaced == [1]


def test_single_point_crossover_inversion_and_bit_mutation_by_hand():
    a = np.array([[0, 1, 2, 3, 4, 5]])
    b = np.array([[10, 11, 12, 13, 14, 15]])
    c1, c2 = single_point(a, b, np.array([2]))
    assert c1.tolist() == [[0, 1, 12, 13, 14, 15]] and c2.tolist() == [[10, 11, 2, 3, 4, 5]]
    # cut out moves[1:3] = (1, 2); the rest is 0 3 4 5; put the run before its 2nd gene
    assert move_run(np.arange(6), 1, 3, 2).tolist() == [0, 3, 1, 2, 4, 5]
    assert move_run(np.arange(6), 1, 3, 1).tolist() == [0, 1, 2, 3, 4, 5]  # the old place
    pop = np.array([[0b10101, 0b1010101, 0b10000001]])
    bits = np.array([5, 7, 8])
    flip_bits(pop, bits, 1.0, np.random.default_rng(0))  # rate 1: every bit flips
    assert pop.tolist() == [[0b01010, 0b0101010, 0b01111110]]
    flip_bits(pop, bits, 0.0, np.random.default_rng(0))
    assert pop.tolist() == [[0b01010, 0b0101010, 0b01111110]]


def test_encoding_operators_on_fixed_draws():
    inst = read_instance("instances/tantrix_discovery_10.txt")
    enc = DowningEncoding(inst, bit_mutation=0.0, inversion=1.0, bin_swap=0.0)
    genome = enc.random(np.random.default_rng(5), 1)
    # with bit mutation off, the draws are: the coin for p_inv, two cut points, the place
    draws = np.random.default_rng(9)
    draws.random()  # the coin for p_inv
    i, j = sorted(int(x) for x in draws.choice(10, 2, replace=False))
    pos = int(draws.integers(0, 9 - (j - i) + 1))
    got = enc.mutate(genome.copy(), np.random.default_rng(9))
    assert got[0, :9].tolist() == move_run(genome[0, :9], i, j, pos).tolist()
    assert (got[0, 9:] == genome[0, 9:]).all()  # inversion moves shape genes only
    # priority swaps: only priority genes change, within one arc-kind bin of red
    swapper = DowningEncoding(inst, bit_mutation=0.0, inversion=0.0, bin_swap=1.0, swaps=1)
    after = swapper.mutate(genome.copy(), np.random.default_rng(3))
    changed = np.flatnonzero(after[0] != genome[0])
    assert len(changed) in (0, 2) and all((g - 9) % 2 == 0 for g in changed)
    if len(changed):
        tiles = [(g - 9) // 2 for g in changed]
        assert any(set(tiles) <= set(b) for b in swapper.bins)
        assert sorted(after[0, changed]) == sorted(genome[0, changed])


def test_bins_are_the_focal_arc_kinds():
    # red arcs of tiles 1..5: 1 bend (3-5), 2 corner (3-4), 3 corner (2-3), 4 bend (0-4),
    # 5 straight (2-5): bins bend {1, 4}, corner {2, 3}; the straight bin has one tile
    enc = DowningEncoding(parse("tiles 1-5\ngoal loop red\n"))
    assert sorted(map(sorted, enc.bins)) == [[0, 3], [1, 2]]


def test_sigma_scaled_selection_from_the_better_half():
    # the worst half is removed; the kept fitnesses 6, 8 have mean 7 and sd 1, so their
    # expected offspring are 1 + (f - 7) / 2 = 0.5 and 1.5: picked 1 : 3
    fit = np.array([1.0, 8.0, 2.0, 6.0])
    cfg = ga.PAPER.config
    picks = engine.select(fit, 4000, cfg, np.random.default_rng(0))
    counts = np.bincount(picks, minlength=4)
    assert counts[0] == counts[2] == 0
    assert 2850 < counts[1] < 3150 and 850 < counts[3] < 1150


def test_paper_is_the_default_and_solves_discovery_6_within_its_budget():
    inst = read_instance("instances/tantrix_discovery_06.txt")
    out = ga.solve(inst, SolveOptions(seed=0))
    assert out.status == Status.SOLVED and verify(inst, out.solution).ok
    assert out.stats["preset"] == "paper" and out.stats["runs"] == 1
    assert (out.stats["population"], out.stats["generation_limit"]) == (100, 100)
    assert out.stats["generations"] <= 100


def test_tuned_preset_and_paper_only_options():
    inst = read_instance("instances/tantrix_discovery_06.txt")
    out = ga.solve(inst, SolveOptions(seed=0, params={"preset": "tuned"}))
    assert out.stats["preset"] == "tuned" and out.status == Status.SOLVED
    from tilesolve.core.errors import InputError

    with pytest.raises(InputError, match="--holes"):
        ga.solve(inst, SolveOptions(params={"preset": "tuned", "holes": "cells"}))
    with pytest.raises(InputError, match="--preset"):
        ga.solve(inst, SolveOptions(params={"preset": "best"}))
    assert all(ga.TUNED.differences) and not ga.PAPER.differences


def test_open_colour_is_fixed_by_the_arc_count():
    # the white tiles carry yellow, blue and green; yellow and green have an odd number of
    # 60-degree arcs, so only blue can close a loop through all of them (Downing: "(blue)")
    from tilesolve.families.tantrix.downing_growth import focal_colours

    inst = read_instance("instances/tantrix_rainbow_white.txt")
    assert focal_colours(inst) == (2,)  # blue


def _downing_script():
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "lab" / "scripts" / "reproduce_downing.py"
    spec = importlib.util.spec_from_file_location("reproduce_downing", path)
    script = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = script  # its dataclasses look their module up there
    spec.loader.exec_module(script)
    return script


def test_reproduction_compares_rates_by_fisher_and_runs_paper_rows_first():
    script = _downing_script()
    # 0/2 against 2/2: splits 0-2, 1-1, 2-0 of the two successes have chances 1/6, 4/6, 1/6
    assert script.fisher_p(0, 2, 2, 2) == pytest.approx(1 / 3)
    assert script.fisher_p(19, 20, 20, 20) == pytest.approx(1.0)
    blue = next(r for r in script.ROWS if r.puzzle == "Blue 10-pyramid")
    assert script.verdict(blue, [{"solved": True}] * 5 + [{"solved": False}] * 15) \
        .startswith("below")
    runs = script.runs_for(script.ROWS, 2, tuned_runs=1)
    columns = [r.column for r in runs]
    assert columns.index("cpsat") > max(i for i, c in enumerate(columns) if c == "paper")
    assert columns.index("tuned") > max(i for i, c in enumerate(columns) if c == "search")
    paper = [r for r in runs if r.column == "paper"]
    assert paper[0].row == "10-tile 100/100" and paper[-1].row == "30-tile 500/300"
