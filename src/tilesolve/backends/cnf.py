"""Incremental SAT runner around PySAT: solver choice, a time limit that really stops the
solver, lazy clauses, phases, solution counting, and an anytime maximiser for objectives
that count true literals.

A family compiles its puzzle into a `CnfModel`:

- `clauses`: the formula (a list of integer clauses, or a `pysat.formula.CNF`); clauses
  appended to it while a solver runs reach that solver before its next solve;
- `vpool`: the `IDPool` that numbered every variable, auxiliaries of cardinality encodings
  included (always build encodings with `vpool=`, or their auxiliaries collide);
- `decode(value) -> Solution`, where `value(var)` is True when the variable is true;
- `violated_cuts(solution) -> [clause, ...]`: lazy clauses the decoded solution violates
  (subloops...), none by default; they are added to the running solver, which keeps what it
  learnt, and the loop re-solves until none is returned (`stats["rounds"]`, `stats["cuts"]`);
- the capabilities of `compiled.CompiledModel` it offers: `impose` and `forbid` append
  clauses, `suggest` sets `phases`, the literals the solver prefers (`set_phases`);
- `objective = True` and `objective_lits`: maximise how many of these literals are true.
  `maximise` does it by linear search from below: every model found raises the bound "at
  least score + 1" on an incremental totalizer, until the solver proves no better model
  exists (`solved`) or time runs out (`feasible`, best model kept).

Counting (`count`) keeps one solver and adds a blocking clause (`forbid`) after each model,
so what the solver learnt serves the next one.

Solvers (`opts.params["solver"]`, any PySAT name or alias): CaDiCaL 1.9.5 by default.
Time limits and stop requests work per solver family:

- minisat / glucose / maple / mergesat / minicard / gluecard: a watcher thread calls
  `interrupt()` while `solve_limited(expect_interrupt=True)` runs;
- CaDiCaL cannot be interrupted: it runs in conflict-budget chunks (`conf_budget` +
  `solve_limited`), sized to a fraction of a second, checking the clock and the stop flag
  between chunks; learnt clauses survive from one chunk to the next;
- lingeling has neither: it runs only without a time limit;
- kissat is not incremental in PySAT and aborts the process on a second call: it is refused
  here (export the CNF and run `tilesolve run-model FILE.cnf --solver kissat404` instead).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from pysat.card import ITotalizer
from pysat.formula import IDPool
from pysat.solvers import Solver, SolverNames

from ..core.errors import InputError
from ..core.interrupt import SignalStop
from ..core.options import Option, Options, positive_int
from ..core.result import Outcome, Solution, SolveOptions, Status
from . import counting, native
from .compiled import CompiledModel
from .stopwatch import Watcher

DEFAULT_SOLVER = "cadical195"
BUDGETED = ("cadical103", "cadical153", "cadical195", "cadical300")
UNLIMITED = ("lingeling",)
REFUSED = ("kissat404", "cryptosat", "minisatgh")


class CnfModel(CompiledModel):
    """A puzzle compiled to CNF for a PySAT solver."""

    clauses: Any
    vpool: IDPool
    objective_lits: Sequence[int] = ()
    phases: Sequence[int] = ()  # set by `suggest`

    def violated_cuts(self, solution: Solution) -> list[list[int]]:
        """Clauses the solution breaks, for rules stated lazily; none by default."""
        return []

    def formula(self) -> list[list[int]]:
        """The clauses as a list (the CNF object's list, or `clauses` itself)."""
        return getattr(self.clauses, "clauses", self.clauses)

    def floor_clauses(self, floor: int) -> list[list[int]]:
        """Clauses a maximised model may add once its objective must reach `floor` (implied
        by that floor, stated for the solver's sake); none by default."""
        return []


OPTIONS = Options(Option("solver", str, None, f"the SAT solver, a PySAT name or alias "
                         f"(default: {DEFAULT_SOLVER})"),
                  Option("floor", positive_int, None, "with an objective: look only for answers "
                         "scoring at least N; when there is none, the answer is infeasible: "
                         "proven that nothing scores N or more"))


def canonical_solver(name: str) -> str:
    """PySAT's solver key for a name or alias ('cd195', 'g4', 'glucose4' ...)."""
    key = name.strip().lower()
    for canon, aliases in vars(SolverNames).items():
        if not canon.startswith("_") and (key == canon or key in aliases):
            return canon
    known = [k for k in vars(SolverNames) if not k.startswith("_") and k not in REFUSED]
    raise InputError(f"unknown SAT solver {name!r}; expected one of {', '.join(sorted(known))}")


def solver_name(opts: SolveOptions) -> str:
    name = canonical_solver(str(opts.params.get("solver", DEFAULT_SOLVER)))
    if name in REFUSED:
        raise InputError(
            f"SAT solver {name} cannot run incrementally in process; export the model with "
            "`tilesolve export INSTANCE --to cnf -o FILE.cnf` and solve it with "
            f"`tilesolve run-model FILE.cnf --solver {name}`"
        )
    interruptible = opts.stop is not None and not isinstance(opts.stop, SignalStop)
    if name in UNLIMITED and (opts.time_limit is not None or interruptible):
        raise InputError(f"SAT solver {name} cannot be time-limited; choose another --solver")
    return name


class Deadline:
    """Wall-clock limit plus the cooperative stop flag, checked by the solve loops, and where
    a budgeted solver's chunks report their conflicts (SolveOptions.report)."""

    def __init__(self, time_limit: float | None, stop=None, report=lambda **_: None):
        self.end = None if time_limit is None else time.monotonic() + time_limit
        self.stop = stop
        self.report = report

    def left(self) -> float | None:
        return None if self.end is None else self.end - time.monotonic()

    def over(self) -> bool:
        left = self.left()
        return (self.stop is not None and self.stop.is_set()) or (left is not None and left <= 0)


def solve_limited(solver: Solver, name: str, limit: Deadline) -> bool | None:
    """True (SAT), False (UNSAT) or None (time limit or stop request first)."""
    if limit.over():
        return None
    if name in UNLIMITED:
        return solver.solve()
    if name in BUDGETED:
        chunk = 500
        while True:
            solver.conf_budget(chunk)
            t0 = time.monotonic()
            res = solver.solve_limited()
            if res is not None:
                return res
            if limit.over():
                return None
            limit.report(conflicts=(solver.accum_stats() or {}).get("conflicts"))
            # aim at chunks of about 0.2 s so the limit is kept within a fraction of a second
            spent = max(time.monotonic() - t0, 1e-3)
            chunk = int(min(max(chunk * min(2.0, 0.2 / spent), 100), 200_000))
    with Watcher(limit.stop, solver.interrupt, limit.end):
        res = solver.solve_limited(expect_interrupt=True)
    solver.clear_interrupt()
    return res


def _valuer(model: Sequence[int]) -> Callable[[int], bool]:
    truth = {lit for lit in model if lit > 0}
    return truth.__contains__


def _set_phases(solver: Solver, literals: Sequence[int]) -> bool:
    try:
        solver.set_phases(list(literals))
    except NotImplementedError:
        return False
    return True


class Session:
    """One solver holding a compiled formula, with the loop that adds lazy clauses."""

    def __init__(self, compiled: CnfModel, opts: SolveOptions):
        self.compiled = compiled
        self.opts = opts
        self.name = solver_name(opts)
        self.limit = Deadline(opts.remaining(), opts.stop, opts.report)
        self.t0 = time.monotonic()
        if opts.fix:
            compiled.impose(opts.fix)
        # the solver's own parameters (the API's solver_params), checked before it is made
        configure = native.sat(self.name, opts.params["sat"]) if opts.params.get("sat") else {}
        self.solver = Solver(name=self.name, bootstrap_with=compiled.formula())
        if configure:
            self.solver.configure(configure)
        self.loaded = len(compiled.formula())  # clauses the solver holds
        self.stats: dict[str, Any] = {"solver": self.name, "rounds": 0, "cuts": 0}
        self.last: Solution | None = None  # the latest model rejected by `violated_cuts`
        if opts.hint:
            compiled.suggest(opts.hint)
            used = _set_phases(self.solver, compiled.phases)
            self.stats["hint"] = "phases" if used else f"ignored ({self.name} has no phases)"

    def load_new_clauses(self) -> None:
        """Hand the solver what was appended to the formula since (forbidden solutions)."""
        clauses = self.compiled.formula()
        for clause in clauses[self.loaded:]:
            self.solver.add_clause(list(clause))
        self.loaded = len(clauses)

    def close(self) -> None:
        self.solver.delete()

    def next_model(self) -> tuple[bool | None, Solution | None, Callable[[int], bool] | None]:
        """Solve until a model survives `violated_cuts` (or UNSAT / time out)."""
        while True:
            self.load_new_clauses()
            self.opts.report(round=self.stats["rounds"] + 1, cuts=self.stats["cuts"],
                             conflicts=(self.solver.accum_stats() or {}).get("conflicts"))
            res = solve_limited(self.solver, self.name, self.limit)
            self.stats["rounds"] += 1
            if not res:
                return res, None, None
            value = _valuer(self.solver.get_model())
            sol = self.compiled.decode(value)
            cuts = self.compiled.violated_cuts(sol)
            if not cuts:
                return True, sol, value
            self.last = sol
            for clause in cuts:
                self.solver.add_clause(list(clause))
            self.stats["cuts"] += len(cuts)

    def final_stats(self, stopped: bool) -> dict[str, Any]:
        """The solver's statistics; `stopped`: the run ended early, say so if the time limit
        or a stop request ended it."""
        acc = self.solver.accum_stats() or {}
        self.stats.update(
            variables=self.solver.nof_vars(),
            clauses=self.solver.nof_clauses(),
            conflicts=acc.get("conflicts"),
            seconds=round(time.monotonic() - self.t0, 4),
        )
        if stopped and self.limit.over():
            self.stats["stopped"] = True
        return self.stats

    def outcome(self, status: Status, sol=None, objective=None, bound=None) -> Outcome:
        stopped = status in (Status.TIMEOUT, Status.FEASIBLE)
        return Outcome(status, sol, objective, bound, self.final_stats(stopped))


def run(compiled: CnfModel, opts: SolveOptions) -> Outcome:
    """Satisfy (with lazy clauses), or maximise when the compiled model has an objective."""
    if compiled.objective and list(compiled.objective_lits):
        return maximise(compiled, opts)
    if opts.params.get("floor") is not None:
        raise InputError("--floor bounds an objective from below; this run has none")
    session = Session(compiled, opts)
    try:
        res, sol, _ = session.next_model()
        if res is None:
            return session.outcome(Status.TIMEOUT, session.last)
        if res is False:
            return session.outcome(Status.INFEASIBLE)
        if opts.on_solution is not None:
            opts.on_solution(sol, None)
        return session.outcome(Status.SOLVED, sol)
    finally:
        session.close()


def count(compiled: CnfModel, opts: SolveOptions) -> Outcome:
    """Every model (up to opts.count_limit), each forbidden by a blocking clause once found,
    in one incremental solver."""
    session = Session(compiled, opts)
    found: list[Solution] = []
    complete = False
    try:
        while counting.wanted(found, opts):
            res, sol, _ = session.next_model()
            if res is None:
                break
            if res is False:
                complete = True
                break
            found.append(sol)
            compiled.forbid(sol)
        stats = session.final_stats(stopped=not complete)
    finally:
        session.close()
    return counting.tally(found, complete, stats, opts)


def totalizer(pool: IDPool, lits: list[int], ubound: int) -> ITotalizer:
    """An incremental totalizer (pysat.card) whose auxiliary variables the pool hands out to
    nobody else. Its ids follow the pool's top, and the top moves past them: `occupy` would
    leave the top where it was, and the next totalizer built from it would reuse them."""
    tot = ITotalizer(lits=lits, ubound=ubound, top_id=pool.top)
    pool.top = tot.top_id
    return tot


def _raise_floor(session: Session, compiled: CnfModel, tot: ITotalizer, n: int,
                 floor: int) -> None:
    """From now on the objective must reach `floor`: at most n - floor literals false, and
    the model's own clauses for that floor."""
    clauses = [[-tot.rhs[n - floor]]] if 0 < floor <= n else []
    for clause in clauses + compiled.floor_clauses(floor):
        session.solver.add_clause(clause)


def maximise(compiled: CnfModel, opts: SolveOptions) -> Outcome:
    """Anytime maximisation of the number of true `objective_lits` (linear search from below)."""
    lits = list(compiled.objective_lits)
    pool: IDPool = compiled.vpool
    # totalizer over the FALSE objective literals: rhs[k] is true iff at least k+1 are false
    tot = totalizer(pool, [-lit for lit in lits], len(lits))
    session = Session(compiled, opts)
    session.solver.append_formula(tot.cnf.clauses)
    best: Solution | None = None
    score = -1
    floor = opts.params.get("floor")
    try:
        if floor is not None:
            session.stats["floor"] = floor
            if floor > len(lits):  # more than every objective literal
                return session.outcome(Status.INFEASIBLE)
            _raise_floor(session, compiled, tot, len(lits), floor)
        while True:
            res, sol, value = session.next_model()
            if res is None:
                if best is None:  # the last model the lazy clauses rejected, if any
                    return session.outcome(Status.TIMEOUT, session.last)
                return session.outcome(Status.FEASIBLE, best, score)
            if res is False:
                if best is None:
                    return session.outcome(Status.INFEASIBLE)
                return session.outcome(Status.SOLVED, best, score, score)
            best, score = sol, sum(1 for lit in lits if value(abs(lit)) == (lit > 0))
            session.stats["improvements"] = session.stats.get("improvements", 0) + 1
            if opts.on_solution is not None:
                opts.on_solution(best, score)
            opts.report(best=score, max=len(lits))
            if score == len(lits):
                return session.outcome(Status.SOLVED, best, score, score)
            model = session.solver.get_model()
            _raise_floor(session, compiled, tot, len(lits), score + 1)
            _set_phases(session.solver, model)  # search near the best board first
    finally:
        tot.delete()
        session.close()
