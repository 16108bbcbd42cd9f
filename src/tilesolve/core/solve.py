"""The solve pipeline: load, run a backend, verify every answer, build the printed result."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from .family import Family, load_instance
from .result import Outcome, SolveOptions, SolveResult, Status


def run_backend(family: Family, instance, backend: str, opts: SolveOptions) -> Outcome:
    """Run one backend (not the portfolio) and return its unverified outcome."""
    from contextlib import nullcontext

    from .limits import OutOfTime, building, out_of_time

    # importing OR-Tools took 0.8 CPU s (pandas with it), PuLP 0.3 s; only a command line's
    # run may cut an import short, as its process ends with the solve (a half-imported
    # package would fail the next solve of a longer-lived process)
    guard = building(opts) if opts.clock_from is not None else nullcontext()
    try:
        with guard:
            mod = family.backend_module(backend)
    except OutOfTime:
        return out_of_time()
    accepted = getattr(mod, "PARAMS", None)  # backends that list their options get them checked
    if accepted is not None:
        unknown = sorted(set(opts.params) - set(accepted) - {"cpsat"} -
                         set(family.instance_params))
        if unknown:
            from .errors import InputError

            raise InputError(
                f"unknown option(s) {', '.join('--' + u.replace('_', '-') for u in unknown)} "
                f"for the {backend} backend; expected "
                + (", ".join("--" + a.replace("_", "-") for a in sorted(accepted)) or "none")
            )
    supported = getattr(mod, "OBJECTIVES", None)  # backends that declare what they score
    if opts.objective and supported is not None and opts.objective not in supported:
        from .errors import InputError

        why = getattr(mod, "OBJECTIVE_REFUSAL", "")
        raise InputError(f"--objective {opts.objective} is not supported by the {backend} "
                         f"backend of {family.name}" + (f": {why}" if why else ""))
    if opts.count:
        if not hasattr(mod, "count"):
            from .errors import InputError

            raise InputError(f"--count is not supported by the {backend} backend of {family.name}")
        return mod.count(instance, opts)
    return call(mod.solve, instance, opts)


def call(solve, instance, opts: SolveOptions) -> Outcome:
    """A backend's solve; a limit that ran out while it built its model is a timeout."""
    from .limits import OutOfTime, out_of_time

    try:
        return solve(instance, opts)
    except OutOfTime:
        return out_of_time()


def finish(
    family: Family,
    instance,
    path: str,
    backend: str,
    outcome: Outcome,
    opts: SolveOptions,
    seconds: float,
) -> SolveResult:
    """Verify the outcome and turn it into the result the user sees.

    Nothing is reported solved or feasible unless the family's checker accepts it; a solver
    answer the checker rejects becomes an `error` with the violations listed.
    """
    status = outcome.status
    res = SolveResult(
        instance=path,
        family=family.name,
        backend=backend,
        status=status,
        verified=False,
        seconds=seconds,
        objective=outcome.objective,
        seed=opts.seed,
        stats=dict(outcome.stats),
    )
    if opts.count and outcome.solutions is not None:
        keys = set()
        for sol in outcome.solutions:
            rep = family.verify(instance, sol)
            if not rep.ok:
                res.status = Status.ERROR
                res.violations = [v.to_json() for v in rep.violations]
                res.stats["error"] = "an enumerated solution failed verification"
                return res
            keys.add(family.canonical(instance, sol))
        res.count_raw = len(outcome.solutions)
        res.count = len(keys)
        res.verified = True
        if outcome.solutions:
            first = outcome.solutions[0]
            res.solution = family.solution_json(instance, first)
            res.text = family.draw_text(instance, first)
        return res

    sol = outcome.solution
    if sol is None:
        if status in (Status.SOLVED, Status.FEASIBLE):
            res.status = Status.ERROR
            res.stats["error"] = "backend reported a solution but returned none"
        return res
    report = family.verify(instance, sol, opts.objective)
    res.solution = family.solution_json(instance, sol)
    res.text = family.draw_text(instance, sol)
    if opts.objective and report.score is not None:
        res.objective = report.score  # the checker's score, not the solver's claim
    if status in (Status.SOLVED, Status.FEASIBLE):
        if report.ok:
            res.verified = True
        else:
            res.status = Status.ERROR
            res.violations = [v.to_json() for v in report.violations]
            res.stats["error"] = "solver answer failed verification"
    elif status == Status.TIMEOUT:
        # A best-so-far board (GA, optimisation) is shown but never called solved.
        res.verified = report.ok
        if not report.ok:
            res.stats["broken_rules"] = len(report.violations)
        if report.ok and opts.objective:
            res.status = Status.FEASIBLE
    return res


def proven_infeasible(family: Family, path: str, backend: str, opts: SolveOptions, reason: str,
                      seconds: float) -> SolveResult:
    """The result for a puzzle the family's precheck shows to have no solution."""
    res = SolveResult(instance=path, family=family.name, backend=backend,
                      status=Status.INFEASIBLE, verified=False, seconds=seconds,
                      seed=opts.seed, stats={"reason": reason, "proved_by": "precheck"})
    if opts.count:
        res.count, res.count_raw = 0, 0
    return res


def solve_file(
    path: str | Path, backend: str | None, opts: SolveOptions, fmt: str | None = None
) -> SolveResult:
    opts = replace(opts)  # a private copy whose clock starts now: reading counts
    opts.start_clock()
    if opts.clock_from is not None and opts.time_limit is not None:  # a command line's run
        from .limits import finish_reserve

        # the solvers stop this much earlier, so that the process ends by the limit
        opts.time_limit -= finish_reserve(opts.clock_from, opts.time_limit)
    family, instance = load_instance(path, fmt)
    if backend is None:  # the family's own optimisers race for an objective, else CP-SAT
        backend = "portfolio" if opts.objective and family.objective_backends(instance) \
            else "cpsat"
    family.check_objective(opts.objective)
    instance = family.prepare(instance, opts.params)
    t0 = time.perf_counter()
    reason = family.precheck(instance, opts.objective)
    if reason is not None:
        return proven_infeasible(family, str(path), backend, opts, reason,
                                 time.perf_counter() - t0)
    if backend == "portfolio":
        from ..portfolio import solve_portfolio

        return solve_portfolio(family, instance, str(path), opts, fmt)
    progress = _watch(family, instance, backend, opts) if opts.objective else None
    try:
        outcome = run_backend(family, instance, backend, opts)
    finally:
        if progress is not None:
            progress.close()
    return finish(family, instance, str(path), backend, outcome, opts, time.perf_counter() - t0)


def _watch(family: Family, instance, backend: str, opts: SolveOptions):
    """Show (and stream) every verified improvement a backend reports on the way."""
    import sys

    from ..hybrid.progress import Progress

    if opts.on_solution is not None or not (opts.progress_jsonl or sys.stderr.isatty()):
        return None
    progress = Progress(opts.progress_jsonl)

    def note(solution, fitness, source=None) -> None:
        rep = family.verify(instance, solution, opts.objective)
        if rep.ok:
            progress.max_score = rep.max_score
            progress.note(rep.score, source or backend, backend)

    note.takes_source = True  # type: ignore[attr-defined]
    opts.on_solution = note
    return progress
