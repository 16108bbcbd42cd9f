"""Edge matching by a genetic algorithm: a tuned memetic GA as `--preset tuned` (the default:
it solves instances/e2_6x6.txt in 1-16 CPU s, seeds 0-4, where the paper preset times out),
and Niang's (Concordia MASc thesis, 2010) as `--preset paper`.

Both share the board genome (genome.py: a piece and a turn per cell), the mutation
operators (mutations.py) and the crossovers (crossovers.py).

paper, as the thesis states it (sections 4.3-4.7, Tables 1-9, the screenshots of chapter 5):
any piece on any cell in any turn (random boards, operators that pick tiles "from the
board"; the screenshots of all three solved runs show, one generation before the solution,
3 unmatched joins and 2 unmatched areas: one frame piece turned wrong, a state no single
move reaches when frame pieces are kept grey side out; `--layout frame` keeps them so, the
earlier reading); fitness P(s) = 1 - (joins unmatched / joins + 2x2 areas unmatched /
areas) / 2 (niang_fitness.py); tournament
selection of size 3; region exchange crossover at 0.9 per pair; mutation at 0.1 per child by
region rotation or region swap (the tables' "Region Rot/Swap": one of the two drawn per
mutation; the screenshots name one operator per run, so one alone is the other reading);
population 200; the best individual kept in place of the worst child (elitism 1); up to
10,000 generations (the screenshots' limit) or until a board scores 1. The thesis also
describes linear ranking selection (4.4.2), uniform crossover (4.6.2) and the rotate, swap,
swap-and-rotate, region inversion, row and column inversion and scramble mutations: all
selectable (`--selection linear-ranking`, `--crossover uniform`, `--operators ...`). Its
repair and "selection heuristics" (4.8, 4.9) are stated in words only; `--repair thesis`
runs our reading of them (niang_repair.py: deadlocked best boards tagged after
`--repair-threshold` generations without improvement, 20 by default, the threshold lowered
by `--repair-lower`, 10%, at each check; the still-stuck copies get the border and 2x2-area
rearrangements their symptoms call for; both numbers are ours, the thesis gives none), and
`--deadlock N` its third repair, "to remove the deadlocks", read as the Scramble mutation of
every board once the best has not improved for N generations (100 in the reproduction).

tuned: the earlier design of this module: a smaller population, more mutation, a mix of block
and uniform crossovers, and a tabu search plus region rebuilds as the stall repair
(local_search.py); see PRESETS["tuned"].differences.

Command-line parameters (`--name value`): the engine's (backends/ga.py: population,
generations, evaluations, selection, tournament, ranking-pressure, elitism,
elite-replaces-worst, crossover-rate, mutation-rate, stall, ...) plus `preset`, `operators`
(comma list of mutation operators), and for paper `crossover` (region-exchange | uniform),
`region` (corners | corner-size | two-regions), `fitness` (edges+areas | edges), `layout` (free:
any piece anywhere in any turn, the default | frame: pieces kept in their class, frame pieces
grey side out, see genome.py; frame is the default with `--objective matches`, which scores
legal boards only) and `repair` (thesis | off) with
`repair-threshold`, `repair-lower` and `deadlock`; for tuned
`uniform-rate`, `tabu-iterations`, `tabu-tenure`, `lns-moves`, `sideways`.
"""

from __future__ import annotations

import numpy as np

from ...backends import ga as engine
from ...core import squaregrid as sq
from ...core.errors import InputError
from ...core.options import Option, Options, count, fraction, positive_int
from ...core.result import Solution, SolveOptions
from . import crossovers, mutations
from .genome import CLASSES, BoardGenome
from .instance import EdgeInstance
from .local_search import LocalSearch
from .niang_fitness import TERMS, niang_fitness
from .niang_repair import ThesisRepair

__all__ = ["CLASSES", "EdgeEncoding", "NiangEncoding", "PRESETS", "ga_problem", "solve"]

DEFAULT_TIME = 120.0  # seconds, tuned preset, when no time, generation or evaluation budget
MUTATIONS = tuple(mutations.TUNED)  # the tuned preset's operator names
PAPER_MUTATIONS = tuple(mutations.PAPER)
TUNED_OPTIONS = ("uniform_rate", "tabu_iterations", "tabu_tenure", "lns_moves", "sideways")
PAPER_OPTIONS = ("crossover", "region", "fitness", "layout", "repair", "repair_threshold",
                 "repair_lower", "deadlock")


class NiangEncoding(BoardGenome):
    """Niang's GA on the board genome: his fitness, mutations and crossovers."""

    def __init__(self, inst: EdgeInstance, fixed: dict | None = None,
                 operators: tuple[str, ...] = ("region_rotate", "region_swap"),
                 crossover: str = "region_exchange", region: str = "corners",
                 terms: tuple[str, ...] = TERMS, layout: str = "frame",
                 repair: dict | None = None) -> None:
        super().__init__(inst, fixed, keep_frame=layout == "frame")
        self.target: float | None = 1.0
        self.operators, self.crossover_kind, self.region, self.terms = \
            operators, crossover, region, terms
        # the thesis's deadlock tagging and repairs (niang_repair.py), when asked for
        self.heuristics = ThesisRepair(self, **repair) if repair is not None else None
        if self.heuristics is not None:
            self.tend = self.heuristics

    def fitness(self, pop: np.ndarray) -> np.ndarray:
        return niang_fitness(self, pop, self.terms)

    def mutate(self, pop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return mutations.mutate(self, pop, rng, mutations.PAPER, self.operators)

    def crossover(self, a: np.ndarray, b: np.ndarray, rng) -> tuple[np.ndarray, np.ndarray]:
        if self.crossover_kind == "uniform":
            return crossovers.uniform(self, a, b, rng)
        return crossovers.region_exchange(self, a, b, rng, self.region)


class EdgeEncoding(LocalSearch, BoardGenome):  # LocalSearch first: its repair wins
    """The tuned preset: matched joins as fitness, the tuned operators, tabu + rebuild repair."""

    def __init__(self, inst: EdgeInstance, fixed: dict | None = None,
                 operators: tuple[str, ...] = MUTATIONS, uniform_rate: float = 0.5,
                 tabu_iterations: int = 300, tabu_tenure: int | None = None,
                 lns_moves: int = 100, sideways: float = 0.3) -> None:
        super().__init__(inst, fixed)
        self.target: float | None = float(sq.join_count(self.w, self.h))
        self.operators = operators
        self.uniform_rate = uniform_rate
        self.tabu_iterations = tabu_iterations
        self.lns_moves = lns_moves
        self.sideways = sideways  # chance of a sideways rebuild after a failed improving one
        self.tenure = tabu_tenure if tabu_tenure is not None else max(4, self.n // 4)
        self.ls_iterations = 0
        self._ls_tables()

    def fitness(self, pop: np.ndarray) -> np.ndarray:
        return self.matches(pop).astype(float)

    def mutate(self, pop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return mutations.mutate(self, pop, rng, mutations.TUNED, self.operators)

    def crossover(self, a: np.ndarray, b: np.ndarray, rng) -> tuple[np.ndarray, np.ndarray]:
        return crossovers.block_or_uniform(self, a, b, rng, self.uniform_rate)


# --- presets -----------------------------------------------------------------------------------
PAPER = engine.Preset(
    name="paper",
    config=engine.GAConfig(
        population=200, generations=10_000, selection="tournament", tournament_k=3,
        elitism=1 / 200, elite_replaces_worst=True, crossover_rate=0.9, mutation_rate=0.1,
        cbgi=False,
    ),
    options={"operators": ("region_rotate", "region_swap"), "crossover": "region_exchange",
             "region": "corners", "fitness": TERMS, "layout": "free", "repair": "off",
             "repair_threshold": 20, "repair_lower": 0.1, "deadlock": 0},
    summary="reproduces Niang 2010 (rarely solves a 4x4; lab/reproductions/niang.md): any "
            "piece anywhere in any turn, population 200, tournament 3, region exchange 0.9, "
            "region rotation/swap mutation 0.1, elitism 1 (at any population), fitness with "
            "2x2 areas, 10,000 generations; "
            "--repair thesis adds our reading of its deadlock tagging and repairs (4.8-4.9: "
            "threshold 20 generations, lowered 10% per check; the numbers are ours), "
            "--deadlock 100 its Scramble of a stuck population",
)
TUNED = engine.Preset(
    name="tuned",
    config=engine.GAConfig(
        population=60, selection="tournament", tournament_k=3, elitism=0.05,
        crossover_rate=0.8, mutation_rate=0.3, stall_generations=1, repair_count=2,
        repair_pick="mixed",
        cbgi=None,  # on when the portfolio connects a CbgiLink (or with --cbgi on)
    ),
    options={"operators": MUTATIONS, "uniform_rate": 0.5, "tabu_iterations": 300,
             "tabu_tenure": None, "lns_moves": 100, "sideways": 0.3},
    summary="the best GA: memetic, tabu search and region rebuilds on every stall, tuned on "
            "6x6 boards (solves instances/e2_6x6.txt in 1-16 CPU s, seeds 0-4)",
    default=True,
    differences=(
        "population 60, not 200",
        "elitism 5% of the population (3), copied before the children, not 1 replacing the "
        "worst child",
        "crossover rate 0.8, not 0.9; half the crossovers are uniform, half copy a random "
        "block (duplicates then replaced by missing pieces), not region exchange",
        "mutation rate 0.3, not 0.1; six operators drawn uniformly (turn by 1-3 quarters, "
        "swap, swap with random turns, region rotation, block swap anywhere inside, "
        "row/column inversion turning pieces half a turn), not region rotation/swap",
        "fitness: matched joins, no 2x2-area term",
        "a tabu search (300 iterations) and 100 region rebuilds on the best and one random "
        "board after every generation without improvement; the thesis has no such repair",
        "no generation limit: 120 s by default",
    ),
)
PRESETS = {"tuned": TUNED, "paper": PAPER}  # the default first, as --help lists them
OPTIONS = Options(
    engine.ENGINE_OPTIONS,
    engine.preset_option(PRESETS),
    Option("operators", str, None, "comma list of mutations: " + ", ".join(PAPER_MUTATIONS)
           + " (paper) or " + ", ".join(MUTATIONS) + " (tuned); default: the preset's"),
    # tuned preset only
    Option("uniform_rate", fraction, None, "tuned: share of crossovers that are uniform (0.5)"),
    Option("tabu_iterations", count, None, "tuned: tabu steps per stall repair (300)"),
    Option("tabu_tenure", positive_int, None, "tuned: tabu tenure (default: by board size)"),
    Option("lns_moves", count, None, "tuned: region rebuilds per stall repair (100)"),
    Option("sideways", fraction, None,
           "tuned: chance of a sideways rebuild after a failed improving one (0.3)"),
    # paper preset only
    Option("crossover", str, None, "paper: region-exchange (default) or uniform",
           ("region_exchange", "uniform")),
    Option("region", str, None, "paper: region of the exchange, corners (default), "
           "corner-size, or two-regions (one size at two places)",
           ("corners", "corner_size", "two_regions")),
    Option("fitness", str, None, "paper: edges+areas (default) or edges"),
    Option("layout", str, None, "paper: free (any piece anywhere in any turn, default) or "
           "frame (frame pieces stay on the frame, grey side out; the default with "
           "--objective matches, which scores only such boards)", ("free", "frame")),
    Option("repair", str, None, "paper: thesis (deadlock tagging and repairs) or off (default)",
           ("thesis", "off")),
    Option("repair_threshold", positive_int, None,
           "paper, --repair thesis: generations without a better best before tagging (20)"),
    Option("repair_lower", fraction, None,
           "paper, --repair thesis: how much the threshold drops per check (0.1)"),
    Option("deadlock", count, None,
           "paper, --repair thesis: the repair 'to remove the deadlocks' (4.9), read as 4.8's "
           "Scramble, 'very effective when the board is completely stuck': after N "
           "generations without a better best the population is deadlocked and every board "
           "is scrambled, the top-left piece kept (0: off, the default; 100 in Table 9)"),
)


def _operators(names: tuple[str, ...]):
    def conv(text: str) -> tuple[str, ...]:
        out = tuple(t.strip().lower().replace("-", "_") for t in text.split(",") if t.strip())
        if not out or any(t not in names for t in out):
            raise ValueError
        return out

    return conv


def _option(p: dict, name: str, default):
    """The option as its table reads it, else the preset's `default`."""
    val = OPTIONS.value(p, name)
    return default if val is None else val


def _listed(p: dict, name: str, conv, expected: str, default):
    """A comma list (--operators, --fitness) parsed, else the preset's `default`."""
    return engine.convert(p, name, conv, expected) if name in p else default


def _terms(text: str) -> tuple[str, ...]:
    out = tuple(t.strip() for t in text.lower().replace("+", ",").split(",") if t.strip())
    if not out or any(t not in TERMS for t in out):
        raise ValueError
    return out


def _only(p: dict, names: tuple[str, ...], preset: str) -> None:
    wrong = [n for n in names if n in p]
    if wrong:
        flag = "--" + wrong[0].replace("_", "-")
        raise InputError(f"{flag} is an option of another preset than --preset {preset}")


def _matches_layout(p: dict, layout: str) -> str:
    """`--objective matches` scores legal boards only (each piece on a cell of its class, grey
    to the frame): the free layout's boards almost never are (its best board on Eternity II
    after 3 generations broke the frame rule 124 times), so the GA keeps the frame there."""
    if "layout" in p and layout == "free":
        raise InputError("--layout free puts pieces outside their class, which --objective "
                         "matches cannot score; use --layout frame (its default there)")
    return "frame"


def _paper_encoding(inst: EdgeInstance, opts: SolveOptions, o: dict) -> NiangEncoding:
    p = opts.params
    _only(p, TUNED_OPTIONS, "paper")
    ops = _listed(p, "operators", _operators(PAPER_MUTATIONS),
                  "a comma list of " + ", ".join(PAPER_MUTATIONS), o["operators"])
    terms = _listed(p, "fitness", _terms, "edges+areas or edges", o["fitness"])
    cross, region, layout, repair = (_option(p, k, o[k]) for k in
                                     ("crossover", "region", "layout", "repair"))
    if opts.objective == "matches":
        layout = _matches_layout(p, layout)
    settings = None
    if repair == "thesis":
        settings = {"threshold": _option(p, "repair_threshold", o["repair_threshold"]),
                    "lower": _option(p, "repair_lower", o["repair_lower"]),
                    "deadlock": _option(p, "deadlock", o["deadlock"])}
    elif "deadlock" in p:
        raise InputError("--deadlock is a part of the thesis's repair; add --repair thesis")
    return NiangEncoding(inst, opts.fix, ops, cross, region, terms, layout, settings)


def _tuned_encoding(inst: EdgeInstance, opts: SolveOptions, o: dict) -> EdgeEncoding:
    p = opts.params
    _only(p, PAPER_OPTIONS, "tuned")
    ops = _listed(p, "operators", _operators(MUTATIONS), "a comma list of " + ", ".join(MUTATIONS),
                  o["operators"])
    uniform, iters, tenure, lns, side = (_option(p, k, o[k]) for k in TUNED_OPTIONS)
    return EdgeEncoding(inst, opts.fix, ops, uniform, iters, tenure, lns, side)


def ga_problem(inst: EdgeInstance, opts: SolveOptions, preset: str) -> engine.GAProblem:
    """The GA for this puzzle and options (parameters validated): the family's one GA entry
    point. `preset` is tuned (the default, the best) or paper (Niang's GA as published)."""
    p = opts.params
    chosen = PRESETS[preset]
    cfg = engine.apply_params(chosen.config, p)
    if chosen.name == "paper":
        if p.get("elitism") is None:  # "Elitism Rate 1" (Tables 1-8): one elite, not 1/200
            cfg.elitism = 1 / cfg.population
        enc: BoardGenome = _paper_encoding(inst, opts, chosen.options)
    else:
        enc = _tuned_encoding(inst, opts, chosen.options)
        if cfg.generations is None and cfg.max_evaluations is None and opts.time_limit is None:
            cfg.time_limit = DEFAULT_TIME
        if enc.tabu_iterations == 0 and enc.lns_moves == 0:
            cfg.stall_generations = 0
    rng = np.random.default_rng(opts.seed)
    seeds = [enc.encode(opts.hint, rng)] if opts.hint else []

    def score(res: engine.GAResult) -> tuple[Solution, float]:
        return enc.decode(res.best), int(enc.matches(res.best[None, :])[0])

    return engine.GAProblem(enc, cfg, enc.decode, seeds, value=lambda res: None,
                            stats=lambda res: _stats(enc, cfg, res), scored=score)


def _stats(enc: BoardGenome, cfg: engine.GAConfig, res: engine.GAResult) -> dict:
    """What the edge-matching GA reports beside the engine: its operators' work."""
    stats: dict = {"max_fitness": enc.target, "population": cfg.population}
    if isinstance(enc, EdgeEncoding):
        stats["tabu_iterations"] = enc.ls_iterations
    elif enc.heuristics is not None:
        stats["repairs_by_symptom"] = dict(enc.heuristics.done)
    if res.fixed_partial:
        stats["cbgi_partial"] = [[r, c, p, rot] for (r, c), (p, rot) in res.fixed_partial.items()]
    return stats


BACKEND = engine.ga_backend(ga_problem, OPTIONS, PRESETS, objectives=("matches",))
solve = BACKEND.solve
