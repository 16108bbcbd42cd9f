"""Experiments: instances x backends x seeds under a time or evaluation budget.

Every run is `run_one(instance, backend, seed, budget) -> dict`, a pure module-level function
that enforces its own limits, so it can run in a local process pool (spawn, the default) or
on a Dask cluster (`scheduler=ADDRESS`; Dask cannot stop a running task, hence the own
limits). Results: one row per run (CSV/JSON), and a summary per instance and backend like the
published GA-versus-exact tables: success rate, mean/median time of the successful runs, mean
GA evaluations, best score. Plots: time against instance size, success against time budget.

A backend may carry options for that column alone: `ga:cbgi=off:population=200` runs the GA
with those options and labels its rows so (the GA with and without CBGI, side by side).
`cpsat:hint=elites/{stem}.json` gives an exact backend a hint read from a solution file per
instance ({stem}: the instance file name without its extension).
"""

from __future__ import annotations

import csv
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from .core.checkpoint import cpu_seconds, process_tree
from .core.errors import InputError
from .core.family import get_family, load_instance
from .core.options import Option, Options
from .core.registry import BACKENDS, RACES

__all__ = [
    "COLUMNS", "Budget", "backend_spec", "draw_curves", "mean_curve", "parse_backend",
    "run_bench", "run_command", "run_each", "run_one", "run_together", "solve_command",
    "summarise", "table", "write_csv", "write_json",
]

COLUMNS = (
    "instance", "family", "size", "cells", "backend", "seed", "status", "solved", "verified",
    "seconds", "cpu_seconds", "objective", "evaluations", "generations", "winner", "error",
)
"""The columns of a run's row (`run_one`) that `write_csv` keeps."""
SIZE_KEYS = ("cells", "pieces", "tiles", "numbers", "n")


@dataclass
class Budget:
    """What every run of a sweep gets: the same limits, objective and options."""

    time_limit: float | None = 10.0
    """Seconds of wall time per run (None: no limit)."""
    max_evaluations: int | None = None
    """The GA's (and the portfolio's GA lanes') evaluations per run (None: no limit)."""
    threads: int = 1
    """Threads per run (0: every core)."""
    objective: str | None = None
    """None to satisfy every rule, or the family's objective to maximise."""
    params: dict[str, Any] = field(default_factory=dict)
    """Backend options (`population`: "200"), each given to every backend that takes it."""


def parse_backend(spec: str) -> tuple[str, dict[str, str]]:
    """`ga:cbgi=off:population=200` -> ("ga", {"cbgi": "off", "population": "200"}); a
    switch named alone is on (`cpsat:no_symmetry`)."""
    name, *opts = spec.split(":")
    if name not in (*BACKENDS, *RACES):
        raise InputError(f"unknown backend {name!r} in --backends; expected some of "
                         f"{', '.join([*BACKENDS, *RACES])}")
    params = {}
    for opt in opts:
        key, sep, val = opt.partition("=")
        if not key:
            raise InputError(f"bad backend option {opt!r} in {spec!r}; expected key=value")
        params[key.replace("-", "_")] = val if sep else "true"
    return name, params


def backend_spec(name: str, params: dict) -> str:
    """("ga", {"population": 200}) -> `ga:population=200`, the inverse of `parse_backend`."""
    return ":".join([name, *(f"{k}={v}" for k, v in params.items())])


def size_of(family, instance) -> tuple[str, int | None]:
    """A label and a number for plots: the family's `size` and a cell/piece count."""
    info = family.info(instance)
    number = next((int(info[k]) for k in SIZE_KEYS if isinstance(info.get(k), int)), None)
    label = str(info.get("size", info.get("order", number if number is not None else "?")))
    return label, number


BENCH_OPTIONS = Options(Option("hint", str, None, "DIR/{stem}.json: a solution file per "
                               "instance, given to the backend as its hint"))


def _accepted(family, backend: str, params: dict) -> dict:
    """The options for every backend (`Budget.params`) that this backend takes, validated by
    its table; the portfolio takes them all and hands each lane its share."""
    if backend == "portfolio":
        return params
    return family.backend_options(backend).pick(params)


def _option_table(family, backend: str) -> Options:
    """The options a run of `backend` on this family takes (a portfolio: its own and those of
    every backend that may race)."""
    if backend != "portfolio":
        return family.backend_options(backend)
    from .hybrid.budget import available
    from .hybrid.portfolio import OPTIONS

    return Options(OPTIONS, *(family.backend_options(b) for b in available(family)))


def _read_hint(family, inst, instance: str, pattern: str | None):
    """`hint=DIR/{stem}.json`: a solution file per instance (any format `verify` reads)."""
    if pattern is None:
        return None
    return family.read_solution(inst, pattern.format(stem=Path(instance).stem))


class Loaded(NamedTuple):
    """An instance a sweep read once for all its runs, and the seconds the reading took."""

    family: str
    instance: Any
    seconds: float


def load_timed(path: str) -> Loaded:
    t0 = time.perf_counter()
    family, inst = load_instance(path)
    return Loaded(family.name, inst, time.perf_counter() - t0)


def run_one(instance: str, backend: str, seed: int, budget: dict,
            loaded: Loaded | None = None) -> dict:
    """Solve one instance once; never raises (errors become rows with status `error`).

    `loaded`: the instance as the sweep read it (the file is then not read again; the
    reading's seconds count on this run's clock, as if it had read it itself).
    Besides the COLUMNS the row holds `stats`, the winning backend's statistics (the GA's
    fitness curve among them); the CSV keeps only the COLUMNS."""
    from .core.result import SolveOptions
    from .dispatch import read, solve_instance

    b = Budget(**budget)
    row: dict[str, Any] = dict.fromkeys(COLUMNS)
    row.update(instance=instance, backend=backend, seed=seed, stats={})
    t0, c0 = time.perf_counter(), cpu_seconds()
    try:
        name, own = parse_backend(backend)
        opts = SolveOptions(time_limit=b.time_limit, seed=seed, threads=b.threads,
                            objective=b.objective)
        # read once, on the run's clock: the limit covers reading, as on the command line
        if loaded is None:
            family, inst, opts = read(instance, opts)
        else:
            family, inst = get_family(loaded.family), loaded.instance
            opts.start_clock()
            opts.started -= loaded.seconds
        row["family"] = family.name
        row["size"], row["cells"] = size_of(family, inst)
        shared = dict(b.params)
        pattern = own.pop("hint", shared.pop("hint", None))
        hint = _read_hint(family, inst, instance, pattern)
        params = {**_accepted(family, name, shared), **own}
        if b.max_evaluations is not None and name in ("ga", "portfolio"):
            params["evaluations"] = str(b.max_evaluations)  # the GA engine's option name
        opts.hint, opts.params = hint, params
        res = solve_instance(family, inst, str(instance), name, opts)
        stats = res.stats
        winner = stats.get("winner")
        inner = stats.get("backends", {}).get(winner, {}).get("stats", {}) if winner else stats
        row.update(
            status=res.status.value,
            solved=res.status.value == "solved" and res.verified,
            verified=res.verified,
            seconds=round(res.seconds, 4),
            objective=res.objective,
            evaluations=inner.get("evaluations", stats.get("evaluations")),
            generations=inner.get("generations", stats.get("generations")),
            winner=winner,
            error=stats.get("error"),
            stats=inner,
        )
    except Exception as exc:  # noqa: BLE001 - one failing run must not end the sweep
        row.update(status="error", solved=False, verified=False,
                   seconds=round(time.perf_counter() - t0, 4),
                   error=str(exc) if isinstance(exc, InputError)
                   else f"{type(exc).__name__}: {exc}")
    row["cpu_seconds"] = round(cpu_seconds() - c0, 4)
    return row


# --- running a sweep ---------------------------------------------------------------------
def tasks(instances: Iterable[str], backends: Iterable[str], seeds: int) -> list[tuple]:
    return [(str(i), b, s) for i in instances for b in backends for s in range(seeds)]


def check(families: dict[str, Any], backends: list[str],
          params: dict | None = None) -> list[tuple[str, str]]:
    """Fail early on unknown backends and options no backend takes (a backend's own
    `ga:name=value` options must all be its own); list the (instance, backend) pairs a family
    lacks. `families`: each instance's family, from the sweep's one reading."""
    missing, tables = [], []
    for path, family in families.items():
        for spec in backends:
            name, own = parse_backend(spec)
            try:
                table = _option_table(family, name)
            except InputError:
                missing.append((path, spec))
                continue
            Options(BENCH_OPTIONS, table).validate(own, f"--backends {spec}")
            tables.append(table)
    if params and tables:
        Options(BENCH_OPTIONS, *tables).validate(params, "any backend of this bench")
    return missing


def command_options(spec: str) -> tuple[str, list[str]]:
    """A bench backend as the command line's options: `cpsat:presearch=5:no_symmetry` ->
    ("cpsat", ["--presearch", "5", "--no-symmetry", "true"])."""
    name, own = parse_backend(spec)
    return name, [arg for key, value in own.items()
                  for arg in (f"--{key.replace('_', '-')}", value)]


PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def adopt_orphans() -> None:
    """Make this process the subreaper of its descendants: a lane orphaned by its portfolio
    (the CLI exits without waiting for lanes still stopping) is reparented here instead of to
    init, so its CPU time reaches RUSAGE_CHILDREN once `reap_adopted` waits for it (a 12 s
    portfolio run on instances/e2_16x16.txt, two lanes, load 6: 0.7 CPU s counted without
    this, 3.6 s with it)."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: children reaped by their parents only
        pass


def children() -> set[int]:
    """This process's children, living or not yet waited for (Linux; empty elsewhere)."""
    return set(process_tree().get(os.getpid(), []))


def reap_adopted(known: set[int], patience: float = 30.0) -> None:
    """Wait for the children that were not in `known` (lanes adopted after their portfolio
    left, still stopping), at most `patience` seconds; other children are left alone."""
    end = time.monotonic() + patience
    while left := children() - known:
        for pid in left:
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass
        if time.monotonic() >= end:
            return
        time.sleep(0.1)


def solve_command(instance: str | Path, spec: str, seed: int = 0,
                  time_limit: float | None = None, threads: int = 1,
                  extra: Sequence[str] = ()) -> list[str]:
    """`tilesolve solve INSTANCE --json` as a user types it (`spec` as in `parse_backend`, its
    options as `--name value`; `extra`: more arguments)."""
    name, options = command_options(spec)
    cmd = [sys.executable, "-m", "tilesolve", "solve", str(instance), "--backend", name,
           "--json", "--seed", str(seed), "--threads", str(threads), *options]
    if time_limit is not None:
        cmd += ["--time-limit", str(time_limit)]
    return cmd + list(extra)


def run_together(commands: Sequence[Sequence[str]], timeout: float | None = None,
                 cwd: str | Path | None = None) -> dict:
    """Run the commands at once, each a child process, and wait for all of them.

    Returns the wall seconds from the start to the last exit, the CPU seconds of them all
    (user + system, Python's start-up, the processes they waited for, such as CBC, and the
    lanes they left stopping included) and, per command, the result it printed (None when it
    printed none), its exit code and its stderr."""
    import resource
    import subprocess

    adopt_orphans()
    known = children()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    procs = [subprocess.Popen(list(cmd), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, cwd=cwd) for cmd in commands]
    try:  # every pipe read as it fills: a child blocked on a full pipe would be timed too
        with ThreadPoolExecutor(max_workers=len(procs)) as readers:
            outputs = list(readers.map(lambda proc: proc.communicate(timeout=timeout), procs))
    finally:  # a timeout (or an interrupt) leaves no command running
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    wall = time.perf_counter() - t0
    reap_adopted(known)  # the lanes a portfolio left stopping: their CPU is the run's
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    runs = []
    for proc, (stdout, stderr) in zip(procs, outputs, strict=True):
        try:
            result = json.loads(stdout)
        except json.JSONDecodeError:
            result = None
        runs.append({"result": result, "exit": proc.returncode, "stderr": stderr})
    return {"wall": wall, "cpu": cpu, "runs": runs}


def run_command(instance: str | Path, spec: str, seed: int = 0, time_limit: float | None = None,
                threads: int = 1, extra: Sequence[str] = (), timeout: float | None = None,
                cwd: str | Path | None = None) -> dict:
    """One `solve_command` in a child process, as a user runs it: `run_together` of one,
    its wall and CPU seconds with the result it printed, its exit code and stderr."""
    done = run_together([solve_command(instance, spec, seed, time_limit, threads, extra)],
                        timeout, cwd)
    (run,) = done["runs"]
    return {"wall": done["wall"], "cpu": done["cpu"], **run}


def run_each(work: Iterable[tuple], budget: Budget) -> Iterator[dict]:
    """The (instance, backend, seed) runs one after another in this process, each row as it
    ends: for timing scripts that give a run the machine to itself and print as they go."""
    for instance, backend, seed in work:
        yield run_one(str(instance), backend, seed, asdict(budget))


def run_local(work: list[tuple], budget: Budget, jobs: int, tick: Callable[[dict], None],
              loaded: dict[str, Loaded]):
    import multiprocessing as mp

    rows = []
    ctx = mp.get_context("spawn")
    with ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=ctx) as pool:
        futs = [pool.submit(run_one, i, b, s, asdict(budget), loaded[i]) for i, b, s in work]
        try:
            for fut in as_completed(futs):
                rows.append(fut.result())
                tick(rows[-1])
        except KeyboardInterrupt:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return rows


def run_dask(work: list[tuple], budget: Budget, address: str, tick: Callable[[dict], None],
             loaded: dict[str, Loaded]):
    from .hybrid.cluster import client

    rows = []
    with client(address) as cl:
        from distributed import as_completed as dask_completed

        futs = cl.map(
            run_one,
            [w[0] for w in work],
            [w[1] for w in work],
            [w[2] for w in work],
            [asdict(budget)] * len(work),
            [loaded[w[0]] for w in work],
            pure=False,
        )
        for fut in dask_completed(futs):
            rows.append(fut.result())
            tick(rows[-1])
    return rows


def sweep(
    instances: list[str],
    backends: list[str],
    seeds: int,
    budget: Budget,
    scheduler: str | None = None,
    jobs: int = 0,
    progress: bool | None = None,
) -> list[dict]:
    """Run every (instance, backend, seed); rows come back in task order."""
    if seeds < 1:
        raise InputError(f"--seeds must be at least 1, got {seeds}")
    if budget.time_limit is not None and budget.time_limit <= 0:
        raise InputError(f"--time-limit must be positive, got {budget.time_limit}")
    if budget.max_evaluations is not None and budget.max_evaluations <= 0:
        raise InputError(f"--max-evaluations must be positive, got {budget.max_evaluations}")
    # each instance read once, here: a bad file is refused before the sweep starts, and the
    # runs take it as read (a URL is fetched once for the whole sweep)
    loaded = {str(path): load_timed(str(path)) for path in instances}
    skip = set(check({p: get_family(x.family) for p, x in loaded.items()}, backends,
                     budget.params))
    work = [t for t in tasks(instances, backends, seeds) if (t[0], t[1]) not in skip]
    if not work:
        raise InputError("nothing to run: no instance has any of the requested backends")
    jobs = jobs or max(1, (os.cpu_count() or 1) // max(1, budget.threads))
    show = sys.stderr.isatty() if progress is None else progress
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    bar = Progress("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=Console(stderr=True), disable=not show, transient=True)
    with bar:
        task = bar.add_task("bench", total=len(work))

        def tick(row: dict) -> None:
            bar.update(task, advance=1, description=f"{Path(row['instance']).name} "
                       f"{row['backend']} {row['status']}")

        if scheduler:
            rows = run_dask(work, budget, scheduler, tick, loaded)
        else:
            rows = run_local(work, budget, jobs, tick, loaded)
    order = {t: k for k, t in enumerate(work)}
    rows.sort(key=lambda r: order[(r["instance"], r["backend"], r["seed"])])
    return rows


# --- summarising -------------------------------------------------------------------------
def _mean(xs: list) -> float | None:
    return round(statistics.fmean(xs), 4) if xs else None


def charged_seconds(rows: list[dict], limit: float | None, penalty: float = 1.0) -> list[float]:
    """Each run's time, an unsolved run charged `penalty` x the time limit (or its own time
    when there was no limit, or when it ran longer): so a backend that hit the limit in 4 of 5
    runs no longer shows the median of its one lucky run."""
    out = []
    for r in rows:
        spent = r["seconds"] or 0.0
        out.append(spent if r["solved"] else max(spent, penalty * limit if limit else spent))
    return out


def summarise(rows: list[dict], time_limit: float | None = None) -> list[dict]:
    """One line per (instance, backend): the columns of the published tables, plus the
    medians over all runs with timeouts counted at the limit and the PAR-2 score (mean time,
    an unsolved run counted at twice the limit) of the SAT competitions."""
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault((r["instance"], r["backend"]), []).append(r)
    out = []
    for (inst, backend), rs in groups.items():
        ok = [r for r in rs if r["solved"]]
        times = [r["seconds"] for r in ok]
        every = charged_seconds(rs, time_limit)
        evals = [r["evaluations"] for r in rs if r["evaluations"] is not None]
        objs = [r["objective"] for r in rs if r["objective"] is not None]
        out.append({
            "instance": inst,
            "family": rs[0]["family"],
            "size": rs[0]["size"],
            "cells": rs[0]["cells"],
            "backend": backend,
            "runs": len(rs),
            "solved": len(ok),
            "success_rate": round(len(ok) / len(rs), 4),
            "mean_seconds": _mean(times),
            "median_seconds": round(statistics.median(times), 4) if times else None,
            "timeouts": sum(1 for r in rs if r["status"] == "timeout"),
            "budgets": sum(1 for r in rs if r["status"] == "budget"),  # a GA's budget spent
            "median_all_seconds": round(statistics.median(every), 4) if every else None,
            "par2_seconds": (_mean(charged_seconds(rs, time_limit, 2.0))
                             if time_limit else None),
            "mean_evaluations": _mean(evals),
            "best_objective": max(objs) if objs else None,
            "errors": sum(1 for r in rs if r["status"] == "error"),
        })
    return out


def table(summary: list[dict], title: str = "bench"):
    """`summarise`'s lines as the `rich` table `tilesolve bench` prints."""
    from rich.table import Table

    t = Table(title=title, caption="seconds; med ok: median of the solved runs; median and "
              "PAR-2 (mean, a timeout at twice the limit): of all runs, a timeout at the limit")
    evals = any(s["mean_evaluations"] is not None for s in summary)
    best = any(s["best_objective"] is not None for s in summary)
    par2 = any(s.get("par2_seconds") is not None for s in summary)
    # median ok: of the solved runs; median: of all runs, a timeout counted at the limit
    cols = ["instance", "size", "backend", "runs", "ok", "t/o", "rate", "med ok", "median"]
    cols += ["PAR-2"] * par2 + ["evals"] * evals + ["best"] * best
    for col in cols:
        left = col in ("instance", "backend")
        t.add_column(col, justify="left" if left else "right", no_wrap=True)

    def fmt(x, digits=2):
        return "-" if x is None else f"{x:.{digits}f}" if isinstance(x, float) else str(x)

    for s in summary:
        cells = [Path(s["instance"]).stem, str(s["size"]), s["backend"], str(s["runs"]),
                 str(s["solved"]), str(s.get("timeouts", "-")), f"{100 * s['success_rate']:.0f}%",
                 fmt(s["median_seconds"]), fmt(s.get("median_all_seconds"))]
        cells += [fmt(s.get("par2_seconds"))] * par2
        cells += [fmt(s["mean_evaluations"], 0)] * evals + [fmt(s["best_objective"], 0)] * best
        t.add_row(*cells)
    return t


def write_csv(rows: list[dict], path: str | Path,
              columns: Sequence[str] = COLUMNS) -> None:
    """One line per row, the `columns` only (default: a bench row's COLUMNS)."""
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(columns))
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k) for k in columns})


def write_json(rows: list[dict], summary: list[dict], path: str | Path,
               meta: dict | None = None) -> None:
    """The rows, their summary and `meta` (the budget, seeds...) as one JSON object."""
    Path(path).write_text(json.dumps({"meta": meta or {}, "summary": summary, "runs": rows},
                                     indent=1) + "\n")


def mean_curve(rows: Sequence[dict], points: int = 100):
    """(generations, mean of best, mean of mean) over the runs' curves on a common grid; a run
    that ended early (target reached) holds its last values."""
    import numpy as np

    curves = [np.asarray(r["curve"], float) for r in rows if r.get("curve")]
    if not curves:
        return None
    last = max(c[-1, 0] for c in curves)
    grid = np.linspace(0.0, max(1.0, last), points)
    best = np.mean([np.interp(grid, c[:, 0], c[:, 2]) for c in curves], axis=0)
    mean = np.mean([np.interp(grid, c[:, 0], c[:, 3]) for c in curves], axis=0)
    return grid, best, mean


def draw_curves(ax, groups: dict[str, list[dict]]) -> None:
    """Each group's mean best (solid) and mean population fitness (dashed) per generation."""
    for label, rs in groups.items():
        curve = mean_curve(rs)
        if curve is None:
            continue
        grid, best, mean = curve
        (line,) = ax.plot(grid, best, label=f"{label} best ({len(rs)} runs)")
        ax.plot(grid, mean, linestyle="--", color=line.get_color(), alpha=0.7)


def plot(rows: list[dict], summary: list[dict], path: str | Path,
         time_limit: float | None = None) -> None:
    """Left: median time over all runs (a timeout counted at the limit, drawn hollow when
    half the runs or more timed out) against size. Right: success against budget. Each
    backend has its own line style and marker, so a backend that solved nothing (a flat line
    on zero) and backends with equal curves stay visible."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # GA runs carry their fitness per generation: a third panel, as the GA papers plot it
    curves = {f"{Path(s['instance']).stem} {s['backend']}":
              [{"curve": r["stats"].get("curve")} for r in rows
               if (r["instance"], r["backend"]) == (s["instance"], s["backend"])
               and (r.get("stats") or {}).get("curve")]
              for s in summary}
    curves = {k: v for k, v in curves.items() if v}
    fig, axes = plt.subplots(1, 3 if curves else 2, figsize=(16.5 if curves else 11, 4.2))
    ax1, ax2 = axes[0], axes[1]
    if curves:
        draw_curves(axes[2], curves)
        axes[2].set_xlabel("generation")
        axes[2].set_ylabel("fitness (solid: best, dashed: mean)")
        axes[2].set_title("GA fitness progression")
    backends = list(dict.fromkeys(s["backend"] for s in summary))
    styles = [(("-", "--", ":", "-.")[i % 4], "osD^v<>"[i % 7]) for i in range(28)]
    for i, b in enumerate(backends):
        ls, mk = styles[i % len(styles)]
        pts = sorted((s["cells"] if s["cells"] is not None else k, s["median_all_seconds"],
                      s["solved"] * 2 > s["runs"])
                     for k, s in enumerate(summary)
                     if s["backend"] == b and s.get("median_all_seconds"))
        if pts:
            line, = ax1.plot([p[0] for p in pts], [p[1] for p in pts], ls, label=b)
            for x, y, mostly_solved in pts:
                ax1.plot([x], [y], mk, color=line.get_color(),
                         fillstyle="full" if mostly_solved else "none")
    ax1.set_xlabel("instance size (cells)")
    ax1.set_ylabel("median time, timeouts at the limit (s)")
    ax1.set_yscale("log")
    ax1.set_title("time against size")
    horizon = time_limit or max((r["seconds"] or 0 for r in rows), default=1.0) or 1.0
    grid = [horizon * k / 100 for k in range(101)]
    for i, b in enumerate(backends):
        ls, mk = styles[i % len(styles)]
        rs = [r for r in rows if r["backend"] == b]
        solved = sorted(r["seconds"] for r in rs if r["solved"])
        frac = [sum(1 for t in solved if t <= g) / len(rs) for g in grid]
        ax2.step(grid, frac, ls, where="post", label=f"{b} ({len(solved)}/{len(rs)})",
                 marker=mk, markevery=25)
    ax2.set_xlabel("time budget (s)")
    ax2.set_ylabel("success rate")
    ax2.set_ylim(-0.02, 1.02)
    ax2.set_title("success against budget")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run_bench(
    instances: list[str],
    backends: list[str],
    seeds: int = 1,
    budget: Budget | None = None,
    out_csv: str | Path | None = None,
    out_json: str | Path | None = None,
    out_plot: str | Path | None = None,
    scheduler: str | None = None,
    jobs: int = 0,
    progress: bool | None = None,
) -> tuple[list[dict], list[dict]]:
    """The whole `tilesolve bench`: sweep, summarise, write what was asked. Returns both."""
    budget = budget or Budget()
    if out_plot is not None and Path(out_plot).suffix.lower() not in (".png", ".svg", ".pdf"):
        raise InputError("--plot must end in .png, .svg or .pdf", out_plot)
    t0 = time.perf_counter()
    rows = sweep(instances, backends, seeds, budget, scheduler, jobs, progress)
    summary = summarise(rows, budget.time_limit)
    meta = {"budget": asdict(budget), "seeds": seeds, "scheduler": scheduler,
            "seconds": round(time.perf_counter() - t0, 2), "cpus": os.cpu_count()}
    if out_csv:
        write_csv(rows, out_csv)
    if out_json:
        write_json(rows, summary, out_json, meta)
    if out_plot:
        plot(rows, summary, out_plot, budget.time_limit)
    return rows, summary
