"""Write the shipped Tantrix instance files: Discovery 3..30, Rainbow, Super 5, pyramids, and the
fixed-board "challenge n" puzzles (the 10 Discovery tiles repeated).

Each challenge n comes as two boards, both admitting a known solution (checked by the verifier
before they are written): `challenge_n`, exactly the shape of that solution, one tile per place
as in Kino & Uno's setting; and `challenge_n_slack`, the same plus one empty cell at the right
end of each row, where a model must also learn which places stay empty. Up to
n = 40 the solution is one CP-SAT finds for the free-shape puzzle (free shapes of 60 and more
tiles are out of its reach). Larger loops (multiples of 10) grow on a band three cells high:
CP-SAT finds a 20-tile loop there, then repeatedly opens a gap of a few columns in the loop and
refills it, with the rest held fixed, using one more copy of tiles 1..10.

    .venv/bin/python scripts/make_tantrix_instances.py [--challenge-only] [--time-limit S]
        [--challenges 10,20,...] [--exact-from-slack]

`--exact-from-slack` writes the exact boards from the shipped slack boards (dropping the last
cell of each row) instead of searching for solutions again.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from tesserae.backends import cpsat as runner
from tesserae.core import hexgrid as hx
from tesserae.core.result import Solution, SolveOptions
from tesserae.families.tantrix import catalogue as cat
from tesserae.families.tantrix import cpsat
from tesserae.families.tantrix.model import (
    Goal,
    TantrixInstance,
    format_instance,
    read_instance,
    verify,
)
from tesserae.families.tantrix.region import fixed_layout

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


def free_shape_solution(n: int, time_limit: float) -> Solution | None:
    """A solution of the free-shape challenge puzzle (CP-SAT; practical up to about 40 tiles)."""
    free = TantrixInstance(challenge_tiles(n), [Goal("loop", challenge_colour(n))])
    out = cpsat.solve(free, SolveOptions(time_limit=time_limit, threads=8, seed=n))
    return out.solution


# Large loops grow on a band ROWS cells high: a loop found there is cut at a column, the part
# right of the cut moves WIDTH columns right, and CP-SAT fills the gap plus MARGIN columns on
# either side with one more copy of tiles 1..10 while everything else stays fixed.
ROWS, WIDTH, MARGIN, START = 3, 6, 2, 20


def band(rows: int, cols: int) -> list[hx.Hex]:
    """A band of hexes `rows` high and `cols` wide, rows staggered so its ends are vertical."""
    return [(col - r // 2, r) for r in range(rows) for col in range(cols)]


def column(cell: hx.Hex) -> int:
    return cell[0] + cell[1] // 2


def band_instance(n: int, cols: int) -> TantrixInstance:
    return TantrixInstance(challenge_tiles(n), [Goal("loop", challenge_colour(n))],
                           shape="board", board=band(ROWS, cols))


def solve_band(inst: TantrixInstance, keep: dict[hx.Hex, tuple[int, int] | None],
               seed: int, time_limit: float, workers: int) -> Solution | None:
    """Solve the band puzzle with the cells in `keep` fixed (a placement, or None: empty)."""
    compiled = cpsat.TantrixCpsat(fixed_layout(inst))
    compiled.fix({c: p for c, p in keep.items() if p is not None})
    for c, p in keep.items():
        if p is None:
            compiled.model.add(compiled.y[c] == 0)
    out = runner.run(compiled, SolveOptions(time_limit=time_limit, seed=seed),
                     num_workers=workers)
    if out.solution is None or not verify(inst, out.solution).ok:
        return None
    return out.solution


def widen(sol: Solution, n: int, cols: int, cut: int, seed: int,
          time_limit: float, workers: int) -> Solution | None:
    """A loop of n + 10 tiles on a band WIDTH columns longer (see above)."""
    keep: dict[hx.Hex, tuple[int, int] | None] = {}
    for c in band(ROWS, cols):
        col = column(c)
        if col < cut - MARGIN:
            keep[c] = sol.get(c)
        elif col >= cut + MARGIN:
            keep[c[0] + WIDTH, c[1]] = sol.get(c)
    return solve_band(band_instance(n + 10, cols + WIDTH), keep, seed, time_limit, workers)


def grown_band_solutions(largest: int, time_limit: float,
                         workers: int = cpsat.DEFAULT_WORKERS) -> dict[int, Solution]:
    """Loops of START + 10, START + 20, ... up to `largest` tiles on bands, each grown from
    the one before."""
    cols = START // 2 + 3
    sol = solve_band(band_instance(START, cols), {}, START, time_limit, workers)
    out: dict[int, Solution] = {}
    n = START
    while sol is not None and n < largest:
        for attempt in range(12):  # cut near the middle first, then further out
            cut = cols // 2 + (attempt + 1) // 2 * (-1) ** attempt
            grown = widen(sol, n, cols, cut, n + attempt, min(time_limit, 60), workers)
            if grown is not None:
                break
        sol, n, cols = grown, n + 10, cols + WIDTH
        if sol is not None:
            out[n] = sol
    return out


def _header(n: int, how: str, slack: bool) -> str:
    where = (" plus one empty cell\nat the right end of each row." if slack else
             ",\nexactly one tile per place (Kino & Uno's setting).")
    return (f"Kino & Uno challenge n = {n}: the 10 Discovery tiles repeated (tile i used\n"
            f"ceil((n + 1 - i) / 10) times), one {challenge_colour(n)} loop through all tiles,\n"
            f"on a fixed board: the shape of {how}{where}")


def _how(large: bool) -> str:
    return ("a solution found by CP-SAT" if not large else
            "a loop grown on a band three cells high\n"
            f"(CP-SAT inserts ten tiles at a time into a {START}-tile loop)")


def _board(n: int, cells, sol: Solution | None) -> TantrixInstance:
    inst = TantrixInstance(challenge_tiles(n), [Goal("loop", challenge_colour(n))],
                           shape="board", board=sorted(cells, key=lambda c: (c[1], c[0])))
    if sol is not None and not verify(inst, sol).ok:
        raise AssertionError(f"challenge {n}: the board does not hold its own solution")
    return inst


def challenge(n: int, sol: Solution | None, large: bool, time_limit: float) -> None:
    tiles, goals = challenge_tiles(n), [Goal("loop", challenge_colour(n))]
    if sol is None or not verify(TantrixInstance(tiles, goals), sol).ok:
        print(f"challenge {n}: no solution found in {time_limit} s; not written")
        return
    shape = set(sol)
    # one extra cell per row on the right: empty places the model must learn to leave empty
    extras = {(row[-1][0] + 1, row[-1][1]) for row in hx.rows_of(shape)}
    write(f"challenge_{n}", _board(n, shape, sol), _header(n, _how(large), slack=False))
    write(f"challenge_{n}_slack", _board(n, shape | extras, sol), _header(n, _how(large), True))


def exact_from_slack(n: int, large: bool) -> None:
    """The exact board of a shipped slack board: its rows without their last cell."""
    slack = read_instance(OUT / f"tantrix_challenge_{n}_slack.txt")
    cells = [c for row in hx.rows_of(slack.cells()) for c in row[:-1]]
    if len(cells) != n:
        raise AssertionError(f"challenge {n}: {len(cells)} places left, expected {n}")
    write(f"challenge_{n}", _board(n, cells, None), _header(n, _how(large), slack=False))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--challenge-only", action="store_true")
    ap.add_argument("--time-limit", type=float, default=300)
    ap.add_argument("--challenges", default="10,20,30,40,50,60,70,80,90,100")
    ap.add_argument("--exact-from-slack", action="store_true")
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
    sizes = [int(v) for v in args.challenges.split(",") if v]
    if args.exact_from_slack:
        for n in sizes:
            exact_from_slack(n, n > 40)
        return
    # free shapes up to 40 tiles (the shipped boards); beyond that free-shape search is too slow
    large = [n for n in sizes if n > 40 and n % 10 == 0]
    grown = grown_band_solutions(max(large), args.time_limit) if large else {}
    for n in sizes:
        sol = grown.get(n) if n in large else free_shape_solution(n, args.time_limit)
        challenge(n, sol, n in large, args.time_limit)


if __name__ == "__main__":
    main()
