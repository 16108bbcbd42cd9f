"""Downing's Tantrix-GA genome, its development into a cluster, and his fitness (2005, sec. 5).

Genome (integer genes; the bit widths are what bit mutation flips):

    [move_1 .. move_{k-1} | prio_1, orient_1, prio_2, orient_2, .., prio_k, orient_k]

* move (5 bits, read mod 6): the first neighbour of the newly placed tile to try, in
  Downing's compass S 0, SE 1, NE 2, N 3, NW 4, SW 5 (counter-clockwise). Shapes with fixed
  cells (a triangle) have no moves: the cells are filled in a fixed order (sec. 6.2).
* prio (7 bits): tiles are offered in ascending priority; equal priorities keep instance order
  (the text does not say; any fixed tie-break is equivalent).
* orient (8 bits): the first tile turns (gene mod 6) steps clockwise; a later tile with m >= 2
  orientations that fit takes the (gene mod m)-th of them, counted from 0 degrees clockwise
  (the text: "131 mod 2 = 1, so the latter rotation, 180 degrees, wins").

The widths are read off the paper's 30-tile run, "595 bits", "priority and orientation bits
begin at location 150": 29 moves of 5 bits and 30 pairs of 15 bits are 595, the only split
with equal move genes; the orientation values 65 and 131 of the worked example need 8 bits,
leaving 7 for the priority. (29 x 5 = 145, so the figure's "0-149" is a rounded label.)

Development (sec. 5): the first tile in priority order goes in the middle of the board. Then,
from the tile T placed last, the next move names T's first neighbour N1 to look at; if N1 is
taken or no focal-colour arc ends at it (from T or another neighbour of N1), the search goes
counter-clockwise around T to the first neighbour N* that is free and borders a focal arc;
if there is none, growth stops. N* and the neighbours after it counter-clockwise form the
candidate cells C; for each cell of C in turn, the tiles in hand are tried in priority order,
and the first tile with an orientation that fits is placed. A tile fits when every touching
edge has the same colour on both sides (the golden rule) and at least one touching edge has
a focal colour. Growth stops when every tile is placed or no cell of C takes any tile.

Pyramids (sec. 6.2): no moves; the cells are filled in a fixed order, "always taking the
next tile in the priority list that legally fits the current cell", i.e. by the golden rule;
a cell no tile fits ends the development. The text gives no order. The default, `middle`,
starts where every development starts, "in the middle of the board" (sec. 5), and goes out
ring by ring, each ring counter-clockwise from his South; like rows parallel to a side it
never puts a tile beside more than 3 placed ones (sec. 7.2). It is the order that gives
his Table 2: on the blue pyramid at 200/200, 17/20 solved at a mean generation of 54 (his
17/20 at 67.7) where row orders solve 0-2 of 20, because from the middle the first tile's
line runs both ways: of 300,000 random genomes 3.97% fill the whole pyramid (rows: 0.74%)
and 90 per million develop into a solution (rows: 17; lab/reproductions/downing.md).
`PyramidReading` selects the other orders: rows from
the apex or the base, each row left to right, right to left or alternating, the general
rule on the pyramid's cells ("grow", "moves"), sec. 7.2's "(and matches a focal color arc)"
(`focal`) and leaving an unfillable cell empty (`skip`).

Fitness (eq. 2 and 3): with M the average number of neighbours per placed tile, H the holes
and, per focal colour i, S_i the longest open segment and C_i the longest cycle (in tiles),

    F_sum = k_co M - k_ho H + sum_i (k_seg S_i + k_cyc C_i)
    F_max = k_co M - k_ho H + sum_i max(k_seg S_i, k_cyc C_i)

with k_co = k_seg = k_cyc = 1 and k_ho = 10, except the two-colour Super puzzles: F_max with
k_cyc = 1.5 for two loops (Professor) and 0 for two lines (Genius). "Any open cell in the
interior of the tantrix constitutes a hole": H counts enclosed empty cells (`holes="cells"`,
the literal reading; `holes="regions"` counts enclosed regions instead).

Beyond the paper, so that every instance of the family runs: an instance without goals has
no focal colour and a tile fits by the golden rule alone; a fixed board starts at its middle
cell and grows on its cells only; `any` goal colours are fixed before the run by Downing's
arc-counting test (a colour whose loop would need an odd number of 60-degree turns is out,
and so is one on fewer than three tiles; of those left, the colours on the most tiles).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...core import hexgrid as hx
from . import catalogue as cat
from .check import holes
from .ga_growth import COLOUR_INDEX, DIRS, OPP, Grower, Grown, count_holes
from .instance import TantrixInstance, goal_colour_options, triangle

Hex = tuple[int, int]
MOVE_BITS, PRIO_BITS, ORIENT_BITS = 5, 7, 8
EMPTY = -1
# pyramid cell orders (sec. 6.2 gives none): rows from the apex or from the base, each row
# left to right, right to left, or alternating ("snake": the second row right to left,
# "snake_lr": left to right); "middle": from the middle cell out, ring by ring; "grow": the
# general rule on the pyramid's cells, the next cell being the first free one in row order
# that borders a focal arc; "moves": move genes as for free shapes, growth kept on the
# pyramid's cells
PYRAMID_ORDERS = ("rows", "rows_rl", "snake", "snake_lr", "base", "base_rl", "base_snake",
                  "base_snake_lr", "middle", "grow", "moves")


@dataclass(frozen=True)
class PyramidReading:
    """How a pyramid is filled: the cell order, whether a tile must also touch a focal arc
    (sec. 7.2's "(and matches a focal color arc)"), and whether a cell no tile fits is left
    empty and the filling goes on (`skip`) instead of stopping there (sec. 5's rule)."""

    order: str = "middle"
    focal: bool = False
    skip: bool = False


def pyramid_cells(side: int, order: str = "rows") -> list[Hex]:
    """The cells of `triangle(side)` in a fixed filling order (PYRAMID_ORDERS but "moves")."""
    if order == "middle":
        return middle_out(triangle(side))
    rows = [[(q, r) for q in range(-r, 1)] for r in range(side)]  # apex first, left to right
    if order.startswith("base"):
        rows = rows[::-1]
    kind = order.removeprefix("base").removeprefix("_") or "rows"
    out: list[Hex] = []
    for i, row in enumerate(rows):
        flip = {"rows": False, "rows_rl": True, "grow": False, "snake": i % 2 == 1,
                "snake_lr": i % 2 == 0, "rl": True}[kind]
        out += row[::-1] if flip else row
    return out


def middle_out(cells: list[Hex]) -> list[Hex]:
    """`cells` from the middle out: first the cell nearest their centre (the first in row
    order among equals), then ring by ring (hex distance from it), each ring
    counter-clockwise from Downing's South (move 0), the way his moves are numbered."""
    centre = [sum(xy) / len(cells) for xy in zip(*map(hx.pixel_center, cells), strict=True)]
    mid = min(sorted(cells, key=lambda c: (c[1], c[0])),
              key=lambda c: round(math.dist(hx.pixel_center(c), centre), 9))

    def angle(cell: Hex) -> float:  # counter-clockwise on the page (y points down)
        (x, y), (x0, y0) = hx.pixel_center(cell), hx.pixel_center(mid)
        return math.atan2(y0 - y, x - x0)

    south = angle(hx.neighbour(mid, move_direction(0)))
    return sorted(cells, key=lambda c: (hx.distance(c, mid),
                                        (angle(c) - south) % (2 * math.pi)))


def move_direction(move: int) -> int:
    """Our edge/direction index of Downing's move (S 0, SE 1, NE 2, N 3, NW 4, SW 5).

    His compass is the flat-topped picture whose edges the catalogue lists as 0 N, 1 NE, 2 SE,
    3 S, 4 SW, 5 NW; our grid turns that picture 30 degrees (edge 0 is NE), the same indices."""
    return (3 - move % 6) % 6


@dataclass(frozen=True)
class Weights:
    mode: str = "sum"  # "sum" (eq. 2) or "max" (eq. 3)
    k_co: float = 1.0
    k_ho: float = 10.0
    k_seg: float = 1.0
    k_cyc: float = 1.0
    holes: str = "cells"  # "cells" (literal) or "regions"


def paper_weights(inst: TantrixInstance) -> Weights:
    """Downing's choice per puzzle: F_sum with unit weights, F_max for two-colour puzzles."""
    if len(inst.goals) < 2:
        return Weights()
    loops = any(g.kind == "loop" for g in inst.goals)
    return Weights(mode="max", k_cyc=1.5 if loops else 0.0)


def paper_budget(inst: TantrixInstance) -> tuple[int, int]:
    """(population, generation limit) from Downing's Tables 1-3 for this kind of puzzle.

    Pyramids 200/200 (Table 2); Professor (two loops) 200/200, Genius (two lines) 300/300
    (Table 3); otherwise by size as in Table 1: up to 15 tiles 100/100, up to 20 200/200, up to
    25 300/300, beyond 500/300. For 16-20 tiles the text says 100/100 "consistently discovers
    solutions" but Table 1 reports 4/20 at 100/100 against 15/20 at 200/200; the table wins,
    and for 25 tiles the larger of its two budgets is taken."""
    if inst.shape == "triangle":
        return 200, 200
    if len(inst.goals) >= 2:
        return (200, 200) if any(g.kind == "loop" for g in inst.goals) else (300, 300)
    for size, budget in ((15, (100, 100)), (20, (200, 200)), (25, (300, 300))):
        if inst.n <= size:
            return budget
    return 500, 300


def turns_parity_ok(inst: TantrixInstance, colour: str) -> bool:
    """Downing's arc count: a loop through every arc of `colour` needs an even number of
    60-degree (bend) arcs of it."""
    return sum(1 for t in inst.tiles if cat.arc_kind(t, colour) == "bend") % 2 == 0


def focal_colours(inst: TantrixInstance) -> tuple[int, ...]:
    """The focal colours (indices): the goals' colours, `any` fixed by the arc-count test."""
    options = goal_colour_options(inst)
    if not options:
        return ()
    def carried(opt: tuple[str, ...]) -> list[int]:
        return [sum(1 for t in inst.tiles if c in cat.colours(t)) for c in opt]

    # the puzzles want lines through every tile: most-carried colours first
    options = sorted(options, key=lambda opt: [-k for k in carried(opt)])
    for opt in options:
        # all(), not min(): a puzzle without goals has one choice, the empty one
        if all(k >= 3 for k in carried(opt)) and all(
                g.kind != "loop" or turns_parity_ok(inst, c)
                for g, c in zip(inst.goals, opt, strict=True)):
            return tuple(COLOUR_INDEX[c] for c in opt)
    return tuple(COLOUR_INDEX[c] for c in options[0])


@dataclass
class PaperScore:
    fitness: float
    solved: bool
    placed: int
    holes: int
    compactness: float
    segments: tuple[int, ...]  # S_i per focal colour
    cycles: tuple[int, ...]  # C_i per focal colour


class DowningGrower:
    """Develops Downing genomes of one instance and scores the clusters."""

    def __init__(self, inst: TantrixInstance, weights: Weights | None = None,
                 focal: tuple[int, ...] | None = None,
                 pyramid: PyramidReading | None = None) -> None:
        self.inst = inst
        self.n = inst.n
        self.base = Grower(inst)  # edge tables, line tracing, goal check
        self.edge = self.base.edge
        self.weights = weights or paper_weights(inst)
        self.focal = focal if focal is not None else focal_colours(inst)
        self.pyramid = pyramid or PyramidReading()
        is_pyramid, order = inst.shape == "triangle", self.pyramid.order
        self.fixed_cells = pyramid_cells(inst.size or 0, order) \
            if is_pyramid and order != "moves" else None
        self.gated = is_pyramid and order == "grow"  # next cell: first bordering a focal arc
        self.board = set(inst.board) if inst.shape == "board" else \
            set(triangle(inst.size or 0)) if is_pyramid and order == "moves" else None
        self.moves = 0 if self.fixed_cells is not None else max(0, self.n - 1)
        # must a placed tile touch a focal-colour edge? (growth: always; fixed orders: see above)
        self.need_focal = bool(self.focal) and (self.fixed_cells is None or self.gated
                                                or self.pyramid.focal)
        self.length = self.moves + 2 * self.n
        self.start = self._start_cell()
        self._fit_cache: dict[tuple[int, tuple[int, ...]], tuple[int, ...]] = {}

    def _start_cell(self) -> Hex:
        if self.fixed_cells is not None:
            return self.fixed_cells[0]
        if self.board is None:
            return (0, 0)
        cells = sorted(self.board, key=lambda c: (c[1], c[0]))  # the middle of the board
        mq = sum(q for q, _ in cells) / len(cells)
        mr = sum(r for _, r in cells) / len(cells)
        return min(cells, key=lambda c: hx.distance(c, (round(mq), round(mr))))

    # ------------------------------------------------------------------ genome layout
    def gene_bits(self) -> list[int]:
        return [MOVE_BITS] * self.moves + [PRIO_BITS, ORIENT_BITS] * self.n

    def prio_index(self, tile: int) -> int:
        return self.moves + 2 * tile

    def order(self, genome) -> list[int]:
        m = self.moves
        return sorted(range(self.n), key=lambda i: (int(genome[m + 2 * i]), i))

    # ------------------------------------------------------------------ development
    def around(self, board: dict[Hex, tuple[int, int]], cell: Hex) -> tuple[int, ...]:
        """Colours the occupied neighbours of `cell` show on the edges facing it (EMPTY)."""
        out = []
        for d in range(6):
            nb = board.get((cell[0] + DIRS[d][0], cell[1] + DIRS[d][1]))
            out.append(EMPTY if nb is None else self.edge[nb[0]][nb[1]][OPP[d]])
        return tuple(out)

    def rotations(self, tile: int, sides: tuple[int, ...]) -> tuple[int, ...]:
        """Rotations (ascending) in which `tile` fits a cell with these neighbour colours."""
        key = (tile, sides)
        got = self._fit_cache.get(key)
        if got is None:
            need_focal = self.need_focal
            got = tuple(
                rot for rot in range(6)
                if all(s == EMPTY or s == e for s, e in zip(sides, self.edge[tile][rot],
                                                             strict=True))
                and (not need_focal or any(s in self.focal for s in sides))
            )
            self._fit_cache[key] = got
        return got

    def borders_focal(self, board, cell: Hex) -> bool:
        if self.board is not None and cell not in self.board:
            return False
        sides = self.around(board, cell)
        if not self.focal:
            return any(s != EMPTY for s in sides)
        return any(s in self.focal for s in sides)

    def place_first_fitting(self, board, cell: Hex, hand: list[int], genome) -> int | None:
        """Put the first tile of `hand` (priority order) that fits `cell`; its index or None."""
        sides = self.around(board, cell)
        m = self.moves
        for i in hand:
            rots = self.rotations(i, sides)
            if rots:
                board[cell] = (i, rots[int(genome[m + 2 * i + 1]) % len(rots)])
                return i
        return None

    def develop(self, genome) -> Grown:
        order = self.order(genome)
        first = order[0]
        board: dict[Hex, tuple[int, int]] = {
            self.start: (first, int(genome[self.moves + 2 * first + 1]) % 6)}
        hand = order[1:]
        if self.gated:
            return self._develop_gated(board, hand, genome)
        if self.fixed_cells is not None:
            for cell in self.fixed_cells[1:]:
                if not hand:
                    break
                got = self.place_first_fitting(board, cell, hand, genome)
                if got is None:
                    if self.pyramid.skip:
                        continue
                    break
                hand.remove(got)
            return Grown(board, hand)
        last = self.start
        for step in range(self.moves):
            if not hand:
                break
            first_dir = move_direction(int(genome[step]))
            ring = [(first_dir - k) % 6 for k in range(6)]  # counter-clockwise around T
            cells = [(last[0] + DIRS[d][0], last[1] + DIRS[d][1]) for d in ring]
            start = next((k for k, c in enumerate(cells)
                          if c not in board and self.borders_focal(board, c)), None)
            if start is None:
                break  # no N*: growth stops
            placed = None
            for cell in cells[start:]:
                if cell in board or (self.board is not None and cell not in self.board):
                    continue
                got = self.place_first_fitting(board, cell, hand, genome)
                if got is not None:
                    placed = cell
                    hand.remove(got)
                    break
            if placed is None:
                break
            last = placed
        return Grown(board, hand)

    def _develop_gated(self, board, hand: list[int], genome) -> Grown:
        """The general rule with the pyramid's cell list in place of the ring around the
        last tile: the first free cell bordering a focal arc, then the cells after it."""
        assert self.fixed_cells is not None
        while hand:
            cells = [c for c in self.fixed_cells if c not in board]
            start = next((k for k, c in enumerate(cells) if self.borders_focal(board, c)), None)
            if start is None:
                break
            got = next((g for g in (self.place_first_fitting(board, c, hand, genome)
                                    for c in cells[start:]) if g is not None), None)
            if got is None:
                break
            hand.remove(got)
        return Grown(board, hand)

    # ------------------------------------------------------------------ fitness
    def hole_count(self, board) -> int:
        if self.weights.holes == "regions":
            return count_holes(board)
        return sum(len(h) for h in holes(board))

    def judge(self, grown: Grown) -> PaperScore:
        board, w = grown.board, self.weights
        placed = len(board)
        touching = sum(1 for (q, r) in board for dq, dr in DIRS[:3] if (q + dq, r + dr) in board)
        compact = 2.0 * touching / placed if placed else 0.0
        n_holes = self.hole_count(board) if placed >= 6 else 0  # a hole needs six tiles
        fit = w.k_co * compact - w.k_ho * n_holes
        segs, cycs, found = [], [], {}
        for colour in self.focal:
            pieces = self.base.lines(board, colour)
            found[colour] = pieces
            s = max((size for size, closed, _ in pieces if not closed), default=0)
            c = max((size for size, closed, _ in pieces if closed), default=0)
            segs.append(s)
            cycs.append(c)
            if w.mode == "max":
                fit += max(w.k_seg * s, w.k_cyc * c)
            else:
                fit += w.k_seg * s + w.k_cyc * c
        solved = placed == self.n and n_holes == 0
        if solved and self.focal:
            solved = self.base.goals_met(found, self.focal)
        return PaperScore(fit, solved, placed, n_holes, compact, tuple(segs), tuple(cycs))

    def score(self, genome) -> PaperScore:
        return self.judge(self.develop(genome))

    def solution(self, grown: Grown) -> dict[Hex, tuple[int, int]]:
        return self.base.solution(grown)
