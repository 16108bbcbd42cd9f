"""Tabu search over swaps: the local search that finds large magic hexagons quickly.

A board is a permutation of the numbers over the cells (givens stay put). Its cost is the sum
of squared line errors e_l = sum(line l) - M. Swapping cells i and j (d = v_j - v_i) changes
the cost by

    2 d (g_i - g_j) + d^2 (6 - 2 S_ij),   g = A^T e,  S = A^T A (lines shared by i and j)

with A the line/cell incidence matrix, so every swap of a cell on a wrong line is scored at
once with numpy. S_ij counts equal line numbers, direction by direction (each cell lies on one
line of each of the three directions): A^T A as an int64 product took over 120 s at order 60
(10,621 cells), the comparison 0.5 s. Past `PAIRS` candidate swaps a step scores a random
sample of the rows (order 60 would score 10^8 swaps a step, 900 MB per array).

Each step makes the best swap that is not tabu (a swap is tabu for a random
tenure after it was made, unless it beats the best cost seen); after `stall` steps without a
new best the board is shaken by a few random swaps. The defaults (tenure 5..10, 1000 steps,
3 swaps) came from short sweeps over orders 3..8; longer tenures left order 8 stuck.

The steps run compiled (`_tabu.c`, built on install) where every row's weights are kept
(order <= 26): 5-6 times the numpy steps' rate at order 8, and outside Python's lock, so
`tabu_race` runs one search per thread. Without the extension the numpy steps below run.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from .instance import MagicHexInstance

try:
    from . import _tabu
except ImportError:  # installed without a C compiler: the numpy steps
    _tabu = None

PAIRS = 1 << 22  # swaps scored in one step at most (32 MB per float64 array)
CHUNK = 256  # compiled steps between looks at the deadline and the stop flag (about 10 ms)
# the compiled search's state vector (_tabu.c's enum)
(S_N, S_L, S_IT, S_COST, S_BEST, S_RUN_BEST, S_SINCE, S_SHAKES, S_TENURE, S_STALL, S_SHAKE,
 S_RNG, S_SCORED, S_MOVABLE, S_STUCK, S_LEN) = range(16)


@dataclass
class TabuResult:
    values: np.ndarray  # number per cell, in inst.cells order
    cost: int  # sum of squared line errors; 0 = a magic hexagon
    iterations: int
    shakes: int
    scored: int = 0  # swaps scored (each the cost of a neighbouring board), over all steps
    engine: str = "numpy"  # which steps ran: "compiled" (_tabu.c) or "numpy"


class LineAlgebra:
    """The incidence matrix and the swap terms that do not depend on the board."""

    def __init__(self, inst: MagicHexInstance):
        self.inst = inst
        index = {c: i for i, c in enumerate(inst.cells)}
        self.n = len(inst.cells)
        self.a = np.zeros((len(inst.lines), self.n), dtype=np.int64)
        for li, (_name, cells) in enumerate(inst.lines):
            for c in cells:
                self.a[li, index[c]] = 1
        # line_of[i, k]: the line of cell i in direction k (lines come direction by direction)
        self.line_of = np.nonzero(self.a.T)[1].reshape(self.n, -1)
        self.pair_weight: np.ndarray | None = None
        if self.n * self.n <= PAIRS:  # small boards (order <= 26): every row's weights kept
            self.pair_weight = self.weights(np.arange(self.n))
        self.movable = np.ones(self.n, dtype=bool)
        for c in inst.givens:
            self.movable[index[c]] = False
        self.given_values = {index[c]: v for c, v in inst.givens.items()}

    def weights(self, rows: np.ndarray) -> np.ndarray:
        """6 - 2 S_ij for the cells `rows` (i) against every cell (j)."""
        if self.pair_weight is not None:
            return self.pair_weight[rows]
        shared = np.zeros((len(rows), self.n), dtype=np.float64)
        for k in range(self.line_of.shape[1]):
            shared += self.line_of[rows, k][:, None] == self.line_of[None, :, k]
        return 6.0 - 2.0 * shared

    def errors(self, values: np.ndarray) -> np.ndarray:
        return self.a @ values - self.inst.magic

    def costs(self, pop: np.ndarray) -> np.ndarray:
        """Cost of each board of a population (rows)."""
        e = pop @ self.a.T - self.inst.magic
        return (e * e).sum(axis=1)

    def random_board(self, rng: np.random.Generator) -> np.ndarray:
        board = np.empty(self.n, dtype=np.int64)
        free_values = [v for v in self.inst.values if v not in set(self.given_values.values())]
        board[self.movable] = rng.permutation(np.array(free_values, dtype=np.int64))
        for i, v in self.given_values.items():
            board[i] = v
        return board


def compiled_for(la: LineAlgebra) -> bool:
    """Whether `tabu_search` runs the compiled steps on this board."""
    return _tabu is not None and la.pair_weight is not None and int(la.movable.sum()) >= 2


def tabu_search(
    inst: MagicHexInstance,
    rng: np.random.Generator,
    start: np.ndarray | None = None,
    deadline: float | None = None,
    stop=None,
    max_iterations: int | None = None,
    tenure: int = 5,
    stall: int = 1000,
    shake: int = 3,
    algebra: LineAlgebra | None = None,
    compiled: bool = True,
) -> TabuResult:
    la = algebra or LineAlgebra(inst)
    v = la.random_board(rng) if start is None else np.array(start, dtype=np.int64)
    knobs = (deadline, stop, max_iterations, tenure, stall, shake)
    if compiled and compiled_for(la):
        return _compiled_search(la, v, rng, *knobs)
    return _numpy_search(la, v, rng, *knobs)


def _stopped(deadline: float | None, stop) -> bool:
    return (deadline is not None and time.monotonic() >= deadline) or (
        stop is not None and stop.is_set())


def _compiled_search(la: LineAlgebra, v: np.ndarray, rng: np.random.Generator, deadline, stop,
                     max_iterations, tenure, stall, shake) -> TabuResult:
    """`_numpy_search`'s steps in C (`_tabu.step`), CHUNK at a time."""
    n, lines = la.n, la.a.shape[0]
    line_of = np.ascontiguousarray(la.line_of, dtype=np.int64)
    rows, cols = np.nonzero(la.a)  # row-major: each line's cells together, lines in order
    line_start = np.searchsorted(rows, np.arange(lines + 1)).astype(np.int64)
    movable = la.movable.astype(np.int64)
    e = la.errors(v)
    g = la.a.T @ e
    scratch = np.zeros(2 * n, dtype=np.int64)  # wrong cells, then the movable ones
    movers = np.flatnonzero(la.movable)
    scratch[n:n + len(movers)] = movers
    cost = int(e @ e)
    st = np.zeros(S_LEN, dtype=np.int64)
    st[[S_N, S_L, S_COST, S_BEST, S_RUN_BEST, S_TENURE, S_STALL, S_SHAKE, S_MOVABLE, S_SCORED]] = (
        n, lines, cost, cost, cost, tenure, stall, shake, len(movers), 1)
    st[S_RNG] = int(rng.integers(0, 2**63 - 1))
    arrays = (line_of, line_start, cols.astype(np.int64), movable, v, e, g,
              np.zeros(n * n, dtype=np.int64), v.copy(), scratch, st)
    while st[S_COST] > 0 and not st[S_STUCK] and not _stopped(deadline, stop):
        budget = CHUNK if max_iterations is None else min(CHUNK, max_iterations - int(st[S_IT]))
        if budget <= 0:
            break
        _tabu.step(*arrays, budget)
    return TabuResult(arrays[8], int(st[S_BEST]), int(st[S_IT]), int(st[S_SHAKES]),
                      int(st[S_SCORED]), "compiled")


def tabu_race(inst: MagicHexInstance, seed: int | None, threads: int,
              deadline: float | None = None, stop=None, **knobs) -> tuple[TabuResult, int]:
    """`threads` searches at once, one per thread, each from its own random board; the first
    magic board stops the others. Returns the best result (its iterations, shakes and scored
    swaps summed over the searches) and the index of the search that found it. Search 0 is
    `tabu_search` with `default_rng(seed)`, so one thread is the single search. Threads need
    the compiled steps (the numpy steps hold Python's lock: two threads made 0.75 times the
    steps a second of one, order 8); without them one search runs."""
    la = LineAlgebra(inst)
    if threads <= 1 or not compiled_for(la):
        return tabu_search(inst, np.random.default_rng(seed), deadline=deadline, stop=stop,
                           algebra=la, **knobs), 0
    found = threading.Event()

    class Either:  # stop when told to, or when another search has a magic board
        @staticmethod
        def is_set() -> bool:
            return found.is_set() or (stop is not None and stop.is_set())

    seeds = [None] * threads if seed is None else [seed, *np.random.SeedSequence(seed).spawn(
        threads - 1)]

    def one(k: int) -> TabuResult:
        res = tabu_search(inst, np.random.default_rng(seeds[k]), deadline=deadline,
                          stop=Either, algebra=la, **knobs)
        if res.cost == 0:
            found.set()
        return res

    with ThreadPoolExecutor(threads, thread_name_prefix="tabu") as pool:
        results = list(pool.map(one, range(threads)))
    won = min(range(threads), key=lambda k: results[k].cost)
    best = results[won]
    return TabuResult(best.values, best.cost, sum(r.iterations for r in results),
                      sum(r.shakes for r in results), sum(r.scored for r in results),
                      best.engine), won


def _numpy_search(la: LineAlgebra, v: np.ndarray, rng: np.random.Generator, deadline, stop,
                  max_iterations, tenure, stall, shake) -> TabuResult:
    """Reference implementation of `_tabu.step`: the same steps in numpy (the fallback, and
    boards past order 26). Ties are drawn from numpy's generator, not the core's: the same
    moves (each a swap of the least cost change), not the same boards."""
    n = la.n
    e = la.errors(v)
    cost = int(e @ e)
    best_cost, best = cost, v.copy()
    run_best, since = cost, 0
    tabu = np.zeros((n, n), dtype=np.int64)
    frozen = ~la.movable
    it = shakes = 0
    scored = 1  # the start board's cost
    others = int(la.movable.sum()) - 1  # the movable cells a movable one can swap with
    while cost > 0:
        if max_iterations is not None and it >= max_iterations:
            break
        if (it % 64 == 0 or n * n > PAIRS) and _stopped(deadline, stop):
            break  # a large board's step takes ~0.1 s
        # only swaps touching a wrong line can help; score them all
        rows = np.flatnonzero(((la.a.T @ (e != 0)) > 0) & la.movable)
        if len(rows) * n > PAIRS:
            rows = np.sort(rng.choice(rows, max(1, PAIRS // n), replace=False))
        g = (la.a.T @ e).astype(np.float64)
        vf = v.astype(np.float64)
        d = vf[None, :] - vf[rows, None]
        delta = 2.0 * d * (g[rows, None] - g[None, :]) + d * d * la.weights(rows)
        delta[:, frozen] = np.inf
        delta[np.arange(len(rows)), rows] = np.inf
        blocked = (tabu[rows] > it) & (cost + delta >= best_cost)
        delta[blocked] = np.inf
        scored += len(rows) * others
        delta += rng.random(delta.shape) * 0.5  # random tie-breaking
        k = int(np.argmin(delta))
        if not np.isfinite(delta.flat[k]):
            break  # everything tabu or frozen (tiny boards)
        i, j = int(rows[k // n]), k % n
        step = v[j] - v[i]
        v[i], v[j] = v[j], v[i]
        e += step * (la.a[:, i] - la.a[:, j])
        cost = int(e @ e)
        tabu[i, j] = tabu[j, i] = it + tenure + int(rng.integers(0, tenure + 1))
        it += 1
        if cost < best_cost:
            best_cost, best = cost, v.copy()
        if cost < run_best:
            run_best, since = cost, 0
        else:
            since += 1
            if since > stall:
                movable = np.flatnonzero(la.movable)
                for _ in range(shake):
                    a, b = rng.choice(movable, 2, replace=False)
                    v[a], v[b] = v[b], v[a]
                e = la.errors(v)
                cost = run_best = int(e @ e)
                scored += 1
                since = 0
                shakes += 1
    return TabuResult(best, best_cost, it, shakes, scored)
