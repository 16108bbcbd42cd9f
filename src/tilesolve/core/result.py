"""Solutions, solver options and results shared by every family and backend.

A Solution and a partial assignment are the same thing: a mapping from a cell to the value
placed there (a (piece, rotation) pair, a (tile, rotation) pair, a number). The GA, the
portfolio and every exact model speak this language.
"""

from __future__ import annotations

import enum
import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from typing import Any

Cell = Hashable
MAX_SEED = 2**31 - 1  # CP-SAT's random_seed is a 32-bit signed integer
# a year: longer limits are refused (1e12 s overflowed a deadline's time_t, 1e308 s ended at
# once); no limit is written by leaving the limit out
MAX_TIME_LIMIT = 365 * 24 * 3600
Solution = dict  # cell -> placed value; a partial assignment is the same type


class Status(str, enum.Enum):
    """How a solve ended; compares equal to its value (`Status.SOLVED == "solved"`)."""

    SOLVED = "solved"
    """A verified solution; with an objective: proven optimal."""
    FEASIBLE = "feasible"
    """With an objective: a verified board, not proven optimal."""
    INFEASIBLE = "infeasible"
    """Proven to have no solution."""
    TIMEOUT = "timeout"
    """No verified solution within the time limit."""
    BUDGET = "budget"
    """No verified solution when the backend's own work budget ran out before the time limit
    (a GA's --evaluations or --generations; `stats["stop_reason"]` names it), as Gurobi
    tells ITERATION_LIMIT and NODE_LIMIT from TIME_LIMIT."""
    ERROR = "error"
    """A backend failed, or its answer failed verification."""
    INTERRUPTED = "interrupted"
    """Ended by Ctrl-C, SIGTERM or SIGHUP; the board, when there is one, is the best verified
    board found by then."""

    @property
    def exit_code(self) -> int:
        """The command line's exit code for this status (0, 3, 4, 5 or 1; 130 interrupted,
        which the command line makes 128 + the signal's number)."""
        return {"solved": 0, "feasible": 0, "infeasible": 3, "timeout": 4, "budget": 5,
                "error": 1, "interrupted": 130}[self.value]

    @property
    def ran_out(self) -> bool:
        """Ended on a limit (time or budget) with neither a solution nor a proof."""
        return self in (Status.TIMEOUT, Status.BUDGET)


# a search's stop reasons (GAResult.stop_reason) that are a work budget, not the clock
BUDGET_REASONS = ("evaluations", "generations")


def ran_out(stats: dict[str, Any]) -> Status:
    """The status of a search that ended without a solution: BUDGET when its own budget
    (`stats["stop_reason"]`) ran out, else TIMEOUT (the clock, or a stop request)."""
    return Status.BUDGET if stats.get("stop_reason") in BUDGET_REASONS else Status.TIMEOUT


class StopFlag:
    """A cooperative stop request that works across threads (and, wrapped, across processes).

    Anything with an `is_set()` method can serve; solvers poll it, they never block on it.
    """

    def __init__(self) -> None:
        self._set = False

    def set(self) -> None:
        self._set = True

    def is_set(self) -> bool:
        return self._set


def within_cores(threads: int) -> int:
    """A thread count as the backends take it: one over the machine's cores is its cores."""
    import os

    return min(threads, os.cpu_count() or 1)


@dataclass
class SolveOptions:
    time_limit: float | None = None  # seconds of wall time; None = no limit
    seed: int = 0
    threads: int = 0  # 0 = every core of the machine
    objective: str | None = None  # None (satisfy) or a family's objective ("matches", "longest")
    count: bool = False  # enumerate all solutions
    count_limit: int | None = None  # stop counting after this many raw solutions
    hint: Solution | None = None  # a complete or partial assignment suggested to the solver
    fix: Solution | None = None  # a partial assignment imposed as constraints
    stop: Any = None  # object with is_set(): cooperative stop request
    on_solution: Callable[[Solution, float | None], None] | None = None  # improving solutions
    params: dict[str, Any] = field(default_factory=dict)  # backend-specific (GA parameters...)
    verbose: bool = False
    memory: float | None = None  # gigabytes a model may take (None: core.bounds' default)
    progress_jsonl: str | None = None  # stream every improvement of the best score here
    log_boards: bool = False  # each verified line of progress_jsonl carries its board too
    # live status line on stderr (core.progress): None = when stderr is a terminal (the
    # command line's default); False by default, so library calls and benchmarks stay silent
    progress: bool | None = False
    on_report: Callable[[dict], None] | None = None  # listener of report() (core.progress)
    # with an objective: told of each verified improvement of the best board, as the result a
    # run that stopped then would give (the command line's watchdog answers with the last one)
    on_verified: Callable[[SolveResult], None] | None = None
    # the time.monotonic() a solve's clock starts from, when not the solve's own start: the
    # command line gives its process's start, so Python's start-up counts against -t
    clock_from: float | None = field(default=None, repr=False, compare=False)
    # when the clock of time_limit started (time.monotonic()): set by solve_file and the
    # portfolio's lanes as a solve begins, so the limit covers reading and model building;
    # None (options made by hand, or copied with dataclasses.replace): it starts whenever
    # remaining() or deadline() is asked, so options can be reused for several solves
    started: float | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # a thread count written for a larger machine runs here on all its cores, from the
        # command line and the API alike (CP-SAT refused 100,000 workers: exit 1)
        if isinstance(self.threads, int) and not isinstance(self.threads, bool):
            self.threads = within_cores(self.threads)

    def check(self) -> None:
        """Refuse, in one line, a time limit, seed or thread count no backend can take."""
        from .errors import InputError

        if self.time_limit is not None and not 0 < self.time_limit < math.inf:
            raise InputError(
                f"--time-limit must be a positive number of seconds, got {self.time_limit}")
        if self.time_limit is not None and self.time_limit > MAX_TIME_LIMIT:
            raise InputError(f"--time-limit must be at most {MAX_TIME_LIMIT:,} s (a year), got "
                             f"{self.time_limit:g}; leave it out for no limit")
        if not 0 <= self.seed <= MAX_SEED:
            raise InputError(f"--seed must be in 0..{MAX_SEED}, got {self.seed}")
        if self.threads < 0:
            raise InputError(f"--threads must be 0 (all cores) or positive, got {self.threads}")
        if self.count_limit is not None and self.count_limit < 1:
            raise InputError(f"--count-limit must be at least 1, got {self.count_limit}")

    def but(self, **changes: Any) -> SolveOptions:
        """A copy with `changes` whose clock keeps running (dataclasses.replace restarts it)."""
        out = replace(self, **changes)
        out.started = self.started
        return out

    def start_clock(self) -> None:
        self.started = time.monotonic() if self.clock_from is None else self.clock_from

    def remaining(self) -> float | None:
        """Seconds of time_limit left (never negative); None without a limit."""
        if self.time_limit is None:
            return None
        if self.started is None:
            return self.time_limit
        return max(0.0, self.time_limit - (time.monotonic() - self.started))

    def deadline(self) -> float | None:
        """time_limit's end on the time.monotonic() clock; None without a limit."""
        if self.time_limit is None:
            return None
        start = time.monotonic() if self.started is None else self.started
        return start + self.time_limit

    def thread_count(self) -> int:
        import os

        return max(1, self.threads or os.cpu_count() or 1)

    def stopped(self) -> bool:
        return self.stop is not None and self.stop.is_set()

    def report(self, **fields: Any) -> None:
        """Progress from inside a solver (fields: see core.progress); free when nobody
        listens. Solvers call it from any thread; the listener takes care of locking."""
        if self.on_report is not None:
            self.on_report(fields)

    def offer(self, solution: Solution, fitness: float | None, source: str | None = None) -> None:
        """Stream an improving solution; `source` names the method that found it (backtracker,
        LNS, GA...) for callbacks that take it (they set `takes_source`)."""
        self.report(best=fitness)
        cb = self.on_solution
        if cb is None:
            return
        if source is not None and getattr(cb, "takes_source", False):
            cb(solution, fitness, source=source)
        else:
            cb(solution, fitness)


def bound_and_gap(objective: float | None, bound: float | None) -> dict[str, float | None]:
    """A stopped optimisation's `bound` (no board scores more, or less when minimising) and
    `gap`, CP-SAT's relative gap |bound - objective| / max(1, |objective|) (Gurobi divides by
    |objective| alone, infinite at 0); the gap is None without an incumbent. Empty without a
    finite bound (a solver that has none)."""
    if bound is None or not math.isfinite(bound):
        return {}
    bound = round(bound, 6)
    if objective is None:
        return {"bound": bound, "gap": None}
    return {"bound": bound, "gap": round(abs(bound - objective) / max(1.0, abs(objective)), 6)}


@dataclass
class Outcome:
    """What a backend found, before verification."""

    status: Status
    solution: Solution | None = None
    objective: float | None = None
    bound: float | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    solutions: list[Solution] | None = None  # all solutions, for --count


@dataclass
class SolveResult:
    """The verified result the command line prints: `to_json` is the object of `solve --json`.

    `board` is the solution object the backend found (cell -> placed value); its JSON form,
    `solution`, is made from it only when asked (printing, `--json`)."""

    instance: str
    family: str
    backend: str
    status: Status
    verified: bool
    seconds: float
    objective: float | None = None
    # with --objective: the checker's best possible score and what the score counts; None when
    # `objective` is a backend's own number (a GA's fitness without --objective)
    objective_max: float | None = None
    objective_counts: str | None = None
    seed: int = 0
    board: Solution | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    count: int | None = None
    count_raw: int | None = None
    violations: list[dict] | None = None
    text: str | None = None  # text drawing of the board, not part of JSON
    legend: str | None = None  # one line saying how to read `text`, not part of JSON
    # the family's JSON form of a board (Family.solution_json for the solved instance)
    encode: Callable[[Solution], dict] | None = field(default=None, repr=False, compare=False)

    @property
    def solution(self) -> dict | None:
        """The board in the family's JSON form, as `solve --json` prints it."""
        if self.board is None or self.encode is None:
            return None
        return self.encode(self.board)

    def objective_text(self) -> str | None:
        """The checker's score with what it counts and its maximum (`matched joins 362/480`).

        Only a score the family's checker gave is shown this way; a backend's own number (a
        GA's fitness without --objective, which means something else in every family) is not:
        a best board that is no solution is described by `rules_text` instead."""
        if self.objective is None or self.objective_max is None:
            return None
        return f"{self.objective_counts or 'score'} {self.objective:g}/{self.objective_max:g}"

    def rules_text(self) -> str | None:
        """How far a best board that is no solution is from one: the checker's count."""
        broken = self.stats.get("broken_rules")
        return None if broken is None else f"best board breaks {broken} rule(s)"

    def headline(self) -> str:
        """One line: status, verification, backend, time, score or broken rules, count."""
        line = self.status.value + (" (verified)" if self.verified else "")
        reason = self.stats.get("stop_reason") if self.status == Status.BUDGET else None
        if reason:  # a budget's name (the GA's "generations") or a sentence (Tantrix's band)
            line += f" ({reason} spent)" if reason.isidentifier() else f" ({reason})"
        line += f" by {self.answered_by()} in {self.seconds:.2f} s"
        for part in (self.objective_text(), self.rules_text()):
            if part:
                line += f", {part}"
        if self.count is not None:
            line += f", {self.count} solution(s) up to symmetry ({self.count_raw} raw)"
        return line

    def answered_by(self) -> str:
        """Who gave the answer: the backend, or the family's precheck, which answers before
        any solver runs (its count proves the puzzle infeasible)."""
        if self.stats.get("proved_by") == "precheck":
            return f"precheck ({self.backend} did not run)"
        return self.backend

    def to_json(self) -> dict:
        out = {
            "instance": self.instance,
            "family": self.family,
            "backend": self.backend,
            "status": self.status.value,
            "verified": self.verified,
            "seconds": round(self.seconds, 4),
            "objective": self.objective,
            "objective_max": self.objective_max,
            "objective_counts": self.objective_counts,
            "seed": self.seed,
            "solution": self.solution,
            "stats": self.stats,
        }
        if self.count is not None:
            out["count"] = self.count
            out["count_raw"] = self.count_raw
        if self.violations:
            out["violations"] = self.violations
        return out


def interrupted(kept: SolveResult, seconds: float, by: str) -> SolveResult:
    """The answer of a run a signal (or Ctrl-C in Python) ended: its best verified board,
    status interrupted, with what ended it in `stats.interrupted_by`."""
    return replace(kept, status=Status.INTERRUPTED, seconds=seconds,
                   stats={**kept.stats, "interrupted_by": by})
