"""The Tantrix instance: a multiset of tiles, goal lines and a shape.

The tiles come from the 56-tile set (repeats allowed); a goal is a loop or an open line of a
colour, or of `any` colour; the shape is `free`, `triangle N` (the tiles must cover a triangle
of side N, in any position and orientation), or `board` (a fixed set of cells the tiles must lie
on; cells may stay empty). A solution maps each occupied cell (q, r) to (tile, rot), rot =
clockwise 60-degree steps.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from ...core import hexgrid as hx
from . import catalogue as cat

Hex = hx.Hex
GOAL_KINDS = ("loop", "line")
GOAL_COLOURS = (*cat.COLOURS, "any")
SHAPES = ("free", "triangle", "board")


@dataclass(frozen=True)
class Goal:
    kind: str  # "loop" | "line"
    colour: str  # a colour name or "any"

    def __str__(self) -> str:
        return f"{self.kind} {self.colour}"


@dataclass
class TantrixInstance:
    tiles: list[int]  # tile numbers, repeats allowed, in file order
    goals: list[Goal] = field(default_factory=list)
    shape: str = "free"
    size: int | None = None  # side of the triangle
    board: list[Hex] = field(default_factory=list)  # the cells of a fixed board
    name: str = ""

    @property
    def n(self) -> int:
        return len(self.tiles)

    def counts(self) -> Counter:
        return Counter(self.tiles)

    def types(self) -> list[int]:
        """Distinct tile numbers, ascending."""
        return sorted(set(self.tiles))

    def edges(self, tile: int, rot: int) -> tuple[str, ...]:
        return cat.edges(tile, rot)

    def cells(self) -> list[Hex] | None:
        """The cells tiles must lie on when fixed in advance (board, triangle), else None."""
        if self.shape == "board":
            return list(self.board)
        if self.shape == "triangle":
            assert self.size is not None
            return triangle(self.size)
        return None

    def place_count(self) -> int | None:
        """How many cells `cells()` holds, counted without listing them (a triangle of side
        10^9 has 5 * 10^17)."""
        if self.shape == "board":
            return len(self.board)
        if self.shape == "triangle":
            assert self.size is not None
            return self.size * (self.size + 1) // 2
        return None

    def goal_colours(self) -> list[str]:
        return [g.colour for g in self.goals if g.colour != "any"]


def triangle(side: int) -> list[Hex]:
    """A triangle of hexes with rows of 1, 2, .., side cells, apex at the origin, pointing up."""
    return [(q, r) for r in range(side) for q in range(-r, 1)]


def shape_key(cells: Iterable[Hex]) -> tuple[Hex, ...]:
    """A key equal for cell sets that are the same up to translation and rotation."""
    cells = list(cells)
    return min(hx.normalise(hx.rotate_cell(c, k) for c in cells) for k in range(6))



def goal_colour_options(inst: TantrixInstance) -> list[tuple[str, ...]]:
    """Every way to give each goal a colour: fixed colours kept, `any` goals distinct others."""
    fixed = set(inst.goal_colours())
    free = [c for c in cat.COLOURS if c not in fixed]
    n_any = sum(g.colour == "any" for g in inst.goals)
    out = []
    for pick in itertools.permutations(free, n_any):
        it = iter(pick)
        out.append(tuple(g.colour if g.colour != "any" else next(it) for g in inst.goals))
    return out

