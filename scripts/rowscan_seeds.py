"""Nodes and CPU seconds of the rowscan search to its first board, seed by seed.

One thread, in this process (no start-up counted), each board checked by the family's
checker. The nodes to a board vary by orders of magnitude with the seed, so a change to the
search is judged on many seeds and on more than one board: this prints every seed, then the
median and range of nodes and CPU seconds per setting, and the load before and after.

    python scripts/rowscan_seeds.py ../shared/e2_data/brendan/pieces_07x07.txt --seeds 0-15
    python scripts/rowscan_seeds.py gen:7:301 gen:7:302 --seeds 0-7 --lookahead none,below
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.edgematch import search
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.generate import generate
from tilesolve.families.edgematch.parse import read_instance


def board(spec: str):
    """A board file, or gen:SIZE:SEED for the generator's board at the hardest colour counts."""
    if spec.startswith("gen:"):
        _, size, seed = spec.split(":")
        return generate(int(size), int(size), seed=int(seed))[0]
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
    ap.add_argument("boards", nargs="+", help="board files or gen:SIZE:SEED")
    ap.add_argument("--seeds", default="0-15", help="first-last search seeds (default 0-15)")
    ap.add_argument("--lookahead", default="none", help="settings to compare, comma-separated")
    ap.add_argument("--restart", type=int, default=search.RESTART_UNIT)
    ap.add_argument("-t", "--time-limit", type=float, default=120.0, help="wall s per seed")
    args = ap.parse_args()
    first, last = map(int, args.seeds.split("-"))
    print(f"load {os.getloadavg()[0]:.2f}")
    for spec in args.boards:
        inst = board(spec)
        for mode in args.lookahead.split(","):
            params = {"lookahead": mode, "restart": args.restart}
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
                print(f"== {spec} lookahead={mode}: million nodes {spread(nodes, '{:.1f}')}, "
                      f"CPU s {spread(cpus, '{:.2f}')}, sum {sum(cpus):.1f}, not solved "
                      f"{unsolved}", flush=True)
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
