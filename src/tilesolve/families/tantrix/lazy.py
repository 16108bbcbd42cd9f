"""What the MILP and CNF models of Tantrix share: the placement table of a layout, the short
cycles of the cell graph, and the rules left to the lazy solve loop (found on a decoded
board).

Both models state compactly: one tile per cell at most (exactly one on a full board), tile
multiplicities, the golden rule, "a goal loop colour never faces an empty or outside cell"
(so the loop colour shown across a touching pair is shown on both sides or on neither), no
loop of 3, 4 or 5 tiles (short cycles of the cell graph, listed in advance), and the Euler
identity that keeps a connected cluster free of holes. Then every tile carrying a loop colour
lies on closed loops of that colour. What is left (exponential families, separated on integer
solutions):
- subloops: a closed loop of colour k through fewer tiles than carry k;
- holes: empty cells enclosed by tiles;
- disconnection: a group of tiles touching no other tile.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import networkx as nx

from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.result import Solution
from . import catalogue as cat
from .check import colour_lines, components, holes
from .instance import TantrixInstance
from .region import Layout, fixed_loop_colours

Hex = hx.Hex
Link = tuple[Hex, int]  # (cell, d) with d in 0..2: the edge between cell and its neighbour d
SHORT = 5  # loops of up to this many tiles are excluded in advance


def check_goals(inst: TantrixInstance, backend: str) -> None:
    """A one-line refusal for what these models do not state."""
    for g in inst.goals:
        if g.kind != "loop" or g.colour == "any":
            raise InputError(f"the {backend} backend handles goal loops of a named colour only "
                             f"(not 'goal {g}'); use cpsat")
    if inst.shape == "triangle":
        raise InputError(f"the {backend} backend handles fixed boards and free shapes; "
                         "use cpsat for triangles")


@dataclass
class Table:
    """Placements of a layout and the colour each shows on each edge."""

    layout: Layout
    at: dict[Hex, list[tuple[Hex, int, int]]] = field(init=False)  # cell -> placements
    showing: dict[tuple[Hex, int, str], list[tuple[Hex, int, int]]] = field(init=False)
    loops: set[str] = field(init=False)
    need: dict[str, int] = field(init=False)  # colour -> tiles that carry it

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
                     for k in cat.COLOURS}

    def colours(self) -> list[str]:
        return sorted({k for (_c, _d, k) in self.showing}, key=cat.COLOURS.index)

    def short_cycles(self) -> list[list[Hex]]:
        """Cycles of 3..SHORT cells of the layout, each a list of cells in cyclic order.
        A closed loop through exactly these tiles would use every link of the cycle."""
        g = nx.Graph((a, b) for a, _d, b in self.layout.pairs)
        return [list(c) for c in nx.simple_cycles(g, length_bound=SHORT) if len(c) >= 3]


def rim(cells: set[Hex]) -> set[Hex]:
    return {nb for c in cells for nb in hx.neighbours(c)} - cells


def hole_shapes(lay: Layout, size: int) -> list[frozenset[Hex]]:
    """Connected cell sets of up to `size` cells (region cells or not) whose rim lies in the
    region: the places where a small hole can open, listed in advance."""
    near = set(lay.cells) | {nb for c in lay.cells for nb in hx.neighbours(c)}
    out: set[frozenset[Hex]] = set()
    frontier = {frozenset([c]) for c in near}
    for _ in range(size):
        out |= {h for h in frontier if all(lay.inside(c) for c in rim(set(h)))}
        frontier = {h | {nb} for h in frontier for c in h for nb in hx.neighbours(c)
                    if nb in near and nb not in h}
    return sorted(out, key=sorted)


def hole_copies(lay: Layout, hole: set[Hex]) -> list[frozenset[Hex]]:
    """Every turned and shifted copy of a hole whose rim lies in the region: the same hole
    can open there too, so the cut is stated for all of them at once."""
    out = set()
    for k in range(6):
        turned = {hx.rotate_cell(c, k) for c in hole}
        q0, r0 = min(turned)
        for q, r in lay.cells:
            h = frozenset((a - q0 + q, b - r0 + r) for a, b in turned)
            if all(lay.inside(c) for c in rim(set(h))):
                out.add(h)
    return sorted(out, key=sorted)


def link_of(cell: Hex, d: int) -> Link:
    return (cell, d) if d < 3 else (hx.neighbour(cell, d), hx.opposite(d))


def link_between(a: Hex, b: Hex) -> Link:
    return link_of(a, hx.DIRECTIONS.index((b[0] - a[0], b[1] - a[1])))


def inner_links(lay: Layout, cells: set[Hex]) -> list[Link]:
    """Every touching pair with both cells in `cells`."""
    return sorted((a, d) for a, d, b in lay.pairs if a in cells and b in cells)


@dataclass
class Violations:
    # (colour, the subloop's cells, its own links, size)
    subloops: list[tuple[str, list[Hex], list[Link], int]]
    # (enclosing tiles, empty region cells inside, every cell of the hole)
    holes: list[tuple[list[Hex], list[Hex], set[Hex]]]
    parts: list[tuple[list[Hex], list[Hex]]]  # (a group of tiles, the region cells around it)

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
            subloops.append((k, sorted(piece), own, len(piece)))
    found_holes = []
    for h in holes(sol):
        found_holes.append((sorted(rim(h)), sorted(c for c in h if lay.inside(c)), h))
    parts = []
    comps = components(sol)
    if len(comps) > 1:
        for comp in comps:
            around = {nb for c in comp for nb in hx.neighbours(c) if lay.inside(nb)} - comp
            parts.append((sorted(comp), sorted(around)))
    return Violations(subloops, found_holes, parts)


def loop_groups(table: Table, found: Violations, limit: int = 64) -> list[tuple[str, set[Hex]]]:
    """Cell sets a loop of colour k cannot cover alone: each subloop, and unions of subloops of
    the same colour still smaller than the loop (so the next board cannot merely join them
    into another short loop). At most `limit` sets."""
    by_colour: dict[str, list[set[Hex]]] = {}
    for k, cells, _own, _n in found.subloops:
        by_colour.setdefault(k, []).append(set(cells))
    out = []
    for k, sets in by_colour.items():
        for size in range(1, len(sets) + 1):
            for combo in itertools.combinations(sets, size):
                union = set().union(*combo)
                if len(union) < table.need[k] and len(out) < limit:
                    out.append((k, union))
    return out


