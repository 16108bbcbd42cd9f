"""The 56 Tantrix tiles, numbered as printed on their backs.

Each entry gives the colours at the six edges, seen face up as a pointy-topped hexagon, edges
clockwise from the upper right (0 NE, 1 E, 2 SE, 3 SW, 4 W, 5 NW), letters R(ed), Y(ellow),
B(lue), G(reen); and the colour the number is printed in (its back colour). Every colour on a
tile appears on exactly two edges, joined by one line. Rotating a tile clockwise by k steps
moves the colour of edge i to edge (i + k) % 6.
"""

from __future__ import annotations

from functools import cache

COLOURS = ("red", "yellow", "blue", "green")
LETTERS = {"R": "red", "Y": "yellow", "B": "blue", "G": "green"}
BACK_COLOURS = (*COLOURS, "white")
TILE_COUNT = 56

# number -> (edge colours 0..5, back colour)
TILES: dict[int, tuple[str, str]] = {
    1: ("YYBRBR", "yellow"),
    2: ("YYBRRB", "yellow"),
    3: ("YYRRBB", "yellow"),
    4: ("RYBYRB", "red"),
    5: ("YYRBBR", "red"),
    6: ("RBYBRY", "blue"),
    7: ("BBYRYR", "blue"),
    8: ("BBRYRY", "blue"),
    9: ("BYRYBR", "yellow"),
    10: ("YYRBRB", "red"),
    11: ("RRBYBY", "red"),
    12: ("RRYBYB", "yellow"),
    13: ("RRYBBY", "blue"),
    14: ("YYBBRR", "blue"),
    15: ("YYRGGR", "red"),
    16: ("RRYGGY", "red"),
    17: ("YYGRGR", "yellow"),
    18: ("YYRGRG", "red"),
    19: ("RRGYGY", "red"),
    20: ("RRYGYG", "yellow"),
    21: ("YYGGRR", "yellow"),
    22: ("YYGRRG", "yellow"),
    23: ("YYRRGG", "yellow"),
    24: ("RRBGGB", "red"),
    25: ("RRBBGG", "red"),
    26: ("RRGBBG", "red"),
    27: ("RRBGBG", "red"),
    28: ("RRGGBB", "red"),
    29: ("RRGBGB", "red"),
    30: ("BBRGGR", "red"),
    31: ("GGRYRY", "yellow"),
    32: ("YGYRGR", "green"),
    33: ("GGYRYR", "green"),
    34: ("YGRGYR", "green"),
    35: ("YGRYRG", "green"),
    36: ("GGRBRB", "green"),
    37: ("BBGRGR", "green"),
    38: ("BBRGRG", "green"),
    39: ("RBGBRG", "blue"),
    40: ("RGBGRB", "blue"),
    41: ("GGBRBR", "blue"),
    42: ("BRBGRG", "blue"),
    43: ("YYGGBB", "blue"),
    44: ("YGBYBG", "yellow"),
    45: ("YYBBGG", "green"),
    46: ("GGBYBY", "green"),
    47: ("GGYBBY", "green"),
    48: ("YYBGGB", "white"),
    49: ("BBGYYG", "white"),
    50: ("YBYGBG", "white"),
    51: ("YGYBGB", "white"),
    52: ("GGYBYB", "white"),
    53: ("YYGBGB", "white"),
    54: ("YYBGBG", "white"),
    55: ("BBGYGY", "white"),
    56: ("BBYGYG", "white"),
}


@cache
def edges(tile: int, rot: int = 0) -> tuple[str, ...]:
    """Colour names at edges 0..5 of `tile` turned clockwise by `rot` 60-degree steps."""
    base = TILES[tile][0]
    return tuple(LETTERS[base[(d - rot) % 6]] for d in range(6))


def back(tile: int) -> str:
    return TILES[tile][1]


def colours(tile: int) -> frozenset[str]:
    return frozenset(LETTERS[ch] for ch in TILES[tile][0])


@cache
def arc(tile: int, rot: int, colour: str) -> tuple[int, int] | None:
    """The two edges joined by the line of `colour` on the turned tile, or None."""
    ends = tuple(d for d, c in enumerate(edges(tile, rot)) if c == colour)
    return (ends[0], ends[1]) if ends else None


@cache
def recoloured(tile: int, mapping: tuple[tuple[str, str], ...]) -> int:
    """The tile whose lines are those of `tile` with each colour c painted mapping[c] (pairs
    of colour names). The 56 tiles hold every pattern of lines in each of the four sets of
    three colours, so every recolouring of a tile is a tile."""
    paint = dict(mapping)
    want = tuple(paint.get(c, c) for c in edges(tile))
    for t in TILES:
        if any(edges(t, rot) == want for rot in range(6)):
            return t
    raise ValueError(f"no tile shows tile {tile} recoloured by {dict(mapping)}")


def arc_kind(tile: int, colour: str) -> str | None:
    """'corner' (adjacent edges), 'bend' (two apart) or 'straight' (opposite), or None."""
    ends = arc(tile, 0, colour)
    if ends is None:
        return None
    return {1: "corner", 5: "corner", 2: "bend", 4: "bend", 3: "straight"}[ends[1] - ends[0]]
