"""Counting Hidato solutions up to a limit with any exact backend: solve, forbid, re-solve.

`solve --count` asks "is the puzzle unique?", so the default limit is 2: one solve finds a
solution, a second one under a nogood for it either proves uniqueness (infeasible) or finds
another. Never "assume unique" when a solve runs out of time: then `unique` is None.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

from ...core.result import Outcome, Solution, SolveOptions, Status


def count_solutions(
    compiled: Any, run: Callable[[Any, SolveOptions], Outcome], opts: SolveOptions
) -> Outcome:
    """Count by nogoods; `compiled.forbid(solution)` must exclude exactly that solution."""
    limit = max(1, opts.count_limit or 2)
    t0 = time.perf_counter()
    found: list[Solution] = []
    stats: dict = {}
    complete = False
    while len(found) < limit:
        left = None if opts.time_limit is None else opts.time_limit - (time.perf_counter() - t0)
        if left is not None and left <= 0:
            break
        once = dataclasses.replace(opts, count=False, time_limit=left, hint=None)
        out = run(compiled, once)
        stats = out.stats
        if out.status == Status.INFEASIBLE:
            complete = True
            break
        if out.status != Status.SOLVED or out.solution is None:
            break
        found.append(out.solution)
        compiled.forbid(out.solution)
    stats = {**stats, "complete": complete, "count_limit": limit, "solves": len(found) + complete}
    if len(found) >= 2:
        stats["unique"] = False
    elif complete:
        stats["unique"] = len(found) == 1
    else:
        stats["unique"] = None  # ran out of time: unknown
    stats["seconds"] = round(time.perf_counter() - t0, 4)
    if not found:
        status = Status.INFEASIBLE if complete else Status.TIMEOUT
        return Outcome(status, None, stats=stats, solutions=[] if complete else None)
    return Outcome(Status.SOLVED, found[0], stats=stats, solutions=found)
