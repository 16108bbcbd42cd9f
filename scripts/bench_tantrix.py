"""Time the Tantrix backends on shipped puzzles: one row per puzzle and backend.

    .venv/bin/python scripts/bench_tantrix.py [--time-limit 60] [--threads 0] [--backends
        cpsat,search,milp,sat] [GLOB ...]

`--threads 0` (the default) leaves each backend its default worker count (CP-SAT: 8).

Prints a table (puzzle, backend, status, seconds, MILP cut rounds). Timings on a shared
machine vary; run it on an otherwise idle one for comparable numbers.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tilesolve.core.errors import InputError
from tilesolve.core.result import SolveOptions
from tilesolve.dispatch import solve_file

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("globs", nargs="*", default=["tantrix_*.txt"])
    ap.add_argument("--backends", default="cpsat")
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--threads", type=int, default=0)
    args = ap.parse_args()
    paths = sorted({p for g in args.globs for p in (ROOT / "instances").glob(g)})
    print(f"{'puzzle':28} {'backend':8} {'status':10} {'seconds':>8} {'rounds':>6}")
    for path in paths:
        for backend in args.backends.split(","):
            opts = SolveOptions(time_limit=args.time_limit, threads=args.threads)
            try:
                res = solve_file(path, backend, opts)
            except InputError as exc:
                print(f"{path.stem:28} {backend:8} {'n/a':10} ({exc})")
                continue
            rounds = res.stats.get("rounds", "")
            print(f"{path.stem:28} {backend:8} {res.status.value:10} {res.seconds:8.2f} "
                  f"{rounds!s:>6}", flush=True)


if __name__ == "__main__":
    main()
