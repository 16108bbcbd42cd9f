"""CP-SAT runner: parameters, time limit, cooperative stop, hints, progress, counting.

A family compiles its puzzle into a `CpsatModel`: `model` (a CpModel) and `decode(value) ->
Solution` (value: variable -> int), with the capabilities of `compiled.CompiledModel` it
offers (`impose` adds constraints, `suggest` sets CP-SAT's hints). This module runs it, and
counts its solutions with CP-SAT's own enumeration.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from typing import Any

from ortools.sat.python import cp_model

from ..core.result import Outcome, Solution, SolveOptions, Status, bound_and_gap
from . import counting
from .compiled import CompiledModel
from .stopwatch import Watcher


class CpsatModel(CompiledModel):
    """A puzzle compiled for CP-SAT; `suggest` replaces the model's hints (clear_hints first)."""

    model: cp_model.CpModel

    def reported(self, value, raw: float) -> float:
        """The objective of the solution at `value` as the user counts it: CP-SAT's value,
        unless the model maximises a stand-in for it (Tantrix's `--margin` with `--cap`)."""
        return raw


def make_solver(opts: SolveOptions, **params: Any) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    p = solver.parameters
    left = opts.remaining()  # model building has already spent part of the limit
    if left is not None:
        p.max_time_in_seconds = max(0.01, float(left))
    p.num_workers = opts.thread_count()
    p.random_seed = int(opts.seed)
    p.log_search_progress = bool(opts.verbose)
    if not catches_sigint():
        p.catch_sigint_signal = False
    if opts.verbose:  # the log goes to stderr: stdout holds the result (one object with --json)
        p.log_to_stdout = False
        solver.log_callback = _log_to_stderr
    for key, val in {**opts.params.get("cpsat", {}), **params}.items():
        if key == "text_format":  # nested messages (subsolver_params) in protobuf text
            p.merge_text_format(val)
        elif isinstance(val, list | tuple):  # repeated fields (subsolvers, ...)
            getattr(p, key).extend(val)
        else:
            setattr(p, key, val)
    return solver


def catches_sigint() -> bool:
    """May CP-SAT install its own Ctrl-C handler (its default)? Not in a worker thread, which
    cannot install one (a Dask island's task), nor in a process that ignores Ctrl-C because
    its parent coordinates the stop (a race's lane, a local cluster's worker): there CP-SAT
    would take the terminal's Ctrl-C back and end its search on its own."""
    return (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN)


def _log_to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class _Progress(cp_model.CpSolverSolutionCallback):
    """Reports improving solutions; exceptions are kept and re-raised after the solve."""

    def __init__(self, compiled: CpsatModel, opts: SolveOptions, keep_all: bool = False):
        super().__init__()
        self.compiled = compiled
        self.opts = opts
        self.keep_all = keep_all
        self.solutions: list[Solution] = []
        self.error: BaseException | None = None
        self.limit = opts.count_limit

    def on_solution_callback(self) -> None:
        try:
            obj = (self.compiled.reported(self.value, self.objective_value)
                   if self.compiled.objective else None)
            if self.keep_all:
                self.solutions.append(self.compiled.decode(self.value))
                if self.limit is not None and len(self.solutions) >= self.limit:
                    self.stop_search()
            elif self.opts.on_solution is not None:
                self.opts.on_solution(self.compiled.decode(self.value), obj)
            self.opts.report(best=obj, bound=None if obj is None else self.best_objective_bound,
                             conflicts=self.num_conflicts, solutions=len(self.solutions) or None)
        except BaseException as exc:  # noqa: BLE001 - re-raised after solve()
            self.error = exc
            self.stop_search()


def _stats(solver: cp_model.CpSolver, model: cp_model.CpModel) -> dict:
    proto = model.proto
    return {
        "solver": "cp-sat",
        "wall_time": round(solver.wall_time, 4),
        "conflicts": solver.num_conflicts,
        "branches": solver.num_branches,
        "variables": len(proto.variables),
        "constraints": len(proto.constraints),
        "solution_info": solver.solution_info(),
    }


def run(compiled: CpsatModel, opts: SolveOptions, **params: Any) -> Outcome:
    """Solve once. Satisfaction: OPTIMAL/FEASIBLE -> solved. Optimisation: FEASIBLE -> feasible."""
    if opts.fix:
        compiled.impose(opts.fix)
    if opts.hint:
        compiled.suggest(opts.hint)
    solver = make_solver(opts, **params)
    cb = _Progress(compiled, opts)
    bounds = _watch_bound(solver, opts) if compiled.objective else []
    t0 = time.perf_counter()
    with Watcher(opts.stop, solver.stop_search) as watch:
        code = solver.solve(compiled.model, cb if opts.on_solution or opts.on_report else None)
    if cb.error is not None:
        raise cb.error
    stats = _stats(solver, compiled.model)
    stats["seconds"] = round(time.perf_counter() - t0, 4)
    if watch.fired:
        stats["stopped"] = True
    optimise = compiled.objective
    found = code in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    if optimise and (found or bounds):  # else CP-SAT's bound reads 0: it has none
        stats.update(bound_and_gap(solver.objective_value if found else None,
                                   solver.best_objective_bound))
    if found:
        sol = compiled.decode(solver.value)
        if optimise:
            status = Status.SOLVED if code == cp_model.OPTIMAL else Status.FEASIBLE
            return Outcome(status, sol, compiled.reported(solver.value, solver.objective_value),
                           solver.best_objective_bound, stats)
        return Outcome(Status.SOLVED, sol, None, None, stats)
    if code == cp_model.INFEASIBLE:
        return Outcome(Status.INFEASIBLE, None, None, None, stats)
    if code == cp_model.MODEL_INVALID:
        stats["error"] = compiled.model.validate()
        return Outcome(Status.ERROR, None, None, None, stats)
    return Outcome(Status.TIMEOUT, None, None, None, stats)


def _watch_bound(solver: cp_model.CpSolver, opts: SolveOptions) -> list[float]:
    """Collect CP-SAT's objective bounds as it proves them (and report each): a run stopped
    before it proved any (in presolve: the 16x16 at -t 3) reads 0 as its bound."""
    bounds: list[float] = []

    def note(bound: float) -> None:
        bounds.append(bound)
        opts.report(bound=bound)

    solver.best_bound_callback = note
    return bounds


def count(compiled: CpsatModel, opts: SolveOptions) -> Outcome:
    """Every solution (up to opts.count_limit), by CP-SAT's enumeration (one worker)."""
    if opts.fix:
        compiled.impose(opts.fix)
    solver = make_solver(opts, enumerate_all_solutions=True)
    solver.parameters.num_workers = 1  # enumeration is single-worker in CP-SAT
    cb = _Progress(compiled, opts, keep_all=True)
    with Watcher(opts.stop, solver.stop_search):
        code = solver.solve(compiled.model, cb)
    if cb.error is not None:
        raise cb.error
    complete = code in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    return counting.tally(cb.solutions, complete, _stats(solver, compiled.model), opts)
