"""The official Eternity II puzzle's own rules: the mandatory start piece and the four clues.

The published puzzle came with one mandatory piece (139 at square I8, i.e. row 8, column 7
counted from 0 at the top-left, turned twice clockwise) and four optional clue pieces, one per
clue puzzle. Every record board (467-470 matched joins) honours the start piece only, so a
piece list recognised as the official set gets the start piece fixed when it is read; the
clues are added on request (`--clues`). The set is recognised by a digest of its piece list
(N E S W per piece, in the official numbering and colours of e2.bucas.name).
"""

from __future__ import annotations

import hashlib

from .instance import Cell, EdgeInstance

DIGEST = "52f635a9b10adaa5a77c050ed68e264fe27edfc5b72dffdf09e097329d6de28b"
START: dict[Cell, tuple[int, int]] = {(8, 7): (139, 2)}  # I8
CLUES: dict[Cell, tuple[int, int]] = {
    (2, 2): (208, 3),  # C3
    (2, 13): (255, 3),  # C14
    (13, 2): (181, 3),  # N3
    (13, 13): (249, 0),  # N14
}


def digest(inst: EdgeInstance) -> str:
    text = "\n".join(" ".join(map(str, e)) for e in inst.pieces)
    return hashlib.sha256(text.encode()).hexdigest()


def is_official(inst: EdgeInstance) -> bool:
    return inst.width == inst.height == 16 and digest(inst) == DIGEST


def apply_rules(inst: EdgeInstance, clues: bool = False) -> EdgeInstance:
    """Fix the start piece (and the clues when asked) on the official set, unless the file
    fixes pieces itself; other instances come back unchanged."""
    if not is_official(inst):
        return inst
    if not inst.fixed:
        inst.fixed.update(START)
    if clues:
        inst.fixed.update(CLUES)
    return inst
