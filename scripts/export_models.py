#!/usr/bin/env python3
"""Write models/: DIMACS CNF, LP, MPS, CP-SAT (text proto) and MiniZinc exports, with
variable maps, of small shipped instances of every family, so other solvers can be run on
them without tilesolve.

    python scripts/export_models.py            # the DEFAULT instances -> models/
    python scripts/export_models.py instances/e2_7x7.txt --out /tmp/models
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tilesolve.backends.export import export
from tilesolve.core.family import load_instance

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = [ROOT / "instances" / f"{name}.txt" for name in (
    "e2_4x4", "e2_5x5", "hidato_19_01", "magichex_3", "tantrix_challenge_5")]
KINDS = {"cnf": ".cnf", "lp": ".lp", "mps": ".mps", "cpsat": ".pbtxt", "mzn": ".mzn"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("instances", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--out", type=Path, default=ROOT / "models")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for path in args.instances:
        family, inst = load_instance(path)
        for kind, suffix in KINDS.items():
            print(export(family, inst, kind, args.out / f"{path.stem}{suffix}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
