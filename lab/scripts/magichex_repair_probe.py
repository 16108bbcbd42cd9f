"""Can CP-SAT finish the tabu search's near miss? Free the cells of its wrong lines (and more).

    .venv/bin/python lab/scripts/magichex_repair_probe.py instances/magichex_7_2.txt \\
        --extra 0 20 40 --seed 0 -t 20

The tabu search runs --tabu-seconds (default 1 s) from a random board; every cell on a line
whose sum is off, plus --extra cells drawn at random, is freed; the other cells keep their
numbers. CP-SAT (two workers) then solves the magic hexagon on the freed cells exactly: a
board (checked by the family's checker), a proof that this neighbourhood holds none, or
nothing within -t. One line per --extra, with the freed cells and CPU seconds.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from ortools.sat.python import cp_model

from tilesolve.families.magichex.check import verify
from tilesolve.families.magichex.parse import read_instance
from tilesolve.families.magichex.tabu import LineAlgebra, tabu_search


def neighbourhood(inst, values: np.ndarray, free: set[int], limit: float) -> tuple[str, bool]:
    """Solve the hexagon with the cells outside `free` fixed; (status, verified board)."""
    m = cp_model.CpModel()
    domain = cp_model.Domain.from_values(sorted(int(values[i]) for i in free))
    x = {c: m.new_int_var_from_domain(domain, f"x{i}") if i in free else int(values[i])
         for i, c in enumerate(inst.cells)}
    m.add_all_different([x[c] for i, c in enumerate(inst.cells) if i in free])
    for _name, line in inst.lines:
        m.add(sum(x[c] for c in line) == inst.magic)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    solver.parameters.max_time_in_seconds = limit
    status = solver.solve(m)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return solver.status_name(status), False
    board = {c: v if isinstance(v, int) else solver.value(v) for c, v in x.items()}
    return "FEASIBLE", verify(inst, board).ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("instance")
    ap.add_argument("--extra", type=int, nargs="+", default=[0, 20, 40])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tabu-seconds", type=float, default=1.0)
    ap.add_argument("-t", "--time-limit", type=float, default=20.0)
    args = ap.parse_args()
    inst = read_instance(args.instance)
    rng = np.random.default_rng(args.seed)
    res = tabu_search(inst, rng, deadline=time.monotonic() + args.tabu_seconds)
    la = LineAlgebra(inst)
    wrong = la.errors(res.values) != 0
    on_wrong = set(np.flatnonzero(la.a.T @ wrong > 0).tolist())
    print(f"{inst.name}: tabu cost {res.cost}, {int(wrong.sum())} lines off, "
          f"{len(on_wrong)} cells on them")
    for extra in args.extra:
        free = on_wrong | set(rng.choice(la.n, extra, replace=False).tolist())
        c0 = time.process_time()
        status, ok = neighbourhood(inst, res.values, free, args.time_limit)
        print(f"  {len(free)} cells free: {status}{' (verified)' if ok else ''}, "
              f"{time.process_time() - c0:.1f} CPU s", flush=True)


if __name__ == "__main__":
    main()
