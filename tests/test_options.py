"""On/off options mean the same everywhere, and an imposed board is never contradicted by a
symmetry pin: each exact edge-matching backend accepts a solution in all four orientations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import INSTANCES, run_cli

from tilesolve.core.errors import InputError
from tilesolve.core.options import parse_switch, switch
from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.edgematch import cpsat as em_cpsat
from tilesolve.families.edgematch.model import FAMILY, read_instance, verify


@pytest.mark.parametrize("text,value", [("on", True), ("TRUE", True), ("yes", True), ("1", True),
                                        ("off", False), ("False", False), ("no", False),
                                        ("0", False), (True, True), (False, False)])
def test_switch_values(text, value):
    assert parse_switch(text) is value
    assert switch({"x": text}, "x", not value) is value


def test_switch_default_and_bad_value():
    assert switch({}, "no_symmetry", False) is False
    with pytest.raises(InputError, match=r"--no-symmetry must be on or off, got 'maybe'"):
        switch({"no_symmetry": "maybe"}, "no_symmetry", False)


def constraints(model) -> int:
    return len(model.model.Proto().constraints)


def test_no_symmetry_false_keeps_symmetry_breaking():
    inst = read_instance(INSTANCES / "e2_5x5.txt")
    sizes = {v: constraints(em_cpsat.build(inst, SolveOptions(params=p)))
             for v, p in (("default", {}), ("false", {"no_symmetry": "false"}),
                          ("true", {"no_symmetry": "true"}))}
    assert sizes["false"] == sizes["default"] > sizes["true"]


def turned(sol: dict, n: int) -> dict:
    """The board turned a quarter clockwise: cell (r, c) goes to (c, n-1-r), each piece turns."""
    return {(c, n - 1 - r): (p, (rot + 1) % 4) for (r, c), (p, rot) in sol.items()}


@pytest.mark.parametrize("backend", ["cpsat", "milp", "sat"])
def test_an_imposed_board_is_accepted_in_every_orientation(backend):
    inst = read_instance(INSTANCES / "e2_4x4.txt")
    mod = FAMILY.backend_module(backend)
    first = mod.solve(inst, SolveOptions(time_limit=60, threads=1))
    assert first.status == Status.SOLVED
    board = first.solution
    for quarter in range(4):
        assert verify(inst, board).ok, quarter
        # all but one cell imposed: the backend must complete it, pin or no pin
        part = dict(list(board.items())[1:])
        out = mod.solve(inst, SolveOptions(time_limit=60, threads=1, fix=part))
        assert out.status == Status.SOLVED, (backend, quarter)
        assert out.solution == board
        board = turned(board, inst.width)


@pytest.mark.parametrize("backend", ["milp", "sat", "cpsat"])
def test_a_limit_shorter_than_model_building_ends_the_build(backend):
    # the 16x16 models take 3-5 CPU s to build; the limit covers building
    proc = run_cli("solve", INSTANCES / "e2_16x16.txt", "-b", backend, "-t", "0.5", "--json")
    out = json.loads(proc.stdout)
    assert proc.returncode == 4 and out["status"] == "timeout"
    assert out["stats"]["stopped"].startswith("the time limit ran out")


def cbc_children() -> list[str]:
    return [p.parent.name for p in Path("/proc").glob("[0-9]*/comm")
            if p.exists() and p.read_text().strip() == "cbc"]


def test_cbc_is_stopped_at_the_limit_and_leaves_no_files(tmp_path):
    # CBC's root LP of the 16x16 runs far past its own time limit; the runner ends it
    env_tmp = tmp_path / "tmp"
    env_tmp.mkdir()
    before = set(cbc_children())
    proc = run_cli("solve", INSTANCES / "e2_16x16.txt", "-b", "milp", "-t", "6", "--json",
                   env={"TMPDIR": str(env_tmp)})
    out = json.loads(proc.stdout)
    assert out["status"] == "timeout"
    assert set(cbc_children()) <= before
    assert list(env_tmp.iterdir()) == []


def test_options_can_be_reused_their_clock_starts_with_each_solve():
    from tilesolve.core.solve import solve_file

    opts = SolveOptions(time_limit=30, threads=1)
    assert opts.remaining() == 30  # no clock yet: the whole limit
    for _ in range(2):
        res = solve_file(INSTANCES / "e2_4x4.txt", "cpsat", opts)
        assert res.status == Status.SOLVED and res.verified
    assert opts.started is None  # solve_file timed a private copy
    opts.start_clock()
    assert 29 < opts.remaining() <= 30
