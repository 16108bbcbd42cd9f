"""Time every magic hexagon backend on the shipped instances: wall time, CPU time, status.

    .venv/bin/python scripts/bench_magichex.py                       # the default grid
    .venv/bin/python scripts/bench_magichex.py --instances 4_3 5_6 --configs ga \\
        cpsat:strategy=fixed --time-limit 60 --seeds 3 --csv bench.csv

A configuration is BACKEND[:key=value,...] (the key/value pairs are the backend's extra
command-line options). Every run goes through the normal pipeline, so "solved" means
verified. CPU time is the process's (all solver threads); on a shared machine wall time can
be several times larger, so both are printed.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from tilesolve.core.result import SolveOptions  # noqa: E402
from tilesolve.core.solve import run_backend  # noqa: E402
from tilesolve.core.verdict import finish  # noqa: E402
from tilesolve.families.magichex.model import FAMILY  # noqa: E402

INSTANCES = ["3", "3_zero", "4_3", "5_6", "5_15", "6_21", "7_2", "8_zero"]
CONFIGS = ["cpsat", "cpsat:strategy=auto", "cpsat:strategy=fixed", "sat", "milp", "ga",
           "ga:polish=0", "search"]
SKIP_ABOVE = {"milp": 3, "sat": 3, "search": 3, "ga:polish=0": 3}  # hopeless beyond order 3


def parse_config(text: str) -> tuple[str, dict[str, str]]:
    backend, _, rest = text.partition(":")
    params = dict(kv.split("=", 1) for kv in rest.split(",") if kv)
    return backend, params


def bench_one(path: Path, config: str, time_limit: float, seed: int, threads: int) -> dict:
    backend, params = parse_config(config)
    inst = FAMILY.read_instance(path)
    opts = SolveOptions(time_limit=time_limit, seed=seed, threads=threads, params=params)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    outcome = run_backend(FAMILY, inst, backend, opts)
    res = finish(FAMILY, inst, str(path), backend, outcome, opts, time.perf_counter() - wall0)
    return {
        "instance": path.stem,
        "config": config,
        "seed": seed,
        "status": res.status.value,
        "verified": res.verified,
        "wall_s": round(res.seconds, 3),
        "cpu_s": round(time.process_time() - cpu0, 3),
        "found_by": res.stats.get("found_by", ""),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instances", nargs="+", default=INSTANCES)
    ap.add_argument("--configs", nargs="+", default=CONFIGS)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--csv", type=Path)
    args = ap.parse_args()
    rows = []
    print("| instance | config | seed | status | wall s | cpu s |")
    print("|---|---|---|---|---|---|")
    for name in args.instances:
        path = ROOT / "instances" / f"magichex_{name}.txt"
        order = FAMILY.read_instance(path).order
        for config in args.configs:
            if order > SKIP_ABOVE.get(config, 99):
                continue
            for seed in range(args.seeds):
                row = bench_one(path, config, args.time_limit, seed, args.threads)
                rows.append(row)
                print(f"| {row['instance']} | {config} | {seed} | {row['status']} | "
                      f"{row['wall_s']} | {row['cpu_s']} |", flush=True)
    if args.csv:
        with args.csv.open("w", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
