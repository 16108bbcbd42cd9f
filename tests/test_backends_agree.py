"""Every backend gives the same status on the same puzzle: the models state every rule the
checker checks (Tantrix tiles must touch as one group without holes), so no exact backend
returns a board the checker refuses while another proves there is none.

A backend may refuse a puzzle it does not handle (one line, bad input); a heuristic (GA,
search) may run out of time or budget on a solvable one. Nothing else differs: one backend's
`solved` is every deciding backend's `solved`, one's `infeasible` every one's.
"""

from __future__ import annotations

import pytest
from fuzzing import answers, one_status, write


def _board(tiles: str, cells: list[tuple[int, int]], goal: str | None = None) -> str:
    lines = ["tantrix", f"tiles {tiles}", *([f"goal {goal}"] if goal else []), "shape board"]
    return "\n".join(lines + [f"cell {q} {r}" for q, r in cells]) + "\n"


RING = [(0, 0), (1, 0), (1, 1), (0, 2), (-1, 2), (-1, 1)]  # six cells around (0, 1)
LINE = [(q, 0) for q in range(6)]
# (name, text, the one status every deciding backend must give)
PUZZLES = [
    # two tiles on two cells that do not touch: CP-SAT and the portfolio answered with a
    # board the checker refused, the GA raised ValueError, MILP and SAT said infeasible
    ("separate-cells", _board("1 2", [(0, 0), (5, 5)]), "infeasible"),
    ("three-pairs", _board("1-3", [(0, 0), (1, 0), (5, 5), (6, 5), (0, 9), (1, 9)]),
     "infeasible"),
    ("full-ring", _board("1-6", RING), "infeasible"),  # filled, it encloses (0, 1)
    ("ring-and-apart", _board("1-3", [*RING[:3], (7, 7)], "loop red"), "infeasible"),
    ("line-and-apart", _board("1-4", [*LINE[:5], (9, 9), (9, 10)]), "solved"),
    ("long-line", _board("1-3", LINE), "solved"),
    ("discovery-3", "tantrix\ntiles 1-3\ngoal loop yellow\nshape free\n", "solved"),
]
COUNTED = {"separate-cells", "three-pairs", "full-ring"}  # infeasible by the board's cells


@pytest.mark.parametrize("name,text,status", PUZZLES, ids=[p[0] for p in PUZZLES])
def test_every_backend_gives_one_status(name, text, status):
    path = write(text)
    try:
        found = answers(path)
    finally:
        path.unlink()
    assert one_status(found) == status, found
    if name in COUNTED:  # proved by a count before any solver: every backend says so
        assert set(found.values()) == {"infeasible"}, found


def test_the_portfolio_agrees_on_separate_cells():
    path = write(PUZZLES[0][1])
    try:
        found = answers(path, ["portfolio"])
    finally:
        path.unlink()
    assert found == {"portfolio": "infeasible"}
