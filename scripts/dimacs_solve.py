#!/usr/bin/env python3
"""Solve a DIMACS CNF (or a MaxSAT WCNF) file in its own process and print the answer in
SAT-competition format: `s SATISFIABLE` / `s UNSATISFIABLE` / `s UNKNOWN` (MaxSAT: `o COST`
and `s OPTIMUM FOUND`), then `v` lines of literals ending in 0.

Exit code 0 when it answered (satisfiable, unsatisfiable or an optimum), 4 when the time
limit ran out first (as `tilesolve solve`), 2 bad input; `--exit-codes competition` gives the
SAT competition's instead (10 satisfiable, 20 unsatisfiable, 30 optimum, 0 unknown). This is
the "external solver" side of `tilesolve export`:

    tilesolve export instances/e2_6x6.txt --to cnf -o m.cnf
    python scripts/dimacs_solve.py m.cnf --solver cadical195 --time-limit 60 > m.out
    tilesolve verify instances/e2_6x6.txt m.out --map m.cnf.map.json
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tilesolve.backends.cnf import BUDGETED, UNLIMITED, Deadline, canonical_solver, solve_limited
from tilesolve.backends.stopwatch import Watcher
from tilesolve.core.errors import InputError

NON_INCREMENTAL = ("kissat404",)  # one plain solve call, no way to stop it from inside


def print_model(model: list[int], per_line: int = 20) -> None:
    for i in range(0, len(model), per_line):
        print("v " + " ".join(map(str, model[i : i + per_line])))
    print("v 0")


def is_wcnf(path: Path) -> bool:
    """MaxSAT input: a 'p wcnf' header (old format) or 'h' hard clauses (2022 format)."""
    with path.open() as fh:
        for line in fh:
            if line.startswith(("h ", "p wcnf")):
                return True
            if line.startswith("p cnf"):
                return False
    return False


def solve_cnf(path: Path, name: str, time_limit: float | None) -> int:
    from pysat.formula import CNF
    from pysat.solvers import Solver

    cnf = CNF(from_file=str(path))
    print(f"c {path.name}: {cnf.nv} variables, {len(cnf.clauses)} clauses, solver {name}")
    with Solver(name=name, bootstrap_with=cnf.clauses) as solver:
        if name in NON_INCREMENTAL:
            res = solver.solve()
        else:
            res = solve_limited(solver, name, Deadline(time_limit))
        if res is None:
            print("s UNKNOWN")
            return 0
        if res is False:
            print("s UNSATISFIABLE")
            return 20
        print("s SATISFIABLE")
        print_model(solver.get_model())
        return 10


def solve_wcnf(path: Path, name: str, time_limit: float | None) -> int:
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    wcnf = WCNF(from_file=str(path))
    if name in (*BUDGETED, *UNLIMITED, *NON_INCREMENTAL):
        name = "glucose4"  # RC2 stops through its oracle's interrupt(), which these lack
    print(f"c {path.name}: {wcnf.nv} variables, {len(wcnf.hard)} hard and {len(wcnf.soft)} "
          f"soft clauses, RC2 over {name}")
    with RC2(wcnf, solver=name) as rc2:
        deadline = Deadline(time_limit)
        with Watcher(None, rc2.interrupt, deadline.end):
            model = rc2.compute(expect_interrupt=True)
        if model is None and deadline.over():
            print("s UNKNOWN")
            return 0
        if model is None:
            print("s UNSATISFIABLE")
            return 20
        print(f"o {rc2.cost}")
        print("s OPTIMUM FOUND")
        print_model(model)
        return 30


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dimacs", type=Path, help="DIMACS .cnf or .wcnf file")
    ap.add_argument("--solver", default="cadical195", help="PySAT solver name (cadical195, ...)")
    ap.add_argument("--time-limit", type=float, default=None, help="seconds")
    ap.add_argument("--exit-codes", choices=("plain", "competition"), default="plain",
                    help="plain: 0 answered, 4 unknown; competition: 10/20/30, 0 unknown")
    args = ap.parse_args(argv)
    code = answer(args)
    return code if args.exit_codes == "competition" else PLAIN.get(code, code)


# the competition's codes -> the plain ones: an answer is a success, unknown is a timeout
PLAIN = {10: 0, 20: 0, 30: 0, 0: 4}


def answer(args: argparse.Namespace) -> int:
    """Solve and print; the SAT competition's exit code (2 for bad input)."""
    if not args.dimacs.is_file():
        print(f"error: {args.dimacs}: no such file", file=sys.stderr)
        return 2
    try:
        name = canonical_solver(args.solver)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if name in (*UNLIMITED, *NON_INCREMENTAL) and args.time_limit is not None:
        print(f"error: {name} cannot be time-limited from inside; run it without --time-limit",
              file=sys.stderr)
        return 2
    try:
        if is_wcnf(args.dimacs):
            return solve_wcnf(args.dimacs, name, args.time_limit)
        return solve_cnf(args.dimacs, name, args.time_limit)
    except (ValueError, AssertionError, IndexError) as exc:  # PySAT on malformed DIMACS
        print(f"error: {args.dimacs}: malformed DIMACS ({exc})", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
