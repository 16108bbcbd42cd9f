"""Write the shipped Tantrix instance files: Discovery 3..30, Rainbow, Super 5, pyramids, and the
fixed-board "challenge n" puzzles of Kino & Uno (the 10 Discovery tiles repeated, one loop in
the colour of the lowest digit of n, `tilesolve.families.tantrix.challenge`).

Challenge boards, n = 5, 10, ..., 60, 70, 80, 90, 100: compact shapes. CP-SAT (one worker,
the seed, a deterministic time budget, so the same seed gives the same board on any machine)
places the n tiles on the REGION cells nearest a centre, a near-regular hexagon about n /
DENSITY cells large, where cells may stay empty; the cells of the loop it finds are the
board, one tile per place as in the paper. From GROW_FROM tiles up (and where that fails
below), the solution for n - 10 (same loop colour) grows instead: the tiles within WINDOW
cells of an empty cell next to it are freed, and CP-SAT refills that window with them and
one more copy of tiles 1..10.

Paper-shaped boards (`--paper-shape`, `challenge_paper_n`): Kino & Uno's boards are not
published; their text fixes places with only two neighbours, which touch each other (Figure
11, the place of constraint C6), and no hole. The same search on a region of 2 n cells
(PAPER_DENSITY) with at least `challenge.tips_wanted(n)` = ceil(n / 5) such places and none
with two neighbours that do not touch. From PAPER_GROW_FROM (40) up each grows from the written
board of n - 10, solved again as a fixed board, so `--challenges 50` alone writes the board a
run from 5 writes (40-60 were written so, budget 90).

The earlier boards stay as their own set, with a red loop for every n (the full set's back
colour of tile 10; the paper's rule gives blue): `challenge_band_n` (50..100, loops grown on
a band three cells high) and `challenge_n_slack` (10..100, one empty place at the end of each
row); `--bands` writes them again.

    .venv/bin/python scripts/make_tantrix_instances.py [--challenge-only] [--seed 1]
        [--budget 600] [--challenges 5,10,...]  [--bands] [--paper-shape]
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from pathlib import Path

from tilesolve.backends import cpsat as runner
from tilesolve.core import hexgrid as hx
from tilesolve.core.result import Solution, SolveOptions
from tilesolve.families.tantrix import catalogue as cat
from tilesolve.families.tantrix import challenge, cpsat
from tilesolve.families.tantrix.check import verify
from tilesolve.families.tantrix.format import format_instance
from tilesolve.families.tantrix.instance import Goal, TantrixInstance
from tilesolve.families.tantrix.parse import read_instance
from tilesolve.families.tantrix.region import fixed_layout

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


BAND_COLOUR = "red"  # the earlier boards' loop colour, kept for the band and slack set
SIZES = (*range(5, 61, 5), 70, 80, 90, 100)
# challenge 50 found a loop on the 61 cells of a hexagon of side 5; 0.75 leaves a little room
DENSITY, WINDOW, GROW_FROM = 0.75, 3, 60


def challenge_tiles(n: int) -> list[int]:
    return challenge.challenge_tiles(n)


def compact_region(n: int, density: float = DENSITY) -> list[hx.Hex]:
    """The ceil(n / density) cells nearest the origin (hex distance, then straight-line
    distance, then angle): a near-regular hexagon."""
    def key(c: hx.Hex) -> tuple:
        x, y = c[0] + c[1] / 2, c[1] * math.sqrt(3) / 2
        return hx.distance(c, (0, 0)), round(math.hypot(x, y), 6), round(math.atan2(y, x), 6)
    size = math.ceil(n / density)
    ring = 1
    while 3 * ring * (ring + 1) + 1 < size:
        ring += 1
    return sorted(hx.hexagon(ring + 1), key=key)[:size]


def solve_region(n: int, region: list[hx.Hex], seed: int, budget: float,
                 keep: Solution | None = None, empty=(), shape=None) -> Solution | None:
    """Challenge n on `region` (cells may stay empty), `keep` placed and `empty` left empty,
    `shape(compiled)` adding rows on the board's shape; one CP-SAT worker with a
    deterministic time budget, so reproducible from the seed."""
    inst = challenge.challenge_instance(n, region)
    compiled = cpsat.TantrixCpsat(fixed_layout(inst))
    if shape:
        shape(compiled)
    if keep:
        compiled.impose(keep)
    for c in empty:
        compiled.model.add(compiled.y[c] == 0)
    out = runner.run(compiled, SolveOptions(seed=seed), num_workers=1,
                     max_deterministic_time=budget)
    if out.solution is None or not verify(challenge.challenge_instance(n), out.solution).ok:
        return None
    return out.solution


def grow(n: int, smaller: Solution, seed: int, budget: float, tries: int = 4,
         region: list[hx.Hex] | None = None, shape=None) -> Solution | None:
    """Challenge n from a solution of n - 10: free the window around an empty cell next to
    the loop that holds the most empty cells (room for ten more tiles), refill it."""
    region = region or compact_region(n)
    inside = set(region)
    taken = set(smaller)
    rim = {nb for c in taken for nb in hx.neighbours(c) if nb in inside} - taken

    def window(centre: hx.Hex) -> set[hx.Hex]:
        return {c for c in region if hx.distance(c, centre) <= WINDOW}

    ranked = sorted(rim, key=lambda c: (-len(window(c) - taken), region.index(c)))
    for centre in ranked[:tries]:
        free = window(centre)
        keep = {c: p for c, p in smaller.items() if c not in free}
        empty = [c for c in region if c not in free and c not in taken]
        print(f"challenge {n}: refilling {len(free)} cells around {centre}", flush=True)
        sol = solve_region(n, region, seed, budget / 2, keep, empty, shape)
        if sol is not None:
            return sol
    return None


def compact_solutions(sizes, seed: int, budget: float, region=compact_region, shape=None,
                      grow_from: int = GROW_FROM, smaller=None):
    """(n, solution, how) for each size, smallest first, as each is found. From `grow_from`
    tiles up, growing the board of n - 10 comes first: CP-SAT on the whole region of 80 or
    more cells did not find a loop in budget 300. `region(n)` gives the cells a board may
    take, `shape(n)` rows on its shape (or None); `smaller(n - 10, seed, budget)`, where
    given, the solution grown from `grow_from` up (else the one found in this run)."""
    found: dict[int, Solution] = {}
    for n in sorted(sizes):
        rows, cells = shape(n) if shape else None, region(n)
        sol, how = None, ""
        base = found.get(n - 10)
        if n >= grow_from and smaller is not None:
            base = smaller(n - 10, seed, budget)
        if n >= grow_from and base is not None:
            sol = grow(n, base, seed + n, budget, region=cells, shape=rows)
            how = f"the board of {n - 10} grown"
        if sol is None:
            sol, how = solve_region(n, cells, seed + n, budget, shape=rows), "CP-SAT"
        if sol is None and n < grow_from and n - 10 in found:
            sol = grow(n, found[n - 10], seed + n, budget, region=cells, shape=rows)
            how = f"the board of {n - 10} grown"
        if sol is not None:
            found[n] = sol
        yield n, sol, how


# Paper-shaped boards (--paper-shape): the cells a board may take are a near-regular hexagon
# of 2 n cells (twice the tiles, against 4 n / 3 for the compact boards), and the shape carries
# challenge.tips_wanted(n) places with two neighbours that touch (Figure 11) and no place with
# two neighbours that do not (C6 as the paper states it would not hold there). From
# PAPER_GROW_FROM up, grown from the written board of n - 10 (CP-SAT on the whole 80-cell
# region of challenge 40 found no loop in budget 90).
PAPER_DENSITY, PAPER_GROW_FROM = 0.5, 40


def paper_region(n: int) -> list[hx.Hex]:
    return compact_region(n, PAPER_DENSITY)


def paper_file(n: int) -> Path:
    return OUT / f"tantrix_challenge_paper_{n}.txt"


def written_solution(n: int, seed: int, budget: float) -> Solution | None:
    """A solution of the written paper-shaped board n (a fixed board: CP-SAT, seconds), so
    that a board grows from the same loop whether or not n was made in this run."""
    if not paper_file(n).exists():
        return None
    return solve_region(n, read_instance(paper_file(n)).board, seed + n, budget)


def paper_shape(n: int):
    """The rows of the paper's shape rule for challenge n, as a function of the model."""
    def add(compiled) -> None:
        m, y = compiled.model, compiled.y
        tips = []
        for c in y:
            for d, e in itertools.combinations(range(6), 2):
                a, b = hx.neighbour(c, d), hx.neighbour(c, e)
                if a not in y or b not in y:
                    continue
                alone = [y[c], y[a], y[b]] + [y[o].Not() for f in range(6) if f not in (d, e)
                                              and (o := hx.neighbour(c, f)) in y]
                if e - d in (1, 5):
                    tip = m.new_bool_var(f"tip{c}_{d}")
                    m.add_bool_and(alone).only_enforce_if(tip)
                    tips.append(tip)
                else:
                    m.add_bool_or([lit.Not() for lit in alone])
        m.add(sum(tips) >= challenge.tips_wanted(n))
    return add


# The earlier large loops grew on a band ROWS cells high: a loop found there is cut at a
# column, the part right of the cut moves WIDTH columns right, and CP-SAT fills the gap plus
# MARGIN columns on either side with one more copy of tiles 1..10, the rest held fixed.
ROWS, WIDTH, MARGIN, START = 3, 6, 2, 20


def band(rows: int, cols: int) -> list[hx.Hex]:
    """A band of hexes `rows` high and `cols` wide, rows staggered so its ends are vertical."""
    return [(col - r // 2, r) for r in range(rows) for col in range(cols)]


def column(cell: hx.Hex) -> int:
    return cell[0] + cell[1] // 2


def band_instance(n: int, cols: int) -> TantrixInstance:
    return TantrixInstance(challenge_tiles(n), [Goal("loop", BAND_COLOUR)],
                           shape="board", board=band(ROWS, cols))


def solve_band(inst: TantrixInstance, keep: dict[hx.Hex, tuple[int, int] | None],
               seed: int, time_limit: float, workers: int) -> Solution | None:
    """Solve the band puzzle with the cells in `keep` fixed (a placement, or None: empty)."""
    compiled = cpsat.TantrixCpsat(fixed_layout(inst))
    compiled.impose({c: p for c, p in keep.items() if p is not None})
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


def _header(n: int, how: str, board: str) -> str:
    return (f"Kino & Uno challenge n = {n}: the 10 Discovery tiles repeated (tile i used\n"
            f"ceil((n + 1 - i) / 10) times), one {challenge.challenge_colour(n)} loop through "
            f"all tiles (the colour\nof the lowest digit on the Discovery box), on a fixed "
            f"board: {board}\nthe shape of {how}.")


def _band_header(n: int, slack: bool) -> str:
    where = (" plus one empty cell\nat the right end of each row." if slack else
             ",\nexactly one tile per place.")
    how = ("a solution found by CP-SAT" if n <= 40 else
           "a loop grown on a band three cells high")
    return (f"Challenge n = {n} with a red loop (the earlier rule: the full set's back colour "
            "of\ntile 10; Kino & Uno's rule gives blue): the 10 Discovery tiles repeated,\n"
            f"on a fixed board: the shape of {how}{where}")


def _board(n: int, cells, sol: Solution | None, colour: str | None = None) -> TantrixInstance:
    inst = challenge.challenge_instance(n, cells)
    if colour is not None:
        inst.goals = [Goal("loop", colour)]
    if sol is not None and not verify(inst, sol).ok:
        raise AssertionError(f"challenge {n}: the board does not hold its own solution")
    return inst


def write_compact(sizes, seed: int, budget: float, paper: bool = False) -> None:
    kind = dict(region=paper_region, shape=paper_shape, grow_from=PAPER_GROW_FROM,
                smaller=written_solution) if paper else {}
    start = time.process_time()  # CP-SAT's worker threads count: they are this process's
    for n, sol, how in compact_solutions(sizes, seed, budget, **kind):
        cpu, start = time.process_time() - start, time.process_time()
        print(f"challenge {n}: {cpu:.1f} CPU s", flush=True)
        if sol is None:
            print(f"challenge {n}: no solution found in budget {budget}; not written")
            continue
        where = "one tile per place," if not paper else (
            f"one tile per place, shaped like the paper's\n({challenge.tips_wanted(n)} or more "
            "places with two neighbours that touch, none with two that do not),")
        write(f"challenge_{'paper_' if paper else ''}{n}", _board(n, set(sol), sol),
              _header(n, f"a solution found by {how} (seed {seed + n})", where))


def write_bands(sizes, time_limit: float) -> None:
    """The earlier set: band boards (50..100) and slack boards, red loops."""
    grown = grown_band_solutions(max(sizes), time_limit)
    for n in sizes:
        sol = grown.get(n)
        if sol is None:
            print(f"band {n}: no solution found; not written")
            continue
        shape = set(sol)
        extras = {(row[-1][0] + 1, row[-1][1]) for row in hx.rows_of(shape)}
        write(f"challenge_band_{n}", _board(n, shape, sol, BAND_COLOUR), _band_header(n, False))
        write(f"challenge_{n}_slack", _board(n, shape | extras, sol, BAND_COLOUR),
              _band_header(n, True))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--challenge-only", action="store_true")
    ap.add_argument("--budget", type=float, default=600,
                    help="CP-SAT deterministic time per board (about seconds on one core)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--challenges", default=",".join(map(str, SIZES)))
    ap.add_argument("--bands", action="store_true", help="the earlier band and slack boards")
    ap.add_argument("--paper-shape", action="store_true",
                    help="the paper-shaped boards, tantrix_challenge_paper_n.txt")
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
    if args.bands:
        write_bands([n for n in sizes if n >= 50 and n % 10 == 0], args.budget)
    else:
        write_compact(sizes, args.seed, args.budget, args.paper_shape)


if __name__ == "__main__":
    main()
