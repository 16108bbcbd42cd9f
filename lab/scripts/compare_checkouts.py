"""Two checkouts of tilesolve side by side: the CPU seconds of the same solves, interleaved.

Each checkout runs with its own interpreter (`CHECKOUT/.venv/bin/python`, made by the README's
install command) on its own copy of each instance file, one run at a time, alternating
between the checkouts, so that the machine's load falls on both alike. Prints, per instance
and backend, the median and range of the whole process's CPU seconds (Python's start-up and
model building included) and the statuses seen.

    python lab/scripts/compare_checkouts.py /path/to/old /path/to/new --reps 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from tilesolve.bench import run_together  # noqa: E402

# two representative instances per family, each with a backend that solves it in seconds
RUNS = (
    ("magichex_4_3.txt", "cpsat"), ("magichex_5_6.txt", "cpsat"),
    ("tantrix_challenge_20.txt", "cpsat"), ("tantrix_challenge_40.txt", "cpsat"),
    ("hidato_19_01.txt", "cpsat"), ("hidato_37_01.txt", "cpsat"),
    ("e2_5x5.txt", "sat"), ("e2_6x6.txt", "sat"),
)


def solve(checkout: Path, instance: str, backend: str, limit: float) -> tuple[float, str]:
    cmd = [str(checkout / ".venv" / "bin" / "python"), "-m", "tilesolve", "solve",
           str(checkout / "instances" / instance), "--backend", backend, "--threads", "1",
           "--time-limit", str(limit), "--json"]
    done = run_together([cmd], timeout=limit * 3 + 30, cwd=checkout)
    result = done["runs"][0]["result"] or {}
    return done["cpu"], str(result.get("status", "error"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", type=Path, help="the first checkout (with its .venv)")
    ap.add_argument("after", type=Path, help="the second checkout (with its .venv)")
    ap.add_argument("--reps", type=int, default=5, help="runs per instance and checkout")
    ap.add_argument("-t", "--time-limit", type=float, default=60.0)
    args = ap.parse_args()
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    print("| instance | backend | " + " | ".join(f"{k}: CPU s median (range)" for k in trees)
          + " | statuses |")
    print("|---|---|---|---|---|")
    for instance, backend in RUNS:
        cpu: dict[str, list[float]] = {k: [] for k in trees}
        statuses: set[str] = set()
        for _ in range(args.reps):
            for name, tree in trees.items():
                seconds, status = solve(tree, instance, backend, args.time_limit)
                cpu[name].append(seconds)
                statuses.add(status)
        cells = [f"{statistics.median(v):.2f} ({min(v):.2f}-{max(v):.2f})" for v in cpu.values()]
        print(f"| {instance} | {backend} | " + " | ".join(cells)
              + f" | {', '.join(sorted(statuses))} |", flush=True)


if __name__ == "__main__":
    main()
