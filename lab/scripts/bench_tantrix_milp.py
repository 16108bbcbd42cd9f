"""Time the Tantrix MILP and SAT backends: fixed-board challenges and free-shape puzzles.

    .venv/bin/python lab/scripts/bench_tantrix_milp.py [--time-limit 300] [--backends milp,sat]
        [--solver cbc|highs] [GLOB ...]

Default puzzles: the Kino & Uno challenge boards (n = 10..40) and Discovery 3..10. Prints one
row per puzzle and backend: status (verified), wall seconds, lazy cut rounds, cuts added, the
radii tried for free shapes. Timings on a shared machine vary; compare runs on an idle one.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tilesolve.bench import Budget, backend_spec, run_each

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = [*(f"tantrix_challenge_{n}.txt" for n in (10, 20, 30, 40)),
           *(f"tantrix_discovery_{k:02d}.txt" for k in range(3, 11))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("globs", nargs="*", default=DEFAULT)
    ap.add_argument("--backends", default="milp,sat")
    ap.add_argument("--solver", default=None, help="MILP solver: cbc (default) or highs")
    ap.add_argument("--time-limit", type=float, default=300)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    paths = [p for g in args.globs for p in sorted((ROOT / "instances").glob(g))]
    backends = args.backends.split(",")
    specs = [backend_spec(b, {"solver": args.solver} if args.solver and b == "milp" else {})
             for b in backends]
    work = [(path, spec, 0) for path in paths for spec in specs]
    print(f"{'puzzle':24} {'backend':8} {'status':9} {'seconds':>8} {'rounds':>6} {'cuts':>5} "
          "radii")
    budget = Budget(time_limit=args.time_limit, threads=args.threads)
    for backend, row in zip(backends * len(paths), run_each(work, budget), strict=True):
        stem = Path(row["instance"]).stem
        if row["status"] == "error":
            print(f"{stem:24} {backend:8} refused   ({row['error']})")
            continue
        st = row["stats"]
        print(f"{stem:24} {backend:8} {row['status']:9} {row['seconds']:8.1f} "
              f"{st.get('rounds', '')!s:>6} {st.get('cuts', '')!s:>5} {st.get('radii', '')}",
              flush=True)


if __name__ == "__main__":
    main()
