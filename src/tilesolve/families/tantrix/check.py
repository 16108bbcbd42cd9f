"""Checking a Tantrix cluster: the tile multiset, the shape, the golden rule, connection, holes
and the goal lines (or, under `--objective longest`, Downing's score); and the cluster's key up
to rotation and translation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from ...core import hexgrid as hx
from ...core.report import Report
from ...core.result import Solution
from . import catalogue as cat
from .instance import Hex, TantrixInstance, goal_colour_options, shape_key, triangle


def components(cells: Iterable[Hex]) -> list[set[Hex]]:
    """Groups of cells connected through shared edges, largest first."""
    left = set(cells)
    out = []
    while left:
        start = left.pop()
        comp, stack = {start}, [start]
        while stack:
            for nb in hx.neighbours(stack.pop()):
                if nb in left:
                    left.remove(nb)
                    comp.add(nb)
                    stack.append(nb)
        out.append(comp)
    return sorted(out, key=lambda c: (-len(c), min(c)))


def holes(cells: Iterable[Hex]) -> list[set[Hex]]:
    """Groups of empty cells enclosed by the given cells, largest first.

    A flood from each empty neighbour: a region enclosed by n cells has a boundary of at most n
    cells and so fewer than n^2 cells, and a region that grows past that (or meets one that
    did) reaches far away. Not the cluster's bounding box: one tile at q = 10^9 made that box
    take 99 s and 6.4 GB in `verify`."""
    filled = set(cells)
    limit = len(filled) ** 2
    outside: set[Hex] = set()
    out: list[set[Hex]] = []
    for cell in filled:
        for start in hx.neighbours(cell):
            if start in filled or start in outside or any(start in h for h in out):
                continue
            region, stack, enclosed = {start}, [start], True
            while stack and enclosed:
                for nb in hx.neighbours(stack.pop()):
                    if nb in filled or nb in region:
                        continue
                    if nb in outside or len(region) >= limit:
                        enclosed = False
                        break
                    region.add(nb)
                    stack.append(nb)
            if enclosed:
                out.append(region)
            else:
                outside |= region
    return sorted(out, key=lambda c: (-len(c), min(c)))


@dataclass
class ColourLines:
    """The lines one colour draws on a placed cluster: pieces, closed ones, open ends."""

    colour: str
    pieces: list[set[Hex]]  # cells of each connected line
    closed: list[bool]  # is the piece a closed loop
    ends: list[tuple[Hex, int]]  # (cell, edge) where a line ends open

    def check(self, kind: str) -> str | None:
        """None when the colour forms exactly one loop (kind 'loop') or one open line."""
        if not self.pieces:
            return f"no {self.colour} lines on the placed tiles; expected one {kind}"
        loops = sum(self.closed)
        lines = len(self.pieces) - loops
        if len(self.pieces) > 1:
            return (f"{self.colour} forms {len(self.pieces)} separate lines ({loops} closed, "
                    f"{lines} open); expected one {kind} through every {self.colour} arc")
        if kind == "loop" and not self.closed[0]:
            ends = ", ".join(f"{c} edge {hx.DIRECTION_NAMES[d]}" for c, d in self.ends)
            return f"{self.colour} forms an open line (ends at {ends}); expected a closed loop"
        if kind == "line" and self.closed[0]:
            return f"{self.colour} forms a closed loop; expected an open line"
        return None


def colour_lines(sol: Solution, colour: str) -> ColourLines:
    """Follow the lines of one colour across the placed tiles."""
    ends_of = {cell: cat.arc(t, rot, colour) for cell, (t, rot) in sol.items()}
    ends_of = {c: e for c, e in ends_of.items() if e is not None}
    open_ends = []
    links: dict[Hex, list[Hex]] = {c: [] for c in ends_of}
    for cell, pair in ends_of.items():
        for d in pair:
            nb = hx.neighbour(cell, d)
            if nb in ends_of and hx.opposite(d) in ends_of[nb]:
                links[cell].append(nb)
            else:
                open_ends.append((cell, d))
    pieces, closed = [], []
    open_cells = {c for c, _ in open_ends}
    for comp in components_in(links):
        pieces.append(comp)
        closed.append(not comp & open_cells)
    return ColourLines(colour, pieces, closed, sorted(open_ends))


def components_in(links: dict[Hex, list[Hex]]) -> list[set[Hex]]:
    """Connected components of an adjacency mapping."""
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(links)
    g.add_edges_from((a, b) for a, nbs in links.items() for b in nbs)
    return sorted((set(c) for c in nx.connected_components(g)), key=lambda c: (-len(c), min(c)))



def goal_problems(inst: TantrixInstance, sol: Solution) -> list[str]:
    """Messages for the goal lines; empty when some colour choice satisfies every goal."""
    if not inst.goals:
        return []
    lines = {c: colour_lines(sol, c) for c in cat.COLOURS}
    best: list[str] | None = None
    for choice in goal_colour_options(inst):
        msgs = [m for g, c in zip(inst.goals, choice, strict=True)
                if (m := lines[c].check(g.kind)) is not None]
        if not msgs:
            return []
        if best is None or len(msgs) < len(best):
            best = msgs
            if any(g.colour == "any" for g in inst.goals):
                best = [f"goal {g}: {m}" for g, m in zip(inst.goals, msgs, strict=False)]
    return best or []


# --------------------------------------------------------------------------- the score
# Downing (2005, sec. 3.4) scores the two unsolved 56-tile puzzles by "the sum of the number of
# arcs used in the longest segment or loop of each color": the Loop puzzle counts closed loops,
# the Curve puzzle open lines. With `--objective longest` the goals become that score: each
# goal colour adds the tiles of its longest piece of the goal's kind (a tile holds one arc of
# each of its colours), and the goals no longer have to run through every arc.
LONGEST = "longest"
OBJECTIVES = (LONGEST,)


def longest_piece(lines: ColourLines, kind: str) -> int:
    """Tiles in the longest closed loop (kind 'loop') or open line (kind 'line'), else 0."""
    want_closed = kind == "loop"
    return max((len(p) for p, closed in zip(lines.pieces, lines.closed, strict=True)
                if closed == want_closed), default=0)


def score(inst: TantrixInstance, sol: Solution) -> int:
    """Downing's score: per goal, the longest piece of its kind in its colour, summed; goals of
    colour `any` take the distinct colours that score most."""
    lines = {c: colour_lines(sol, c) for c in cat.COLOURS}
    return max((sum(longest_piece(lines[c], g.kind) for g, c in zip(inst.goals, choice,
                                                                     strict=True))
                for choice in goal_colour_options(inst)), default=0)


def max_score(inst: TantrixInstance) -> int:
    """Every arc of every goal colour on its longest piece: 4 x 42 = 168 for the full set."""
    return max((sum(sum(1 for t in inst.tiles if c in cat.colours(t)) for c in choice)
                for choice in goal_colour_options(inst)), default=0)


# --------------------------------------------------------------------------- a shape's bound
# A tile's three arcs pair off its six edges, and an arc with an end on the cluster's outline
# (an edge with no tile beyond it) can lie on no loop and only at an end of a line: a cell with
# b such edges loses at least ceil(b / 2) arcs, whatever tile and turn it takes. So no board on
# a shape scores more than the arcs its cells keep, plus two end tiles per line goal. On the
# 56-tile Loop the compact board loses 31 arcs (at most 137; CP-SAT proved 130 there), and the
# manual's 136 needs a shape that loses at most 32 (lab/pages/tantrix_56.md).
def _lost(shape: set[Hex], c: Hex) -> int:
    """Arcs cell c of the shape loses: ceil(b / 2) for its b open edges."""
    return (sum(nb not in shape for nb in hx.neighbours(c)) + 1) // 2


def outline_loss(cells: Iterable[Hex]) -> int:
    """Arcs the shape loses at its outline, over all its cells."""
    shape = set(cells)
    return sum(_lost(shape, c) for c in shape)


def shape_room(inst: TantrixInstance, cells: Iterable[Hex]) -> int:
    """The arcs the cells keep (at most one per goal colour a cell) plus two end tiles per
    line goal, before the cap of the tiles' own arcs (`shape_bound`)."""
    shape = set(cells)
    goals = len(inst.goals)
    keep = sum(min(goals, 3 - _lost(shape, c)) for c in shape)
    return keep + 2 * sum(g.kind == "line" for g in inst.goals)


def shape_bound(inst: TantrixInstance, cells: Iterable[Hex]) -> int:
    """The highest score (`--objective longest`) any board on these cells can reach."""
    return min(max_score(inst), shape_room(inst, cells))


def verify(inst: TantrixInstance, sol: Solution, objective: str | None = None) -> Report:
    """Every violation: tile multiset, shape, golden rule, connection, holes, goal lines.

    With objective 'longest' the goal lines are scored (`score`) instead of required."""
    rep = Report()
    placed = Counter(t for t, _ in sol.values())
    want = inst.counts()
    for t in sorted(set(placed) | set(want)):
        if placed[t] < want[t]:
            rep.add("missing-tile", f"tile {t} is placed {placed[t]} time(s); expected {want[t]}")
        elif placed[t] > want[t]:
            where = sorted(c for c, (u, _) in sol.items() if u == t)
            rep.add("extra-tile", f"tile {t} is placed {placed[t]} time(s), at {where}; "
                    f"expected {want[t]}")
    for cell, (t, rot) in sorted(sol.items()):
        if not 0 <= rot <= 5 or t not in cat.TILES:
            rep.add("bad-placement", f"cell {cell}: tile {t} rotation {rot} does not exist")
    sol = {c: tr for c, tr in sol.items() if tr[0] in cat.TILES and 0 <= tr[1] <= 5}
    if inst.shape == "board":
        board = set(inst.board)
        for cell in sorted(set(sol) - board):
            rep.add("off-board", f"tile {sol[cell][0]} at {cell} lies off the board")
    elif inst.shape == "triangle" and inst.size is not None:
        if inst.place_count() != len(sol) or shape_key(sol) != shape_key(triangle(inst.size)):
            rep.add("shape", f"the tiles do not form a triangle of side {inst.size}")
    for cell, (t, rot) in sorted(sol.items()):
        mine = cat.edges(t, rot)
        for d in (0, 1, 2):  # each touching pair once
            nb = hx.neighbour(cell, d)
            if nb in sol:
                theirs = cat.edges(*sol[nb])[hx.opposite(d)]
                if mine[d] != theirs:
                    rep.add("mismatch", f"tile {t}/{rot} at {cell} shows {mine[d]} on its "
                            f"{hx.DIRECTION_NAMES[d]} edge, tile {sol[nb][0]}/{sol[nb][1]} at "
                            f"{nb} shows {theirs}")
    comps = components(sol)
    if len(comps) > 1:
        sizes = ", ".join(f"{len(c)} tile(s) around {min(c)}" for c in comps)
        rep.add("disconnected", f"the tiles form {len(comps)} separate groups: {sizes}")
    for h in holes(sol):
        rep.add("hole", f"{len(h)} empty cell(s) enclosed by tiles: {sorted(h)}")
    if objective == LONGEST:
        rep.score, rep.max_score = score(inst, sol), max_score(inst)
        rep.shape_bound = shape_bound(inst, sol)
        return rep
    for m in goal_problems(inst, sol):
        rep.add("goal", m)
    return rep


def canonical(inst: TantrixInstance, sol: Solution) -> Hashable:
    """Free shapes and triangles: the same up to translation and rotation of the cluster."""
    if inst.shape == "board":
        return frozenset(sol.items())
    keys = []
    for k in range(6):
        turned = {hx.rotate_cell(c, k): (t, (rot + k) % 6) for c, (t, rot) in sol.items()}
        if not turned:
            return ()
        q0, r0 = min(turned, key=lambda c: (c[1], c[0]))
        keys.append(tuple(((q - q0, r - r0), turned[(q, r)])
                          for q, r in sorted(turned, key=lambda c: (c[1], c[0]))))
    return min(keys)

