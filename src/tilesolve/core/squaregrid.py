"""Square-grid geometry. Cells are (row, col) with row 0 at the top; sides are N, E, S, W."""

from __future__ import annotations

from collections.abc import Iterator

N, E, S, W = 0, 1, 2, 3
SIDES = (N, E, S, W)
SIDE_NAMES = "NESW"
STEP = {N: (-1, 0), E: (0, 1), S: (1, 0), W: (0, -1)}
KING_STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def opposite(side: int) -> int:
    return (side + 2) % 4


def rotate_edges(edges: tuple[int, ...], rot: int) -> tuple[int, ...]:
    """Edges (N, E, S, W) of a piece turned `rot` quarter turns clockwise.

    Turning clockwise moves the old west edge to the north: new[s] = old[(s - rot) % 4].
    """
    return tuple(edges[(s - rot) % 4] for s in SIDES)


def cells(width: int, height: int) -> Iterator[tuple[int, int]]:
    for r in range(height):
        for c in range(width):
            yield r, c


def neighbour(cell: tuple[int, int], side: int) -> tuple[int, int]:
    dr, dc = STEP[side]
    return cell[0] + dr, cell[1] + dc


def inside(cell: tuple[int, int], width: int, height: int) -> bool:
    return 0 <= cell[0] < height and 0 <= cell[1] < width


def cell_kind(cell: tuple[int, int], width: int, height: int) -> str:
    """'corner', 'border' or 'inner', by how many sides face the frame."""
    r, c = cell
    out = (r == 0) + (r == height - 1) + (c == 0) + (c == width - 1)
    return "corner" if out >= 2 else "border" if out == 1 else "inner"


def frame_sides(cell: tuple[int, int], width: int, height: int) -> set[int]:
    """The sides of a cell that lie on the outer frame."""
    r, c = cell
    out = set()
    if r == 0:
        out.add(N)
    if r == height - 1:
        out.add(S)
    if c == 0:
        out.add(W)
    if c == width - 1:
        out.add(E)
    return out


def joins(width: int, height: int) -> Iterator[tuple[tuple[int, int], int, tuple[int, int]]]:
    """Every inner join as (cell, side, neighbour) with side E or S, row-major."""
    for r, c in cells(width, height):
        if c + 1 < width:
            yield (r, c), E, (r, c + 1)
        if r + 1 < height:
            yield (r, c), S, (r + 1, c)


def join_count(width: int, height: int) -> int:
    return width * (height - 1) + height * (width - 1)
