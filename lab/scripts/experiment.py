"""Reproducing a document's tables: many solver runs, resumable, summarised as the paper does.

A `Run` is one solver run with its place in the document's tables (table, row, column). The
lab/scripts/reproduce_<document>.py scripts build the list of runs, hand it to `run_all`, and
write their markdown page from `summary` and the plots:

* `run_all` runs what the CSV does not hold yet (so a stopped reproduction resumes where it
  stopped), in a local process pool, appending each row to the CSV as soon as the run ends;
  Ctrl-C stops the workers and keeps every finished row. A progress bar shows on a terminal.
* `summary` gives the columns the GA papers print: runs, successes and rate, best and mean
  best fitness (with sd), mean evaluations to the best (with sd), median wall and CPU
  seconds of the successful runs.
* `plot_curves` draws best and mean fitness per generation (averaged over runs), and
  `plot_success_vs_budget` the fraction of runs solved within a budget of evaluations or
  seconds: the two kinds of figure the documents show.

Rows are those of `bench.run_one` plus the run's place, the GA's best fitness, evaluations
to the best and fitness curve, and the solver's statistics.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import statistics
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import tilesolve
from tilesolve import InputError
from tilesolve.bench import Budget, draw_curves, parse_backend, run_one

CSV_COLUMNS = (
    "key", "table", "row", "column", "instance", "backend", "seed", "status", "solved",
    "verified", "seconds", "cpu_seconds", "objective", "evaluations", "generations",
    "best_fitness", "evaluations_to_best", "stop_reason", "error", "curve", "stats",
)
_BOOL = ("solved", "verified")
_NUMBER = ("seed", "seconds", "cpu_seconds", "objective", "evaluations", "generations",
           "best_fitness", "evaluations_to_best")
_JSON = ("curve", "stats")


@dataclass(frozen=True)
class Run:
    """One solver run and where its result goes in the document's tables."""

    table: str
    row: str
    column: str
    instance: str
    backend: str  # a bench spec: "ga", "ga:preset=paper:rts=off", "cpsat"...
    seed: int
    time_limit: float | None = None
    max_evaluations: int | None = None
    threads: int = 1
    objective: str | None = None
    # True: run `tilesolve solve` as a process of its own and count its whole CPU time
    # (interpreter, imports, reading, every lane and child), as a user's run costs
    process: bool = False

    @property
    def key(self) -> str:
        return f"{self.table}|{self.row}|{self.column}|{self.seed}"

    def budget(self) -> dict:
        return asdict(Budget(time_limit=self.time_limit, max_evaluations=self.max_evaluations,
                             threads=self.threads, objective=self.objective))


# --- the CSV ------------------------------------------------------------------------------
def _parse(raw: dict[str, str]) -> dict[str, Any]:
    row: dict[str, Any] = dict(raw)
    for k in _BOOL:
        row[k] = raw.get(k) == "True"
    for k in _NUMBER:
        v = raw.get(k)
        row[k] = None if v in (None, "") else float(v)
    if row.get("seed") is not None:
        row["seed"] = int(row["seed"])
    for k in _JSON:
        v = raw.get(k)
        row[k] = json.loads(v) if v else ([] if k == "curve" else {})
    return row


def load_rows(path: str | Path) -> list[dict]:
    """The finished rows of a reproduction CSV (none if it does not exist), one per key.

    A last line cut short (the machine stopped mid-write) is dropped, not an error. A key
    written again (a timeout rerun with a larger limit, see `pending`) keeps its last row."""
    path = Path(path)
    if not path.exists():
        return []
    with open(path, newline="") as fh:
        reader = csv.DictReader(fh)
        if reader.fieldnames and tuple(reader.fieldnames) != CSV_COLUMNS:
            raise InputError("not a reproduction CSV of this version (columns differ); "
                             "move it away to start afresh", path, 1)
        rows = []
        for raw in reader:
            if None in raw.values():
                continue  # fewer fields than columns: a last line cut short
            try:
                rows.append(_parse(raw))
            except (ValueError, TypeError):
                continue  # a truncated last line
    return list({r["key"]: r for r in rows}.values())


def _csv_row(run: Run, result: dict) -> dict[str, Any]:
    stats = dict(result.get("stats") or {})
    curve = stats.pop("curve", [])
    if run.time_limit is not None:
        stats["time_limit"] = run.time_limit  # so that a later, longer limit can retry it
    return {
        **{k: result.get(k) for k in CSV_COLUMNS if k in result},
        "key": run.key, "table": run.table, "row": run.row, "column": run.column,
        "best_fitness": stats.get("best_fitness"),
        "evaluations_to_best": stats.get("evaluations_to_best"),
        "stop_reason": stats.get("stop_reason"),
        "curve": json.dumps(curve, separators=(",", ":")),
        "stats": json.dumps(stats, separators=(",", ":"), default=str),
    }


class _Appender:
    """Appends rows to the CSV, one whole line per write, flushed at once."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not path.exists() or path.stat().st_size == 0
        if not fresh and not path.read_bytes().endswith(b"\n"):
            with open(path, "a") as fh:  # drop nothing, but start the next row on a new line
                fh.write("\n")
        self.fh = open(path, "a", newline="")  # noqa: SIM115 - closed by close()
        self.writer = csv.DictWriter(self.fh, fieldnames=CSV_COLUMNS)
        if fresh:
            self.writer.writeheader()
            self.fh.flush()

    def write(self, row: dict) -> None:
        self.writer.writerow({k: row.get(k) for k in CSV_COLUMNS})
        self.fh.flush()

    def close(self) -> None:
        self.fh.close()


def append_row(path: str | Path, columns: Sequence[str], row: dict) -> None:
    """One row appended to a CSV of `columns` (the header first in a new file), and printed
    as `name value, ...`: the scripts' measurements are kept row by row as they end."""
    fresh = not os.path.exists(path)
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, columns)
        if fresh:
            w.writeheader()
        w.writerow(row)
    print(", ".join(f"{k} {row[k]}" for k in columns), flush=True)


# --- running ------------------------------------------------------------------------------
def _limit_of(row: dict) -> float:
    """The time limit a row ran under: recorded in its stats; for rows from before that
    was recorded, its wall seconds (a timeout ends at its limit or a little after)."""
    return float(row["stats"].get("time_limit") or row["seconds"] or 0.0)


def _retry(row: dict, run: Run) -> bool:
    """A timeout under a smaller limit than the run now has: worth running again."""
    return (row["status"] == "timeout" and run.time_limit is not None
            and _limit_of(row) < 0.95 * run.time_limit)


def pending(runs: Sequence[Run], csv_path: str | Path,
            retry_timeouts: bool = False) -> list[Run]:
    """The runs the CSV does not hold yet, in order; duplicates (same key) run once.

    With `retry_timeouts`, a run whose row timed out under a smaller time limit than the
    run's is pending again; its new row then supersedes the old one (`load_rows`)."""
    rows = {r["key"]: r for r in load_rows(csv_path)}
    done = set(rows)
    if retry_timeouts:
        by_key = {run.key: run for run in runs}
        done = {k for k in done if k not in by_key or not _retry(rows[k], by_key[k])}
    out, seen = [], set()
    for run in runs:
        if run.key not in done and run.key not in seen:
            seen.add(run.key)
            out.append(run)
    return out


def worst_case_seconds(runs: Iterable[Run], jobs: int) -> float | None:
    """Wall time if every run used its whole time limit (None: some run has no limit)."""
    limits = [r.time_limit for r in runs]
    if any(t is None for t in limits):
        return None
    return sum(limits) / max(1, jobs)  # type: ignore[arg-type]


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the workers now (they may be mid-solve): SIGTERM,
    and SIGKILL for a worker still alive 5 s later, so that no exit waits on a worker."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(timeout=5)
        if p.is_alive():
            p.kill()
            p.join(timeout=5)


def run_all(
    runs: Sequence[Run],
    csv_path: str | Path,
    jobs: int = 0,
    progress: bool | None = None,
    on_row: Callable[[dict], None] | None = None,
    retry_timeouts: bool = False,
) -> list[dict]:
    """Run every run the CSV lacks (and, with `retry_timeouts`, every timeout under a smaller
    limit, see `pending`); return all rows of the CSV (old and new, the newest per key).

    Each finished run is appended to the CSV at once. Ctrl-C ends the workers, keeps the
    finished rows and raises KeyboardInterrupt for the script to report (see `main_guard`).
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    csv_path = Path(csv_path)
    todo = pending(runs, csv_path, retry_timeouts)
    jobs = jobs or max(1, (os.cpu_count() or 1) // max(1, max((r.threads for r in todo),
                                                                  default=1)))
    show = sys.stderr.isatty() if progress is None else progress
    bar = Progress("{task.description}", BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), console=Console(stderr=True), disable=not show)
    out = _Appender(csv_path)
    try:
        with bar:
            task = bar.add_task(csv_path.stem, total=len(todo))
            if todo:
                _run_pool(todo, jobs, out, bar, task, on_row)
    finally:
        out.close()
    return load_rows(csv_path)


def _run_pool(todo: list[Run], jobs: int, out: _Appender, bar, task, on_row) -> None:
    import multiprocessing as mp

    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("spawn"))
    queue = list(reversed(todo))
    running: dict = {}
    try:
        while queue or running:
            while queue and len(running) < 2 * jobs:  # a short queue: Ctrl-C cancels little
                run = queue.pop()
                fut = pool.submit(run_process if run.process else run_one, run.instance,
                                  run.backend, run.seed, run.budget())
                running[fut] = run
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for fut in done:
                run = running.pop(fut)
                row = _csv_row(run, fut.result())
                out.write(row)
                bar.update(task, advance=1, description=f"{run.row} {run.column} "
                           f"{row['status']}")
                if on_row is not None:
                    on_row(row)
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def solve_argv(instance: str, backend: str, seed: int, budget: dict,
               extra: Sequence[str] = ()) -> list[str]:
    """The `tilesolve solve` command line of a run (a bench spec's options as `--name value`,
    then `extra`: `-o BOARD`, say)."""
    name, params = parse_backend(backend)
    argv = [sys.executable, "-m", "tilesolve", "solve", instance, "--backend", name,
            "--seed", str(seed), "--threads", str(budget.get("threads") or 1), "--json"]
    if budget.get("time_limit") is not None:
        argv += ["-t", str(budget["time_limit"])]
    if budget.get("max_evaluations") is not None:
        params["evaluations"] = str(budget["max_evaluations"])
    for key, val in params.items():
        argv += [f"--{key.replace('_', '-')}", val]
    return argv + list(extra)


def run_process(instance: str, backend: str, seed: int, budget: dict,
                extra: Sequence[str] = ()) -> dict:
    """`run_one` as a user runs it: `tilesolve solve ... --json [EXTRA]` in a process of its
    own, its CPU seconds those of the whole process and its children (RUSAGE_CHILDREN, one
    run at a time per worker), its wall seconds from start to exit; `answer` is the
    command's JSON answer."""
    import resource
    import subprocess
    import time

    def children() -> float:
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        return ru.ru_utime + ru.ru_stime

    c0, t0 = children(), time.perf_counter()
    done = subprocess.run(solve_argv(instance, backend, seed, budget, extra),
                          capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - t0, children() - c0
    try:
        res = json.loads(done.stdout)
    except ValueError:
        res = {"status": "error", "stats": {"error": done.stderr.strip()[-300:]}}
    stats = res.get("stats") or {}
    return {
        "instance": instance, "backend": backend, "seed": seed,
        "status": res.get("status"), "verified": bool(res.get("verified")),
        "solved": res.get("status") == "solved" and bool(res.get("verified")),
        "objective": res.get("objective"), "evaluations": stats.get("evaluations"),
        "generations": stats.get("generations"), "error": stats.get("error"),
        "seconds": round(wall, 4), "cpu_seconds": round(cpu, 4),
        "stats": {**stats, "exit_code": done.returncode, "solver_seconds": res.get("seconds")},
        "answer": res,
    }


# --- summarising --------------------------------------------------------------------------
def _stat(xs: list[float], fn) -> float | None:
    return fn(xs) if xs else None


def _sd(xs: list[float]) -> float | None:
    return statistics.stdev(xs) if len(xs) > 1 else (0.0 if xs else None)


def summary(rows: Iterable[dict], by: Sequence[str] = ("table", "row", "column")) -> list[dict]:
    """One line per group, in first-seen order, with the columns the GA papers print."""
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault(tuple(r.get(k) for k in by), []).append(r)
    out = []
    for key, rs in groups.items():
        ok = [r for r in rs if r["solved"]]
        best = [r["best_fitness"] for r in rs if r.get("best_fitness") is not None]
        to_best = [r["evaluations_to_best"] for r in rs
                   if r.get("evaluations_to_best") is not None]
        objective = [r["objective"] for r in rs if r.get("objective") is not None]
        out.append({
            **dict(zip(by, key, strict=True)),
            "runs": len(rs),
            "solved": len(ok),
            "rate": len(ok) / len(rs),
            "best": _stat(best, max),
            "mean_best": _stat(best, statistics.fmean),
            "sd_best": _sd(best),
            "mean_evaluations_to_best": _stat(to_best, statistics.fmean),
            "sd_evaluations_to_best": _sd(to_best),
            "best_objective": _stat(objective, max),
            "median_objective": _stat(objective, statistics.median),
            "median_seconds": _stat([r["seconds"] for r in ok], statistics.median),
            "median_cpu_seconds": _stat([r["cpu_seconds"] for r in ok
                                         if r.get("cpu_seconds") is not None],
                                        statistics.median),
            "max_seconds": _stat([r["seconds"] for r in rs], max),
            "errors": sum(1 for r in rs if r["status"] == "error"),
        })
    return out


def fmt(x: Any, digits: int = 1) -> str:
    """A table cell: '-' for nothing, rounded floats, integers without a fraction."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if isinstance(x, float):
        return str(int(x)) if x.is_integer() else f"{x:.{digits}f}"
    return str(x)


def pm(mean: float | None, sd: float | None, digits: int = 1) -> str:
    """'mean ± sd' as the papers print it."""
    if mean is None:
        return "-"
    return f"{mean:.{digits}f} ± {(sd or 0.0):.{digits}f}"


def markdown_table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A GitHub-flavoured markdown table; cells are formatted with `fmt`."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    for row in rows:
        lines.append("| " + " | ".join(c if isinstance(c, str) else fmt(c) for c in row) + " |")
    return "\n".join(lines)


# --- plots --------------------------------------------------------------------------------
def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def label_axes(ax, title: str, xlabel: str, ylabel: str) -> None:
    """Title, axis labels, a light grid and a small legend: every plot of the pages."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)


def save(fig, path: str | Path) -> None:
    """Write the figure (format from the suffix) and free it."""
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    pyplot().close(fig)


def _groups(rows: Iterable[dict], by: Sequence[str]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for r in rows:
        out.setdefault(" ".join(str(r.get(k)) for k in by), []).append(r)
    return out


def plot_curves(rows: Iterable[dict], path: str | Path, title: str,
                by: Sequence[str] = ("row", "column"), target: float | None = None) -> None:
    """Best (solid) and mean (dashed) fitness per generation, averaged over each group's runs."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    draw_curves(ax, _groups(rows, by))
    if target is not None:
        ax.axhline(target, color="grey", linewidth=0.8, linestyle=":")
    label_axes(ax, title, "generation", "fitness (solid: best, dashed: population mean)")
    save(fig, path)


def plot_success_vs_budget(rows: Iterable[dict], path: str | Path, title: str,
                           budget_key: str = "evaluations",
                           by: Sequence[str] = ("row", "column")) -> None:
    """Fraction of each group's runs solved within a budget (evaluations or seconds)."""
    plt = pyplot()
    rows = list(rows)
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    horizon = max((r.get(budget_key) or 0.0 for r in rows), default=1.0) or 1.0
    grid = [horizon * k / 200 for k in range(201)]
    for label, rs in _groups(rows, by).items():
        spent = sorted(r[budget_key] for r in rs if r["solved"] and r.get(budget_key) is not None)
        frac = [sum(1 for s in spent if s <= g) / len(rs) for g in grid]
        ax.step(grid, frac, where="post", label=f"{label} ({len(rs)} runs)")
    ax.set_ylim(-0.02, 1.02)
    label_axes(ax, title, budget_key.replace("_", " "), "success rate")
    save(fig, path)


# --- what the pages and benchmarks share ----------------------------------------------------
def describe_presets(presets: dict[str, tilesolve.Preset]) -> str:
    """A backend's presets (`tilesolve.presets(family)`) as `solve --help` lists them: each
    one's summary, then each way it departs from the paper."""
    lines = []
    for name, preset in presets.items():
        lines.append(f"--preset {name}{' (default)' if preset.default else ''}: "
                     f"{preset.summary}")
        lines.extend(f"    - {d}" for d in preset.differences)
    return "\n".join(lines)


def planted_file(folder: str | Path, size: int, seed: int) -> Path:
    """A size x size edge-matching board at the generator's default colour counts (Brendan
    Owen's hardest for that size) with a planted solution: written once as
    folder/gen_NNxNN_sSEED.txt, read back as it is after, so benchmarks keep running on the
    same held-out board."""
    path = Path(folder) / f"gen_{size:02d}x{size:02d}_s{seed}.txt"
    if not path.exists():
        puzzle, _planted = tilesolve.generate("edgematch", seed=seed, size=size)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# tilesolve generate edgematch --size {size} --seed {seed}, planted "
                        f"solution\n{puzzle.text}")
    return path


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% interval of a success rate k/n (Wilson): a row's run-to-run spread, or an
    estimated probability."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


# --- the scripts' shared command line -------------------------------------------------------
def parser(description: str, runs: int,
           out_dir: str = "out/reproductions") -> argparse.ArgumentParser:
    """--runs, --tuned-runs, --jobs, --tables, --out-dir, --report-only: every script's options."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--runs", type=int, default=runs, help=f"runs per row (default {runs})")
    ap.add_argument("--tuned-runs", type=int, default=None,
                    help="runs per row of the tuned preset, which the papers have no figure "
                         "for (default: --runs)")
    ap.add_argument("--jobs", type=int, default=0, help="parallel runs (0: one per core)")
    ap.add_argument("--tables", default=None, help="comma list of tables to run (default all)")
    ap.add_argument("--out-dir", default=out_dir,
                    help=f"CSV, plots and the markdown page (default {out_dir}, which git "
                    "ignores; the published pages: --out-dir lab/reproductions, which resumes "
                    "from their committed CSVs)")
    ap.add_argument("--report-only", action="store_true",
                    help="write the page from the CSV without running anything")
    return ap


def announce(todo: Sequence[Run], csv_path: str | Path, jobs: int) -> None:
    """Say on stderr how much is left to run and how long it may take at worst."""
    worst = worst_case_seconds(todo, jobs or (os.cpu_count() or 1))
    when = "no limit on some runs" if worst is None else f"at most {worst / 60:.0f} min"
    print(f"{len(todo)} runs to do ({when}); finished runs are kept in {csv_path}, "
          "so Ctrl-C and a rerun resume", file=sys.stderr)


class Terminated(KeyboardInterrupt):
    """SIGTERM, stopped like Ctrl-C: workers ended, finished rows kept."""


def _terminated(signum, frame) -> None:
    raise Terminated


def main_guard(fn: Callable[[], None]) -> None:
    """Run a script's main: Ctrl-C says what was kept and exits 130 (SIGTERM: 143), bad
    input exits 2.

    Ctrl-C (SIGINT) raises KeyboardInterrupt even when the script was started with SIGINT
    ignored, as a shell does for a job it runs in the background (`cmd &` in a script);
    Python would otherwise keep ignoring it and `kill -INT` would not stop the runs. SIGTERM
    (`kill`, `pkill`) stops the same way; by default it would end this process at once and
    leave its workers running on as orphans."""
    import signal

    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _terminated)
    try:
        fn()
    except KeyboardInterrupt as exc:
        print("interrupted: finished runs are kept in the CSV; run again to resume",
              file=sys.stderr)
        raise SystemExit(143 if isinstance(exc, Terminated) else 130) from None
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
