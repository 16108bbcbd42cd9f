"""Tantrix puzzles that cannot be solved for a reason a count shows, before any search."""

from __future__ import annotations

from . import catalogue as cat
from .check import components, holes
from .instance import TantrixInstance

# The shortest loop on a hex grid runs through three cells around one corner.
SHORTEST_LOOP = 3


def reason(inst: TantrixInstance, objective: str | None = None) -> str | None:
    places = inst.place_count()  # counted: a triangle of side 10^9 is never listed
    if places is not None and places < inst.n:
        what = "board" if inst.shape == "board" else f"triangle of side {inst.size}"
        return f"{inst.n} tiles but the {what} has only {places} places"
    if inst.shape == "triangle" and places is not None and places > inst.n:
        return f"{inst.n} tiles cannot cover the {places:,} cells of a triangle of side " \
               f"{inst.size}"
    if inst.shape == "board":
        why = board_reason(inst)
        if why is not None:
            return why
    for goal in inst.goals:
        if goal.colour == "any":
            continue
        carriers = sum(1 for t in inst.tiles if goal.colour in cat.colours(t))
        if carriers == 0:
            return f"no tile carries {goal.colour}, so there is no {goal}"
        if goal.kind == "loop" and carriers < SHORTEST_LOOP:
            return (f"only {carriers} tile(s) carry {goal.colour}; a loop needs at least "
                    f"{SHORTEST_LOOP}")
    return None


def board_reason(inst: TantrixInstance) -> str | None:
    """A board whose cells alone rule out one cluster without holes, as the checker requires:
    the tiles need that many touching cells, and the board they fill exactly is the cluster.
    The models take one cluster for granted on a full board (CP-SAT states no flow there), so
    two separate cells holding two tiles came back from CP-SAT as an answer the checker
    refused, from the GA as a ValueError."""
    cells = set(inst.board)
    largest = len(components(cells)[0]) if cells else 0
    if largest < inst.n:
        return (f"the {inst.n} tiles must touch as one group, but the board's largest group of "
                f"touching cells has {largest} cell(s)")
    gaps = holes(cells) if len(cells) == inst.n else []
    if gaps:
        return (f"the {inst.n} tiles fill the board, whose cells enclose {len(gaps[0])} empty "
                f"cell(s) around {min(gaps[0])}; the tiles may not enclose a hole")
    return None
