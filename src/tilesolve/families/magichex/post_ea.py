"""The evolutionary algorithm of the magic-hexagon post ("Sudoku on steroids"), as published.

The post's `MagicHexSolver(p_size, p_cand)`, step for step, on any magic-hexagon instance:

* A board is a row of N + 1 integers: column 0 always holds 0, columns 1..N the numbers of
  the cells in reading order (rows top to bottom, left to right). The post pads its line map
  with index 0 so that lines of different lengths sum in one numpy call.
* The population is p_size boards, each a random permutation of the numbers
  (`np.random.permutation`); givens, which the post does not have, stay in their cells.
* Cost (lower is fitter): the sum over all 3(2n-1) lines of |M - line sum|.
* Candidates: n_candidates is the divisor of p_size closest to int(p_size * p_cand). Each
  generation the boards are ordered by cost with numpy's argsort (the order of numpy 1.17-1.24,
  legacy_sort.py), the first n_candidates kept and each cloned p_size / n_candidates times,
  clones of one board side by side (`np.repeat`); that is the new population.
* Mutation: two cells are drawn uniformly, independently (so possibly the same cell: no
  change), and swapped, once in each of the **first n_candidates rows** of the cloned
  population. The post's `mutate` indexes `range(n_candidates)`, so the other rows stay exact
  copies of their board; with one candidate (the post's tuned (25, 0.0925)) that makes the
  EA a (1+1) EA that accepts a swap unless it raises the cost (argsort puts row 0 first among
  equal costs), and with (100, 0.2) only the four best boards are mutated, all five of their
  clones each, so the best board itself can be lost.
* Stop: when the best board of a population costs 0. The post has no other stopping rule; the
  budgets here (time, generations, evaluations, the stop flag) only cut a run short.

Random numbers come from numpy's legacy `RandomState(seed)` in the order the post draws them
(p_size permutations, then per generation `randint(1, N + 1, size=(2, n_candidates))`), so a
run with seed s is the post's code run after `np.random.seed(s)`. The generation loop is
compiled (`_postea.c`, built on install); without it the same loop runs in numpy.
Its statistics are those of the GA engine's runs: generations (the post's iterations),
evaluations (p_size boards per generation, plus the first population), best_fitness (minus the
cost), evaluations_to_best and the fitness curve.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ...backends.ga import FitnessCurve
from ...core.result import Solution
from .instance import MagicHexInstance
from .legacy_sort import legacy_argsort

try:
    from . import _postea
except ImportError:  # pragma: no cover - only without a C compiler
    _postea = None

BLOCK = 4096  # generations per compiled call; time and the stop flag are checked between calls


def candidate_count(p_size: int, p_cand: float) -> int:
    """The post's get_n_candidates: the divisor of p_size closest to int(p_size * p_cand)
    (the smaller one on a tie, as numpy's argmin)."""
    want = int(p_size * p_cand)
    divisors = [c for c in range(1, p_size + 1) if p_size % c == 0]
    return min(divisors, key=lambda c: abs(c - want))


class PostBoards:
    """The post's board layout and cost, for any instance."""

    def __init__(self, inst: MagicHexInstance):
        self.inst = inst
        column = {c: i + 1 for i, c in enumerate(inst.cells)}  # inst.cells is in reading order
        width = max(len(cells) for _name, cells in inst.lines)
        self.row_map = np.array(
            [[column[c] for c in cells] + [0] * (width - len(cells)) for _n, cells in inst.lines],
            dtype=np.int64)
        self.length = len(inst.cells) + 1
        self.movable = np.array([column[c] for c in inst.cells if c not in inst.givens],
                                dtype=np.int64)
        given = set(inst.givens.values())
        self.free_values = np.array([v for v in inst.values if v not in given], dtype=np.int64)
        self.template = np.zeros(self.length, dtype=np.int64)
        for c, v in inst.givens.items():
            self.template[column[c]] = v

    def random(self, rs: np.random.RandomState, n: int) -> np.ndarray:
        pop = np.tile(self.template, (n, 1))
        for row in pop:
            row[self.movable] = self.free_values[rs.permutation(len(self.free_values))]
        return pop

    def cost(self, pop: np.ndarray) -> np.ndarray:
        """The post's get_cost: sum over lines of |M - line sum|, per board."""
        return np.abs(self.inst.magic - pop[:, self.row_map].sum(axis=2)).sum(axis=1)

    def swap_columns(self, rs: np.random.RandomState, generations: int, rows: int) -> np.ndarray:
        """The post's mutation draws for `generations` generations: (generations, 2, rows)
        columns. One call yields what that many calls of randint(..., size=(2, rows)) yield:
        legacy bounded integers draw 32-bit words with no state kept between calls."""
        draws = rs.randint(0, len(self.movable), size=(generations, 2, rows))
        return self.movable[draws]

    def decode(self, board: np.ndarray) -> Solution:
        return {c: int(v) for c, v in zip(self.inst.cells, board[1:], strict=True)}


def select_best(costs: np.ndarray, n_cand: int) -> list[int]:
    """Rows of the n_cand cheapest boards, in the post's order (`costs.argsort()[:n_cand]`)."""
    return legacy_argsort(costs.tolist())[:n_cand]


def clone(pop: np.ndarray, rows: list[int], factor: int) -> np.ndarray:
    return np.repeat(pop[rows], factor, axis=0)


def mutate(cands: np.ndarray, swaps: np.ndarray) -> np.ndarray:
    """Swap columns swaps[0][r] and swaps[1][r] in row r, for the first len(swaps[0]) rows."""
    rows = np.arange(swaps.shape[1])
    a, b = swaps
    cands[rows, a], cands[rows, b] = cands[rows, b], cands[rows, a]
    return cands


@dataclass
class PostRun:
    """The state of one run; `step` advances it by whole generations."""

    boards: PostBoards
    p_size: int
    n_cand: int
    seed: int
    mutate_all: bool = False  # the prose's reading: every clone swapped, not the first n_cand
    cands: np.ndarray = field(init=False)
    generation: int = 0
    evaluations: int = 0
    best_cost: int = 0
    best_board: np.ndarray = field(init=False)
    evaluations_to_best: int = 0
    curve: FitnessCurve = field(default_factory=FitnessCurve)

    def __post_init__(self) -> None:
        if self.p_size % self.n_cand:
            raise ValueError("the number of candidates must divide the population")
        self.rs = np.random.RandomState(self.seed)
        pop = self.boards.random(self.rs, self.p_size)
        costs = self.boards.cost(pop)
        order = select_best(costs, self.n_cand)
        self.evaluations = self.p_size
        self.best_cost = int(costs[order[0]])
        self.best_board = pop[order[0]].copy()
        self.evaluations_to_best = self.evaluations
        self.curve.add(0, self.evaluations, -self.best_cost, -costs)
        self.cands = clone(pop, order, self.p_size // self.n_cand)

    @property
    def mutated(self) -> int:
        """Rows swapped per generation."""
        return self.p_size if self.mutate_all else self.n_cand

    @property
    def solved(self) -> bool:
        return self.best_cost == 0

    def step(self, generations: int, compiled: bool = True) -> None:
        """Run up to `generations` generations (fewer if a board reaches cost 0)."""
        if self.solved or generations < 1:
            return
        swaps = self.boards.swap_columns(self.rs, generations, self.mutated)
        before = self.best_cost
        if compiled and _postea is not None:
            gen_best, gen_mean = self._step_compiled(swaps)
        else:
            gen_best, gen_mean = self._step_numpy(swaps)
        self._record(before, gen_best, gen_mean)

    def _step_numpy(self, swaps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Reference implementation of `_postea.step`: the same generations in numpy (the
        fallback)."""
        best, mean = [], []
        factor = self.p_size // self.n_cand
        for s in swaps:
            pop = mutate(self.cands, s)
            costs = self.boards.cost(pop)
            order = select_best(costs, self.n_cand)
            low = int(costs[order[0]])
            best.append(low)
            mean.append(float(costs.mean()))
            if low < self.best_cost:
                self.best_cost, self.best_board = low, pop[order[0]].copy()
            if low == 0:
                break
            self.cands = clone(pop, order, factor)
        return np.array(best, dtype=np.int64), np.array(mean)

    def _step_compiled(self, swaps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        k = len(swaps)
        b = self.boards
        state = np.array([self.best_cost, self.p_size, b.length, len(b.row_map),
                          b.row_map.shape[1], self.n_cand, b.inst.magic, self.mutated],
                         dtype=np.int64)
        gen_best = np.empty(k, dtype=np.int64)
        gen_mean = np.empty(k, dtype=np.float64)
        done = _postea.step(b.row_map, np.ascontiguousarray(swaps), self.cands,
                            np.empty_like(self.cands), self.best_board, gen_best, gen_mean,
                            np.empty(self.p_size, dtype=np.int64),
                            np.empty(self.p_size, dtype=np.int64), state, k)
        self.best_cost = int(state[0])
        return gen_best[:done], gen_mean[:done]

    def _record(self, before: int, gen_best: np.ndarray, gen_mean: np.ndarray) -> None:
        """Generation counts, evaluations to the best and the curve, from per-generation
        best and mean costs (`before`: the best cost before these generations)."""
        g0, e0 = self.generation, self.evaluations
        p = self.p_size
        running = np.minimum.accumulate(np.minimum(gen_best, before))
        improved = np.flatnonzero(np.diff(np.concatenate([[before], running])) < 0)
        if len(improved):
            self.evaluations_to_best = e0 + p * (int(improved[-1]) + 1)
        for i in range(len(gen_best)):
            g = g0 + i + 1
            if g % self.curve.stride == 0 or i == len(gen_best) - 1:
                # FitnessCurve averages what it is given: one number, the population's mean
                self.curve.add(g, e0 + p * (i + 1), -int(running[i]), np.array([-gen_mean[i]]))
        self.generation = g0 + len(gen_best)
        self.evaluations = e0 + p * len(gen_best)


@dataclass
class Budget:
    """What cuts a run short (the post's own loop runs until a board costs 0)."""

    time_limit: float | None = None
    generations: int | None = None
    evaluations: int | None = None
    stopped: Callable[[], bool] | None = None

    def reason(self, run: PostRun, seconds: float) -> str | None:
        if run.solved:
            return "target"
        if self.stopped is not None and self.stopped():
            return "stopped"
        if self.time_limit is not None and seconds >= self.time_limit:
            return "time"
        if self.generations is not None and run.generation >= self.generations:
            return "generations"
        if self.evaluations is not None and run.evaluations >= self.evaluations:
            return "evaluations"
        return None

    def generations_left(self, run: PostRun) -> int:
        left = [BLOCK]
        if self.generations is not None:
            left.append(self.generations - run.generation)
        if self.evaluations is not None:
            left.append(-(-(self.evaluations - run.evaluations) // run.p_size))
        return max(1, min(left))


def evolve(run: PostRun, budget: Budget, on_improve=None,
           report=lambda **_: None) -> tuple[str, float]:
    """Step `run` until it is solved or the budget ends; (stop reason, seconds).
    `on_improve(board, cost)` is called whenever the best board improves, `report` (progress
    fields, see core.progress) after every block of generations."""
    t0 = time.perf_counter()
    block = 64  # grows while a block takes under 20 ms, so the clock is read often enough
    while (reason := budget.reason(run, time.perf_counter() - t0)) is None:
        before, t1 = run.best_cost, time.perf_counter()
        run.step(min(block, budget.generations_left(run)))
        if time.perf_counter() - t1 < 0.02:
            block = min(2 * block, BLOCK)
        report(generation=run.generation, best=-run.best_cost, max=0, evaluations=run.evaluations)
        if on_improve is not None and run.best_cost < before:
            on_improve(run.best_board.copy(), run.best_cost)
    return reason, time.perf_counter() - t0


def stats(run: PostRun, reason: str, seconds: float) -> dict:
    """The GA engine's statistics keys, for this run."""
    return {
        "generations": run.generation,
        "evaluations": run.evaluations,
        "best_fitness": float(-run.best_cost),
        "evaluations_to_best": run.evaluations_to_best,
        "stop_reason": reason,
        "curve": [list(p) for p in run.curve.result()],
        "population": run.p_size,
        "candidates": run.n_cand,
        "seconds": round(seconds, 4),
    }
