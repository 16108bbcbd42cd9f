"""Writing Hidato instances and solutions: rows aligned so a hexagon looks like one, and the
rows as JSON."""

from __future__ import annotations

from ...core.result import Solution
from .instance import HidatoInstance
from .parse import EMPTY, HOLE, header_line


def _row_tokens(inst: HidatoInstance, value_of) -> list[list[str]]:
    return [
        [HOLE if c in inst.holes else value_of(c) for c in row] for row in inst.rows
    ]


def _aligned(inst: HidatoInstance, rows: list[list[str]]) -> str:
    """Rows padded so a hexagon looks like one (each row shifted by half a cell per step)."""
    width = max(2, len(str(inst.n)))
    if inst.shape == "hex" and width % 2 == 0:
        width += 1  # an even cell pitch: rows shift by exactly half a cell
    longest = max(len(r) for r in rows)
    lines = []
    for row in rows:
        pad = (longest - len(row)) * (width + 1) // 2 if inst.shape == "hex" else 0
        lines.append((" " * pad + " ".join(t.rjust(width) for t in row)).rstrip())
    return "\n".join(lines) + "\n"


def format_instance(inst: HidatoInstance, comment: str = "") -> str:
    lines = [f"# {c}" for c in comment.splitlines()] if comment else []
    lines.append(header_line(inst))
    body = _aligned(inst, _row_tokens(inst, lambda c: str(inst.givens.get(c, EMPTY))))
    return "\n".join(lines) + "\n" + body


def format_solution(inst: HidatoInstance, sol: Solution) -> str:
    """The filled rows, aligned like the instance file."""
    return _aligned(inst, _row_tokens(inst, lambda c: str(sol.get(c, EMPTY))))


def solution_json(inst: HidatoInstance, sol: Solution) -> dict:
    """{"rows": the number per slot, null for holes and empty cells}."""
    return {"rows": [[None if c in inst.holes else sol.get(c) for c in row] for row in inst.rows]}
