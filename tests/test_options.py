"""On/off options mean the same everywhere, and an imposed board is never contradicted by a
symmetry pin: each exact edge-matching backend accepts a solution in all four orientations."""

from __future__ import annotations

import pytest
from conftest import INSTANCES

from tesserae.core.errors import InputError
from tesserae.core.options import parse_switch, switch
from tesserae.core.result import SolveOptions, Status
from tesserae.families.edgematch import cpsat as em_cpsat
from tesserae.families.edgematch.model import FAMILY, read_instance, verify


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
