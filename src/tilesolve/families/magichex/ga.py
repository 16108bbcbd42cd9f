"""Evolutionary algorithms for magic hexagons: the post's EA (the default) and a tuned one.

`--preset paper` (the default) is the EA of the magic-hexagon post "Sudoku on steroids",
exactly (post_ea.py): boards cost the sum of |M - line sum|, the best n_candidates of
`--population` p_size boards are cloned p_size / n_candidates times and each clone gets one
swap of two uniformly drawn cells; no elitism, no crossover, no local search; it stops at cost
0. n_candidates is the divisor of p_size closest to p_size * `--p-cand`. The preset runs the
post's tuned setting (25, 0.0925), which has a single candidate; `--population 100 --p-cand
0.2` is its first setting. `--mutate candidates` swaps in the first n_candidates rows only,
as the code printed in the post does (its prose and results say every clone).

`--preset tuned` is this toolkit's EA on the shared engine (backends/ga.py): a permutation
genome, minus the sum of squared line errors as fitness, truncation selection and elitism at
`--candidates` / `--population`, 1..`--swaps` swaps per child, and after `--stall`
generations without improvement the best board is polished by the swap tabu search (tabu.py)
for `--polish` steps. It solves orders 4 to 8 where the post's EA stalls; PRESETS["tuned"]
lists each difference from the post. A run that asks for CBGI (`--cbgi`, or the portfolio's
GA lane) defaults to the tuned preset, the only one that has it.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...backends import ga as engine
from ...core.errors import InputError
from ...core.options import Option, Options, count, fraction, positive_int
from ...core.result import Outcome, Solution, SolveOptions, Status, ran_out
from . import post_ea
from .instance import MagicHexInstance
from .tabu import LineAlgebra, tabu_search

DEFAULT_SECONDS = 60.0  # without a budget: the EA cannot prove there is no solution
MUTATE_ROWS = ("all", "candidates")

PRESETS = {
    "paper": engine.Preset(
        name="paper",
        config=engine.GAConfig(population=25, selection="truncation", crossover_rate=0.0),
        options={"p_cand": 0.0925, "mutate": "all"},
        summary="the post's EA: absolute line errors, clone the best p_size/n_candidates "
                "times, one random swap per clone, stop at cost 0; (p_size, p_cand) = "
                "(25, 0.0925), the post's tuned setting (one candidate)",
    ),
    "tuned": engine.Preset(
        name="tuned",
        config=engine.GAConfig(population=200, selection="truncation", crossover_rate=0.0,
                               stall_generations=50, repair_count=1),
        options={"candidates": 20, "swaps": 2, "polish": 2000},
        summary="engine EA with tabu polishing; solves orders 4-8",
        differences=(
            "fitness: minus the sum of squared line errors (post: absolute errors)",
            "population 200, 20 candidates (post: 25 boards, p_cand 0.0925, one candidate)",
            "parents drawn at random from the best 10% (post: each candidate cloned "
            "p_size / n_candidates times)",
            "elitism: the best 10% copied unchanged (post: none)",
            "mutation: 1 or 2 swaps per child (post: exactly one)",
            "after 50 generations without improvement the best board is polished by "
            "2000 tabu-search steps (post: no local search)",
            "random numbers from numpy's Generator, ties broken by a stable sort (post: "
            "RandomState and numpy 1.24's argsort)",
        ),
    ),
}
PAPER_OPTIONS = ("population", "generations", "evaluations", "p_cand", "mutate")
OPTIONS = Options(
    engine.ENGINE_OPTIONS,
    engine.preset_option(PRESETS, "paper; tuned when the portfolio asks for CBGI"),
    # tuned preset
    Option("candidates", positive_int, None, "tuned: parents per generation, at most the "
           "population (20)"),
    Option("swaps", positive_int, None, "tuned: swaps per mutation (2)"),
    Option("polish", count, None, "tuned: tabu steps on each child (2000)"),
    # paper preset
    Option("p_cand", fraction, None, "paper: share of the population kept as candidates (0.0925)"),
    Option("mutate", str, None, "paper: mutate all clones or only the candidates' (all)",
           MUTATE_ROWS),
)


class MagicHexEncoding(engine.Encoding):
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

    def force_genes(self, pop: np.ndarray, genes: dict[int, int]) -> np.ndarray:
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
        self.local_evaluations += res.scored
        return res.values


def given(opts: SolveOptions, name: str, default):
    """The option as its table reads it, else the preset's `default`."""
    val = OPTIONS.value(opts.params, name)
    return default if val is None else val


def budgeted(cfg: engine.GAConfig, opts: SolveOptions) -> engine.GAConfig:
    if opts.time_limit is None and cfg.generations is None and cfg.max_evaluations is None:
        return replace(cfg, time_limit=DEFAULT_SECONDS)
    return cfg


def tuned_settings(opts: SolveOptions, preset: engine.Preset) -> tuple[engine.GAConfig, int, int]:
    """The tuned preset's engine settings, swaps and polish steps."""
    cfg = engine.apply_params(preset.config, opts.params)
    cand = given(opts, "candidates", preset.options["candidates"])
    if cand > cfg.population:
        raise InputError(f"--candidates ({cand}) cannot exceed --population ({cfg.population})")
    share = cand / cfg.population
    if "truncation" not in opts.params:
        cfg = replace(cfg, truncation=share)
    if "elitism" not in opts.params:
        cfg = replace(cfg, elitism=share)
    swaps = given(opts, "swaps", preset.options["swaps"])
    polish = given(opts, "polish", preset.options["polish"])
    return budgeted(cfg, opts), swaps, polish


def check_options(opts: SolveOptions, preset: engine.Preset, accepted) -> None:
    other = sorted(k for k in opts.params
                   if k in OPTIONS and k not in accepted and k not in ("preset", "cbgi_link"))
    if other:
        flags = ", ".join("--" + k.replace("_", "-") for k in other)
        raise InputError(f"{flags} not used by --preset {preset.name}; it takes "
                         + ", ".join("--" + k.replace("_", "-") for k in accepted))


def paper_settings(opts: SolveOptions, preset: engine.Preset) -> tuple[engine.GAConfig, int, bool]:
    """The post's settings: (budgets and p_size, n_candidates, every clone mutated)."""
    check_options(opts, preset, PAPER_OPTIONS)
    cfg = budgeted(engine.apply_params(preset.config, opts.params), opts)
    p_cand = given(opts, "p_cand", preset.options["p_cand"])
    mutate = given(opts, "mutate", preset.options["mutate"])
    return cfg, post_ea.candidate_count(cfg.population, p_cand), mutate == "all"


def solve_paper(inst: MagicHexInstance, opts: SolveOptions, preset: engine.Preset) -> Outcome:
    cfg, n_cand, mutate_all = paper_settings(opts, preset)
    boards = post_ea.PostBoards(inst)
    run = post_ea.PostRun(boards, cfg.population, n_cand, opts.seed, mutate_all)
    limits = [t for t in (cfg.time_limit, opts.remaining()) if t is not None]
    budget = post_ea.Budget(min(limits) if limits else None, cfg.generations,
                            cfg.max_evaluations, opts.stopped)
    stream = None
    if opts.on_solution is not None:
        def stream(board, cost):
            opts.on_solution(boards.decode(board), float(-cost))
    reason, seconds = post_ea.evolve(run, budget, stream, opts.report)
    stats = {**post_ea.stats(run, reason, seconds), "preset": preset.name}
    status = Status.SOLVED if run.solved else ran_out(stats)
    return Outcome(status, boards.decode(run.best_board), float(-run.best_cost), stats=stats)


def ga_problem(inst: MagicHexInstance, opts: SolveOptions, preset: str) -> engine.GAProblem:
    """The GA for this puzzle: the family's one GA entry point. Two answers come from runners
    of their own: the paper preset runs the post's EA (`post_ea`, not this engine), and givens
    that leave at most one cell free fix the board."""
    # CBGI is no part of the post's EA: a run that asks for it, as the portfolio's GA lane does,
    # gets the tuned preset unless --preset says otherwise
    cbgi = "cbgi_link" in opts.params or "cbgi" in opts.params
    if cbgi and engine.PRESET_PARAM not in opts.params:
        preset = "tuned"
    chosen = PRESETS[preset]
    if len(LineAlgebra(inst).movable.nonzero()[0]) < 2:
        return engine.GAProblem.answered(lambda opts: fixed_board(inst))
    if chosen.name == "paper":
        return engine.GAProblem.answered(lambda opts: solve_paper(inst, opts, chosen))
    check_options(opts, chosen, (*engine.ENGINE_OPTIONS.names(), "candidates", "swaps", "polish"))
    cfg, swaps, polish = tuned_settings(opts, chosen)
    enc = MagicHexEncoding(inst, swaps, polish)
    return engine.GAProblem(enc, cfg, enc.decode, engine.hint_seeds(enc, opts.hint),
                            stats=lambda res: {"preset": chosen.name})


def fixed_board(inst: MagicHexInstance) -> Outcome:
    """Givens leave at most one cell free: the board is determined."""
    enc = MagicHexEncoding(inst, 1, 0)
    genome = enc.random(np.random.default_rng(0), 1)[0]
    fit = float(enc.fitness(genome[None])[0])
    return Outcome(Status.SOLVED if fit == 0 else Status.INFEASIBLE, enc.decode(genome), fit)


BACKEND = engine.ga_backend(ga_problem, OPTIONS, PRESETS)
solve = BACKEND.solve
