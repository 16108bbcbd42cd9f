"""Hex-grid geometry shared by every hex family.

Pointy-topped hexagons in horizontal rows, axial coordinates (q, r), r counted downwards.
Directions clockwise from the upper right: 0 NE, 1 E, 2 SE, 3 SW, 4 W, 5 NW. Edge d of a cell
touches edge (d + 3) % 6 of its neighbour in direction d.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Hex = tuple[int, int]
DIRECTIONS: tuple[Hex, ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
DIRECTION_NAMES = ("NE", "E", "SE", "SW", "W", "NW")


def opposite(d: int) -> int:
    return (d + 3) % 6


def neighbour(cell: Hex, d: int) -> Hex:
    dq, dr = DIRECTIONS[d]
    return cell[0] + dq, cell[1] + dr


def neighbours(cell: Hex) -> Iterator[Hex]:
    for d in range(6):
        yield neighbour(cell, d)


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate_cell(cell: Hex, k: int) -> Hex:
    """Rotate a cell about the origin by k clockwise 60-degree steps."""
    q, r = cell
    x, z = q, r
    y = -x - z
    for _ in range(k % 6):
        x, y, z = -z, -x, -y
    return x, z


def mirror_cell(cell: Hex) -> Hex:
    """Reflect across the vertical axis through the origin."""
    q, r = cell
    return -q - r, r


def normalise(cells: Iterable[Hex]) -> tuple[Hex, ...]:
    """Translate a set of cells so its smallest (r, q) cell sits at the origin; sorted."""
    pts = sorted(cells, key=lambda c: (c[1], c[0]))
    if not pts:
        return ()
    q0, r0 = pts[0]
    return tuple(sorted(((q - q0, r - r0) for q, r in pts), key=lambda c: (c[1], c[0])))


def hexagon(side: int) -> list[Hex]:
    """Cells of a regular hexagon with `side` cells per edge, in row order (top row first).

    Row i (0-based) has side + i cells for i < side, then shrinks; 3 side (side - 1) + 1 cells.
    The centre is (0, 0).
    """
    n = side - 1
    out = []
    for r in range(-n, n + 1):
        q_lo = max(-n, -n - r)
        q_hi = min(n, n - r)
        out.extend((q, r) for q in range(q_lo, q_hi + 1))
    return out


def rows_of(cells: Iterable[Hex]) -> list[list[Hex]]:
    """Group cells into rows (by r), each row sorted by q, rows top to bottom."""
    by_row: dict[int, list[Hex]] = {}
    for c in cells:
        by_row.setdefault(c[1], []).append(c)
    return [sorted(by_row[r]) for r in sorted(by_row)]


def pixel_center(cell: Hex, size: float = 1.0) -> tuple[float, float]:
    """Centre of a pointy-topped hex in pixel space (y downwards)."""
    q, r = cell
    x = size * (3**0.5) * (q + r / 2)
    y = size * 1.5 * r
    return x, y


def corners(center: tuple[float, float], size: float = 1.0) -> list[tuple[float, float]]:
    """The six corners of a pointy-topped hex, starting at the top, clockwise."""
    import math

    cx, cy = center
    return [
        (
            cx + size * math.cos(math.radians(-90 + 60 * i)),
            cy + size * math.sin(math.radians(-90 + 60 * i)),
        )
        for i in range(6)
    ]
