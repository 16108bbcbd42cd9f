"""Islands on Dask: long optimisation runs as tasks that exchange their best boards.

`tilesolve solve BOARD --objective matches --islands N [--scheduler ADDRESS] -t T` runs N
islands on a Dask cluster (a local one of N single-threaded worker processes by default, any
cluster with --scheduler). The run is cut into epochs. In each epoch every island is one Dask
task running one of the family's optimisers (`--island-methods`, by default the family's
objective backends: for 16x16 edge matching the LNS, whose start and row moves are the break
search, and the memetic pool of annealed break-search boards) for a slice of the time; the method
of island i in epoch e is method (i + e) mod M, so each island alternates them. A task returns
its best board; the next epoch starts every island from a migrated board (`--migration`):

- `ring` (default): island i gets the better of its own best and island i-1's;
- `best`: every island gets the best board of the run;
- `none`: no epochs and no boards passed: every island is a stream of independent tasks, each
  from no board with a seed of its own (streams.stream_seed), the next submitted as soon as one
  answers, each for at most `--epoch` s. For the break search
  (`--island-methods search --break-rule blackwood`) these are independent restart streams
  whose placements add up over workers; the backend's counters (placements, restarts, depth,
  breaks) are gathered per task, per stream, per worker and in all (`stats.streams`).

Nothing a worker says is taken on trust: boards travel as the family's JSON form, and the
client parses and scores every returned or streamed board with the family's checker
(core.verdict.finish). A worker's claimed score is only recorded beside the checker's
(`rescored` counts the boards whose claim was wrong, `rejected` those the checker refused), so
the result does not depend on which worker found a board.

Between epochs the tasks stream their improvements through a Dask queue (at most one board a
second per island), so progress (stderr, --progress-jsonl) shows every better verified score
with its island, its method and the method inside it that found it (lns, ga, backtracker).

Time: the last epoch ends by the deadline; a task that has not answered a little after its
slice is asked to stop (a Dask event it polls) and then dropped. Ctrl-C stops the tasks and
closes the local cluster with its processes.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import InputError
from ..core.family import Family, get_family
from ..core.options import Option, Options, seconds
from ..core.progress import Progress, display
from ..core.result import Outcome, Solution, SolveOptions, SolveResult, Status, StopFlag
from ..core.solve import backend_share, run_validated
from ..core.verdict import finish
from . import budget, cluster
from .lanes import MARGIN, _Throttle
from .streams import SEARCH_STATS, Trail, stream_seed, summary

MIGRATIONS = ("ring", "best", "none")
OPTIONS = Options(
    Option("epoch", seconds, None, "s between migrations, with none each task's longest "
           "slice (default: a sixth of the limit, 5 to 300)"),
    Option("migration", str, "ring", "ring: each island takes its neighbour's board when "
           "better; best: every island takes the best board; none: independent streams of "
           "seeded tasks (e.g. the break search's restarts), statistics in stats.streams",
           MIGRATIONS),
    Option("island_methods", str, None, "comma list of the islands' backends, taken in turn "
           "(default: the family's optimisers, e.g. lns,memetic)"),
)
POLL = 0.2  # seconds between looks at the queue and the tasks
STREAM_GAP = 1.0  # seconds between two boards streamed by one island
# a task may answer this long after its slice (the larger of the two) before it is asked to
# stop: on a loaded machine a memetic task of a 50 s slice answered more than 5 s late
GRACE, GRACE_SHARE = 3.0, 0.1
STRAGGLE = 2.0  # seconds an asked-to-stop task gets before it is dropped
END_MARGIN = 1.5  # the last slice ends this long before the deadline (closing takes ~1 s)


@dataclass
class IslandTask:
    """One island's work for one epoch (picklable: plain data and the prepared instance)."""

    island: int
    epoch: int
    method: str  # the family backend run on the island this epoch
    family: str
    instance: Any
    objective: str
    seed: int
    seconds: float  # the slice
    end: float  # wall clock (time.time()) by which the task must have answered
    params: dict[str, Any] = field(default_factory=dict)
    start: str | None = None  # the migrated board (the family's JSON text), the hint
    channel: str | None = None  # Dask queue for streamed improvements
    stop: str | None = None  # Dask event that asks the task to stop


# --- the worker side --------------------------------------------------------------------------
class _Watch(StopFlag):
    """The task's stop flag, set when the client sets the Dask event (polled: a solver polls
    the flag in its inner loops, which a network round trip each time would slow down)."""

    def __init__(self, name: str | None) -> None:
        super().__init__()
        if name is None:
            return
        from distributed import Event, get_client

        event = Event(name, client=get_client())

        def poll() -> None:
            while not self.is_set():
                try:
                    if event.is_set():
                        self.set()
                except Exception:  # noqa: BLE001 - the scheduler is gone: nobody waits
                    self.set()
                time.sleep(0.5)

        threading.Thread(target=poll, daemon=True).start()


def _board_text(family: Family, instance, solution: Solution) -> str:
    """A board as the family's JSON text: what `tilesolve verify` reads, and what the client
    parses before it scores the board itself."""
    return json.dumps(family.solution_json(instance, solution))


class _Queue:
    """What a _Throttle puts into: boards go on as the family's JSON form to a Dask queue."""

    def __init__(self, task: IslandTask, family: Family) -> None:
        from distributed import Queue, get_client

        self.task, self.family = task, family
        self.queue = Queue(task.channel, client=get_client())

    def put(self, msg: tuple) -> None:
        try:
            if msg[0] == "report":  # the solver's progress fields, for the status line
                self.queue.put({"island": self.task.island, "method": self.task.method,
                                "report": msg[2]})
            else:
                self._put(*msg[2:])
        except Exception:  # noqa: BLE001 - the run has ended: nobody reads the stream
            pass

    def _put(self, solution: Solution, fitness: float | None, source: str | None) -> None:
        self.queue.put({"island": self.task.island, "epoch": self.task.epoch,
                        "method": self.task.method, "source": source,
                        "claimed": None if fitness is None else float(fitness),
                        "board": _board_text(self.family, self.task.instance, solution)})


class _Recorder:
    """The solver's on_solution: notes which method found the best board so far, and
    forwards improvements to the stream."""

    takes_source = True

    def __init__(self, forward: _Throttle | None, trail: Trail) -> None:
        self.forward, self.trail = forward, trail
        self.best: float | None = None
        self.source: str | None = None

    def __call__(self, solution: Solution, fitness: float | None,
                 source: str | None = None) -> None:
        if fitness is not None and (self.best is None or fitness > self.best):
            self.best, self.source = fitness, source
            self.trail.board(fitness)
        if self.forward is not None:
            self.forward(solution, fitness, source)


def run_island(task: IslandTask) -> dict:
    """One island, one epoch (runs on a Dask worker): the method from the migrated board, for
    the slice; returns the best board with the score the method claims for it."""
    t0, cpu0 = time.perf_counter(), time.process_time()
    family = get_family(task.family)
    stream = _Throttle(_Queue(task, family), f"island{task.island}", STREAM_GAP) \
        if task.channel else None
    trail = Trail(None if stream is None else stream.report)
    record = _Recorder(stream, trail)
    opts = SolveOptions(
        time_limit=max(0.05, min(task.seconds, task.end - time.time() - MARGIN)),
        seed=task.seed, threads=1, objective=task.objective,
        hint=family.solution_from_json(task.instance, json.loads(task.start), "<migrant>")
        if task.start else None,
        stop=_Watch(task.stop), on_solution=record,
        on_report=trail,
        params=backend_share(family, task.method, task.params),
    )
    try:
        outcome = run_validated(family, task.instance, task.method, opts)
    finally:
        if stream is not None:
            stream.close()
    board = outcome.solution
    return {
        "island": task.island, "epoch": task.epoch, "method": task.method,
        "status": outcome.status.value, "claimed": outcome.objective,
        "source": record.source if record.best == outcome.objective else task.method,
        "board": None if board is None else _board_text(family, task.instance, board),
        "seconds": round(time.perf_counter() - t0, 3),
        "cpu_seconds": round(time.process_time() - cpu0, 3),
        "worker": _worker(), "trail": trail.json(),
        **{k: outcome.stats[k] for k in SEARCH_STATS if k in (outcome.stats or {})},
    }


def _worker() -> str | None:
    """The address of the Dask worker running this task (None outside one)."""
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return None


# --- the client side --------------------------------------------------------------------------
@dataclass
class Found:
    """A verified board and where it came from."""

    result: SolveResult
    solution: Solution
    island: int
    epoch: int
    method: str
    source: str | None

    @property
    def score(self) -> float:
        return self.result.objective if self.result.objective is not None else float("-inf")

    def where(self) -> dict:
        return {"island": self.island, "epoch": self.epoch, "method": self.method,
                "source": self.source}


def migrate(best: list[Found | None], mode: str) -> list[Found | None]:
    """The board each island starts the next epoch from."""
    if mode == "best":
        top = max((f for f in best if f is not None), key=lambda f: f.score, default=None)
        return [top] * len(best)
    n = len(best)
    out = []
    for i in range(n):
        pair = [f for f in (best[i], best[(i - 1) % n]) if f is not None]
        out.append(max(pair, key=lambda f: f.score, default=None))
    return out


@dataclass
class Config:
    islands: int
    methods: list[str]
    epoch: float
    migration: str
    passed: dict[str, Any]

    @classmethod
    def of(cls, family: Family, instance, opts: SolveOptions, islands: int) -> Config:
        p = opts.params
        if islands < 1:
            raise InputError(f"--islands must be at least 1, got {islands}")
        if not opts.objective:
            raise InputError("--islands runs optimisers; add --objective matches")
        if opts.time_limit is None:
            raise InputError("--islands needs --time-limit (the epochs are cut from it)")
        if p.get("island_methods"):
            methods = [m.strip() for m in str(p["island_methods"]).split(",") if m.strip()]
        else:
            methods = list(family.island_backends(instance))
        if not methods or "portfolio" in methods:
            raise InputError("--island-methods must name backends of the family, e.g. lns,memetic")
        for m in methods:
            family.backend(m)  # one line naming an unknown backend
        own = budget.check_params(family, methods, p, OPTIONS, "islands")
        epoch = own.get("epoch") or min(300.0, max(5.0, opts.time_limit / 6))
        passed = {k: v for k, v in p.items() if k not in OPTIONS}
        return cls(islands, methods, epoch, own["migration"], passed)


class Islands:
    """One islands run. `run()` returns the verified SolveResult."""

    def __init__(self, family: Family, instance, path: str, opts: SolveOptions, islands: int,
                 scheduler: str | None = None, task: Callable[[IslandTask], dict] = run_island):
        self.family, self.instance, self.path, self.opts = family, instance, path, opts
        self.cfg = Config.of(family, instance, opts, islands)
        self.scheduler, self.task = scheduler, task
        cluster.require()  # the clock starts after the import, like the command's own
        self.t0, self.cpu0 = time.perf_counter(), time.process_time()
        self.deadline = self.t0 + opts.time_limit
        self.name = f"tilesolve-islands-{uuid.uuid4().hex}"
        self.best: Found | None = None
        self.island_best: list[Found | None] = [None] * islands
        self.epochs: list[dict] = []
        self.runs: list[dict] = []  # every task's record, in the order they were submitted
        self.rescored = 0
        self.rejected: list[dict] = []
        self.max_score: float | None = None
        self.progress = Progress(opts.progress_jsonl, display(opts), boards=opts.log_boards)

    def now(self) -> float:
        return time.perf_counter() - self.t0

    # --- checking what comes back ----------------------------------------------------------
    def offer(self, msg: dict) -> Found | None:
        """Parse and score a board from a worker; the checker's score is the only one kept."""
        island, epoch, method = msg["island"], msg["epoch"], msg["method"]
        lane = f"island{island}/{method}"
        try:
            sol = self.family.solution_from_json(self.instance, json.loads(msg["board"]),
                                                 f"<{lane}>")
        except (InputError, KeyError, TypeError, ValueError) as exc:
            self._reject(msg, f"unreadable board: {exc}")
            return None
        res = finish(self.family, self.instance, self.path, lane,
                     Outcome(Status.FEASIBLE, sol, msg.get("claimed")), self.opts, self.now())
        if not res.verified:
            self._reject(msg, res.stats.get("error", "not verified"))
            return None
        if msg.get("claimed") != res.objective:
            self.rescored += 1
        if self.max_score is None:
            self.max_score = self.family.verify(self.instance, sol, self.opts.objective).max_score
            self.progress.max_score = self.max_score
        found = Found(res, sol, island, epoch, method, msg.get("source"))
        mine = self.island_best[island]
        if mine is None or found.score > mine.score:
            self.island_best[island] = found
        if self.best is None or found.score > self.best.score:
            self.best = found
            self.progress.note(found.score, found.source or method, lane, res, island=island,
                               epoch=epoch, method=method)
            if self.opts.on_verified is not None:
                self.opts.on_verified(res)
        return found

    def _reject(self, msg: dict, why: str) -> None:
        self.rejected.append({"island": msg.get("island"), "epoch": msg.get("epoch"),
                              "method": msg.get("method"), "claimed": msg.get("claimed"),
                              "reason": why})

    def solved(self) -> bool:
        return self.best is not None and self.best.score == self.max_score

    # --- the epochs ------------------------------------------------------------------------
    def run(self) -> SolveResult:
        try:
            with cluster.client(self.scheduler, self.cfg.islands) as client:
                from distributed import Event, Queue

                self._check_room(client)
                queue = Queue(self.name, client=client)
                if self.cfg.migration == "none":
                    self._streams(client, queue, Event(f"{self.name}-stop", client=client))
                else:
                    self._epochs(client, queue)
        finally:
            self.progress.close()
        return self.result()

    def _epochs(self, client, queue) -> None:
        from distributed import Event

        epoch = 0
        while not self.solved():
            end = self._slice_end()
            if end is None:
                break
            stop = Event(f"{self.name}-stop{epoch}", client=client)
            try:
                self._epoch(client, queue, stop, epoch, end)
            finally:
                stop.set()  # stragglers and, after Ctrl-C, every task of the epoch
            epoch += 1

    def _check_room(self, client) -> None:
        """One line when the cluster has fewer worker threads than islands: an epoch's tasks
        run at once, so a queued island would start after its slice and never run (2 of 4
        islands on a 2-worker cluster did nothing)."""
        slots = sum(client.nthreads().values())
        if self.cfg.islands > slots:
            raise InputError(
                f"--islands {self.cfg.islands} needs a worker thread per island; the Dask "
                f"cluster at {self.scheduler} has {slots} (start more `dask worker` processes "
                f"or give --islands {max(1, slots)})")

    def _slice_end(self) -> float | None:
        """When the next epoch's slice ends (perf_counter), None when no time is left. A
        remainder shorter than half an epoch joins the slice before it."""
        last = self.deadline - END_MARGIN
        start = time.perf_counter()
        if last - start < min(1.0, self.cfg.epoch / 2):
            return None
        end = start + self.cfg.epoch
        return last if last - end < self.cfg.epoch / 2 else end

    def _epoch(self, client, queue, stop, epoch: int, end: float) -> None:
        starts = migrate(self.island_best, self.cfg.migration)
        wall_end = time.time() + (end - time.perf_counter())
        tasks = [self._task(i, epoch, end, wall_end, starts[i], queue.name, stop.name)
                 for i in range(self.cfg.islands)]
        record = {"epoch": epoch, "started": round(self.now(), 3), "runs": []}
        self.epochs.append(record)
        futures = {}
        for t in tasks:
            run = self._record(t, start_score=None if starts[t.island] is None
                               else starts[t.island].score)
            record["runs"].append(run)
            futures[client.submit(self.task, t, pure=False,
                                  key=f"{self.name}-e{epoch}-i{t.island}")] = (t, run)
        grace = max(GRACE, GRACE_SHARE * (end - time.perf_counter()))
        self._finish(self._wait(futures, queue, min(end + grace, self.deadline)), queue, stop)
        record["ended"] = round(self.now(), 3)

    def _record(self, t: IslandTask, **more: Any) -> dict:
        run = {"island": t.island, "method": t.method, "seed": t.seed, **more,
               "started": round(self.now(), 3)}
        self.runs.append(run)
        return run

    def _finish(self, pending: dict, queue, stop) -> None:
        """Ask the tasks still out to stop, wait a little for their answers, drop the rest."""
        if pending:
            stop.set()
            pending = self._wait(pending, queue, min(time.perf_counter() + STRAGGLE,
                                                     self.deadline + STRAGGLE))
        for fut, (_t, run) in pending.items():
            run["status"] = "dropped"
            fut.cancel()
        self._drain(queue)

    def _streams(self, client, queue, stop) -> None:
        """Migration none: each island a stream of tasks from no board, each with a seed of
        its own and a slice of at most an epoch, the next submitted as soon as one answers
        (a break search that walks its whole tree under its cap answers early)."""
        made = [0] * self.cfg.islands
        futures: dict = {}

        def submit(island: int) -> None:
            end = self._slice_end()
            if end is None or self.solved():
                return
            k = made[island]
            made[island] += 1
            t = self._task(island, k, end, time.time() + (end - time.perf_counter()), None,
                           queue.name, stop.name, stream_seed(self.opts.seed, island, k))
            run = self._record(t, task=k)
            futures[client.submit(self.task, t, pure=False,
                                  key=f"{self.name}-i{island}-t{k}")] = (t, run)

        try:
            for island in range(self.cfg.islands):
                submit(island)
            self._finish(self._wait(futures, queue, self.deadline, submit), queue, stop)
        finally:
            stop.set()

    def _task(self, island: int, epoch: int, end: float, wall_end: float,
              start: Found | None, channel: str, stop: str, seed: int | None = None
              ) -> IslandTask:
        methods = self.cfg.methods
        return IslandTask(
            island=island, epoch=epoch, method=methods[(island + epoch) % len(methods)],
            family=self.family.name, instance=self.instance, objective=self.opts.objective,
            # drawn, not stepped: seed + 7919 island repeated the break search's own restarts
            seed=stream_seed(self.opts.seed, island, epoch, 1) if seed is None else seed,
            seconds=max(0.05, end - time.perf_counter()), end=wall_end,
            params=self.cfg.passed,
            start=None if start is None else _board_text(self.family, self.instance,
                                                         start.solution),
            channel=channel, stop=stop,
        )

    def _wait(self, pending: dict, queue, until: float,
              then: Callable[[int], None] | None = None) -> dict:
        """Collect answers and streamed boards until every task (future: (task, its record))
        has answered or `until`; `then(island)` after each answer may add the island's next
        task to `pending`. Returns the tasks still out."""
        while pending and time.perf_counter() < until and not self.solved():
            self._drain(queue)
            for fut in [f for f in pending if f.done()]:
                task, run = pending.pop(fut)
                self._collect(fut, task, run)
                if then is not None:
                    then(task.island)
            time.sleep(POLL)
        for fut in [f for f in pending if f.done()]:
            self._collect(fut, *pending.pop(fut))
        return pending

    def _drain(self, queue) -> None:
        for msg in queue.get(batch=True):
            if "report" in msg:
                self.progress.update(f"island{msg['island']}/{msg['method']}", msg["report"])
            else:
                self.offer(msg)

    def _collect(self, fut, task: IslandTask, run: dict) -> None:
        run["ended"] = round(self.now(), 3)
        if fut.status != "finished":
            exc = fut.exception()
            run.update(status="error", error=f"{type(exc).__name__}: {exc}")
            return
        answer = fut.result()
        run.update({k: answer.get(k) for k in ("status", "claimed", "source", "seconds",
                                               "cpu_seconds", "worker", *SEARCH_STATS,
                                               "trail") if k in answer})
        if answer.get("board") is None:
            return
        found = self.offer({**answer, "island": task.island, "epoch": task.epoch,
                            "method": task.method})
        run["score"] = None if found is None else found.score

    # --- the answer ------------------------------------------------------------------------
    def result(self) -> SolveResult:
        seconds = self.now()
        runs = self.runs
        cpu = round(sum(r.get("cpu_seconds") or 0.0 for r in runs), 3)
        if self.best is None:
            errors = sorted({r["error"] for r in runs if r.get("error")})
            failed = bool(runs) and all(r.get("status") == "error" for r in runs)
            res = SolveResult(self.path, self.family.name, "islands",
                              Status.ERROR if failed else Status.TIMEOUT, False, seconds,
                              seed=self.opts.seed)
            if errors:
                res.stats["error"] = "; ".join(errors)
        else:
            res = self.best.result
            res.status = Status.SOLVED if self.solved() else Status.FEASIBLE
        res.backend = "islands"
        res.seconds = seconds
        res.stats.update({
            "islands": self.cfg.islands,
            "scheduler": self.scheduler or "local",
            "methods": self.cfg.methods,
            "migration": self.cfg.migration,
            "epoch_seconds": self.cfg.epoch,
            "best_from": None if self.best is None else self.best.where(),
            "epochs": self.epochs,
            **({"tasks": self.runs} if self.cfg.migration == "none" else {}),
            "streams": summary(self.runs),
            "rescored": self.rescored,
            "rejected": self.rejected,
            "cpu_seconds": cpu,  # the islands' tasks, as the workers measured them
            "client_cpu_seconds": round(time.process_time() - self.cpu0, 3),
        })
        return res

