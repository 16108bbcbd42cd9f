"""Downing's score for the 56-tile Loop and Curve puzzles (--objective longest): the checker on
hand-built placements, its rejections, every backend's scored board, the saved best boards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import INSTANCES, ROOT, run_cli

from tilesolve.core import hexgrid as hx
from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.tantrix import catalogue as cat
from tilesolve.families.tantrix import cpsat, ga, region, search
from tilesolve.families.tantrix.check import outline_loss, shape_bound, verify
from tilesolve.families.tantrix.family import FAMILY
from tilesolve.families.tantrix.instance import Goal, TantrixInstance
from tilesolve.families.tantrix.parse import read_instance

TILES_JSON = ROOT.parent / "shared" / "data" / "tantrix_tiles.json"
LOOP56 = INSTANCES / "tantrix_loop56.txt"
CURVE56 = INSTANCES / "tantrix_curve56.txt"

# Tiles 1-3 around one corner, worked out by hand from the catalogue: tile 3 unturned at the
# origin (NE, E yellow; SE, SW red; W, NW blue), tile 2 turned twice at its NE neighbour, tile 1
# turned four times at its E neighbour. Yellow: the three corner arcs make a loop of 3 tiles.
# Red and blue: every arc of each runs off the cluster at both ends, six lines of one tile.
TRIO = {(0, 0): (3, 0), (1, -1): (2, 2), (1, 0): (1, 4)}


def trio(*goals: tuple[str, str]) -> TantrixInstance:
    return TantrixInstance([1, 2, 3], [Goal(k, c) for k, c in goals])


def test_score_of_a_hand_built_placement():
    rep = verify(trio(("loop", "yellow"), ("line", "red"), ("line", "blue")), TRIO, "longest")
    assert rep.ok
    assert (rep.score, rep.max_score) == (3 + 1 + 1, 9)
    # a loop goal counts closed pieces only, a line goal open ones only
    assert verify(trio(("line", "yellow"), ("loop", "red")), TRIO, "longest").score == 0
    # without tile 1 the yellow loop opens into a line through tiles 3 and 2
    pair = TantrixInstance([2, 3], [Goal("line", "yellow")])
    two = {c: v for c, v in TRIO.items() if v[0] != 1}
    assert verify(pair, two, "longest").score == 2
    assert verify(TantrixInstance([2, 3], [Goal("loop", "yellow")]), two, "longest").score == 0


def test_a_shapes_bound_counts_the_arcs_its_outline_cuts():
    # each of the three cells has four open edges: two of its arcs run off the cluster, one
    # is kept, and the yellow loop of three reaches the bound
    assert outline_loss(TRIO) == 6
    inst = trio(("loop", "yellow"))
    assert shape_bound(inst, TRIO) == 3 == verify(inst, TRIO, "longest").score
    # a line may end on the outline: two more tiles per line goal (red, blue: 1 + 2 each)
    three = trio(("loop", "yellow"), ("line", "red"), ("line", "blue"))
    assert shape_bound(three, TRIO) == 3 + 2 + 2 > verify(three, TRIO, "longest").score == 5
    # never above every arc of the goal colours
    assert shape_bound(trio(("line", "red")), TRIO) == 3


@pytest.mark.parametrize("puzzle, compact", [("loop56", 137), ("curve56", 145)])
def test_the_best_boards_lie_under_their_shapes_bound(puzzle, compact):
    inst = read_instance(INSTANCES / f"tantrix_{puzzle}.txt")
    board = FAMILY.read_solution(inst, ROOT / "lab" / "results" / f"tantrix_{puzzle}_best.json")
    assert verify(inst, board, "longest").score <= shape_bound(inst, board) < 168
    # the compact board the fixed-shape backends fill loses 31 arcs at its outline
    cells = region.compact_cells(56)
    assert (outline_loss(cells), shape_bound(inst, cells)) == (31, compact)


def test_the_objective_scores_goals_instead_of_requiring_them():
    inst = trio(("line", "red"))
    assert not verify(inst, TRIO).ok  # as a puzzle: red is three pieces, no single line
    assert verify(inst, TRIO, "longest").ok


@pytest.mark.parametrize("broken, kind", [
    ({**TRIO, (1, 0): (1, 3)}, "mismatch"),
    ({c: v for c, v in TRIO.items() if v[0] != 1}, "missing-tile"),
    ({**{c: v for c, v in TRIO.items() if c != (1, 0)}, (4, 4): (1, 4)}, "disconnected"),
])
def test_invalid_placements_are_rejected_with_the_objective(broken, kind):
    rep = verify(trio(("loop", "yellow")), broken, "longest")
    assert not rep.ok and kind in rep.kinds()


def test_a_hole_is_rejected_with_the_objective():
    ring = list(hx.neighbours((0, 0)))  # six tiles around an empty cell
    inst = TantrixInstance(list(range(1, 7)), [Goal("loop", "red")])
    rep = verify(inst, {c: (t, 0) for c, t in zip(ring, inst.tiles, strict=True)}, "longest")
    assert "hole" in rep.kinds()


def test_the_puzzles_use_the_whole_set():
    for path, kind in ((LOOP56, "loop"), (CURVE56, "line")):
        inst = read_instance(path)
        assert sorted(inst.tiles) == list(range(1, 57))
        assert [(g.kind, g.colour) for g in inst.goals] == [(kind, c) for c in cat.COLOURS]
        assert verify(inst, {}, "longest").max_score == 168  # 42 arcs of each colour


@pytest.mark.skipif(not TILES_JSON.exists(), reason="shared tile data not present")
def test_the_catalogue_is_the_shared_tile_set():
    tiles = json.loads(TILES_JSON.read_text())["tiles"]
    assert {t["number"]: tuple(t["edges"]) for t in tiles} == \
        {n: cat.edges(n) for n in cat.TILES}


def _scored(out, inst) -> int:
    assert out.status == Status.FEASIBLE
    rep = verify(inst, out.solution, "longest")
    assert rep.ok, rep.violations[:3]
    assert rep.score >= out.objective > 0  # the checker never scores below the solver's claim
    return rep.score


def test_search_scores_the_loop_puzzle():
    inst = read_instance(LOOP56)
    out = search.solve(inst, SolveOptions(objective="longest", seed=3, params={"steps": 30}))
    _scored(out, inst)
    assert out.stats["steps"] == 30


def test_ga_paper_preset_scores_the_curve_puzzle():
    inst = read_instance(CURVE56)
    out = ga.solve(inst, SolveOptions(objective="longest", seed=1,
                                      params={"population": 20, "generations": 3}))
    _scored(out, inst)
    assert out.stats["preset"] == "paper"


def test_cpsat_maximises_on_a_small_board(tmp_path):
    path = tmp_path / "three_loops.txt"
    path.write_text("tantrix\ntiles 1-10\ngoal loop red\ngoal loop yellow\ngoal loop blue\n"
                    "shape free\n")
    inst = read_instance(path)
    out = cpsat.solve(inst, SolveOptions(objective="longest", time_limit=8, threads=1))
    assert _scored(out, inst) >= 3  # at least the 3-tile loop any such board holds


def test_cli_reports_feasible_with_the_checkers_score(tmp_path):
    board = tmp_path / "best.txt"
    proc = run_cli("solve", CURVE56, "-b", "search", "--objective", "longest", "--json",
                   "--steps", "20", "-o", board)
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert res["status"] == "feasible" and res["verified"] and res["objective"] > 0
    check = run_cli("verify", CURVE56, board, "--objective", "longest", "--json")
    assert check.returncode == 0
    assert json.loads(check.stdout)["score"] == res["objective"]


def test_objectives_belong_to_their_family():
    proc = run_cli("verify", LOOP56, INSTANCES / "e2_4x4.txt", "--objective", "matches")
    assert proc.returncode == 2 and "expected longest" in proc.stderr


@pytest.mark.parametrize("puzzle", ["loop56", "curve56"])
def test_saved_best_boards_reproduce_their_score(puzzle):
    saved = ROOT / "lab" / "results" / f"tantrix_{puzzle}_best.json"
    res = json.loads(saved.read_text())
    proc = run_cli("verify", INSTANCES / f"tantrix_{puzzle}.txt", saved, "--objective",
                   "longest", "--json")
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["score"] == res["objective"]
    assert Path(res["instance"]).name == f"tantrix_{puzzle}.txt"
