"""Solve a free-shape Tantrix puzzle on every compact cluster shape, one fixed board at a time.

    .venv/bin/python lab/scripts/tantrix_compact_shapes.py instances/tantrix_super_genius.txt \\
        --min-pairs 21 --radius 2 [--time-limit 20]

Enumerates the hole-free connected sets of n cells (n = the puzzle's tile count) inside a
hexagon of the given radius that have at least --min-pairs touching pairs, keeps one per class
up to translation and rotation, and runs CP-SAT on each as a fixed board. Every solution found
is verified as the free-shape puzzle; "infeasible" on every shape shows that no solution has
such a compact shape. A goal line of colour k through m tiles has m - 1 links and a loop m, each
a touching pair, which gives a sound lower bound for --min-pairs.
"""

from __future__ import annotations

import argparse
import itertools
import time

from tilesolve.core import hexgrid as hx
from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.tantrix import cpsat
from tilesolve.families.tantrix.check import components, holes, verify
from tilesolve.families.tantrix.format import format_solution
from tilesolve.families.tantrix.instance import TantrixInstance, shape_key
from tilesolve.families.tantrix.parse import read_instance


def compact_shapes(n: int, radius: int, min_pairs: int,
                   max_pairs: int | None = None) -> list[list[hx.Hex]]:
    window = list(hx.hexagon(radius + 1))
    index = {c: i for i, c in enumerate(window)}
    pairs = [(index[c], index[hx.neighbour(c, d)]) for c in window for d in (0, 1, 2)
             if hx.neighbour(c, d) in index]
    shapes: dict = {}
    for comb in itertools.combinations(range(len(window)), n):
        chosen = set(comb)
        touching = sum(1 for a, b in pairs if a in chosen and b in chosen)
        if touching < min_pairs or (max_pairs is not None and touching > max_pairs):
            continue
        cells = [window[i] for i in comb]
        if len(components(cells)) == 1 and not holes(cells):
            shapes.setdefault(shape_key(cells), cells)
    return list(shapes.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("instance")
    ap.add_argument("--min-pairs", type=int, required=True)
    ap.add_argument("--max-pairs", type=int, help="only shapes with at most this many pairs")
    ap.add_argument("--radius", type=int, default=2)
    ap.add_argument("--time-limit", type=float, default=20.0, help="seconds per shape")
    args = ap.parse_args()
    inst = read_instance(args.instance)
    t0 = time.perf_counter()
    shapes = compact_shapes(inst.n, args.radius, args.min_pairs, args.max_pairs)
    print(f"{len(shapes)} shapes ({time.perf_counter() - t0:.1f} s)", flush=True)
    tally: dict[str, int] = {}
    for i, cells in enumerate(shapes):
        board = TantrixInstance(inst.tiles, inst.goals, shape="board", board=sorted(cells))
        out = cpsat.solve(board, SolveOptions(time_limit=args.time_limit, threads=2))
        tally[out.status.value] = tally.get(out.status.value, 0) + 1
        if out.status == Status.SOLVED and verify(inst, out.solution).ok:
            print(f"shape {i}: solved and verified\n{format_solution(board, out.solution)}")
            break
    print(", ".join(f"{k} {v}" for k, v in sorted(tally.items())),
          f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
