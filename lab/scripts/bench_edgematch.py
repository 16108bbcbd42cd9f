"""Edge-matching speed: backends x instances x seeds, time to first solution.

Each run is `tilesolve solve --json` in a child process, so the CPU time (user + system of the
child, from getrusage, Python start-up included) is measured beside the wall time: on a shared
machine the CPU time is the fairer number. Prints every run, then one table (solved / timeouts
out of the seeds, CPU and wall seconds as median and range over the solved runs) with the
machine load before and after, and writes a CSV.

By default the instances are Brendan Owen's hardest sets 5x5-9x9 plus, for each size, a board
the generator makes at the same colour counts with a seed never used for tuning (GEN_SEED). A
backend may carry options after a colon: `cpsat:presearch=5:model=bool`.

    python lab/scripts/bench_edgematch.py --backends cpsat,sat,search --seeds 3 --time-limit 20
    python lab/scripts/bench_edgematch.py ../shared/e2_data/brendan/pieces_07x07.txt -b search
    python lab/scripts/bench_edgematch.py --table out/a.csv out/b.csv    # one table of several runs
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
from pathlib import Path

from experiment import planted_file

import tilesolve
from tilesolve.bench import run_command, write_csv

ROOT = Path(__file__).resolve().parents[2]
# the public data beside the repository, or where E2_DATA points
BRENDAN = Path(os.environ.get("E2_DATA", ROOT.parent / "shared" / "e2_data")) / "brendan"
SIZES = (5, 6, 7, 8, 9)
GEN_SEED = 7001  # generated boards: a seed no backend was tuned on
BACKENDS = ("cpsat", "milp", "sat", "ga", "search")


def default_instances(folder: Path) -> list[Path]:
    out = []
    for n in SIZES:
        out += [BRENDAN / f"pieces_{n:02d}x{n:02d}.txt", planted_file(folder, n, GEN_SEED)]
    return out


def run_one(instance: Path, spec: str, seed: int, limit: float, threads: int) -> dict:
    run = run_command(instance, spec, seed, limit, threads, timeout=limit + 120, cwd=ROOT)
    row = {
        "instance": instance.name, "backend": spec, "seed": seed, "threads": threads,
        "status": "error", "verified": False, "wall_s": round(run["wall"], 3),
        "cpu_s": round(run["cpu"], 3),
        "solver_s": None, "nodes": None, "nodes_per_s": None, "max_depth": None,
    }  # fmt: skip
    data = run["result"]
    if data is None:
        row["status"] = f"error (exit {run['exit']}): {run['stderr'].strip()[-120:]}"
        return row
    stats = data.get("stats", {})
    row.update(
        status=data["status"],
        verified=data["verified"],
        solver_s=data["seconds"],
        nodes=stats.get("nodes"),
        nodes_per_s=stats.get("nodes_per_s"),
        max_depth=stats.get("max_depth"),  # the search's deepest cell: its progress on a timeout
    )
    return row


def available(spec: str) -> bool:
    """Backends the edge-matching family declares."""
    return spec.split(":")[0] in tilesolve.load(ROOT / "instances" / "e2_4x4.txt").backends


def spread(values: list[float]) -> str:
    """'median (min-max)' of a few timings, or '-' when there are none."""
    if not values:
        return "-"
    med = statistics.median(values)
    if len(values) == 1:
        return f"{med:.2f}"
    return f"{med:.2f} ({min(values):.2f}-{max(values):.2f})"


def summary(rows: list[dict], instances: list[Path], backends: list[str]) -> list[str]:
    """The table, as markdown lines: one row per instance and backend."""
    out = [
        "| board | backend | solved | timeouts | CPU s, median (range) | wall s, median (range) "
        "| CPU s spent by the timeouts | deepest cell (search) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for inst in instances:
        for backend in backends:
            mine = [r for r in rows if r["instance"] == inst.name and r["backend"] == backend]
            ok = [r for r in mine if r["status"] == "solved" and r["verified"]]
            late = [r for r in mine if r["status"] == "timeout"]
            depth = [int(r["max_depth"]) for r in late if r.get("max_depth") not in (None, "")]
            out.append(
                f"| {inst.stem} | {backend} | {len(ok)}/{len(mine)} | {len(late)} | "
                f"{spread([r['cpu_s'] for r in ok])} | {spread([r['wall_s'] for r in ok])} | "
                f"{spread([r['cpu_s'] for r in late])} | {max(depth) if depth else '-'} |"
            )
    return out


def read_rows(paths: list[Path]) -> list[dict]:
    """Rows of earlier runs' CSV files, numbers and flags as run_one makes them."""
    rows = []
    for path in paths:
        with path.open(newline="") as fh:
            for row in csv.DictReader(fh):
                row["cpu_s"], row["wall_s"] = float(row["cpu_s"]), float(row["wall_s"])
                row["verified"] = row["verified"] == "True"
                rows.append(row)
    return rows


def table_of(paths: list[Path]) -> None:
    """Print the table of runs already made (several CSV files, in the order given)."""
    rows = read_rows(paths)
    instances = list(dict.fromkeys(Path(r["instance"]) for r in rows))
    backends = list(dict.fromkeys(r["backend"] for r in rows))
    print("\n".join(summary(rows, instances, backends)))


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("instances", nargs="*", type=Path)
    ap.add_argument("-b", "--backends", default=",".join(BACKENDS))
    ap.add_argument("--seeds", type=int, default=3, help="seeds 0..N-1")
    ap.add_argument("-t", "--time-limit", type=float, default=600.0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("-o", "--out", type=Path, default=ROOT / "out" / "bench_edgematch.csv")
    ap.add_argument("--table", type=Path, nargs="+", help="only print the table of these CSVs")
    args = ap.parse_args()
    if args.table:
        table_of(args.table)
        return
    instances = args.instances or default_instances(args.out.parent / "generated")
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    for b in backends:
        if b.split(":")[0] not in BACKENDS:
            ap.error(f"unknown backend {b!r}; expected some of {','.join(BACKENDS)}")
    skipped = [b for b in backends if not available(b)]
    if skipped:
        print(f"skipping backends without an edge-matching module: {', '.join(skipped)}")
    backends = [b for b in backends if b not in skipped]

    print(f"start: {load()}; limit {args.time_limit:g} s, {args.threads} thread(s) per run")
    rows = []
    head = f"{'instance':24} {'backend':16} {'seed':>4} {'status':10} {'wall s':>8} {'cpu s':>8}"
    print(head + f" {'nodes':>12}")
    for inst in instances:
        for backend in backends:
            for seed in range(args.seeds):
                row = run_one(inst, backend, seed, args.time_limit, args.threads)
                rows.append(row)
                print(
                    f"{row['instance']:24} {backend:16} {seed:>4} {row['status'][:10]:10} "
                    f"{row['wall_s']:>8.2f} {row['cpu_s']:>8.2f} {row['nodes'] or '':>12}",
                    flush=True,
                )
    print(f"\nend: {load()}\n")
    print("\n".join(summary(rows, instances, backends)))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_csv(rows, args.out, list(rows[0]) if rows else ["instance"])
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
