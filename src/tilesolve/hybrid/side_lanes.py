"""The GA feeds the exact solvers through side lanes (see 2. and 3. in hybrid.portfolio).

- `HintFlow`: at epochs (the first after `--epoch` seconds, then at doubling intervals) an
  exact lane `<backend>+hintK` is (re)started with the GA's newest elite as a hint, when it
  improved since the last one; a partial hint is completed first (hybrid.lanes.complete).
- `Cbgi`: genes the GA population has converged on arrive as a partial assignment; a side
  exact lane `<backend>+cbgiK` solves with them imposed. A solution is offered to the race; a
  proof of infeasibility means the GA converged wrongly: the genes are released in the GA.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..core.result import Outcome, Solution, Status

if TYPE_CHECKING:
    from .portfolio import Portfolio


def cells(partial: Solution) -> list:
    """Cells as JSON-friendly values (tuples become lists)."""
    return [list(c) if isinstance(c, tuple) else c for c in sorted(partial, key=repr)]


class HintFlow:
    """The GA's elite, and the hinted exact lanes started from it."""

    def __init__(self, pf: Portfolio) -> None:
        self.pf = pf
        self.elite: tuple[Solution, float | None] | None = None
        self.version = 0  # raised with each better elite
        self.hinted_version = 0  # the elite the newest hint lane started from
        self.next_epoch = pf.t0 + pf.cfg.epoch
        self.gap = pf.cfg.epoch
        self.runs: list[dict] = []

    def note(self, solution: Solution, fitness: float | None) -> None:
        """An elite streamed by the racing GA: kept when it is better than the last."""
        if self.elite is None or fitness is None or self.elite[1] is None or \
                fitness > self.elite[1]:
            self.elite = (solution, fitness)
            self.version += 1

    def tick(self, running: set[str]) -> None:
        """At an epoch, restart the hint lane from the elite if it improved since."""
        cfg = self.pf.cfg
        if not (cfg.hints and cfg.hint_backend and self.elite is not None) or \
                time.perf_counter() < self.next_epoch:
            return
        self.next_epoch = time.perf_counter() + self.gap
        self.gap *= 2
        if self.version != self.hinted_version:
            self._start(running)

    def _start(self, running: set[str]) -> None:
        pf, (sol, fit) = self.pf, self.elite
        for n in running:
            if pf.standings.roles.get(n) == "hint":
                pf.standings.records[n]["superseded"] = True
                pf.race.stop(n)
        name = pf.side_name(pf.cfg.hint_backend, "hint")
        pf.start_lane(name, pf.cfg.hint_backend, "hint", 1, pf.remaining(), hint=sol,
                      complete_hint=self._partial(sol))
        self.hinted_version = self.version
        self.runs.append({"lane": name, "at": round(pf.now(), 3), "fitness": fit,
                          "cells": len(sol)})

    def _partial(self, sol: Solution) -> bool:
        """Does the hint leave cells open? (Then it is completed before use.)"""
        pf = self.pf
        rep = pf.family.verify(pf.instance, sol, pf.opts.objective)
        return any(v.kind in ("empty-cell", "missing", "empty") for v in rep.violations)

    def stats(self) -> dict:
        return {"enabled": self.pf.cfg.hints, "backend": self.pf.cfg.hint_backend,
                "runs": self.runs}


class Cbgi:
    """Converged genes imposed in a side exact lane, one run at a time; released when wrong."""

    def __init__(self, pf: Portfolio) -> None:
        self.pf = pf
        self.pending: Solution | None = None
        self.tried: set = set()
        self.runs: list[dict] = []
        self.released: list[dict] = []

    def on_fixed(self, partial: Solution) -> None:
        """The GA reports converged genes: impose them in a side exact run (one at a time)."""
        cfg = self.pf.cfg
        if not cfg.cbgi or not cfg.cbgi_backend or not partial:
            return
        if frozenset(partial.items()) in self.tried:
            return
        self.pending = dict(partial)

    def tick(self, running: set[str]) -> None:
        """Start the pending run once no CBGI lane runs."""
        pf = self.pf
        if self.pending is None or not pf.cfg.cbgi_backend or any(
                pf.standings.roles.get(n) == "cbgi" for n in running):
            return
        partial, self.pending = self.pending, None
        self.tried.add(frozenset(partial.items()))
        name = pf.side_name(pf.cfg.cbgi_backend, "cbgi")
        rem = pf.remaining()
        limit = pf.cfg.cbgi_time if rem is None else min(rem, pf.cfg.cbgi_time)
        pf.start_lane(name, pf.cfg.cbgi_backend, "cbgi", 1, limit, fix=partial)
        self.runs.append({"lane": name, "at": round(pf.now(), 3), "genes": len(partial),
                          "partial": partial, "result": None})

    def done(self, name: str, outcome: Outcome, seconds: float) -> None:
        pf = self.pf
        run = next(r for r in self.runs if r["lane"] == name)
        run["result"] = outcome.status.value
        run["seconds"] = round(seconds, 4)
        if outcome.status == Status.INFEASIBLE:
            # the population converged on genes no solution has: release them in the GA
            partial = run["partial"]
            self.released.append({"at": round(pf.now(), 3), "cells": cells(partial),
                                  "genes": len(partial), "proved_by": name,
                                  "acknowledged": False})
            for lane in pf.standings.racing("ga"):
                pf.race.send(lane, ("release", partial))
            return
        if outcome.status in (Status.SOLVED, Status.FEASIBLE) and pf.opts.objective:
            # optimal under fixed genes is only feasible overall
            outcome = Outcome(Status.FEASIBLE, outcome.solution, outcome.objective,
                              None, outcome.stats)
        if outcome.status in (Status.SOLVED, Status.FEASIBLE):
            pf.standings.offer(name, outcome, seconds)

    def acknowledged(self, released: list) -> None:
        """The GA has unfixed the genes of a release."""
        for rel in self.released:
            if rel["cells"] == cells(dict.fromkeys(released)):
                rel["acknowledged"] = True

    def stats(self) -> dict:
        out = {"enabled": self.pf.cfg.cbgi, "backend": self.pf.cfg.cbgi_backend,
               "runs": [{k: v for k, v in r.items() if k != "partial"} for r in self.runs],
               "released": self.released}
        records = self.pf.standings.records
        off = {(records[n].get("stats") or {}).get("cbgi_off") for n in
               self.pf.standings.racing("ga")}
        if off and None not in off:  # every GA lane ran without it: say why
            out["enabled"], out["off"] = False, off.pop()
        return out
