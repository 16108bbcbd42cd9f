"""Benchmark the Tantrix GA on Discovery puzzles: success rate over seeds within a budget.

    .venv/bin/python lab/scripts/bench_tantrix_ga.py                      # Discovery 10, 15, 20
    .venv/bin/python lab/scripts/bench_tantrix_ga.py --seeds 20 --time-limit 60 \\
        instances/tantrix_discovery_30.txt --param generations=100

Each seed is one `solve --backend ga` through the library pipeline, so every success counted
has passed the family's checker. Prints one row per instance (solved runs, success rate,
median seconds over all runs and over the solved ones, mean engine evaluations and mean
genomes actually developed), then Downing's published figures for comparison; `--csv FILE`
also writes one line per run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from tilesolve.bench import Budget, backend_spec, run_each, write_csv

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = [ROOT / "instances" / f"tantrix_discovery_{k}.txt" for k in (10, 15, 20)]
DOWNING = (
    "Downing (2005), Table 1 (20 runs each, population/generations): Discovery 10, 12, 15 "
    "20/20 at 100/100; 20 15/20 at 200/200; 25 6/20 at 300/300; 30 4/20 at 500/300 "
    "(lab/scripts/reproduce_downing.py runs his tables)"
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("instances", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per run")
    ap.add_argument("--param", action="append", default=[],
                    help="GA parameter NAME=VALUE (as `solve --NAME VALUE`), repeatable")
    ap.add_argument("--csv", type=Path, help="write one line per run here")
    args = ap.parse_args(argv)
    params = {}
    for item in args.param:
        name, sep, value = item.partition("=")
        if not sep:
            ap.error(f"--param expects NAME=VALUE, got {item!r}")
        params[name.replace("-", "_")] = value
    missing = [str(p) for p in args.instances if not p.exists()]
    if missing:
        ap.error(f"no such instance file(s): {', '.join(missing)}")

    rows = []
    print(f"budget: {args.time_limit:g} s per run, seeds 0..{args.seeds - 1}, "
          f"params {params or 'defaults'}")
    head = f"{'instance':32} {'solved':>7} {'rate':>5} {'med s':>7} {'med s ok':>8} " \
           f"{'evals':>8} {'grown':>8} {'runs':>5}"
    print(head)
    for path in args.instances:
        runs = []
        work = [(path, backend_spec("ga", params), seed) for seed in range(args.seeds)]
        for run in run_each(work, Budget(time_limit=args.time_limit, threads=1)):
            st = run["stats"]
            runs.append({
                "instance": path.name, "seed": run["seed"], "solved": run["solved"],
                "seconds": round(run["seconds"], 3),
                "evaluations": st.get("evaluations"),
                "developed": st.get("developed"),
                "restarts": st.get("runs", 1) - 1,
                "best_fitness": st.get("best_fitness"),
            })
            print(f"  seed {run['seed']}: {'solved' if run['solved'] else run['status']} in "
                  f"{run['seconds']:.1f} s, {st.get('evaluations')} evaluations",
                  file=sys.stderr, flush=True)
        rows += runs
        solved = [r for r in runs if r["solved"]]
        med_ok = statistics.median(r["seconds"] for r in solved) if solved else float("nan")
        print(f"{path.name:32} {len(solved):>3}/{len(runs):<3} {len(solved) / len(runs):>5.0%} "
              f"{statistics.median(r['seconds'] for r in runs):>7.1f} {med_ok:>8.1f} "
              f"{statistics.mean(r['evaluations'] for r in runs):>8.0f} "
              f"{statistics.mean(r['developed'] for r in runs):>8.0f} "
              f"{statistics.mean(r['restarts'] + 1 for r in runs):>5.1f}", flush=True)
    print(DOWNING)
    if args.csv:
        write_csv(rows, args.csv, list(rows[0]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
