"""Writing Tantrix instances and solutions: the instance file, lines TILE Q R ROT, their JSON,
and a terminal drawing of the cluster."""

from __future__ import annotations

from ...core import hexgrid as hx
from ...core.result import Solution
from .instance import TantrixInstance


def compress_tiles(tiles: list[int]) -> str:
    """`1 2 3 5` -> `1-3 5`; repeats are written as further runs."""
    out, rest = [], sorted(tiles)
    while rest:
        run, left = [], []
        for t in rest:
            if run and t == run[-1]:
                left.append(t)
            else:
                run.append(t)
        rest = left
        start = prev = run[0]
        for t in [*run[1:], None]:
            if t is not None and t == prev + 1:
                prev = t
                continue
            out.append(f"{start}-{prev}" if prev > start else str(start))
            if t is not None:
                start = prev = t
    return " ".join(out)


def format_instance(inst: TantrixInstance, comment: str = "") -> str:
    lines = [f"# {c}" if c else "#" for c in comment.splitlines()]
    lines += ["tantrix", f"tiles {compress_tiles(inst.tiles)}"]
    lines += [f"goal {g}" for g in inst.goals]
    if inst.shape == "triangle":
        lines.append(f"shape triangle {inst.size}")
    else:
        lines.append(f"shape {inst.shape}")
    lines += [f"cell {q} {r}" for q, r in inst.board]
    return "\n".join(lines) + "\n"



def format_solution(inst: TantrixInstance, sol: Solution) -> str:
    """One line TILE Q R ROT per tile, row by row."""
    rows = sorted(sol.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    return "".join(f"{t} {q} {r} {rot}\n" for (q, r), (t, rot) in rows)


def solution_json(inst: TantrixInstance, sol: Solution) -> dict:
    """{"placements": [{"tile": t, "q": q, "r": r, "rot": k}, ...]}, row by row."""
    rows = sorted(sol.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    return {"placements": [{"tile": t, "q": q, "r": r, "rot": rot}
                           for (q, r), (t, rot) in rows]}



def draw_text(inst: TantrixInstance, sol: Solution) -> str:
    """Rows of `tile/rot`, indented half a cell per row like the hex grid."""
    if not sol:
        return "(empty)\n"
    width = 6
    qs = [q + r / 2 for q, r in sol]
    x0 = min(qs)
    lines = []
    for row in hx.rows_of(sol):
        r = row[0][1]
        text = ""
        for q, _ in row:
            col = round((q + r / 2 - x0) * width)
            t, rot = sol[(q, r)]
            text = text.ljust(col) + f"{t}/{rot}".center(width)
        lines.append(text.rstrip())
    return "\n".join(lines) + "\n"

