"""Writing edge-matching instances and solutions: the native file, rows of PIECE/ROT, their
JSON, and the e2.bucas.name URL of a board."""

from __future__ import annotations

from ...core.result import Solution
from .instance import EdgeInstance


def format_instance(inst: EdgeInstance, comment: str = "") -> str:
    lines = [f"# {c}" for c in comment.splitlines()] if comment else []
    lines.append(f"edgematch {inst.width} {inst.height}")
    lines += [" ".join(map(str, e)) for e in inst.pieces]
    for (r, c), (p, rot) in sorted(inst.fixed.items()):
        lines.append(f"fixed {r} {c} {p} {rot}")
    return "\n".join(lines) + "\n"



def board_url(inst: EdgeInstance, solution: Solution, name: str = "tilesolve") -> str:
    """The e2.bucas.name URL showing a board (empty cells as 'aaaa')."""
    out = []
    for cell in inst.cells():
        if cell in solution:
            p, r = solution[cell]
            out.append("".join(chr(ord("a") + c) for c in inst.edges(p, r)))
        else:
            out.append("aaaa")
    return (
        f"https://e2.bucas.name/#puzzle={name}&board_w={inst.width}&board_h={inst.height}"
        f"&board_edges={''.join(out)}"
    )


def format_solution(inst: EdgeInstance, sol: Solution) -> str:
    """Rows of PIECE/ROT, right-aligned; `.` for an empty cell."""
    width = len(str(inst.n)) + 2
    lines = []
    for r in range(inst.height):
        toks = []
        for c in range(inst.width):
            pr = sol.get((r, c))
            toks.append((f"{pr[0]}/{pr[1]}" if pr else ".").rjust(width))
        lines.append(" ".join(toks))
    return "\n".join(lines) + "\n"


def solution_json(inst: EdgeInstance, sol: Solution) -> dict:
    """{"board": rows of [piece, rot], null for an empty cell}."""
    return {"board": [[list(sol[(r, c)]) if (r, c) in sol else None for c in range(inst.width)]
                      for r in range(inst.height)]}
