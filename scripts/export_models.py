#!/usr/bin/env python3
"""Write models/: DIMACS CNF, LP and MPS exports (with variable maps) of the small shipped
edge-matching instances, so other solvers can be run on them without tilesolve.

    python scripts/export_models.py            # instances/e2_{4x4,5x5,6x6}.txt -> models/
    python scripts/export_models.py instances/e2_7x7.txt --out /tmp/models
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tilesolve.core.family import load_instance

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = [ROOT / "instances" / f"e2_{n}x{n}.txt" for n in (4, 5, 6)]
KINDS = ("cnf", "lp", "mps")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("instances", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--out", type=Path, default=ROOT / "models")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for path in args.instances:
        family, inst = load_instance(path)
        export = family.module("export").export
        for kind in KINDS:
            target = args.out / f"{path.stem}.{kind}"
            info = export(inst, kind, target, None)
            print(f"{target.relative_to(args.out.parent)}: {info}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
