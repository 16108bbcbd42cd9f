"""Writing: the instance and solution files `parse` reads back, and the solution's JSON."""

from __future__ import annotations

from ...core.result import Solution
from .instance import LatinInstance


def format_instance(inst: LatinInstance, comment: str = "") -> str:
    head = [f"# {comment}"] if comment else []
    grid = [" ".join(str(inst.givens.get((r, c), ".")) for c in range(inst.n))
            for r in range(inst.n)]
    return "\n".join([*head, f"latin {inst.n}", *grid]) + "\n"


def format_solution(inst: LatinInstance, solution: Solution) -> str:
    return "".join(" ".join(str(solution.get((r, c), 0)) for c in range(inst.n)) + "\n"
                   for r in range(inst.n))


def solution_json(inst: LatinInstance, solution: Solution) -> dict:
    return {"rows": [[solution.get((r, c)) for c in range(inst.n)] for r in range(inst.n)]}
