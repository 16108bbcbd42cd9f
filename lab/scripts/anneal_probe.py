"""Probe the annealer on an edge-matching board: score against CPU time for one setting.

python lab/scripts/anneal_probe.py BOARD --seconds 60 --seed 0 [--t-hot T --t-cold T --cycle S]
Prints one JSON line per new best (cpu, score) and a summary line; the start board is the
break search's best within --start-time CPU seconds (its options by --param, e.g.
--param keep_last=on).

python lab/scripts/anneal_probe.py BOARD --backend memetic --seconds 240 --seed 0 [--param pool=4]
runs a whole matches backend (lns, memetic, or breakscan: the break search alone) in this
process until it has used --seconds of CPU (not wall: runs on a loaded machine compare at equal
work), same output; --out FILE keeps its best board (`tilesolve verify` reads it).
"""

from __future__ import annotations

import argparse
import importlib
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
    ap.add_argument("--triples", type=float, default=0.0, help="share of swaps made 3-cycles")
    ap.add_argument("--blocks", type=float, default=0.0,
                    help="share of inner moves that turn a 2x2 block")
    ap.add_argument("--penalty", type=float, default=anneal.PENALTY,
                    help="guided local search: weight added to a mismatched join per chunk")
    ap.add_argument("--replicas", type=int, default=1,
                    help="> 1: parallel tempering, chains from --t-hot up to --t-max")
    ap.add_argument("--t-max", type=float, default=anneal.T_MAX)
    ap.add_argument("--sweep", type=int, default=anneal.SWEEP, help="moves per chain between "
                    "exchanges")
    ap.add_argument("--backend", choices=("lns", "memetic", "breakscan"),
                    help="a whole backend instead")
    ap.add_argument("--out", help="with --backend: write the best board here")
    ap.add_argument("--param", action="append", default=[],
                    help="NAME=VALUE backend option (the start board's break search too)")
    a = ap.parse_args()
    inst = apply_rules(read_instance(a.board))
    cpu0 = time.process_time()
    if a.backend:
        run_backend(inst, a)
        return
    opts = SolveOptions(seed=a.seed, objective="matches",
                        params=dict(p.split("=", 1) for p in a.param))
    start = lns.start_board(inst, opts, a.start_time, wall=600.0)  # CPU-bounded start
    board = lns.Board(inst)
    print(json.dumps({"cpu": round(time.process_time() - cpu0, 1), "start": score(inst, start)}))
    trace = []

    def seen(sol, s):
        trace.append((round(time.process_time() - cpu0, 1), s))
        print(json.dumps({"cpu": trace[-1][0], "score": s}), flush=True)

    cpu_start = time.process_time()

    def stop() -> bool:
        return time.process_time() - cpu_start > a.seconds

    extra = {}
    if a.replicas > 1:
        st = anneal.TemperStats()
        best, s = anneal.temper(board, start, a.seed, seconds=1e9, on_improve=seen, stop=stop,
                                temps=anneal.ladder(a.t_hot, a.t_max, a.replicas),
                                sweep=a.sweep, cycle=a.cycle, focus=a.focus, stats=st,
                                triples=a.triples, blocks=a.blocks)
        extra = {"moves": st.moves, "exchanges": st.exchanges, "rounds": st.rounds}
    else:
        best, s = anneal.anneal(board, start, a.seed, seconds=1e9, on_improve=seen, stop=stop,
                                t_hot=a.t_hot, t_cold=a.t_cold, cycle=a.cycle, focus=a.focus,
                                assign_every=a.assign_every, triples=a.triples,
                                blocks=a.blocks, penalty=a.penalty)
    assert score(inst, best) == s
    fixed_ok = all(best[c] == v for c, v in inst.fixed.items())
    cpu = time.process_time() - cpu_start
    if "moves" in extra:
        extra["moves_per_cpu_s"] = round(extra["moves"] / cpu)
    print(json.dumps({"final": s, "cpu": round(time.process_time() - cpu0, 1),
                      "fixed_ok": fixed_ok, **extra}))


def run_backend(inst, a) -> None:
    backend = importlib.import_module(f"tilesolve.families.edgematch.{a.backend}")
    cpu0 = time.process_time()
    params = dict(p.split("=", 1) for p in a.param)

    def seen(sol, s, source=None):
        print(json.dumps({"cpu": round(time.process_time() - cpu0, 1), "score": s,
                          "source": source}), flush=True)

    seen.takes_source = True
    opts = SolveOptions(seed=a.seed, objective="matches", params=params, on_solution=seen,
                        stop=anneal.CpuBudget(a.seconds))
    out = backend.solve(inst, opts)
    assert score(inst, out.solution) == out.objective
    if a.out:
        from tilesolve.families.edgematch.format import format_solution

        with open(a.out, "w") as f:
            f.write(format_solution(inst, out.solution))
    print(json.dumps({"final": out.objective, "cpu": round(time.process_time() - cpu0, 1),
                      "stats": {k: v for k, v in out.stats.items()
                                if isinstance(v, (int, float, str, list))}}))


if __name__ == "__main__":
    main()
