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
