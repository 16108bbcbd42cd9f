"""Write the shipped Tantrix instance files: Discovery 3..30, Rainbow, Super 5, pyramids, and the
fixed-board "challenge n" puzzles (the 10 Discovery tiles repeated).

The challenge boards are the shape of a solution found by CP-SAT on the free-shape puzzle plus
the cells touching it on one side, so each board is known to admit a solution.

    .venv/bin/python scripts/make_tantrix_instances.py [--challenge-only] [--time-limit S]
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from tesserae.core import hexgrid as hx
from tesserae.core.result import SolveOptions
from tesserae.families.tantrix import catalogue as cat
from tesserae.families.tantrix import cpsat
from tesserae.families.tantrix.model import Goal, TantrixInstance, format_instance, verify

OUT = Path(__file__).resolve().parent.parent / "instances"

RAINBOW = {  # back colour -> goals, shape
    "blue": ([Goal("line", "blue")], "triangle"),
    "red": ([Goal("line", "red")], "triangle"),
    "green": ([Goal("loop", "green")], "free"),
    "yellow": ([Goal("loop", "yellow")], "free"),
    "white": ([Goal("loop", "any")], "free"),
}
SUPER = {
    "junior": ([3, 5, 8, 12, 14, 43, 46, 50, 52, 54], [Goal("loop", "blue")]),
    "student": ([19, 21, 24, 25, 29, 31, 32, 40, 41, 42], [Goal("loop", "green")]),
    "professor": ([2, 11, 15, 17, 20, 30, 38, 39, 44, 45, 51, 56],
                  [Goal("loop", "yellow"), Goal("loop", "blue")]),
    "master": ([18, 22, 23, 26, 27, 33, 34, 35, 36, 47, 53, 55], [Goal("loop", "green")]),
    "genius": ([1, 4, 6, 7, 9, 10, 13, 16, 28, 37, 48, 49],
               [Goal("line", "red"), Goal("line", "blue")]),
}
PYRAMIDS = {
    1: [21, 3, 15, 13, 5, 2, 35, 9, 18, 17, 33, 20, 10, 12, 8],
    2: [23, 45, 25, 28, 16, 15, 13, 5, 30, 31, 33, 19, 20, 8, 7],
    3: [23, 45, 47, 49, 5, 51, 50, 6, 39, 33, 19, 54, 53, 55, 41],
}


def write(name: str, inst: TantrixInstance, comment: str) -> None:
    path = OUT / f"tantrix_{name}.txt"
    path.write_text(format_instance(inst, comment))
    print("wrote", path)


def challenge_tiles(n: int) -> list[int]:
    """Kino & Uno: tile i of the 10 Discovery tiles is used ceil((n + 1 - i) / 10) times."""
    return [i for i in range(1, 11) for _ in range(math.ceil((n + 1 - i) / 10))]


def challenge_colour(n: int) -> str:
    """The colour of the lowest digit's tile (n mod 10, or 10)."""
    return cat.back(n % 10 or 10)


def challenge(n: int, time_limit: float) -> None:
    free = TantrixInstance(challenge_tiles(n), [Goal("loop", challenge_colour(n))])
    out = cpsat.solve(free, SolveOptions(time_limit=time_limit, threads=8, seed=n))
    if out.solution is None or not verify(free, out.solution).ok:
        print(f"challenge {n}: no solution found in {time_limit} s; not written")
        return
    shape = set(out.solution)
    # one extra cell per row on the right: empty places the model must learn to leave empty
    extras = {(row[-1][0] + 1, row[-1][1]) for row in hx.rows_of(shape)}
    board = sorted(shape | extras, key=lambda c: (c[1], c[0]))
    inst = TantrixInstance(free.tiles, free.goals, shape="board", board=board)
    write(f"challenge_{n}", inst,
          f"Kino & Uno challenge n = {n}: the 10 Discovery tiles repeated (tile i used\n"
          f"ceil((n + 1 - i) / 10) times), one {challenge_colour(n)} loop through all tiles,\n"
          "on a fixed board: the shape of a solution found by CP-SAT plus one empty cell\n"
          "at the right end of each row.")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--challenge-only", action="store_true")
    ap.add_argument("--time-limit", type=float, default=300)
    ap.add_argument("--challenges", default="10,20,30,40,50,60,70,80,90,100")
    args = ap.parse_args()
    if not args.challenge_only:
        for k in range(3, 31):
            inst = TantrixInstance(list(range(1, k + 1)), [Goal("loop", cat.back(k))])
            write(f"discovery_{k:02d}", inst,
                  f"Tantrix Discovery {k}: tiles 1..{k} form one loop in the back colour of "
                  f"tile {k}.")
        for colour, (goals, shape) in RAINBOW.items():
            tiles = [t for t in cat.TILES if cat.back(t) == colour]
            size = None
            if shape == "triangle":
                size = round((math.isqrt(8 * len(tiles) + 1) - 1) / 2)
            inst = TantrixInstance(tiles, goals, shape=shape, size=size)
            write(f"rainbow_{colour}", inst,
                  f"Rainbow puzzle: the {len(tiles)} tiles with {colour} backs.")
        for name, (tiles, goals) in SUPER.items():
            write(f"super_{name}", TantrixInstance(tiles, goals),
                  f"Tantrix Super 5: {name.capitalize()}.")
        for k, tiles in PYRAMIDS.items():
            write(f"pyramid_{k}", TantrixInstance(tiles, [], shape="triangle", size=5),
                  f"Pyramid puzzle {k}: the 15 tiles fill a triangle of side 5, every touching\n"
                  "edge matching (no goal line).")
    for n in (int(v) for v in args.challenges.split(",") if v):
        challenge(n, args.time_limit)


if __name__ == "__main__":
    main()
