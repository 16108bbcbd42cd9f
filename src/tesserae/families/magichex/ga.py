"""An evolutionary algorithm for magic hexagons, after the numpy EA of "Sudoku on steroids",
run on the shared engine (backends/ga.py).

A genome is a permutation of the numbers over the cells (givens stay in place); fitness is
minus the sum of squared line errors (0 = magic). The blog's EA keeps the best p_cand
(`--candidates`) of the p_size (`--population`) boards, clones them to refill the population
and mutates the clones by random swaps. On the engine that is: truncation selection and
elitism both at p_cand / p_size, no crossover (`--crossover-rate 0`: cloning), mutation by
1..`--swaps` swaps. A cycle crossover is there for `--crossover-rate` > 0.

What makes it reliable: when the best board has not improved for `--stall` generations the
engine hands it to `repair`, which polishes it with the swap tabu search (tabu.py) for
`--polish` steps (a memetic step). `--polish 0` runs the plain EA of the blog.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...backends import ga as engine
from ...core.errors import InputError
from ...core.result import Outcome, Solution, SolveOptions, Status
from .model import MagicHexInstance
from .tabu import LineAlgebra, tabu_search

FAMILY_PARAMS = ("candidates", "swaps", "polish")
PARAMS = (*engine.ENGINE_PARAMS, *FAMILY_PARAMS)
DEFAULTS = engine.GAConfig(population=200, selection="truncation", crossover_rate=0.0,
                           stall_generations=50, repair_count=1)
DEFAULT_CANDIDATES, DEFAULT_SWAPS, DEFAULT_POLISH = 20, 2, 2000
DEFAULT_SECONDS = 60.0  # without --time-limit: the EA cannot prove there is no solution


class MagicHexEncoding:
    def __init__(self, inst: MagicHexInstance, swaps: int, polish: int):
        self.inst = inst
        self.la = LineAlgebra(inst)
        self.length = self.la.n
        self.target = 0.0
        self.movable = np.flatnonzero(self.la.movable)
        self.swaps = swaps
        self.polish = polish

    def random(self, rng: np.random.Generator, n: int) -> np.ndarray:
        return np.stack([self.la.random_board(rng) for _ in range(n)])

    def fitness(self, pop: np.ndarray) -> np.ndarray:
        return 0.0 - self.la.costs(pop).astype(np.float64)  # 0.0, not -0.0, when magic

    def mutate(self, pop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        if len(self.movable) < 2:
            return pop
        rows = np.arange(len(pop))
        for _ in range(int(rng.integers(1, self.swaps + 1))):
            a = self.movable[rng.integers(0, len(self.movable), len(pop))]
            b = self.movable[rng.integers(0, len(self.movable), len(pop))]
            pop[rows, a], pop[rows, b] = pop[rows, b], pop[rows, a]
        return pop

    def crossover(self, a: np.ndarray, b: np.ndarray, rng: np.random.Generator):
        """Cycle crossover: each child takes whole value cycles from one parent or the other,
        so it stays a permutation and keeps the givens (fixed points of every cycle)."""
        c1, c2 = a.copy(), b.copy()
        for k in range(len(a)):
            where = {int(v): i for i, v in enumerate(a[k])}
            seen = np.zeros(self.length, dtype=bool)
            take_b = False
            for start in range(self.length):
                if seen[start]:
                    continue
                i = start
                while not seen[i]:
                    seen[i] = True
                    if take_b:
                        c1[k, i], c2[k, i] = b[k, i], a[k, i]
                    i = where[int(b[k, i])]
                take_b = not take_b
        return c1, c2

    def decode(self, genome: np.ndarray) -> Solution:
        return {c: int(v) for c, v in zip(self.inst.cells, genome, strict=True)}

    def encode(self, solution: Solution) -> np.ndarray:
        if any(c not in solution for c in self.inst.cells):
            raise ValueError("a partial board cannot seed a permutation")
        genome = np.array([int(solution[c]) for c in self.inst.cells], dtype=np.int64)
        if sorted(genome.tolist()) != list(self.inst.values):
            raise ValueError("not a permutation of the numbers")
        return genome

    def gene_cells(self, genome: np.ndarray, idx) -> Solution:
        return {self.inst.cells[int(i)]: int(genome[int(i)]) for i in idx}

    def fix(self, pop: np.ndarray, genes: dict[int, int]) -> np.ndarray:
        """Swap each fixed value into its cell, in every row."""
        rows = np.arange(len(pop))
        for i, v in genes.items():
            at = np.argmax(pop == v, axis=1)
            pop[rows, at], pop[rows, i] = pop[rows, i], v
        return pop

    def repair(self, genome: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        if not self.polish:
            return genome
        res = tabu_search(self.inst, rng, start=genome, max_iterations=self.polish,
                          algebra=self.la)
        return res.values


def family_int(opts: SolveOptions, name: str, default: int, low: int) -> int:
    raw = opts.params.get(name, default)
    try:
        val = int(raw)
    except (TypeError, ValueError):
        raise InputError(f"bad value {raw!r} for --{name}; expected an integer >= {low}") from None
    if val < low:
        raise InputError(f"bad value {raw!r} for --{name}; expected an integer >= {low}")
    return val


def config(opts: SolveOptions) -> tuple[engine.GAConfig, int, int]:
    cfg = engine.apply_params(DEFAULTS, opts.params)
    cand = family_int(opts, "candidates", DEFAULT_CANDIDATES, 1)
    if cand > cfg.population:
        raise InputError(f"--candidates ({cand}) cannot exceed --population ({cfg.population})")
    share = cand / cfg.population
    if "truncation" not in opts.params:
        cfg = replace(cfg, truncation=share)
    if "elitism" not in opts.params:
        cfg = replace(cfg, elitism=share)
    if opts.time_limit is None and cfg.generations is None and cfg.max_evaluations is None:
        cfg = replace(cfg, time_limit=DEFAULT_SECONDS)
    swaps = family_int(opts, "swaps", DEFAULT_SWAPS, 1)
    polish = family_int(opts, "polish", DEFAULT_POLISH, 0)
    return cfg, swaps, polish


def solve(inst: MagicHexInstance, opts: SolveOptions) -> Outcome:
    cfg, swaps, polish = config(opts)
    enc = MagicHexEncoding(inst, swaps, polish)
    seeds = engine.hint_seeds(enc, opts.hint)
    if enc.target is not None and len(enc.movable) < 2:
        genome = enc.random(np.random.default_rng(opts.seed), 1)[0]
        fit = float(enc.fitness(genome[None])[0])
        return Outcome(Status.SOLVED if fit == 0 else Status.INFEASIBLE, enc.decode(genome), fit)
    res = engine.evolve(enc, cfg, opts, seeds)
    stats = {**res.stats(), "seconds": round(res.seconds, 4)}
    status = Status.SOLVED if res.solved else Status.TIMEOUT
    return Outcome(status, enc.decode(res.best), res.fitness, stats=stats)
