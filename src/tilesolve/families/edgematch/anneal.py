"""Simulated annealing over swaps and rotations for the most matched joins.

A move swaps the pieces of two cells of one class, each turned to its best rotation at its
new cell, or turns one inner piece to its best other rotation; moves of equal score are
always taken (on Eternity II most moves are: the search walks across plateaus), worse ones
with probability exp(delta / T). Millions of moves a second in the compiled core
(`_anneal.c`); without it the same loop runs in Python (about a hundred times slower).

The schedule (`anneal`) cools geometrically from T_HOT to T_COLD within a cycle and then
starts again from the best board met, so a long run is a chain of anneals that each start at
the record. The search is only as good as its start: from a break-search board (structured,
~440 on Eternity II) it climbs within seconds, from a weaker one (~420) it stays in the
low 430s at the same temperature; the LNS lane therefore renews its start (lns.py).

`temper` runs parallel tempering (a ladder of chains that trade boards by the Metropolis
rule), the core also has 3-cycles and 2x2 block turns, and `Penalties` turns the chain into
guided local search (joins that stay mismatched weigh more); `Schedule` picks among them
from the LNS options. None of them beat one chain at T = 0.19 at 60 CPU s on the official
Eternity II (lab/pages/hybrid.md), so they are options, not the default.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...core.result import Solution
from .lns import Board

try:
    from . import _anneal
except ImportError:  # built without a C compiler: the Python loop below serves
    _anneal = None

CHUNK = 200_000  # moves per call of the core (~50 ms): the clock and stop flag are read between
# a cycle's temperatures: on the official Eternity II from a 440 break-search board, a fixed
# T = 0.19 reached 450-454 within 3-7 CPU s; at 0.25 the board melts (407 after 10 M moves),
# at 0.10-0.13 it freezes at 444-446; cycles from 0.3 or hotter never came back
# (lab/pages/hybrid.md)
T_HOT, T_COLD = 0.19, 0.19
CYCLE = 30.0  # CPU seconds per cooling cycle; each cycle starts from the best board
# replica exchange (`temper`): chains at temperatures spaced geometrically from T_HOT up to
# T_MAX, SWEEP moves each between exchanges of neighbours' boards
T_LOW, T_MAX = 0.14, 0.30
SWEEP = 20_000
REPLICAS = 1
TRIPLES = 0.0
BLOCKS = 0.0
# guided local search (`Penalties`): a join's weight is 1 + its penalty; after each chunk every
# penalty decays by DECAY and each mismatched join's grows by PENALTY (0: plain annealing), up
# to PENALTY_MAX; weights are counted in 1/UNIT of a join in the core
PENALTY = 0.0
DECAY = 0.95
PENALTY_MAX = 4.0
UNIT = 16


class CpuBudget:
    """A stop request (SolveOptions.stop) set once this process has used `seconds` more CPU:
    runs on a loaded machine then compare at equal work, not equal wall time."""

    def __init__(self, seconds: float):
        self.end = time.process_time() + seconds

    def is_set(self) -> bool:
        return time.process_time() >= self.end


class Penalties:
    """Guided local search: joins that stay mismatched weigh more in the annealer's objective,
    so the chain is pushed to fix them and to break joins elsewhere instead, which moves the
    mismatches across the board rather than letting them sit where the board froze. The
    weights are the core's eleventh array, packed as (weight in 1/UNIT of a join) << 8 | 1."""

    def __init__(self, board: Board, step: float, decay: float = DECAY,
                 most: float = PENALTY_MAX):
        self.board, self.step, self.decay, self.most = board, step, decay, most
        j = board.joins
        self.sides = (j[:, 0] * 4 + j[:, 1], j[:, 2] * 4 + board.opp[j[:, 1]])
        self.extra = np.zeros(len(j))
        self.packed = np.zeros(board.n * 4, dtype=np.int32)
        self.pack()

    def pack(self) -> None:
        w = (UNIT + np.rint(self.extra * UNIT)).astype(np.int32)
        for side in self.sides:
            self.packed[side] = (w << 8) | 1

    def update(self, pcs: np.ndarray, rts: np.ndarray) -> None:
        """Decay every penalty, raise those of the joins mismatched on this board."""
        self.extra *= self.decay
        self.extra[~self.board.matched(pcs, rts)] += self.step
        np.minimum(self.extra, self.most, out=self.extra)
        self.pack()

    def reset(self) -> None:
        self.extra[:] = 0
        self.pack()


class Annealer:
    """The state of one annealing run on one board (current and best), as the core's arrays."""

    def __init__(self, board: Board, sol: Solution, seed: int, engine: str = "auto"):
        self.board = board
        pcs, rts = board.arrays(sol)
        n, npieces = board.n, board.inst.n
        col = board.col.astype(np.int32).reshape(npieces * 16)
        nb = board.nb.astype(np.int32).reshape(n * 4)
        bits = (board.allowed * (1 << np.arange(4))).sum(axis=2).astype(np.uint8)
        movable = np.flatnonzero(board.free).astype(np.int32)
        klass = board.cell_class.astype(np.int32)
        score = board.score(pcs, rts)
        cur = [pcs.astype(np.int32), rts.astype(np.int32)]
        best = [pcs.astype(np.int32), rts.astype(np.int32)]
        rng = np.random.default_rng(seed)
        state = np.array([int(rng.integers(1, 1 << 62)), score, score, npieces], dtype=np.int64)
        self.arrays = (col, nb, bits.reshape(n * npieces), movable, klass, *cur, *best, state)
        self.compiled = engine != "python" and _anneal is not None and len(movable) > 0
        self.penalties: Penalties | None = None  # set for guided local search

    @property
    def score(self) -> int:
        return int(self.arrays[9][1])

    @property
    def best_score(self) -> int:
        return int(self.arrays[9][2])

    def best(self) -> Solution:
        return self.board.solution(self.arrays[7], self.arrays[8])

    def current(self) -> Solution:
        return self.board.solution(self.arrays[5], self.arrays[6])

    def restart(self, sol: Solution) -> None:
        """Continue from `sol` (its score becomes the current one; the best is kept)."""
        pcs, rts = self.board.arrays(sol)
        self.arrays[5][:], self.arrays[6][:] = pcs, rts
        self.arrays[9][1] = self.board.score(pcs, rts)
        if self.arrays[9][1] > self.arrays[9][2]:
            self.arrays[7][:], self.arrays[8][:] = pcs, rts
            self.arrays[9][2] = self.arrays[9][1]

    def run(self, moves: int, temperature: float, focus: float = 0.5,
            triples: float = 0.0, blocks: float = 0.0) -> int:
        """`moves` moves at one temperature; returns how many were taken. `triples`: the
        share of swaps made 3-cycles instead (three cells of one class); `blocks`: the share
        of moves from an inner cell that turn a 2x2 block of inner cells holding it."""
        if len(self.arrays[3]) == 0:
            return 0
        arrays, unit = self.arrays, 1
        if self.penalties is not None:
            arrays, unit = (*arrays, self.penalties.packed), UNIT
        if self.compiled:
            return _anneal.run(arrays, moves, temperature, focus, triples, blocks, unit)[2]
        return py_run(arrays, moves, temperature, focus, triples, blocks, unit)

    def replica(self, seed: int) -> Annealer:
        """A second chain on the same board from this one's current board: the tables are
        shared, the board, best and random state are its own."""
        twin = object.__new__(Annealer)
        twin.board, twin.compiled, twin.penalties = self.board, self.compiled, None
        cur = [x.copy() for x in self.arrays[5:7]]
        state = self.arrays[9].copy()
        state[0] = int(np.random.default_rng(seed).integers(1, 1 << 62))
        state[2] = state[1]
        twin.arrays = (*self.arrays[:5], *cur, *[x.copy() for x in cur], state)
        return twin


def anneal(board: Board, sol: Solution, seed: int, *, seconds: float,
           stop: Callable[[], bool] = lambda: False,
           on_improve: Callable[[Solution, int], None] | None = None,
           t_hot: float = T_HOT, t_cold: float = T_COLD, cycle: float = CYCLE,
           focus: float = 0.5, engine: str = "auto",
           assign_every: int = 0, triples: float = 0.0, blocks: float = 0.0,
           penalty: float = PENALTY,
           incoming: Incoming | None = None) -> tuple[Solution, int]:
    """Cycles of cooling from t_hot to t_cold (`cycle` CPU s each), each from the best board;
    returns the best board met and its score (never worse than `sol`). on_improve sees each
    new best, at most once per chunk of moves. `assign_every` > 0: after that many chunks
    the current board gets one very large move, the optimal re-placement of scattered cells
    of one class (lns.assign, never worse), and the chain goes on from it. `incoming`: a
    board from elsewhere (another lane's best) to start the next cycle from when it beats
    this run's best. `penalty` > 0: guided local search (Penalties), the weights updated after
    every chunk and cleared at each cycle's restart."""
    a = Annealer(board, sol, seed, engine)
    if penalty > 0:
        a.penalties = Penalties(board, penalty)
    rng = np.random.default_rng(seed)
    chunks = 0
    target = len(board.joins)
    cpu0 = time.process_time()
    end = time.monotonic() + seconds
    cycle_start, reported = cpu0, a.best_score
    chunk = CHUNK if a.compiled else 2_000
    while a.best_score < target and time.monotonic() < end and not stop():
        frac = min(1.0, (time.process_time() - cycle_start) / cycle)
        temp = t_hot * (t_cold / t_hot) ** frac
        a.run(chunk, temp, focus, triples, blocks)
        chunks += 1
        if assign_every and chunks % assign_every == 0:
            a.restart(reassigned(board, a.current(), rng))
        if a.penalties is not None:
            a.penalties.update(a.arrays[5], a.arrays[6])
        if frac >= 1.0:
            a.restart(received(incoming, a.best_score) or a.best())
            if a.penalties is not None:
                a.penalties.reset()
            cycle_start = time.process_time()
        if a.best_score > reported and on_improve is not None:
            reported = a.best_score
            on_improve(a.best(), reported)
    return a.best(), a.best_score


def ladder(t_cold: float, t_hot: float, count: int) -> list[float]:
    """`count` temperatures from t_cold to t_hot, spaced geometrically (coldest first)."""
    if count == 1:
        return [t_cold]
    return [t_cold * (t_hot / t_cold) ** (k / (count - 1)) for k in range(count)]


def exchange(scores: list[int], temps: list[float], slots: list[int],
             rng: np.random.Generator, parity: int) -> int:
    """Replica exchange between neighbouring temperatures i, i + 1 (i of the given parity):
    slots[i] is the chain at temps[i]; the two chains trade temperatures with probability
    min(1, exp((1/T_i - 1/T_i+1) * (score_hot - score_cold))), the Metropolis rule of
    parallel tempering with energy = -score. Returns how many pairs traded."""
    traded = 0
    for i in range(parity, len(temps) - 1, 2):
        a, b = slots[i], slots[i + 1]
        x = (1.0 / temps[i] - 1.0 / temps[i + 1]) * (scores[b] - scores[a])
        if x >= 0 or rng.random() < math.exp(x):
            slots[i], slots[i + 1] = b, a
            traded += 1
    return traded


Incoming = Callable[[], "tuple[Solution, float] | None"]  # lanes.Inbox.take


def received(incoming: Incoming | None, than: int) -> Solution | None:
    """The board `incoming` holds when it scores more than `than`, else None."""
    got = incoming() if incoming is not None else None
    return got[0] if got is not None and got[1] > than else None


@dataclass
class TemperStats:
    moves: int = 0
    rounds: int = 0
    exchanges: int = 0  # pairs of chains that traded temperatures
    restarts: int = 0


def temper(board: Board, sol: Solution, seed: int, *, seconds: float,
           stop: Callable[[], bool] = lambda: False,
           on_improve: Callable[[Solution, int], None] | None = None,
           temps: list[float], sweep: int = SWEEP, cycle: float = CYCLE,
           focus: float = 0.5, engine: str = "auto", triples: float = 0.0,
           blocks: float = 0.0, stats: TemperStats | None = None,
           chains: list[Annealer] | None = None,
           incoming: Incoming | None = None) -> tuple[Solution, int]:
    """Parallel tempering: one chain per temperature of `temps` (all from `sol`), each
    making `sweep` moves in turn, then neighbours exchange boards by the Metropolis rule
    (`exchange`, even and odd pairs by turns). Every `cycle` CPU s the coldest chain restarts
    from the best board any chain met (or from `incoming`'s board when that is better).
    Returns that best board and its score; `chains`, when given, receives the chains."""
    if not temps or min(temps) <= 0:
        raise ValueError("tempering needs temperatures > 0")
    stats = stats if stats is not None else TemperStats()
    first = Annealer(board, sol, seed, engine)
    chains = chains if chains is not None else []
    chains[:] = [first] + [first.replica(seed + 7919 * (k + 1)) for k in range(len(temps) - 1)]
    slots = list(range(len(chains)))  # slots[i]: the chain now at temps[i]
    rng = np.random.default_rng(seed)
    target = len(board.joins)
    end = time.monotonic() + seconds
    cycle_start = time.process_time()
    leader = first
    reported = first.best_score
    sweep = sweep if first.compiled else max(1, sweep // 100)
    while reported < target and time.monotonic() < end and not stop():
        for i, t in enumerate(temps):
            chains[slots[i]].run(sweep, t, focus, triples, blocks)
        stats.moves += sweep * len(temps)
        stats.exchanges += exchange([c.score for c in chains], temps, slots, rng,
                                    stats.rounds % 2)
        stats.rounds += 1
        leader = max(chains, key=lambda c: c.best_score)
        if time.process_time() - cycle_start >= cycle:
            chains[slots[0]].restart(received(incoming, leader.best_score) or leader.best())
            leader = max(chains, key=lambda c: c.best_score)
            stats.restarts += 1
            cycle_start = time.process_time()
        if leader.best_score > reported:
            reported = leader.best_score
            if on_improve is not None:
                on_improve(leader.best(), reported)
    return leader.best(), leader.best_score


@dataclass(frozen=True)
class Schedule:
    """How a run anneals: one chain cooling from t_hot to t_cold in each cycle (replicas 1),
    or parallel tempering over `replicas` chains from t_hot (the coldest) up to t_max;
    `triples` of the swaps are 3-cycles, `blocks` of the moves from inner cells turn a 2x2
    block."""

    t_hot: float = T_HOT
    t_cold: float = T_COLD
    cycle: float = CYCLE
    replicas: int = REPLICAS
    t_max: float = T_MAX
    triples: float = TRIPLES
    blocks: float = BLOCKS
    focus: float = 0.5
    penalty: float = PENALTY

    def search(self, board: Board, sol: Solution, seed: int, *, seconds: float,
               stop: Callable[[], bool] = lambda: False,
               on_improve: Callable[[Solution, int], None] | None = None,
               stats: TemperStats | None = None,
               incoming: Incoming | None = None) -> tuple[Solution, int]:
        """The best board met from `sol` and its score (never worse than `sol`)."""
        if self.replicas > 1:
            return temper(board, sol, seed, seconds=seconds, stop=stop, on_improve=on_improve,
                          temps=ladder(self.t_hot, self.t_max, self.replicas),
                          cycle=self.cycle, focus=self.focus, triples=self.triples,
                          blocks=self.blocks, stats=stats, incoming=incoming)
        return anneal(board, sol, seed, seconds=seconds, stop=stop, on_improve=on_improve,
                      t_hot=self.t_hot, t_cold=self.t_cold, cycle=self.cycle,
                      focus=self.focus, triples=self.triples, blocks=self.blocks,
                      penalty=self.penalty, incoming=incoming)


def reassigned(board: Board, sol: Solution, rng: np.random.Generator) -> Solution:
    """`sol` after one assignment move of lns (scattered cells of one class re-placed
    optimally, ties at random): at least as good, often a different board of equal score."""
    from .lns import assign, scattered

    pcs, rts = board.arrays(sol)
    inner = int((board.free & (board.cell_class == 2)).sum())
    cells = scattered(board, pcs, rts, rng, int(rng.integers(8, max(9, inner // 2))))
    assign(board, pcs, rts, cells, rng)
    return board.solution(pcs, rts)


# --- the reference loop (the fallback without a compiler) ----------------------------------
def py_run(arrays: tuple, moves: int, temp: float, focus: float, triples: float = 0.0,
           blocks: float = 0.0, unit: int = 1) -> int:
    """Reference implementation of `_anneal.c`'s `run`: move for move the same kinds
    (not the same draws: numpy's generator, not the core's); with an eleventh array, the
    packed join weights, the same weighted rule. Returns the moves taken."""
    return _PyChain(arrays, temp, unit).run(moves, focus, triples, blocks)


class _PyChain:
    """One call of the reference loop: the core's arrays, edited in place, and the
    generator seeded from the state array (its next seed is written back at the end)."""

    def __init__(self, arrays: tuple, temp: float, unit: int) -> None:
        (self.col, self.nb, self.amask, self.movable, self.klass, self.pcs, self.rts,
         self.bpcs, self.brts, self.state) = arrays[:10]
        self.weights = arrays[10] if len(arrays) > 10 else None
        self.temp, self.unit = temp, unit
        self.npieces = int(self.state[3])
        self.rng = np.random.default_rng(int(self.state[0]))
        movable, klass = self.movable, self.klass
        self.byclass = [[int(c) for c in movable if klass[c] == k] for k in range(3)]
        self.inner = {int(c) for c in movable if klass[c] == 2}
        self.real_mask = -1 if self.weights is None else 255

    # scores
    def shown(self, c: int, s: int) -> int:
        return int(self.col[(self.pcs[c] * 4 + self.rts[c]) * 4 + s])

    def value(self, c: int, s: int) -> int:
        return 1 if self.weights is None else int(self.weights[c * 4 + s])

    def cell_score(self, c: int) -> int:
        k = 0
        for s in range(4):
            o = int(self.nb[c * 4 + s])
            if o >= 0:
                x = self.shown(c, s)
                k += self.value(c, s) if x != 0 and x == self.shown(o, (s + 2) % 4) else 0
        return k

    def change(self, before: int, after: int) -> tuple[int, int]:
        """(weighted, real) change between two packed sums."""
        if self.weights is None:
            return after - before, after - before
        return (after >> 8) - (before >> 8), (after & 255) - (before & 255)

    def side_of(self, a: int, b: int) -> int:
        return next((s for s in range(4) if self.nb[a * 4 + s] == b), -1)

    def joined(self, a: int, b: int, side: int) -> int:
        if side < 0:
            return 0
        x = self.shown(a, side)
        return self.value(a, side) if x != 0 and x == self.shown(b, (side + 2) % 4) else 0

    def pair_score(self, a: int, b: int, side: int) -> int:
        return self.cell_score(a) + self.cell_score(b) - self.joined(a, b, side)

    def quad_score(self, q: list[int]) -> int:
        return sum(self.cell_score(x) for x in q) - sum(
            self.joined(q[k], q[(k + 1) % 4], self.side_of(q[k], q[(k + 1) % 4]))
            for k in range(4))

    def trio_score(self, a: int, b: int, c: int) -> int:
        joined, side_of = self.joined, self.side_of
        return self.cell_score(a) + self.cell_score(b) + self.cell_score(c) \
            - joined(a, b, side_of(a, b)) - joined(b, c, side_of(b, c)) \
            - joined(a, c, side_of(a, c))

    # helpers of the moves
    def block_at(self, a: int, west: int, north: int) -> list[int] | None:
        """The 2x2 block of movable inner cells with `a` at a corner, clockwise from its
        top-left (see block_at in _anneal.c)."""
        nb, inner = self.nb, self.inner
        c = a
        for side, step in ((3, west), (0, north)):
            if step and c >= 0:
                c = int(nb[c * 4 + side])
        if c not in inner:
            return None
        b, e = int(nb[c * 4 + 1]), int(nb[c * 4 + 2])
        d = int(nb[b * 4 + 2]) if b >= 0 else -1
        return [c, b, d, e] if {b, d, e} <= inner else None

    def rotations(self, c: int) -> list[int]:
        mask = int(self.amask[c * self.npieces + self.pcs[c]])
        return [r for r in range(4) if mask >> r & 1]

    def best_turns(self, cs: list[int], side: int, skip: int = -1) -> None:
        """Best rotations of the pieces at cs (one cell, or a pair joined across side)."""
        rotations, rts = self.rotations, self.rts
        combos = [(r,) for r in rotations(cs[0]) if r != skip] if len(cs) == 1 else \
            [(ra, rb) for ra in rotations(cs[0]) for rb in rotations(cs[1])]
        if not combos:
            return
        scored = []
        for combo in combos:
            for c, r in zip(cs, combo, strict=True):
                rts[c] = r
            scored.append(self.cell_score(cs[0]) if len(cs) == 1 else
                          self.pair_score(*cs, side))
        top = max(scored)
        pick = combos[int(self.rng.choice([i for i, v in enumerate(scored) if v == top]))]
        for c, r in zip(cs, pick, strict=True):
            rts[c] = r

    def take(self, delta: int) -> bool:
        return delta >= 0 or (self.temp > 0 and
                              self.rng.random() < math.exp(delta / (self.temp * self.unit)))

    def undo(self, old: list[tuple[int, int, int]]) -> None:
        for x, p, r in old:
            self.pcs[x], self.rts[x] = p, r

    # the moves: each returns the real change of the score, or None when refused
    def block_move(self, a: int) -> int | None:
        """Turn the 2x2 block of inner cells holding `a` a quarter round."""
        pcs, rts = self.pcs, self.rts
        way = int(self.rng.integers(8))
        q = self.block_at(a, way & 1, way >> 1 & 1)
        if q is None:
            return None
        old = [(x, int(pcs[x]), int(rts[x])) for x in q]
        before = self.quad_score(q)
        step = 1 if way >> 2 & 1 else 3  # a quarter clockwise, or anticlockwise
        for k, (_, p, r) in enumerate(old):
            pcs[q[(k + step) % 4]], rts[q[(k + step) % 4]] = p, (r + step) % 4
        fits = all(int(self.amask[x * self.npieces + pcs[x]]) >> int(rts[x]) & 1 for x in q)
        delta, real = self.change(before, self.quad_score(q)) if fits else (0, 0)
        if not fits or not self.take(delta):
            self.undo(old)
            return None
        return real

    def triple_move(self, a: int, kl: int) -> int | None:
        """A 3-cycle of the pieces of `a` and two other cells of its class."""
        pcs, rts = self.pcs, self.rts
        b, c = (int(x) for x in self.rng.choice([x for x in self.byclass[kl] if x != a], 2,
                                                 replace=False))
        old = [(x, int(pcs[x]), int(rts[x])) for x in (a, b, c)]
        before = self.trio_score(a, b, c)
        pcs[b], pcs[c], pcs[a] = old[0][1], old[1][1], old[2][1]
        for x in (a, b, c):
            self.best_turns([x], -1)
        delta, real = self.change(before, self.trio_score(a, b, c))
        if not self.take(delta):
            self.undo(old)
            return None
        return real

    def turn_move(self, a: int) -> int | None:
        """The inner piece at `a` to its best other rotation."""
        oa = int(self.rts[a])
        before = self.cell_score(a)
        self.best_turns([a], -1, skip=oa)
        delta, real = self.change(before, self.cell_score(a))
        if not self.take(delta):
            self.rts[a] = oa
            return None
        return real

    def swap_move(self, a: int, kl: int) -> int | None:
        """Swap the pieces of `a` and another cell of its class, each turned its best way."""
        pcs, rts, byclass = self.pcs, self.rts, self.byclass
        if len(byclass[kl]) < 2:
            return None
        pa, oa = int(pcs[a]), int(rts[a])
        b = a
        while b == a:
            b = int(self.rng.choice(byclass[kl]))
        pb, ob = int(pcs[b]), int(rts[b])
        side = self.side_of(a, b)
        before = self.pair_score(a, b, side)
        pcs[a], pcs[b] = pb, pa
        if side >= 0:
            self.best_turns([a, b], side)
        else:
            self.best_turns([a], -1)
            self.best_turns([b], -1)
        delta, real = self.change(before, self.pair_score(a, b, side))
        if not self.take(delta):
            pcs[a], rts[a], pcs[b], rts[b] = pa, oa, pb, ob
            return None
        return real

    # the loop
    def pick(self, focus: float) -> int:
        """A movable cell; with probability `focus` (up to four times) one whose joins all
        match is drawn again."""
        rng, movable, full = self.rng, self.movable, (2, 3, 4)
        a = int(rng.choice(movable))
        for _k in range(4):
            if self.cell_score(a) & self.real_mask != full[int(self.klass[a])] or \
                    rng.random() >= focus:
                break
            a = int(rng.choice(movable))
        return a

    def move(self, focus: float, triples: float, blocks: float) -> int | None:
        """One move of the kind the draws pick; its real change, or None when refused."""
        rng = self.rng
        a = self.pick(focus)
        kl = int(self.klass[a])
        turn = kl == 2 and (len(self.byclass[kl]) < 2 or rng.integers(8) == 0)
        if kl == 2 and blocks and rng.random() < blocks:
            return self.block_move(a)
        if not turn and len(self.byclass[kl]) >= 3 and triples and rng.random() < triples:
            return self.triple_move(a, kl)
        if turn:
            return self.turn_move(a)
        return self.swap_move(a, kl)

    def run(self, moves: int, focus: float, triples: float, blocks: float) -> int:
        state = self.state
        score, best, taken = int(state[1]), int(state[2]), 0
        for _ in range(moves):
            real = self.move(focus, triples, blocks)
            if real is None:
                continue
            score += real
            taken += 1
            if score > best:
                best = score
                self.bpcs[:], self.brts[:] = self.pcs, self.rts
        state[0] = int(self.rng.integers(1, 1 << 62))
        state[1], state[2] = score, best
        return taken
