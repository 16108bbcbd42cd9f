"""Puzzles with no solution for a reason a count shows: infeasible (exit 3) with the reason,
before any solver; each case is confirmed by an exact solver that does not use the precheck."""

from __future__ import annotations

import json

import pytest
from conftest import INSTANCES

from tilesolve.core.family import load_instance
from tilesolve.core.result import SolveOptions, Status
from tilesolve.core.solve import run_backend

E2_4 = (INSTANCES / "e2_4x4.txt").read_text()

CASES = {
    # name: (file text, words of the reason, backend that proves it without the precheck)
    "tantrix_colour_nobody_carries": (
        "tantrix\ntiles 1-3\ngoal loop green\nshape free\n", "no tile carries green", None),
    "tantrix_short_loop": (
        "tantrix\ntiles 1 2 41\ngoal loop green\nshape free\n", "a loop needs at least 3",
        None),
    "tantrix_board_too_small": (
        "tantrix\ntiles 1-3\ngoal loop red\nshape board\ncell 0 0\ncell 1 0\n",
        "3 tiles but the board has only 2 places", None),
    "hidato_isolated_cell": (
        "hidato hex 2\n  .  #\n#  #  .\n  .  .\n", "touches no other cell", "cpsat"),
    "hidato_givens_too_far": (
        "hidato hex 2\n  1  .\n.  .  .\n  .  2\n", "givens 1 and 2 lie 2 moves apart",
        "cpsat"),
    "edgematch_odd_colour": (
        E2_4.replace("4 4 3 5\n", "4 4 3 4\n", 1),
        "colour 4 shows 11 times on sides facing inwards", "cpsat"),
    "edgematch_no_corners": (
        E2_4.replace("0 1 1 0\n", "0 1 1 1\n", 1), "3 corner pieces", "sat"),
    "magichex_row_out_of_reach": (
        "magichex 3\n 1 2 3\n . . . .\n. . . . .\n . . . .\n . . .\n",
        "row 1 can only sum to 6..6", "cpsat"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_precheck_reports_infeasible_with_reason(cli, tmp_path, name):
    text, words, _ = CASES[name]
    path = tmp_path / f"{name}.txt"
    path.write_text(text)
    r = cli("solve", path, "--json")
    assert r.returncode == 3, r.stdout + r.stderr
    obj = json.loads(r.stdout)
    assert obj["status"] == "infeasible" and obj["stats"]["proved_by"] == "precheck"
    assert words in obj["stats"]["reason"]


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if c[2]))
def test_precheck_agrees_with_an_exact_solver(tmp_path, name):
    text, _, backend = CASES[name]
    path = tmp_path / f"{name}.txt"
    path.write_text(text)
    family, inst = load_instance(path)
    out = run_backend(family, inst, backend, SolveOptions(time_limit=60, threads=1))
    assert out.status == Status.INFEASIBLE


def test_shipped_instances_pass_the_precheck():
    for path in sorted(INSTANCES.glob("*.txt")):
        family, inst = load_instance(path)
        assert family.precheck(inst) is None, path.name


def test_matches_objective_skips_the_count(cli, tmp_path):
    path = tmp_path / "odd.txt"
    path.write_text(CASES["edgematch_odd_colour"][0])
    r = cli("solve", path, "--objective", "matches", "-t", "10", "--json", "--threads", "1")
    assert r.returncode == 0 and json.loads(r.stdout)["status"] in ("solved", "feasible")
