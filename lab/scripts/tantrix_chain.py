"""Score against CPU hours for a chain of runs, each started from the board the one before found.

The best Tantrix Loop and Curve boards come from such chains: `tilesolve solve ... --hint BEST
--json -o BOARD --log-jsonl LOG`, then the same from the new board with another seed or
option. Each run's result (`--json` output, with `stats.total_cpu_seconds`) sits beside its
log (`NAME.json`, `NAME.log.jsonl`, one line per better verified board with its wall second
`t`). A line's CPU seconds are its `t` times the run's CPU over wall seconds (CP-SAT's eight
workers keep both cores busy, so the ratio holds through the run); the chain's clock adds the
runs' CPU seconds end to end.

    python lab/scripts/tantrix_chain.py \\
        --chain "Loop:lab/results/tantrix_56_cpsat8/loop56_cpsat8_s0_from_best,..." \\
        --chain "Curve:..." --goal Loop=136 --goal Curve=141 \\
        --plot lab/pages/tantrix_56_chain.png

prints each chain's table (run, start, end, CPU hours at its end) and draws the plot.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import experiment


@dataclass
class Run:
    name: str
    start: int
    end: int
    cpu: float  # the run's CPU seconds
    points: list[tuple[float, int]]  # (CPU seconds into the run, score), better boards only


def read_run(stem: str) -> Run:
    """A run from its result (`stem.json`) and its log (`stem.log.jsonl`)."""
    res = json.loads(Path(stem + ".json").read_text())
    cpu, wall = float(res["stats"]["total_cpu_seconds"]), float(res["seconds"])
    lines = [json.loads(x) for x in Path(stem + ".log.jsonl").read_text().splitlines() if x]
    points = [(float(x["t"]) * cpu / wall, int(x["score"])) for x in lines if x.get("verified")]
    if not points:
        raise SystemExit(f"{stem}.log.jsonl: no verified board")
    return Run(Path(stem).name, points[0][1], int(res["objective"]), cpu, points)


def chain_points(runs: list[Run]) -> list[tuple[float, int]]:
    """(CPU hours since the chain's start, best score) at each better board and each run's end."""
    out, clock, best = [], 0.0, None
    for r in runs:
        for t, score in r.points:
            if best is None or score > best:
                best = score
                out.append(((clock + t) / 3600, best))
        clock += r.cpu
        out.append((clock / 3600, best))
    return out


def table(label: str, runs: list[Run]) -> str:
    rows = [f"{label}:", "| run | from | to | CPU h at its end |", "|---|---:|---:|---:|"]
    clock = 0.0
    for r in runs:
        clock += r.cpu
        rows.append(f"| {r.name} | {r.start} | {r.end} | {clock / 3600:.2f} |")
    return "\n".join(rows)


def plot(chains: dict[str, list[Run]], goals: dict[str, int], path: str) -> None:
    fig, ax = experiment.pyplot().subplots(figsize=(7, 4.2))
    for (label, runs), colour in zip(chains.items(), ("tab:blue", "tab:orange", "tab:green"),
                                     strict=False):
        pts = chain_points(runs)
        ax.step([x for x, _ in pts], [y for _, y in pts], where="post", color=colour,
                label=label)
        if label in goals:
            ax.axhline(goals[label], color=colour, linestyle=":", linewidth=1)
            ax.annotate(f"{label} goal {goals[label]}", (0, goals[label]), color=colour,
                        fontsize=8, xytext=(2, 2), textcoords="offset points")
    experiment.label_axes(ax, "Tantrix 56: best verified board along the chain of runs",
                          "CPU hours (two cores, CP-SAT's eight workers)",
                          "score (tiles on each colour's longest piece)")
    experiment.save(fig, path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chain", action="append", required=True,
                    help="LABEL:STEM,STEM,... (each STEM.json and STEM.log.jsonl), in order")
    ap.add_argument("--goal", action="append", default=[], help="LABEL=SCORE, drawn as a line")
    ap.add_argument("--plot", help="a .png to draw")
    args = ap.parse_args()
    chains = {}
    for spec in args.chain:
        label, _, stems = spec.partition(":")
        chains[label] = [read_run(s) for s in stems.split(",") if s]
    goals = {k: int(v) for k, _, v in (g.partition("=") for g in args.goal)}
    for label, runs in chains.items():
        print(table(label, runs))
    if args.plot:
        plot(chains, goals, args.plot)


if __name__ == "__main__":
    main()
