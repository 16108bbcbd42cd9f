"""Drawing a Tantrix cluster: black hexagons with their coloured bands (straight, bend, corner),
tile numbers, the empty cells of a fixed board in grey, and edges whose colours differ marked in
the mark colour (magenta, which no band uses); without a solution, the pieces laid out."""

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
FACE, EMPTY = "#111111", "#dddddd"


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


def _tile(ax, cen, tile: tuple[int, int] | None) -> None:
    """A black hexagon with the bands of `tile` (number, rotation) and its number, or an empty
    cell in grey."""
    from matplotlib.patches import Polygon

    ax.add_patch(Polygon(hx.corners(cen), closed=True, facecolor=FACE if tile else EMPTY,
                         edgecolor="#555555", linewidth=0.8, zorder=1))
    if tile is None:
        return
    t, rot = tile
    for colour in cat.colours(t):
        ends = cat.arc(t, rot, colour)
        if ends is not None:
            _band(ax, cen, ends, colour)
    ax.text(cen[0], cen[1], str(t), ha="center", va="center", fontsize=7, color="white",
            zorder=4, bbox={"boxstyle": "circle,pad=0.15", "fc": FACE, "ec": "none"})


def _mismatches(ax, solution: Solution) -> None:
    """Mark each edge where touching tiles show different colours."""
    for cell, (t, rot) in solution.items():
        for d in (0, 1, 2):  # each touching pair once
            nb = hx.neighbour(cell, d)
            if nb in solution and cat.edges(t, rot)[d] != cat.edges(*solution[nb])[hx.opposite(d)]:
                corner = hx.corners(hx.pixel_center(cell))
                a, b = corner[d], corner[(d + 1) % 6]  # edge d runs from corner d to d + 1
                draw.mark_line(ax, (a[0], b[0]), (a[1], b[1]), width=3.0)


def laid_out(inst: TantrixInstance, left: float, top: float
             ) -> dict[tuple[float, float], tuple[int, int]]:
    """The pieces unturned, in file order, in rows apart from each other from (`left`, `top`):
    what a puzzle without a solution shows."""
    per_row = math.ceil(math.sqrt(inst.n))
    return {(left + 2.0 * (i % per_row) + (i // per_row) % 2, top + 1.8 * (i // per_row)): (t, 0)
            for i, t in enumerate(inst.tiles)}


def render(inst: TantrixInstance, solution: Solution | None, path: str | Path,
           title: str = "") -> None:
    """Draw the cluster (its empty board cells in grey), or without a solution the board and
    the pieces laid out below it."""
    # a shape larger than any puzzle's tiles can cover is not drawn (side 10^9: MemoryError)
    places = inst.place_count()
    board = (inst.cells() or []) if places is not None and places <= MAX_TANTRIX_TILES else []
    tiles = {hx.pixel_center(c): tile for c, tile in (solution or {}).items()}
    tiles.update({hx.pixel_center(c): None for c in board if c not in (solution or {})})
    if solution is None:
        top = max((y for _x, y in tiles), default=-3.0) + 3.0
        tiles.update(laid_out(inst, min((x for x, _y in tiles), default=0.0), top))
    if not tiles:
        tiles = {(0.0, 0.0): None}
    xs = [p[0] for p in tiles]
    ys = [p[1] for p in tiles]
    w, h = max(xs) - min(xs) + 2, max(ys) - min(ys) + 2
    scale = min(0.6, 14 / max(w, h))
    fig, ax = draw.figure(max(2.0, w * scale), max(2.0, h * scale))
    for cen in sorted(tiles):
        _tile(ax, cen, tiles[cen])
    if solution:
        _mismatches(ax, solution)
    ax.set_xlim(min(xs) - 1.1, max(xs) + 1.1)
    ax.set_ylim(max(ys) + 1.1, min(ys) - 1.1)  # y downwards, like the grid
    draw.save(fig, path, title)
