#!/usr/bin/env python3
"""Time the MILP and SAT backends (each solver) on edge-matching instances, one run each.

    python lab/scripts/bench_milp_sat.py --time-limit 300 \
        instances/e2_6x6.txt ../shared/e2_data/brendan/pieces_06x06.txt

Prints one row per run (status, verified, seconds, solver statistics) and a CSV with --csv.
Runs are sequential with one thread each; timings on a shared machine are anecdotes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tilesolve.bench import Budget, backend_spec, run_each, write_csv

CONFIGS = [("milp", "cbc"), ("milp", "highs"), ("sat", "cadical195"), ("sat", "glucose4")]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("instances", nargs="+", type=Path)
    ap.add_argument("--time-limit", type=float, default=300)
    ap.add_argument("--configs", default=",".join(f"{b}:{s}" for b, s in CONFIGS),
                    help="backend:solver pairs, comma separated")
    ap.add_argument("--objective", choices=["matches"], default=None)
    ap.add_argument("--csv", type=Path, default=None)
    args = ap.parse_args(argv)
    pairs = [tuple(pair.split(":")) for pair in args.configs.split(",")]
    work = [(inst.resolve(), backend_spec(backend, {"solver": solver}), 0)
            for inst in args.instances for backend, solver in pairs]
    budget = Budget(time_limit=args.time_limit, threads=1, objective=args.objective)
    rows = []
    for (instance, _, _), (backend, solver), out in zip(
            work, pairs * len(args.instances), run_each(work, budget), strict=True):
        st = out["stats"]
        row = {
            "instance": instance.name, "backend": backend, "solver": solver,
            "status": out["status"], "verified": out["verified"],
            "seconds": out["seconds"], "objective": out["objective"],
            "variables": st.get("variables"),
            "constraints": st.get("constraints", st.get("clauses")),
            "conflicts": st.get("conflicts"),
        }
        rows.append(row)
        print("  ".join(f"{k}={v}" for k, v in row.items() if v is not None), flush=True)
    if args.csv:
        write_csv(rows, args.csv, list(rows[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
