"""The magic hexagon as a CP-SAT model.

Rules, as the model states them: one integer per cell over first..last, all different, each
of the 3(2n-1) lines sums to the magic constant, givens fixed; implied, all cells together sum
to the sum of the numbers. `--channel` adds the board as Booleans "cell c holds v" (exactly
one per cell and per number, tied to the integers), the all-different as a permutation.
Without givens the 12 symmetries are broken: the top-left corner holds the smallest corner
number and its clockwise neighbour corner is smaller than its anticlockwise one. When the
numbers are symmetric around 0 (first = -last, magic sum 0), negating every number maps a
magic hexagon to another; that symmetry is broken too (smallest + largest corner <= 0).

Search (`--strategy`):
- `auto` (default up to order 3) leaves the search to CP-SAT's own portfolio;
- `fixed` branches cell by cell from the outer ring inwards, so every line is completed early
  and its last cell is forced by its sum, trying values from the middle of the range first;
- `tabu` (default from order 4) first runs the swap tabu search (tabu.py), one search per
  thread (the first magic board stops the others), for at most `--tabu-seconds` (default 80%
  of the time limit, else 60 s) and hands its board to CP-SAT as
  a complete hint; CP-SAT then checks it (a magic board is accepted at once) or, when the local
  search did not finish, searches on from the hint. The stats say which part found the answer.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from ...backends import cpsat as runner
from ...core.errors import InputError
from ...core.limits import built
from ...core.options import NO_SYMMETRY, Option, Options, seconds, switch
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions
from .instance import MagicHexInstance
from .search_order import cell_order
from .tabu import tabu_race

STRATEGIES = ("auto", "fixed", "tabu")
OPTIONS = Options(
    Option("strategy", str, None, "auto: CP-SAT alone; fixed: a fixed search order; tabu: a "
           "tabu search's board as the hint (default: tabu from order 4, else auto)", STRATEGIES),
    Option("tabu_seconds", seconds, None, "--strategy tabu: s of tabu search (default: 0.8 of "
           "the limit, else 60)"),
    Option("channel", bool, False, "also state the board as cell-holds-number Booleans, "
           "exactly one per cell and per number"),
    NO_SYMMETRY,
)


class MagicHexCpsat(runner.CpsatModel):
    def __init__(self, inst: MagicHexInstance, symmetry: bool = True, strategy: str = "auto",
                 channel: bool = False):
        self.inst = inst
        m = self.model = cp_model.CpModel()
        self.x = {c: m.new_int_var(inst.first, inst.last, f"x{c}") for c in inst.cells}
        m.add_all_different(list(self.x.values()))
        for _name, line in inst.lines:
            m.add(sum(self.x[c] for c in line) == inst.magic)
        m.add(sum(self.x.values()) == sum(inst.values))  # implied by the permutation
        if channel:
            self._channel()
        for c, v in inst.givens.items():
            m.add(self.x[c] == v)
        if symmetry and not inst.givens and inst.order > 1:
            break_symmetries(m, inst, self.x)
        self.strategy = strategy
        if strategy == "fixed":
            order = [self.x[c] for c in cell_order(inst)]
            m.add_decision_strategy(
                order, cp_model.CHOOSE_FIRST, cp_model.SELECT_MEDIAN_VALUE
            )

    def _channel(self) -> None:
        """b[c, v] <-> x[c] == v, one cell per number: the all-different as a permutation."""
        m, inst = self.model, self.inst
        holds: dict[int, list] = {v: [] for v in inst.values}
        for c, x in self.x.items():
            bools = [m.new_bool_var(f"b{c}_{v}") for v in inst.values]
            m.add_map_domain(x, bools, inst.first)
            m.add_exactly_one(bools)
            for v, b in zip(inst.values, bools, strict=True):
                holds[v].append(b)
        for bools in holds.values():
            m.add_exactly_one(bools)

    def params(self) -> dict:
        if self.strategy == "fixed":
            return {"search_branching": cp_model.FIXED_SEARCH}
        return {}

    def decode(self, value) -> Solution:
        return {c: int(value(v)) for c, v in self.x.items()}

    def suggest(self, solution: Solution) -> None:
        self.model.clear_hints()
        for c, v in solution.items():
            if c in self.x:
                self.model.add_hint(self.x[c], int(v))

    def impose(self, partial: Solution) -> None:
        for c, v in partial.items():
            if c in self.x:
                self.model.add(self.x[c] == int(v))


def break_symmetries(m: cp_model.CpModel, inst: MagicHexInstance, x: dict) -> None:
    """One board per orbit of the 12 rotations/reflections (the corners are distinct numbers,
    so exactly one image puts the smallest corner top left with its neighbours ordered), and
    of negation where it maps boards to boards: a board and its negation's image have corner
    sums min + max of opposite signs, so `min + max <= 0` keeps at least one of the two."""
    corner = [x[c] for c in inst.corners]
    for other in corner[1:]:
        m.add(corner[0] < other)
    m.add(corner[1] < corner[5])
    if inst.first + inst.last == 0:
        top = m.new_int_var(inst.first, inst.last, "largest_corner")
        m.add_max_equality(top, corner)
        m.add(corner[0] + top <= 0)


def strategy_of(inst: MagicHexInstance, opts: SolveOptions) -> str:
    default = "tabu" if inst.order >= 4 else "auto"
    strategy = str(opts.params.get("strategy", default))
    if strategy not in STRATEGIES:
        raise InputError(
            f"unknown --strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}"
        )
    return strategy


def build(inst: MagicHexInstance, opts: SolveOptions) -> MagicHexCpsat:
    """The model as `export` writes it: the rules, with symmetry breaking, no search hints."""
    symmetry = not (opts.fix or opts.hint or switch(opts.params, "no_symmetry", False))
    return MagicHexCpsat(inst, symmetry=symmetry, channel=switch(opts.params, "channel", False))


def solve(inst: MagicHexInstance, opts: SolveOptions) -> Outcome:
    strategy = strategy_of(inst, opts)
    stats: dict = {"strategy": strategy}
    if strategy == "tabu" and not opts.hint:
        hint, stats = local_search_hint(inst, opts)
        opts = opts.but(hint=hint)  # the limit counts from the solve's start, not the tabu's end
    # symmetry breaking would reject a hint or fixed cells in the wrong orientation
    symmetry = not (opts.fix or opts.hint or switch(opts.params, "no_symmetry", False))
    channel = switch(opts.params, "channel", False)
    compiled = built(opts, lambda: MagicHexCpsat(inst, symmetry, strategy, channel))
    out = runner.run(compiled, opts, **compiled.params())
    out.stats.update(stats)
    return out


def local_search_hint(inst: MagicHexInstance, opts: SolveOptions) -> tuple[Solution, dict]:
    """The tabu searches' best board within their budget, and what it cost."""
    given = opts.params.get("tabu_seconds")
    if given is not None:
        budget = positive_float(given, "--tabu-seconds")
    else:  # the solver's import and the reading came first: on a loaded machine they can
        left = opts.remaining()  # spend the whole limit, and the run then ends at its limit
        budget = max(0.0, 0.8 * left) if left is not None else 60.0
    t0 = time.monotonic()
    threads = opts.thread_count()
    res, won = tabu_race(inst, opts.seed, threads, deadline=t0 + budget, stop=opts.stop)
    board = {c: int(v) for c, v in zip(inst.cells, res.values, strict=True)}
    stats = {
        "tabu_seconds": round(time.monotonic() - t0, 4),
        "tabu_threads": threads,
        "tabu_engine": res.engine,
        "tabu_winner": won,
        "tabu_iterations": res.iterations,
        "tabu_cost": res.cost,
        "found_by": "tabu search (CP-SAT checked the complete hint)" if res.cost == 0 else "cp-sat",
    }
    return board, stats


def positive_float(value, what: str) -> float:
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{what} must be a number, got {value!r}") from None
    if not out > 0:
        raise InputError(f"{what} must be positive, got {value!r}")
    return out


def count(inst: MagicHexInstance, opts: SolveOptions) -> Outcome:
    # every raw solution, so the 12 symmetries stay in
    return runner.count(MagicHexCpsat(inst, symmetry=False), opts)


BACKEND = Backend("cpsat", OPTIONS, solve, count=count, build=build)
