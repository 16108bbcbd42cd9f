"""The race's bookkeeping: each lane's record and role, the winner, the best verified board.

Every answer a lane gives is turned into a result by the checker's gate (core.verdict.finish)
here, in the process running the race: a verified `solved` or a proven `infeasible` wins; any
other board is kept when it beats the best so far (verified first, then the higher score).
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.family import Family
from ..core.progress import Progress
from ..core.result import Outcome, Solution, SolveOptions, SolveResult, Status
from ..core.verdict import finish


class Standings:
    """Who runs, who answered what, who leads."""

    def __init__(self, family: Family, instance, path: str, opts: SolveOptions,
                 progress: Progress) -> None:
        self.family, self.instance, self.path, self.opts = family, instance, path, opts
        self.progress = progress
        self.records: dict[str, dict] = {}
        self.roles: dict[str, str] = {}
        self.winner: tuple[str, SolveResult] | None = None
        self.best: tuple[str, SolveResult] | None = None  # best verified feasible / board
        # told of every verified strict improvement of the best board, with its lane
        self.on_gain: Callable[[str], None] | None = None

    def started(self, name: str, backend: str, role: str, threads: int, at: float,
                limit: float | None = None) -> None:
        """A lane began `at` seconds into the race, with `limit` seconds (its time limit)."""
        self.roles[name] = role
        self.records[name] = {"backend": backend, "role": role, "threads": threads,
                              "started": round(at, 3), "status": "running",
                              "time_limit": None if limit is None else round(limit, 4)}

    def racing(self, backend: str) -> list[str]:
        """The race lanes (not side lanes) of one backend."""
        return [n for n, role in self.roles.items()
                if role == "race" and self.records[n]["backend"] == backend]

    def done(self, name: str, outcome: Outcome, seconds: float) -> None:
        self.records[name].update(status=outcome.status.value, seconds=round(seconds, 4),
                                  objective=outcome.objective, stats=outcome.stats)

    def failed(self, name: str, message: str, seconds: float) -> None:
        self.records[name].update(status="error", error=message, seconds=round(seconds, 4))

    def offer(self, name: str, outcome: Outcome, seconds: float,
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
        if res.board is None:
            return
        if self.best is None or better(res, self.best[1]):
            self.best = (name, res)
            if res.verified and self.on_gain is not None:
                self.on_gain(name)
            if res.verified and self.opts.objective:
                self._progress(name, res, outcome.solution, source)
                if self.opts.on_verified is not None:
                    self.opts.on_verified(res)

    def _progress(self, lane: str, res: SolveResult, solution: Solution,
                  source: str | None) -> None:
        if self.progress.max_score is None:
            rep = self.family.verify(self.instance, solution, self.opts.objective)
            self.progress.max_score = rep.max_score
        self.progress.note(res.objective, source or self.records.get(lane, {}).get("backend"),
                           lane, res)

    def settle(self, seconds: float) -> tuple[str | None, SolveResult]:
        """At the end: the lanes still running are marked stopped; the winner, else the best
        board, else a timeout (an error when every lane failed), with the lane it came from."""
        for rec in self.records.values():
            if rec["status"] == "running":
                rec["status"] = "stopped"
        picked = self.winner or self.best
        if picked is not None:
            return picked
        errors = [f"{n}: {r['error']}" for n, r in self.records.items() if r.get("error")]
        all_failed = errors and all(r["status"] == "error" for r in self.records.values())
        res = SolveResult(self.path, self.family.name, "portfolio",
                          Status.ERROR if all_failed else Status.TIMEOUT, False, seconds,
                          seed=self.opts.seed)
        if all_failed:
            res.stats["error"] = "; ".join(errors)
        return None, res


def better(a: SolveResult, b: SolveResult) -> bool:
    """Verified beats unverified; then the higher objective."""
    if a.verified != b.verified:
        return a.verified
    return (a.objective if a.objective is not None else float("-inf")) > (
        b.objective if b.objective is not None else float("-inf"))
