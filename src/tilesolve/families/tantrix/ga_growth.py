"""Development and scoring of a Tantrix genome: the focal-colour growth rule.

A genome holds one block of three genes per tile (instance order) and one global gene:

    [prio_0, orient_0, shape_0, prio_1, orient_1, shape_1, ..., colour_choice]

* priority (8 bits): tiles are offered to the growing cluster in descending priority;
* orientation (3 bits): bit 0 says by which end of its focal arc a tile joins the line
  (which decides whether it turns left or right); the value mod 6 is the preferred rotation
  when a tile is placed away from the line;
* shape (4 bits): bit 0 picks the open line end to extend first; the rest picks the site
  among the free cells next to the cluster when a tile is placed away from the line, and the
  start cell on a fixed board;
* colour choice (2 bits): which colours the `any` goals get (one of the model's options).

Growth: the first tile in priority order is put down; then, again and again, the tiles still
in hand are tried in priority order at the open ends of the focal-colour line (the first goal
colour): the cell beyond the end, turned so the tile's focal arc continues the line. The first
placement that obeys the golden rule with every neighbour (and the board) is taken. A loop may
only close when no focal-colour tile is left. When no tile fits at a line end, the first tile
in priority order that fits anywhere next to the cluster is put there. Growth stops when every
tile is down or none fits. The cluster is therefore connected and obeys the golden rule by
construction; what remains to be earned is one line per goal, closed loops and no holes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...core import hexgrid as hx
from . import catalogue as cat
from .instance import TantrixInstance, goal_colour_options, triangle

Hex = tuple[int, int]
GENES_PER_TILE = 3
PRIO, ORIENT, SHAPE = 0, 1, 2
GENE_BITS = (8, 3, 4)  # bits of the priority, orientation and shape genes
CHOICE_BITS = 2
COLOUR_INDEX = {c: i for i, c in enumerate(cat.COLOURS)}
DIRS = hx.DIRECTIONS
OPP = (3, 4, 5, 0, 1, 2)
SOLVED_BONUS = 10.0  # added to the shaped score of a decoded cluster that meets every rule


@dataclass
class Grown:
    """A developed genome: the placements (cell -> (tile index, rot)) and tiles left over."""

    board: dict[Hex, tuple[int, int]]
    unplaced: list[int]


@dataclass
class Score:
    fitness: float
    solved: bool
    placed: int
    segments: int  # goal-colour line pieces, summed over the goals
    holes: int  # enclosed empty regions


class Grower:
    """Develops genomes of one instance into clusters and scores them."""

    w_compact = 1.5  # weight of compactness
    w_hole = 1.0  # full penalty, reached at hole_cap enclosed regions
    hole_cap = 2

    def __init__(self, inst: TantrixInstance) -> None:
        self.inst = inst
        self.n = inst.n
        self.length = GENES_PER_TILE * self.n + 1
        # edge colour index, per tile index and rotation, per edge
        self.edge = [
            [tuple(COLOUR_INDEX[c] for c in cat.edges(t, rot)) for rot in range(6)]
            for t in inst.tiles
        ]
        self.options = [tuple(COLOUR_INDEX[c] for c in opt) for opt in goal_colour_options(inst)]
        self.kinds = [g.kind for g in inst.goals]
        cells = inst.cells()
        self.allowed: set[Hex] | None = set(cells) if cells is not None else None
        self.start_cells: list[Hex] = sorted(cells) if cells is not None else [(0, 0)]
        self.carriers = [
            sum(1 for rots in self.edge if c in rots[0]) for c in range(len(cat.COLOURS))
        ]
        self.max_adjacent = max_adjacencies(self.n)

    # ------------------------------------------------------------------ genome helpers
    def gene_max(self) -> list[int]:
        """Exclusive upper bound of each gene."""
        per_tile = [1 << b for b in GENE_BITS]
        return per_tile * self.n + [1 << CHOICE_BITS]

    def gene_bits(self) -> list[int]:
        return list(GENE_BITS) * self.n + [CHOICE_BITS]

    def colours_of(self, genome) -> tuple[int, ...]:
        """The goal colours under this genome's colour choice (empty without goals)."""
        if not self.options:
            return ()
        return self.options[int(genome[-1]) % len(self.options)]

    def focal_arc(self, i: int, focal: int) -> tuple[int, int] | None:
        """The edges of tile i (unturned) that carry the focal colour."""
        ends = [d for d, c in enumerate(self.edge[i][0]) if c == focal]
        return (ends[0], ends[1]) if ends else None

    def arc_angle(self, i: int, focal: int) -> int:
        """The bin of a tile for priority swapping: 1 corner, 2 bend, 3 straight, 0 none."""
        arc = self.focal_arc(i, focal)
        if arc is None:
            return 0
        gap = (arc[1] - arc[0]) % 6
        return min(gap, 6 - gap)

    # ------------------------------------------------------------------ development
    def grow(self, genome) -> Grown:
        g = [int(x) for x in genome]
        colours = self.colours_of(g)
        return Growth(self, colours[0] if colours else -1).run(g)

    # ------------------------------------------------------------------ scoring
    def score(self, genome, mode: str = "sum") -> Score:
        grown = self.grow(genome)
        return self.judge(grown, self.colours_of(genome), mode)

    def judge(self, grown: Grown, colours: tuple[int, ...], mode: str) -> Score:
        """Shaped fitness (higher is better) plus SOLVED_BONUS when every rule holds.

        Terms: share of tiles placed; per goal, how much of its colour one line holds (F_max:
        the longest piece; F_sum: the sum of squared piece lengths, which also rewards few long
        pieces over many short ones) and how close a loop is to closing (or, for an open line,
        that it is open); compactness (touching pairs against the most n hexagons can have);
        and a penalty per enclosed empty region.
        """
        board = grown.board
        placed = len(board)
        fit = placed / self.n
        pieces_total = 0
        found = {}
        for colour in {*colours, *(c for opt in self.options for c in opt)}:
            found[colour] = self.lines(board, colour)
        for colour, kind in zip(colours, self.kinds, strict=True):
            pieces = found[colour]
            pieces_total += len(pieces)
            want = max(1, self.carriers[colour])
            if mode == "max":
                share = max((size for size, _, _ in pieces), default=0) / want
            else:
                share = sum(size * size for size, _, _ in pieces) / (want * want)
            size, closed, gap = max(pieces, default=(0, False, 0))
            if kind == "loop":
                close = 1.0 if closed else 1.0 / (2 + gap)
            else:
                close = 0.0 if closed else 1.0
            fit += (share + close) / len(colours)
        touching = sum(
            1 for (q, r) in board for dq, dr in DIRS[:3] if (q + dq, r + dr) in board
        )
        holes = count_holes(board)
        best_touch = self.max_adjacent
        if colours and self.kinds[0] == "loop" and self.carriers[colours[0]] == self.n >= 3:
            # a loop through every tile without holes has exactly 2n - 3 touching pairs
            best_touch = 2 * self.n - 3
            touching = min(touching, best_touch)
        fit += self.w_compact * touching / best_touch if best_touch else 0.0
        fit -= self.w_hole * min(holes, self.hole_cap) / self.hole_cap
        solved = placed == self.n and holes == 0
        if self.inst.shape == "triangle":
            solved = solved and set(board) == set(triangle(self.inst.size or 0))
        if self.options:  # some colour choice (not only this genome's) meets every goal
            solved = solved and any(self.goals_met(found, opt) for opt in self.options)
        if solved:
            fit += SOLVED_BONUS
        return Score(fit, solved, placed, pieces_total, holes)

    def goals_met(self, found: dict[int, list[tuple]], colours: tuple[int, ...]) -> bool:
        """Does each goal's colour form one line through all its arcs, closed iff a loop?"""
        for colour, kind in zip(colours, self.kinds, strict=True):
            pieces = found[colour]
            if len(pieces) != 1 or pieces[0][0] != self.carriers[colour]:
                return False
            if pieces[0][1] != (kind == "loop"):
                return False
        return True

    def lines(self, board: dict[Hex, tuple[int, int]], colour: int) -> list[tuple]:
        """Pieces of one colour's lines: (tiles, closed, gap between the open ends)."""
        edge = self.edge
        carriers = {c for c, (i, rot) in board.items() if colour in edge[i][0]}
        out = []
        seen: set[Hex] = set()
        for start in carriers:
            if start in seen:
                continue
            seen.add(start)
            stack, size, opens = [start], 0, []
            while stack:
                cell = stack.pop()
                size += 1
                i, rot = board[cell]
                for d in range(6):
                    if edge[i][rot][d] != colour:
                        continue
                    nb = (cell[0] + DIRS[d][0], cell[1] + DIRS[d][1])
                    if nb in carriers:
                        if nb not in seen:
                            seen.add(nb)
                            stack.append(nb)
                    else:
                        opens.append(nb)
            gap = hx.distance(opens[0], opens[1]) if len(opens) == 2 else 0
            out.append((size, not opens, gap))
        return out

    def solution(self, grown: Grown) -> dict[Hex, tuple[int, int]]:
        """The cluster as a Solution: cell -> (tile number, rot)."""
        return {cell: (self.inst.tiles[i], rot) for cell, (i, rot) in grown.board.items()}

class Growth:
    """One development of a genome by the focal-colour rule (see the module's docstring).

    The state is the board so far, the open ends of the focal-colour line (cell, edge,
    segment) and how many focal-colour tiles are still in hand; each step of the rule is a
    method that can be tried on its own: `fits` (the golden rule at a cell), `put` (place a
    tile and join or open line ends), `at_ends` (a placement continuing an open end) and
    `anywhere` (the first site next to the cluster where a tile fits)."""

    def __init__(self, grower: Grower, focal: int) -> None:
        self.edge = grower.edge
        self.allowed = grower.allowed
        self.start_cells = grower.start_cells
        self.focal = focal
        self.board: dict[Hex, tuple[int, int]] = {}
        self.ends: list[tuple[Hex, int, int]] = []  # open focal-line ends: (cell, edge, segment)
        self.focal_left = sum(1 for rots in self.edge if focal in rots[0])
        self.closing_ok = grower.kinds[:1] == ["loop"]

    def run(self, g: list[int]) -> Grown:
        """Place the first tile in priority order, then one tile at a time: the first in
        priority order that continues an open end, else the first that fits anywhere."""
        order = sorted(range(len(self.edge)), key=lambda i: (-g[3 * i], i))
        first = order[0]
        start = self.start_cells[(g[3 * first + SHAPE] >> 1) % len(self.start_cells)]
        self.put(first, g[3 * first + ORIENT] % 6, start, 0)
        hand = order[1:]
        next_seg = 1
        while hand:
            chosen = None
            for i in hand:
                got = self.at_ends(i, g[3 * i + ORIENT], g[3 * i + SHAPE] & 1)
                if got is not None:
                    chosen = (i, got)
                    break
            if chosen is None:
                for i in hand:
                    got = self.anywhere(i, g[3 * i + ORIENT], g[3 * i + SHAPE])
                    if got is not None:
                        chosen = (i, (got[0], got[1], next_seg))
                        next_seg += 1
                        break
            if chosen is None:
                break
            i, (rot, cell, seg) = chosen
            self.put(i, rot, cell, seg)
            hand.remove(i)
        return Grown(self.board, hand)

    def fits(self, i: int, rot: int, cell: Hex) -> bool:
        """Tile i turned `rot` may lie at `cell`: on the board, touching edges of one colour."""
        if self.allowed is not None and cell not in self.allowed:
            return False
        mine = self.edge[i][rot]
        q, r = cell
        for d in range(6):
            other = self.board.get((q + DIRS[d][0], r + DIRS[d][1]))
            if other is not None and self.edge[other[0]][other[1]][OPP[d]] != mine[d]:
                return False
        return True

    def put(self, i: int, rot: int, cell: Hex, seg: int) -> None:
        """Place tile i; its focal arc joins the open ends it meets (their segments merge
        into `seg`) and opens the ends that face empty cells."""
        self.board[cell] = (i, rot)
        mine = self.edge[i][rot]
        if self.focal not in mine:
            return
        self.focal_left -= 1
        ends = self.ends
        q, r = cell
        joined, fresh = [], []
        for d in range(6):
            if mine[d] == self.focal:
                nb = (q + DIRS[d][0], r + DIRS[d][1])
                if nb in self.board:  # golden rule: the neighbour's end there is open
                    joined.append(next(k for k, e in enumerate(ends)
                                       if e[0] == nb and e[1] == OPP[d]))
                else:
                    fresh.append((cell, d, seg))
        merged = {ends[k][2] for k in joined}
        for j, e in enumerate(ends):
            if e[2] in merged:
                ends[j] = (e[0], e[1], seg)
        if len(joined) == 1 and fresh:
            ends[joined[0]] = fresh[0]  # the line grew: its end keeps its place
            return
        for k in sorted(joined, reverse=True):
            ends.pop(k)
        ends.extend(fresh)

    def at_ends(self, i: int, o: int, s: int) -> tuple[int, Hex, int] | None:
        """A placement (rot, cell, segment) of tile i continuing an open focal end, trying
        the ends from the s-th and the arc's end picked by bit 0 of o first; None if none."""
        mine = self.edge[i][0]
        arc = [d for d in range(6) if mine[d] == self.focal]
        ends = self.ends
        if not arc or not ends:
            return None
        m = len(ends)
        for k in range(m):
            cell, d, seg = ends[(s + k) % m]
            target = (cell[0] + DIRS[d][0], cell[1] + DIRS[d][1])
            if target in self.board:
                continue
            entry = OPP[d]
            for a in (arc[o & 1], arc[1 - (o & 1)]):
                rot = (entry - a) % 6
                if not self.fits(i, rot, target):
                    continue
                exit_edge = (arc[0] + arc[1] - a + rot) % 6
                beyond = (target[0] + DIRS[exit_edge][0], target[1] + DIRS[exit_edge][1])
                closes = beyond in self.board and any(e[0] == beyond and e[2] == seg
                                                      for e in ends)
                if closes and not (self.closing_ok and self.focal_left == 1):
                    continue  # a loop closes only with the last focal tile
                return rot, target, seg
        return None

    def anywhere(self, i: int, o: int, s: int) -> tuple[int, Hex] | None:
        """The first site next to the cluster (from the shape gene s) where tile i fits, in
        the first rotation from o that fits."""
        board = self.board
        sites = sorted({
            (c[0] + dq, c[1] + dr) for c in board for dq, dr in DIRS
        } - board.keys(), key=lambda c: (c[1], c[0]))
        if self.allowed is not None:
            sites = [c for c in sites if c in self.allowed]
        m = len(sites)
        for k in range(m):
            cell = sites[((s >> 1) + k) % m]
            for j in range(6):
                rot = (o + j) % 6
                if self.fits(i, rot, cell):
                    return rot, cell
        return None



def max_adjacencies(n: int) -> int:
    """The most touching pairs n hexagons can have (Harary and Harborth)."""
    if n < 2:
        return 0
    return 3 * n - math.ceil(math.sqrt(12 * n - 3))


def count_holes(board) -> int:
    """Enclosed empty regions of a connected cluster, by Euler's formula.

    Cells are faces; with A touching pairs and T triples of mutually touching cells (shared
    corners), V - E + F = F - A + T = 1 - holes.
    """
    touching = triples = 0
    for q, r in board:
        e, se, sw = (q + 1, r) in board, (q, r + 1) in board, (q - 1, r + 1) in board
        touching += e + se + sw
        triples += (e and se) + (se and sw)
    return 1 - len(board) + touching - triples if board else 0
