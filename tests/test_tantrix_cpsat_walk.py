"""The CP-SAT walk model of free-shape Tantrix with line goals: counts against the other
exact models, hints from a solved cluster, refusals."""

from __future__ import annotations

import json

import pytest
from conftest import INSTANCES, run_cli

from tilesolve.core.errors import InputError
from tilesolve.core.result import SolveOptions, Status
from tilesolve.dispatch import solve_file
from tilesolve.families.tantrix import cpsat, cpsat_walk, search
from tilesolve.families.tantrix.check import verify
from tilesolve.families.tantrix.parse import read_instance


@pytest.mark.parametrize("text,expected", [
    # the same numbers as the cell model and the search backend's line walk
    ("tiles 1-5\ngoal line yellow", 56),
    ("tiles 1-3 48\ngoal line blue", 120),
    ("tiles 8 11 27 33\ngoal line green\ngoal line yellow", 77),  # 27 is an extra step
    ("tiles 4-8\ngoal line blue\ngoal loop red", 0),
])
def test_walk_model_counts(tmp_path, text, expected):
    path = tmp_path / "p.txt"
    path.write_text(f"tantrix\n{text}\nshape free\n")
    res = solve_file(path, "cpsat", SolveOptions(count=True, threads=1, time_limit=120))
    assert res.stats["model"] == "walk" and res.stats["complete"] is True
    assert res.count == expected


def test_two_loops_on_the_walk_model():
    res = solve_file(INSTANCES / "tantrix_super_professor.txt", "cpsat",
                     SolveOptions(threads=1, time_limit=60, params={"model": "walk"}))
    assert res.status == Status.SOLVED and res.verified and res.stats["model"] == "walk"


def test_genius_hinted_walk():
    # a solved cluster, turned and shifted, hints the walk; CP-SAT then confirms it at once
    inst = read_instance(INSTANCES / "tantrix_super_genius.txt")
    found = search.solve(inst, SolveOptions(threads=1, time_limit=120))
    assert found.status == Status.SOLVED
    shifted = {(q + 3, r - 2): p for (q, r), p in found.solution.items()}
    walk = cpsat_walk.TantrixWalkCpsat(inst)
    assert walk._walk_of(shifted) is not None
    out = cpsat.solve(inst, SolveOptions(threads=1, time_limit=60, hint=shifted))
    assert out.status == Status.SOLVED and verify(inst, out.solution).ok
    assert out.stats["model"] == "walk"


def test_walk_model_takes_no_fixed_placements():
    inst = read_instance(INSTANCES / "tantrix_super_genius.txt")
    with pytest.raises(InputError, match="cell model"):
        cpsat.solve(inst, SolveOptions(threads=1, time_limit=5, fix={(0, 0): (1, 0)}))


@pytest.mark.parametrize("instance,value,message", [
    ("tantrix_super_genius.txt", "grid", "--model must be auto, cells or walk"),
    ("tantrix_challenge_10.txt", "walk", "--model walk needs a free shape"),
])
def test_bad_model_option(instance, value, message):
    proc = run_cli("solve", INSTANCES / instance, "--backend", "cpsat", "--model", value)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr


def test_radius_option_of_the_cell_model():
    ok = run_cli("solve", INSTANCES / "tantrix_super_junior.txt", "--backend", "cpsat",
                 "--radius", "3", "--json", "--threads", "1")
    assert ok.returncode == 0 and json.loads(ok.stdout)["stats"]["radii"] == [3]
    bad = run_cli("solve", INSTANCES / "tantrix_super_junior.txt", "--backend", "cpsat",
                  "--radius", "x")
    assert bad.returncode == 2 and "--radius expects a whole number" in bad.stderr
