"""Time the Tantrix backends on shipped puzzles: one row per puzzle and backend.

    .venv/bin/python lab/scripts/bench_tantrix.py [--time-limit 60] [--threads 0] [--backends
        cpsat,search,milp,sat] [GLOB ...]

`--threads 0` (the default) leaves each backend its default worker count (CP-SAT: 8).

Prints a table (puzzle, backend, status, seconds, MILP cut rounds). Timings on a shared
machine vary; run it on an otherwise idle one for comparable numbers.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tilesolve.bench import Budget, run_each

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("globs", nargs="*", default=["tantrix_*.txt"])
    ap.add_argument("--backends", default="cpsat")
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--threads", type=int, default=0)
    args = ap.parse_args()
    paths = sorted({p for g in args.globs for p in (ROOT / "instances").glob(g)})
    work = [(path, backend, 0) for path in paths for backend in args.backends.split(",")]
    print(f"{'puzzle':28} {'backend':8} {'status':10} {'seconds':>8} {'rounds':>6}")
    for row in run_each(work, Budget(time_limit=args.time_limit, threads=args.threads)):
        stem, backend = Path(row["instance"]).stem, row["backend"]
        if row["status"] == "error":
            print(f"{stem:28} {backend:8} {'n/a':10} ({row['error']})")
            continue
        rounds = row["stats"].get("rounds", "")
        print(f"{stem:28} {backend:8} {row['status']:10} {row['seconds']:8.2f} "
              f"{rounds!s:>6}", flush=True)


if __name__ == "__main__":
    main()
