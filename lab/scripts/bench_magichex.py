"""Time every magic hexagon backend on the shipped instances: wall time, CPU time, status.

    .venv/bin/python lab/scripts/bench_magichex.py                       # the default grid
    .venv/bin/python lab/scripts/bench_magichex.py --instances 4_3 5_6 --configs ga \\
        cpsat:strategy=fixed --time-limit 60 --seeds 3 --csv bench.csv

A configuration is BACKEND[:key=value,...] (the key/value pairs are the backend's extra
command-line options). Every run goes through the normal pipeline, so "solved" means
verified. CPU time is the process's (all solver threads); on a shared machine wall time can
be several times larger, so both are printed.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import tilesolve
from tilesolve.bench import Budget, run_each, write_csv

ROOT = Path(__file__).resolve().parents[2]

INSTANCES = ["3", "3_zero", "4_3", "5_6", "5_15", "6_21", "7_2", "8_zero"]
UNPOLISHED = "ga:preset=tuned,polish=0"  # the tuned GA without its tabu polishing
CONFIGS = ["cpsat", "cpsat:strategy=auto", "cpsat:strategy=fixed", "sat", "milp", "ga",
           UNPOLISHED, "search"]
SKIP_ABOVE = {"milp": 3, "sat": 3, "search": 3, UNPOLISHED: 3}  # hopeless beyond order 3


def bench_spec(config: str) -> str:
    """BACKEND[:key=value,...] as a bench backend (BACKEND:key=value:...)."""
    return config.replace(",", ":")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instances", nargs="+", default=INSTANCES)
    ap.add_argument("--configs", nargs="+", default=CONFIGS)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--csv", type=Path)
    args = ap.parse_args()
    work = []
    for name in args.instances:
        path = ROOT / "instances" / f"magichex_{name}.txt"
        order = tilesolve.load(path).info()["order"]
        work += [(path, config, seed) for config in args.configs
                 if order <= SKIP_ABOVE.get(config, 99) for seed in range(args.seeds)]
    rows = []
    print("| instance | config | seed | status | wall s | cpu s |")
    print("|---|---|---|---|---|---|")
    runs = run_each([(p, bench_spec(c), s) for p, c, s in work],
                    Budget(time_limit=args.time_limit, threads=args.threads))
    for (path, config, seed), run in zip(work, runs, strict=True):
        rows.append({"instance": path.stem, "config": config, "seed": seed,
                     "status": run["status"], "verified": run["verified"],
                     "wall_s": round(run["seconds"], 3), "cpu_s": round(run["cpu_seconds"], 3),
                     "found_by": run["stats"].get("found_by", "")})
        print(f"| {path.stem} | {config} | {seed} | {run['status']} | "
              f"{rows[-1]['wall_s']} | {rows[-1]['cpu_s']} |", flush=True)
    if args.csv:
        write_csv(rows, args.csv, list(rows[0]))


if __name__ == "__main__":
    main()
