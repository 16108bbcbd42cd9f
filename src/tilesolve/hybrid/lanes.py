"""One lane of the race: a backend run in its own process, built from plain instance data.

The parent sends a `LaneSpec` (picklable: the instance path and format, never a solver model:
a CpModel cannot be pickled) and gets messages back on one queue:

    ("elite", lane, solution, fitness, source)   an improving solution streamed by the
                                         backend; source: the method that found it, or None
    ("report", lane, fields)             the solver's progress (opts.report, core.progress),
                                         the latest fields merged, at most every 0.1 s
    ("fixed", lane, partial)             genes the GA population has converged on (CBGI)
    ("released", lane, cells)            the GA has unfixed genes the parent asked it to release
    ("done", lane, outcome, seconds)     the backend returned (outcome: core.result.Outcome)
    ("error", lane, message, seconds)    the backend raised

and a control queue the other way: ("release", partial) for the GA (CBGI), and
("board", solution, score) for an optimisation lane: the run's best verified board, which the
backend may take up (`Inbox`, opts.params["inbox"]; the LNS and memetic lanes of edge matching
restart from it).

A child ignores SIGINT (the parent coordinates Ctrl-C), leads its own process group (so a
kill reaches a solver binary it started, e.g. CBC), and stops by itself when the process
running the race dies.
"""

from __future__ import annotations

import os
import queue
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import InputError
from ..core.family import load_instance
from ..core.result import Outcome, Solution, SolveOptions, Status
from ..core.solve import backend_share, run_validated

MARGIN = 0.3  # seconds left to hand the answer back before the parent's deadline
POLL = 0.05  # seconds between looks at flags and queues; never block on an Event (cpython#75158)


@dataclass
class LaneSpec:
    name: str  # "cpsat", "ga", "cpsat+hint", "cpsat+cbgi"...
    backend: str  # family backend name: cpsat | milp | sat | ga
    path: str
    fmt: str | None
    family: str
    time_limit: float | None
    seed: int
    threads: int
    objective: str | None
    params: dict[str, Any] = field(default_factory=dict)
    hint: Solution | None = None
    fix: Solution | None = None
    complete_hint: bool = False  # complete a hint by a quick solve with it fixed (see below)
    stream: bool = False  # forward improving solutions (opts.on_solution) to the parent
    cbgi: bool = False  # connect the GA's converged-gene reports and releases
    deadline: float | None = None  # wall clock (time.time()) by which the answer is due
    owner: int = field(default_factory=os.getpid)  # the process that runs the race


def alive(pid: int) -> bool:
    """Is `pid` running (not gone, not a zombie its parent has yet to reap)?"""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            stat = fh.read()
        return stat[stat.rfind(")") + 2 :][:1] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        return True


class LaneStop:
    """The lane's stop request: the race's Event, or the process running the race having died.

    A lane's parent is the forkserver, not the process running the race, and the forkserver
    outlives it: after a kill -9 of a portfolio run, lanes that watched their parent kept
    solving at full CPU (still after 87 s). The owner is watched instead.
    """

    def __init__(self, event, owner: int) -> None:
        self.event = event
        self.owner = owner
        self._gone = False
        self._looked = 0.0

    def orphaned(self) -> bool:
        now = time.monotonic()
        if not self._gone and now - self._looked >= POLL:  # solvers poll is_set() often
            self._looked = now
            self._gone = not alive(self.owner)
        return self._gone

    def is_set(self) -> bool:
        return self.event.is_set() or self.orphaned()


def _detach() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.setpgrp()
    except OSError:  # already a group leader, or not allowed: the parent still kills us
        pass


def _orphan_guard(stop: LaneStop, grace: float = 5.0) -> None:
    """If the parent dies, the solver gets `grace` seconds to notice the stop, then we exit."""

    def loop() -> None:
        while not stop.orphaned():
            time.sleep(0.2)
        time.sleep(grace)
        os._exit(1)

    threading.Thread(target=loop, daemon=True).start()


class _Throttle:
    """Forward improving solutions and progress reports at most every `gap` seconds, the
    newest always (reports merged: a GA's generations would otherwise flood the queue).

    A background flush sends what it holds even when nothing further comes.
    """

    takes_source = True  # SolveOptions.offer passes the finding method's name

    def __init__(self, out, name: str, gap: float = 0.1) -> None:
        self.out, self.name, self.gap = out, name, gap
        self.lock = threading.Lock()
        self.pending: tuple | None = None
        self.fields: dict[str, Any] = {}
        self.done = threading.Event()
        threading.Thread(target=self._loop, daemon=True).start()

    def __call__(self, solution: Solution, fitness: float | None,
                 source: str | None = None) -> None:
        with self.lock:
            self.pending = (dict(solution), fitness, source)

    def report(self, fields: dict[str, Any]) -> None:
        with self.lock:
            self.fields.update(fields)

    def _loop(self) -> None:
        while not self.done.is_set():  # a thread-local Event: safe to poll
            self.flush()
            time.sleep(self.gap)

    def flush(self) -> None:
        with self.lock:
            held, self.pending = self.pending, None
            fields, self.fields = self.fields, {}
        if held is not None:
            self.out.put(("elite", self.name, *held))
        if fields:
            self.out.put(("report", self.name, fields))

    def close(self) -> None:
        self.done.set()
        self.flush()


def complete(family, backend: str, instance, opts: SolveOptions, hint: Solution, limit: float):
    """A quick solve with the hint imposed: a complete feasible assignment, or None.

    CP-SAT uses complete feasible hints far better than partial ones (it checks them right
    after presolve and starts from them), so a partial hint is completed first.
    """
    quick = SolveOptions(
        time_limit=limit,
        seed=opts.seed,
        threads=1,
        objective=opts.objective,
        fix=dict(hint),
        stop=opts.stop,
        params=dict(opts.params),
    )
    out = run_validated(family, instance, backend, quick)
    if out.status in (Status.SOLVED, Status.FEASIBLE) and out.solution:
        return out.solution
    return None


def main(spec: LaneSpec, stop_event, out, ctrl) -> None:
    """Process entry point (module level so spawn can find it)."""
    _detach()
    stop = LaneStop(stop_event, spec.owner)
    _orphan_guard(stop)
    t0 = time.perf_counter()
    try:
        out.put(("done", spec.name, run(spec, stop, out, ctrl), time.perf_counter() - t0))
    except InputError as exc:
        out.put(("error", spec.name, str(exc), time.perf_counter() - t0))
    except Exception as exc:  # noqa: BLE001 - one lane failing must not end the race
        out.put(("error", spec.name, f"{type(exc).__name__}: {exc}", time.perf_counter() - t0))


def run(spec: LaneSpec, stop, out, ctrl) -> Outcome:
    family, instance = load_instance(spec.path, spec.fmt, spec.family)
    params = backend_share(family, spec.backend, spec.params)
    instance = family.prepare(instance, params)
    opts = SolveOptions(
        time_limit=spec.time_limit,
        seed=spec.seed,
        threads=spec.threads,
        objective=spec.objective,
        hint=spec.hint,
        fix=spec.fix,
        stop=stop,
        params=params,
    )
    throttle = None
    if out is not None:  # None: a lane run in this process, with nobody to tell
        throttle = _Throttle(out, spec.name)
        opts.on_report = throttle.report  # progress fields for the parent's status line
        if spec.stream:
            opts.on_solution = throttle
    extra: dict[str, Any] = {}
    if spec.hint and spec.complete_hint:
        t0 = time.perf_counter()
        limit = min(2.0, spec.time_limit or 2.0)
        full = complete(family, spec.backend, instance, opts, spec.hint, limit)
        extra["hint_completed"] = full is not None
        extra["hint_completion_seconds"] = round(time.perf_counter() - t0, 4)
        if full is not None:
            opts.hint = full
        if spec.time_limit is not None:
            opts.time_limit = max(0.05, spec.time_limit - (time.perf_counter() - t0))
    if spec.cbgi:
        _connect_cbgi(opts, spec.name, out, ctrl)
    elif spec.objective and ctrl is not None and (option := takes_boards(family, spec.backend)):
        _connect_inbox(opts, ctrl, option)
    if spec.deadline is not None:
        # the lane's start-up and model building count against the parent's deadline
        left = spec.deadline - time.time() - MARGIN
        opts.time_limit = max(0.05, min(left, opts.time_limit or left))
    opts.start_clock()  # model building counts against what is left
    outcome = run_validated(family, instance, spec.backend, opts)
    if throttle is not None:
        throttle.close()
    outcome.stats.update(extra)
    return outcome


def _connect_cbgi(opts: SolveOptions, name: str, out, ctrl) -> None:
    """Wire the GA engine's converged-gene reports to the parent, and releases back to it."""
    from ..backends import ga as engine

    cbgi = engine.CbgiLink()

    def on_fixed(partial: Solution) -> None:
        out.put(("fixed", name, dict(partial)))

    cbgi.on_fixed = on_fixed

    def pump() -> None:
        while not opts.stopped():
            try:
                kind, partial = ctrl.get(timeout=POLL * 4)
            except queue.Empty:
                continue
            if kind == "release":
                cbgi.release(partial)
                out.put(("released", name, list(partial)))

    threading.Thread(target=pump, daemon=True).start()
    opts.params["cbgi_link"] = cbgi


class Inbox:
    """The newest board the parent sent (a board better than the lane's own, found by another
    lane); `take` hands it over once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.held: tuple[Solution, float] | None = None
        self.received = 0

    def put(self, solution: Solution, score: float) -> None:
        with self.lock:
            self.held = (solution, score)
            self.received += 1

    def take(self) -> tuple[Solution, float] | None:
        with self.lock:
            held, self.held = self.held, None
        return held


def takes_boards(family, backend: str) -> str | None:
    """The option through which a backend takes the other lanes' boards: `inbox` (it may
    restart from them: edge matching's LNS and memetic pool), `bound` (it only has to beat
    their score: the break search), or None."""
    names = family.backend_options(backend)
    return next((name for name in ("inbox", "bound") if name in names), None)


def _connect_inbox(opts: SolveOptions, ctrl, option: str) -> None:
    """Boards from the parent (("board", solution, score)) into the backend's inbox, under
    the option it takes them by (takes_boards)."""
    inbox = Inbox()

    def pump() -> None:
        while not opts.stopped():
            try:
                msg = ctrl.get(timeout=POLL * 4)
            except queue.Empty:
                continue
            if msg[0] == "board":
                inbox.put(dict(msg[1]), msg[2])

    threading.Thread(target=pump, daemon=True).start()
    opts.params[option] = inbox
