"""A family-independent genetic-algorithm engine (numpy populations).

The engine knows nothing about puzzles. A family supplies an *encoding*; the engine does
selection, replacement, elitism, immigrants, restricted tournament selection (RTS niching),
convergence-based gene insertion (CBGI), stall repair, budgets, the stop flag and streaming
of the elite.

Encoding
--------
Genomes are rows of a 2-D integer numpy array ``pop`` of shape ``(n, encoding.length)``.
Fitness is a float, higher is better. An encoding subclasses ``Encoding`` and provides::

    length: int                                  genes per individual
    target: float | None                         fitness of a perfect solution (None: unknown)
    random(rng, n) -> pop                        n fresh genomes
    fitness(pop) -> (n,) float array             vectorised over the population
    mutate(pop, rng) -> pop                      mutate every row it is given (the encoding picks
                                                 operators and per-gene rates; it may edit `pop`
                                                 in place and return it)
    crossover(a, b, rng) -> (c1, c2)             a, b: (m, length) arrays of paired parents;
                                                 returns two (m, length) arrays of children
    decode(genome) -> Solution                   cell -> placed value

and, where it can (``Encoding`` declares each; an encoding without one refuses it in one
line, or the engine goes without the hook)::

    encode(solution) -> genome                   to seed the population (hints); may raise
                                                 ValueError for a partial solution
    gene_cells(genome, idx) -> Solution          partial assignment shown by genes idx (CBGI)
    force_genes(pop, genes: dict[int, int])      enforce gene -> value on every row (CBGI);
      -> pop                                     a permutation encoding swaps values into place
    repair(genome, rng) -> genome                local improvement, called on stall
    tend(pop, fit, stall, rng) -> rows           called after every generation with the
                                                 generations since the best last improved;
                                                 edits rows of `pop` in place and returns
                                                 their indices (the engine re-evaluates them)
    deadline: float | None                       set by the engine to the perf_counter() time
                                                 the run must end by; a repair that can take
                                                 long stops there
    distance(pop, genome) -> (n,) array          for RTS; default: Hamming distance
    solved(pop) -> (n,) bool array               which genomes are solutions, for a fitness
                                                 that does not mark them (see below)

Entry point: ``evolve(encoding, config, opts, seeds=None, link=None) -> GAResult``.

* Budgets: ``config.time_limit`` and ``opts.time_limit`` (the smaller wins),
  ``config.max_evaluations``, ``config.generations`` (for steady state one generation is
  ``population`` offspring); ``opts.stop.is_set()`` is polled every step. The run also ends when
  ``encoding.target`` is reached (``config.stop_at_target``). With no budget at all the run
  lasts until the target or the stop flag.
* Progress (0..1) is the largest used fraction of the given budgets; the RTS window and CBGI
  schedule follow it. With no budget, progress stays 0 (RTS window = ``rts_start``; no CBGI).
* Generational replacement: ``elite_count`` best copied (with ``elite_distinct`` the best
  genotypically distinct ones: copies of a genome count once), ``immigrant_count`` fresh
  random genomes, the rest children of selected parents (crossover with ``crossover_rate``,
  then ``mutate`` on a ``mutation_rate`` fraction of them). With ``elite_replaces_worst`` a
  full population of children is bred and the elite then take the places of the worst
  children.
* Headless-chicken crossover (Jones 1995): a ``headless`` fraction of the crossovers mate
  with fresh random genomes instead. ``headless_pairing="each"``: each parent of the pair is
  crossed with its own random genome and keeps the child that starts with its own genes;
  ``"second"``: the second parent is replaced by a random genome and both children are kept.
* Solutions the fitness does not mark: an encoding with ``solved(pop)`` is asked about every
  evaluated genome; the run ends (reason ``target``) as soon as one is a solution, and that
  genome is the result, whatever its fitness.
* Steady state (``replacement="steady_state"``): ``steady_batch`` children per step; each child
  replaces the nearest of a random window of the population if it is better (RTS). The window
  shrinks linearly from ``rts_start`` to ``rts_end`` (fractions of the population) with progress.
  ``rts_window="distinct"`` draws the window's members without replacement (a window of the
  whole population holds every member); ``"independent"`` makes the window w independent
  draws, which may repeat a member (at w = size about 63% of the members are in it).
  With ``skip_copy_steps`` a step whose children are all copies of members is not evaluated:
  each child takes its twin's fitness, and no evaluation is counted (as an implementation
  that looks the pair up before evaluating it; counts then stay multiples of the batch).
  A step is a few small numpy calls, so its overhead is what costs: the engine's own random
  numbers (tournaments, coin flips, windows) come from pre-drawn ``RandomBlocks``, distances
  are computed once per step for all children, and a child no better than the worst member is
  not compared at all (it could replace nobody). Encodings may keep a ``RandomBlocks`` too.
* Replace worst (``replacement="replace_worst"``): steady state without niching; each child
  replaces the worst member of the population, whatever its own fitness (first of equals).
* Selection: ``"random"`` (uniform, with replacement), ``"tournament"`` (size ``tournament_k``),
  ``"truncation"`` (parents drawn from the
  best ``truncation`` fraction, uniformly, or proportionally to sigma-scaled fitness with
  ``sigma_scaling``), ``"roulette"`` (whole population, sigma-scaled or shifted fitness),
  ``"linear_ranking"`` (by rank: ``linear_ranking_probabilities`` with pressure
  ``ranking_pressure``).
* CBGI (``cbgi=True``, or ``None`` = on exactly when a ``CbgiLink`` is present): once progress
  reaches ``cbgi_start``, and then every ``cbgi_period``, the unfixed gene of the best individual
  that is most frequent at its position in the population is fixed if that frequency exceeds
  ``cbgi_threshold``. Fixed genes are enforced with ``encoding.force_genes`` on every new
  individual.
  The cumulative fixed partial assignment (cell -> value, from ``gene_cells``) goes to
  ``link.on_fixed`` and to ``GAResult.fixed_partial``. ``link.release(partial)`` (thread-safe)
  unfixes every fixed gene that shows a cell of ``partial``; a released (gene, value) pair is
  never fixed again in the same run.
* Stall: after ``stall_generations`` generations without improvement, ``encoding.repair`` is
  applied to the best ``repair_count`` individuals (if the encoding has it), or with
  ``repair_pick="mixed"`` to the best and ``repair_count - 1`` others drawn at random.
  The repaired rows are evaluated (counted), and so are the evaluations the repair spent
  inside itself (``encoding.local_evaluations``: a hill climb's tries, a tabu search's scored
  swaps), so an evaluation budget covers the local search too.
* Tending: an encoding with ``tend`` sees the whole population after every generation and
  may rework rows of it (a population-level repair with its own trigger, such as Niang's
  deadlock tagging); the reworked rows are evaluated (counted) and count as repairs.
* Elite streaming: whenever the best fitness improves, ``opts.on_solution(decode(best),
  fitness)`` and ``config.on_improve(genome, fitness)`` are called.

Families read command-line parameters with ``apply_params(config, opts.params)``; the options it
knows are ``ENGINE_OPTIONS``, so a family's ``OPTIONS`` table is
``Options(ENGINE_OPTIONS, its own...)``. ``cbgi_link`` in ``opts.params`` is the portfolio's link.

The family seam: a family's GA is one entry point, ``ga_problem(instance, opts, preset) ->
GAProblem`` (encoding, config, ``to_board``), declared with ``BACKEND = ga_backend(ga_problem,
OPTIONS, PRESETS)``; `solve_problem` runs it and `answer` turns every family's GA result into
its answer the same way.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..core.errors import InputError
from ..core.options import Option, Options, as_is, count, fraction, positive_int
from ..core.registry import Backend
from ..core.result import Outcome, Solution, SolveOptions, Status, ran_out
from .compiled import Unsupported


class Encoding(ABC):
    """A family's genome (see the module docstring): the required members are abstract, the
    capabilities refuse in one line, the hooks are None where an encoding has none."""

    length: int
    target: float | None
    deadline: float | None = None  # set by the engine: when long operators must stop
    repair: Callable[[np.ndarray, np.random.Generator], np.ndarray] | None = None
    tend: Callable[..., Any] | None = None  # tend(pop, fit, stall, rng) -> reworked rows
    distance: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None  # None: Hamming
    solved: Callable[[np.ndarray], np.ndarray] | None = None  # None: the target marks them
    # fitness evaluations a repair spent inside itself (a hill climb's, a tabu search's
    # neighbours): the encoding adds to it and the engine counts them with its own
    local_evaluations: int = 0

    @abstractmethod
    def random(self, rng: np.random.Generator, n: int) -> np.ndarray: ...

    @abstractmethod
    def fitness(self, pop: np.ndarray) -> np.ndarray: ...

    @abstractmethod
    def mutate(self, pop: np.ndarray, rng: np.random.Generator) -> np.ndarray: ...

    @abstractmethod
    def crossover(
        self, a: np.ndarray, b: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray]: ...

    @abstractmethod
    def decode(self, genome: np.ndarray) -> Solution: ...

    def encode(self, solution: Solution) -> np.ndarray:
        """The genome of a solution, to seed the population with a hint."""
        raise ValueError("this encoding cannot seed the population from a solution")

    @property
    def cbgi_capable(self) -> bool:
        """Whether its genes show cells and can be forced, as CBGI needs (a developmental
        genome such as Downing's has no gene that fixes a cell)."""
        cls = type(self)
        return cls.gene_cells is not Encoding.gene_cells and \
            cls.force_genes is not Encoding.force_genes

    def gene_cells(self, genome: np.ndarray, idx) -> Solution:
        """The partial assignment genes `idx` of `genome` show (CBGI)."""
        raise Unsupported(self, "convergence-based gene insertion (--cbgi)")

    def force_genes(self, pop: np.ndarray, genes: dict[int, int]) -> np.ndarray:
        """`pop` with every gene of `genes` set to its value (CBGI)."""
        raise Unsupported(self, "convergence-based gene insertion (--cbgi)")


@dataclass
class GAConfig:
    population: int = 100
    generations: int | None = None
    max_evaluations: int | None = None
    time_limit: float | None = None
    seed: int | None = None  # None: opts.seed
    # selection
    selection: str = "tournament"  # tournament | truncation | roulette | linear_ranking | random
    tournament_k: int = 3
    ranking_pressure: float = 1.5  # s of linear ranking, 1 < s <= 2
    truncation: float = 0.5  # fraction of the population allowed to parent (truncation)
    sigma_scaling: bool = False
    # replacement
    replacement: str = "generational"  # generational | steady_state | replace_worst
    elitism: float = 0.0  # fraction of the population copied unchanged (at least 1 if > 0)
    elite_replaces_worst: bool = False  # breed a full population; elite replace the worst
    immigrants: float = 0.0  # fraction replaced by random genomes each generation
    steady_batch: int = 2  # children per steady-state step
    rts_start: float = 1.0  # RTS window as a fraction of the population, at progress 0
    rts_end: float = 0.1  # ... and at progress 1
    rts_window: str = "distinct"  # distinct | independent: how the window's members are drawn
    skip_copy_steps: bool = False  # a step whose children all copy members is not evaluated
    # variation
    crossover_rate: float = 0.9
    mutation_rate: float = 1.0  # fraction of children handed to encoding.mutate
    headless: float = 0.0  # fraction of crossovers that mate with random genomes
    headless_pairing: str = "each"  # each | second (see the module docstring)
    elite_distinct: bool = False  # elites are the best genotypically distinct genomes
    # CBGI
    cbgi: bool | None = False  # None: on exactly when a CbgiLink is given
    cbgi_start: float = 0.2
    cbgi_period: float = 0.05
    cbgi_threshold: float = 0.2
    # stall repair
    stall_generations: int = 0  # 0: never
    repair_count: int = 1
    repair_pick: str = "best"  # best: the best repair_count; mixed: the best plus random others
    stop_at_target: bool = True
    on_improve: Callable[[np.ndarray, float], None] | None = None
    on_generation: Callable[[GAState], None] | None = None

    def elite_count(self) -> int:
        return 0 if self.elitism <= 0 else max(1, round(self.elitism * self.population))

    def immigrant_count(self) -> int:
        return 0 if self.immigrants <= 0 else max(1, round(self.immigrants * self.population))


class CbgiLink:
    """Connects a running GA to whoever turns its converged genes into constraints.

    ``on_fixed(partial)`` is called with the cumulative fixed partial assignment each time a
    gene is fixed or released; ``release(partial)`` may be called from any thread.
    """

    def __init__(self, on_fixed: Callable[[Solution], None] | None = None) -> None:
        self.on_fixed = on_fixed
        self._lock = threading.Lock()
        self._pending: list[Solution] = []

    def release(self, partial: Solution | Iterable) -> None:
        cells = dict.fromkeys(partial) if not isinstance(partial, dict) else dict(partial)
        with self._lock:
            self._pending.append(cells)

    def take_releases(self) -> set:
        with self._lock:
            pending, self._pending = self._pending, []
        return {cell for p in pending for cell in p}


@dataclass
class GAState:
    """What the engine knows mid-run (passed to config.on_generation)."""

    pop: np.ndarray
    fit: np.ndarray
    generation: int
    evaluations: int
    best_fitness: float
    progress: float
    fixed: dict[int, int]


@dataclass
class GAResult:
    best: np.ndarray
    fitness: float
    generations: int
    evaluations: int
    solved: bool
    seconds: float
    stop_reason: str  # target | time | evaluations | generations | stopped
    history: list[tuple[int, float, float]] = field(default_factory=list)  # (evals, s, best)
    curve: list[tuple[int, int, float, float]] = field(default_factory=list)  # see FitnessCurve
    fixed: dict[int, int] = field(default_factory=dict)
    fixed_partial: Solution = field(default_factory=dict)
    released: list[Solution] = field(default_factory=list)
    repairs: int = 0
    cbgi_off: str = ""  # why a portfolio's CBGI link went unused

    def stats(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "generations": self.generations,
            "evaluations": self.evaluations,
            "best_fitness": self.fitness,
            "evaluations_to_best": self.history[-1][0] if self.history else 0,
            "stop_reason": self.stop_reason,
            "repairs": self.repairs,
            "curve": [list(p) for p in self.curve],
        }
        if self.fixed or self.released:
            out["cbgi_fixed"] = len(self.fixed)
            out["cbgi_released"] = len(self.released)
        if self.cbgi_off:
            out["cbgi_off"] = self.cbgi_off
        return out


class FitnessCurve:
    """Best and mean fitness per generation, as the papers plot them, in bounded memory.

    Points are (generation, evaluations, best, mean). Once more than ``limit`` are held, every
    other one is dropped and only every ``stride``-th generation is recorded from then on, so a
    run of any length keeps between limit/2 and limit evenly spaced points (the last generation
    is always kept).
    """

    def __init__(self, limit: int = 200) -> None:
        self.limit, self.stride = limit, 1
        self.points: list[tuple[int, int, float, float]] = []
        self.last: tuple[int, int, float, float] | None = None

    def add(self, generation: int, evaluations: int, best: float, fit: np.ndarray) -> None:
        point = (generation, evaluations, round(float(best), 6), round(float(np.mean(fit)), 6))
        self.last = point
        if generation % self.stride:
            return
        self.points.append(point)
        if len(self.points) > self.limit:
            self.points = self.points[::2]
            self.stride *= 2

    def result(self) -> list[tuple[int, int, float, float]]:
        if self.last is not None and (not self.points or self.points[-1] != self.last):
            return [*self.points, self.last]
        return list(self.points)


# --- selection --------------------------------------------------------------------------------
def sigma_scaled(fit: np.ndarray) -> np.ndarray:
    """Expected offspring counts 1 + (f - mean) / (2 sd), floored at 0.1 (1 everywhere if sd=0)."""
    sd = float(fit.std())
    if sd <= 0:
        return np.ones_like(fit, dtype=float)
    return np.maximum(1.0 + (fit - fit.mean()) / (2.0 * sd), 0.1)


def linear_ranking_probabilities(size: int, pressure: float) -> np.ndarray:
    """Selection probability by rank i (0 = worst, size - 1 = best), linear ranking (Eiben and
    Smith): P(i) = (2 - s) / size + 2 i (s - 1) / (size (size - 1)), 1 < s <= 2."""
    i = np.arange(size, dtype=float)
    return (2.0 - pressure) / size + 2.0 * i * (pressure - 1.0) / (size * max(1, size - 1))


def select(fit: np.ndarray, n: int, cfg: GAConfig, rng: np.random.Generator) -> np.ndarray:
    """Indices of n parents."""
    size = len(fit)
    if cfg.selection == "random":
        return rng.integers(0, size, n)
    if cfg.selection == "tournament":
        cand = rng.integers(0, size, (n, max(1, cfg.tournament_k)))
        return cand[np.arange(n), np.argmax(fit[cand], axis=1)]
    if cfg.selection == "linear_ranking":
        order = np.argsort(fit, kind="stable")  # worst first: rank i is order[i]
        p = linear_ranking_probabilities(size, cfg.ranking_pressure)
        return order[rng.choice(size, size=n, p=p / p.sum())]
    if cfg.selection == "truncation":
        keep = max(2, math.ceil(cfg.truncation * size))
        pool = np.argsort(-fit, kind="stable")[:keep]
    elif cfg.selection == "roulette":
        pool = np.arange(size)
    else:
        raise ValueError(f"unknown selection {cfg.selection!r}")
    if cfg.sigma_scaling:
        w = sigma_scaled(fit[pool])
    elif cfg.selection == "roulette":
        w = fit[pool] - fit[pool].min() + 1e-9
    else:
        w = np.ones(len(pool))
    return pool[rng.choice(len(pool), size=n, p=w / w.sum())]


class RandomBlocks:
    """Random numbers drawn from ``rng`` a block at a time.

    A steady-state step needs only a handful of random numbers, and a numpy call costs about
    as much for one number as for thousands, so slices of pre-drawn blocks replace per-step
    calls. Draws stay reproducible from the generator's seed. Encodings may use it too.
    """

    def __init__(self, rng: np.random.Generator, block: int = 4096) -> None:
        self.rng, self.block = rng, block
        self._uniform: list[float] = []
        self._u = 0
        self._ints: dict[int, tuple[list[int], int]] = {}
        self._noise, self._v = np.empty(0), 0

    def uniform(self, n: int) -> list[float]:
        """n floats in [0, 1), as a Python list (cheapest to use a few at a time)."""
        if self._u + n > len(self._uniform):
            self._uniform, self._u = self.rng.random(max(self.block, n)).tolist(), 0
        i = self._u
        self._u = i + n
        return self._uniform[i:i + n]

    def integers(self, high: int, n: int) -> list[int]:
        """n integers in [0, high), as a Python list."""
        buf, i = self._ints.get(high, ([], 0))
        if i + n > len(buf):
            buf, i = self.rng.integers(0, high, max(self.block, n)).tolist(), 0
        self._ints[high] = (buf, i + n)
        return buf[i:i + n]

    def noise(self, n: int) -> np.ndarray:
        """n floats in [0, 0.5), as a numpy array (a view of a block)."""
        if self._v + n > len(self._noise):
            self._noise, self._v = 0.5 * self.rng.random(max(self.block, n)), 0
        i = self._v
        self._v = i + n
        return self._noise[i:i + n]


@functools.lru_cache(maxsize=4096)
def window_ranks(size: int, w: int) -> list[float]:
    """Cumulative distribution of the rank, among all `size` members ordered by distance, of
    the nearest member of a random window of `w` distinct members (ranks 0 .. size - w):
    P(rank r) = w / (size - r) * prod_{t < r} (1 - w / (size - t)). Drawing the rank is
    exactly as good as drawing the window, and much cheaper."""
    p = w / size
    probs = [p]
    for r in range(size - w):
        p *= (size - r - w) / (size - r - 1)
        probs.append(p)
    return list(itertools.accumulate(probs))[:-1]  # the last rank takes the rest


@functools.lru_cache(maxsize=4096)
def independent_window_ranks(size: int, w: int) -> list[float]:
    """As `window_ranks`, for a window of w independent draws (a member may be drawn more
    than once): P(nearest rank <= r) = 1 - ((size - r - 1) / size) ** w, ranks 0 .. size - 1."""
    return [1.0 - ((size - r - 1) / size) ** w for r in range(size - 1)]


WINDOWS = {"distinct": window_ranks, "independent": independent_window_ranks}


def twins(pop: np.ndarray, kids: np.ndarray) -> np.ndarray | None:
    """For each child the index of a member it copies, or None if some child copies none."""
    same = (kids[:, None, :] == pop[None, :, :]).all(axis=2)
    if not same.any(axis=1).all():
        return None
    return same.argmax(axis=1)


def parents_of(fit: np.ndarray, n: int, cfg: GAConfig, rng: np.random.Generator,
               draws: RandomBlocks | None) -> Sequence[int]:
    """Indices of n parents; `draws` (steady state) serves tournaments and random picks
    from pre-drawn blocks, other selections draw from `rng` (`select`)."""
    if draws is not None and cfg.selection == "tournament":
        # a few tournaments: Python's max (first of equals, like argmax) beats numpy calls
        k = max(1, cfg.tournament_k)
        cand = draws.integers(len(fit), n * k)
        key = fit.__getitem__
        return [max(cand[t:t + k], key=key) for t in range(0, n * k, k)]
    if draws is not None and cfg.selection == "random":
        return draws.integers(len(fit), n)
    return select(fit, n, cfg, rng)


def crossed(enc, rng: np.random.Generator, a: np.ndarray, b: np.ndarray,
            cross: list[bool]) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (a[k], b[k]) with cross[k] crossed (one operator call for them all)."""
    if all(cross):
        return enc.crossover(a, b, rng)
    if any(cross):
        sel = np.array(cross)
        c1, c2 = enc.crossover(a[sel], b[sel], rng)
        a[sel], b[sel] = c1, c2
    return a, b


def mutated(enc, rng: np.random.Generator, kids: np.ndarray, mut: list[bool]) -> np.ndarray:
    """The rows of `kids` with mut[k] mutated (one operator call for them all)."""
    if all(mut):
        return enc.mutate(kids, rng)
    if any(mut):
        sel = np.array(mut)
        kids[sel] = enc.mutate(kids[sel], rng)
    return kids


def best_indices(pop: np.ndarray, fit: np.ndarray, n: int, distinct: bool) -> np.ndarray:
    """Indices of the n best (`distinct`: of the n best distinct genomes)."""
    order = np.argsort(-fit, kind="stable")
    if not distinct or n == 0:
        return order[:n]
    _, first = np.unique(pop[order], axis=0, return_index=True)
    return order[np.sort(first)][:n]


def repaired(fn: Callable, pop: np.ndarray, fit: np.ndarray, cfg: GAConfig,
             rng: np.random.Generator,
             time_up: Callable[[], bool]) -> tuple[np.ndarray, np.ndarray]:
    """(rows, their repaired genomes) of a stall repair: the `repair_count` best, or with
    `repair_pick` "mixed" the best and others drawn at random; no repair starts once
    `time_up()` (a repair may take seconds)."""
    k = max(1, cfg.repair_count)
    order = np.argsort(-fit, kind="stable")[:k]
    if cfg.repair_pick == "mixed" and k > 1 and len(fit) > k:
        # the best keeps being polished; the others bring diversity into the repair
        others = rng.choice(np.arange(1, len(fit)), k - 1, replace=False)
        order = np.concatenate([order[:1], np.argsort(-fit, kind="stable")[others]])
    done = []
    for i in order:
        done.append(fn(pop[i].copy(), rng))
        if time_up():
            break
    return order[:len(done)], np.stack(done)


class _Cbgi:
    """Convergence-based gene insertion: the genes fixed so far (gene -> value, and the cells
    each shows), those a `CbgiLink` released (the same value is banned from coming back),
    and the budget share at which the population is next looked at."""

    def __init__(self, cfg: GAConfig, link: CbgiLink | None) -> None:
        self.cfg, self.link = cfg, link
        self.on = cfg.cbgi if cfg.cbgi is not None else link is not None
        self.fixed: dict[int, int] = {}
        self.fixed_cells: dict[int, Solution] = {}
        self.banned: set[tuple[int, int]] = set()
        self.released: list[Solution] = []
        self.next_look = cfg.cbgi_start

    def fix_converged(self, enc, pop: np.ndarray, fit: np.ndarray) -> bool:
        """Fix the gene the most members share with the best one when over the threshold
        (not one fixed already, nor a released value); True when one was fixed."""
        best = pop[int(np.argmax(fit))]
        freq = (pop == best).mean(axis=0)
        for g in self.fixed:
            freq[g] = -1.0
        for g, v in self.banned:
            if best[g] == v:
                freq[g] = -1.0
        g = int(np.argmax(freq))
        if freq[g] > self.cfg.cbgi_threshold:
            self.fixed[g] = int(best[g])
            self.fixed_cells[g] = dict(enc.gene_cells(best, [g]))
            return True
        return False

    def fixed_partial(self) -> Solution:
        out: Solution = {}
        for cells in self.fixed_cells.values():
            out.update(cells)
        return out

    def report_fixed(self) -> None:
        if self.link is not None and self.link.on_fixed is not None:
            self.link.on_fixed(self.fixed_partial())

    def apply_releases(self) -> bool:
        if self.link is None:
            return False
        cells = self.link.take_releases()
        if not cells:
            return False
        gone = [g for g, sh in self.fixed_cells.items() if cells & set(sh)]
        for g in gone:
            self.banned.add((g, self.fixed.pop(g)))
            self.released.append(self.fixed_cells.pop(g))
        return bool(gone)


# --- the run ----------------------------------------------------------------------------------
def hamming(a: np.ndarray, b: np.ndarray, ones: np.ndarray) -> np.ndarray:
    """Genes that differ, counted along the last axis (a product with ones: numpy sums short
    rows of booleans several times slower)."""
    return (a != b) @ ones


def rts_replace(pop: np.ndarray, fit: np.ndarray, kids: np.ndarray, kf: list, live: list,
                ranks, draws, dist_fn, ones: np.ndarray) -> None:
    """RTS for the `live` children, in place: each child meets the nearest member of a random
    window (the member at a random rank, drawn from `ranks`, of all members ordered by
    distance, ties in random order) and takes its place if better."""
    size = len(pop)
    lk = kids if len(live) == len(kids) else kids[live]
    if dist_fn is None:  # all children against all members in one product
        dist = hamming(pop, lk[:, None, :], ones)
    else:
        dist = np.stack([np.asarray(dist_fn(pop, kid), dtype=float) for kid in lk])
    for r, i in enumerate(live):
        rank = bisect.bisect_right(ranks, draws.uniform(1)[0])
        if dist_fn is None:  # whole-number distances: the tie-break noise stays below 1
            d = dist[r] + draws.noise(size)
            j = int(d.argmin()) if rank == 0 else int(np.argpartition(d, rank)[rank])
        else:
            j = int(np.lexsort((draws.noise(size), dist[r]))[rank])
        if kf[i] > fit[j]:
            pop[j], fit[j] = kids[i], kf[i]
            if r + 1 < len(live):  # later children now see child i in slot j
                later = lk[r + 1:]
                dist[r + 1:, j] = hamming(later, kids[i], ones) if dist_fn is None else \
                    [dist_fn(kids[i][None, :], kid)[0] for kid in later]


class _Run:
    def __init__(self, enc, cfg: GAConfig, opts: SolveOptions, link: CbgiLink | None) -> None:
        self.enc, self.cfg, self.opts, self.link = enc, cfg, opts, link
        self.rng = np.random.default_rng(cfg.seed if cfg.seed is not None else opts.seed)
        self.draws = RandomBlocks(self.rng)  # for the many small steady-state steps
        self.ones = np.ones(enc.length, np.float32)
        limits = [t for t in (cfg.time_limit, opts.remaining()) if t is not None]
        self.time_limit = min(limits) if limits else None
        self.t0 = time.perf_counter()
        self.evaluations = 0
        self.generation = 0
        self.best: np.ndarray | None = None
        self.best_fit = -math.inf
        self.history: list[tuple[int, float, float]] = []
        self.curve = FitnessCurve()
        self.found: tuple[np.ndarray, float, int] | None = None  # a solution: genome, fit, evals
        self.stall = 0
        self.repairs = 0
        self.skipped = 0  # consecutive steps left unevaluated (skip_copy_steps)
        self.cbgi = _Cbgi(cfg, link)
        self.fixed = self.cbgi.fixed  # gene -> value held on every genome

    # budgets
    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def progress(self) -> float:
        fr = [0.0]
        c = self.cfg
        if self.time_limit:
            fr.append(self.elapsed() / self.time_limit)
        if c.max_evaluations:
            fr.append(self.evaluations / c.max_evaluations)
        if c.generations:
            fr.append(self.generation / c.generations)
        return min(1.0, max(fr))

    def stop_reason(self) -> str | None:
        c = self.cfg
        if c.stop_at_target and (self.found is not None or self.enc.target is not None
                                 and self.best_fit >= self.enc.target - 1e-9):
            return "target"
        if self.opts.stopped():
            return "stopped"
        if self.time_limit is not None and self.elapsed() >= self.time_limit:
            return "time"
        if c.max_evaluations is not None and self.evaluations >= c.max_evaluations:
            return "evaluations"
        if c.generations is not None and self.generation >= c.generations:
            return "generations"
        return None

    def evaluate(self, pop: np.ndarray) -> np.ndarray:
        self.evaluations += len(pop)
        fit = np.asarray(self.enc.fitness(pop), dtype=float)
        solved = self.enc.solved
        if solved is not None and self.found is None and len(pop):
            hits = np.flatnonzero(solved(pop))
            if len(hits):
                i = int(hits[0])
                self.found = (pop[i].copy(), float(fit[i]), self.evaluations - len(pop) + i + 1)
        return fit

    def enforce(self, pop: np.ndarray) -> np.ndarray:
        if self.fixed and len(pop):
            return self.enc.force_genes(pop, dict(self.fixed))
        return pop

    def note(self, pop: np.ndarray, fit: np.ndarray) -> None:
        """Track the best individual; stream it when it improves."""
        i = int(np.argmax(fit))
        if fit[i] > self.best_fit:
            self.best_fit = float(fit[i])
            self.best = pop[i].copy()
            self.stall = 0
            self.history.append((self.evaluations, round(self.elapsed(), 4), self.best_fit))
            if self.cfg.on_improve is not None:
                self.cfg.on_improve(self.best.copy(), self.best_fit)
            if self.opts.on_solution is not None:
                self.opts.on_solution(self.enc.decode(self.best), self.best_fit)

    # variation
    def children(
        self, pop: np.ndarray, fit: np.ndarray, n: int, draws: RandomBlocks | None = None
    ) -> np.ndarray:
        """n children of selected parents; `draws` (steady state) serves the engine's own
        random numbers from pre-drawn blocks."""
        c, rng = self.cfg, self.rng
        pairs = (n + 1) // 2
        par = parents_of(fit, 2 * pairs, c, rng, draws)
        coins = draws.uniform if draws is not None else (lambda m: rng.random(m).tolist())
        parents = pop[par]  # fancy indexing copies
        a, b = parents[:pairs], parents[pairs:]
        # coin flips as Python bools: all()/any() on a few numbers cost less than numpy's
        cross = [u < c.crossover_rate for u in coins(pairs)]
        headless = [False] * pairs
        if c.headless > 0:
            headless = [x and u < c.headless for x, u in zip(cross, coins(pairs), strict=True)]
            cross = [x and not h for x, h in zip(cross, headless, strict=True)]
        a, b = crossed(self.enc, rng, a, b, cross)
        if any(headless):
            sel = np.array(headless)
            a[sel], b[sel] = self.headless_children(a[sel], b[sel])
        kids = np.concatenate([a, b])[:n]
        kids = mutated(self.enc, rng, kids, [u < c.mutation_rate for u in coins(n)])
        return self.enforce(kids)

    def headless_children(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Headless-chicken crossover of the pairs (a[k], b[k]) (see the module docstring)."""
        enc, rng = self.enc, self.rng
        if self.cfg.headless_pairing == "second":
            return enc.crossover(a, enc.random(rng, len(a)), rng)
        if self.cfg.headless_pairing != "each":
            raise ValueError(f"unknown headless pairing {self.cfg.headless_pairing!r}")
        return (enc.crossover(a, enc.random(rng, len(a)), rng)[0],
                enc.crossover(b, enc.random(rng, len(b)), rng)[0])

    def elites(self, pop: np.ndarray, fit: np.ndarray, n: int) -> np.ndarray:
        """Indices of the n best (with elite_distinct: of the n best distinct genomes)."""
        return best_indices(pop, fit, n, self.cfg.elite_distinct)

    def generational(self, pop: np.ndarray, fit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        c = self.cfg
        size = len(pop)
        elite = self.elites(pop, fit, min(c.elite_count(), size))
        n_el, n_im = len(elite), c.immigrant_count()
        n_ch = max(0, size - n_im - (0 if c.elite_replaces_worst else n_el))
        parts = [self.children(pop, fit, n_ch)]
        if n_im:
            parts.append(self.enforce(self.enc.random(self.rng, n_im)))
        fresh = np.concatenate(parts)
        ffit = self.evaluate(fresh)
        if c.elite_replaces_worst:  # the elite take the places of the worst newcomers
            keep = np.argsort(-ffit, kind="stable")[: size - n_el]
            fresh, ffit = fresh[keep], ffit[keep]
        return np.concatenate([pop[elite], fresh]), np.concatenate([fit[elite], ffit])

    def steady(self, pop: np.ndarray, fit: np.ndarray) -> bool:
        """One steady-state step with RTS, in place; True when a child beats the best so far
        (such a child always enters: it is better than every member)."""
        c, draws = self.cfg, self.draws
        n = max(1, c.steady_batch)
        kids = self.children(pop, fit, n, draws)
        kf = self.offspring_fitness(pop, fit, kids)
        # a child no better than the worst member can replace nobody, whatever its window
        lowest = float(fit.min())
        live = [i for i in range(n) if kf[i] > lowest]
        if not live:
            return False
        size = len(pop)
        frac = c.rts_start + (c.rts_end - c.rts_start) * self.progress()
        ranks = WINDOWS[c.rts_window](size, min(size, max(1, round(frac * size))))
        rts_replace(pop, fit, kids, kf, live, ranks, draws, self.enc.distance, self.ones)
        return max(kf) > self.best_fit

    def offspring_fitness(self, pop: np.ndarray, fit: np.ndarray, kids: np.ndarray) -> list:
        """A step's children's fitness, evaluated and counted; with skip_copy_steps, children
        that all copy members take their twins' fitness uncounted (a quarter of the paper
        preset's class 1 evaluations go to such copies)."""
        if self.cfg.skip_copy_steps and self.skipped < len(pop):
            same = twins(pop, kids)
            if same is not None:
                self.skipped += 1
                return fit[same].tolist()
        self.skipped = 0  # a population of copies only still spends its evaluation budget
        return self.evaluate(kids).tolist()

    def replace_worst(self, pop: np.ndarray, fit: np.ndarray) -> bool:
        """One steady-state step without niching, in place: each child takes the place of the
        worst member, better or not; True when a child beats the best so far."""
        kids = self.children(pop, fit, max(1, self.cfg.steady_batch), self.draws)
        kf = self.offspring_fitness(pop, fit, kids)
        for kid, f in zip(kids, kf, strict=True):
            j = int(fit.argmin())
            pop[j], fit[j] = kid, f
        return max(kf) > self.best_fit

    # CBGI
    def cbgi_step(self, pop: np.ndarray, fit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        cbgi = self.cbgi
        changed = cbgi.apply_releases()
        if self.progress() >= cbgi.next_look and self.best is not None:
            cbgi.next_look = self.progress() + self.cfg.cbgi_period
            changed = cbgi.fix_converged(self.enc, pop, fit) or changed
        if changed:
            new = self.enforce(pop.copy())
            diff = (new != pop).any(axis=1)
            if diff.any():
                pop, fit = new, fit.copy()
                fit[diff] = self.evaluate(new[diff])
            cbgi.report_fixed()
        return pop, fit

    def repair(self, pop: np.ndarray, fit: np.ndarray) -> None:
        fn = self.enc.repair
        if fn is None:
            return
        before = self.enc.local_evaluations
        order, done = repaired(fn, pop, fit, self.cfg, self.rng, lambda: (
            self.time_limit is not None and self.elapsed() >= self.time_limit))
        self.evaluations += self.enc.local_evaluations - before
        fixed = self.enforce(done)
        pop[order] = fixed
        fit[order] = self.evaluate(fixed)
        self.repairs += len(order)
        self.stall = 0

    def tend(self, fn, pop: np.ndarray, fit: np.ndarray) -> None:
        """Let the encoding rework rows of the population in place; evaluate those rows."""
        rows = np.asarray(fn(pop, fit, self.stall, self.rng), dtype=np.int64)
        if len(rows):
            pop[rows] = self.enforce(pop[rows])
            fit[rows] = self.evaluate(pop[rows])
            self.repairs += len(rows)
            self.note(pop, fit)

    def run(self, seeds: list[np.ndarray]) -> GAResult:
        c, enc = self.cfg, self.enc
        # long operators (repairs) watch the clock themselves
        enc.deadline = None if self.time_limit is None else self.t0 + self.time_limit
        pop = enc.random(self.rng, c.population)
        if seeds:
            k = min(len(seeds), c.population)
            pop[:k] = np.stack(seeds[:k])
        pop = self.enforce(pop)
        fit = self.evaluate(pop)
        self.note(pop, fit)
        self.curve.add(0, self.evaluations, self.best_fit, fit)
        steps = {"steady_state": self.steady, "replace_worst": self.replace_worst,
                 "generational": None}
        if c.replacement not in steps:
            raise ValueError(f"unknown replacement {c.replacement!r}")
        steady = steps[c.replacement]
        tend = enc.tend
        step_evals = 0
        reason = self.stop_reason()
        while reason is None:
            before = self.best_fit
            if steady is not None:
                if steady(pop, fit):
                    self.note(pop, fit)
                step_evals += max(1, c.steady_batch)
                new_gen = step_evals >= c.population
                if new_gen:
                    step_evals = 0
            else:
                pop, fit = self.generational(pop, fit)
                new_gen = True
                self.note(pop, fit)
            if new_gen:
                self.generation += 1
                if self.best_fit <= before:
                    self.stall += 1
                if c.stall_generations and self.stall >= c.stall_generations:
                    self.repair(pop, fit)
                    self.note(pop, fit)
                if tend is not None:
                    self.tend(tend, pop, fit)
                if self.cbgi.on:
                    pop, fit = self.cbgi_step(pop, fit)
                    self.note(pop, fit)
                self.curve.add(self.generation, self.evaluations, self.best_fit, fit)
                self.opts.report(generation=self.generation, best=self.best_fit,
                                 max=enc.target, evaluations=self.evaluations)
                if c.on_generation is not None:
                    c.on_generation(GAState(pop, fit, self.generation, self.evaluations,
                                            self.best_fit, self.progress(), dict(self.fixed)))
            reason = self.stop_reason()
        assert self.best is not None
        solved = enc.target is not None and self.best_fit >= enc.target - 1e-9
        if self.found is not None:  # a solution the fitness did not mark is the result
            solved = True
            self.best, self.best_fit, evals = self.found
            self.history.append((evals, round(self.elapsed(), 4), self.best_fit))
        return GAResult(
            best=self.best, fitness=self.best_fit, generations=self.generation,
            evaluations=self.evaluations, solved=solved, seconds=self.elapsed(),
            stop_reason=reason, history=self.history, curve=self.curve.result(),
            fixed=dict(self.fixed),
            fixed_partial=self.cbgi.fixed_partial(), released=self.cbgi.released,
            repairs=self.repairs,
        )


def evolve(
    encoding: Encoding,
    config: GAConfig,
    opts: SolveOptions | None = None,
    seeds: Iterable[np.ndarray] | None = None,
    link: CbgiLink | None = None,
) -> GAResult:
    """Run the GA; see the module docstring for the protocol. ``link`` defaults to
    ``opts.params["cbgi_link"]`` (set by the portfolio)."""
    opts = opts or SolveOptions()
    if link is None:
        candidate = opts.params.get("cbgi_link")
        link = candidate if isinstance(candidate, CbgiLink) else None
    if config.population < 2:
        raise ValueError("population must be at least 2")
    off = ""
    if not encoding.cbgi_capable and (config.cbgi or (config.cbgi is None and link)):
        if link is None:  # asked for by the user: refused before any work
            raise Unsupported(encoding, "convergence-based gene insertion (--cbgi)")
        # the portfolio's GA lane runs on without it (was: an error lane when CBGI first looked)
        off = f"no gene of this genome fixes a cell ({type(encoding).__name__})"
        config, link = replace(config, cbgi=False), None
    res = _Run(encoding, config, opts, link).run([np.asarray(s) for s in seeds or ()])
    return replace(res, cbgi_off=off) if off else res


# --- command-line parameters ------------------------------------------------------------------
def hint_seeds(encoding: Encoding, hint) -> list[np.ndarray]:
    """Genomes to seed the population with: the encoded hint, if the encoding can take it."""
    if not hint:
        return []
    try:
        return [encoding.encode(hint)]
    except ValueError:
        return []  # a partial hint cannot seed a complete genome


def _fraction(text: str) -> float:
    """a fraction in [0, 1]"""
    return fraction(text)


def _pressure(text: str) -> float:
    """a number in (1, 2]"""
    v = float(text)
    if not 1.0 < v <= 2.0:
        raise ValueError
    return v


def _positive_int(text: str) -> int:
    """a positive integer"""
    return positive_int(text)


def _count(text: str) -> int:
    """an integer >= 0"""
    return count(text)


def _choice(*names: str) -> Callable[[str], str]:
    def conv(text: str) -> str:
        t = text.lower().replace("-", "_")
        if t not in names:
            raise ValueError
        return t

    conv.__doc__ = " | ".join(names)
    return conv


def _engine_option(name: str, attr: str, kind: Callable[[Any], Any], help: str,
                   choices: tuple[str, ...] | None = None) -> tuple[str, Option]:
    return attr, Option(name, kind, None, help + " (default: the preset's)", choices)


# command-line option -> GAConfig field; no defaults here: each family's presets set them
_FIELDS_AND_OPTIONS = dict([
    _engine_option("population", "population", _positive_int, "genomes per generation (>= 2)"),
    _engine_option("generations", "generations", _positive_int, "generation budget"),
    _engine_option("evaluations", "max_evaluations", _positive_int, "fitness evaluation budget"),
    _engine_option("selection", "selection", str, "parent selection",
                   ("tournament", "truncation", "roulette", "linear_ranking", "random")),
    _engine_option("tournament", "tournament_k", _positive_int, "tournament size"),
    _engine_option("ranking_pressure", "ranking_pressure", _pressure,
                   "selection pressure s of linear ranking"),
    _engine_option("truncation", "truncation", _fraction,
                   "share of the population allowed to parent (truncation selection)"),
    _engine_option("sigma_scaling", "sigma_scaling", bool, "sigma-scale fitness before selection"),
    _engine_option("replacement", "replacement", str, "how children replace parents",
                   ("generational", "steady_state", "replace_worst")),
    _engine_option("elitism", "elitism", _fraction,
                   "share copied unchanged to the next generation"),
    _engine_option("elite_replaces_worst", "elite_replaces_worst", bool,
                   "breed a whole population, the elite replace its worst"),
    _engine_option("immigrants", "immigrants", _fraction,
                   "share replaced by random genomes each generation"),
    _engine_option("steady_batch", "steady_batch", _positive_int, "children per steady-state step"),
    _engine_option("rts_start", "rts_start", _fraction,
                   "restricted tournament window (share of the population) at the start"),
    _engine_option("rts_end", "rts_end", _fraction, "... and at the end of the budget"),
    _engine_option("rts_window", "rts_window", str,
                   "restricted tournament window: distinct members, or independent draws "
                   "that may repeat one", tuple(WINDOWS)),
    _engine_option("skip_copy_steps", "skip_copy_steps", bool,
                   "a steady-state step whose children all copy members is not evaluated "
                   "(their fitness is their twins', no evaluation counted)"),
    _engine_option("crossover_rate", "crossover_rate", _fraction, "share of pairs crossed"),
    _engine_option("mutation_rate", "mutation_rate", _fraction, "share of children mutated"),
    _engine_option("headless", "headless", _fraction,
                   "share of crossovers that mate with a random genome"),
    _engine_option("headless_pairing", "headless_pairing", str,
                   "which parent a headless crossover replaces", ("each", "second")),
    _engine_option("elite_distinct", "elite_distinct", bool,
                   "elites are the best genotypically distinct genomes"),
    _engine_option("cbgi", "cbgi", bool, "fix genes the population converged on (CBGI)"),
    _engine_option("cbgi_start", "cbgi_start", _fraction, "budget share before CBGI starts"),
    _engine_option("cbgi_period", "cbgi_period", _fraction, "budget share between CBGI looks"),
    _engine_option("cbgi_threshold", "cbgi_threshold", _fraction,
                   "share of disagreeing genomes below which a gene counts as converged"),
    _engine_option("stall", "stall_generations", _count,
                   "generations without a better best before the stall repair (0: never)"),
    _engine_option("repair_count", "repair_count", _positive_int, "genomes a stall repair reworks"),
    _engine_option("repair_pick", "repair_pick", str, "which genomes a stall repair reworks",
                   ("best", "mixed")),
])
_FIELDS = {opt.name: attr for attr, opt in _FIELDS_AND_OPTIONS.items()}
# the engine's options; a family's GA table is `Options(ENGINE_OPTIONS, its own...)`
ENGINE_OPTIONS = Options(
    *_FIELDS_AND_OPTIONS.values(),
    Option("cbgi_link", as_is, help="the portfolio's CBGI link", internal=True),
)


def convert(params: dict[str, Any], name: str, conv: Callable[[str], Any], expected: str) -> Any:
    """Convert the command-line value of --name, or raise InputError saying what is expected."""
    try:
        return conv(str(params[name]))
    except (TypeError, ValueError):
        flag = "--" + name.replace("_", "-")
        raise InputError(f"bad value {params[name]!r} for {flag}; expected {expected}") from None


@dataclass(frozen=True)
class Preset:
    """A named GA setting of one family: the engine's config plus the family's own settings.

    ``paper`` is the source document's algorithm as published; every other preset lists, in
    ``differences``, each way it departs from the paper, so ``--help`` and the docs can say so.
    """

    name: str
    config: GAConfig
    options: dict[str, Any] = field(default_factory=dict)  # operator rates, fitness weights...
    summary: str = ""
    differences: tuple[str, ...] = ()
    default: bool = False  # the family's GA without --preset (else "paper")


PRESET_PARAM = "preset"


def default_preset(presets: dict[str, Preset]) -> str:
    """The preset a family's GA runs without --preset: the one marked default, else paper."""
    return next((name for name, p in presets.items() if p.default), "paper")


def preset_option(presets: dict[str, Preset], default: str | None = None) -> Option:
    """`--preset NAME` of a family's GA (checked by `choose_preset`, which names them)."""
    return Option(PRESET_PARAM, str, None, f"the GA setting: {' or '.join(presets)} "
                  f"(default: {default or default_preset(presets)}; see solve --help)")


def choose_preset(presets: dict[str, Preset], params: dict[str, Any],
                  default: str | None = None) -> Preset:
    """The preset named by ``--preset`` (``params["preset"]``), or ``default`` (None: the
    preset marked default)."""
    default = default or default_preset(presets)
    name = str(params.get(PRESET_PARAM, default)).lower().replace("-", "_")
    if name not in presets:
        raise InputError(f"bad value {params[PRESET_PARAM]!r} for --preset; expected "
                         + " or ".join(sorted(presets)))
    return presets[name]


def describe_presets(presets: dict[str, Preset], default: str | None = None) -> str:
    """The presets as text for --help and the docs: summary, then each difference."""
    default = default or default_preset(presets)
    lines = []
    for name, p in presets.items():
        mark = " (default)" if name == default else ""
        lines.append(f"--preset {name}{mark}: {p.summary}")
        lines.extend(f"    - {d}" for d in p.differences)
    return "\n".join(lines)


def apply_params(config: GAConfig, params: dict[str, Any]) -> GAConfig:
    """A copy of `config` with the engine parameters found in `params` (CLI strings) applied.

    Unknown names are left for the family to read; values are validated (InputError)."""
    changes = {}
    for name, attr in _FIELDS.items():
        if params.get(name) is not None:
            changes[attr] = ENGINE_OPTIONS[name].convert(params[name])
    out = replace(config, **changes)
    if out.population < 2:
        raise InputError(f"bad value {out.population} for --population; expected an integer >= 2")
    return out


# --- the family seam: one entry point per family, one way from a GA result to an answer --------
@dataclass
class GAProblem:
    """A family's GA for one instance: what its one entry point returns,
    ``ga_problem(instance, opts: SolveOptions, preset: str) -> GAProblem`` (``preset`` is the
    name ``--preset`` chose, validated), and what `solve_problem` runs and answers with.

    ``encoding``, ``config`` and ``seeds`` are what `evolve` runs; ``to_board(genome)`` is the
    board a genome shows (the answer's board); ``value(result)`` the answer's objective value
    without --objective (None: no value; by default the best fitness); ``stats(result)`` the
    family's statistics beside the engine's (``GAResult.stats``).

    ``scored(result) -> (board, score) | None`` answers --objective: the best board found for
    it and the score (None: none was found; the run then ran out). None: the GA scores no
    objective. A run that reached the target has the best score (SOLVED) when
    ``target_proves_score``; False where the scored board is tracked apart from the fitness
    (Tantrix's complete clusters: FEASIBLE).

    Two special cases behind the same signature, each stated by the family that uses it:

    - ``engine(problem, opts) -> GAResult``: how the engine runs when not one `evolve` (Tantrix
      starts fresh runs while the budget lasts and hands back their sum);
    - ``runner(opts) -> Outcome``: an answer that is no result of this engine (the magic
      hexagon's paper preset runs ``post_ea``; a board the givens fix needs no run).
    """

    encoding: Encoding | None
    config: GAConfig
    to_board: Callable[[np.ndarray], Solution]
    seeds: list[np.ndarray] = field(default_factory=list)
    value: Callable[[GAResult], float | None] = lambda result: result.fitness
    stats: Callable[[GAResult], dict[str, Any]] = lambda result: {}
    scored: Callable[[GAResult], tuple[Solution, float] | None] | None = None
    target_proves_score: bool = True
    engine: Callable[[GAProblem, SolveOptions], GAResult] | None = None
    runner: Callable[[SolveOptions], Outcome] | None = None

    @classmethod
    def answered(cls, runner: Callable[[SolveOptions], Outcome]) -> GAProblem:
        """A problem whose answer comes from ``runner``, not from this engine."""
        return cls(None, GAConfig(), lambda genome: {}, runner=runner)


def solve_problem(ga_problem: Callable[..., GAProblem], presets: dict[str, Preset],
                  instance, opts: SolveOptions) -> Outcome:
    """A family's GA backend: the preset --preset names, the family's problem, the run, the
    answer (`answer`). Every family's ``--backend ga`` is this function (`ga_backend`)."""
    t0 = time.perf_counter()
    problem = ga_problem(instance, opts, choose_preset(presets, opts.params).name)
    if problem.runner is not None:
        return problem.runner(opts)
    if problem.engine is not None:
        result = problem.engine(problem, opts)
    else:
        assert problem.encoding is not None
        result = evolve(problem.encoding, problem.config, opts, problem.seeds)
    return answer(problem, result, opts, time.perf_counter() - t0)


def answer(problem: GAProblem, result: GAResult, opts: SolveOptions, seconds: float) -> Outcome:
    """The one way from a GA result to an answer (which the checker's gate then verifies):
    SOLVED when the run reached the target; with --objective the scored board, FEASIBLE (no GA
    proves a score optimal) unless the target proves it; else the best board as ran out
    (`ran_out`: BUDGET for the GA's own budget, TIMEOUT for the clock)."""
    stats = {**result.stats(), **problem.stats(result), "seconds": round(seconds, 4)}
    board = problem.to_board(result.best)
    if opts.objective and problem.scored is not None:
        scored = problem.scored(result)
        if scored is None:
            return Outcome(ran_out(stats), board, None, stats=stats)
        best, score = scored
        if result.solved and problem.target_proves_score:
            return Outcome(Status.SOLVED, best, score, score, stats)
        return Outcome(Status.FEASIBLE, best, score, None, stats)
    status = Status.SOLVED if result.solved else ran_out(stats)
    return Outcome(status, board, problem.value(result), stats=stats)


def ga_backend(ga_problem: Callable[..., GAProblem], options: Options,
               presets: dict[str, Preset], objectives: tuple[str, ...] = ()) -> Backend:
    """The declaration of a family's GA backend: its entry point run by `solve_problem`."""
    return Backend("ga", options, functools.partial(solve_problem, ga_problem, presets),
                   objectives=objectives, presets=presets, problem=ga_problem)
