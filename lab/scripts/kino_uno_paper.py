"""The paper-shaped boards of the Kino & Uno page (`reproduce_kino_uno.py --boards paper`):
their shape beside the compact boards', what C6-C9 change on each, and the table at equal
cost: `tilesolve solve` (its default backend, CP-SAT, one thread) as a whole process, every
CPU second counted (start-up, reading, model, solve, check), against the paper's CPLEX
seconds on the same challenge numbers."""

from __future__ import annotations

import csv
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

from experiment import markdown_table

from tilesolve.core import hexgrid as hx
from tilesolve.families.tantrix.challenge import record_shape, tips_wanted, two_neighbour_places
from tilesolve.families.tantrix.parse import read_instance

ROOT = Path(__file__).resolve().parents[2]
TILESOLVE = str(Path(sys.executable).with_name("tilesolve"))
COST_COLUMNS = ("n", "status", "verified", "wall_seconds", "cpu_seconds", "time_limit")
# The paper's fastest total for each challenge number, over its tables (seconds, where)
PAPER_BEST = {5: (0.02, "Table 1"), 10: (0.06, "Table 1"), 15: (0.27, "Table 1"),
              20: (2.84, "Table 2"), 25: (0.86, "Table 3"), 30: (1.86, "Table 4, C6"),
              35: (182.11, "Table 4, C6"), 40: (39.08, "Table 4, C6-C9"),
              45: (8945.70, "Table 5"), 50: (1820.90, "Table 5"), 55: (23785.33, "Table 5"),
              60: (6713.25, "Table 5")}


def board(n: int, kind: str) -> Path:
    stem = f"tantrix_challenge_{'paper_' if kind == 'paper' else ''}{n}.txt"
    return ROOT / "instances" / stem


def paper_sizes() -> list[int]:
    return sorted(int(p.stem.rsplit("_", 1)[1])
                  for p in (ROOT / "instances").glob("tantrix_challenge_paper_*.txt"))


# ---------------------------------------------------------------------- shapes
def _shape(n: int, kind: str) -> tuple[int, int, bool]:
    """Two-neighbour places, boundary edges, the record condition of the paper's footnote."""
    cells = read_instance(board(n, kind)).board
    inside = set(cells)
    rim = sum(nb not in inside for c in cells for nb in hx.neighbours(c))
    return len(two_neighbour_places(cells)), rim, record_shape(cells)


def shape_table(sizes: list[int]) -> str:
    heads = ["n", "two-neighbour places: compact / paper-shaped (wanted)",
             "boundary edges: compact / paper-shaped", "record condition: compact / paper"]
    body = []
    for n in sizes:
        if not board(n, "compact").exists():
            continue
        (tc, rc, kc), (tp, rp, kp) = _shape(n, "compact"), _shape(n, "paper")
        yes = {True: "yes", False: "no"}
        body.append([str(n), f"{tc} / {tp} ({tips_wanted(n)})", f"{rc} / {rp}",
                     f"{yes[kc]} / {yes[kp]}"])
    return markdown_table(heads, body)


# ---------------------------------------------------------------------- equal cost
def cost_csv(out_dir: str) -> Path:
    return Path(out_dir) / "kino_uno_cost.csv"


def load_cost(path: Path) -> dict[int, dict]:
    if not path.exists():
        return {}
    with open(path, newline="") as fh:
        return {int(r["n"]): r for r in csv.DictReader(fh) if r.get("time_limit")}


def run_cost(sizes: list[int], limit: float, path: Path) -> None:
    """One whole `tilesolve solve` process per size the CSV lacks: wall and CPU seconds of
    the child (user + system, from the kernel's accounting of the ended process)."""
    done = load_cost(path)
    new = not path.exists()
    with open(path, "a", newline="") as fh:
        out = csv.DictWriter(fh, COST_COLUMNS)
        if new:
            out.writeheader()
        for n in sizes:
            if n in done:
                continue
            out.writerow(_cost_one(n, limit))
            fh.flush()


def _cost_one(n: int, limit: float) -> dict:
    cmd = [TILESOLVE, "solve", str(board(n, "paper")), "--threads", "1", "-t", str(limit),
           "--json"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    try:
        res = json.loads(proc.stdout)
    except json.JSONDecodeError:
        res = {"status": f"error (exit {proc.returncode})"}
    print(f"cost {n}: {res.get('status')} {cpu:.2f} CPU s", file=sys.stderr, flush=True)
    return {"n": n, "status": res.get("status"), "verified": res.get("verified"),
            "wall_seconds": round(wall, 3), "cpu_seconds": round(cpu, 3), "time_limit": limit}


def cost_table(rows: dict[int, dict]) -> str:
    heads = ["n", "paper: CPLEX s (fastest formulation)", "ours: CPU s, whole process",
             "wall s", "verified", "ours / paper"]
    body = []
    for n, (secs, where) in PAPER_BEST.items():
        r = rows.get(n)
        if r is None:
            body.append([str(n), f"{secs:,.2f} ({where})", "not run", "", "", ""])
            continue
        cpu = float(r["cpu_seconds"])
        solved = r["status"] == "solved"
        mine = f"{cpu:.2f}" if solved else f"{r['status']} ({float(r['time_limit']):.0f} s)"
        body.append([str(n), f"{secs:,.2f} ({where})", mine, f"{float(r['wall_seconds']):.2f}",
                     r["verified"], f"{cpu / secs:.3g}" if solved else ""])
    return markdown_table(heads, body)


# ---------------------------------------------------------------------- what the shape changes
C6_FORMS = ("C2'", "C2' + C6", "C2' + C6-C9")


def c6_table(compact: dict, paper: dict, sizes: list[int], key) -> str:
    """HiGHS CPU seconds (solves) of C2', C2' + C6 and C2' + C6-C9 on either board set;
    `key(form, n)` is the CSV key of the HiGHS run."""
    heads = ["n", *(f"compact: {f}" for f in C6_FORMS), *(f"paper-shaped: {f}" for f in C6_FORMS)]
    body = []
    for n in sizes:
        cells = [_c6_cell(rows.get(key(f, n))) for rows in (compact, paper) for f in C6_FORMS]
        if any(cells):
            body.append([str(n), *cells])
    return markdown_table(heads, body)


def _c6_cell(row: dict | None) -> str:
    if row is None:
        return ""
    if not row["solved"]:
        return row["status"]
    return f"{row['cpu_seconds'] or 0:.2f} ({row['stats'].get('rounds', '')})"
