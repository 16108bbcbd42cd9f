#!/usr/bin/env python3
"""The times the README quotes, measured: each quoted command over a few seeds, as ranges.

Every case is one README claim (an instance, a backend and its threads); each runs --seeds
times, one run at a time so that runs do not share cores, through `experiment`
(lab/scripts/experiment.py)
(resumable CSV, Ctrl-C keeps finished runs). The page gives the range of CPU and wall seconds
over the seeds, timeouts counted, with the load average of the machine during the runs:

    python lab/scripts/readme_times.py                 # writes lab/pages/readme_times.md
    python lab/scripts/readme_times.py --report-only   # the page from the CSV only
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
from experiment import (  # noqa: E402
    Run,
    announce,
    fmt,
    load_rows,
    main_guard,
    markdown_table,
    parser,
    pending,
    run_all,
)

INSTANCES = ROOT / "instances"
# (README claim, instance, backend spec, threads, time limit in seconds)
CASES = [
    ("first command: 6x6 edge matching", "e2_6x6.txt", "cpsat", 0, 120),
    ("Discovery 30, CP-SAT", "tantrix_discovery_30.txt", "cpsat", 0, 600),
    ("Discovery 30, loop search", "tantrix_discovery_30.txt", "search", 1, 600),
    ("Super Genius, line walk", "tantrix_super_genius.txt", "search", 1, 120),
    ("Super Genius, CP-SAT walk (2 threads)", "tantrix_super_genius.txt", "cpsat", 2, 600),
    ("challenge 60, CP-SAT (2 threads)", "tantrix_challenge_60.txt", "cpsat", 2, 600),
    ("challenge 100, CP-SAT (2 threads)", "tantrix_challenge_100.txt", "cpsat", 2, 600),
]


def runs(seeds: int) -> list[Run]:
    return [Run("readme", claim, f"threads={threads}", str(INSTANCES / inst), backend, seed,
                time_limit=limit, threads=threads)
            for claim, inst, backend, threads, limit in CASES for seed in range(seeds)]


def spread(xs: list[float]) -> str:
    return "-" if not xs else fmt(min(xs)) if len(xs) == 1 else f"{fmt(min(xs))}-{fmt(max(xs))}"


def page(rows: list[dict], loads: list[float]) -> str:
    table = []
    for claim, inst, backend, threads, limit in CASES:
        rs = [r for r in rows if r["row"] == claim]
        ok = [r for r in rs if r["solved"]]
        timeouts = sum(1 for r in rs if r["status"] == "timeout")
        table.append((claim, f"`{inst}`", backend, threads or "all",
                      f"{len(ok)}/{len(rs)}" if rs else "not run",
                      timeouts, spread([r["cpu_seconds"] for r in ok]),
                      spread([r["seconds"] for r in ok]), limit))
    load = f"{min(loads):.1f}-{max(loads):.1f}" if loads else "not recorded"
    return "\n".join([
        "# The README's times, measured",
        "",
        "Written by `lab/scripts/readme_times.py`. Each claim runs once per seed, one run at a "
        "time; CPU seconds are the whole process's (every thread), wall seconds the solve's. "
        f"Machine: {os.cpu_count()} cores, shared; load average during the runs {load}. "
        "Ranges are over the solved runs; a timeout is a run that reached the limit.",
        "",
        markdown_table(["README claim", "instance", "backend", "threads", "solved", "timeouts",
                        "CPU s", "wall s", "limit s"], table),
        "",
    ])


def main() -> None:
    ap = parser(__doc__.splitlines()[0], runs=3, out_dir=str(ROOT / "lab" / "pages"))
    ap.add_argument("--cases", default="", help="only claims matching this regular expression")
    args = ap.parse_args()
    out = Path(args.out_dir)
    csv_path = out / "readme_times.csv"
    todo = [r for r in runs(args.runs) if re.search(args.cases, r.row)]
    loads: list[float] = []
    if not args.report_only:
        announce(pending(todo, csv_path), csv_path, 1)
        run_all(todo, csv_path, jobs=1, on_row=lambda _row: loads.append(os.getloadavg()[0]))
    rows = load_rows(csv_path)
    loads_file = out / "readme_times.load"
    if loads:
        with loads_file.open("a") as fh:
            fh.writelines(f"{x:.2f}\n" for x in loads)
    if loads_file.exists():
        loads = [float(x) for x in loads_file.read_text().split()]
    (out / "readme_times.md").write_text(page(rows, loads))
    print(f"wrote {out / 'readme_times.md'}", file=sys.stderr)


if __name__ == "__main__":
    main_guard(main)
