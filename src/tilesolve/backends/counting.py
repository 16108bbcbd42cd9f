"""Counting solutions, the same way for every runner.

`solve --count` counts every solution; `--count-limit N` stops after N (2 answers "is the
puzzle unique?"). A runner counts natively where its solver can (CP-SAT's enumeration, the
search backend's resumable tree, one incremental SAT solver under blocking clauses); any
other runner solves, forbids the solution (`CompiledModel.forbid`) and solves again
(`by_forbidding`). Either way the outcome is made here (`tally`): every solution found, the
first one as the answer, and `stats["complete"]`, true only when the solver proved there is
no other. The pipeline then verifies each one and merges those equal up to the puzzle's
symmetries.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from ..core.result import Outcome, Solution, SolveOptions, Status
from .compiled import CompiledModel


def tally(found: list[Solution], complete: bool, stats: dict, opts: SolveOptions) -> Outcome:
    """The outcome of a count: `complete` says the solver proved there is no other solution
    (a count stopped by its limit is not complete, whatever the solver knew)."""
    full = opts.count_limit is not None and len(found) >= opts.count_limit
    stats = {**stats, "complete": complete and not full}
    if opts.count_limit is not None:
        stats["count_limit"] = opts.count_limit
    if found:
        return Outcome(Status.SOLVED, found[0], stats=stats, solutions=found)
    return Outcome(Status.INFEASIBLE if complete else Status.TIMEOUT, stats=stats, solutions=[])


def wanted(found: list[Solution], opts: SolveOptions) -> bool:
    """Is another solution still wanted (the limit not reached, no stop request)?"""
    return (opts.count_limit is None or len(found) < opts.count_limit) and not opts.stopped()


def by_forbidding(compiled: CompiledModel, solve: Callable[[CompiledModel, SolveOptions], Outcome],
                  opts: SolveOptions) -> Outcome:
    """Solve, forbid the solution found, solve again, until the model is infeasible (the
    count is complete), the limit is reached or time runs out. `solve` runs the model once;
    a partial assignment to impose is imposed once, before the first solve."""
    if opts.fix:
        compiled.impose(opts.fix)
    end = opts.deadline()
    t0 = time.monotonic()
    found: list[Solution] = []
    complete = False
    stats: dict = {}
    solves = 0
    while wanted(found, opts):
        left = None if end is None else end - time.monotonic()
        if left is not None and left <= 0:
            break
        out = solve(compiled, replace(opts, count=False, fix=None, hint=None, time_limit=left))
        solves += 1
        stats = out.stats
        if out.status == Status.INFEASIBLE:
            complete = True
            break
        if out.status != Status.SOLVED or out.solution is None:
            break
        found.append(out.solution)
        compiled.forbid(out.solution)
    stats = {**stats, "solves": solves, "seconds": round(time.monotonic() - t0, 4)}
    return tally(found, complete, stats, opts)
