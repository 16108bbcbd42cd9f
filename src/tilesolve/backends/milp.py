"""MILP runner around PuLP: solver choice, shared time limit, warm starts, the lazy-cut loop.

A family compiles its puzzle into a `MilpModel`:

- `prob`: a `pulp.LpProblem` (a satisfaction model may leave the objective empty);
- `decode(value) -> Solution`, where `value(var)` is the variable's value in the incumbent;
- `objective = True` when `prob` optimises something (a run stopped by the time limit with
  an incumbent is then `feasible`, not `solved`);
- `violated_cuts(solution) -> [(constraint, name), ...]`: the lazy cuts the decoded solution
  violates (for instance subloop elimination); empty when it is acceptable, always empty for
  a model that states every rule (the default);
- the capabilities of `compiled.CompiledModel` it offers: `impose` adds rows, `suggest` sets
  start values with `var.setInitialValue` (CBC warm start), `forbid` adds a nogood row.

Counting (`count`) solves, forbids the solution and solves again (`counting.by_forbidding`).

The lazy-cut loop (`run`):

1. solve `prob` with what is left of the time limit (one limit shared by every round);
2. no incumbent: `infeasible` if the solver proved it, otherwise `timeout`;
3. decode the incumbent and ask `separate` for violated cuts;
4. none: done. Otherwise add EVERY violated cut (unique names) and re-solve from 1.

`stats["rounds"]` counts solves, `stats["cuts"]` the cuts added and `stats["round_seconds"]`
the wall time of each solve. Only integer incumbents
are separated, so each round is a full MILP solve: models should hold every constraint they
can state compactly and leave only the exponential families (subloops) to the loop. The stop
flag is checked between rounds and during a solve: HiGHS polls it through its interrupt
callback (keeping its incumbent); CBC, a child process PuLP waits on, is killed (on Linux,
found through /proc by its files' folder), which loses the round's incumbent but not its
bound: CBC's log, written line by line to the folder, is read back for it (`cbc_bound`).

Solvers (`opts.params["solver"]`): `cbc` (default; the binary bundled with PuLP < 4, or
cbcbox's: `cbc_path`) or `highs` (in process, through highspy). Pitfalls handled here:

- PuLP reports status 1 ("Optimal") when a run stops on its time limit with an incumbent;
  only `prob.sol_status` tells proven optimal (1) from integer feasible (2).
- CBC's warm start writes the variables' current values, which after a round are the
  incumbent that the new cuts just excluded; the values are therefore cleared and the hint
  re-applied before every round (PuLP writes 0 for a variable without a value). PuLP 3's
  HiGHS interface ignores warm starts: `_WarmHiGHS` hands the hinted values alone to
  HiGHS's `setSolution`, which completes a partial start with a small MIP of its own.
- CBC treats random seed 0 as "seed from the clock"; seed + 1 keeps runs reproducible.
- CBC does not look at its time limit before branching: on the 16x16 edge-matching model
  (157k variables) its root LP ran 120 s past `-t 5`. The limit counts from the options'
  creation (reading and model building included); CBC is terminated HARD_GRACE after it,
  HiGHS interrupted through its callback.
- PuLP writes the model (68 MB of MPS for the 16x16, 2.8 s) and leaves its files behind when
  CBC is terminated: a solve writes into a private folder that it, or a watcher process if
  it is killed, removes with every CBC still using it (core.scratch). A round is not
  started when less time is left than building the model took (writing takes about as
  long: 2.8 s against 3.1 s on the 16x16).
"""

from __future__ import annotations

import functools
import math
import os
import re
import shlex
import shutil
import time
from typing import Any

import pulp

from ..core.errors import InputError
from ..core.options import Option, Options
from ..core.result import Outcome, Solution, SolveOptions, Status, bound_and_gap
from ..core.scratch import kill_users, scratch_folder
from . import counting, native
from .compiled import CompiledModel
from .stopwatch import Watcher

SOLVERS = ("cbc", "highs")
OPTIONS = Options(Option("solver", str, None, "the MILP solver (default: cbc, unless the "
                         "family's backend names HiGHS)", SOLVERS))
# solver logs (--verbose) go to stderr, so stdout keeps exactly the result
HARD_GRACE = 0.5  # seconds after the limit before CBC is terminated
STDERR = "/dev/stderr" if os.path.exists("/dev/stderr") else None


class MilpModel(CompiledModel):
    """A puzzle compiled for a MILP solver through PuLP."""

    prob: pulp.LpProblem
    def violated_cuts(self, solution: Solution) -> list[tuple[Any, str]]:
        """Named rows the solution breaks, for rules stated lazily; none by default."""
        return []


def unless_named(opts: SolveOptions, solver: str) -> SolveOptions:
    """The options with `solver` as the family's default MILP solver, unless the user named one
    (`--solver`); the time limit's clock is kept."""
    if "solver" in opts.params:
        return opts
    return opts.but(params={**opts.params, "solver": solver})


def solver_name(opts: SolveOptions) -> str:
    name = str(opts.params.get("solver", "cbc")).lower()
    if name not in SOLVERS:
        raise InputError(f"unknown MILP solver {name!r}; expected one of {', '.join(SOLVERS)}")
    return name


def make_solver(name: str, opts: SolveOptions, time_limit: float | None, warm: bool,
                sense: int = 0, log: str | None = None):
    """A PuLP solver object for one round; `sense`: the problem's (pulp.LpMaximize...), 0
    without an objective, to report HiGHS's incumbent and bound in the model's terms; `log`:
    the file CBC writes its log to (not verbose), read back for its bound (`cbc_bound`)."""
    tl = None if time_limit is None else max(0.01, time_limit)
    threads = opts.thread_count()
    if name == "highs":
        if not hasattr(pulp, "HiGHS") or not pulp.HiGHS().available():
            raise InputError("the highs MILP solver needs the highspy package")
        import highspy

        end = opts.deadline()

        kinds = highspy.cb.HighsCallbackType
        progress = (kinds.kCallbackMipInterrupt, kinds.kCallbackMipImprovingSolution)

        def interrupt(kind, _message, data_out, data_in, _user) -> None:
            if kind in progress:
                opts.report(**_highs_progress(data_out, sense))
            if opts.stopped() or (end is not None and time.monotonic() >= end):
                data_in.user_interrupt = True

        log = {"log_to_console": False, "log_file": STDERR} if opts.verbose and STDERR else {}
        return _WarmHiGHS(
            warm,
            msg=bool(opts.verbose),
            timeLimit=tl,
            threads=threads,
            random_seed=int(opts.seed),
            callbackTuple=(interrupt, None),
            callbacksToActivate=[getattr(kinds, f"kCallback{k}") for k in (
                "MipInterrupt", "SimplexInterrupt", "IpmInterrupt", "MipImprovingSolution")],
            **log,
            **native.highs(opts.params.get("milp") or {}),
        )
    return pulp.COIN_CMD(
        path=cbc_path() if log is None else cbc_line_buffered(os.path.dirname(log)),
        msg=False,
        logPath=STDERR if opts.verbose else log,
        timeLimit=tl,
        threads=threads,
        warmStart=warm,
        options=[f"randomCbcSeed {int(opts.seed) + 1}",
                 *native.cbc(opts.params.get("milp") or {})],
    )


@functools.cache
def cbc_path() -> str:
    """The CBC binary: the one bundled with PuLP 3, else cbcbox's (where PuLP 4 takes CBC
    from: `pip install pulp[cbc]`), else `cbc` on the PATH. PuLP 3.3 deprecates its
    PULP_CBC_CMD, which PuLP 4 removes; COIN_CMD with a path is the interface both keep."""
    from pulp.apis import coin_api

    bundled = getattr(coin_api, "pulp_cbc_path", None)
    if bundled and os.access(bundled, os.X_OK):
        return os.path.normpath(bundled)
    try:
        import cbcbox
    except ImportError:
        found = shutil.which("cbc")
        if found is None:
            raise InputError("the cbc MILP solver needs CBC: `pip install cbcbox` "
                             "(or choose --solver highs)") from None
        return found
    return cbcbox.cbc_bin_path()


def cbc_line_buffered(folder: str) -> str:
    """CBC run by `stdbuf -oL` (a script in the solve's scratch `folder`), so that its log
    reaches the file line by line: a CBC killed at the limit (often still at its root: 43 s
    to its first board on the 8x8 at a load of 10) otherwise loses its whole log in its
    output buffer, and its bound with it. CBC itself where stdbuf is missing (then only a CBC
    that stopped by itself leaves its log)."""
    stdbuf = shutil.which("stdbuf")
    if stdbuf is None:
        return cbc_path()
    script = os.path.join(folder, "cbc-line-buffered")
    if not os.path.exists(script):
        with open(script, "w") as fh:
            fh.write(f"#!/bin/sh\nexec {shlex.quote(stdbuf)} -oL {shlex.quote(cbc_path())} "
                     '"$@"\n')
        os.chmod(script, 0o700)
    return script


# CBC's log: the summary of a run that stopped by itself gives the bound in the model's
# terms; a run stopped earlier leaves its progress lines, in CBC's own minimising terms, or
# only its root relaxation's value, in the model's
_CBC_SUMMARY = re.compile(r"^(?:Upper|Lower) bound:\s+(\S+)", re.M)
_CBC_PROGRESS = re.compile(r"best possible (\S+?),? ", re.M)
_CBC_ROOT = re.compile(r"^Continuous objective value is (\S+)", re.M)


def cbc_bound(log: str | None, sense: int) -> float | None:
    """The bound CBC last wrote in its log (PuLP reads none back), in the model's terms
    (`sense`: pulp.LpMaximize is -1, which CBC minimises negated); None without one."""
    try:
        with open(log or "", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return None
    for pattern, factor in ((_CBC_SUMMARY, 1), (_CBC_PROGRESS, sense), (_CBC_ROOT, 1)):
        found = pattern.findall(text)
        if found:
            try:
                value = float(found[-1]) * factor
            except ValueError:
                continue
            return value if math.isfinite(value) and abs(value) < 1e50 else None
    return None


class _WarmHiGHS(pulp.HiGHS):
    """PuLP's HiGHS with a start (PuLP 3 drops `warmStart` for HiGHS): the variables with a
    value (`setInitialValue`) go to `setSolution` before the run."""

    def __init__(self, warm: bool, **kwargs) -> None:
        super().__init__(**kwargs)
        self.warm = warm  # not a keyword: PuLP passes every keyword on to HiGHS as an option
        self.start = "no values to give HiGHS"  # what HiGHS said to the start

    def callSolver(self, lp) -> None:
        import numpy as np

        given = [(v.index, v.varValue) for v in lp.variables()
                 if v.varValue is not None] if self.warm else []
        if given:
            index, value = zip(*given, strict=True)
            status = lp.solverModel.setSolution(len(index), np.array(index, dtype=np.int32),
                                                np.array(value, dtype=np.float64))
            self.start = f"{len(index)} values given to HiGHS ({status.name})"
        super().callSolver(lp)


def _highs_progress(out, sense: int) -> dict[str, float]:
    """HiGHS's branch and bound so far: nodes, incumbent and bound (infinite until known).
    PuLP hands HiGHS a maximisation as the minimisation of its negation: `sense` (-1 for a
    maximisation) turns the values back."""
    fields = {"nodes": out.mip_node_count}
    for key, value in (("best", out.mip_primal_bound), ("bound", out.mip_dual_bound)):
        if sense and abs(value) < float("inf"):
            fields[key] = sense * value
    return fields
def _has_incumbent(prob: pulp.LpProblem, name: str) -> bool:
    if prob.sol_status not in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible):
        return False
    if name == "highs":
        # an interrupted HiGHS run is mapped to "integer feasible" even without a solution
        return prob.solverModel.getInfo().primal_solution_status == 2
    return True


def _bound(prob: pulp.LpProblem, name: str, log: str | None = None) -> float | None:
    """The solver's proven bound on the objective, in the model's terms (PuLP hands HiGHS a
    maximisation negated): HiGHS's from its info, CBC's from its `log` (PuLP reads none
    back: its solution file holds none); None before a round ran."""
    if name == "cbc":
        return cbc_bound(log, prob.sense)
    model = getattr(prob, "solverModel", None)
    if model is None:
        return None
    bound = model.getInfo().mip_dual_bound
    return prob.sense * bound if abs(bound) < float("inf") else None


def _value(var: pulp.LpVariable) -> float:
    return var.varValue if var.varValue is not None else 0.0


def _at_limit(began: float, deadline: float | None) -> bool:
    """The round ran to (nine tenths of) the time it had: its solver may have stopped on it."""
    return deadline is not None and time.monotonic() >= began + 0.9 * (deadline - began)


def _stats(prob: pulp.LpProblem, name: str) -> dict[str, Any]:
    return {
        "solver": name,
        "variables": prob.numVariables(),
        "constraints": prob.numConstraints(),
        "rounds": 0,
        "cuts": 0,
        "round_seconds": [],
    }


def run(compiled: MilpModel, opts: SolveOptions) -> Outcome:
    """Solve with the lazy-cut loop. See the module docstring for the contract."""
    if solver_name(opts) == "highs":  # in process: no files, no binary
        return _rounds(compiled, opts, None)
    with scratch_folder("tilesolve-milp-") as folder:
        return _rounds(compiled, opts, folder)


def count(compiled: MilpModel, opts: SolveOptions) -> Outcome:
    """Every solution (up to opts.count_limit): solve, forbid it, solve again."""
    return counting.by_forbidding(compiled, run, opts)


def _rounds(compiled: MilpModel, opts: SolveOptions, folder: str | None) -> Outcome:
    name = solver_name(opts)
    prob: pulp.LpProblem = compiled.prob
    optimise = compiled.objective
    if opts.fix:
        compiled.impose(opts.fix)
    warm = bool(opts.hint)
    stats = _stats(prob, name)
    t0 = time.monotonic()
    deadline = opts.deadline()
    # reading and building: about the time writing the model takes
    built = 0.0 if opts.started is None else t0 - opts.started
    last: Solution | None = None  # the latest incumbent, valid or not
    # CBC's log, for its bound (a --verbose run's goes to stderr: no bound then)
    log = os.path.join(folder, "cbc.log") if folder and not opts.verbose else None

    def done(status: Status, sol: Solution | None = None) -> Outcome:
        stats["seconds"] = round(time.monotonic() - t0, 4)
        stats["variables"] = prob.numVariables()
        stats["constraints"] = prob.numConstraints()
        obj = pulp.value(prob.objective) if optimise and sol is not None else None
        bound = _bound(prob, name, log) if optimise and status != Status.INFEASIBLE else None
        stats.update(bound_and_gap(obj, bound))
        return Outcome(status, sol, obj, bound, stats)

    while True:
        left = None if deadline is None else deadline - time.monotonic()
        if opts.stopped() or (left is not None and left <= built):
            stats["stopped"] = True
            return done(Status.TIMEOUT, last)
        if warm:  # never warm-start from an incumbent the cuts excluded: the hint alone
            for var in prob.variables():
                var.varValue = None
            compiled.suggest(opts.hint)
        began = time.monotonic()
        hard = None if deadline is None else deadline + HARD_GRACE
        watch = Watcher(opts.stop, (lambda: kill_users(folder)) if folder else lambda: None,
                        hard)
        try:
            solver = make_solver(name, opts, left, warm, prob.sense if optimise else 0, log)
            if folder:
                solver.tmpDir = folder
            opts.report(round=stats["rounds"] + 1, cuts=stats["cuts"])
            with watch:
                prob.solve(solver)
            if warm:
                stats["hint"] = solver.start if name == "highs" else "given to CBC as its start"
        except pulp.PulpSolverError:
            if not (opts.stopped() or watch.fired):
                raise
            stats["stopped"] = True  # CBC was terminated: no incumbent to read
            return done(Status.TIMEOUT, last)
        stats["rounds"] += 1
        stats["round_seconds"].append(round(time.monotonic() - began, 3))
        if opts.stopped():
            stats["stopped"] = True
        if not _has_incumbent(prob, name):
            infeasible = pulp.LpStatusInfeasible
            if prob.status == infeasible or prob.sol_status == pulp.LpSolutionInfeasible:
                # a solver stopped, or at its own limit, proves nothing: CBC ended at -t 2
                # on the solvable 8x8 once said "infeasible" (1 run of 4 in the test suite)
                if watch.fired or opts.stopped() or _at_limit(began, deadline):
                    stats["stopped"] = True
                    return done(Status.TIMEOUT, last)
                return done(Status.INFEASIBLE)
            if prob.status in (pulp.LpStatusUnbounded, pulp.LpStatusUndefined):
                stats["error"] = f"MILP solver status {pulp.LpStatus[prob.status]}"
                return done(Status.ERROR)
            return done(Status.TIMEOUT, last)
        sol = compiled.decode(_value)
        cuts = compiled.violated_cuts(sol)
        if not cuts:
            proven = prob.sol_status == pulp.LpSolutionOptimal
            if opts.on_solution is not None:
                opts.on_solution(sol, pulp.value(prob.objective) if optimise else None)
            return done(Status.FEASIBLE if optimise and not proven else Status.SOLVED, sol)
        last = sol
        for cut, cut_name in cuts:  # numbered by the rows so far: unique over every run
            prob += cut, f"{cut_name}_{prob.numConstraints()}"
        stats["cuts"] += len(cuts)
