"""Drawing a board: each piece as four coloured triangles, mismatched joins marked in the mark
colour (magenta), which the tile palette leaves out."""

from __future__ import annotations

from pathlib import Path

from ...core import draw
from ...core import squaregrid as sq
from ...core.result import Solution
from .format import board_url
from .instance import EdgeInstance

GREY = "#8c8c8c"


def _triangles(r: int, c: int):
    """Corner points of the N, E, S, W triangles of cell (r, c); y grows downwards."""
    x0, y0, x1, y1 = c, r, c + 1, r + 1
    mid = (c + 0.5, r + 0.5)
    return {
        sq.N: [(x0, y0), (x1, y0), mid],
        sq.E: [(x1, y0), (x1, y1), mid],
        sq.S: [(x1, y1), (x0, y1), mid],
        sq.W: [(x0, y1), (x0, y0), mid],
    }


def laid_out(inst: EdgeInstance) -> Solution:
    """The pieces in numbering order, unturned, row by row: what a board without a
    solution shows."""
    return {cell: (i + 1, 0) for i, cell in enumerate(inst.cells())}


def viewer_url(inst: EdgeInstance, solution: Solution | None) -> str:
    """The e2.bucas.name viewer URL of the board (or of the pieces laid out)."""
    return board_url(inst, laid_out(inst) if solution is None else solution,
                     name=inst.name or "tilesolve")


def render(inst: EdgeInstance, solution: Solution | None, path: str | Path,
           title: str = "") -> None:
    """Draw the board (or, without a solution, the pieces laid out in numbering order)."""
    from matplotlib.patches import Polygon

    mark = solution is not None
    if solution is None:
        solution = laid_out(inst)
    w, h = inst.width, inst.height
    colours = draw.palette(inst.colour_span())
    fig, ax = draw.figure(max(3.0, 0.5 * w), max(3.0, 0.5 * h))
    for (r, c), (p, rot) in solution.items():
        e = inst.edges(p, rot)
        for side, pts in _triangles(r, c).items():
            face = GREY if e[side] == 0 else colours[e[side]]
            ax.add_patch(Polygon(pts, closed=True, facecolor=face, edgecolor="black", lw=0.3))
        if w <= 20:
            ax.text(c + 0.5, r + 0.5, str(p), ha="center", va="center",
                    fontsize=max(4, 9 - w // 3), color="black")
    for r, c in inst.cells():
        if (r, c) not in solution:
            ax.add_patch(Polygon([(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)],
                                 facecolor="white", edgecolor="black", lw=0.3, hatch="//"))
    if mark:
        for a, s, b in sq.joins(w, h):
            if a in solution and b in solution:
                ca = inst.edges(*solution[a])[s]
                cb = inst.edges(*solution[b])[sq.opposite(s)]
                if ca != cb:
                    r, c = a
                    seg = ([(c + 1, c + 1), (r, r + 1)] if s == sq.E
                           else [(c, c + 1), (r + 1, r + 1)])
                    draw.mark_line(ax, *seg)
    ax.set_xlim(-0.1, w + 0.1)
    ax.set_ylim(h + 0.1, -0.1)
    draw.save(fig, path, title)
