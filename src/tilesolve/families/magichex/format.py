"""Writing magic hexagon instances and solutions: rows indented so the hexagon shows its shape,
and the rows as JSON."""

from __future__ import annotations

from ...core.result import Solution
from .instance import MagicHexInstance


def format_instance(inst: MagicHexInstance, comment: str = "") -> str:
    lines = [f"# {c}" for c in comment.splitlines()] if comment else []
    head = f"magichex {inst.order}" + (f" first {inst.first}" if inst.first != 1 else "")
    lines.append(head)
    if inst.givens:
        lines.append(format_solution(inst, inst.givens).rstrip("\n"))
    return "\n".join(lines) + "\n"


def format_solution(inst: MagicHexInstance, sol: Solution) -> str:
    """Rows indented so the hexagon shows its shape; `.` marks an empty cell."""
    width = max(len(str(inst.first)), len(str(inst.last)))
    out = []
    for row in inst.rows:
        toks = [str(sol[c]).rjust(width) if c in sol else ".".rjust(width) for c in row]
        pad = " " * ((2 * inst.order - 1 - len(row)) * (width + 1) // 2)
        out.append(pad + " ".join(toks))
    return "\n".join(out) + "\n"


def solution_json(inst: MagicHexInstance, sol: Solution) -> dict:
    """{"rows": the number per cell, null for an empty cell}."""
    return {"rows": [[sol.get(c) for c in row] for row in inst.rows]}
