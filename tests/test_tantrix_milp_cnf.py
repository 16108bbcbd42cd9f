"""The MILP and SAT backends of Tantrix: Kino & Uno challenge boards, free-shape Discovery
puzzles, the short-loop and small-hole rows stated in advance, and the lazy cuts."""

import itertools
import json

import pytest
from conftest import INSTANCES, run_cli

from tilesolve.families.tantrix import lazy
from tilesolve.families.tantrix.check import colour_lines
from tilesolve.families.tantrix.milp import TantrixMilp, cuts
from tilesolve.families.tantrix.parse import read_instance
from tilesolve.families.tantrix.region import fixed_layout, free_layout


def solve(backend: str, path: str, *extra: str) -> tuple[int, dict | None, str]:
    proc = run_cli("solve", "--backend", backend, path, "--json", "--threads", "1",
                   "--time-limit", "120", *extra)
    data = json.loads(proc.stdout) if proc.stdout.strip() else None
    return proc.returncode, data, proc.stderr


def solved(code: int, data: dict | None, err: str, tiles: int) -> dict:
    assert code == 0, err
    assert data["status"] == "solved" and data["verified"] is True
    assert len(data["solution"]["placements"]) == tiles
    return data["stats"]


@pytest.mark.parametrize("n", [10, 20, 40])
def test_sat_solves_challenge(n):
    stats = solved(*solve("sat", f"instances/tantrix_challenge_{n}.txt"), n)
    assert stats["rounds"] >= 1


@pytest.mark.parametrize("n", [10, pytest.param(30, marks=pytest.mark.slow)])
def test_milp_solves_challenge(n):
    stats = solved(*solve("milp", f"instances/tantrix_challenge_{n}.txt"), n)
    assert stats["rounds"] >= 1 and stats["solver"] == "highs"  # the default on boards


def test_milp_cbc_on_a_board():
    stats = solved(*solve("milp", "instances/tantrix_challenge_20.txt", "--solver", "cbc"), 20)
    assert stats["rounds"] >= 1 and stats["solver"] == "cbc"


@pytest.mark.parametrize("backend", ["milp", "sat"])
@pytest.mark.parametrize("k", [3, 6])
def test_free_shape_discovery(backend, k):
    stats = solved(*solve(backend, f"instances/tantrix_discovery_{k:02d}.txt"), k)
    assert stats["radii"] and stats["rounds"] >= 1


def test_highs_solves_free_shape():
    solved(*solve("milp", "instances/tantrix_discovery_05.txt", "--solver", "highs"), 5)


@pytest.mark.parametrize("backend", ["milp", "sat"])
def test_lines_are_refused(backend):
    code, _data, err = solve(backend, "instances/tantrix_rainbow_blue.txt")
    assert code == 2
    assert "goal loops of a named colour only" in err and "Traceback" not in err


def test_short_cycles_and_hole_shapes():
    inst = read_instance(INSTANCES / "tantrix_discovery_10.txt")
    lay = free_layout(inst, 2)  # a hexagon of 19 cells
    table = lazy.Table(lay)
    sizes = sorted({len(c) for c in table.short_cycles()})
    assert sizes == [3, 4, 5]
    # 24 triangles in a hexagon of side 3 (6 per ring segment around the centre ...)
    assert sum(len(c) == 3 for c in table.short_cycles()) == len(lay.triangles)
    shapes = lazy.hole_shapes(lay, 1)
    # a single empty cell is a hole only where all its six neighbours lie in the region
    assert {next(iter(h)) for h in shapes} == {c for c in lay.cells
                                               if all(lay.inside(nb) for nb in lazy.rim({c}))}


def test_cuts_exclude_a_short_subloop(tmp_path):
    """Three copies of tile 3 closing a red loop around a vertex, where four tiles carry red:
    the separation finds the subloop and its cut is violated by that board; the same loop is
    already excluded by a short-cycle row."""
    board = lazy.rim({(0, 0), (1, 0), (0, 1)}) | {(0, 0), (1, 0), (0, 1)}
    path = tmp_path / "four.txt"
    path.write_text("tantrix\ntiles 3 3 3 3\ngoal loop red\nshape board\n"
                    + "".join(f"cell {q} {r}\n" for q, r in sorted(board)))
    inst = read_instance(path)
    milp = TantrixMilp(fixed_layout(inst))
    tri = [(0, 0), (1, 0), (0, 1)]
    boards = ({c: (3, r) for c, r in zip(tri, rots, strict=True)}
              for rots in itertools.product(range(6), repeat=3))
    sol = next(b for b in boards if colour_lines(b, "red").closed == [True])
    found = lazy.violations(milp.table, sol)
    assert [(k, n) for k, _cells, _own, n in found.subloops] == [("red", 3)]
    rows = cuts(milp, sol)
    assert rows and all("subloop" in name for _row, name in rows)
    for var in milp.x.values():
        var.varValue = 0
    for c, (t, rot) in sol.items():
        milp.x[c, t, rot].varValue = 1
    assert not rows[0][0].valid()
    short = [c for c in milp.prob.constraints() if c.name.startswith("short_red")]
    assert any(not c.valid() for c in short)
