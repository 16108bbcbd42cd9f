"""Live progress of a solve: what the solvers report on the way, on stderr and as JSON lines.

Solvers call `opts.report(**fields)` (core.result.SolveOptions) at natural points: a CP-SAT
solution, a MILP or SAT round, a GA generation, a search chunk. It is a no-op unless a
`Progress` listens. The fields, all optional, are plain numbers:

    best       the solver's own best objective or fitness so far (higher is better)
    max        the most `best` can be (a GA's target, a SAT maximiser's literal count)
    bound      a proven bound on the objective (CP-SAT's best bound)
    round, cuts              lazy-cut rounds and the cuts or clauses added (MILP, SAT)
    conflicts                CP-SAT, SAT
    generation, evaluations  GA
    nodes, depth, restarts   tree searches
    status     a lane's final status, reported once when it returns

A `Progress` shows them as one rich status line on stderr, refreshed four times a second,
appearing after a second (so quick solves print nothing) and cleared at the end: elapsed time,
the best verified score with its maximum and the lane that found it, then each lane's latest
fields. It is shown when stderr is a terminal (`display`; --quiet turns it off, the
environment variable TILESOLVE_PROGRESS=1 forces it on, =0 off). With -v the same line is
printed every LOG_GAP seconds as a log line instead, between the solver's own log lines
(a status line redrawn in place would tear them); for the GA, the searches and SAT, which
have no log of their own, these lines are the log.

Improvements are streamed as JSON lines to a file when asked (`--log-jsonl FILE`): {"t":
seconds, "score": s, "max": m, "source": ..., "lane": ..., "verified": true} for every better
verified score (optimisation runs; islands add "island", "method", "epoch"), and without an
objective every better `best` a solver reports ("verified": false: a GA's fitness, say).
With `boards` (--log-boards) each verified line also holds the board as "solution", in the
form `solve --json` prints it, so that a line saved as a file is read by `tilesolve verify`.
Lines are flushed at once, so `tail -f` follows a run.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from typing import IO, Any

DELAY = 1.0  # seconds before the status line appears: quick solves stay silent
REFRESH = 0.25  # seconds between two redraws of the status line
LOG_GAP = 2.0  # seconds between two progress lines with -v
LABELS = {"generation": "gen", "evaluations": "evals", "conflicts": "confl"}
FIRST = ("best", "bound")  # shown first in a lane's fields: a narrow terminal cuts the end


def display(opts) -> str | None:
    """How a solve with these options shows progress on stderr: "live" (the status line),
    "log" (-v: progress lines among the solver's log lines) or None."""
    if opts.progress is False:  # --quiet, and library calls unless they ask
        return None
    if opts.verbose:
        return "log"
    forced = os.environ.get("TILESOLVE_PROGRESS", "").strip().lower()
    if opts.progress or (forced and forced not in ("0", "off", "false", "no")) or \
            (not forced and sys.stderr.isatty()):
        return "live"
    return None


def number(value: Any) -> str:
    """A compact number: 12.3k, 4.56M, 0.25; anything else as it is."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if abs(value) >= 1e6:
        return f"{value / 1e6:.3g}M"
    if abs(value) >= 1e4:
        return f"{value / 1e3:.3g}k"
    return f"{value:.4g}" if isinstance(value, float) else str(value)


class Progress:
    def __init__(self, jsonl: str | None = None, show: str | None = None,
                 max_score: float | None = None, scored: bool = True,
                 delay: float = DELAY, boards: bool = False) -> None:
        """`show`: "live" (the status line on stderr, drawn even when stderr is not a
        terminal), "log" (a line every LOG_GAP seconds) or None; `scored`: verified scores
        come through `note` (optimisation), so reported `best` values are not logged as
        improvements; `boards`: verified lines carry their board."""
        self.boards = boards
        self.t0 = time.perf_counter()
        self.best: float | None = None
        self.best_lane: str | None = None
        self.max_score = max_score
        self.scored = scored
        self.reported: float | None = None  # the best `best` any lane reported
        self.lanes: dict[str, dict[str, Any]] = {}
        self.lock = threading.Lock()
        self.path = jsonl
        self.file: IO[str] | None = open(jsonl, "a", encoding="utf-8") if jsonl else None
        self.log_error: str | None = None  # why the log stopped, when it did
        self.done = threading.Event()
        self.thread: threading.Thread | None = None
        if show:
            draw = self._draw if show == "live" else self._print
            self.thread = threading.Thread(target=draw, args=(delay,), daemon=True)
            self.thread.start()

    def elapsed(self) -> float:
        return round(time.perf_counter() - self.t0, 3)

    def _log(self, line: dict) -> None:
        if self.file is None:
            return
        try:
            self.file.write(json.dumps(line) + "\n")
            self.file.flush()
        except OSError as e:  # a full disk (or /dev/full) ends the log, never the run
            self._stop_log(e)

    def _stop_log(self, e: OSError) -> None:
        """Warn once, in one line, and log no more."""
        file, self.file = self.file, None
        with contextlib.suppress(OSError):
            file.close()  # flushes what is buffered: it fails the same way
        if self.log_error is None:
            self.log_error = e.strerror or str(e)
            print(f"warning: --log-jsonl {self.path}: cannot write ({self.log_error}); the run "
                  "goes on without its log", file=sys.stderr)

    def note(self, score: float | None, source: str | None, lane: str | None = None,
             result=None, **extra) -> bool:
        """Record a verified score; True when it beats the best so far. `extra` fields (an
        island's number and method, say) go into the JSON line as they are; `result`, the
        SolveResult scored, gives the line its board when `boards` asks for it."""
        with self.lock:
            if score is None or (self.best is not None and score <= self.best):
                return False
            self.best = score
            self.best_lane = source if lane in (None, source) else f"{lane}/{source}"
            if self.boards and result is not None and self.file is not None:
                extra["solution"] = result.solution
            self._log({"t": self.elapsed(), "score": score, "max": self.max_score,
                       "source": source, "lane": lane, "verified": True, **extra})
        return True

    def update(self, lane: str, fields: dict[str, Any]) -> None:
        """A solver's report (see the module docstring): the lane's latest fields."""
        with self.lock:  # a field a solver cannot tell this time (None) keeps its last value
            self.lanes.setdefault(lane, {}).update(
                (k, v) for k, v in fields.items() if v is not None)
            best = fields.get("best")
            if not self.scored and best is not None and \
                    (self.reported is None or best > self.reported):
                self.reported = best
                self._log({"t": self.elapsed(), "score": best, "max": fields.get("max"),
                           "source": lane, "lane": lane, "verified": False})

    def line(self) -> str:
        """The status line: elapsed time, the verified best and each lane's latest fields."""
        with self.lock:
            parts = [f"{time.perf_counter() - self.t0:6.1f} s"]
            if self.best is not None:
                of = f"/{self.max_score:g}" if self.max_score is not None else ""
                parts.append(f"best {self.best:g}{of} ({self.best_lane})")
            for lane, fields in self.lanes.items():
                parts.append(f"{lane}: " + _fields(fields))
        return " | ".join(parts)

    def _draw(self, delay: float) -> None:
        if self.done.wait(delay):
            return
        from rich.console import Console
        from rich.live import Live
        from rich.text import Text

        console = Console(stderr=True, force_terminal=True)
        with Live(console=console, transient=True, auto_refresh=False) as live:
            while not self.done.is_set():  # a thread-local Event: safe to wait on
                live.update(Text(self.line(), no_wrap=True, overflow="ellipsis"), refresh=True)
                self.done.wait(REFRESH)

    def _print(self, delay: float) -> None:
        if self.done.wait(delay):
            return
        from rich.console import Console

        console = Console(stderr=True, soft_wrap=True, highlight=False)
        while True:
            console.print(self.line(), markup=False)
            if self.done.wait(LOG_GAP):
                return

    def close(self) -> None:
        """Clear the status line and close the log."""
        self.done.set()
        if self.thread is not None:
            self.thread.join()
            self.thread = None
        if self.file is not None:
            try:
                self.file.close()
            except OSError as e:
                self._stop_log(e)
            self.file = None


def _fields(fields: dict[str, Any]) -> str:
    """A lane's fields as `best 351/480 gen 812 ...`, the final status first."""
    out = [str(fields["status"])] if "status" in fields else []
    for key in sorted(fields, key=lambda k: FIRST.index(k) if k in FIRST else len(FIRST)):
        value = fields[key]
        if key in ("status", "max") or value is None:
            continue
        text = number(value)
        if key == "best" and fields.get("max") is not None:
            text += "/" + number(fields["max"])
        out.append(f"{LABELS.get(key, key)} {text}")
    return " ".join(out)
