"""Time to the first board of a puzzle with a solution, seed by seed, through the command.

Each seed is one `tilesolve solve BOARD --backend search --threads T -t LIMIT --seed S --json
-o DIR/...` process, as a user runs it (start-up included), one at a time; its wall and CPU
seconds (the process tree's, from the kernel's accounting of waited-for children) go to a CSV
row as it ends, with the status, the checker's verdict and the search's nodes. Seeds already in
the CSV are skipped, so a stopped measurement resumes. The summary prints the median wall time
to a first board over the seeds: a run that ends at its limit without one counts as longer
than the limit, so the median is known when more than half the seeds found a board, and
"over LIMIT" otherwise.

    python lab/scripts/first_board.py ../shared/e2_data/brendan/pieces_08x08.txt \\
        --seeds 20-29 -t 300 --csv lab/results/first_board_8x8.csv --out lab/results/first_board
    python lab/scripts/first_board.py gen:8:7001 --seeds 20-29 -t 300 --csv ...
    python lab/scripts/first_board.py --report lab/results/first_board_8x8.csv
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
from pathlib import Path

from experiment import append_row, planted_file, run_process

COLUMNS = ("board", "seed", "threads", "limit", "status", "verified", "wall_s", "cpu_s",
           "nodes", "load1")


def board_path(spec: str, folder: str) -> str:
    """A board file, or gen:SIZE:SEED: the generator's board at Brendan Owen's hardest colour
    counts for that size, written once under `folder`."""
    if spec.startswith("gen:"):
        _, size, seed = spec.split(":")
        return str(planted_file(folder, int(size), int(seed)))
    return spec


def one_run(path: str, name: str, seed: int, threads: int, limit: float, boards: str) -> dict:
    """One seed's command, as a CSV row; its board and JSON answer under `boards`."""
    out = Path(boards) / f"{Path(name).stem}_seed{seed}.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    run = run_process(path, "search", seed, {"threads": threads, "time_limit": limit},
                      extra=["-o", str(out)])
    res = run["answer"]
    if run["status"] in ("bad-input", "error"):
        raise SystemExit(f"{name}: {run['status']}: {res.get('error') or run['error']}")
    if res.get("stats") is not None:
        out.with_suffix(".json").write_text(json.dumps(res, indent=1) + "\n")
    return {"board": name, "seed": seed, "threads": threads, "limit": limit,
            "status": run["status"], "verified": run["verified"],
            "wall_s": round(run["seconds"], 2), "cpu_s": round(run["cpu_seconds"], 2),
            "nodes": run["stats"].get("nodes"), "load1": round(load, 2)}


def read_rows(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def summary(rows: list[dict]) -> list[str]:
    """Per board: seeds, boards found, the median wall seconds to a first board."""
    lines = []
    for name in dict.fromkeys(r["board"] for r in rows):
        mine = [r for r in rows if r["board"] == name]
        limit = max(float(r["limit"]) for r in mine)
        times = sorted(float(r["wall_s"]) if r["status"] == "solved" and r["verified"] == "True"
                       else float("inf") for r in mine)
        found = sum(t < float("inf") for t in times)
        med = statistics.median(times)
        median = f"{med:.1f} s" if med < float("inf") else f"over {limit:.0f} s"
        cpu = sum(float(r["cpu_s"]) for r in mine)
        lines.append(f"{name}: {len(mine)} seeds, {found} boards within {limit:.0f} s; "
                     f"median wall to a first board {median}; solved at "
                     f"{', '.join(f'{t:.1f}' for t in times if t < float('inf')) or '-'} s; "
                     f"{cpu:.0f} CPU s in all")
    return lines


def seeds_of(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("boards", nargs="*", help="board files or gen:SIZE:SEED")
    ap.add_argument("--seeds", default="0-9", help="first-last seeds (default 0-9)")
    ap.add_argument("-t", "--time-limit", type=float, default=300.0, help="wall s per seed")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--csv", help="one row per run, appended as each ends")
    ap.add_argument("--out", help="a folder for each run's board and JSON answer")
    ap.add_argument("--report", metavar="CSV", help="print the summary of a CSV and stop")
    args = ap.parse_args()
    if args.report:
        print("\n".join(summary(read_rows(args.report))))
        return
    if not args.csv or not args.out or not args.boards:
        ap.error("a board, --csv and --out are needed to run")
    done = {(r["board"], int(r["seed"])) for r in read_rows(args.csv)}
    for spec in args.boards:
        name = Path(spec).name if not spec.startswith("gen:") else spec.replace(":", "_")
        path = board_path(spec, args.out)
        for seed in seeds_of(args.seeds):
            if (name, seed) in done:
                continue
            append_row(args.csv, COLUMNS,
                       one_run(path, name, seed, args.threads, args.time_limit, args.out))
    print("\n".join(summary(read_rows(args.csv))))


if __name__ == "__main__":
    main()
