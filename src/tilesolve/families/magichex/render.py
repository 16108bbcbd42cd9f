"""Drawing a magic hexagon: the board of hex cells with their numbers.

Givens are shaded; cells on a line with the wrong sum are outlined in the mark colour (magenta,
which no cell uses), and each line's sum is written at its start (green when magic, magenta
otherwise).
"""

from __future__ import annotations

from pathlib import Path

from ...core import draw
from ...core import hexgrid as hx
from ...core.result import Solution
from .instance import MagicHexInstance

GIVEN = "#d9e6f2"
EMPTY = "#ffffff"
FILLED = "#fdf6e3"


def render(inst: MagicHexInstance, solution: Solution | None, path: str | Path,
           title: str = "") -> None:
    from matplotlib.patches import Polygon

    solution = dict(inst.givens) if solution is None else solution
    sums = {}
    for idx, (_name, line) in enumerate(inst.lines):
        if all(c in solution for c in line):
            sums[idx] = sum(solution[c] for c in line)
    wrong = {c for idx, s in sums.items() if s != inst.magic_exact for c in inst.lines[idx][1]}
    n = inst.order
    fig, ax = draw.figure(1.0 + 0.75 * (2 * n - 1), 1.0 + 0.7 * (2 * n - 1))
    font = max(5, 13 - n)
    for c in inst.cells:
        centre = hx.pixel_center(c)
        face = GIVEN if c in inst.givens else FILLED if c in solution else EMPTY
        ax.add_patch(
            Polygon(hx.corners(centre), closed=True, facecolor=face, edgecolor="black", lw=0.8)
        )
        if c in wrong:  # above the neighbours' black outlines
            ax.add_patch(Polygon(hx.corners(centre, 0.94), closed=True, fill=False,
                                 edgecolor=draw.MARK, lw=2.5, zorder=3))
        if c in solution:
            ax.text(*centre, str(solution[c]), ha="center", va="center", fontsize=font)
    # each line's sum just outside the hexagon, before its first cell (rows: to the left)
    # labels: rows on the left, NW-SE lines below right, NE-SW lines above right
    steps = (4, 2, 0)
    for idx, s in sums.items():
        kind, line = idx // (2 * n - 1), inst.lines[idx][1]
        start = line[-1] if kind == 1 else line[0]  # lines are listed top to bottom
        x, y = hx.pixel_center(hx.neighbour(start, steps[kind]))
        ax.text(x, y, str(s), ha="center", va="center", fontsize=font - 2,
                color="green" if s == inst.magic_exact else draw.MARK)
    pts = [hx.pixel_center(c) for c in inst.cells]
    pad = 2.2
    ax.set_xlim(min(p[0] for p in pts) - pad, max(p[0] for p in pts) + pad)
    ax.set_ylim(max(p[1] for p in pts) + pad, min(p[1] for p in pts) - pad)
    rules = f"order {n}, numbers {inst.first}..{inst.last}, magic sum {inst.magic_text}"
    draw.save(fig, path, f"{title}\n{rules}" if title else rules)
