"""Drawing a Tantrix cluster: black hexagons with their coloured bands (straight, bend, corner),
tile numbers, and the empty cells of a fixed board in grey."""

from __future__ import annotations

import math
from pathlib import Path

from ...core import draw
from ...core import hexgrid as hx
from ...core.bounds import MAX_TANTRIX_TILES
from ...core.result import Solution
from . import catalogue as cat
from .instance import TantrixInstance

INK = {"red": "#e0262b", "yellow": "#f6d21a", "blue": "#1f5fd6", "green": "#1f9a3a"}


def _edge_mid(center: tuple[float, float], d: int) -> tuple[float, float]:
    """Midpoint of edge d of a unit pointy-topped hex (d = 0 NE, clockwise; y downwards)."""
    ang = math.radians(-60 + 60 * d)
    r = math.sqrt(3) / 2
    return center[0] + r * math.cos(ang), center[1] + r * math.sin(ang)


def _band(ax, center, ends: tuple[int, int], colour: str) -> None:
    """A cubic curve between two edge midpoints, pulled towards the centre: a straight line for
    opposite edges, a wide bend two edges apart, a tight corner for touching edges."""
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path as MplPath

    a, b = (_edge_mid(center, d) for d in ends)
    pull = {1: 0.45, 2: 0.55, 3: 0.0}[min((ends[1] - ends[0]) % 6, (ends[0] - ends[1]) % 6)]
    pa = (a[0] + pull * (center[0] - a[0]), a[1] + pull * (center[1] - a[1]))
    pb = (b[0] + pull * (center[0] - b[0]), b[1] + pull * (center[1] - b[1]))
    path = MplPath([a, pa, pb, b], [MplPath.MOVETO, MplPath.CURVE4, MplPath.CURVE4,
                                    MplPath.CURVE4])
    ax.add_patch(PathPatch(path, fill=False, edgecolor=INK[colour], linewidth=5.5,
                           capstyle="butt", zorder=3))


def render(inst: TantrixInstance, solution: Solution | None, path: str | Path) -> None:
    from matplotlib.patches import Polygon

    solution = solution or {}
    # a shape larger than any puzzle's tiles can cover is not drawn (side 10^9: MemoryError)
    places = inst.place_count()
    drawn = places is not None and places <= MAX_TANTRIX_TILES
    cells = set(solution) | set(inst.cells() or [] if drawn else [])
    if not cells:
        cells = {(0, 0)}
    centers = {c: hx.pixel_center(c) for c in cells}
    xs = [p[0] for p in centers.values()]
    ys = [p[1] for p in centers.values()]
    w, h = max(xs) - min(xs) + 2, max(ys) - min(ys) + 2
    scale = min(0.6, 14 / max(w, h))
    fig, ax = draw.figure(max(2.0, w * scale), max(2.0, h * scale))
    for c in sorted(cells):
        cen = centers[c]
        tile = solution.get(c)
        face = "#111111" if tile else "#dddddd"
        ax.add_patch(Polygon(hx.corners(cen), closed=True, facecolor=face, edgecolor="#555555",
                             linewidth=0.8, zorder=1))
        if tile is None:
            continue
        t, rot = tile
        for colour in cat.colours(t):
            ends = cat.arc(t, rot, colour)
            if ends is not None:
                _band(ax, cen, ends, colour)
        ax.text(cen[0], cen[1], str(t), ha="center", va="center", fontsize=7, color="white",
                zorder=4, bbox={"boxstyle": "circle,pad=0.15", "fc": "#111111", "ec": "none"})
    ax.set_xlim(min(xs) - 1.1, max(xs) + 1.1)
    ax.set_ylim(max(ys) + 1.1, min(ys) - 1.1)  # y downwards, like the grid
    draw.save(fig, path)
