"""Time the exact backends on the fixed-board "challenge n" puzzles: one row per n and backend.

    .venv/bin/python scripts/bench_tantrix_fixed.py [--sizes 10,20,...,100]
        [--backends cpsat,sat] [--time-limit 300] [--threads 0]

Columns: n, board cells, backend, status, seconds, lazy rounds (SAT/MILP). `--threads 0` is each
backend's default (CP-SAT: 8 workers). Timings on a shared machine vary; run it on an otherwise
idle one for comparable numbers.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tilesolve.core.result import SolveOptions
from tilesolve.dispatch import solve_file
from tilesolve.families.tantrix.model import FAMILY

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10,20,30,40,50,60,70,80,90,100")
    ap.add_argument("--backends", default="cpsat")
    ap.add_argument("--time-limit", type=float, default=300)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"{'n':>4} {'cells':>5} {'backend':8} {'status':8} {'seconds':>8} {'rounds':>6}")
    for n in (int(v) for v in args.sizes.split(",") if v):
        path = ROOT / "instances" / f"tantrix_challenge_{n}.txt"
        cells = len(FAMILY.read_instance(path).board)
        for backend in args.backends.split(","):
            opts = SolveOptions(time_limit=args.time_limit, threads=args.threads, seed=args.seed)
            res = solve_file(path, backend, opts)
            rounds = res.stats.get("rounds", "")
            print(f"{n:4d} {cells:5d} {backend:8} {res.status.value:8} "
                  f"{res.seconds:8.2f} {rounds!s:>6}", flush=True)


if __name__ == "__main__":
    main()
