"""The solve pipeline: load, run a backend, verify every answer, build the printed result."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from .family import Family, load_instance
from .result import Outcome, SolveOptions, SolveResult, Status


def backend_params(family: Family, backend: str, params: dict) -> dict:
    """The options of one backend run, validated by its table (the family's, the backend's and
    the program's options): converted, defaults filled in, a misspelt one refused."""
    return family.backend_options(backend).validate(params, f"the {backend} backend")


def run_backend(family: Family, instance, backend: str, opts: SolveOptions) -> Outcome:
    """Run one backend (not the portfolio) and return its unverified outcome."""
    opts = replace(opts, params=backend_params(family, backend, opts.params))
    return run_validated(family, instance, backend, opts)


def load_backend(family: Family, backend: str, opts: SolveOptions) -> bool:
    """Import the backend's module within the time limit; False when the limit ran out first.

    Importing OR-Tools took 0.8 CPU s (pandas with it), PuLP 0.3 s; only a command line's run
    may cut an import short, as its process ends with the solve (a half-imported package
    would fail the next solve of a longer-lived process)."""
    from contextlib import nullcontext

    from .limits import OutOfTime, building

    guard = building(opts) if opts.clock_from is not None else nullcontext()
    try:
        with guard:
            family.backend_module(backend)
    except OutOfTime:
        return False
    return True


def run_validated(family: Family, instance, backend: str, opts: SolveOptions) -> Outcome:
    """`run_backend` for options that `backend_params` has validated."""
    mod = family.backend_module(backend)
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
        # unique: known once two differ or when the count is complete
        res.stats["unique"] = res.count == 1 if outcome.stats.get("complete") else \
            (False if res.count >= 2 else None)
        res.verified = True
        if outcome.solutions:
            first = outcome.solutions[0]
            res.solution = family.solution_json(instance, first)
            res.text = family.draw_text(instance, first)
            res.legend = family.legend(instance)
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
    res.legend = family.legend(instance)
    if opts.objective and report.score is not None:
        res.objective = report.score  # the checker's score, not the solver's claim
        res.objective_max = report.max_score
        res.objective_counts = family.objective_counts.get(opts.objective)
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
    """Read an instance file and solve it (`solve_instance`); the time limit covers reading."""
    opts = replace(opts)  # a private copy whose clock starts now: reading counts
    opts.start_clock()
    if opts.clock_from is not None and opts.time_limit is not None:  # a command line's run
        from .limits import finish_reserve

        # the solvers stop this much earlier, so that the process ends by the limit
        opts.time_limit -= finish_reserve(opts.clock_from, opts.time_limit)
    family, instance = load_instance(path, fmt)
    return solve_instance(family, instance, str(path), backend, opts, fmt)


def default_backend(family: Family, instance, opts: SolveOptions) -> str:
    """No backend named: the family's own optimisers race for an objective, else CP-SAT."""
    return "portfolio" if opts.objective and family.objective_backends(instance) else "cpsat"


def solve_instance(family: Family, instance, path: str, backend: str | None, opts: SolveOptions,
                   fmt: str | None = None) -> SolveResult:
    """Solve a loaded instance; every solution goes through `finish`, the checker's gate.

    `path` names the instance in the result; the portfolio's lanes read the instance from it.
    `opts` is used as given: its clock, if started, keeps running."""
    if backend is None:
        backend = default_backend(family, instance, opts)
    family.check_objective(opts.objective)
    if backend != "portfolio":  # the portfolio validates each lane's options (hybrid.budget)
        if not load_backend(family, backend, opts):
            from .limits import out_of_time

            return finish(family, instance, path, backend, out_of_time(), opts, 0.0)
        opts.params = backend_params(family, backend, opts.params)
    instance = family.prepare(instance, opts.params)
    t0 = time.perf_counter()
    reason = family.precheck(instance, opts.objective)
    if reason is not None:
        return proven_infeasible(family, path, backend, opts, reason, time.perf_counter() - t0)
    if backend == "portfolio":
        from ..portfolio import solve_portfolio

        return solve_portfolio(family, instance, path, opts, fmt)
    progress = _watch(family, instance, backend, opts)
    try:
        outcome = run_validated(family, instance, backend, opts)
        opts.report(status=outcome.status.value)
    finally:
        if progress is not None:
            progress.close()
    return finish(family, instance, path, backend, outcome, opts, time.perf_counter() - t0)


def _watch(family: Family, instance, backend: str, opts: SolveOptions):
    """Show the backend's reports live, and show (and stream) every verified improvement."""
    from .progress import Progress, display

    show = display(opts)
    if not (opts.progress_jsonl or show):
        return None
    progress = Progress(opts.progress_jsonl, show, scored=bool(opts.objective))
    listener = opts.on_report

    def update(fields: dict) -> None:
        progress.update(backend, fields)
        if listener is not None:  # a caller's own listener hears them too
            listener(fields)

    opts.on_report = update
    if not opts.objective or opts.on_solution is not None:
        return progress

    def note(solution, fitness, source=None) -> None:
        rep = family.verify(instance, solution, opts.objective)
        if rep.ok:
            progress.max_score = rep.max_score
            progress.note(rep.score, source or backend, backend)

    note.takes_source = True  # type: ignore[attr-defined]
    opts.on_solution = note
    return progress
