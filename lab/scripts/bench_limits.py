#!/usr/bin/env python3
"""How far past `-t` does each backend run? Wall time from process start to exit.

For the largest shipped instance of each family, every backend runs as a user would
(`tilesolve solve INSTANCE -b BACKEND -t T --json`, one thread), optionally while N other
processes keep cores busy (`--load N`), and the table gives the wall seconds, the overshoot,
whether it is within the contract (10% of the limit or 1 s, whichever is larger) and the CPU
seconds of the run and of the processes it waited for (CBC, not the portfolio's lanes, whose
forkserver reaps them).

    python lab/scripts/bench_limits.py -t 5 --load 2 --out lab/results/limits.md

Rows are appended to a CSV as they finish (`--out` with .csv beside it); the markdown table is
written at the end. The load average at the start of each run is recorded.
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing as mp
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
from experiment import markdown_table  # noqa: E402

from tilesolve.bench import run_command  # noqa: E402

# the largest shipped instance of each family, and the backends it has
CASES = [
    ("e2_16x16.txt", ("cpsat", "milp", "sat", "search", "ga", "lns", "memetic", "portfolio")),
    ("tantrix_challenge_100.txt", ("cpsat", "milp", "sat", "search", "ga", "portfolio")),
    ("hidato_square_1024.txt", ("cpsat", "milp", "sat", "search", "ga", "portfolio")),
    ("magichex_8_zero.txt", ("cpsat", "milp", "sat", "search", "ga", "portfolio")),
]
FIELDS = ["instance", "backend", "limit", "wall", "overshoot", "within", "cpu", "status", "exit",
          "load"]


def busy(stop) -> None:
    while not stop.is_set():
        sum(i * i for i in range(10_000))


def one(instance: str, backend: str, limit: float) -> dict:
    extra = ["--objective", "matches"] if backend in ("lns", "memetic") else []
    load = os.getloadavg()[0]
    run = run_command(ROOT / "instances" / instance, backend, time_limit=limit, extra=extra,
                      timeout=limit * 10 + 120, cwd=ROOT)
    wall, cpu = run["wall"], run["cpu"]
    status = "no json" if run["result"] is None else run["result"].get("status")
    allowed = max(0.1 * limit, 1.0)
    return {"instance": instance, "backend": backend, "limit": limit, "wall": round(wall, 2),
            "overshoot": round(wall - limit, 2), "within": wall - limit <= allowed,
            "cpu": round(cpu, 2),
            "status": status, "exit": run["exit"], "load": round(load, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-t", "--time-limit", type=float, default=5.0)
    ap.add_argument("--load", type=int, default=0, help="busy processes during the runs")
    ap.add_argument("--out", default="lab/results/limits.md")
    ap.add_argument("--only", default="", help="comma list of backends")
    args = ap.parse_args()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    stop = mp.Event()
    hogs = [mp.Process(target=busy, args=(stop,), daemon=True) for _ in range(args.load)]
    for h in hogs:
        h.start()
    rows = []
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    try:
        with open(out.with_suffix(".csv"), "w", newline="") as fh:
            w = csv.DictWriter(fh, FIELDS)
            w.writeheader()
            for instance, backends in CASES:
                for b in backends:
                    if args.only and b not in args.only.split(","):
                        continue
                    row = one(instance, b, args.time_limit)
                    rows.append(row)
                    w.writerow(row)
                    fh.flush()
                    print(row, flush=True)
    finally:
        stop.set()
        for h in hogs:
            h.join(2)
    table = markdown_table(FIELDS, [[r[k] for k in FIELDS] for r in rows])
    within = sum(r["within"] for r in rows)
    out.write_text(f"`python lab/scripts/bench_limits.py -t {args.time_limit:g} --load "
                   f"{args.load}`: wall seconds from process start to exit, one thread, "
                   f"{args.load} busy processes beside; load average (1 min) at each run's "
                   f"start in the last column, `uptime` before: {uptime}.\n"
                   f"{within} of {len(rows)} runs within the contract.\n\n{table}\n")
    return 0 if all(r["within"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
