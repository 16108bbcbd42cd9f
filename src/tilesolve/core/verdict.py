"""The checker's gate: a backend's outcome becomes the result the user sees only through here.

Every path that reports an answer (one backend, the portfolio's lanes, the islands) turns its
outcome into a `SolveResult` with `finish`, so nothing is called solved or feasible unless the
family's checker accepts the board. It knows the family seam and the result types only.
"""

from __future__ import annotations

from functools import partial

from .family import Family
from .result import Outcome, SolveOptions, SolveResult, Status, bound_and_gap


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
            res.board, res.encode = first, partial(family.solution_json, instance)
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
    res.board, res.encode = sol, partial(family.solution_json, instance)
    res.text = family.draw_text(instance, sol)
    res.legend = family.legend(instance)
    if opts.objective and report.score is not None:
        res.objective = report.score  # the checker's score, not the solver's claim
        res.objective_max = report.max_score
        res.objective_counts = family.objective_counts.get(opts.objective)
        score_gap(res, report.ok)
    if status in (Status.SOLVED, Status.FEASIBLE):
        if report.ok:
            res.verified = True
        else:
            res.status = Status.ERROR
            res.violations = [v.to_json() for v in report.violations]
            res.stats["error"] = "solver answer failed verification"
    elif status.ran_out:
        # A best-so-far board (GA, optimisation) is shown but never called solved.
        res.verified = report.ok
        if not report.ok:
            res.stats["broken_rules"] = len(report.violations)
        if report.ok and opts.objective and not below_floor(report.score, opts):
            res.status = Status.FEASIBLE
    return res


def below_floor(score: int | None, opts: SolveOptions) -> bool:
    """Whether a board scores below the run's `--floor` (look only for boards of at least
    N): a stopped run's last board under it is shown, but it is no answer (the status stays
    the time-out's), where it was reported feasible below the floor it was asked for."""
    floor = opts.params.get("floor")
    return floor is not None and score is not None and score < int(floor)


def score_gap(res: SolveResult, valid: bool) -> None:
    """A solver's bound and gap in the checker's terms: the gap of the verified score, and
    the bound no higher than the checker's maximum (also a proof; HiGHS stopped before its
    root LP bounds the 8x8's 112 joins by its 749 join-colour variables)."""
    bound = res.stats.get("bound")
    if bound is None or res.objective is None:
        return
    if res.objective_max is not None and bound > res.objective_max:
        bound = res.objective_max
        res.stats["bound_from"] = "the checker's maximum"
    res.stats.update(bound_and_gap(res.objective if valid else None, bound))


def proven_infeasible(family: Family, path: str, backend: str, opts: SolveOptions, reason: str,
                      seconds: float) -> SolveResult:
    """The result for a puzzle the family's precheck shows to have no solution."""
    res = SolveResult(instance=path, family=family.name, backend=backend,
                      status=Status.INFEASIBLE, verified=False, seconds=seconds,
                      seed=opts.seed, stats={"reason": reason, "proved_by": "precheck"})
    if opts.count:
        res.count, res.count_raw = 0, 0
    return res
