"""What the MILP and CNF models of Tantrix share: the placement table of a fixed layout, and
the rules left to the lazy solve loop, found on a decoded board.

Both models state compactly: one tile per cell at most (exactly one on a full board), tile
multiplicities, the golden rule, and "a goal loop colour never faces an empty or outside
cell". Then every tile carrying a loop colour lies on closed loops of that colour. What is
left (exponential families, separated on integer solutions):
- subloops: a closed loop of colour k through fewer tiles than carry k;
- holes: empty cells enclosed by tiles;
- disconnection: a group of tiles touching no other tile.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.result import Solution
from . import catalogue as cat
from .model import TantrixInstance, colour_lines, components, holes
from .region import Layout, fixed_layout, fixed_loop_colours

Hex = hx.Hex
Link = tuple[Hex, int]  # (cell, d) with d in 0..2: the edge between cell and its neighbour d


def layout_for(inst: TantrixInstance, backend: str) -> Layout:
    """The fixed layout, or a one-line refusal for what these models do not state."""
    if inst.shape == "free":
        raise InputError(f"the {backend} backend handles fixed boards only; use cpsat")
    for g in inst.goals:
        if g.kind != "loop" or g.colour == "any":
            raise InputError(f"the {backend} backend handles goal loops of a named colour only "
                             f"(not 'goal {g}'); use cpsat")
    return fixed_layout(inst)


@dataclass
class Table:
    """Placements of a layout and the colour each shows on each edge."""

    layout: Layout
    at: dict[Hex, list[tuple[Hex, int, int]]] = field(init=False)  # cell -> placements
    showing: dict[tuple[Hex, int, str], list[tuple[Hex, int, int]]] = field(init=False)
    loops: set[str] = field(init=False)
    need: dict[str, int] = field(init=False)  # loop colour -> tiles that carry it

    def __post_init__(self) -> None:
        lay = self.layout
        self.at = {c: [(c, t, rot) for t, rot in lay.placements(c)] for c in lay.cells}
        self.showing = {}
        for c, pls in self.at.items():
            for pl in pls:
                for d, k in enumerate(cat.edges(pl[1], pl[2])):
                    self.showing.setdefault((c, d, k), []).append(pl)
        self.loops = fixed_loop_colours(lay.inst)
        counts = lay.inst.counts()
        self.need = {k: sum(n for t, n in counts.items() if k in cat.colours(t))
                     for k in self.loops}

    def colours(self) -> list[str]:
        return sorted({k for (_c, _d, k) in self.showing}, key=cat.COLOURS.index)


def link_of(cell: Hex, d: int) -> Link:
    return (cell, d) if d < 3 else (hx.neighbour(cell, d), hx.opposite(d))


@dataclass
class Violations:
    # (colour, every link between two cells of the subloop, the subloop's own links, size)
    subloops: list[tuple[str, list[Link], list[Link], int]]
    holes: list[tuple[list[Hex], list[Hex]]]  # (enclosing tiles, empty board cells inside)
    parts: list[tuple[list[Hex], list[Hex]]]  # (a group of tiles, the board cells around it)

    def __bool__(self) -> bool:
        return bool(self.subloops or self.holes or self.parts)


def violations(table: Table, sol: Solution) -> Violations:
    lay = table.layout
    subloops = []
    for k in sorted(table.loops):
        lines = colour_lines(sol, k)
        for piece, closed in zip(lines.pieces, lines.closed, strict=True):
            if not closed or len(piece) >= table.need[k]:
                continue
            own = sorted({link_of(c, d) for c in piece for d in cat.arc(*sol[c], k)})
            inner = sorted((a, d) for a, d, b in lay.pairs if a in piece and b in piece)
            subloops.append((k, inner, own, len(piece)))
    found_holes = []
    for h in holes(sol):
        rim = sorted({nb for c in h for nb in hx.neighbours(c)} - h)
        found_holes.append((rim, sorted(c for c in h if lay.inside(c))))
    parts = []
    comps = components(sol)
    if len(comps) > 1:
        for comp in comps:
            around = {nb for c in comp for nb in hx.neighbours(c) if lay.inside(nb)} - comp
            parts.append((sorted(comp), sorted(around)))
    return Violations(subloops, found_holes, parts)
