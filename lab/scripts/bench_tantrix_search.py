"""Time the Tantrix search backend end to end: every puzzle x seed through the real command line.

    .venv/bin/python lab/scripts/bench_tantrix_search.py [--seeds 0-4] [--threads 0]
        [--time-limit 60] [--engine auto|c|python] [--csv FILE] [GLOB ...]

Default puzzles: Discovery 3..30 (`tantrix_discovery_*.txt`). Each run is
`tilesolve solve --backend search PUZZLE --seed S --json`, so the wall time includes start-up,
the search and the checker's verification. Prints one row per puzzle: status over the seeds
(all verified?), the slowest and median wall time, the search's own seconds, nodes and nodes
per second. Timings on a shared machine vary; run it on an idle one for comparable numbers.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from tilesolve.bench import run_command, write_csv

ROOT = Path(__file__).resolve().parents[2]


def seeds_of(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def run_once(path: Path, seed: int, args: argparse.Namespace) -> dict:
    run = run_command(path, f"search:engine={args.engine}", seed, args.time_limit,
                      args.threads, cwd=ROOT)
    res, wall = run["result"], run["wall"]
    if res is None:
        return {"status": "error", "verified": False, "wall": wall, "seconds": None,
                "nodes": 0, "nodes_per_s": 0, "message": run["stderr"].strip()}
    stats = res.get("stats", {})
    return {"status": res["status"], "verified": res["verified"], "wall": wall,
            "seconds": res["seconds"], "nodes": stats.get("nodes", 0),
            "nodes_per_s": stats.get("nodes_per_s") or 0, "workers": stats.get("workers")}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("globs", nargs="*", default=["tantrix_discovery_*.txt"])
    ap.add_argument("--seeds", default="0-4", help="a seed or a range A-B")
    ap.add_argument("--threads", type=int, default=0, help="0 = every core")
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--engine", default="auto")
    ap.add_argument("--csv", type=Path, help="one row per run")
    args = ap.parse_args()
    paths = sorted({p for g in args.globs for p in (ROOT / "instances").glob(g)})
    seeds = seeds_of(args.seeds)
    rows = []
    print(f"{'puzzle':26} {'solved':>7} {'max s':>7} {'median s':>8} {'search s':>8} "
          f"{'nodes':>10} {'nodes/s':>9}")
    for path in paths:
        runs = []
        for seed in seeds:
            r = run_once(path, seed, args)
            runs.append(r)
            rows.append({"puzzle": path.stem, "seed": seed, **r})
        good = sum(r["status"] == "solved" and r["verified"] for r in runs)
        walls = [r["wall"] for r in runs]
        search = max((r["seconds"] or 0) for r in runs)
        nodes = sum(r["nodes"] for r in runs)
        rate = statistics.mean(r["nodes_per_s"] for r in runs)
        print(f"{path.stem:26} {good:>3}/{len(runs):<3} {max(walls):7.2f} "
              f"{statistics.median(walls):8.2f} {search:8.2f} {nodes:10d} {rate:9.0f}",
              flush=True)
        for r in runs:
            if r.get("message"):
                print(f"  {r['message']}")
    if args.csv:
        write_csv(rows, args.csv, list(rows[0]))
        print(f"wrote {args.csv}")


if __name__ == "__main__":
    main()
