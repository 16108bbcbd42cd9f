"""Probe the annealer on an edge-matching board: score against CPU time for one setting.

python scripts/anneal_probe.py BOARD --seconds 60 --seed 0 [--t-hot T --t-cold T --cycle S]
Prints one JSON line per new best (cpu, score) and a summary line; the start board is the
break search's best within --start-time CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import time

from tilesolve.core.result import SolveOptions
from tilesolve.families.edgematch import anneal, lns
from tilesolve.families.edgematch.check import score
from tilesolve.families.edgematch.official import apply_rules
from tilesolve.families.edgematch.parse import read_instance


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("board")
    ap.add_argument("--seconds", type=float, default=60, help="CPU seconds of annealing")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start-time", type=float, default=5, help="CPU seconds")
    ap.add_argument("--t-hot", type=float, default=anneal.T_HOT)
    ap.add_argument("--t-cold", type=float, default=anneal.T_COLD)
    ap.add_argument("--cycle", type=float, default=anneal.CYCLE)
    ap.add_argument("--focus", type=float, default=0.5)
    ap.add_argument("--assign-every", type=int, default=0, help="chunks between assignments")
    a = ap.parse_args()
    inst = apply_rules(read_instance(a.board))
    cpu0 = time.process_time()
    opts = SolveOptions(seed=a.seed, objective="matches")
    start = lns.start_board(inst, opts, a.start_time, wall=600.0)  # CPU-bounded start
    board = lns.Board(inst)
    print(json.dumps({"cpu": round(time.process_time() - cpu0, 1), "start": score(inst, start)}))
    trace = []

    def seen(sol, s):
        trace.append((round(time.process_time() - cpu0, 1), s))
        print(json.dumps({"cpu": trace[-1][0], "score": s}), flush=True)

    cpu_start = time.process_time()
    best, s = anneal.anneal(board, start, a.seed, seconds=1e9, on_improve=seen,
                            stop=lambda: time.process_time() - cpu_start > a.seconds,
                            t_hot=a.t_hot, t_cold=a.t_cold, cycle=a.cycle, focus=a.focus,
                            assign_every=a.assign_every)
    assert score(inst, best) == s
    fixed_ok = all(best[c] == v for c, v in inst.fixed.items())
    print(json.dumps({"final": s, "cpu": round(time.process_time() - cpu0, 1),
                      "fixed_ok": fixed_ok}))


if __name__ == "__main__":
    main()
