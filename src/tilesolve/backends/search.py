"""Runner for our own tree searches: time limit, stop flag, parallel seeds, restarts, counting.

A family supplies `make(seed) -> Searcher`. A `Searcher` holds a resumable depth-first
search: `step(budget) -> (code, nodes)` runs at most `budget` nodes and returns code 1 (a
solution is ready, the next step continues after it), 0 (budget spent) or -1 (the tree is
exhausted); `solution()` reads the current solution; `max_depth` is the deepest level
reached; `parallel` says whether `step` releases the GIL (a compiled core), so threads really
run side by side. A partial assignment is part of what a searcher is built from, not a
capability it offers later. Counting (`count`) runs one searcher through its whole tree.

Any one searcher that exhausts its tree proves infeasibility, whatever its seed: each is a
complete search with its own value order. Restarts keep that property: run i gets a budget of
`unit * luby(i)` nodes (Luby, Sinclair and Zuckerman's universal sequence 1 1 2 1 1 2 4 ...),
which grows without bound. They pay off because the nodes a rowscan needs before its first
solution vary by orders of magnitude with the value order (a heavy tail).
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable

from ..core.errors import InputError
from ..core.options import Option
from ..core.result import Outcome, Solution, SolveOptions, Status
from . import counting
from .stopwatch import deadline_of

FIRST_CHUNK = 20_000
CHUNK_SECONDS = 0.05  # how often the clock and the stop flag are looked at


ENGINE_OPTION = Option("engine", str, "auto", "the search core: c (compiled), python, or "
                       "auto (c when it was built at install time)", ("auto", "c", "python"))


def node_count(value: object) -> int:
    """a node count (0: never restart)"""
    val = int(float(str(value)))
    if val < 0:
        raise ValueError(value)
    return val


def restart_option(default: int) -> Option:
    """`--restart N` of a search backend whose Luby unit is `default` nodes."""
    return Option("restart", node_count, default, "nodes in a Luby restart unit (0: never)")


def engine_choice(opts: SolveOptions, compiled_core: object | None, name: str,
                  c_kind: type, py_kind: type) -> type:
    """The searcher class `--engine auto|c|python` asks for; auto takes the compiled core
    when it was built at install time."""
    want = ENGINE_OPTION.convert(opts.params.get("engine", "auto"))
    if want == "c" and compiled_core is None:
        raise InputError(f"--engine c: the compiled {name} core is not built (reinstall with gcc)")
    return py_kind if want == "python" or compiled_core is None else c_kind


def restart_unit(opts: SolveOptions, default: int) -> int:
    """`--restart N`: nodes in a Luby restart unit (0: never restart)."""
    return restart_option(default).convert(opts.params.get("restart", default))


class Searcher(ABC):
    max_depth: int = 0  # the deepest level reached so far
    parallel: bool = False  # True when `step` releases the GIL

    @abstractmethod
    def step(self, budget: int) -> tuple[int, int]:
        """Run at most `budget` nodes: (1 solution ready | 0 budget spent | -1 exhausted, nodes)."""

    @abstractmethod
    def solution(self) -> Solution:
        """The solution `step` just reported."""


class _Shared:
    """What the workers of one solve share: the first result and the total node count."""

    def __init__(self, opts: SolveOptions):
        self.opts = opts
        self.deadline = deadline_of(opts.remaining())
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.code = 0
        self.solution: Solution | None = None
        self.nodes = 0
        self.restarts = 0
        self.max_depth = 0

    def should_stop(self) -> bool:
        if self.done.is_set() or self.opts.stopped():
            return True
        return self.deadline is not None and time.monotonic() >= self.deadline

    def finish(self, code: int, solution: Solution | None) -> None:
        with self.lock:
            if not self.done.is_set():
                self.code, self.solution = code, solution
                self.done.set()


def luby(i: int) -> int:
    """The i-th term (1-based) of the Luby sequence: 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


def _work(make: Callable[[int], Searcher], seed: int, shared: _Shared, restart: int) -> None:
    searcher = make(seed)
    run, run_nodes = 1, 0
    run_limit = restart * luby(run)
    pace = FIRST_CHUNK
    while not shared.should_stop():
        chunk = min(pace, run_limit - run_nodes) if run_limit else pace
        t0 = time.perf_counter()
        code, nodes = searcher.step(chunk)
        took = time.perf_counter() - t0
        run_nodes += nodes
        with shared.lock:
            shared.nodes += nodes
            shared.max_depth = max(shared.max_depth, searcher.max_depth)
            shared.opts.report(nodes=shared.nodes, depth=shared.max_depth,
                               restarts=shared.restarts)
        if code != 0:
            shared.finish(code, searcher.solution() if code == 1 else None)
            return
        # aim each chunk at CHUNK_SECONDS of work
        rate = nodes / took if took > 0 else pace * 10
        pace = int(min(max(1_000, rate * CHUNK_SECONDS), pace * 4))
        if run_limit and run_nodes >= run_limit:
            run += 1
            run_nodes, run_limit = 0, restart * luby(run)
            searcher = make(seed + 7919 * run)
            with shared.lock:
                shared.restarts += 1


def run(make: Callable[[int], Searcher], opts: SolveOptions,
        restart: int | list[int] = 0) -> Outcome:
    """First solution by racing `opts.threads` seeded searchers (one if the core is Python).
    `restart`: the Luby unit of every worker, or one per worker (the last for the rest)."""
    shared = _Shared(opts)
    t0, cpu0 = time.perf_counter(), time.process_time()
    probe = make(opts.seed)
    workers = opts.thread_count() if probe.parallel else 1
    seeds = [opts.seed + 1_000_003 * k for k in range(workers)]
    units = restart if isinstance(restart, list) else [restart]
    unit = [units[min(k, len(units) - 1)] for k in range(workers)]
    threads = [
        threading.Thread(target=_work, args=(make, s, shared, u), daemon=True)
        for s, u in zip(seeds[1:], unit[1:], strict=True)
    ]
    for t in threads:
        t.start()
    _work(lambda s: probe if s == opts.seed else make(s), seeds[0], shared, unit[0])
    shared.done.set()  # the main worker stopped: time is up or a result is in
    for t in threads:
        t.join()
    stats = _stats(shared, t0, cpu0, workers, probe)
    if shared.code == 1:
        return Outcome(Status.SOLVED, shared.solution, stats=stats)
    if shared.code == -1:
        return Outcome(Status.INFEASIBLE, stats=stats)
    if opts.stopped():
        stats["stopped"] = True
    return Outcome(Status.TIMEOUT, stats=stats)


def count(searcher: Searcher, opts: SolveOptions) -> Outcome:
    """Every solution of one complete search (up to opts.count_limit)."""
    shared = _Shared(opts)
    t0, cpu0 = time.perf_counter(), time.process_time()
    found: list[Solution] = []
    complete = False
    while counting.wanted(found, opts) and not shared.should_stop():
        code, nodes = searcher.step(1_000_000)
        shared.nodes += nodes
        opts.report(nodes=shared.nodes, depth=searcher.max_depth,
                    solutions=len(found) + (code == 1))
        if code == 1:
            found.append(searcher.solution())
        elif code == -1:
            complete = True
            break
    shared.max_depth = searcher.max_depth
    return counting.tally(found, complete, _stats(shared, t0, cpu0, 1, searcher), opts)


def _stats(shared: _Shared, t0: float, cpu0: float, workers: int, probe: Searcher) -> dict:
    wall = time.perf_counter() - t0
    return {
        "solver": "rowscan",
        "engine": "c" if probe.parallel else "python",
        "workers": workers,
        "nodes": shared.nodes,
        "nodes_per_s": round(shared.nodes / wall) if wall > 0 else None,
        "max_depth": shared.max_depth,
        "restarts": shared.restarts,
        "seconds": round(wall, 4),
        "cpu_seconds": round(time.process_time() - cpu0, 4),
    }
