"""Tantrix puzzles that cannot be solved for a reason a count shows, before any search."""

from __future__ import annotations

from . import catalogue as cat
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
