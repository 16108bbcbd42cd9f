"""Downing's two unsolved 56-tile puzzles (Loop, Curve): the best verified score per backend.

Runs `tesserae solve instances/tantrix_<puzzle>.txt -b BACKEND --objective longest -t T --json
--threads 1` one run at a time and saves each result (the board, the checker's score, wall and
CPU seconds) as results/tantrix_56/<puzzle>_<backend>_t<T>_s<seed>.json when it ends; runs
whose file exists are skipped, so a stopped measurement resumes. Then the best verified board
of each puzzle over every saved run is written to results/tantrix_<puzzle>_best.json (a
`solve --json` result: `tesserae verify INSTANCE FILE --objective longest` reproduces its
score) and a markdown table of the runs is printed.

    python scripts/tantrix_56.py --time-limit 300 --backends search,ga,cpsat
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "results" / "tantrix_56"
PUZZLES = ("loop56", "curve56")
DOWNING = {"loop56": "136 reached (Kuiper, 2003); maximum 136",
           "curve56": "best recorded 140; maximum 146"}


def run_one(puzzle: str, backend: str, limit: float, seed: int, niceness: int) -> dict:
    path = OUT / f"{puzzle}_{backend}_t{limit:g}_s{seed}.json"
    if path.exists():
        return json.loads(path.read_text())
    cmd = ["nice", "-n", str(niceness), sys.executable, "-m", "tesserae", "solve",
           f"instances/tantrix_{puzzle}.txt", "-b", backend, "--objective", "longest",
           "-t", f"{limit:g}", "--seed", str(seed), "--threads", "1", "--json"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        res = json.loads(proc.stdout)
    except json.JSONDecodeError:
        res = {"status": "error", "error": proc.stderr.strip()[-500:]}
    res["wall_seconds"] = round(time.perf_counter() - t0, 1)
    res["cpu_seconds"] = round(after.ru_utime + after.ru_stime - before.ru_utime
                               - before.ru_stime, 1)
    res["time_limit"] = limit
    OUT.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(res) + "\n")
    return res


def best_boards() -> dict[str, dict]:
    """The highest verified score of each puzzle over every saved run, written out."""
    best: dict[str, dict] = {}
    for path in sorted(OUT.glob("*.json")):
        res = json.loads(path.read_text())
        puzzle = path.name.split("_")[0]
        if res.get("verified") and (puzzle not in best
                                    or res["objective"] > best[puzzle]["objective"]):
            best[puzzle] = res
    for puzzle, res in best.items():
        (ROOT / "results" / f"tantrix_{puzzle}_best.json").write_text(json.dumps(res) + "\n")
    return best


def table(rows: list[tuple[str, str, dict]]) -> str:
    out = ["| puzzle | backend | -t (s) | score | status | CPU s | wall s | Downing |",
           "|---|---|---:|---:|---|---:|---:|---|"]
    for puzzle, backend, res in rows:
        score = res.get("objective") if res.get("verified") else "-"
        out.append(f"| {puzzle} | {backend} | {res.get('time_limit', 0):g} | {score} | "
                   f"{res.get('status')} | {res.get('cpu_seconds')} | "
                   f"{res.get('wall_seconds')} | {DOWNING[puzzle]} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", "-t", type=float, default=300)
    ap.add_argument("--backends", default="search,ga,cpsat")
    ap.add_argument("--puzzles", default=",".join(PUZZLES))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--nice", type=int, default=15)
    args = ap.parse_args()
    rows = []
    for puzzle in args.puzzles.split(","):
        for backend in args.backends.split(","):
            res = run_one(puzzle, backend, args.time_limit, args.seed, args.nice)
            rows.append((puzzle, backend, res))
            print(f"{puzzle} {backend}: {res.get('status')} score {res.get('objective')} "
                  f"({res.get('cpu_seconds')} CPU s)", file=sys.stderr, flush=True)
    best_boards()
    print(table(rows))


if __name__ == "__main__":
    main()
