"""Time the exact backends on the fixed-board "challenge n" puzzles: one row per n and backend.

    .venv/bin/python lab/scripts/bench_tantrix_fixed.py [--sizes 10,20,...,100]
        [--backends cpsat,sat] [--time-limit 300] [--threads 0]

Columns: n, board cells, backend, status, seconds, lazy rounds (SAT/MILP). `--threads 0` is each
backend's default (CP-SAT: 8 workers). Timings on a shared machine vary; run it on an otherwise
idle one for comparable numbers.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tilesolve.bench import Budget, run_each

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10,20,30,40,50,60,70,80,90,100")
    ap.add_argument("--backends", default="cpsat")
    ap.add_argument("--time-limit", type=float, default=300)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    sizes = [int(v) for v in args.sizes.split(",") if v]
    work = [(ROOT / "instances" / f"tantrix_challenge_{n}.txt", backend, args.seed)
            for n in sizes for backend in args.backends.split(",")]
    print(f"{'n':>4} {'cells':>5} {'backend':8} {'status':8} {'seconds':>8} {'rounds':>6}")
    budget = Budget(time_limit=args.time_limit, threads=args.threads)
    for n, row in zip([n for n in sizes for _ in args.backends.split(",")],
                      run_each(work, budget), strict=True):
        rounds = row["stats"].get("rounds", "")
        print(f"{n:4d} {row['cells']:5d} {row['backend']:8} {row['status']:8} "
              f"{row['seconds']:8.2f} {rounds!s:>6}", flush=True)


if __name__ == "__main__":
    main()
