"""Solve every solvable public edge-matching instance and check each answer.

The instances are those of ../shared/e2_data meant to be solved whole: the four Eternity II
clue puzzles, Heule's eight em_* benchmarks and Brendan Owen's hardest boards 4x4..7x7
(--max-brendan 8 adds the 8x8). Every result passes the family checker before it is counted.

    python lab/scripts/solve_e2_data.py                      # CP-SAT, 2 threads
    python lab/scripts/solve_e2_data.py -b search,cpsat -t 300
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import tilesolve

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "e2_data"


def instances(max_brendan: int) -> list[Path]:
    out = sorted(DATA.glob("clue*.txt")) + sorted(DATA.glob("heule_em_*.txt"))
    out += [DATA / "brendan" / f"pieces_{n:02d}x{n:02d}.txt" for n in range(4, max_brendan + 1)]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-b", "--backends", default="cpsat")
    ap.add_argument("-t", "--time-limit", type=float, default=600.0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-brendan", type=int, default=7)
    args = ap.parse_args()
    if not DATA.exists():
        print(f"no public data at {DATA}", file=sys.stderr)
        return 2
    failures = 0
    print(f"{'instance':28} {'backend':8} {'status':10} {'checked':8} {'wall s':>8} {'cpu s':>8}")
    for path in instances(args.max_brendan):
        for backend in args.backends.split(","):
            t0, c0 = time.perf_counter(), time.process_time()
            res = tilesolve.load(path).solve(backend, time_limit=args.time_limit, seed=args.seed,
                                             threads=args.threads)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            ok = res.status.value == "solved" and res.verified
            failures += not ok
            name = str(path.relative_to(DATA))
            print(f"{name:28} {backend:8} {res.status.value:10} {str(res.verified):8} "
                  f"{wall:8.2f} {cpu:8.2f}", flush=True)
    print("all solved and checked" if not failures else f"{failures} run(s) not solved")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
