"""The edge-matching instance: a W x H board and square pieces with four coloured edges.

Pieces are numbered from 1 (line k of the piece list is piece k). A solution maps each cell
(row, col) to (piece, rot), rot = clockwise quarter turns; row 0 is the top row. Colour 0 is
the grey frame colour.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from ...core import squaregrid as sq

Edges = tuple[int, int, int, int]
Cell = tuple[int, int]


@dataclass
class EdgeInstance:
    width: int
    height: int
    pieces: list[Edges]  # pieces[p - 1] = (N, E, S, W) of piece p
    fixed: dict[Cell, tuple[int, int]] = field(default_factory=dict)  # cell -> (piece, rot)
    name: str = ""

    @property
    def n(self) -> int:
        return len(self.pieces)

    def edges(self, piece: int, rot: int = 0) -> Edges:
        return sq.rotate_edges(self.pieces[piece - 1], rot)  # type: ignore[return-value]

    def kind(self, piece: int) -> str:
        greys = sum(1 for c in self.pieces[piece - 1] if c == 0)
        return "corner" if greys >= 2 else "border" if greys == 1 else "inner"

    def corner_pieces(self) -> list[int]:
        """The corner pieces' numbers, in order (the first is the one symmetry breaking pins)."""
        return [p for p in range(1, self.n + 1) if self.kind(p) == "corner"]

    def cells(self) -> list[Cell]:
        return list(sq.cells(self.width, self.height))

    def frame_colours(self) -> set[int]:
        """Colours on the joins between frame pieces (the non-grey edges along the rim)."""
        out = set()
        for e in self.pieces:
            if 0 in e:
                for s in range(4):
                    if e[s] == 0:
                        # the two sides next to a grey side run along the frame
                        for t in ((s + 1) % 4, (s + 3) % 4):
                            if e[t] != 0:
                                out.add(e[t])
        return out

    def colours(self) -> set[int]:
        return {c for e in self.pieces for c in e if c != 0}

    def colour_span(self) -> int:
        """Colour numbers run 0 (grey) .. colour_span() - 1: the size of a table by colour."""
        return int(max(max(e) for e in self.pieces)) + 1

    def inner_colours(self) -> set[int]:
        return self.colours() - self.frame_colours()

    def fits(self, cell: Cell, piece: int, rot: int) -> bool:
        """Does the piece, so turned, show grey exactly on this cell's frame sides?"""
        frame = sq.frame_sides(cell, self.width, self.height)
        e = self.edges(piece, rot)
        return all((e[s] == 0) == (s in frame) for s in range(4))

    def placements(self, cell: Cell) -> list[tuple[int, int]]:
        """(piece, rot) pairs allowed at a cell by the frame rule and the fixed pieces."""
        if cell in self.fixed:
            return [self.fixed[cell]]
        fixed_pieces = {p for p, _ in self.fixed.values()}
        out = []
        for p in range(1, self.n + 1):
            if p in fixed_pieces:
                continue
            seen = set()
            for r in range(4):
                e = self.edges(p, r)
                if e not in seen and self.fits(cell, p, r):
                    seen.add(e)  # rotationally symmetric pieces: one row per distinct look
                    out.append((p, r))
        return out

    def search_space(self) -> int:
        """The placements left after the frame rule, exactly (a crude size estimate): each
        kind of piece permuted over its cells, inner pieces in 4 rotations."""
        kinds = Counter(self.kind(p) for p in range(1, self.n + 1))
        return math.prod(math.factorial(m) * (4 ** m if k == "inner" else 1)
                         for k, m in kinds.items())

    def search_space_log10(self) -> float:
        """log10 of `search_space`."""
        kinds = Counter(self.kind(p) for p in range(1, self.n + 1))
        total = 0.0
        for k, m in kinds.items():
            total += math.lgamma(m + 1) / math.log(10)
            if k == "inner":
                total += m * math.log10(4)
        return total
