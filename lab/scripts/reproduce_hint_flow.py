"""Does a GA elite help CP-SAT? Exact time (or score) with and without the GA's best board.

For every instance a GA runs first (--ga-time seconds, its best board saved as a solution
file), then `tilesolve.bench` runs CP-SAT (one worker) with no hint and with that board as a
hint (`cpsat:hint=...`), over --seeds seeds. Satisfaction instances compare time to solve;
with --objective matches (optimisation), compare the score reached within the time limit.

    python lab/scripts/reproduce_hint_flow.py instances/e2_6x6.txt instances/e2_7x7.txt -t 60
    python lab/scripts/reproduce_hint_flow.py instances/e2_16x16.txt --objective matches -t 30
    python lab/scripts/reproduce_hint_flow.py instances/e2_7x7.txt --exact-options no_symmetry=true

The GA's own time is not part of the hinted CP-SAT times; it is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from rich.console import Console

import tilesolve
from tilesolve.bench import Budget, run_bench, table


def elite(instance: str, seconds: float, seed: int, objective: str | None, out: Path) -> dict:
    """Run the GA and keep its best board (solved or not) as a JSON solution file."""
    res = tilesolve.load(instance).solve("ga", time_limit=seconds, seed=seed, threads=1,
                                         objective=objective)
    board = res.to_json()["solution"]  # the best board, verified or not
    if board is None:
        raise SystemExit(f"the GA returned no board for {instance}")
    out.write_text(json.dumps(board) + "\n")
    stats = res.stats
    return {"instance": Path(instance).stem, "ga_status": res.status.value,
            "ga_seconds": round(res.seconds, 2), "ga_fitness": stats.get("best_fitness"),
            "max_fitness": stats.get("max_fitness")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("instances", nargs="+")
    ap.add_argument("--time-limit", "-t", type=float, default=60.0, help="CP-SAT seconds")
    ap.add_argument("--ga-time", type=float, default=20.0, help="GA seconds for the elite")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--objective", choices=["matches"], default=None)
    ap.add_argument("--exact-options", default="",
                    help="backend options for both CP-SAT columns, e.g. no_symmetry=true "
                         "(a symmetry-breaking pin may contradict the GA's board)")
    ap.add_argument("--jobs", type=int, default=1, help="parallel CP-SAT runs (1: fair timing)")
    ap.add_argument("--out", default=None, help="CSV of every run")
    ap.add_argument("--json", default=None, help="runs, summary and GA elites as JSON")
    args = ap.parse_args()

    console = Console(width=120)
    with tempfile.TemporaryDirectory() as tmp:
        elites = []
        for inst in args.instances:
            path = Path(tmp) / f"{Path(inst).stem}.json"
            info = elite(inst, args.ga_time, 0, args.objective, path)
            elites.append(info)
            console.print(f"GA elite for {info['instance']}: {info['ga_status']}, fitness "
                          f"{info['ga_fitness']}/{info['max_fitness']} in {info['ga_seconds']} s")
        budget = Budget(time_limit=args.time_limit, threads=1, objective=args.objective)
        extra = "".join(f":{o}" for o in args.exact_options.split(",") if o)
        backends = [f"cpsat{extra}", f"cpsat{extra}:hint={tmp}/{{stem}}.json"]
        rows, summary = run_bench(args.instances, backends, args.seeds, budget,
                                  out_csv=args.out, jobs=args.jobs)
    for s in summary:
        s["backend"] = "cpsat+hint" if "hint=" in s["backend"] else "cpsat"
    console.print(table(summary, title="CP-SAT with and without a GA elite hint"))
    if args.json:
        Path(args.json).write_text(json.dumps({"elites": elites, "summary": summary,
                                               "runs": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
