"""What the exact --objective longest models share (CP-SAT, MILP, SAT): the board they fill and,
per goal, the piece they pick.

The tiles fill `region.score_board` exactly (a full board is connected and has no holes, so
only the golden rule is left of the placement rules); the goals are scored, not required.
Per goal colour k a model picks cells: on[c, k] says cell c's k-arc belongs to the picked
piece. The rules every model states:
- a picked cell's tile carries k;
- closure: a picked cell whose k-arc crosses a shared edge has its neighbour picked too, so
  the picked cells are whole pieces, never a part of one;
- a loop goal: a picked cell's k-arc never faces off the board (the piece is closed);
  a line goal: some picked cell's k-arc faces off the board (the piece is open);
- one piece: the picked cells are connected through their k-links (each model states this
  its own way: a circuit, a flow, or lazily by `apart` below).
Each model maximises the picked cells; every solution is then a valid placement whose score
is at least the objective (the longest piece is at least the picked one).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import permutations

from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.result import Outcome, Solution, Status
from . import catalogue as cat
from .check import colour_lines
from .instance import TantrixInstance
from .region import Layout, score_board

Hex = hx.Hex


def score_layout(inst: TantrixInstance, backend: str) -> Layout:
    """The full board an exact model fills for --objective longest, with the goals dropped
    from the placement rules (they are scored)."""
    if any(g.colour == "any" for g in inst.goals):
        raise InputError(f"{backend}'s --objective longest needs goal colours given (no 'any')")
    if not inst.goals:
        raise InputError("--objective longest scores goal lines; the instance has none")
    return Layout(replace(inst, goals=[]), score_board(inst), all_filled=True)


def on_board(out: Outcome, inst: TantrixInstance, lay: Layout) -> Outcome:
    """A model's answer as the puzzle reads it: an optimum on the chosen board of a free
    shape is FEASIBLE (other shapes may score more), SOLVED where the instance fixes it."""
    out.stats["board_cells"] = len(lay.cells)
    if out.status == Status.SOLVED and inst.shape == "free":
        out.stats["optimal_on_board"] = True  # the best on this board, not over all shapes
        out.status = Status.FEASIBLE
    return out


@dataclass
class Pick:
    """One goal's piece: its colour, whether it is a line, and the board's edges of colour k."""

    colour: str
    line: bool
    cells: list[Hex]  # cells where some placement carries the colour
    pairs: list[tuple[Hex, int, Hex]]  # touching pairs (a, d, b) with a and b in `cells`
    outward: list[tuple[Hex, int]]  # (cell, d): edge d of the cell faces off the board


def picks(inst: TantrixInstance, lay: Layout) -> list[Pick]:
    """One Pick per goal of the instance, on its `score_layout`."""
    return [pick(lay, g.colour, g.kind == "line") for g in inst.goals]


def pick(lay: Layout, k: str, line: bool) -> Pick:
    cells = [c for c in lay.cells if any(k in cat.colours(t) for t, _rot in lay.placements(c))]
    mine = set(cells)
    pairs = [(a, d, b) for a, d, b in lay.pairs if a in mine and b in mine]
    outward = [(c, d) for c in cells for d in range(6) if not lay.inside(hx.neighbour(c, d))]
    return Pick(k, line, cells, pairs, outward)


@dataclass
class Apart:
    """A picked piece `piece` of colour k while `other` (a cell of another picked piece) is
    picked too; `border`: the edges (cell, d) from the piece to board cells outside it."""

    colour: str
    piece: list[Hex]
    other: Hex
    border: list[tuple[Hex, int]]


def apart(lay: Layout, sol: Solution, picked: dict[str, set[Hex]]) -> list[Apart]:
    """For each colour whose picked cells lie on more than one piece of its lines, each piece
    with a cell of another. The cut a model adds for each: not every cell of the piece and the
    other cell picked, or some k-link crosses the piece's border. Sound: in a solution the
    picked cells are one piece, so one that holds the piece and the other cell has a k-link
    leaving the piece's cells."""
    out = []
    for k, cells in picked.items():
        pieces = [sorted(p) for p in colour_lines(sol, k).pieces if p & cells]
        if len(pieces) < 2:
            continue
        for i, piece in enumerate(pieces):
            inside = set(piece)
            other = pieces[(i + 1) % len(pieces)][0]
            border = [(c, d) for c in piece for d in range(6)
                      if lay.inside(hx.neighbour(c, d)) and hx.neighbour(c, d) not in inside]
            out.append(Apart(k, piece, other, border))
    return out


def one_kind_each(inst: TantrixInstance) -> str | None:
    """The goals' kind ('loop' or 'line') when each of the four colours has one goal and all
    are of that kind (the Loop puzzle, the Curve puzzle); else None."""
    kinds = {g.kind for g in inst.goals}
    colours = sorted(g.colour for g in inst.goals)
    return kinds.pop() if len(kinds) == 1 and colours == sorted(cat.COLOURS) else None


def colour_free(inst: TantrixInstance) -> bool:
    """Whether painting every colour of a board another (any of the 24 permutations of the
    four) gives a board of the same score: a goal of one kind in each colour, and tiles that
    every permutation maps onto themselves (the 56-tile set: each set of three colours holds
    all 14 patterns)."""
    if one_kind_each(inst) is None:
        return False
    counts = inst.counts()
    return all(counts[cat.recoloured(t, tuple(zip(cat.COLOURS, perm, strict=True)))] == n
               for perm in permutations(cat.COLOURS) for t, n in counts.items())


def first_colouring(tile: int, rot: int) -> bool:
    """Whether the turned tile is the one of its 24 recolourings that misses red, shows
    yellow at edge 0 and blue at the first edge off the yellow line. Exactly one is, so a
    colour-free puzzle (`colour_free`) keeps a board of every score when one cell is limited
    to these placements: some recolouring of any board puts one there."""
    shown = cat.edges(tile, rot)
    after = next(c for c in shown if c != shown[0])
    return "red" not in shown and shown[0] == "yellow" and after == "blue"
