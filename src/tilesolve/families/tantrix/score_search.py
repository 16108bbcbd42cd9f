"""The search backend's --objective mode: an anytime large-neighbourhood search for Downing's
score (the longest loop or line of each goal colour, summed; `model.score`).

The tiles fill a fixed board with one cell per tile (`region.score_board`: a compact 56-cell
shape for the free 56-tile puzzles), so every complete filling is connected and free of holes
and only the golden rule is left to keep. Then, step after step:

1. a depth-first fill puts the tiles down row by row (golden rule against the tiles above and
   to the left), tiles tried in a seeded random order, with a node cap and restarts;
2. a step removes the tiles of a window (a cell and its nearest cells, or two small windows
   far apart, so tiles also travel) and puts them back in every way the golden rule allows,
   up to a node cap; the best refill by (score, sum of squared lengths of the goal colours'
   pieces of the goal kind: long pieces are worth more than many short ones, so plateaus lead
   somewhere) is kept when it is not worse than the board it replaces;
3. after `--patience` steps without a better score the board takes a random refill of a
   larger window (a kick); the best board seen is kept and offered to the pipeline as it
   improves.

No bound is proved, so the result is FEASIBLE with its score (the pipeline's checker scores it
again). Without -t the search stops after `--steps` steps.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.options import Option, Options, positive_int
from ...core.result import Outcome, Solution, SolveOptions, Status
from . import catalogue as cat
from .instance import TantrixInstance, goal_colour_options
from .region import score_board

Hex = hx.Hex
OPTIONS = Options(
    Option("window", positive_int, 7, "--objective longest: cells a step takes out and refills"),
    Option("patience", positive_int, 300, "--objective longest: steps without a better score "
           "before a kick"),
    Option("steps", positive_int, 20_000, "--objective longest: steps when there is no -t"),
    Option("refill_nodes", positive_int, 4_000, "--objective longest: node cap of one refill"),
)
FILL_NODES = 5_000  # nodes of one first-fill attempt before it restarts with a new order
COLOUR = {c: i for i, c in enumerate(cat.COLOURS)}


@dataclass
class Tables:
    """The board and tile facts every step reads, as plain lists."""

    cells: list[Hex]
    nb: list[list[int]]  # cell index -> neighbour index per direction, -1 off the board
    tiles: list[int]  # tile numbers, one per tile index (repeats allowed)
    edge: list[list[tuple[int, ...]]]  # tile index -> rot -> colour index per edge
    arc: list[list[list[tuple[int, int] | None]]]  # tile index -> rot -> colour -> ends
    goals: list[tuple[tuple[int, ...], tuple[str, ...]]]  # colour choices and goal kinds

    @classmethod
    def build(cls, inst: TantrixInstance) -> Tables:
        cells = score_board(inst)
        index = {c: i for i, c in enumerate(cells)}
        nb = [[index.get(hx.neighbour(c, d), -1) for d in range(6)] for c in cells]
        edge = [[tuple(COLOUR[x] for x in cat.edges(t, rot)) for rot in range(6)]
                for t in inst.tiles]
        arc = [[[next(((a, b) for a in range(6) for b in range(a + 1, 6)
                       if e[a] == k and e[b] == k), None) for k in range(4)]
                for e in rots] for rots in edge]
        kinds = tuple(g.kind for g in inst.goals)
        goals = [(tuple(COLOUR[c] for c in choice), kinds)
                 for choice in goal_colour_options(inst)]
        return cls(cells, nb, list(inst.tiles), edge, arc, goals)


def pieces(t: Tables, board: list[tuple[int, int]], colour: int) -> list[tuple[int, bool]]:
    """(tiles, closed) of every piece of one colour's lines on a full board."""
    arc, nb = t.arc, t.nb
    seen = [False] * len(board)
    out = []
    for start, (j, rot) in enumerate(board):
        if seen[start] or arc[j][rot][colour] is None:
            continue
        seen[start] = True
        stack, size, closed = [start], 0, True
        while stack:
            i = stack.pop()
            size += 1
            j, rot = board[i]
            for d in arc[j][rot][colour]:  # the golden rule carries the line across
                o = nb[i][d]
                if o < 0:
                    closed = False
                elif not seen[o]:
                    seen[o] = True
                    stack.append(o)
        out.append((size, closed))
    return out


def evaluate(t: Tables, board: list[tuple[int, int]]) -> tuple[int, int]:
    """(Downing's score, sum of squared lengths of the goal colours' pieces of the goal kind:
    two loops that merge, or two lines, gain before the longest piece does)."""
    per = {k: pieces(t, board, k) for k in range(4)}
    best = (0, 0)
    for colours, kinds in t.goals:
        score = aux = 0
        for k, kind in zip(colours, kinds, strict=True):
            closed = kind == "loop"
            score += max((s for s, c in per[k] if c == closed), default=0)
            aux += sum(s * s for s, c in per[k] if c == closed)
        best = max(best, (score, aux))
    return best


def fits(t: Tables, board: list, i: int, j: int, rot: int) -> bool:
    """Tile j turned rot at cell i agrees with every placed neighbour."""
    e = t.edge[j][rot]
    for d in range(6):
        o = t.nb[i][d]
        if o >= 0 and board[o] is not None:
            oj, orot = board[o]
            if t.edge[oj][orot][(d + 3) % 6] != e[d]:
                return False
    return True


def fill(t: Tables, board: list, cells: list[int], tiles: list[int], rng: random.Random,
         node_cap: int, on_full) -> int:
    """Every way (up to node_cap nodes) to put `tiles` on the empty `cells`, in order; calls
    on_full() at each complete filling (which may return True to stop). Returns nodes used;
    the cells are empty again on return."""
    used = [False] * len(tiles)
    rots = list(range(6))
    nodes = 0
    stop = False

    def go(k: int) -> None:
        nonlocal nodes, stop
        if k == len(cells):
            stop = bool(on_full())
            return
        i = cells[k]
        seen = set()
        for u in rng.sample(range(len(tiles)), len(tiles)):
            j = tiles[u]
            if used[u] or t.tiles[j] in seen:  # copies of one tile are interchangeable
                continue
            seen.add(t.tiles[j])
            rng.shuffle(rots)
            for rot in rots:
                if nodes >= node_cap or stop:
                    return
                if fits(t, board, i, j, rot):
                    nodes += 1
                    board[i] = (j, rot)
                    used[u] = True
                    go(k + 1)
                    used[u] = False
                    board[i] = None
            if stop:
                return

    go(0)
    return nodes


def options(t: Tables, board: list, i: int, left: dict[int, list[int]]) -> list[tuple[int, int]]:
    """(tile index, rot) that fit cell i, one copy per tile number still in hand."""
    return [(js[-1], rot) for js in left.values() if js for rot in range(6)
            if fits(t, board, i, js[-1], rot)]


def first_fill(t: Tables, rng: random.Random, node_cap: int, deadline: float | None,
               opts: SolveOptions) -> list | None:
    """Fill every cell: most constrained frontier cell first, its fitting tiles in random
    order; None after node_cap nodes or at the deadline."""
    n = len(t.cells)
    board: list = [None] * n
    left: dict[int, list[int]] = {}
    for j in rng.sample(range(n), n):
        left.setdefault(t.tiles[j], []).append(j)
    nodes = 0

    def go(placed: int) -> bool:
        nonlocal nodes
        if placed == n:
            return True
        if nodes >= node_cap or (nodes % 256 == 0 and _late(deadline, opts)):
            return False
        frontier = [i for i in range(n) if board[i] is None
                    and (placed == 0 or any(o >= 0 and board[o] is not None for o in t.nb[i]))]
        best = None
        for i in frontier:
            opts_i = options(t, board, i, left)
            if best is None or len(opts_i) < len(best[1]):
                best = (i, opts_i)
                if not opts_i:
                    return False
        i, cands = best
        rng.shuffle(cands)
        for j, rot in cands:
            nodes += 1
            board[i] = (j, rot)
            left[t.tiles[j]].pop()
            if go(placed + 1):
                return True
            left[t.tiles[j]].append(j)
            board[i] = None
        return False

    return board if go(0) else None


class ScoreSearch:
    def __init__(self, inst: TantrixInstance, opts: SolveOptions):
        self.t = Tables.build(inst)
        self.opts = opts
        self.rng = random.Random(opts.seed)
        self.p = {k: _int_param(opts, k) for k in OPTIONS.names()}
        self.order = sorted(range(len(self.t.cells)),
                            key=lambda i: (self.t.cells[i][1], self.t.cells[i][0]))
        self.steps = self.kicks = self.nodes = 0

    def first_board(self, deadline: float | None) -> list | None:
        """A full board by depth-first search, the cell with the fewest fitting tiles first;
        restarted with a new tile order after FILL_NODES nodes."""
        while not _late(deadline, self.opts):
            board = first_fill(self.t, self.rng, FILL_NODES, deadline, self.opts)
            self.nodes += FILL_NODES if board is None else 0
            if board is not None:
                return board
        return None

    def window(self, size: int) -> list[int]:
        """A cell and its nearest cells; or, every third step, two halves far apart."""
        cells = self.t.cells
        parts = 2 if self.rng.random() < 1 / 3 and size >= 4 else 1
        out: list[int] = []
        for p in range(parts):
            centre = cells[self.rng.randrange(len(cells))]
            near = sorted((i for i in range(len(cells)) if i not in out),
                          key=lambda i: (hx.distance(cells[i], centre), self.rng.random()))
            out += near[:size // parts if p < parts - 1 else size - len(out)]
        return sorted(out, key=lambda i: (cells[i][1], cells[i][0]))

    def refill(self, board: list, cells: list[int], pick_random: bool):
        """The best (or, for a kick, a random) refill of `cells`; (key, board) or None."""
        tiles = [board[i][0] for i in cells]
        work = list(board)
        for i in cells:
            work[i] = None
        best: list = []
        seen = [0]

        def consider() -> bool:
            key = evaluate(self.t, work)
            seen[0] += 1
            if pick_random:
                if self.rng.randrange(seen[0]) == 0:  # reservoir: a uniform pick
                    best[:] = [key, list(work)]
            elif not best or key > best[0]:
                best[:] = [key, list(work)]
            return False

        self.nodes += fill(self.t, work, cells, tiles, self.rng, self.p["refill_nodes"], consider)
        return (best[0], best[1]) if best else None

    def run(self) -> Outcome:
        t0 = time.perf_counter()
        limit = self.opts.time_limit
        deadline = self.opts.deadline()  # reading the instance counts
        board = self.first_board(deadline)
        if board is None:
            return Outcome(Status.TIMEOUT, stats=self.stats(t0, None))
        key = evaluate(self.t, board)
        best_key, best = key, list(board)
        self.offer(best, best_key)
        stale = 0
        max_steps = None if limit is not None else self.p["steps"]
        while not _late(deadline, self.opts) and (max_steps is None or self.steps < max_steps):
            self.steps += 1
            self.opts.report(best=best_key[0], steps=self.steps, kicks=self.kicks, nodes=self.nodes)
            kick = stale >= self.p["patience"]
            size = self.p["window"] + (3 if kick else 0)
            got = self.refill(board, self.window(size), pick_random=kick)
            if kick:
                self.kicks += 1
                stale = 0
                if got is not None:
                    key, board = got
                continue
            if got is not None and got[0] >= key:
                key, board = got
            if key[0] > best_key[0]:
                best_key, best = key, list(board)
                stale = 0
                self.offer(best, best_key)
            else:
                stale += 1
        return Outcome(Status.FEASIBLE, self.solution(best), float(best_key[0]),
                       stats=self.stats(t0, best_key))

    def solution(self, board: list) -> Solution:
        return {self.t.cells[i]: (self.t.tiles[j], rot) for i, (j, rot) in enumerate(board)}

    def offer(self, board: list, key: tuple[int, int]) -> None:
        self.opts.offer(self.solution(board), float(key[0]), source="search")

    def stats(self, t0: float, key) -> dict:
        return {**self.p, "solver": "lns", "steps": self.steps, "kicks": self.kicks,
                "nodes": self.nodes, "board_cells": len(self.t.cells),
                "best_score": None if key is None else key[0],
                "seconds": round(time.perf_counter() - t0, 4)}


def _late(deadline: float | None, opts: SolveOptions) -> bool:
    return opts.stopped() or (deadline is not None and time.monotonic() >= deadline)


def _int_param(opts: SolveOptions, name: str) -> int:
    return OPTIONS.value(opts.params, name)


def solve(inst: TantrixInstance, opts: SolveOptions) -> Outcome:
    if not inst.goals:
        raise InputError("--objective longest scores goal lines; the instance has none")
    return ScoreSearch(inst, opts).run()
