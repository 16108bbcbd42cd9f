"""Blackwood's colour-exhaustion rule (`--colour-rule`, with `--break-rule blackwood`).

A few chosen colours must be used up early: up to and including depth d of the scan, the
pieces placed must carry at least floor(d) sides of those colours (each piece counts all four
of its sides, whatever their joins). The floor rises piecewise linearly from depth 17 to depth
160 of Eternity II's 256 cells, where 119 of the three colours' 122 sides must be down; from
there on there is no floor. Using these colours up in the exact part of the scan leaves the
last rows, where the breaks fall, fewer colours to meet. With the rule on, every candidate
list is ordered by the chosen colours' sides on the piece, most first (random among equals),
as Blackwood's lists are, so that the first candidate short of the floor ends its list.

The colours are Blackwood's on the official set (`blackwood`): libblackwood's scenarios
jb466-jb471 all use its colours 9, 12 and 15, one frame colour and two inner ones, which
are 20, 5 and 7 in this package's numbering of the official pieces (e2_256.txt; the mapping is
a bijection of the two piece lists in the same order and orientation). libblackwood picks the
triple by trial: its statistics mode runs every choice of one frame colour and two inner
colours for a fixed time. On other boards the colours are given (`--colour-rule 1,7,9`), and
the floor is Blackwood's scaled: depth by cells / 256, count by the chosen colours' sides /
122.
"""

from __future__ import annotations

import numpy as np

from ...core.errors import InputError
from .instance import EdgeInstance
from .official import is_official

# the chosen colours on the official set (this package's numbering): frame colour 5, inner 7, 20
BLACKWOOD_COLOURS = (5, 7, 20)
# the knots of the floor of libblackwood's jb470 scenario on 256 cells, (0-based depth, sides
# of the three colours on depths 0..d): linear between them, rounded down; 0 outside 17..160.
# Its own table rounds each piece separately: this one is within one side of it at every depth.
FLOOR_KNOTS = ((16, 0.0), (26, 28.0), (56, 71.0), (76, 89.0), (102, 106.0), (160, 119.0))
FLOOR_CELLS, FLOOR_SIDES = 256, 122  # the board and the colours' sides the knots are for


def chosen(inst: EdgeInstance, value: str | tuple[int, ...] | None) -> tuple[int, ...]:
    """The colours the rule exhausts (none when off), checked against the board."""
    if value in (None, "off"):
        return ()
    if value == "blackwood":
        if not is_official(inst):
            raise InputError("--colour-rule blackwood names Blackwood's colours of the official "
                             "Eternity II set; on this board give the colours, e.g. "
                             "--colour-rule 1,7,9")
        return BLACKWOOD_COLOURS
    present = inst.colours() - {0}
    missing = [c for c in value if c not in present]
    if missing:
        raise InputError(f"--colour-rule: colour {missing[0]} is on no piece; expected colours "
                         f"from {sorted(present)}")
    return tuple(value)


def weights(inst: EdgeInstance, colours: tuple[int, ...]) -> np.ndarray:
    """weight[p] (0-based piece): the sides of piece p + 1 in the chosen colours."""
    return np.array([sum(c in colours for c in edges) for edges in inst.pieces], np.int32)


def floor(cells: int, sides: int) -> np.ndarray:
    """floor[d], the chosen colours' sides due on depths 0..d, for `cells` cells and colours
    with `sides` sides on the board: Blackwood's knots scaled to both."""
    x, y = (np.array(v, float) for v in zip(*FLOOR_KNOTS, strict=True))
    depth = np.arange(cells) * FLOOR_CELLS / cells
    due = np.floor(np.interp(depth, x, y) * sides / FLOOR_SIDES + 1e-9).astype(np.int32)
    due[(depth <= x[0]) | (depth > x[-1])] = 0
    return due
