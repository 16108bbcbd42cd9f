"""Tantrix genetic algorithm after Downing, "Tantrix: A Minute to Learn, 100 (Genetic
Algorithm) Generations to Master" (NTNU, 2005).

Like Downing's Tantrix-GA the genome is indirect: it does not say where tiles go but how a
cluster grows. Each tile has a priority, an orientation and a shape gene, and the focal-colour
growth rule of `ga_growth` develops the genome into a cluster that is connected and obeys the
golden rule by construction (see that module). Fitness rewards long goal-colour lines (F_sum:
sum of squared piece lengths, or F_max: the longest piece; `--fitness sum|max`), closing loops,
compactness, and penalises enclosed holes; a cluster meeting every rule scores above the
target and ends the run.

Operators: bit mutation (each bit of each gene flips with probability `--bit-mutation`),
two-point crossover at gene boundaries (whole tile blocks are exchanged), headless-chicken
crossover (with probability `--headless`, the second parent is a fresh random genome),
inversion (`--inversion`: the placement order of a run of tiles is reversed) and priority
swapping within arc-angle bins (`--bin-swap`: two tiles whose focal arcs turn by the same angle
swap priority and orientation, so the line keeps its shape and changes its tiles). Selection is
truncation with sigma scaling, with 5% elitism and 10% immigrants per generation; all of it
runs on the generic engine in `backends/ga.py`, whose parameters (`--population`,
`--generations`, `--truncation`, `--elitism`, ...) are accepted too.

Only the abstract of Downing's paper was available, so the numbers below are our choices, not
his: population 100, 200 generations per run, truncation 0.5, crossover rate 0.8, one expected
bit flip per genome, inversion 0.1, bin swap 0.2, headless chicken 0.1. The paper's title sets
the scale (about 100 generations); the elitism (5%) and immigrant (10%) shares are the ones
named for it. Two additions of ours: after 10 generations without progress the best genome
gets a short hill climb (4 moves per tile: turn a tile the other way, trade two tiles' places
in the order, or a mutation; `--stall 0` turns it off), and a run that ends without a solution
restarts from a fresh population while the time (or evaluation) budget lasts (`--restarts N`
caps the extra runs; without any budget one run is made).

`solve` returns SOLVED only when the decoded cluster passes the family's verify (the pipeline
checks again); otherwise TIMEOUT with the best individual's cluster. Improving clusters are
streamed through `opts.on_solution`.
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from ...backends import ga as engine
from ...core.errors import InputError
from ...core.result import Outcome, Solution, SolveOptions, Status
from .ga_growth import GENES_PER_TILE, ORIENT, PRIO, SOLVED_BONUS, Grower
from .model import TantrixInstance, verify

OWN_PARAMS = ("fitness", "bit_mutation", "inversion", "bin_swap", "headless", "restarts")
PARAMS = (*engine.ENGINE_PARAMS, *OWN_PARAMS)

DEFAULTS = engine.GAConfig(
    population=100,
    generations=200,
    selection="truncation",
    truncation=0.5,
    sigma_scaling=True,
    elitism=0.05,
    immigrants=0.10,
    crossover_rate=0.8,
    mutation_rate=1.0,
    stall_generations=10,
)
CACHE_SIZE = 200_000


class TantrixEncoding:
    """The developmental genome and its operators (the engine's Encoding protocol)."""

    def __init__(
        self,
        inst: TantrixInstance,
        fitness: str = "sum",
        bit_mutation: float | None = None,
        inversion: float = 0.1,
        bin_swap: float = 0.2,
        headless: float = 0.1,
    ) -> None:
        self.grower = Grower(inst)
        self.n = inst.n
        self.length = self.grower.length
        self.target: float | None = SOLVED_BONUS
        self.mode = fitness
        self.high = np.array(self.grower.gene_max(), dtype=np.int64)
        self.bits = np.array(self.grower.gene_bits(), dtype=np.int64)
        self.bit_rate = 1.0 / self.bits.sum() if bit_mutation is None else bit_mutation
        self.inversion = inversion
        self.bin_swap = bin_swap
        self.headless = headless
        self.repair_tries = 4 * self.n
        self.cache: dict[bytes, float] = {}
        self.developed = 0  # genomes actually grown (the cache spares the rest)
        colours = self.grower.colours_of(np.zeros(self.length, dtype=np.int64))
        focal = colours[0] if colours else -1
        self.bins = np.array([self.grower.arc_angle(i, focal) for i in range(self.n)])

    def random(self, rng: np.random.Generator, n: int) -> np.ndarray:
        return rng.integers(0, self.high, size=(n, self.length), dtype=np.int64)

    def fitness(self, pop: np.ndarray) -> np.ndarray:
        out = np.empty(len(pop))
        for k, row in enumerate(pop):
            key = row.tobytes()
            f = self.cache.get(key)
            if f is None:
                self.developed += 1
                f = self.grower.score(row, self.mode).fitness
                if len(self.cache) >= CACHE_SIZE:
                    self.cache.clear()
                self.cache[key] = f
            out[k] = f
        return out

    def mutate(self, pop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        for b in range(int(self.bits.max())):
            flip = (rng.random(pop.shape) < self.bit_rate) & (b < self.bits)
            pop ^= flip.astype(pop.dtype) << b
        n, step = self.n, GENES_PER_TILE
        for row in pop:
            if n > 1 and rng.random() < self.inversion:
                prio = row[PRIO:step * n:step]
                order = np.argsort(-prio, kind="stable")
                i, j = sorted(rng.choice(n + 1, 2, replace=False))
                run = order[i:j]
                prio[run] = prio[run[::-1]]
                row[PRIO:step * n:step] = prio
            if rng.random() < self.bin_swap:
                i = int(rng.integers(n))
                j = int(rng.choice(np.flatnonzero(self.bins == self.bins[i])))
                for off in (PRIO, ORIENT):
                    a, b = step * i + off, step * j + off
                    row[a], row[b] = row[b], row[a]
        return pop

    def crossover(self, a: np.ndarray, b: np.ndarray, rng: np.random.Generator):
        """Two-point crossover at tile-block boundaries; headless chicken for some pairs."""
        b = b.copy()
        fresh = rng.random(len(a)) < self.headless
        if fresh.any():
            b[fresh] = self.random(rng, int(fresh.sum()))
        c1, c2 = a.copy(), b.copy()
        for k in range(len(a)):
            i, j = sorted(rng.choice(self.n + 1, 2, replace=False))
            lo, hi = GENES_PER_TILE * i, GENES_PER_TILE * j
            c1[k, lo:hi], c2[k, lo:hi] = b[k, lo:hi], a[k, lo:hi]
        return c1, c2

    def repair(self, genome: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Hill climbing on a stalled best: small moves, kept when not worse."""
        step = GENES_PER_TILE
        best = genome.copy()
        best_fit = self.fitness(best[None])[0]
        for _ in range(self.repair_tries):
            cand = best.copy()
            i, j = (int(x) for x in rng.integers(self.n, size=2))
            move = rng.integers(3)
            if move == 0:  # turn the other way
                cand[step * i + ORIENT] ^= 1
            elif move == 1:  # two tiles trade places in the order
                cand[step * i + PRIO], cand[step * j + PRIO] = best[step * j + PRIO], \
                    best[step * i + PRIO]
            else:
                cand = self.mutate(cand[None], rng)[0]
            f = self.fitness(cand[None])[0]
            if f >= best_fit:
                best, best_fit = cand, f
                if f >= SOLVED_BONUS:
                    break
        return best

    def decode(self, genome: np.ndarray) -> Solution:
        return self.grower.solution(self.grower.grow(genome))

    def gene_cells(self, genome: np.ndarray, idx) -> Solution:
        """Where the tiles owning genes idx lie in the developed cluster."""
        grown = self.grower.grow(genome)
        tiles = {int(g) // GENES_PER_TILE for g in idx if int(g) < GENES_PER_TILE * self.n}
        return {cell: (self.grower.inst.tiles[i], rot)
                for cell, (i, rot) in grown.board.items() if i in tiles}

    def fix(self, pop: np.ndarray, genes: dict[int, int]) -> np.ndarray:
        for g, v in genes.items():
            pop[:, g] = v
        return pop


def _fraction(params: dict, name: str, default: float) -> float:
    if name not in params:
        return default
    return engine.convert(params, name, engine._fraction, "a fraction in [0, 1]")


def configure(inst: TantrixInstance, opts: SolveOptions):
    """The encoding, the engine configuration and the restart cap from opts.params."""
    params = opts.params
    unknown = sorted(set(params) - set(PARAMS) - {"cpsat", "solver"})
    if unknown:
        flags = ", ".join("--" + u.replace("_", "-") for u in unknown)
        raise InputError(f"unknown option(s) {flags} for the tantrix GA; expected "
                         + ", ".join("--" + p.replace("_", "-") for p in sorted(PARAMS)
                                     if p != "cbgi_link"))
    cfg = engine.apply_params(DEFAULTS, params)
    mode = engine.convert(params, "fitness", engine._choice("sum", "max"), "sum or max") \
        if "fitness" in params else "sum"
    bit = _fraction(params, "bit_mutation", -1.0)
    enc = TantrixEncoding(
        inst,
        fitness=mode,
        bit_mutation=None if bit < 0 else bit,
        inversion=_fraction(params, "inversion", 0.1),
        bin_swap=_fraction(params, "bin_swap", 0.2),
        headless=_fraction(params, "headless", 0.1),
    )
    restarts = engine.convert(params, "restarts", engine._count, "an integer >= 0") \
        if "restarts" in params else None
    return enc, cfg, restarts


def solve(inst: TantrixInstance, opts: SolveOptions) -> Outcome:
    enc, cfg, restarts = configure(inst, opts)
    budgeted = opts.time_limit is not None or cfg.max_evaluations is not None
    if restarts is None:
        restarts = 10**9 if budgeted else 0
    t0 = time.perf_counter()
    best: tuple[float, np.ndarray] | None = None
    shown = -np.inf
    runs, generations, evaluations = 0, 0, 0

    def stream(sol: Solution, fit: float | None) -> None:
        nonlocal shown
        if opts.on_solution is not None and fit is not None and fit > shown:
            shown = fit
            opts.on_solution(sol, fit)

    res = None
    while True:
        left = None if opts.time_limit is None else opts.time_limit - (time.perf_counter() - t0)
        run_cfg = replace(
            cfg,
            seed=opts.seed * 7919 + runs,  # each restart draws a fresh population
            max_evaluations=None if cfg.max_evaluations is None
            else cfg.max_evaluations - evaluations,
        )
        res = engine.evolve(enc, run_cfg, replace(opts, time_limit=left, on_solution=stream))
        runs += 1
        generations += res.generations
        evaluations += res.evaluations
        if best is None or res.fitness > best[0]:
            best = (res.fitness, res.best)
        if res.solved or res.stop_reason != "generations" or runs > restarts:
            break
        if opts.time_limit is not None and time.perf_counter() - t0 >= opts.time_limit:
            break
    assert best is not None and res is not None
    sol = enc.decode(best[1])
    solved = best[0] >= SOLVED_BONUS and verify(inst, sol).ok
    stats = {
        **res.stats(),
        "generations": generations,
        "evaluations": evaluations,
        "developed": enc.developed,
        "best_fitness": round(best[0], 6),
        "runs": runs,
        "fitness_mode": enc.mode,
        "seconds": round(time.perf_counter() - t0, 4),
    }
    return Outcome(Status.SOLVED if solved else Status.TIMEOUT, sol, round(best[0], 6),
                   stats=stats)
