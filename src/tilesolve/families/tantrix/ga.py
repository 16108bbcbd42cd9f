"""Tantrix genetic algorithms after Downing, "Tantrix: A Minute to Learn, 100 (Genetic
Algorithm) Generations to Master" (NTNU, 2005). Two presets (`--preset NAME`):

paper (the default) is Downing's Tantrix-GA as published: his genome (moves, priorities,
orientations), his development rule and fitness (`downing_growth`), his operators at his
rates (`ga_downing`: bit mutation 0.01, single-point crossover at gene boundaries at 0.5 of
which a tenth headless-chicken, inversion of a run of move genes 0.02, priority swapping
within arc-kind bins 0.2 with 1..3 swaps), his selection (the worst half removed, parents
drawn by sigma scaling from the rest), 5% elitism of distinct genotypes and 10% random
immigrants per generation, population and generation limit from his Tables 1-3 for the kind
of puzzle (`paper_budget`; `--population`/`--generations` override), and his stopping rule:
one run, ending at the first solution or at the generation limit.

tuned is our own variant, which solves more of the larger puzzles per second; its
differences from the paper are listed in `TUNED.differences` (shown by the docs and --help).
Its genome holds per tile a priority, an orientation and a shape gene plus a colour-choice
gene, and `ga_growth` grows the cluster by extending the open ends of the focal-colour line.

`solve` returns SOLVED only when the decoded cluster passes the family's verify (the pipeline
checks again); otherwise TIMEOUT with the best individual's cluster. Improving clusters are
streamed through `opts.on_solution`.
"""

from __future__ import annotations

import functools
import time
from dataclasses import replace

import numpy as np

from ...backends import ga as engine
from ...core.errors import InputError
from ...core.options import Option, Options, count, fraction, positive_int
from ...core.result import Solution, SolveOptions
from .check import verify
from .downing_growth import (
    PYRAMID_ORDERS,
    PyramidReading,
    Weights,
    paper_budget,
    paper_weights,
)
from .family import FAMILY
from .ga_downing import CACHE_SIZE, DowningEncoding, flip_bits
from .ga_growth import GENES_PER_TILE, ORIENT, PRIO, SOLVED_BONUS, Grower
from .instance import TantrixInstance

PAPER_ONLY = ("swaps", "k_cyc", "holes", "pyramid_focal", "pyramid_order", "pyramid_skip")

PAPER = engine.Preset(
    name="paper",
    config=engine.GAConfig(
        population=100,  # per puzzle from Downing's tables unless --population is given
        generations=100,
        selection="truncation",
        truncation=0.5,  # "the worst 50% of the population being removed"
        sigma_scaling=True,
        elitism=0.05,
        elite_distinct=True,  # "the top 5% genotypically-distinct individuals"
        immigrants=0.10,
        crossover_rate=0.5,
        headless=0.1,  # "10% of these are the headless-chicken variety"
        headless_pairing="each",  # "parents are ... crossed over with randomly-generated
        # individuals": each parent with its own; "second" is the other reading
        mutation_rate=1.0,  # every child goes through bit mutation, inversion and swapping
        stall_generations=0,
    ),
    options={"fitness": "auto", "bit_mutation": 0.01, "inversion": 0.02, "bin_swap": 0.2,
             "swaps": 3, "holes": "cells", "pyramid_order": "middle", "pyramid_focal": False,
             "pyramid_skip": False, "restarts": 0},
    summary="Downing's Tantrix-GA (2005) as published: developmental genome, F_sum/F_max "
            "fitness with 10 per hole, single-point and headless-chicken crossover, inversion, "
            "priority swaps, sigma scaling, distinct elites, 10% immigrants, his budgets",
)
TUNED = engine.Preset(
    name="tuned",
    config=engine.GAConfig(
        population=100,
        generations=200,
        selection="truncation",
        truncation=0.5,
        sigma_scaling=True,
        elitism=0.05,
        immigrants=0.10,
        crossover_rate=0.8,
        headless=0.1,
        headless_pairing="second",
        mutation_rate=1.0,
        stall_generations=10,
    ),
    options={"fitness": "sum", "bit_mutation": None, "inversion": 0.1, "bin_swap": 0.2,
             "restarts": None},
    summary="our line-extending variant: grows the focal line from its open ends, shaped "
            "fitness, hill climbing on stall, restarts while the budget lasts",
    differences=(
        "genome: per tile a priority (8 bits), an orientation (3 bits: which end of the "
        "focal arc joins the line) and a shape gene (4 bits), plus a colour-choice gene for "
        "`any` goals; the paper has k-1 move genes and (priority, orientation) pairs",
        "development: tiles are tried at the open ends of the focal line and a loop closes "
        "only with the last focal tile; the paper moves from the last tile by its move gene, "
        "counter-clockwise to the first free cell bordering a focal arc",
        "fitness: share of tiles placed, sum of squared piece lengths (or the longest) over "
        "the colour's arcs, a loop-closing term, compactness against the most touching pairs "
        "possible, at most 1 for holes, and a bonus of 10 for a solution; the paper: "
        "M - 10 H + S + C (F_sum) or with max(S, 1.5 C) (F_max)",
        "two-point crossover at tile-block boundaries at 0.8 (paper: single point at 0.5)",
        "headless chicken replaces the second parent by a random genome, both children kept "
        "(paper reading here: each parent crossed with its own random genome)",
        "bit mutation: one expected flip per genome, 1/L (paper: 0.01 per bit)",
        "inversion (0.1) reverses the placement order of a run of tiles; the paper (0.02) "
        "moves a run of shape genes to a new place",
        "bin swap exchanges priority and orientation, once (paper: priority only, 1..3 swaps)",
        "elites need not be distinct genotypes (paper: distinct)",
        "200 generations and population 100 for every puzzle (paper: from his tables)",
        "after 10 generations without progress the best genome gets a short hill climb",
        "with a time or evaluation budget, a run that ends unsolved restarts from a fresh "
        "population (paper: one run)",
    ),
)
PRESETS = {"paper": PAPER, "tuned": TUNED}
OPTIONS = Options(
    engine.ENGINE_OPTIONS,
    engine.preset_option(PRESETS),
    Option("fitness", str, None, "sum or max of the colour terms (default: the preset's, by "
           "puzzle)", ("sum", "max")),
    Option("bit_mutation", fraction, None, "chance per gene of a bit flip (paper 0.01)"),
    Option("inversion", fraction, None, "chance of inverting a run of move genes (paper 0.02, "
           "tuned 0.1)"),
    Option("bin_swap", fraction, None, "chance of swapping priorities within an arc-kind bin "
           "(0.2)"),
    Option("restarts", count, None, "fresh runs after a failed one (default: paper 0, tuned "
           "while the budget lasts)"),
    # paper preset only
    Option("swaps", positive_int, None, "paper: most priority swaps per bin swap (3)"),
    Option("k_cyc", float, None, "paper: weight of closed loops in the fitness (default: by "
           "puzzle)"),
    Option("holes", str, None, "paper: count holes as open cells or as regions (cells)",
           ("cells", "regions")),
    Option("pyramid_focal", bool, None, "paper: the focal-arc rule on pyramids (off)"),
    Option("pyramid_order", str, None, "paper: pyramid cell order (middle)", PYRAMID_ORDERS),
    Option("pyramid_skip", bool, None, "paper: skip a pyramid cell no tile fits (off)"),
)
DEFAULTS = TUNED.config


class TantrixEncoding(engine.Encoding):
    """The developmental genome and its operators (the engine's Encoding protocol)."""

    def __init__(
        self,
        inst: TantrixInstance,
        fitness: str = "sum",
        bit_mutation: float | None = None,
        inversion: float = 0.1,
        bin_swap: float = 0.2,
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
        flip_bits(pop, self.bits, self.bit_rate, rng)
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
        """Two-point crossover at tile-block boundaries."""
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
        self.local_evaluations += 1
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
            self.local_evaluations += 1
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

    def force_genes(self, pop: np.ndarray, genes: dict[int, int]) -> np.ndarray:
        for g, v in genes.items():
            pop[:, g] = v
        return pop


def _option(params: dict, name: str, default):
    """The option as its table reads it, else `default` (the preset's)."""
    val = OPTIONS.value(params, name)
    return default if val is None else val


def _paper_encoding(inst: TantrixInstance, params: dict, opt: dict) -> DowningEncoding:
    base = paper_weights(inst)
    weights = Weights(mode=_option(params, "fitness", base.mode),
                      k_cyc=_option(params, "k_cyc", base.k_cyc),
                      holes=_option(params, "holes", opt["holes"]))
    return DowningEncoding(
        inst,
        weights,
        bit_mutation=_option(params, "bit_mutation", opt["bit_mutation"]),
        inversion=_option(params, "inversion", opt["inversion"]),
        bin_swap=_option(params, "bin_swap", opt["bin_swap"]),
        swaps=_option(params, "swaps", opt["swaps"]),
        pyramid=PyramidReading(*(_option(params, k, opt[k]) for k in
                                 ("pyramid_order", "pyramid_focal", "pyramid_skip"))),
    )


def _tuned_encoding(inst: TantrixInstance, params: dict, opt: dict) -> TantrixEncoding:
    given = sorted(p for p in PAPER_ONLY if p in params)
    if given:
        raise InputError(f"--{given[0].replace('_', '-')} applies to --preset paper only")
    return TantrixEncoding(
        inst,
        fitness=_option(params, "fitness", opt["fitness"]),
        bit_mutation=_option(params, "bit_mutation", None),
        inversion=_option(params, "inversion", opt["inversion"]),
        bin_swap=_option(params, "bin_swap", opt["bin_swap"]),
    )


def ga_problem(inst: TantrixInstance, opts: SolveOptions, preset: str) -> engine.GAProblem:
    """The GA for this puzzle: the family's one GA entry point. Its engine is `Restarts` (fresh
    runs while the budget lasts, as one result); with --objective (paper preset only) the
    answer is the best complete, hole-free cluster any run developed (`scored`)."""
    params = opts.params
    chosen = PRESETS[preset]
    base = chosen.config
    if chosen is PAPER:  # Downing's budget for this kind of puzzle
        population, generations = paper_budget(inst)
        base = replace(base, population=population, generations=generations)
        enc: TantrixEncoding | DowningEncoding = _paper_encoding(inst, params, chosen.options)
    else:
        enc = _tuned_encoding(inst, params, chosen.options)
    cfg = engine.apply_params(base, params)
    restarts = _option(params, "restarts", chosen.options["restarts"])
    scored = None
    if opts.objective:
        FAMILY.check_objective(opts.objective)
        if not isinstance(enc, DowningEncoding):
            raise InputError(f"--objective {opts.objective} runs with --preset paper only")
        if "restarts" not in params:  # fresh runs at the paper's budget while -t lasts
            restarts = None
        watch_valid(enc, opts)
        scored = functools.partial(best_cluster, enc)
    if restarts is None:
        budgeted = opts.time_limit is not None or cfg.max_evaluations is not None
        restarts = 10**9 if budgeted else 0
    runs = Restarts(inst, restarts)

    def stats(res: engine.GAResult) -> dict:
        out = {"developed": enc.developed, "best_fitness": round(res.fitness, 6),
               "runs": runs.runs, "preset": chosen.name, "population": cfg.population,
               "generation_limit": cfg.generations,
               "fitness_mode": enc.mode if isinstance(enc, TantrixEncoding)
               else enc.grower.weights.mode}
        if scored is not None and scored(res) is None:
            out["complete_clusters"] = 0
        return out

    return engine.GAProblem(enc, cfg, enc.decode, value=lambda res: round(res.fitness, 6),
                            stats=stats, scored=scored, target_proves_score=False,
                            engine=runs.run)


class Restarts:
    """Tantrix's GA engine: fresh runs (a new population each) at the preset's generation budget
    until one solves, the clock or the evaluation budget ends, or `cap` restarts were made;
    handed back as one result: the best genome over the runs (a solution once one is found,
    and only one the checker accepts counts as solved), generations and evaluations summed,
    the rest the last run's."""

    def __init__(self, inst: TantrixInstance, cap: int) -> None:
        self.inst, self.cap, self.runs = inst, cap, 0

    def run(self, problem: engine.GAProblem, opts: SolveOptions) -> engine.GAResult:
        enc, cfg = problem.encoding, problem.config
        assert enc is not None
        t0 = time.perf_counter()
        best: tuple[float, np.ndarray] | None = None
        shown = -np.inf
        generations, evaluations = 0, 0

        def stream(sol: Solution, fit: float | None) -> None:
            nonlocal shown
            if opts.on_solution is not None and fit is not None and fit > shown:
                shown = fit
                opts.on_solution(sol, fit)

        res = None
        solved = False
        while True:
            left = None if opts.time_limit is None else opts.time_limit - (time.perf_counter() - t0)
            run_cfg = replace(
                cfg,
                seed=opts.seed * 7919 + self.runs,  # each restart draws a fresh population
                max_evaluations=None if cfg.max_evaluations is None
                else cfg.max_evaluations - evaluations,
            )
            res = engine.evolve(enc, run_cfg, replace(opts, time_limit=left, on_solution=stream))
            self.runs += 1
            generations += res.generations
            evaluations += res.evaluations
            if best is None or res.solved or (res.fitness > best[0] and not solved):
                best = (res.fitness, res.best)
            solved = solved or res.solved
            if res.solved or res.stop_reason != "generations" or self.runs > self.cap:
                break
            if opts.time_limit is not None and time.perf_counter() - t0 >= opts.time_limit:
                break
        assert best is not None and res is not None
        solved = solved and verify(self.inst, enc.decode(best[1])).ok
        return replace(res, best=best[1], fitness=best[0], generations=generations,
                       evaluations=evaluations, solved=solved,
                       seconds=time.perf_counter() - t0)


def watch_valid(enc: DowningEncoding, opts: SolveOptions) -> None:
    """Stream each better complete cluster (the pipeline verifies and scores it)."""
    def note(row: np.ndarray, score: int) -> None:
        opts.offer(enc.decode(row), float(score), source="ga")

    enc.on_valid = note


def best_cluster(enc: DowningEncoding, res: engine.GAResult) -> tuple[Solution, float] | None:
    """--objective: the best complete, hole-free cluster any run developed and its score
    (FEASIBLE: no GA proves a score optimal); None without one (the best individual's cluster
    is then the answer, as ran out)."""
    if enc.best_valid is None:
        return None
    score, genome = enc.best_valid
    return enc.decode(genome), float(score)


BACKEND = engine.ga_backend(ga_problem, OPTIONS, PRESETS, objectives=("longest",))
solve = BACKEND.solve
