"""The cells an exact model may use, and the facts every exact Tantrix model shares.

A `Layout` is a finite set of cells (a fixed board, a triangle, or a hexagon around a pinned
tile for free shapes) with its touching pairs, its triangles of mutually touching cells, the
(tile, rotation) placements allowed in each cell, and the goal colours a model must route.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.options import Option
from ...core.result import Outcome, SolveOptions, Status
from . import catalogue as cat
from .instance import TantrixInstance, goal_colour_options

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


# ---------------------------------------------------------------------- free shapes
def first_radius(inst: TantrixInstance) -> int:
    """A hexagon holding about twice as many cells as tiles: room for thin loop shapes."""
    r = 1
    while 3 * r * (r + 1) + 1 < 2 * inst.n:
        r += 1
    return min(r, free_radius_limit(inst))


def cells_radius(value: object) -> int:
    """a whole number of cells (at least 1)"""
    val = int(str(value))
    if val < 1:
        raise ValueError(value)
    return val


RADIUS = Option("radius", cells_radius, None, "free shapes: the radius of the hexagon to start "
                "from, grown while the solver proves no fit (default: about twice as many "
                "cells as tiles)")
SHORT_LOOPS = Option("c7_c9", str, "on", "Kino & Uno's C7-C9: no loop of 3, 4 or 5 tiles",
                     ("on", "off"))


def radius_option(opts: SolveOptions) -> int | None:
    """`--radius R`: the hexagon to start from (grown while the solver proves no fit)."""
    return RADIUS.convert(opts.params.get("radius"))


def export_layout(inst: TantrixInstance, opts: SolveOptions) -> tuple[Layout, list[str]]:
    """The one layout an exported model uses, and what to say about it: a fixed board as
    given; a free shape on the hexagon around the pinned tile that holds any solution (or
    `--radius R`), as solving would reach it by growing."""
    if inst.shape != "free":
        return fixed_layout(inst), []
    limit = free_radius_limit(inst)
    radius = radius_option(opts) or limit
    lay = free_layout(inst, radius)
    pin = lay.pin
    assert pin is not None
    note = (f"free shape: {len(lay.cells)} cells within distance {radius} of tile {pin[1]}, "
            f"pinned unturned at (0, 0)"
            + ("" if radius >= limit else f"; a solution may need up to distance {limit}"))
    return lay, [note]


def choice_option(opts: SolveOptions, name: str, choices: tuple[str, ...], default: str) -> str:
    """`--name VALUE` checked against its choices (one line naming them when it is not)."""
    return Option(name, str, default, choices=choices).convert(opts.params.get(name, default))


def solve_on_layouts(inst: TantrixInstance, opts: SolveOptions,
                     solve_layout: Callable[[Layout, SolveOptions], Outcome],
                     whole: bool = False) -> Outcome:
    """A fixed board is solved as given. A free shape is solved on a hexagon around the
    pinned tile that grows while the solver proves the puzzle does not fit (`whole`: start
    from the largest hexagon any solution needs, as a count must)."""
    if inst.shape != "free":
        return solve_layout(fixed_layout(inst), opts)
    limit = free_radius_limit(inst)
    radius = radius_option(opts) or (limit if whole else first_radius(inst))
    tried: list[int] = []
    rounds = 0
    while True:
        left = opts.remaining()  # reading and earlier radii count
        if left is not None and left <= 0:
            return Outcome(Status.TIMEOUT, stats={"radii": tried, "rounds": rounds})
        out = solve_layout(free_layout(inst, radius), dataclasses.replace(opts, time_limit=left))
        tried.append(radius)
        out.stats["radii"] = tried
        if "rounds" in out.stats:  # lazy cut loops count their re-solves over all radii
            rounds += int(out.stats["rounds"])
            out.stats["rounds"] = rounds
        if out.status != Status.INFEASIBLE or radius >= limit:
            return out
        radius += 1


# ---------------------------------------------------------------------- score boards
def compact_cells(n: int) -> list[Hex]:
    """n cells as round as the hex grid allows: the hexagon that fits, then the next ring
    walked from its north-east corner clockwise, as far as the cells last (no holes, one
    piece). The 56-tile puzzles get a hexagon of 37 cells and 19 of the next ring's 24."""
    side = 1
    while 3 * side * (side + 1) + 1 <= n:
        side += 1
    cells = hx.hexagon(side)  # radius side - 1
    ring, cell = [], (side, -side)  # the ring of radius `side`, from its north-east corner
    for d in range(6):
        for _ in range(side):
            ring.append(cell)
            cell = hx.neighbour(cell, (d + 2) % 6)
    return (cells + ring)[:n]


def score_board(inst: TantrixInstance) -> list[Hex]:
    """The cells an --objective search fills: a board or triangle with exactly one cell per
    tile as given, else (free shapes) `compact_cells`."""
    cells = inst.cells()
    if cells is None:
        return compact_cells(inst.n)
    if len(cells) != inst.n:
        raise InputError(f"--objective fills a board exactly; this one has {len(cells)} cells "
                         f"for {inst.n} tiles")
    return cells
