"""Large-neighbourhood search for the most matched joins: exact repairs of part of a board.

A move frees a set of cells (a neighbourhood), pools the pieces on them, and puts those
pieces back optimally with the rest of the board fixed, so a board never gets worse. Two
exact solvers serve:

- *assignment*: scattered cells of one piece class (corner, border, inner), no two adjacent.
  Each freed cell then meets only fixed neighbours, so the value of piece p at cell c (its
  best rotation) does not depend on the other freed cells, and the best re-placement is a
  linear assignment (Schaus & Deville's very large neighbourhood for Eternity II). Solved
  with OR-tools' min-cost assignment in milliseconds, even for 90 cells.
- *CP-SAT*: any connected region (a k x k window, a band of rows, the cells around
  mismatched joins). Boolean placements x[cell, piece, rot], one per cell and per piece;
  a join to a fixed neighbour scores through the placements showing its colour; a join
  inside the region through one colour literal per colour, bounded by both sides. The
  current placement is the hint and the floor.

Ties are broken at random (the assignment's costs carry noise, CP-SAT's seed varies), so
moves of equal score drift the board across plateaus. Region sizes adapt: a CP-SAT region
grows after a quick proof of optimality and shrinks after a timeout.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np
from ortools.graph.python import linear_sum_assignment
from ortools.sat.python import cp_model

from ...core import squaregrid as sq
from ...core.errors import InputError
from ...core.options import Option, Options, as_is, fraction, non_negative, positive_int, seconds
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions, Status
from .break_options import BREAK_OPTIONS
from .instance import EdgeInstance

CLASSES = ("corner", "border", "inner")
NOISE = 1000  # assignment tie-breaks: random costs below NOISE, gains worth k * NOISE each


class Board:
    """A complete board as numpy arrays, with the tables the moves need."""

    def __init__(self, inst: EdgeInstance, fix: Solution | None = None):
        self.inst = inst
        w, h = inst.width, inst.height
        self.w, self.h = w, h
        self.cells = inst.cells()
        self.index = {c: i for i, c in enumerate(self.cells)}
        n = self.n = len(self.cells)
        self.col = np.array([[inst.edges(p + 1, r) for r in range(4)] for p in range(inst.n)],
                            dtype=np.int16)  # col[p, r, side]
        self.cell_class = np.array([CLASSES.index(sq.cell_kind(c, w, h)) for c in self.cells])
        self.piece_class = np.array([CLASSES.index(inst.kind(p)) for p in range(1, inst.n + 1)])
        fixed = {**inst.fixed, **(fix or {})}
        self.free = np.array([c not in fixed for c in self.cells])
        # allowed[i, p, r]: piece p turned r may stand at cell i (frame rule: grey exactly on
        # the cell's frame sides; numpy, as the loop over inst.fits took 1-2 s on the 16x16)
        frame = np.array([[s in sq.frame_sides(c, w, h) for s in sq.SIDES] for c in self.cells])
        grey = self.col == 0  # (piece, rot, side)
        self.allowed = (grey[None, :, :, :] == frame[:, None, None, :]).all(axis=3)
        self.nb = np.full((n, 4), -1, dtype=np.int64)
        for i, c in enumerate(self.cells):
            for s in sq.SIDES:
                o = sq.neighbour(c, s)
                if sq.inside(o, w, h):
                    self.nb[i, s] = self.index[o]
        joins = [(self.index[a], s, self.index[b]) for a, s, b in sq.joins(w, h)]
        self.joins = np.array(joins, dtype=np.int64)
        self.opp = np.array([sq.opposite(s) for s in sq.SIDES])

    # --- conversions ---------------------------------------------------------------------
    def arrays(self, sol: Solution) -> tuple[np.ndarray, np.ndarray]:
        pcs = np.array([sol[c][0] - 1 for c in self.cells], dtype=np.int64)
        rts = np.array([sol[c][1] % 4 for c in self.cells], dtype=np.int64)
        return pcs, rts

    def solution(self, pcs: np.ndarray, rts: np.ndarray) -> Solution:
        return {c: (int(pcs[i]) + 1, int(rts[i])) for i, c in enumerate(self.cells)}

    # --- scoring -------------------------------------------------------------------------
    def matched(self, pcs: np.ndarray, rts: np.ndarray) -> np.ndarray:
        a, s, b = self.joins[:, 0], self.joins[:, 1], self.joins[:, 2]
        ca = self.col[pcs[a], rts[a], s]
        cb = self.col[pcs[b], rts[b], self.opp[s]]
        return (ca == cb) & (ca != 0)

    def score(self, pcs: np.ndarray, rts: np.ndarray) -> int:
        return int(self.matched(pcs, rts).sum())

    def facing(self, pcs: np.ndarray, rts: np.ndarray) -> np.ndarray:
        """F[i, s]: the colour the neighbour across side s shows cell i (-1 at the frame)."""
        shown = self.col[pcs, rts]
        f = shown[np.maximum(self.nb, 0), self.opp[None, :]]
        return np.where(self.nb >= 0, f, -1)

    def bad_cells(self, pcs: np.ndarray, rts: np.ndarray) -> np.ndarray:
        """Free cells touching a mismatched join."""
        miss = ~self.matched(pcs, rts)
        cells = np.unique(np.concatenate([self.joins[miss, 0], self.joins[miss, 2]]))
        return cells[self.free[cells]]


# --- neighbourhoods --------------------------------------------------------------------------
def scattered(board: Board, pcs, rts, rng: np.random.Generator, size: int,
              klass: int | None = None) -> np.ndarray:
    """Up to `size` free cells of one class, no two adjacent, cells at mismatches first."""
    if klass is None:
        weights = np.array([1.0, 3.0, 8.0])  # most moves where most cells are
        klass = int(rng.choice(3, p=weights / weights.sum()))
    pool = np.flatnonzero(board.free & (board.cell_class == klass))
    if len(pool) < 2:
        return pool
    bad = set(board.bad_cells(pcs, rts).tolist())
    key = rng.random(len(pool)) + np.array([c in bad for c in pool.tolist()]) * rng.random()
    picked: list[int] = []
    blocked: set[int] = set()
    for c in pool[np.argsort(-key)].tolist():
        if c in blocked:
            continue
        picked.append(c)
        blocked.update(int(o) for o in board.nb[c] if o >= 0)
        if len(picked) >= size:
            break
    return np.array(picked, dtype=np.int64)


def window(board: Board, pcs, rts, rng: np.random.Generator, size: int) -> np.ndarray:
    """A k x k block (k*k about `size`) centred near a mismatch, clipped to the board."""
    k = max(2, int(round(np.sqrt(size))))
    bad = board.bad_cells(pcs, rts)
    centre = int(rng.choice(bad)) if len(bad) else int(rng.integers(board.n))
    r, c = divmod(centre, board.w)
    r0 = int(np.clip(r - rng.integers(0, k), 0, board.h - k))
    c0 = int(np.clip(c - rng.integers(0, k), 0, board.w - k))
    cells = np.array([(r0 + i) * board.w + c0 + j for i in range(k) for j in range(k)])
    return cells[board.free[cells]]


def band(board: Board, pcs, rts, rng: np.random.Generator, size: int) -> np.ndarray:
    """A run of about `size` cells along one or two rows (or columns) through a mismatch."""
    bad = board.bad_cells(pcs, rts)
    centre = int(rng.choice(bad)) if len(bad) else int(rng.integers(board.n))
    r, c = divmod(centre, board.w)
    rows = 2 if size > max(board.w, board.h) else 1
    horizontal = bool(rng.integers(2))
    length = min(board.w if horizontal else board.h, max(2, size // rows))
    out = []
    for k in range(rows):
        for j in range(length):
            if horizontal:
                rr = min(r + k, board.h - 1) if r + rows <= board.h else r - k
                cc = int(np.clip(c - length // 2, 0, board.w - length)) + j
            else:
                cc = min(c + k, board.w - 1) if c + rows <= board.w else c - k
                rr = int(np.clip(r - length // 2, 0, board.h - length)) + j
            out.append(rr * board.w + cc)
    cells = np.unique(np.array(out, dtype=np.int64))
    return cells[board.free[cells]]


def around_mismatches(board: Board, pcs, rts, rng: np.random.Generator,
                      size: int) -> np.ndarray:
    """The cells of a few mismatched joins, grown at random through neighbours to `size`."""
    bad = board.bad_cells(pcs, rts).tolist()
    start = [int(rng.choice(bad))] if bad else [int(rng.choice(np.flatnonzero(board.free)))]
    region, frontier = set(start), list(start)
    while len(region) < size and frontier:
        c = frontier[int(rng.integers(len(frontier)))]
        opts = [int(o) for o in board.nb[c] if o >= 0 and board.free[o] and o not in region]
        # prefer stepping onto another mismatch: the region follows the broken joins
        hot = [o for o in opts if o in bad]
        if not opts:
            frontier.remove(c)
            continue
        o = hot[0] if hot and rng.random() < 0.7 else opts[int(rng.integers(len(opts)))]
        region.add(o)
        frontier.append(o)
    return np.array(sorted(region), dtype=np.int64)


# --- exact repairs ---------------------------------------------------------------------------
def assign(board: Board, pcs, rts, cells: np.ndarray, rng: np.random.Generator) -> bool:
    """Re-place the pieces of scattered cells optimally (a linear assignment). Edits pcs/rts
    in place; True when the board changed."""
    if len(cells) < 2:
        return False
    f = board.facing(pcs, rts)[cells]  # (k, 4)
    pieces = pcs[cells]
    shown = board.col[pieces]  # (k pieces, 4 rots, 4 sides)
    gain = ((shown[None, :, :, :] == f[:, None, None, :]) & (f[:, None, None, :] > 0)).sum(3)
    gain = np.where(board.allowed[cells[:, None], pieces[None, :], :], gain, -99)
    best_rot = gain.argmax(axis=2)
    value = gain.max(axis=2)  # (cells, pieces)
    k = len(cells)
    # one unit of gain outweighs all the tie-break noise together
    cost = -(value * (k * NOISE) + rng.integers(0, NOISE, value.shape))
    solver = linear_sum_assignment.SimpleLinearSumAssignment()
    for i in range(k):
        for j in range(k):
            if value[i, j] >= 0:
                solver.add_arc_with_cost(i, j, int(cost[i, j]))
    if solver.solve() != solver.OPTIMAL:
        return False
    new_p = pcs.copy()
    new_r = rts.copy()
    for i in range(k):
        j = solver.right_mate(i)
        new_p[cells[i]] = pieces[j]
        new_r[cells[i]] = best_rot[i, j]
    changed = bool((new_p[cells] != pcs[cells]).any() or (new_r[cells] != rts[cells]).any())
    pcs[cells], rts[cells] = new_p[cells], new_r[cells]
    return changed


@dataclass
class RegionModel:
    """CP-SAT model of one region's re-placement with the rest of the board fixed."""

    model: cp_model.CpModel
    x: dict
    floor: int


def region_model(board: Board, pcs, rts, cells: np.ndarray, at_least: int = 0) -> RegionModel:
    """The region's pieces re-placed to match the most joins that touch it, at least as many
    as now and at least `at_least`."""
    m = cp_model.CpModel()
    inside = set(cells.tolist())
    pieces = pcs[cells].tolist()
    x: dict[tuple[int, int, int], cp_model.IntVar] = {}
    for c in inside:
        for p in pieces:
            for r in np.flatnonzero(board.allowed[c, p]).tolist():
                x[c, p, r] = m.new_bool_var("")
    by_cell: dict[int, list] = {c: [] for c in inside}
    by_piece: dict[int, list] = {p: [] for p in pieces}
    # showing[c][s][colour]: placements at c that show colour on side s
    showing: dict[int, list[dict[int, list]]] = {c: [{} for _ in range(4)] for c in inside}
    for (c, p, r), v in x.items():
        by_cell[c].append(v)
        by_piece[p].append(v)
        for s in range(4):
            showing[c][s].setdefault(int(board.col[p, r, s]), []).append(v)
    for vs in (*by_cell.values(), *by_piece.values()):
        m.add_exactly_one(vs)
    terms = []
    floor = 0
    shown = board.col[pcs, rts]
    for a, s, b in board.joins.tolist():
        ia, ib = a in inside, b in inside
        if not (ia or ib):
            continue
        t = board.opp[s]
        floor += int(shown[a, s] == shown[b, t] and shown[a, s] != 0)
        if ia and ib:
            for colour, lits in showing[a][s].items():
                other = showing[b][t].get(colour)
                if colour == 0 or not other:
                    continue
                y = m.new_bool_var("")
                m.add_bool_or(lits).only_enforce_if(y)
                m.add_bool_or(other).only_enforce_if(y)
                terms.append(y)
        else:
            here, side, there, tside = (a, s, b, t) if ia else (b, t, a, s)
            need = int(shown[there, tside])
            if need:
                terms += showing[here][side].get(need, [])
    objective = sum(terms)
    m.add(objective >= max(floor, at_least))
    m.maximize(objective)
    for (c, p, r), v in x.items():
        m.add_hint(v, bool(p == pcs[c] and r == rts[c]))
    return RegionModel(m, x, floor)


def repair_region(board: Board, pcs, rts, cells: np.ndarray, seed: int,
                  time_limit: float, at_least: int = 0) -> tuple[bool, bool]:
    """Re-place a region's pieces optimally by CP-SAT, matching at least `at_least` of the
    joins that touch it. Edits pcs/rts in place.

    Returns (changed, proven): proven when CP-SAT closed the region within the limit (with
    `at_least` out of reach: proven and unchanged)."""
    if not len(cells):
        return False, True
    rm = region_model(board, pcs, rts, cells, at_least)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.random_seed = seed
    # the full LP relaxation closes regions fast: a 3x3 window of a 6x6 board in 0.1 s
    # instead of 16-25 s at the default level; 4x4 windows of Eternity II in about a second
    solver.parameters.linearization_level = 2
    # a repair is one short step of a longer run: CP-SAT's own Ctrl-C handler would end the
    # repair and swallow the interrupt, and the run would go on (an API script's Ctrl-C was
    # lost this way); without it the interrupt is raised when the repair returns
    solver.parameters.catch_sigint_signal = False
    status = solver.solve(rm.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return False, status == cp_model.INFEASIBLE
    old_p, old_r = pcs[cells].copy(), rts[cells].copy()
    for (c, p, r), v in rm.x.items():
        if solver.boolean_value(v):
            pcs[c], rts[c] = p, r
    changed = bool((old_p != pcs[cells]).any() or (old_r != rts[cells]).any())
    return changed, status == cp_model.OPTIMAL


# --- the search ------------------------------------------------------------------------------
@dataclass
class Sizes:
    """Adaptive neighbourhood sizes (cells), one per CP-SAT neighbourhood kind."""

    cpsat: dict[str, int] = field(default_factory=lambda: {"window": 9, "band": 10,
                                                           "mismatch": 10})
    lo: int = 4
    hi: int = 40

    def update(self, kind: str, proven: bool, gained: bool, took: float, limit: float) -> None:
        """Grow after a quick proof or a gain, shrink after a timeout that found nothing."""
        s = self.cpsat[kind]
        if gained or (proven and took < 0.3 * limit):
            s += 1
        elif not proven:
            s -= 1
        self.cpsat[kind] = int(np.clip(s, self.lo, self.hi))


@dataclass
class LnsStats:
    moves: dict[str, int] = field(default_factory=dict)
    gains: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def note(self, kind: str, gain: int) -> None:
        self.moves[kind] = self.moves.get(kind, 0) + 1
        if gain > 0:
            self.gains[kind] = self.gains.get(kind, 0) + gain


NEIGHBOURHOODS = {"window": window, "band": band, "mismatch": around_mismatches}
ROWS_NODES = 3_000_000  # placements per row re-search (about 0.3 s of the C core)


def research(board: Board, pcs, rts, rng: np.random.Generator, fix: Solution | None) -> bool:
    """Re-search 2-4 consecutive rows through a mismatch with the break search, the rest of
    the board fixed (rows: the backtracker's natural neighbourhood). Edits pcs/rts."""
    from . import breakscan

    bad = board.bad_cells(pcs, rts)
    if not len(bad):
        return False
    row = int(rng.choice(bad)) // board.w
    k = int(rng.integers(2, 5))
    first = int(np.clip(row - rng.integers(0, k), 0, board.h - k))
    found = breakscan.research_rows(board.inst, board.solution(pcs, rts),
                                    range(first, first + k), int(rng.integers(1 << 30)),
                                    ROWS_NODES, fix)
    if found is None:
        return False
    new_p, new_r = board.arrays(found[0])
    pcs[:], rts[:] = new_p, new_r
    return True


def improve(board: Board, sol: Solution, rng: np.random.Generator, *,
            time_limit: float | None = None, moves: int | None = None,
            stop: Callable[[], bool] = lambda: False,
            on_improve: Callable[[Solution, int], None] | None = None,
            target: int | None = None, sizes: Sizes | None = None,
            region_time: float = 2.0, assign_share: float = 0.5, rows_share: float = 0.1,
            fix: Solution | None = None, stats: LnsStats | None = None,
            patience: float | None = None) -> tuple[Solution, int]:
    """Iterate exact repairs from `sol`; returns the best board met and its score (never
    worse than the start). on_improve sees every strict improvement. `patience`: stop after
    that many CPU seconds without one (CPU, not wall: the same search on a loaded machine)."""
    pcs, rts = board.arrays(sol)
    score = board.score(pcs, rts)
    best = (pcs.copy(), rts.copy(), score)
    sizes = sizes or Sizes()
    stats = stats if stats is not None else LnsStats()
    t0 = time.monotonic()
    end = None if time_limit is None else t0 + time_limit
    target = target if target is not None else len(board.joins)
    done = 0
    last_gain = time.process_time()
    while score < target and not stop() and (end is None or time.monotonic() < end) and \
            (moves is None or done < moves) and \
            (patience is None or time.process_time() - last_gain < patience):
        done += 1
        before = score
        u = rng.random()
        if u < rows_share:
            kind = "rows"
            research(board, pcs, rts, rng, fix)
        elif u < rows_share + assign_share:
            kind = "assign"
            inner = int((board.free & (board.cell_class == 2)).sum())
            cells = scattered(board, pcs, rts, rng, int(rng.integers(8, max(9, inner // 2))))
            assign(board, pcs, rts, cells, rng)
        else:
            kind = str(rng.choice(list(NEIGHBOURHOODS)))
            cells = NEIGHBOURHOODS[kind](board, pcs, rts, rng, sizes.cpsat[kind])
            limit = region_time if end is None else max(0.05, min(region_time,
                                                                   end - time.monotonic()))
            tic = time.monotonic()
            _, proven = repair_region(board, pcs, rts, cells, int(rng.integers(1 << 30)), limit)
            score = board.score(pcs, rts)
            sizes.update(kind, proven, score > before, time.monotonic() - tic, limit)
        score = board.score(pcs, rts)
        stats.note(kind, score - before)
        if score > best[2]:
            best = (pcs.copy(), rts.copy(), score)
            last_gain = time.process_time()
            if on_improve is not None:
                on_improve(board.solution(pcs, rts), score)
    stats.seconds += time.monotonic() - t0
    return board.solution(best[0], best[1]), best[2]


# --- the backend (`--backend lns --objective matches`) ----------------------------------------
RENEW = 90.0  # CPU seconds without a gain before the annealing takes a new start board
OPTIONS = Options(
    BREAK_OPTIONS,
    Option("anneal", bool, True, "after the start board, simulated annealing over swaps and "
           "turns (on); off: the exact repairs (assignment, CP-SAT regions, row searches)"),
    Option("temperature", non_negative, None, "annealing temperature in joins (0.19); with "
           "--replicas above 1 the coldest chain's (0.14)"),
    Option("t_cold", non_negative, None, "temperature at the end of a cycle (--temperature; "
           "one chain only)"),
    Option("cycle", seconds, None, "CPU s per annealing cycle, each from the best board (30; "
           "replicas: the coldest chain restarts from the best board met)"),
    Option("replicas", positive_int, None, "chains of parallel tempering from --temperature up "
           "to --t-max, neighbours exchanging boards (1: one chain)"),
    Option("t_max", non_negative, None, "the hottest chain's temperature (0.3)"),
    Option("triples", fraction, None, "share of the annealing's swaps made 3-cycles of one "
           "class (0)"),
    Option("blocks", fraction, None, "share of the annealing's moves from an inner cell that "
           "turn a 2x2 block of inner pieces a quarter, keeping its four inner joins (0)"),
    Option("penalty", non_negative, None, "guided local search: weight in joins added to a "
           "mismatched join after each chunk of the annealing's moves (times 0.95 each chunk, "
           "at most 4), so mismatches that stay are pushed elsewhere (0: plain annealing)"),
    Option("renew", seconds, None, "CPU s without a gain before the annealing takes a new "
           "break-search start board (90)"),
    Option("region_time", seconds, None, "s of CP-SAT per region repair (0.5)"),
    Option("assign_share", fraction, None, "share of moves that reassign scattered inner "
           "pieces optimally (0.7)"),
    Option("rows_share", fraction, None, "share of moves that search rows again (0.05)"),
    Option("start_time", non_negative, None,
           "s of break search for the start board (annealing: CPU s, default a tenth of the "
           "limit, at most 10; repairs: a tenth of the limit, at most 20)"),
    Option("patience", seconds, None, "CPU s without a gain that end a descent (10)"),
    Option("inbox", as_is, help="the portfolio's boards from the other lanes (hybrid.lanes)",
           internal=True),
)
SCHEDULE_OPTIONS = ("temperature", "t_cold", "cycle", "replicas", "t_max", "triples", "blocks",
                    "penalty")
KICK = 12  # cells shuffled by a kick when a descent has stalled; 4 more per failed kick
KICK_MAX = 36
SLACK = 2  # a descent's board replaces the base when at most this far below it


def kick(board: Board, sol: Solution, rng: np.random.Generator, size: int = KICK) -> Solution:
    """Shuffle a window's pieces (random placements of the same classes): the way out of a
    local optimum that no exact repair of the chosen sizes can leave."""
    pcs, rts = board.arrays(sol)
    cells = window(board, pcs, rts, rng, size)
    for k in range(3):
        group = cells[board.cell_class[cells] == k]
        perm = rng.permutation(len(group))
        pcs[group] = pcs[group][perm]
        for c in group.tolist():
            rots = np.flatnonzero(board.allowed[c, pcs[c]])
            rts[c] = int(rng.choice(rots))
    return board.solution(pcs, rts)


def start_board(inst: EdgeInstance, opts: SolveOptions, seconds: float,
                wall: float | None = None, end: float | None = None) -> Solution | None:
    """The hint when it is a complete board, else the break search's best within `seconds`
    (any board at all if that finds none; None if not even that by `end`, a perf_counter()).
    With `wall`, `seconds` counts CPU time and `wall` bounds the wall time: on a loaded
    machine the search still gets its share of work."""
    from . import breakscan

    if opts.hint and len(opts.hint) == inst.width * inst.height:
        return dict(opts.hint)
    joins = sq.join_count(inst.width, inst.height)
    cpu0 = time.process_time()

    def stop() -> bool:
        return opts.stopped() or (wall is not None and time.process_time() - cpu0 > seconds)

    res = breakscan.search(inst, breakscan.schedule_of(inst, opts.params), opts.seed,
                           time_limit=seconds if wall is None else wall, stop=stop,
                           fix=opts.fix, report=opts.report,
                           on_board=lambda b, k: opts.offer(b, joins - k, "backtracker"))
    if res.board is not None:
        return res.board
    # breaks anywhere: a board within the first scan; a million placements (~0.1 CPU s on
    # Eternity II) lower its breaks a little without eating a short run's budget
    anything = breakscan.Schedule(inst.width * inst.height * 2, 0)
    left = None if end is None else max(0.0, end - time.perf_counter())
    return breakscan.search(inst, anything, opts.seed, node_limit=10 ** 6, fix=opts.fix,
                            time_limit=left, stop=opts.stopped).board


def _number(params: dict, name: str, default: float, lo: float, hi: float) -> float:
    from ...backends.ga import convert

    if name not in params:
        return default

    def conv(text: str) -> float:
        v = float(text)
        if not lo <= v <= hi:
            raise ValueError
        return v

    return convert(params, name, conv, f"a number in [{lo:g}, {hi:g}]")


def solve(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    """Break-search start, then simulated annealing over swaps and rotations (anneal.py; the
    default, `anneal=on`) or the exact repairs below (`anneal=off`)."""
    if opts.objective != "matches":
        raise InputError("the lns backend maximises matched joins; add --objective matches")
    if OPTIONS.value(opts.params, "anneal"):
        return solve_annealing(inst, opts)
    return solve_repairs(inst, opts)


def schedule_of(params: dict):
    """The annealing schedule (anneal.Schedule) the options ask for."""
    from . import anneal

    replicas = OPTIONS.value(params, "replicas") or anneal.REPLICAS
    triples, blocks = OPTIONS.value(params, "triples"), OPTIONS.value(params, "blocks")
    t_hot = _number(params, "temperature", anneal.T_HOT if replicas == 1 else anneal.T_LOW,
                    0.0, 100.0)
    t_max = _number(params, "t_max", max(t_hot, anneal.T_MAX), 0.0, 100.0)
    if replicas > 1 and not 0 < t_hot <= t_max:
        raise InputError(f"--replicas {replicas} needs 0 < --temperature <= --t-max, got "
                         f"{t_hot:g} and {t_max:g}")
    return anneal.Schedule(
        t_hot=t_hot, t_cold=_number(params, "t_cold", min(t_hot, anneal.T_COLD), 0.0, 100.0),
        cycle=_number(params, "cycle", anneal.CYCLE, 0.1, 1e9), replicas=replicas,
        t_max=t_max, triples=anneal.TRIPLES if triples is None else triples,
        blocks=anneal.BLOCKS if blocks is None else blocks,
        penalty=_number(params, "penalty", anneal.PENALTY, 0.0, anneal.PENALTY_MAX))


def solve_annealing(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    """Break-search start, then cooling cycles of simulated annealing, each from the best
    board; after `renew` CPU seconds without a gain, a new break-search board (a new seed)
    is annealed instead. Measured on the official Eternity II (lab/pages/hybrid.md): the exact
    repairs below stall at 445-452, while annealing at T = 0.19 passes 450 within 5 CPU s
    of a 440 start."""
    from . import anneal

    p = opts.params
    t0, cpu0 = time.perf_counter(), time.process_time()
    limit = opts.remaining()  # the process's start-up counted
    end = None if limit is None else t0 + limit
    start_time = _number(p, "start_time", min(10.0, 0.1 * limit) if limit else 10.0, 0, 1e9)
    sched = schedule_of(p)
    renew = _number(p, "renew", RENEW, 0.1, 1e9)
    board = Board(inst, opts.fix)

    def wall() -> float:  # a start board may take up to 4x its CPU seconds on a loaded machine
        cap = 4 * start_time
        return cap if end is None else max(0.05, min(cap, end - time.perf_counter()))

    best = start_board(inst, opts, start_time, wall(), end)
    if best is None:
        return Outcome(Status.TIMEOUT, stats={"solver": "lns", "stopped": "no start board "
                                              "within the limit"})
    best_score = board.score(*board.arrays(best))
    opts.offer(best, best_score, "hint" if best == opts.hint else "backtracker")
    joins = len(board.joins)
    last_gain, starts = time.process_time(), 1

    def on_improve(sol: Solution, score: int) -> None:
        nonlocal best, best_score, last_gain
        last_gain = time.process_time()
        if score > best_score:
            best, best_score = sol, score
            opts.offer(sol, score, "lns")

    def stale() -> bool:
        return opts.stopped() or time.process_time() - last_gain > renew

    current = best
    tempering = anneal.TemperStats()
    inbox = p.get("inbox")
    incoming = None if inbox is None else inbox.take
    while best_score < joins and not opts.stopped() and \
            (end is None or time.perf_counter() < end):
        left = 1e9 if end is None else max(0.05, end - time.perf_counter())
        last_gain = time.process_time()
        sched.search(board, current, opts.seed + 7919 * starts, seconds=left, stop=stale,
                     on_improve=on_improve, stats=tempering, incoming=incoming)
        if opts.stopped() or (end is not None and time.perf_counter() >= end):
            break
        fresh = replace(opts, seed=opts.seed + 7919 * starts, hint=None,
                        on_solution=None, progress_jsonl=None)
        current = start_board(inst, fresh, start_time, wall(), end)
        if current is None:
            break
        starts += 1
        on_improve(current, board.score(*board.arrays(current)))
    out = {"solver": "lns", "method": "anneal", "replicas": sched.replicas,
           "temperature": [sched.t_hot, sched.t_max if sched.replicas > 1 else sched.t_cold],
           "triples": sched.triples, "blocks": sched.blocks, "penalty": sched.penalty,
           "starts": starts,
           **({"exchanges": tempering.exchanges, "moves": tempering.moves}
              if sched.replicas > 1 else {}),
           **({"received": inbox.received} if inbox is not None else {}),
           "seconds": round(time.perf_counter() - t0, 4),
           "cpu_seconds": round(time.process_time() - cpu0, 4)}
    status = Status.SOLVED if best_score == joins else Status.FEASIBLE
    return Outcome(status, best, best_score, joins if status == Status.SOLVED else None, out)


def solve_repairs(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    """Break-search start, then exact repairs as an iterated local search: each descent ends
    after `patience` CPU seconds without a gain; its board becomes the base when it is at most
    SLACK below the base (a walk across near-equal optima), and the next descent starts from
    the base kicked, harder after each failure."""
    p = opts.params
    t0, cpu0 = time.perf_counter(), time.process_time()
    limit = opts.remaining()  # the process's start-up counted
    start_time = _number(p, "start_time", min(20.0, 0.1 * limit) if limit else 20.0, 0, 1e9)
    patience = _number(p, "patience", 10.0, 0.1, 1e9)
    region_time = _number(p, "region_time", 0.5, 0.01, 1e9)
    share = _number(p, "assign_share", 0.7, 0.0, 1.0)
    rows = _number(p, "rows_share", 0.05, 0.0, 1.0 - share)
    rng = np.random.default_rng(opts.seed)
    board = Board(inst, opts.fix)
    best = start_board(inst, opts, start_time, end=None if limit is None else t0 + limit)
    if best is None:
        return Outcome(Status.TIMEOUT, stats={"solver": "lns", "stopped": "no start board "
                                              "within the limit"})
    best_score = board.score(*board.arrays(best))
    joins = len(board.joins)
    opts.offer(best, best_score, "hint" if best == opts.hint else "backtracker")
    end = None if limit is None else t0 + limit
    stats, sizes = LnsStats(), Sizes()
    current, kicks, fails = best, 0, 0
    base, base_score = best, best_score

    def on_improve(sol: Solution, score: int) -> None:
        nonlocal best, best_score
        if score > best_score:
            best, best_score = sol, score
            opts.offer(sol, score, "lns")
            opts.report(best=score, max=joins, moves=stats.moves, kicks=kicks)

    while best_score < joins and not opts.stopped() and \
            (end is None or time.perf_counter() < end):
        left = None if end is None else max(0.05, end - time.perf_counter())
        before = best_score
        current, score = improve(board, current, rng, time_limit=left, stop=opts.stopped,
                                 on_improve=on_improve, sizes=sizes, region_time=region_time,
                                 assign_share=share, rows_share=rows, fix=opts.fix,
                                 stats=stats, patience=patience)
        fails = 0 if best_score > before else fails + 1
        if score >= base_score - SLACK:
            base, base_score = current, score
        current = kick(board, base, rng, min(KICK_MAX, KICK + 4 * fails))
        kicks += 1
    out = {"solver": "lns", "moves": stats.moves, "gains": stats.gains, "kicks": kicks,
           "sizes": sizes.cpsat, "seconds": round(time.perf_counter() - t0, 4),
           "cpu_seconds": round(time.process_time() - cpu0, 4)}
    status = Status.SOLVED if best_score == joins else Status.FEASIBLE
    return Outcome(status, best, best_score, joins if status == Status.SOLVED else None, out)


BACKEND = Backend("lns", OPTIONS, solve, objectives=("matches",))
