"""The magic hexagon's frontier: orders 7 (2..128) and 8 (-84..84), exact and hybrid, timed.

    .venv/bin/python lab/scripts/magichex_frontier.py                    # every config, 3 seeds
    .venv/bin/python lab/scripts/magichex_frontier.py --configs hybrid --seeds 10 -t 60 \
        --csv lab/results/magichex_frontier_60s.csv
    .venv/bin/python lab/scripts/magichex_frontier.py --report      # the CSV as the page's table

Each run is one `tilesolve solve ... --threads 2 --json -o BOARD` process (a config may
override the threads), one at a time:
its wall seconds, its CPU seconds (the process and its solver threads, start to exit) and the
1-minute load average when it ended (the machine is shared: CPU seconds are the comparable
number). Every "solved" is the checker's; the solved boards are written under --boards (one
per instance, the first found) and checked again with `tilesolve verify`. Rows are appended
to --csv as they end; a run already in the CSV is not run again.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import time
from pathlib import Path

from experiment import append_row

ROOT = Path(__file__).resolve().parents[2]
TILESOLVE = [str(ROOT / ".venv" / "bin" / "tilesolve")]
INSTANCES = ["magichex_7_2", "magichex_8_zero"]
# name -> the solve command's backend options
CONFIGS = {
    "exact": ["--backend", "cpsat", "--strategy", "auto"],
    "exact+channel": ["--backend", "cpsat", "--strategy", "auto", "--channel", "true"],
    "exact+fixed": ["--backend", "cpsat", "--strategy", "fixed"],
    "hybrid": ["--backend", "cpsat", "--strategy", "tabu"],
    # the same with one thread: one tabu search instead of one per thread
    "hybrid-1thread": ["--backend", "cpsat", "--strategy", "tabu", "--threads", "1"],
    # the tabu search stopped after 1 s: CP-SAT gets a board a few lines off as its hint
    "near-hint": ["--backend", "cpsat", "--strategy", "tabu", "--tabu-seconds", "1"],
}
FIELDS = ["instance", "config", "seed", "time_limit", "status", "verified", "found_by",
          "tabu_cost", "tabu_s", "wall_s", "cpu_s", "load1"]


def children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def run(instance: str, config: str, seed: int, limit: float, board: Path) -> dict:
    path = ROOT / "instances" / f"{instance}.txt"
    cmd = [*TILESOLVE, "solve", str(path), "--threads", "2", *CONFIGS[config], "-t", str(limit),
           "--seed", str(seed), "--json", "-o", str(board)]
    t0, c0 = time.monotonic(), children_cpu()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall, cpu = time.monotonic() - t0, children_cpu() - c0
    try:
        res = json.loads(done.stdout)
    except json.JSONDecodeError:
        res = {"status": "error", "stats": {"error": done.stderr.strip()[-200:]}}
    return {"instance": instance, "config": config, "seed": seed, "time_limit": limit,
            "status": res.get("status"), "verified": res.get("verified"),
            "found_by": res.get("stats", {}).get("found_by", ""),
            "tabu_cost": res.get("stats", {}).get("tabu_cost", ""),
            "tabu_s": res.get("stats", {}).get("tabu_seconds", ""),
            "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "load1": round(os.getloadavg()[0], 1)}


def done_runs(csv_path: Path) -> set[tuple]:
    if not csv_path.exists():
        return set()
    with csv_path.open() as fh:
        return {(r["instance"], r["config"], int(r["seed"])) for r in csv.DictReader(fh)}


def keep_board(row: dict, tmp: Path, boards: Path) -> None:
    """The first verified board per instance, checked once more by `tilesolve verify`."""
    dest = boards / f"{row['instance']}_solution.txt"
    if row["status"] != "solved" or dest.exists():
        return
    path = ROOT / "instances" / f"{row['instance']}.txt"
    ok = subprocess.run([*TILESOLVE, "verify", str(path), str(tmp)], capture_output=True,
                        check=False).returncode == 0
    if ok:
        dest.write_text(tmp.read_text())


def report(csv_path: Path) -> None:
    with csv_path.open() as fh:
        rows = list(csv.DictReader(fh))
    print("| " + " | ".join(FIELDS) + " |")
    print("|" + "---|" * len(FIELDS))
    for row in rows:
        print("| " + " | ".join(row.get(k) or "" for k in FIELDS) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instances", nargs="+", default=INSTANCES)
    ap.add_argument("--configs", nargs="+", default=list(CONFIGS), choices=list(CONFIGS))
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("-t", "--time-limit", type=float, default=120.0)
    ap.add_argument("--csv", type=Path, default=ROOT / "lab/results/magichex_frontier.csv")
    ap.add_argument("--boards", type=Path, default=ROOT / "lab/pages")
    ap.add_argument("--report", action="store_true", help="print the CSV as a table, run nothing")
    args = ap.parse_args()
    if args.report:
        report(args.csv)
        return
    seen = done_runs(args.csv)
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.csv.with_suffix(".board.txt")
    for instance in args.instances:
        for config in args.configs:
            for seed in range(args.seeds):
                if (instance, config, seed) in seen:
                    continue
                row = run(instance, config, seed, args.time_limit, tmp)
                keep_board(row, tmp, args.boards)
                append_row(args.csv, FIELDS, row)
    tmp.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
