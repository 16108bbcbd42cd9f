"""Generate the shipped Hidato instances (instances/hidato_*.txt) with `tilesolve generate`.

The two classes of da Silva and de Magalhães (ten 19-cell boards with 6-8 givens, eleven
37-cell boards with 9-13 givens), then larger hex and square boards, some with holes. Every
puzzle is proved unique by the generator. Existing files are kept unless --force is given.

    .venv/bin/python scripts/make_hidato_instances.py [--force] [--only PREFIX]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def plan() -> list[tuple[str, list[str]]]:
    out = []
    rng = random.Random(2017)  # picks the number of givens inside each class's range
    for i in range(1, 11):
        out.append((f"hidato_19_{i:02d}", ["--cells", "19", "--givens", str(rng.randint(6, 8)),
                                           "--seed", str(100 + i)]))
    for i in range(1, 12):
        out.append((f"hidato_37_{i:02d}", ["--cells", "37", "--givens", str(rng.randint(9, 13)),
                                           "--seed", str(200 + i)]))
    out += [
        ("hidato_hex_61", ["--side", "5", "--seed", "1"]),
        ("hidato_hex_91", ["--side", "6", "--seed", "1"]),
        ("hidato_hex_120_holes", ["--side", "7", "--cells", "120", "--seed", "1"]),
        ("hidato_hex_217", ["--side", "9", "--seed", "1"]),
        ("hidato_hex_1000", ["--cells", "1000", "--seed", "1"]),
        ("hidato_square_8x8_holes", ["--shape", "square", "--width", "8", "--height", "8",
                                     "--cells", "56", "--seed", "1"]),
        ("hidato_square_20x20", ["--shape", "square", "--width", "20", "--height", "20",
                                 "--seed", "1"]),
        ("hidato_square_1024", ["--shape", "square", "--cells", "1024", "--seed", "1"]),
    ]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--force", action="store_true", help="regenerate existing files")
    ap.add_argument("--only", default="", help="only names starting with this prefix")
    args = ap.parse_args()
    for name, options in plan():
        if not name.startswith(args.only):
            continue
        path = ROOT / "instances" / f"{name}.txt"
        if path.exists() and not args.force:
            print(f"{name}: kept")
            continue
        t0 = time.perf_counter()
        cmd = [sys.executable, "-m", "tilesolve", "generate", "hidato", *options, "-o", str(path)]
        subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        print(f"{name}: {time.perf_counter() - t0:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
