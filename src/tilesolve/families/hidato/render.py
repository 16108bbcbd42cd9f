"""Drawing a Hidato board: hexagons (or squares) with their numbers, givens shaded, and the
path 1 -> N as a line through the cell centres; a jump between non-adjacent cells is drawn in
the mark colour (magenta, which no cell uses)."""

from __future__ import annotations

from pathlib import Path

from ...core import draw
from ...core import hexgrid as hx
from ...core.result import Solution
from .instance import Cell, HidatoInstance

GIVEN, FREE, HOLE = "#d9d9d9", "#ffffff", "#4d4d4d"


def _centre(inst: HidatoInstance, cell: Cell) -> tuple[float, float]:
    if inst.shape == "hex":
        return hx.pixel_center(cell)
    return float(cell[1]), float(cell[0])


def _outline(inst: HidatoInstance, cell: Cell) -> list[tuple[float, float]]:
    x, y = _centre(inst, cell)
    if inst.shape == "hex":
        return hx.corners((x, y))
    return [(x - 0.5, y - 0.5), (x + 0.5, y - 0.5), (x + 0.5, y + 0.5), (x - 0.5, y + 0.5)]


def render(inst: HidatoInstance, solution: Solution | None, path: str | Path,
           title: str = "") -> None:
    from matplotlib.patches import Polygon

    slots = [c for row in inst.rows for c in row]
    xs = [_centre(inst, c)[0] for c in slots]
    ys = [_centre(inst, c)[1] for c in slots]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) + 2
    fig, ax = draw.figure(max(3.0, 0.35 * span), max(3.0, 0.35 * span))
    numbers = dict(inst.givens) if solution is None else dict(solution)
    big = inst.n > 400  # thousands of cells: no text, thinner lines
    for cell in slots:
        face = HOLE if cell in inst.holes else GIVEN if cell in inst.givens else FREE
        ax.add_patch(Polygon(_outline(inst, cell), closed=True, facecolor=face,
                             edgecolor="#7f7f7f", lw=0.2 if big else 0.6))
    if solution is not None:
        where = {k: c for c, k in solution.items() if c in inst.index}
        for k in range(1, inst.n):
            if k in where and k + 1 in where:
                a, b = where[k], where[k + 1]
                (x0, y0), (x1, y1) = _centre(inst, a), _centre(inst, b)
                if inst.adjacent(a, b):
                    ax.plot([x0, x1], [y0, y1], color="#1f77b4", lw=0.8 if big else 2.0,
                            alpha=0.55, zorder=2)
                else:
                    draw.mark_line(ax, [x0, x1], [y0, y1], width=1.2 if big else 2.0,
                                   zorder=2.5)  # under the numbers
        for end in (1, inst.n):
            if end in where:
                x, y = _centre(inst, where[end])
                ax.plot([x], [y], "o", ms=3 if big else 14, color="#ff7f0e", alpha=0.5, zorder=2)
    if not big:
        size = max(4.0, 11.0 - len(str(inst.n)))
        for cell, k in numbers.items():
            if cell in inst.index:
                x, y = _centre(inst, cell)
                ax.text(x, y, str(k), ha="center", va="center", fontsize=size, zorder=3,
                        fontweight="bold" if cell in inst.givens else "normal")
    ax.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
    ax.set_ylim(max(ys) + 1.2, min(ys) - 1.2)
    draw.save(fig, path, title)
