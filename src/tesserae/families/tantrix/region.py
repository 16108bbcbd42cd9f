"""The cells an exact model may use, and the facts every exact Tantrix model shares.

A `Layout` is a finite set of cells (a fixed board, a triangle, or a hexagon around a pinned
tile for free shapes) with its touching pairs, its triangles of mutually touching cells, the
(tile, rotation) placements allowed in each cell, and the goal colours a model must route.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core import hexgrid as hx
from . import catalogue as cat
from .model import TantrixInstance, goal_colour_options

Hex = hx.Hex


def covering_colour(inst: TantrixInstance) -> str | None:
    """A fixed goal colour carried by every tile: its line then visits every tile, so it alone
    keeps the cluster connected."""
    for g in inst.goals:
        if g.colour != "any" and all(g.colour in cat.colours(t) for t in inst.types()):
            return g.colour
    return None


def fixed_loop_colours(inst: TantrixInstance) -> set[str]:
    return {g.colour for g in inst.goals if g.kind == "loop" and g.colour != "any"}


def candidate_colours(inst: TantrixInstance) -> list[str]:
    """Colours some goal may take."""
    return sorted({c for opt in goal_colour_options(inst) for c in opt}, key=cat.COLOURS.index)


def free_radius_limit(inst: TantrixInstance) -> int:
    """Every tile lies within this distance of any other tile (a line or loop through all)."""
    cover = covering_colour(inst)
    if cover is not None and any(g.kind == "loop" and g.colour == cover for g in inst.goals):
        return max(1, inst.n // 2)
    return max(1, inst.n - 1)


def pin_tile(inst: TantrixInstance) -> int:
    """The tile placed at the origin, unturned, to remove translations and rotations: the
    highest-numbered tile used once (in Discovery puzzles the newest tile)."""
    counts = inst.counts()
    singles = [t for t in inst.types() if counts[t] == 1]
    return max(singles) if singles else inst.types()[0]


@dataclass
class Layout:
    inst: TantrixInstance
    cells: list[Hex]
    pin: tuple[Hex, int, int] | None = None  # (cell, tile, rot) fixed in advance
    all_filled: bool = False  # every cell holds a tile (triangle, exact board)
    index: dict[Hex, int] = field(init=False)
    pairs: list[tuple[Hex, int, Hex]] = field(init=False)  # (cell, d, neighbour), d in 0..2
    triangles: list[tuple[Hex, Hex, Hex]] = field(init=False)

    def __post_init__(self) -> None:
        self.index = {c: i for i, c in enumerate(self.cells)}
        inside = self.index
        self.pairs = [(c, d, hx.neighbour(c, d)) for c in self.cells for d in (0, 1, 2)
                      if hx.neighbour(c, d) in inside]
        self.triangles = []
        for c in self.cells:
            for d in (1, 2):  # the two triangles with c as their upper-left corner
                a, b = hx.neighbour(c, d), hx.neighbour(c, d + 1)
                if a in inside and b in inside:
                    self.triangles.append((c, a, b))

    def inside(self, cell: Hex) -> bool:
        return cell in self.index

    def placements(self, cell: Hex) -> list[tuple[int, int]]:
        """(tile, rot) pairs that may sit in a cell: a fixed loop colour must not run off the
        region, and the pinned cell holds only its pin."""
        if self.pin is not None and cell == self.pin[0]:
            return [(self.pin[1], self.pin[2])]
        pinned = self.pin[1] if self.pin is not None else None
        counts = self.inst.counts()
        loops = fixed_loop_colours(self.inst)
        out = []
        for t in self.inst.types():
            if t == pinned and counts[t] == 1:
                continue
            for rot in range(6):
                e = cat.edges(t, rot)
                if all(self.inside(hx.neighbour(cell, d)) for d in range(6) if e[d] in loops):
                    out.append((t, rot))
        return out


def free_layout(inst: TantrixInstance, radius: int) -> Layout:
    """A hexagon of the given radius around the origin, where the pin tile sits unturned."""
    return Layout(inst, hx.hexagon(radius + 1), pin=((0, 0), pin_tile(inst), 0))


def fixed_layout(inst: TantrixInstance) -> Layout:
    cells = inst.cells()
    assert cells is not None
    return Layout(inst, cells, all_filled=len(cells) == inst.n)
