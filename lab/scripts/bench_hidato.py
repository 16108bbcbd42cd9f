"""GA success rates on the shipped 19- and 37-cell Hidato boards, with and without RTS and CBGI.

The experiment of da Silva and de Magalhães: population 250, 2e5 evaluations, PMX + swap,
steady state with RTS (window 100% -> 10%) and CBGI (c = 20%), against the same GA without
each device, with the GA preset of --preset (paper: "no RTS" = binary tournament, the child
replaces the worst; tuned: generational with one elite). A run succeeds when it reaches
fitness 2N-2 and the checker accepts the board. The paper's Tables 1-6 beside ours:
lab/scripts/reproduce_dasilva.py.

    .venv/bin/python lab/scripts/bench_hidato.py --seeds 30                     # the full table
    .venv/bin/python lab/scripts/bench_hidato.py --seeds 5 --instances hidato_19_0[1-3] --jobs 2

Writes a CSV of every run (--csv FILE, one row as each run ends, so an interrupted sweep keeps
its runs; --resume skips the runs already in FILE) and prints a Markdown table: per class and
variant, the success rate, the mean evaluations of successful runs and the mean seconds per run
(--per-instance: one line per instance). Runs go seed by seed, so a partial sweep has the same
seeds for every instance and variant.

    nice -n 10 .venv/bin/python lab/scripts/bench_hidato.py \
        --instances "hidato_37_*" "hidato_19_*" \
        --seeds 30 --jobs 2 --csv lab/results/hidato_ga_30.csv --resume
    .venv/bin/python lab/scripts/bench_hidato.py --table lab/results/hidato_ga_30.csv --per-instance

`--exact cpsat,sat,milp` instead times the exact backends (model building + solving, in one
process, one thread) on the matched instances, e.g. the speed goals:

    .venv/bin/python lab/scripts/bench_hidato.py --exact cpsat,sat,milp --instances "hidato_*"
"""

from __future__ import annotations

import argparse
import csv
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = {
    "RTS+CBGI": {"rts": "on", "cbgi": "on"},
    "RTS": {"rts": "on", "cbgi": "off"},
    "CBGI": {"rts": "off", "cbgi": "on"},
    "plain": {"rts": "off", "cbgi": "off"},
}


def run_one(task: tuple[str, str, int, int, int, str]) -> dict:
    """One GA run through the bench machinery (module level, so worker processes can run it);
    the row without the instance's givens, which the caller knows."""
    from dataclasses import asdict

    from tilesolve.bench import Budget, backend_spec
    from tilesolve.bench import run_one as bench_run

    path, variant, seed, population, evaluations, preset = task
    params = {**VARIANTS[variant], "preset": preset, "population": str(population),
              "evaluations": str(evaluations)}
    run = bench_run(path, backend_spec("ga", params), seed,
                    asdict(Budget(time_limit=None, threads=1)))
    return {
        "instance": Path(path).stem, "cells": run["cells"], "variant": variant, "seed": seed,
        "solved": run["solved"], "evaluations": run["evaluations"], "best": run["objective"],
        "target": 2 * run["cells"] - 2, "seconds": run["seconds"],
    }


def givens_of(paths: list[Path]) -> dict[str, int]:
    """The number of given cells of each instance, by its name."""
    import tilesolve

    return {p.stem: tilesolve.load(p).info()["givens"] for p in paths}


def exact_times(paths: list[Path], backends: list[str], time_limit: float) -> str:
    from tilesolve.bench import Budget, run_each

    givens = givens_of(paths)
    lines = ["| instance | cells | givens | " + " | ".join(f"{b} s" for b in backends) + " |",
             "|---|---|---|" + "---|" * len(backends)]
    runs = run_each([(p, b, 0) for p in paths for b in backends],
                    Budget(time_limit=time_limit, threads=1))
    for path in paths:
        cols, cells = [], None
        for _ in backends:
            run = next(runs)
            cells, secs = run["cells"], run["seconds"]
            cols.append(f"{secs:.3f}" if run["verified"] else f"{run['status']} ({secs:.1f})")
        lines.append(f"| {path.stem} | {cells} | {givens[path.stem]} | " + " | ".join(cols)
                     + " |")
        print(lines[-1], flush=True)
    return "\n".join(lines)


def summary(sel: list[dict]) -> str:
    """runs | success | mean evaluations of the solved runs | mean seconds per run"""
    won = [r for r in sel if r["solved"]]
    evals = f"{sum(r['evaluations'] for r in won) / len(won):,.0f}" if won else "-"
    secs = sum(r["seconds"] for r in sel) / len(sel)
    return f"{len(sel)} | {100 * len(won) / len(sel):.1f}% | {evals} | {secs:.1f}"


def table(rows: list[dict], per_instance: bool = False) -> str:
    """Per class (or instance) and variant; the class rate pools every run of the class."""
    lines = ["| class | variant | runs | success | mean evals (solved) | mean s/run |",
             "|---|---|---|---|---|---|"]
    for cells in sorted({r["cells"] for r in rows}):
        for variant in VARIANTS:
            sel = [r for r in rows if r["cells"] == cells and r["variant"] == variant]
            if sel:
                lines.append(f"| {cells} cells | {variant} | {summary(sel)} |")
    if not per_instance:
        return "\n".join(lines)
    lines += ["", "| instance | cells | givens | " + " | ".join(VARIANTS) + " |",
              "|---|---|---|" + "---|" * len(VARIANTS)]
    for name in sorted({r["instance"] for r in rows}):
        mine = [r for r in rows if r["instance"] == name]
        cols = []
        for variant in VARIANTS:
            sel = [r for r in mine if r["variant"] == variant]
            won = [r for r in sel if r["solved"]]
            evals = f"{sum(r['evaluations'] for r in won) / len(won):,.0f}" if won else "-"
            cols.append(f"{len(won)}/{len(sel)} ({evals})" if sel else "")
        lines.append(f"| {name} | {mine[0]['cells']} | {mine[0]['givens']} | "
                     + " | ".join(cols) + " |")
    return "\n".join(lines)


def complete_seeds(rows: list[dict]) -> list[dict]:
    """The rows of the seeds that ran on every (instance, variant) pair seen: an interrupted
    sweep then compares like with like."""
    pairs = {(r["instance"], r["variant"]) for r in rows}
    by_seed: dict[int, set] = {}
    for r in rows:
        by_seed.setdefault(r["seed"], set()).add((r["instance"], r["variant"]))
    full = {s for s, seen in by_seed.items() if seen == pairs}
    return [r for r in rows if r["seed"] in full]


def read_rows(names: list[str]) -> list[dict]:
    rows = []
    for name in names:
        with open(name, newline="") as fh:
            for r in csv.DictReader(fh):
                rows.append({**r, "cells": int(r["cells"]), "seed": int(r["seed"]),
                             "solved": r["solved"] == "True",
                             "evaluations": int(r["evaluations"]),
                             "seconds": float(r["seconds"])})
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=30)
    ap.add_argument("--first-seed", type=int, default=0, help="seeds run from here")
    ap.add_argument("--instances", nargs="*", default=["hidato_19_*", "hidato_37_*"],
                    help="glob patterns under instances/")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--preset", default="paper", help="the GA preset: paper or tuned")
    ap.add_argument("--population", type=int, default=250)
    ap.add_argument("--evaluations", type=int, default=200_000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--csv", default="", help="also write every run to this CSV file")
    ap.add_argument("--exact", default="", help="time exact backends instead: cpsat,sat,milp")
    ap.add_argument("--time-limit", type=float, default=120.0, help="per exact solve")
    ap.add_argument("--table", nargs="*", default=None, metavar="CSV",
                    help="only print the table of earlier runs saved with --csv")
    ap.add_argument("--per-instance", action="store_true", help="add a line per instance")
    ap.add_argument("--complete-seeds", action="store_true",
                    help="with --table: only seeds run on every instance and variant")
    ap.add_argument("--resume", action="store_true",
                    help="append to --csv, skipping the runs it already holds")
    args = ap.parse_args()
    if args.table:
        rows = read_rows(args.table)
        if args.complete_seeds:
            rows = complete_seeds(rows)
        print(table(rows, args.per_instance))
        return 0
    paths = []  # in the order of the patterns (e.g. the large class first)
    for pat in args.instances:
        found = sorted(set((ROOT / "instances").glob(pat + ".txt"))
                       | set((ROOT / "instances").glob(pat)))
        paths += [p for p in found if p not in paths]
    if args.exact:
        print(exact_times(paths, [b for b in args.exact.split(",") if b], args.time_limit))
        return 0
    variants = [v for v in args.variants.split(",") if v]
    bad = set(variants) - set(VARIANTS)
    if bad or not paths:
        ap.error(f"unknown variants {bad}" if bad else "no instance matched")
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    done: list[dict] = []
    if args.resume and args.csv and Path(args.csv).exists():
        done = read_rows([args.csv])
    have = {(r["instance"], r["variant"], r["seed"]) for r in done}
    tasks = [(str(p), v, s, args.population, args.evaluations, args.preset)
             for s in seeds for p in paths for v in variants if (p.stem, v, s) not in have]
    rows = list(done)
    out = None
    if args.csv:
        Path(args.csv).parent.mkdir(parents=True, exist_ok=True)
        out = open(args.csv, "a" if done else "w", newline="")
    writer = None
    givens = givens_of(paths)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for fut in as_completed([pool.submit(run_one, t) for t in tasks]):
            run = fut.result()
            row = {"instance": run["instance"], "cells": run["cells"],
                   "givens": givens[run["instance"]], **run}
            rows.append(row)
            print(f"{row['instance']} {row['variant']} seed {row['seed']}: "
                  f"{'solved' if row['solved'] else 'failed'} ({row['best']}/{row['target']}) "
                  f"{row['evaluations']} evals {row['seconds']} s", flush=True)
            if out is not None:
                if writer is None:
                    writer = csv.DictWriter(out, fieldnames=list(row))
                    if not done:
                        writer.writeheader()
                writer.writerow(row)
                out.flush()
    if out is not None:
        out.close()
    print(table(rows, args.per_instance))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
