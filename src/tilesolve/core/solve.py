"""The solve pipeline of one backend: validate its options, run it, verify every answer."""

from __future__ import annotations

import time

from .family import Family
from .result import Outcome, SolveOptions, SolveResult, Status
from .verdict import finish, proven_infeasible


def backend_params(family: Family, backend: str, params: dict) -> dict:
    """The options of one backend run, validated by its table (the family's, the backend's and
    the program's options): converted, defaults filled in, a misspelt one refused."""
    return family.backend_options(backend).validate(params, f"the {backend} backend")


def backend_share(family: Family, backend: str, params: dict) -> dict:
    """`backend_params` for the options a race hands every lane (its whole command line):
    the ones this backend's table declares, validated the same way; the others are other
    lanes' options."""
    table = family.backend_options(backend)
    return backend_params(family, backend, {k: v for k, v in params.items() if k in table})


def run_backend(family: Family, instance, backend: str, opts: SolveOptions) -> Outcome:
    """Run one backend (not the portfolio) and return its unverified outcome."""
    opts = opts.but(params=backend_params(family, backend, opts.params))
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
            family.backend(backend)
    except OutOfTime:
        return False
    return True


def run_validated(family: Family, instance, backend: str, opts: SolveOptions) -> Outcome:
    """`run_backend` for options that `backend_params` has validated."""
    declared = family.backend(backend)
    if opts.objective and opts.objective not in declared.objectives:
        from .errors import InputError

        raise InputError(f"--objective {opts.objective} is not supported by the {backend} "
                         f"backend of {family.name}")
    if opts.count:
        if declared.count is None:
            from .errors import InputError

            raise InputError(f"--count is not supported by the {backend} backend of {family.name}")
        return declared.count(instance, opts)
    return call(declared.solve, instance, opts)


def call(solve, instance, opts: SolveOptions) -> Outcome:
    """A backend's solve; a limit that ran out while it built its model is a timeout."""
    from .limits import OutOfTime, out_of_time

    try:
        return solve(instance, opts)
    except OutOfTime:
        return out_of_time()


def solve_backend(family: Family, instance, path: str, backend: str,
                  opts: SolveOptions) -> SolveResult:
    """Solve a loaded instance with one backend; every solution goes through `finish`, the
    checker's gate. (The portfolio and the islands are run by `tilesolve.dispatch`.)

    `path` names the instance in the result. `opts` is used as given: its clock, if started,
    keeps running."""
    family.check_objective(opts.objective)
    if not load_backend(family, backend, opts):
        from .limits import out_of_time

        return finish(family, instance, path, backend, out_of_time(), opts, 0.0)
    opts.params = backend_params(family, backend, opts.params)
    instance = family.prepare(instance, opts.params)
    t0 = time.perf_counter()
    proof = precheck(family, instance, path, backend, opts)
    if proof is not None:
        return proof
    if not opts.objective and "radius" not in opts.params:  # objective models: not estimated
        family.check_model(instance, backend, opts.memory, growing=True)
    streamed: list[SolveResult] = []  # the best verified board the backend streamed
    progress = _watch(family, instance, path, backend, opts, streamed)
    try:
        outcome = run_validated(family, instance, backend, opts)
        opts.report(status=outcome.status.value)
    finally:
        if progress is not None:
            progress.close()
    res = finish(family, instance, path, backend, outcome, opts, time.perf_counter() - t0)
    return best_answer(res, streamed)


def best_answer(res: SolveResult, streamed: list[SolveResult]) -> SolveResult:
    """The final answer, or the best board streamed when that scores more.

    A backend may end on a board the objective rates lower than one it streamed: a GA keeps
    the best by its own fitness, and Niang's fitness counts 2x2 areas as well as joins (on
    Brendan's 8x8 it streamed a board of 82 joins and ended on one of 80). The user was shown
    the 82, so the answer is that board; a proof (solved, infeasible) or an error stands."""
    if not streamed or not (res.status == Status.FEASIBLE or res.status.ran_out):
        return res
    best = streamed[0]
    if res.verified and res.objective is not None and res.objective >= best.objective:
        return res
    best.status, best.seconds, best.stats = Status.FEASIBLE, res.seconds, res.stats
    return best


def precheck(family: Family, instance, path: str, backend: str,
             opts: SolveOptions) -> SolveResult | None:
    """The infeasible result when the family's precheck proves that no solution exists (a
    count made before any solver runs), else None."""
    t0 = time.perf_counter()
    reason = family.precheck(instance, opts.objective)
    if reason is None:
        return None
    return proven_infeasible(family, path, backend, opts, reason, time.perf_counter() - t0)


def _watch(family: Family, instance, path: str, backend: str, opts: SolveOptions,
           streamed: list[SolveResult]):
    """Show the backend's reports live, and show (and stream) every verified improvement;
    tell `opts.on_verified` of each and keep the best in `streamed` (returns the Progress, or
    None when nothing is shown)."""
    from .progress import Progress, display

    show = display(opts)
    progress = Progress(opts.progress_jsonl, show, scored=bool(opts.objective),
                        boards=opts.log_boards) if opts.progress_jsonl or show else None
    if progress is not None:
        listener = opts.on_report

        def update(fields: dict) -> None:
            progress.update(backend, fields)
            if listener is not None:  # a caller's own listener hears them too
                listener(fields)

        opts.on_report = update
    told = opts.on_verified
    if not opts.objective or opts.on_solution is not None:
        return progress
    t0 = time.perf_counter()

    def note(solution, fitness, source=None) -> None:
        res = finish(family, instance, path, backend, Outcome(Status.TIMEOUT, solution), opts,
                     time.perf_counter() - t0)
        if not res.verified or (streamed and res.objective <= streamed[0].objective):
            return
        streamed[:] = [res]
        if progress is not None:
            progress.max_score = res.objective_max
            progress.note(res.objective, source or backend, backend, res)
        if told is not None:
            told(res)

    note.takes_source = True  # type: ignore[attr-defined]
    opts.on_solution = note
    return progress
