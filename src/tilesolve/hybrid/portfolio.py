"""The portfolio: backends race in parallel processes, and the GA feeds the exact solvers.

1. Race. One process per backend the family has (or `--backends cpsat,ga`), with thread
   budgets that fit the machine (see hybrid.budget). The first verified `solved` or proven
   `infeasible` answer wins; the other lanes are stopped cooperatively, then terminated.
2. Hint flow. The GA lane streams its elite. At epochs (first after `--epoch` seconds, then
   at doubling intervals) an exact lane (`<backend>+hintK`) is (re)started with the newest
   elite as a hint, when it improved since the last one. A partial hint is completed first by
   a quick solve with it imposed (CP-SAT uses complete hints far better than partial ones).
3. CBGI as constraints. Genes the GA population has converged on arrive as a partial
   assignment; a side exact lane (`<backend>+cbgiK`) solves with them imposed. A solution
   wins; a proof of infeasibility means the GA converged wrongly: the genes are released in
   the GA (through its control queue) and reported in stats["cbgi"]. A timeout decides nothing.

Portfolio options (`solve --backend portfolio --name value`, strings from the command line):
`backends` (comma list), `hints` / `cbgi` (on|off), `epoch` (seconds), `hint_backend`,
`cbgi_backend` (exact backends for the side lanes), `cbgi_time` (seconds per CBGI run),
`adapt` (on|off) and `review` (seconds, see 4). Every other option is passed on to the lanes
(GA parameters...).

4. Cores to what pays (optimisation runs). Every `review` seconds (default: a tenth of the
   time limit, at least 30 s) the lanes that raised the best verified score in the last review
   window are credited. A heuristic lane (not CP-SAT, MILP or SAT, which can prove optimality)
   that ran the whole window without a credit, while another lane earned one, is stopped and
   its core goes to a new lane of the best-credited backend, started from the best board with
   a new seed. On the official Eternity II the memetic lane never raised the best in the
   runs of docs/hybrid.md, so its core goes to a second LNS; stats["adapt"] lists each change.

Everything reported passes the family's checker (core.verdict.finish) in this process.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..core.errors import InputError
from ..core.family import Family
from ..core.options import Option, Options, seconds
from ..core.progress import Progress, display
from ..core.result import Outcome, Solution, SolveOptions, SolveResult, Status
from ..core.verdict import finish
from . import budget
from .lanes import POLL, LaneSpec
from .race import Race

OPTIONS = Options(
    Option("backends", str, None, "comma list of racing backends (default: as many as the "
           "cores allow, in the order cpsat, search, ga, sat, milp)"),
    Option("hints", bool, True, "restart an exact lane from the GA's newest elite at epochs"),
    Option("cbgi", bool, True, "side exact lanes solve with the genes the GA converged on "
           "imposed"),
    Option("epoch", seconds, 2.0, "s before the first hint epoch (then doubling intervals)"),
    Option("hint_backend", str, None, "exact backend of the hint lanes (default: the first "
           "exact one racing)"),
    Option("cbgi_backend", str, None, "exact backend of the CBGI lanes (default: the first "
           "exact one racing)"),
    Option("cbgi_time", seconds, None, "s per CBGI run (default: a quarter of the limit, at "
           "least 2; 10 without -t)"),
    Option("adapt", bool, True, "--objective: a heuristic lane that raised nothing in a review "
           "window gives its core to the best-credited backend"),
    Option("review", seconds, None, "--objective: s between reviews (default: a tenth of the "
           "limit, at least 30; 60 without -t)"),
    Option("solver", str, None, "the MILP lane's solver (cbc, highs) or the SAT lane's"),
)
ROUTED = ("solver",)  # the portfolio's options that its lanes read too
GRACE = 3.0  # seconds for the cooperative stop before processes are terminated (deadline)
GRACE_WON = 1.0  # the same once a winner is known: the others' answers no longer matter




def _side_backend(params: dict, key: str, backends: list[str], family: Family) -> str | None:
    """The exact backend for a side lane: the one named, else the first exact one racing."""
    name = params.get(key)
    if name is None:
        exact = budget.exact(backends)
        return exact[0] if exact else None
    exact = [b for b in budget.EXACT_BACKENDS if budget.has_backend(family, b)]
    if name not in exact:
        raise InputError(f"--{key.replace('_', '-')} must name an exact backend of "
                         f"{family.name} ({', '.join(exact)}), got {name!r}")
    return str(name)


@dataclass
class Config:
    backends: list[str]
    threads: dict[str, int]
    hints: bool
    cbgi: bool
    epoch: float
    hint_backend: str | None
    cbgi_backend: str | None
    cbgi_time: float
    adapt: bool
    review: float
    passed: dict[str, Any]  # options for the lanes

    @classmethod
    def of(cls, family: Family, opts: SolveOptions, instance=None) -> Config:
        p = opts.params
        cores = budget.cores(opts.threads)
        backends = budget.choose(family, p.get("backends"), cores, opts.objective, instance)
        has_ga = "ga" in backends
        limit = opts.time_limit
        own = budget.check_params(family, backends, p, OPTIONS)
        return cls(
            backends=backends,
            threads=budget.threads(backends, cores),
            hints=has_ga and own["hints"],
            cbgi=has_ga and own["cbgi"],
            epoch=own["epoch"],
            hint_backend=_side_backend(own, "hint_backend", backends, family),
            cbgi_backend=_side_backend(own, "cbgi_backend", backends, family),
            cbgi_time=own.get("cbgi_time") or (max(2.0, 0.25 * limit) if limit else 10.0),
            adapt=bool(opts.objective) and own["adapt"],
            review=own.get("review") or (max(30.0, 0.1 * limit) if limit else 60.0),
            passed={k: v for k, v in p.items() if k not in OPTIONS or k in ROUTED},
        )

    def params_for(self, backend: str) -> dict[str, Any]:
        """The lane's options; `solver` goes only to the backend it names a solver of."""
        out = dict(self.passed)
        if backend == "ga" and self.cbgi:
            out["cbgi"] = "on"  # the GA fixes converged genes only when asked to
        solver = out.pop("solver", None)
        if solver is not None:
            owner = "milp" if str(solver).lower() in ("cbc", "highs") else "sat"
            if backend == owner:
                out["solver"] = solver
        return out


def _cells(partial: Solution) -> list:
    """Cells as JSON-friendly values (tuples become lists)."""
    return [list(c) if isinstance(c, tuple) else c for c in sorted(partial, key=repr)]


class Portfolio:
    """One portfolio solve. `run()` returns the verified SolveResult."""

    def __init__(self, family: Family, instance, path: str, opts: SolveOptions, fmt=None):
        if opts.count:
            raise InputError("--count is not supported by the portfolio; use one backend")
        self.family, self.instance, self.path, self.fmt, self.opts = (
            family, instance, path, fmt, opts)
        self.cfg = Config.of(family, opts, instance)
        self.race = Race()
        self.t0 = time.perf_counter()
        left = opts.remaining()  # reading the instance (and the CLI's start-up) counted
        self.deadline = None if left is None else self.t0 + left
        self.winner: tuple[str, SolveResult] | None = None
        self.best: tuple[str, SolveResult] | None = None  # best verified feasible / board
        self.records: dict[str, dict] = {}
        self.roles: dict[str, str] = {}
        # hint flow
        self.elite: tuple[Solution, float | None] | None = None
        self.elite_version = 0
        self.hinted_version = 0
        self.next_epoch = self.t0 + self.cfg.epoch
        self.epoch_gap = self.cfg.epoch
        self.hint_runs: list[dict] = []
        # CBGI
        self.cbgi_pending: Solution | None = None
        self.cbgi_tried: set = set()
        self.cbgi_runs: list[dict] = []
        self.released: list[dict] = []
        self.counter = 0
        self.progress = Progress(opts.progress_jsonl, display(opts), scored=bool(opts.objective))
        # adaptive lanes: when each lane raised the best score
        self.credits: dict[str, list[float]] = {}
        self.next_review = self.t0 + self.cfg.review
        self.adaptations: list[dict] = []
        self.retired: set[str] = set()  # lanes stopped by a review

    # --- lanes ---------------------------------------------------------------------------
    def now(self) -> float:
        return time.perf_counter() - self.t0

    def remaining(self) -> float | None:
        return None if self.deadline is None else max(0.05, self.deadline - time.perf_counter())

    def _start(self, name: str, backend: str, role: str, threads: int, limit: float | None,
               seed: int | None = None, **extra) -> None:
        spec = LaneSpec(
            name=name,
            backend=backend,
            path=self.path,
            fmt=self.fmt,
            family=self.family.name,
            time_limit=limit,
            seed=self.opts.seed if seed is None else seed,
            threads=threads,
            objective=self.opts.objective,
            params=self.cfg.params_for(backend),
            stream=backend == "ga" or bool(self.opts.objective),
            deadline=None if self.deadline is None
            else time.time() + (self.deadline - time.perf_counter()),
            **extra,
        )
        if role in ("hint", "cbgi"):
            # a symmetry-breaking pin may contradict the GA's board, which can sit in any of
            # the symmetric positions: the wrong genes would then be the pin's, not the GA's
            spec.params["no_symmetry"] = "true"
        self.race.start(spec)
        self.roles[name] = role
        self.records[name] = {"backend": backend, "role": role, "threads": threads,
                              "started": round(self.now(), 3), "status": "running"}

    def start(self) -> None:
        for b in self.cfg.backends:
            self._start(b, b, "race", self.cfg.threads[b], self.remaining(),
                        cbgi=b == "ga" and self.cfg.cbgi)

    def _side_name(self, backend: str, kind: str) -> str:
        self.counter += 1
        return f"{backend}+{kind}{self.counter}"

    # --- events --------------------------------------------------------------------------
    def handle(self, msg: tuple) -> None:
        kind, name = msg[0], msg[1]
        if kind == "elite":
            self.on_elite(name, msg[2], msg[3], msg[4] if len(msg) > 4 else None)
        elif kind == "fixed":
            self.on_fixed(msg[2])
        elif kind == "released":
            for rel in self.released:
                if rel["cells"] == _cells(dict.fromkeys(msg[2])):
                    rel["acknowledged"] = True
        elif kind == "report":
            self.progress.update(name, msg[2])
        elif kind == "done":
            self.progress.update(name, {"status": msg[2].status.value})
            self.on_done(name, msg[2], msg[3])
        elif kind == "error":
            self.records[name].update(status="error", error=msg[2], seconds=round(msg[3], 4))

    def on_elite(self, lane: str, solution: Solution, fitness: float | None,
                 source: str | None = None) -> None:
        if self.roles.get(lane) != "race" or self.records[lane]["backend"] != "ga":
            # an exact lane's incumbent (optimisation): keep it in case the lane is killed
            self._offer(lane, Outcome(Status.FEASIBLE, solution, fitness), 0.0, source)
            return
        if self.opts.objective:  # a scored board from the GA counts as it comes
            self._offer(lane, Outcome(Status.FEASIBLE, solution, fitness), 0.0, source or "ga")
        if self.elite is None or fitness is None or self.elite[1] is None or \
                fitness > self.elite[1]:
            self.elite = (solution, fitness)
            self.elite_version += 1

    def on_fixed(self, partial: Solution) -> None:
        """The GA reports converged genes: impose them in a side exact run (one at a time)."""
        if not self.cfg.cbgi or not self.cfg.cbgi_backend or not partial:
            return
        key = frozenset(partial.items())
        if key in self.cbgi_tried:
            return
        self.cbgi_pending = dict(partial)

    def on_done(self, name: str, outcome: Outcome, seconds: float) -> None:
        rec = self.records[name]
        rec.update(status=outcome.status.value, seconds=round(seconds, 4),
                   objective=outcome.objective, stats=outcome.stats)
        role = self.roles[name]
        if role == "cbgi":
            self._cbgi_done(name, outcome, seconds)
            return
        if role == "hint" and rec.get("superseded"):
            rec["note"] = "superseded by a newer hint"
        self._offer(name, outcome, seconds)

    def _cbgi_done(self, name: str, outcome: Outcome, seconds: float) -> None:
        run = next(r for r in self.cbgi_runs if r["lane"] == name)
        run["result"] = outcome.status.value
        run["seconds"] = round(seconds, 4)
        if outcome.status == Status.INFEASIBLE:
            # the population converged on genes no solution has: release them in the GA
            partial = run["partial"]
            self.released.append({"at": round(self.now(), 3), "cells": _cells(partial),
                                  "genes": len(partial), "proved_by": name,
                                  "acknowledged": False})
            for lane, role in self.roles.items():
                if role == "race" and self.records[lane]["backend"] == "ga":
                    self.race.send(lane, ("release", partial))
            return
        if outcome.status in (Status.SOLVED, Status.FEASIBLE) and self.opts.objective:
            # optimal under fixed genes is only feasible overall
            outcome = Outcome(Status.FEASIBLE, outcome.solution, outcome.objective,
                              None, outcome.stats)
        if outcome.status in (Status.SOLVED, Status.FEASIBLE):
            self._offer(name, outcome, seconds)

    def _offer(self, name: str, outcome: Outcome, seconds: float,
               source: str | None = None) -> None:
        """Verify a lane's answer; a verified solution or a proof ends the race."""
        if self.winner is not None:
            return
        res = finish(self.family, self.instance, self.path, name, outcome, self.opts, seconds)
        if name in self.records and res.status == Status.ERROR:
            self.records[name]["verification"] = "failed"
        if (res.status == Status.SOLVED and res.verified) or res.status == Status.INFEASIBLE:
            self.winner = (name, res)
            return
        if res.solution is None:
            return
        if self.best is None or _better(res, self.best[1]):
            if res.verified:  # a verified strict improvement: credit the lane
                self.credits.setdefault(name, []).append(time.perf_counter())
            self.best = (name, res)
            if res.verified and self.opts.objective:
                self._progress(name, res, outcome.solution, source)

    def _progress(self, lane: str, res: SolveResult, solution: Solution,
                  source: str | None) -> None:
        if self.progress.max_score is None:
            rep = self.family.verify(self.instance, solution, self.opts.objective)
            self.progress.max_score = rep.max_score
        self.progress.note(res.objective, source or self.records.get(lane, {}).get("backend"),
                           lane)

    # --- the clock -----------------------------------------------------------------------
    def tick(self) -> None:
        """Start side runs that are due: a hinted exact run at an epoch, a pending CBGI run."""
        if self.winner is not None:
            return
        if self.cfg.adapt and time.perf_counter() >= self.next_review:
            self.review()
        running = {ln.spec.name for ln in self.race.running()}
        if self.cfg.hints and self.cfg.hint_backend and self.elite is not None and \
                time.perf_counter() >= self.next_epoch:
            self.next_epoch = time.perf_counter() + self.epoch_gap
            self.epoch_gap *= 2
            if self.elite_version != self.hinted_version:
                self._start_hint(running)
        if self.cbgi_pending is not None and self.cfg.cbgi_backend and not any(
                self.roles.get(n) == "cbgi" for n in running):
            partial, self.cbgi_pending = self.cbgi_pending, None
            self.cbgi_tried.add(frozenset(partial.items()))
            name = self._side_name(self.cfg.cbgi_backend, "cbgi")
            rem = self.remaining()
            limit = self.cfg.cbgi_time if rem is None else min(rem, self.cfg.cbgi_time)
            self._start(name, self.cfg.cbgi_backend, "cbgi", 1, limit, fix=partial)
            self.cbgi_runs.append({"lane": name, "at": round(self.now(), 3),
                                   "genes": len(partial), "partial": partial, "result": None})

    def review(self) -> None:
        """Move the core of a heuristic lane that did not raise the best score in the last
        window to the backend that did most (see 4. in the module docstring)."""
        now = time.perf_counter()
        self.next_review = now + self.cfg.review
        if self.best is None or not self.best[1].verified:
            return
        since = now - self.cfg.review
        recent = {n: sum(t >= since for t in ts) for n, ts in self.credits.items()}
        earners = [n for n, k in recent.items() if k > 0 and n in self.records]
        if not earners:
            return  # nobody is improving: no evidence to move a core on
        donor = max(earners, key=lambda n: recent[n])
        backend = self.records[donor]["backend"]
        for lane in self.race.running():
            name = lane.spec.name
            rec = self.records.get(name, {})
            if self.roles.get(name) != "race" or name in earners or name in self.retired or \
                    rec.get("backend") in budget.EXACT_BACKENDS or \
                    now - self.t0 - rec.get("started", 0.0) < self.cfg.review:
                continue
            self.race.stop(name)  # cooperative: it may run on a moment, never replaced twice
            self.retired.add(name)
            rec["note"] = f"stopped at {round(self.now(), 1)} s: no gain in {self.cfg.review:g} s"
            new = self._side_name(backend, "adapt")
            self._start(new, backend, "race", 1, self.remaining(),
                        seed=self.opts.seed + 7919 * self.counter,
                        hint=self._best_board())
            self.adaptations.append({"at": round(self.now(), 3), "stopped": name,
                                     "started": new, "credited": donor,
                                     "gains_in_window": recent[donor]})

    def _best_board(self) -> Solution:
        """The best verified board as the family's Solution (results carry its JSON form);
        an adaptive lane starts from it whatever its backend (a GA lane once failed on the
        JSON form: 'too many values to unpack')."""
        return self.family.solution_from_json(self.instance, self.best[1].solution, "<best>")

    def _start_hint(self, running: set) -> None:
        sol, fit = self.elite
        for n in running:
            if self.roles.get(n) == "hint":
                self.records[n]["superseded"] = True
                self.race.stop(n)
        name = self._side_name(self.cfg.hint_backend, "hint")
        self._start(name, self.cfg.hint_backend, "hint", 1, self.remaining(), hint=sol,
                    complete_hint=self._partial(sol))
        self.hinted_version = self.elite_version
        self.hint_runs.append({"lane": name, "at": round(self.now(), 3), "fitness": fit,
                               "cells": len(sol)})

    def _partial(self, sol: Solution) -> bool:
        """Does the hint leave cells open? (Then it is completed before use.)"""
        rep = self.family.verify(self.instance, sol, self.opts.objective)
        return any(v.kind in ("empty-cell", "missing", "empty") for v in rep.violations)

    def finished(self) -> bool:
        if self.winner is not None:
            return True
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            return True
        # nothing running and nothing that could start: every lane has given its answer
        return not self.race.running() and self.cbgi_pending is None

    def grace(self) -> float:
        """Seconds the lanes get to stop by themselves before they are terminated: within
        the limit's allowance (a tenth of it, at least 1 s), half of which is left for the
        rest (3 s of grace overran `-t 5` by 3-14 s at a load of 13)."""
        full = GRACE if self.winner is None else GRACE_WON
        limit = self.opts.time_limit
        return full if limit is None else min(full, max(0.5, 0.05 * limit))

    # --- the whole solve -----------------------------------------------------------------
    def run(self) -> SolveResult:
        try:
            self.start()
            while not self.finished():
                wait = POLL * 2
                if self.deadline is not None:
                    wait = min(wait, max(0.0, self.deadline - time.perf_counter()))
                msg = self.race.get(wait)
                if msg is not None:
                    self.handle(msg)
                else:
                    for lost in self.race.reap():
                        self.handle(lost)
                self.tick()
        except KeyboardInterrupt:
            self.race.kill_all()
            raise
        finally:
            self.race.shutdown(self.grace(),
                               on_message=self._late)
            self.progress.close()
        return self.result()

    def _late(self, msg: tuple) -> None:
        """Messages during shutdown: final answers still count (best boards, late proofs)."""
        if msg[0] in ("done", "error", "released", "report"):
            self.handle(msg)
        elif msg[0] == "elite":
            self.on_elite(msg[1], msg[2], msg[3], msg[4] if len(msg) > 4 else None)

    def result(self) -> SolveResult:
        seconds = time.perf_counter() - self.t0
        for rec in self.records.values():
            if rec["status"] == "running":
                rec["status"] = "stopped"
        if self.winner is None and self.elite is not None:
            fitness = self.elite[1] if self.opts.objective else None
            self._offer("ga", Outcome(Status.TIMEOUT, self.elite[0], fitness), seconds)
        picked = self.winner or self.best
        if picked is None:
            errors = [f"{n}: {r['error']}" for n, r in self.records.items() if r.get("error")]
            all_failed = errors and all(r["status"] == "error" for r in self.records.values())
            res = SolveResult(self.path, self.family.name, "portfolio",
                              Status.ERROR if all_failed else Status.TIMEOUT, False, seconds,
                              seed=self.opts.seed)
            if all_failed:
                res.stats["error"] = "; ".join(errors)
            name = None
        else:
            name, res = picked
        res.backend = "portfolio"
        res.seconds = seconds
        lane_stats = res.stats
        res.stats = {
            "winner": name if self.winner is not None else None,
            "best_from": name,
            "backends": self.records,
            "threads": self.cfg.threads,
            "hints": {"enabled": self.cfg.hints, "backend": self.cfg.hint_backend,
                      "runs": self.hint_runs},
            "cbgi": {"enabled": self.cfg.cbgi, "backend": self.cfg.cbgi_backend,
                     "runs": [{k: v for k, v in r.items() if k != "partial"}
                              for r in self.cbgi_runs],
                     "released": self.released},
        }
        if self.opts.objective:
            res.stats["adapt"] = {"enabled": self.cfg.adapt, "review": self.cfg.review,
                                  "changes": self.adaptations}
        for key in ("error", "broken_rules"):  # why it failed; how far its best board is
            if lane_stats.get(key):
                res.stats[key] = lane_stats[key]
        return res


def _better(a: SolveResult, b: SolveResult) -> bool:
    """Verified beats unverified; then the higher objective."""
    if a.verified != b.verified:
        return a.verified
    return (a.objective if a.objective is not None else float("-inf")) > (
        b.objective if b.objective is not None else float("-inf"))


def solve_portfolio(family: Family, instance, path: str, opts: SolveOptions,
                    fmt: str | None = None) -> SolveResult:
    return Portfolio(family, instance, path, opts, fmt).run()
