"""Niang's deadlock tagging and repairs (thesis 4.8, 4.9; `--repair thesis`): the symptoms and
moves on hand-broken copies of a solved 4x4, the threshold and tagging schedule step by step,
and the paper preset with repair solving the 4x4."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import INSTANCES, run_cli

from tilesolve.core.family import load_instance
from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.edgematch import ga
from tilesolve.families.edgematch import niang_repair as nr
from tilesolve.families.edgematch.check import verify

NIANG_4X4 = INSTANCES / "e2_niang_4x4_p5.txt"
# a solution of the 4x4 (piece, quarter turns) row by row, as the search backend prints it
SOLVED = [(4, 0), (13, 0), (8, 3), (15, 1), (3, 0), (11, 3), (14, 0), (12, 1),
          (6, 3), (1, 1), (5, 1), (9, 0), (16, 1), (7, 2), (2, 2), (10, 3)]
FRAME = [0, 1, 2, 3, 4, 7, 8, 11, 12, 13, 14, 15]
INNER = [5, 6, 9, 10]


def _genes(cells):
    """Piece and turn genes of these cells."""
    return np.array(cells + [16 + c for c in cells])


def _board():
    _, inst = load_instance(NIANG_4X4)
    b = ga.NiangEncoding(inst)
    g = np.array([p - 1 for p, _ in SOLVED] + [r for _, r in SOLVED], dtype=np.int64)
    assert b.matches(g[None])[0] == 24  # all 24 joins: a solution
    return b, g


def test_a_solved_board_has_no_symptom():
    b, g = _board()
    h = g.copy()
    assert nr.repair_board(b, h, np.random.default_rng(0)) == []
    assert (h == g).all()


def test_unmatched_frame_joins_reshuffle_the_border_tiles_within_their_classes():
    """Swapping the border pieces of cells 1 and 2 breaks the frame joins 0-1, 1-2 and 2-3
    (frame cells on them: 0, 1, 2, 3): the border symptom. Every frame piece is shuffled
    within its class (corners among the corner cells 0, 3, 12, 15, border pieces among the
    other frame cells) and turned grey side out. The broken joins also spoil the areas with
    top-left cells (0, 0), (0, 1), (0, 2), whose inner cells 5 and 6 are reshuffled; the inner
    cells 9 and 10 stay."""
    b, g = _board()
    h = g.copy()
    h[[1, 2]] = h[[2, 1]]
    h = b.normalise(h[None])[0]
    assert nr.frame_cells_on_bad_joins(b, h).tolist() == [0, 1, 2, 3]
    assert nr.bad_area_corners(b, h).tolist() == [[0, 0], [0, 1], [0, 2]]
    before = h.copy()
    assert nr.repair_board(b, h, np.random.default_rng(2)) == ["border", "areas"]
    assert (h[_genes([9, 10])] == before[_genes([9, 10])]).all()
    assert sorted(h[[5, 6]]) == sorted(before[[5, 6]])
    corners = [0, 3, 12, 15]
    sides = [c for c in FRAME if c not in corners]
    assert sorted(h[corners]) == sorted(before[corners])
    assert sorted(h[sides]) == sorted(before[sides])
    assert h[FRAME].tolist() != before[FRAME].tolist()
    assert verify(b.inst, b.decode(h), "matches").ok  # grey still faces the frame


def test_a_mis_turned_inner_piece_rearranges_the_areas_around_it():
    """Cell 5 turned half a turn shows 2 4 4 1 instead of 4 1 2 4: its four joins fail, the
    frame joins hold, so the areas symptom applies (all four areas touch cell 5)."""
    b, g = _board()
    h = g.copy()
    h[16 + 5] = (h[16 + 5] + 2) % 4
    assert nr.frame_cells_on_bad_joins(b, h).tolist() == []
    assert nr.bad_area_corners(b, h).tolist() == [[0, 0], [0, 1], [1, 0], [1, 1]]
    assert nr.repair_board(b, h, np.random.default_rng(1)) == ["areas"]
    assert (h[_genes(FRAME)] == g[_genes(FRAME)]).all()


def test_bad_2x2_areas_are_reshuffled_and_turned_inside():
    """Swapping the pieces of inner cells 5 and 10 (the cells keep their turns) makes cell 5
    show N E S W = 4 1 1 4 and cell 10 2 4 4 1: only the joins 5-9 (1 against 2) and 6-10
    (1 against 2) are unmatched, no piece is dead and the frame is whole. The areas with an
    unmatched join have top-left cells (1, 0), (1, 1), (1, 2); their inner cells (5, 9; 5, 6,
    9, 10; 6, 10) are shuffled and re-turned; the frame stays."""
    b, g = _board()
    h = g.copy()
    h[[5, 10]] = h[[10, 5]]
    assert b.matches(h[None])[0] == 22
    assert nr.bad_area_corners(b, h).tolist() == [[1, 0], [1, 1], [1, 2]]
    before = h.copy()
    assert nr.repair_board(b, h, np.random.default_rng(3)) == ["areas"]
    assert (h[_genes(FRAME)] == before[_genes(FRAME)]).all()
    assert sorted(h[INNER]) == sorted(before[INNER])


def test_one_area_on_the_rim_of_a_4x4_turns_its_single_inner_piece():
    """The area with top-left cell (0, 0) holds one inner cell, 5: the move can only turn it
    (the draws: a permutation of one, then the turn)."""
    b, g = _board()
    h = g.copy()
    nr.rearrange_areas(b, h, np.array([[0, 0]]), np.random.default_rng(5))
    rng = np.random.default_rng(5)
    rng.permutation(1)  # the order of the areas
    rng.permutation(1)  # the shuffle inside the area
    turn = int(rng.integers(0, 4, 1)[0])
    assert h[:16].tolist() == g[:16].tolist()
    assert [i for i in range(16) if h[16 + i] != g[16 + i]] == ([5] if turn != g[21] else [])
    assert h[21] == turn


def test_threshold_tags_first_and_repairs_the_still_stuck_next_time():
    """Threshold 3 lowered by half: at 3 generations without improvement the best boards
    (rows 0-2, three copies) are tagged and the threshold drops to 1.5; at 5 (5 - 3 >= 1.5)
    the rows still holding that genome are repaired but the first (elitism keeps one copy),
    and the best unrepaired genome is tagged again; an improvement (stall 0) restores the
    threshold."""
    b, g = _board()
    broken = g.copy()
    broken[[5, 10]] = broken[[10, 5]]
    other = broken.copy()
    other[[6, 9]] = other[[9, 6]]
    pop = np.stack([broken, broken, broken, other])
    fit = b.fitness(pop)
    assert fit[0] == fit[1] == fit[2] > fit[3]
    heur = nr.ThesisRepair(b, threshold=3, lower=0.5)
    rng = np.random.default_rng(0)
    assert [heur(pop, fit, s, rng).tolist() for s in (1, 2)] == [[], []]
    assert heur(pop, fit, 3, rng).tolist() == []  # the check: tags, repairs nothing yet
    assert heur.tagged == {broken.tobytes()} and heur.threshold == 1.5
    assert heur(pop, fit, 4, rng).tolist() == []  # 4 - 3 < 1.5
    assert heur(pop, fit, 5, rng).tolist() == [1, 2]
    assert (pop[0] == broken).all() and (pop[3] == other).all()
    assert not (pop[1] == broken).all() and not (pop[2] == broken).all()
    assert heur.tagged == {broken.tobytes()} and heur.threshold == 1.0
    assert heur.done["areas"] == 2
    heur(pop, fit, 0, rng)
    assert heur.threshold == 3.0


def test_paper_preset_with_thesis_repair_solves_the_4x4():
    """Seed 0 with the frame kept and without repair stops at 0.736 (2 joins short) for
    good; with it, it solves."""
    _, inst = load_instance(NIANG_4X4)
    out = ga.solve(inst, SolveOptions(seed=0, params={"preset": "paper", "repair": "thesis",
                                                      "generations": 2000, "layout": "frame"}))
    assert out.status == Status.SOLVED and verify(inst, out.solution).ok
    assert out.stats["repairs"] > 0 and sum(out.stats["repairs_by_symptom"].values()) > 0


@pytest.mark.parametrize("args", [
    ("--preset", "paper", "--repair", "always"),
    ("--preset", "paper", "--repair", "thesis", "--repair-threshold", "0"),
    ("--preset", "paper", "--repair", "thesis", "--repair-lower", "2"),
    ("--preset", "paper", "--deadlock", "100"),  # the scramble is a part of --repair thesis
    ("--preset", "paper", "--repair", "thesis", "--deadlock", "-1"),
    ("--preset", "tuned", "--repair", "thesis"), ("--repair", "thesis"),  # tuned: the default
])
def test_bad_repair_options_are_one_line_errors(args):
    r = run_cli("solve", "--backend", "ga", NIANG_4X4, *args)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_a_deadlocked_population_is_scrambled_whole_keeping_the_top_left_piece():
    """`deadlock=N`: N generations without a better best scramble every board (4.5.8: the
    top-left piece stays, the rest shuffled within their classes); a better best resets the
    count."""
    b, g = _board()
    heur = nr.ThesisRepair(b, threshold=1000, deadlock=5)
    rng = np.random.default_rng(0)
    pop = np.stack([g.copy() for _ in range(6)])
    fit = b.fitness(pop)
    assert len(heur(pop, fit, 4, rng)) == 0 and (pop == g).all()
    assert heur(pop, fit, 5, rng).tolist() == [0, 1, 2, 3, 4, 5]
    assert heur.done["deadlock"] == 6
    assert (pop[:, 0] == g[0]).all() and (pop[:, 16] == g[16]).all()  # the corner piece stays
    assert all((row != g).any() for row in pop)
    for row in pop:  # pieces stay in their class: still a permutation, corners on corners
        assert sorted(row[:16].tolist()) == list(range(16))
        assert set(row[[0, 3, 12, 15]].tolist()) == set(g[[0, 3, 12, 15]].tolist())
    assert len(heur(pop, fit, 9, rng)) == 0  # the next scramble 5 generations later
    assert len(heur(pop, fit, 10, rng)) == 6
    heur(pop, fit, 0, rng)  # a better best
    assert len(heur(pop, fit, 5, rng)) == 6 and heur.done["deadlock"] == 18


def test_the_deadlock_repair_frees_a_run_the_other_repairs_leave_stuck():
    """Seed 2 on the 4x4 with the frame kept stays at 0.847 through 10,000 generations with the
    areas and border repairs (lab/reproductions/niang.csv); with the deadlock repair every 100
    generations it solves after one scramble of all 200 boards (generation 223, 1.3 CPU s)."""
    _, inst = load_instance(NIANG_4X4)
    out = ga.solve(inst, SolveOptions(seed=2, params={
        "preset": "paper", "repair": "thesis", "deadlock": "100", "layout": "frame",
        "generations": "400"}))
    assert out.status == Status.SOLVED and verify(inst, out.solution).ok
    assert out.stats["generations"] == 223 and out.stats["repairs_by_symptom"]["deadlock"] == 200
