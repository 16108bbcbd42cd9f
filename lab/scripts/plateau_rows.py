"""Where a matches board's mismatched joins are, and whether its last rows can do better.

    python lab/scripts/plateau_rows.py ../shared/e2_data/e2_256.txt lab/results/e2_official_*.txt
    python lab/scripts/plateau_rows.py E2 BOARD --from-rows 13 12 11 10 --nodes 200000000

For each board: its score (the checker's), the mismatched joins per row (a join between rows
r and r + 1 counts in row r + 1), and for each first row R given, the break search over rows
R to the last with every other cell fixed, allowed fewer breaks than the board has
(breakscan.research_rows): "better" with the score it found, "none (tree exhausted)" when no
arrangement of those rows' pieces does better, or "none within N placements".
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from tilesolve.core.family import get_family
from tilesolve.families.edgematch import breakscan, lns
from tilesolve.families.edgematch.check import score
from tilesolve.families.edgematch.official import apply_rules
from tilesolve.families.edgematch.parse import read_instance


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("instance")
    ap.add_argument("boards", nargs="+")
    ap.add_argument("--from-rows", type=int, nargs="*", default=[],
                    help="first rows of the bottom bands to search again")
    ap.add_argument("--nodes", type=int, default=20_000_000, help="placements per search")
    a = ap.parse_args()
    inst = apply_rules(read_instance(a.instance))
    board = lns.Board(inst)
    family = get_family("edgematch")
    for path in a.boards:
        sol = family.read_solution(inst, path)
        pcs, rts = board.arrays(sol)
        rows = Counter(int(max(x, y)) // inst.width for (x, _, y), ok in
                       zip(board.joins.tolist(), board.matched(pcs, rts).tolist(),
                           strict=True) if not ok)
        print(f"{path}: {score(inst, sol)}/{len(board.joins)}; mismatches by row "
              f"{dict(sorted(rows.items()))}")
        for first in a.from_rows:
            cpu = time.process_time()
            found, exhausted = breakscan.search_rows(inst, sol, range(first, inst.height), 0,
                                                     a.nodes)
            took = time.process_time() - cpu
            verdict = (f"better: {len(board.joins) - found[1]}" if found is not None else
                       "none (tree exhausted)" if exhausted else
                       f"none within {a.nodes:,} placements")
            print(f"  rows {first}-{inst.height - 1} searched again: {verdict} "
                  f"({took:.1f} CPU s)")


if __name__ == "__main__":
    main()
