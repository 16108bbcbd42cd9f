"""The placement table shared by the Boolean models (MILP and CNF) of edge matching.

A placement is (cell, piece, rot) allowed by the frame rule and the fixed pieces. Both the
MILP (one binary per placement) and the CNF (one variable per placement) are built from this
table, so they agree on which placements exist and on how a board is read back.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from ...core import squaregrid as sq
from ...core.result import Solution
from .instance import Cell, EdgeInstance

Placement = tuple[Cell, int, int]  # (cell, piece, rot)
Row = tuple[int, int, int, int, int, int, int]  # (cell index, piece - 1, rot, W, N, E, S)


def placement_rows(inst: EdgeInstance) -> list[Row]:
    """(cell index, piece - 1, rot, W, N, E, S) for every placement the frame rule and the
    fixed pieces allow, one per distinct look of a piece, cell by cell in `inst.cells()`
    order, then by piece and rotation. The looks that fit are found once per set of frame
    sides (nine at most), then copied to each cell: 0.2 s on the 16x16, without NumPy."""
    fixed_pieces = {p for p, _ in inst.fixed.values()}
    looks = []  # (piece - 1, rot, (N, E, S, W)), one per distinct look
    for p in range(1, inst.n + 1):
        seen: set = set()
        for r in range(4):
            e = inst.edges(p, r)
            if e not in seen and p not in fixed_pieces:
                seen.add(e)
                looks.append((p - 1, r, e))
    fitting: dict[frozenset, list[tuple]] = {}
    out: list[Row] = []
    for i, cell in enumerate(inst.cells()):
        if cell in inst.fixed:
            p, r = inst.fixed[cell]
            n, e, s, w = inst.edges(p, r)
            out.append((i, p - 1, r, w, n, e, s))
            continue
        frame = frozenset(sq.frame_sides(cell, inst.width, inst.height))
        if frame not in fitting:
            fitting[frame] = [(p, r, e[sq.W], e[sq.N], e[sq.E], e[sq.S]) for p, r, e in looks
                              if all((e[k] == 0) == (k in frame) for k in sq.SIDES)]
        out += [(i, *row) for row in fitting[frame]]
    return out


class PlacementTable:
    def __init__(self, inst: EdgeInstance):
        self.inst = inst
        self.by_cell: dict[Cell, list[tuple[int, int]]] = {
            c: inst.placements(c) for c in inst.cells()
        }
        self.by_piece: dict[int, list[Placement]] = defaultdict(list)
        # (cell, side) -> colour -> placements showing that colour on that side
        self.showing: dict[tuple[Cell, int], dict[int, list[Placement]]] = defaultdict(
            lambda: defaultdict(list)
        )
        for cell, prs in self.by_cell.items():
            for p, r in prs:
                self.by_piece[p].append((cell, p, r))
                for s, col in enumerate(inst.edges(p, r)):
                    self.showing[cell, s][col].append((cell, p, r))

    def __iter__(self) -> Iterator[Placement]:
        for cell, prs in self.by_cell.items():
            for p, r in prs:
                yield cell, p, r

    def joins(self) -> Iterator[tuple[Cell, int, Cell]]:
        return sq.joins(self.inst.width, self.inst.height)

    def join_colours(self, a: Cell, side: int, b: Cell) -> list[int]:
        """Colours either side of a join can show (sorted)."""
        return sorted(set(self.showing[a, side]) | set(self.showing[b, sq.opposite(side)]))

    def resolve(self, cell: Cell, piece: int, rot: int) -> Placement | None:
        """The table's placement that looks like (piece, rot) at the cell, or None.

        The table keeps one rotation per distinct look of a symmetric piece, so a board may
        name a rotation the table holds under another number.
        """
        if cell not in self.by_cell or not 1 <= piece <= self.inst.n:
            return None
        look = self.inst.edges(piece, rot % 4)
        for p, r in self.by_cell[cell]:
            if p == piece and self.inst.edges(p, r) == look:
                return cell, p, r
        return None

    def board(self, solution: Solution) -> dict[Placement, int]:
        """0/1 values of every placement for a (possibly partial) board: hinted cells get their
        placement 1 and the others 0; cells the board leaves empty are left out."""
        out: dict[Placement, int] = {}
        for cell, (p, r) in solution.items():
            if cell not in self.by_cell:
                continue
            chosen = self.resolve(cell, p, r)
            for q, s in self.by_cell[cell]:
                out[cell, q, s] = int((cell, q, s) == chosen)
        return out

    def anchor(self) -> list[Placement] | None:
        """Placements one of which must hold, to break the board's rotational symmetry.

        The first corner piece goes to the top-left corner of a square board (4 rotations)
        or to one of the two top corners of a rectangle (the half turn). None when a fixed
        piece already orients the board.
        """
        inst = self.inst
        if inst.fixed:
            return None
        first = inst.corner_pieces()[0]
        corners = [(0, 0)] if inst.width == inst.height else [(0, 0), (0, inst.width - 1)]
        return [pl for pl in self.by_piece[first] if pl[0] in corners]
