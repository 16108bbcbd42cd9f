"""Kino & Uno's "challenge n": the 10 tiles of the Tantrix Discovery box, numbered again from 1
after 10, every tile in one loop of the designated colour.

The designated colour is "the one in which the lowest digit of the challenge number is written"
on the back of the tile with that digit (0 meaning 10). The Discovery box prints its numbers
in its own colours, which differ from the 56-tile set for two tiles: 7 is red there (blue in
the full set) and 10 is blue (red in the full set). So challenge 20 is blue, as in the
paper's Figure 10, and challenge 17 red.
"""

from __future__ import annotations

import math

from ...core import hexgrid as hx
from .instance import Goal, TantrixInstance

DISCOVERY_BACKS = {1: "yellow", 2: "yellow", 3: "yellow", 4: "red", 5: "red",
                   6: "blue", 7: "red", 8: "blue", 9: "yellow", 10: "blue"}


def challenge_tiles(n: int) -> list[int]:
    """Tile i of the ten is used ceil((n + 1 - i) / 10) times (the paper's C2')."""
    return [i for i in range(1, 11) for _ in range(math.ceil((n + 1 - i) / 10))]


def challenge_colour(n: int) -> str:
    """The back colour of the lowest digit's tile (n mod 10, or 10)."""
    return DISCOVERY_BACKS[n % 10 or 10]


def challenge_instance(n: int, board=None) -> TantrixInstance:
    """Challenge n as a free shape, or on `board` (a list of cells) when given."""
    goals = [Goal("loop", challenge_colour(n))]
    if board is None:
        return TantrixInstance(challenge_tiles(n), goals)
    cells = sorted(board, key=lambda c: (c[1], c[0]))
    return TantrixInstance(challenge_tiles(n), goals, shape="board", board=cells)


# ---------------------------------------------------------------------- the paper's board shapes
# Kino & Uno's boards are shapes people had cleared (not published). What their text fixes:
# no hole; the official record condition of its footnote (`record_shape`); and places with
# only two neighbours on the board, which touch each other (Figure 11: only a tile with a
# 120-degree designated line fits there, constraint C6). `tips_wanted` is how many of those
# our paper-shaped boards carry (scripts/make_tantrix_instances.py --paper-shape).


def tips_wanted(n: int) -> int:
    """One two-neighbour place per five tiles, about the most a red challenge allows: each
    needs a tile with a 120-degree designated line, and for red only tiles 2 and 3, a fifth
    of the tiles, have one. Our compact boards have 2-4 such places at n = 5..60."""
    return math.ceil(n / 5)


def two_neighbour_places(cells) -> list[tuple]:
    """(place, touching) for each place with exactly two neighbours on the board; touching:
    the two neighbours touch each other (the paper's Figure 11)."""
    inside = set(cells)
    out = []
    for c in sorted(inside, key=lambda c: (c[1], c[0])):
        ds = [d for d in range(6) if hx.neighbour(c, d) in inside]
        if len(ds) == 2:
            out.append((c, (ds[1] - ds[0]) % 6 in (1, 5)))
    return out


def record_shape(cells) -> bool:
    """The record condition of the paper's footnote: let x be the most tiles in one row along
    any of the three axes, A that row's axis; along each of the two other axes, more than 75%
    of the rows hold more than 0.3 x tiles (this rules out long thin strips)."""
    axes = (lambda c: c[1], lambda c: c[0], lambda c: c[0] + c[1])  # rows along E, SE, SW
    rows = []
    for key in axes:
        sizes: dict[int, int] = {}
        for c in cells:
            sizes[key(c)] = sizes.get(key(c), 0) + 1
        rows.append(list(sizes.values()))
    x = max(max(r) for r in rows)
    a = next(i for i, r in enumerate(rows) if max(r) == x)
    return all(sum(s > 0.3 * x for s in r) > 0.75 * len(r)
               for i, r in enumerate(rows) if i != a)
