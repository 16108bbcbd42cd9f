"""The magic hexagon instance: its order, first number and givens; its cells, lines and symmetries.

A hexagon of order n has N = 3n(n-1)+1 cells (core.hexgrid's axial hexagon of side n, centre
(0, 0)) holding the consecutive integers first..first+N-1 once each, so that every straight
line in the three directions (2n-1 per direction) sums to the magic constant
M = N(2 first + N - 1) / (2(2n-1)). A Solution maps each cell (q, r) to its number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from ...core import hexgrid as hx
from ...core.errors import InputError

Cell = tuple[int, int]
# the three line directions: cells sharing r (rows), q (NW-SE lines), s = -q-r (NE-SW lines)
LINE_KINDS = ("row", "NW-SE line", "NE-SW line")


def cell_count(order: int) -> int:
    return 3 * order * (order - 1) + 1


def magic_sum(order: int, first: int) -> Fraction:
    n = cell_count(order)
    return Fraction(n * (2 * first + n - 1), 2 * (2 * order - 1))


def admissible_starts(order: int) -> tuple[int, list[int]]:
    """(period p, residues a) such that the magic sum is an integer iff first = a (mod p)."""
    period = 2 * (2 * order - 1)
    return period, [f for f in range(period) if magic_sum(order, f).denominator == 1]


def no_integer_sum(order: int, first: int) -> str:
    period, res = admissible_starts(order)
    return (f"no magic hexagon of order {order} starts at {first}: every line would have to sum "
            f"to {magic_sum(order, first)}, which is not an integer (an integer sum needs first = "
            f"{' or '.join(map(str, res))} mod {period})")


@dataclass
class MagicHexInstance:
    order: int
    first: int = 1
    givens: dict[Cell, int] = field(default_factory=dict)
    name: str = ""

    @property
    def n_cells(self) -> int:
        return cell_count(self.order)

    @property
    def last(self) -> int:
        return self.first + self.n_cells - 1

    @property
    def values(self) -> range:
        return range(self.first, self.last + 1)

    @property
    def magic_exact(self) -> Fraction:
        """The sum every line must reach, a fraction when `first` admits no solution."""
        return magic_sum(self.order, self.first)

    @property
    def magic(self) -> int:
        """The magic sum as the models take it; only puzzles past the precheck reach them."""
        exact = self.magic_exact
        if exact.denominator != 1:
            raise InputError(no_integer_sum(self.order, self.first))
        return exact.numerator

    @property
    def magic_text(self) -> str:
        return str(self.magic_exact)

    @cached_property
    def cells(self) -> list[Cell]:
        return hx.hexagon(self.order)

    @cached_property
    def rows(self) -> list[list[Cell]]:
        return hx.rows_of(self.cells)

    @cached_property
    def lines(self) -> list[tuple[str, list[Cell]]]:
        """(name, cells) of every straight line: rows, then NW-SE, then NE-SW lines."""
        out = []
        keys = (lambda c: c[1], lambda c: c[0], lambda c: -c[0] - c[1])
        for kind, key in zip(LINE_KINDS, keys, strict=True):
            groups: dict[int, list[Cell]] = {}
            for c in self.cells:
                groups.setdefault(key(c), []).append(c)
            for i, k in enumerate(sorted(groups), start=1):
                out.append((f"{kind} {i}", sorted(groups[k], key=lambda c: (c[1], c[0]))))
        return out

    @cached_property
    def corners(self) -> list[Cell]:
        """The six corners clockwise from the top-left one."""
        k = self.order - 1
        top_left = (0, -k)
        return [hx.rotate_cell(top_left, i) for i in range(6)]

    @cached_property
    def symmetries(self) -> list[list[int]]:
        """The 12 symmetries as index permutations: perm[i] = index of the image of cell i."""
        index = {c: i for i, c in enumerate(self.cells)}
        out = []
        for mirror in (False, True):
            for k in range(6):
                perm = []
                for c in self.cells:
                    img = hx.rotate_cell(hx.mirror_cell(c) if mirror else c, k)
                    perm.append(index[img])
                out.append(perm)
        return out
