"""Placements per second of the break search as independent streams on Dask, with 1 and with 2
workers, the scaling ratio between them, and the CPU hours to reach 465/467/468/470 that the
runs' tasks imply.

For each worker count W the script starts a local Dask cluster of W single-threaded workers
(started before the clock, as a running cluster would be) and runs

    tilesolve solve BOARD --objective matches --islands W --migration none \\
        --island-methods search --epoch E -t SECONDS --scheduler ADDRESS --json [EXTRA]

(on the official board the search's defaults are Blackwood's setting with each run's deepest
board completed; the first tables on the page were made with `-- --break-rule blackwood`, 30
breaks and complete boards only)

Throughput is the run's `stats.streams.total.nodes_per_second`: all placements over the wall
time from the first task's submission to the last answer. The scaling ratio is
rate(2) / (2 rate(1)); linear is 1.0, the goal at least 0.9. The load average is printed
before and after: on a machine with other work the ratio says more about the load than the
search, so the placements per CPU second of the workers' tasks (`nodes_per_cpu_second`) and
their ratio are printed beside it: that ratio stays near 1.0 when the streams share nothing
and the wall-clock one falls short only for want of free cores.

    python lab/scripts/e2_streams.py ../shared/e2_data/e2_256.txt --seconds 10
    python lab/scripts/e2_streams.py ../shared/e2_data/e2_256.txt --seconds 3600 --epoch 300 \\
        --workers 1 2 16 --save out/streams

The estimate (`--targets`): every task is an independent trial of its CPU seconds c (a fresh
seed, no board passed in, the cap lowered only by its own boards), and its result is the
checker's score S of its best board. The number of tasks until one reaches a target T is
geometric, so the expected CPU time to reach T is c / P(S >= T), however many workers share
the tasks. P(S >= T) is the share of tasks that reached T when at least MIN_HITS did; beyond
that it is extrapolated from the tail of the observed scores: log P(S >= s) fitted linear in
s (least squares over the scores from the median up, each a point of the empirical survival
curve), i.e. each further point costing a constant factor of tasks. Both numbers assume tasks
of the same length; runs of another --epoch give another c and another curve, and the best
length is the one with the lowest estimate. The per-restart counters (`stats.tasks[].trail`:
the restart at which each better board was reached, and `total.nodes_per_run`) give the same
estimate at the scale of one restart when the tasks are long enough to see several boards per
task. A 10 s run says almost nothing about 470: it shows the method, the hour runs the number.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

TARGETS = (465, 467, 468, 470)
MIN_HITS = 5  # tasks at or above a target before its share is taken as measured


def run(board: str, workers: int, seconds: float, epoch: float, seed: int,
        extra: list[str]) -> dict:
    """One streams run on a fresh local cluster of `workers` workers: the command's JSON."""
    import logging

    import distributed

    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=logging.ERROR,
                                  preload=["tilesolve.hybrid.worker_setup"]) as lc:
        cmd = [sys.executable, "-m", "tilesolve", "solve", board, "--objective", "matches",
               "--islands", str(workers), "--migration", "none", "--island-methods", "search",
               "--epoch", str(epoch), "-t", str(seconds),
               "--seed", str(seed), "--scheduler", lc.scheduler_address, "--json", *extra]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 120)
    if out.returncode not in (0, 1) or not out.stdout.strip():
        sys.exit(f"error: {' '.join(cmd)} ended {out.returncode}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def share(scores: list[float], target: float) -> tuple[float | None, str]:
    """P(a task's score >= target) and how it was had: measured, or extrapolated from the
    log-linear fit of the empirical survival curve's upper half."""
    n = len(scores)
    if n == 0:
        return None, "no task"
    hits = sum(s >= target for s in scores)
    if hits >= MIN_HITS:
        return hits / n, f"{hits}/{n} tasks"
    top = sorted(scores)[n // 2:]
    points = sorted({(s, sum(x >= s for x in scores) / n) for s in top if s > -math.inf})
    if len(points) < 2:
        return None, f"{hits}/{n} tasks, too few distinct scores to extrapolate"
    slope, at0 = np.polyfit([x for x, _ in points], [math.log(y) for _, y in points], 1)
    if slope >= 0:
        return None, "the tail does not fall: no extrapolation"
    p = min(1.0, math.exp(at0 + slope * target))
    return p, f"extrapolated: each point x{math.exp(-slope):.2f} tasks ({hits}/{n} measured)"


def estimate(data: dict) -> list[str]:
    """Lines: the expected CPU hours to reach each target from this run's tasks."""
    tasks = [t for t in data["stats"].get("tasks", []) if t.get("cpu_seconds")]
    scores = [t["score"] if t.get("score") is not None else -math.inf for t in tasks]
    if not tasks:
        return ["no finished task: no estimate"]
    c = sum(t["cpu_seconds"] for t in tasks) / len(tasks)
    seen = [s for s in scores if s > -math.inf]
    lines = [f"tasks {len(tasks)}, {c:.1f} CPU s each, boards {len(seen)}, scores "
             f"{min(seen, default='-')}-{max(seen, default='-')}"]
    for target in TARGETS:
        p, how = share(scores, target)
        hours = "?" if not p else f"{c / p / 3600:.3g}"
        lines.append(f"  {target}: {hours} CPU hours ({how})")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("board")
    ap.add_argument("--seconds", type=float, default=10.0, help="each run's -t")
    ap.add_argument("--epoch", type=float, default=None,
                    help="each task's longest slice (default: the whole run)")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", type=Path, help="a folder for each run's JSON result")
    ap.add_argument("extra", nargs="*", help="more options for the solve, after --")
    args = ap.parse_args()
    rates, cpu_rates = {}, {}
    for w in args.workers:
        before = os.getloadavg()[0]
        data = run(args.board, w, args.seconds, args.epoch or args.seconds, args.seed, args.extra)
        streams = data["stats"]["streams"] or {"total": {}, "workers": {}}
        total = streams["total"]
        rates[w] = total.get("nodes_per_second") or 0
        cpu_rates[w] = total.get("nodes_per_cpu_second") or 0
        per = ", ".join(f"{v['nodes_per_second'] / 1e6:.1f}" for v in streams["workers"].values())
        print(f"workers {w}: {total.get('nodes', 0) / 1e6:.0f} M placements in "
              f"{total.get('wall_seconds', 0):.1f} s = {rates[w] / 1e6:.1f} M/s "
              f"(per worker {per} M/s; {cpu_rates[w] / 1e6:.1f} M per CPU s over "
              f"{total.get('cpu_seconds', 0):.1f} CPU s; {total.get('runs', 0)} runs, best "
              f"{data.get('objective')}; load {before:.1f} -> {os.getloadavg()[0]:.1f})")
        print("\n".join(estimate(data)))
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"streams_w{w}_seed{args.seed}.json").write_text(json.dumps(data))
    one = rates.get(1)
    for w, rate in rates.items():
        if w > 1 and one:
            print(f"scaling 1 -> {w} workers: {rate / (w * one):.2f} of linear (goal 0.90); "
                  f"per CPU second {cpu_rates[w] / (cpu_rates[1] or 1):.2f}")


if __name__ == "__main__":
    main()
