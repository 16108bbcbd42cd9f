"""Cores to what pays (optimisation runs; see 4. in hybrid.portfolio).

Every `review` seconds the lanes that raised the best verified score in the last window are
credited; a heuristic lane that ran the whole window without a credit, while another lane
earned one, is stopped and its core goes to a new lane of the best-credited backend, started
from the best board with a new seed. A lane sent the best board (shared boards) is working from
it: it gets a whole window from that board before a review may stop it (on the Tantrix Loop
the lns, adopting CP-SAT's boards, was stopped at 90 s two seconds before its best board).
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from ..core.family import EXACT_BACKENDS
from .streams import stream_seed  # drawn, not seed + 7919 k: the break search's own restarts

if TYPE_CHECKING:
    from .portfolio import Portfolio


class Reallocation:
    """Credits per lane, and the changes each review made."""

    def __init__(self, pf: Portfolio) -> None:
        self.pf = pf
        self.credits: dict[str, list[float]] = {}  # when each lane raised the best score
        self.next_review = pf.t0 + pf.cfg.review
        self.changes: list[dict] = []
        self.retired: set[str] = set()  # lanes stopped by a review
        self.boards: dict[str, float] = {}  # when each lane was last sent the best board

    def credit(self, lane: str) -> None:
        """The lane raised the best verified board."""
        self.credits.setdefault(lane, []).append(time.perf_counter())

    def handed(self, lane: str) -> None:
        """The lane was sent the best board to work from."""
        self.boards[lane] = time.perf_counter()

    def had_a_window(self, lane: str, rec: dict, now: float) -> bool:
        """A whole review window since the lane started, or since it was last sent a board."""
        since = max(self.pf.t0 + rec.get("started", 0.0), self.boards.get(lane, -math.inf))
        return now - since >= self.pf.cfg.review

    def tick(self) -> None:
        if self.pf.cfg.adapt and time.perf_counter() >= self.next_review:
            self.review()

    def review(self) -> None:
        """Move the core of a heuristic lane that did not raise the best score in the last
        window to the backend that did most."""
        pf, window = self.pf, self.pf.cfg.review
        now = time.perf_counter()
        self.next_review = now + window
        best = pf.standings.best
        if best is None or not best[1].verified:
            return
        records = pf.standings.records
        recent = {n: sum(t >= now - window for t in ts) for n, ts in self.credits.items()}
        earners = [n for n, k in recent.items() if k > 0 and n in records]
        if not earners:
            return  # nobody is improving: no evidence to move a core on
        donor = max(earners, key=lambda n: recent[n])
        backend = records[donor]["backend"]
        for lane in pf.race.running():
            name = lane.spec.name
            rec = records.get(name, {})
            if pf.standings.roles.get(name) != "race" or name in earners or \
                    name in self.retired or rec.get("backend") in EXACT_BACKENDS or \
                    not self.had_a_window(name, rec, now):
                continue
            pf.race.stop(name)  # cooperative: it may run on a moment, never replaced twice
            self.retired.add(name)
            rec["note"] = f"stopped at {round(pf.now(), 1)} s: no gain in {window:g} s"
            new = pf.side_name(backend, "adapt")
            pf.start_lane(new, backend, "race", 1, pf.remaining(),
                          seed=stream_seed(pf.opts.seed, pf.counter, 0, 2), hint=best[1].board)
            self.changes.append({"at": round(pf.now(), 3), "stopped": name, "started": new,
                                 "credited": donor, "gains_in_window": recent[donor]})

    def stats(self) -> dict:
        return {"enabled": self.pf.cfg.adapt, "review": self.pf.cfg.review,
                "changes": self.changes}
