"""Edge-matching speed: backends x instances x seeds, time to first solution.

Each run is `tilesolve solve --json` in a child process, so the CPU time (user + system of the
child, from getrusage) is measured beside the wall time: on a shared machine the CPU time is
the fairer number. Prints a table and writes a CSV.

    python scripts/bench_edgematch.py --backends cpsat,search --seeds 3 --time-limit 600
    python scripts/bench_edgematch.py ../shared/e2_data/brendan/pieces_07x07.txt -b search
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BRENDAN = ROOT.parent / "shared" / "e2_data" / "brendan"
DEFAULT_INSTANCES = [
    ROOT / "instances" / "e2_6x6.txt",
    BRENDAN / "pieces_06x06.txt",
    BRENDAN / "pieces_07x07.txt",
    BRENDAN / "pieces_08x08.txt",
]
BACKENDS = ("cpsat", "milp", "sat", "ga", "search")


def run_one(instance: Path, backend: str, seed: int, limit: float, threads: int) -> dict:
    cmd = [
        sys.executable, "-m", "tilesolve", "solve", str(instance), "--backend", backend,
        "--json", "--seed", str(seed), "--time-limit", str(limit), "--threads", str(threads),
    ]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=limit + 120)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    row = {
        "instance": instance.name, "backend": backend, "seed": seed, "threads": threads,
        "status": "error", "verified": False, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
        "solver_s": None, "nodes": None, "nodes_per_s": None,
    }  # fmt: skip
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        row["status"] = f"error (exit {proc.returncode}): {proc.stderr.strip()[-120:]}"
        return row
    stats = data.get("stats", {})
    row.update(
        status=data["status"],
        verified=data["verified"],
        solver_s=data["seconds"],
        nodes=stats.get("nodes"),
        nodes_per_s=stats.get("nodes_per_s"),
    )
    return row


def available(backend: str) -> bool:
    """Backends whose edge-matching module exists (some may still be under construction)."""
    from tilesolve.core.family import BACKEND_MODULES

    mod = BACKEND_MODULES.get(backend)
    return mod is not None and (ROOT / "src/tilesolve/families/edgematch" / f"{mod}.py").exists()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("instances", nargs="*", type=Path, default=DEFAULT_INSTANCES)
    ap.add_argument("-b", "--backends", default="cpsat,search")
    ap.add_argument("--seeds", type=int, default=1, help="seeds 0..N-1")
    ap.add_argument("-t", "--time-limit", type=float, default=600.0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("-o", "--out", type=Path, default=ROOT / "out" / "bench_edgematch.csv")
    args = ap.parse_args()
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    for b in backends:
        if b not in BACKENDS:
            ap.error(f"unknown backend {b!r}; expected some of {','.join(BACKENDS)}")
    skipped = [b for b in backends if not available(b)]
    if skipped:
        print(f"skipping backends without an edge-matching module: {', '.join(skipped)}")
    backends = [b for b in backends if b not in skipped]

    rows = []
    head = f"{'instance':24} {'backend':8} {'seed':>4} {'status':10} {'wall s':>8} {'cpu s':>8}"
    print(head + f" {'nodes':>12} {'nodes/s':>11}")
    for inst in args.instances:
        for backend in backends:
            for seed in range(args.seeds):
                row = run_one(inst, backend, seed, args.time_limit, args.threads)
                rows.append(row)
                print(
                    f"{row['instance']:24} {backend:8} {seed:>4} {row['status'][:10]:10} "
                    f"{row['wall_s']:>8.2f} {row['cpu_s']:>8.2f} {row['nodes'] or '':>12} "
                    f"{row['nodes_per_s'] or '':>11}",
                    flush=True,
                )
    print("\nmedian over seeds (solved runs only):")
    for inst in args.instances:
        for backend in backends:
            mine = [r for r in rows if r["instance"] == inst.name and r["backend"] == backend]
            ok = [r for r in mine if r["status"] == "solved" and r["verified"]]
            if ok:
                wall = statistics.median(r["wall_s"] for r in ok)
                cpu = statistics.median(r["cpu_s"] for r in ok)
                print(f"  {inst.name:24} {backend:8} solved {len(ok)}/{len(mine)}  "
                      f"wall {wall:.2f} s  cpu {cpu:.2f} s")
            else:
                print(f"  {inst.name:24} {backend:8} solved 0/{len(mine)}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]) if rows else ["instance"])
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
