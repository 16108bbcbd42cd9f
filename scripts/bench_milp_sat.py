#!/usr/bin/env python3
"""Time the MILP and SAT backends (each solver) on edge-matching instances, one CLI run each.

    python scripts/bench_milp_sat.py --time-limit 300 \
        instances/e2_6x6.txt ../shared/e2_data/brendan/pieces_06x06.txt

Prints one row per run (status, verified, seconds, solver statistics) and a CSV with --csv.
Runs are sequential with one thread each; timings on a shared machine are anecdotes.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = [("milp", "cbc"), ("milp", "highs"), ("sat", "cadical195"), ("sat", "glucose4")]


def run(instance: Path, backend: str, solver: str, limit: float, extra: list[str]) -> dict:
    cmd = [sys.executable, "-m", "tilesolve", "solve", str(instance), "--backend", backend,
           "--solver", solver, "--time-limit", str(limit), "--threads", "1", "--json", *extra]
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=limit + 120)
    if not res.stdout.strip():
        return {"status": "error", "stats": {"error": res.stderr.strip()}}
    return json.loads(res.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("instances", nargs="+", type=Path)
    ap.add_argument("--time-limit", type=float, default=300)
    ap.add_argument("--configs", default=",".join(f"{b}:{s}" for b, s in CONFIGS),
                    help="backend:solver pairs, comma separated")
    ap.add_argument("--objective", choices=["matches"], default=None)
    ap.add_argument("--csv", type=Path, default=None)
    args = ap.parse_args(argv)
    extra = ["--objective", args.objective] if args.objective else []
    rows = []
    for inst in args.instances:
        for pair in args.configs.split(","):
            backend, solver = pair.split(":")
            out = run(inst.resolve(), backend, solver, args.time_limit, extra)
            st = out.get("stats", {})
            row = {
                "instance": inst.name, "backend": backend, "solver": solver,
                "status": out["status"], "verified": out.get("verified"),
                "seconds": out.get("seconds"), "objective": out.get("objective"),
                "variables": st.get("variables"),
                "constraints": st.get("constraints", st.get("clauses")),
                "conflicts": st.get("conflicts"),
            }
            rows.append(row)
            print("  ".join(f"{k}={v}" for k, v in row.items() if v is not None), flush=True)
    if args.csv:
        with args.csv.open("w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
