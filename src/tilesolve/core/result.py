"""Solutions, solver options and results shared by every family and backend.

A Solution and a partial assignment are the same thing: a mapping from a cell to the value
placed there (a (piece, rotation) pair, a (tile, rotation) pair, a number). The GA, the
portfolio and every exact model speak this language.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

Cell = Hashable
Solution = dict  # cell -> placed value; a partial assignment is the same type


class Status(str, enum.Enum):
    SOLVED = "solved"  # verified feasible; for optimisation: proven optimal
    FEASIBLE = "feasible"  # optimisation: verified, not proven optimal
    INFEASIBLE = "infeasible"  # proven
    TIMEOUT = "timeout"  # no (verified) solution within the limit
    ERROR = "error"

    @property
    def exit_code(self) -> int:
        return {"solved": 0, "feasible": 0, "infeasible": 3, "timeout": 4, "error": 1}[self.value]


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
    progress_jsonl: str | None = None  # stream every improvement of the best score here
    # the time.monotonic() a solve's clock starts from, when not the solve's own start: the
    # command line gives its process's start, so Python's start-up counts against -t
    clock_from: float | None = field(default=None, repr=False, compare=False)
    # when the clock of time_limit started (time.monotonic()): set by solve_file and the
    # portfolio's lanes as a solve begins, so the limit covers reading and model building;
    # None (options made by hand, or copied with dataclasses.replace): it starts whenever
    # remaining() or deadline() is asked, so options can be reused for several solves
    started: float | None = field(default=None, init=False, repr=False, compare=False)

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

    def offer(self, solution: Solution, fitness: float | None, source: str | None = None) -> None:
        """Stream an improving solution; `source` names the method that found it (backtracker,
        LNS, GA...) for callbacks that take it (they set `takes_source`)."""
        cb = self.on_solution
        if cb is None:
            return
        if source is not None and getattr(cb, "takes_source", False):
            cb(solution, fitness, source=source)
        else:
            cb(solution, fitness)


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
    """The verified result the command line prints: `to_json` is the object of `solve --json`."""

    instance: str
    family: str
    backend: str
    status: Status
    verified: bool
    seconds: float
    objective: float | None = None
    seed: int = 0
    solution: dict | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    count: int | None = None
    count_raw: int | None = None
    violations: list[dict] | None = None
    text: str | None = None  # text drawing of the board, not part of JSON

    def to_json(self) -> dict:
        out = {
            "instance": self.instance,
            "family": self.family,
            "backend": self.backend,
            "status": self.status.value,
            "verified": self.verified,
            "seconds": round(self.seconds, 4),
            "objective": self.objective,
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
