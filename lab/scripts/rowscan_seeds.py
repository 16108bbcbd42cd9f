"""Nodes and CPU seconds of the rowscan search to its first board, seed by seed.

One thread, in this process (no start-up counted), each board checked by the family's
checker. The nodes to a board vary by orders of magnitude with the seed, so a change to the
search is judged on many seeds and on more than one board: this prints every seed, then the
median and range of nodes and CPU seconds per setting, and the load before and after. A
setting is the backend's options as name=value joined by '/', or `default`.

    python lab/scripts/rowscan_seeds.py ../shared/e2_data/brendan/pieces_07x07.txt --seeds 0-15
    python lab/scripts/rowscan_seeds.py gen:7:301 gen:7:302 --seeds 0-7 \
        --settings lookahead=none,lookahead=below
    python lab/scripts/rowscan_seeds.py gen:7:401 --seeds 0-0 --settings values=fixed
    python lab/scripts/rowscan_seeds.py shuffled:1:../shared/e2_data/brendan/pieces_07x07.txt \
        --seeds 0-0 --settings values=fixed
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from dataclasses import replace

from tilesolve.core.result import SolveOptions, Status
from tilesolve.core.squaregrid import rotate_edges
from tilesolve.families.edgematch import search
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.generate import generate
from tilesolve.families.edgematch.parse import read_instance


def board(spec: str):
    """A board file; gen:SIZE:SEED, the generator's board at the hardest colour counts; or
    shuffled:SEED:FILE, the file's pieces renumbered and turned at random (the same puzzle:
    a fixed value order follows the numbering, so this tells an order's luck on one file)."""
    if spec.startswith("gen:"):
        _, size, seed = spec.split(":")
        return generate(int(size), int(size), seed=int(seed))[0]
    if spec.startswith("shuffled:"):
        _, seed, path = spec.split(":", 2)
        inst, rng = read_instance(path), random.Random(int(seed))
        if inst.fixed:
            raise SystemExit(f"{path}: shuffled: expected a board without fixed pieces")
        pieces = [rotate_edges(e, rng.randrange(4)) for e in inst.pieces]
        rng.shuffle(pieces)
        return replace(inst, pieces=pieces, name=spec)
    return read_instance(spec)


def run(inst, seed: int, limit: float, params: dict) -> tuple[bool, int, float]:
    opts = SolveOptions(time_limit=limit, seed=seed, threads=1, params=dict(params))
    cpu0 = time.process_time()
    out = search.solve(inst, opts)
    cpu = time.process_time() - cpu0
    solved = out.status is Status.SOLVED
    if solved and not verify(inst, out.solution).ok:
        raise SystemExit(f"seed {seed}: the board found does not check")
    return solved, out.stats["nodes"], cpu


def spread(values: list[float], fmt: str) -> str:
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}-" \
           f"{fmt.format(max(values))})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("boards", nargs="+", help="board files, gen:SIZE:SEED or shuffled:SEED:FILE")
    ap.add_argument("--seeds", default="0-15", help="first-last search seeds (default 0-15)")
    ap.add_argument("--settings", default="default",
                    help="settings to compare, comma-separated (e.g. restart=0/values=fixed)")
    ap.add_argument("-t", "--time-limit", type=float, default=120.0, help="wall s per seed")
    args = ap.parse_args()
    first, last = map(int, args.seeds.split("-"))
    print(f"load {os.getloadavg()[0]:.2f}")
    for spec in args.boards:
        inst = board(spec)
        for mode in args.settings.split(","):
            params = search.OPTIONS.validate(dict(kv.split("=", 1) for kv in mode.split("/")
                                                  if mode != "default"))
            nodes, cpus, unsolved = [], [], 0
            for seed in range(first, last + 1):
                solved, n, cpu = run(inst, seed, args.time_limit, params)
                print(f"{spec} {mode} seed {seed}: {'solved' if solved else 'not solved'}, "
                      f"{n:,} nodes, {cpu:.2f} CPU s", flush=True)
                if solved:
                    nodes.append(n / 1e6)
                    cpus.append(cpu)
                else:
                    unsolved += 1
            if nodes:
                print(f"== {spec} {mode}: million nodes {spread(nodes, '{:.1f}')}, "
                      f"CPU s {spread(cpus, '{:.2f}')}, sum {sum(cpus):.1f}, not solved "
                      f"{unsolved}", flush=True)
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
