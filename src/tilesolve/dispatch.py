"""Which runner solves: one backend (`core.solve`), the portfolio or the islands (`hybrid`).

The command line, the Python API and the benchmarks come through here; `core/` itself never
looks above it, so the hybrid layer can build on the core pipeline and not the other way.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from .core.errors import InputError
from .core.family import Family, load_instance
from .core.result import SolveOptions, SolveResult
from .core.solve import precheck, solve_backend


def default_backend(family: Family, instance, opts: SolveOptions) -> str:
    """No backend named: for an objective the family's choice (its optimisers racing, as a
    rule), else CP-SAT; `--backends LIST` alone asks for the race of those."""
    if opts.objective and opts.params.get("backends"):
        return "portfolio"
    return family.objective_default(instance) if opts.objective else "cpsat"


def read(path: str | Path, opts: SolveOptions, fmt: str | None = None) -> tuple[Family, object,
                                                                                 SolveOptions]:
    """Read an instance file for a solve whose time limit covers the reading: (family,
    instance, a private copy of `opts` whose clock has started)."""
    opts = replace(opts)  # a private copy whose clock starts now: reading counts
    opts.start_clock()
    if opts.clock_from is not None and opts.time_limit is not None:  # a command line's run
        from .core.limits import finish_reserve

        # the solvers stop this much earlier, so that the process ends by the limit
        opts.time_limit -= finish_reserve(opts.clock_from, opts.time_limit)
    family, instance = load_instance(path, fmt)
    return family, instance, opts


def solve_file(path: str | Path, backend: str | None, opts: SolveOptions,
               fmt: str | None = None) -> SolveResult:
    """Read an instance file and solve it (`solve_instance`); the time limit covers reading."""
    family, instance, opts = read(path, opts, fmt)
    return solve_instance(family, instance, str(path), backend, opts, fmt)


def solve_instance(family: Family, instance, path: str, backend: str | None, opts: SolveOptions,
                   fmt: str | None = None) -> SolveResult:
    """Solve a loaded instance with one backend or the portfolio (None: `default_backend`).

    `path` names the instance in the result; the portfolio's lanes read the instance from it.
    `opts` is used as given: its clock, if started, keeps running."""
    if backend is None:
        backend = default_backend(family, instance, opts)
    if backend != "portfolio":
        return solve_backend(family, instance, path, backend, opts)
    family.check_objective(opts.objective)
    # the portfolio validates each lane's options (hybrid.budget)
    instance = family.prepare(instance, opts.params)
    proof = precheck(family, instance, path, backend, opts)
    if proof is not None:
        return proof
    from .hybrid.portfolio import solve_portfolio

    return solve_portfolio(family, instance, path, opts, fmt)


def solve_islands(family: Family, instance, path: str, opts: SolveOptions, islands: int,
                  scheduler: str | None = None) -> SolveResult:
    """`solve --islands N`: the family's optimisers on a Dask cluster (hybrid.islands)."""
    if not family.optimisation:
        raise InputError(f"--islands needs an objective, which the {family.name} family lacks")
    from .hybrid.islands import Islands

    instance = family.prepare(instance, opts.params)
    return Islands(family, instance, path, opts, islands, scheduler).run()
