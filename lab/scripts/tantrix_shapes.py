"""Free-shape Tantrix: the shapes whose outline leaves room for a score.

    python lab/scripts/tantrix_shapes.py --cells 56 --loss-max 32 \\
        --csv lab/results/tantrix_56/shapes/outline32.csv --write 20 \\
        --instance instances/tantrix_loop56.txt --out lab/results/tantrix_56/shapes

A board scores at most the arcs its shape's outline leaves (`tilesolve verify` prints it: "at
most B on its shape"; a cell with b open edges loses ceil(b / 2) of its three arcs), so the
Loop's 136 needs a 56-cell shape whose outline cuts at most 32 arcs. This lists such shapes:
every connected shape without holes reached from a compact start (a hexagon and part of its
next ring, filled ring by ring) by moving one outline cell to an empty cell next to the shape,
staying within the loss; one per class up to rotation and translation. It writes them to the
CSV (loss, cells) and the `--write` lowest as fixed-board instances of `--instance`
(`shape board`), for `tilesolve solve SHAPE --objective longest -b cpsat`. The list holds the
shapes the moves reach, which the tests compare with every shape of a few cells; for 56 cells it
is not a proof that no other shape exists. Cells are axial (q, r) as in the instance files.

`--floor N --screen OUT.csv` then asks, for each listed shape, whether a Loop board scoring N or
more fits it: `tilesolve.solve(..., "sat", objective="longest", floor=N)` on the shape as a fixed
board (the Loop's outline clauses make most refutations one solve of a second or two); a row
per shape (index in the list, loss, status: infeasible, feasible with the board's score, or
timeout at `--limit` seconds), appended as it ends, so a stopped screen resumes; boards found go
to OUT.csv.boardN.json. `--part I/N` takes every N-th shape from the I-th (one process a core):

    python lab/scripts/tantrix_shapes.py --cells 56 --loss-max 32 --csv out/outline32.csv \\
        --floor 136 --screen lab/results/tantrix_56/shapes/screen136_p0.csv --part 0/2

(with `--csv` of a listing made before, the screen reads it instead of listing again).

`--complete` lists every shape within the loss instead, row by row: a shape's loss is its runs
of cells along the grid's three directions plus half its cells with an odd number of open
edges, and a walk over rows stops once the runs its rows start, with the fewest the cells left
can start, exceed the loss (`shapes_complete`; its tests compare it with every shape of five
cells and the moves' list of 19). With `--except` the shapes the moves missed:

    python lab/scripts/tantrix_shapes.py --cells 56 --loss-max 32 --complete \\
        --except out/outline32.csv --csv out/outline32_complete_new.csv

`--through K` lets the moves pass through shapes cutting up to K arcs (only those within
`--loss-max` are listed), and `--except OLD.csv` leaves out the shapes of an earlier listing,
so only the new ones are screened:

    python lab/scripts/tantrix_shapes.py --cells 56 --loss-max 32 --through 33 \\
        --except out/outline32.csv --csv out/outline32_via33_new.csv \\
        --floor 136 --screen lab/results/tantrix_56/shapes/screen136_via33.csv
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import time
from collections import Counter, deque
from functools import cache, lru_cache
from pathlib import Path

import networkx as nx

STEPS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))


def around(c):
    return [(c[0] + dq, c[1] + dr) for dq, dr in STEPS]


def loss(cells) -> int:
    """Arcs the outline cuts: ceil(b / 2) per cell with b open edges."""
    return sum((sum(nb not in cells for nb in around(c)) + 1) // 2 for c in cells)


def key(cells) -> tuple:
    """The same for shapes equal up to rotation and translation."""
    def turned(c, k):
        x, z = c
        y = -x - z
        for _ in range(k):
            x, y, z = -z, -x, -y
        return x, z

    def shifted(cs):
        q0, r0 = min(cs, key=lambda c: (c[1], c[0]))
        return tuple(sorted((q - q0, r - r0) for q, r in cs))

    return min(shifted([turned(c, k) for c in cells]) for k in range(6))


def whole(cells) -> bool:
    """Connected, and every empty cell of a frame around it reaches the frame's rim."""
    shape = nx.Graph((c, nb) for c in cells for nb in around(c) if nb in cells)
    shape.add_nodes_from(cells)
    if not nx.is_connected(shape):
        return False
    frame = {nb for c in cells for nb in around(c)} | {n2 for c in cells for nb in around(c)
                                                      for n2 in around(nb)}
    empty = frame - cells
    graph = nx.Graph((c, nb) for c in empty for nb in around(c) if nb in empty)
    graph.add_nodes_from(empty)
    return nx.number_connected_components(graph) == 1


def compact(n: int) -> frozenset:
    """n cells: rings around the origin, the last one partly, from its first corner on."""
    cells, ring = [(0, 0)], 1
    while len(cells) < n:
        c = (-ring, 0)  # a corner of the ring, then along its six sides
        for d in range(6):
            for _ in range(ring):
                cells.append(c)
                c = (c[0] + STEPS[d][0], c[1] + STEPS[d][1])
        ring += 1
    return frozenset(cells[:n])


def _lost(c, cells) -> int:
    return (sum(nb not in cells for nb in around(c)) + 1) // 2


def _change(shape, without, a) -> int:
    """What taking cell a out of the shape changes in its loss (a and its neighbours)."""
    return sum(_lost(c, without) - _lost(c, shape) for c in around(a) if c in shape) - \
        _lost(a, shape)


def shapes_within(n: int, loss_max: int, through: int | None = None) -> list[tuple[int, tuple]]:
    """(loss, cells) of every shape the single-cell moves reach from the compact one, passing
    through shapes that cut at most `through` arcs (default: `loss_max`). A move's
    loss is the shape's plus what changes around the two cells it touches (four times faster
    than counting the whole outline again: 96 CPU s for the 6,613 shapes within 32)."""
    start = compact(n)
    seen = {key(start): (loss(start), start)}
    todo = deque([(start, loss(start))])
    while todo:
        shape, lost = todo.popleft()
        rim = [c for c in shape if any(nb not in shape for nb in around(c))]
        room = {nb for c in shape for nb in around(c)} - shape
        for a in rim:
            without = shape - {a}
            less = lost + _change(shape, without, a)
            for b in room:
                moved = without | {b}
                after = less - _change(moved, without, b)
                if after <= (through or loss_max) and (k := key(moved)) not in seen and \
                        whole(moved):
                    seen[k] = (after, moved)
                    todo.append((moved, after))
    return sorted((lost, tuple(sorted(c))) for lost, c in seen.values() if lost <= loss_max)


# The complete list (`--complete`). A shape's open edges are the two ends of each of its runs
# (maximal runs of cells along one of the grid's three directions), so its loss is its runs
# plus half its cells with an odd number of open edges. Filled row by row (rows of constant r),
# a row starts a run for each of its segments and for each cell whose q-line or s-line does not
# go on from the row above (cell (q, r) meets (q, r - 1) and (q + 1, r - 1) there): the runs
# of a shape are the sum of what its rows start, and a depth-first walk over rows can stop as
# soon as the runs started, the odd cells of the rows already closed and the fewest runs the
# cells left can start exceed the loss.


def _row_runs(above: int, cells: int) -> int:
    """The fewest runs a row of `cells` cells starts under a row of `above` cells (0: the
    top row, whose cells start two runs each): one if it is shorter (it can lie under both
    lines of the row above), two if as long, and two more for each cell beyond."""
    if above == 0:
        return 1 + 2 * cells
    return 1 if cells < above else 2 if cells == above else 1 + 2 * (cells - above)


@cache
def _fewest_runs(left: int, above: int) -> int:
    """The fewest runs `left` more cells start in rows under a row of `above` cells."""
    if left == 0:
        return 0
    return min(_row_runs(above, k) + _fewest_runs(left - k, k) for k in range(1, left + 1))


@cache
def _fewest_from(left: int, above: int, placed: int) -> int:
    """The fewest runs a row with `placed` cells so far can still start, it and the rows
    under it (`left` cells with the row's): its other cells one run each beyond the
    `above` - 1 cells that can lie under both lines of the row above (two each on the top
    row), then `_fewest_runs`."""
    free, each = (max(placed, above - 1), 1) if above else (placed, 2)
    return min((each * max(0, k - free) + _fewest_runs(left - k, k)
                for k in range(max(placed, 1), left + 1)), default=10**9)


def _odd(row: frozenset, above: frozenset, below: frozenset) -> int:
    """Cells of a row with an odd number of open edges (an odd number of neighbours)."""
    return sum(((q - 1 in row) + (q + 1 in row) + (q in above) + (q + 1 in above) +
                (q - 1 in below) + (q in below)) % 2 for q in row)


def _rows(left: int, room: int, above: frozenset, several: bool = True) -> list:
    """(row, runs it starts) for each row that leaves the shape within `room` runs: a set of
    q, its first segment at q = 0 on the top row (`above` empty; one segment unless
    `several`). The rows under one pattern of cells are the same, shifted: they are found
    once per pattern (the walk over 56 cells meets each many times)."""
    shift = min(above) if above else 0
    rows = _rows_under(left, room, tuple(sorted(q - shift for q in above)), several)
    return [(frozenset(q + shift for q in row), runs) for row, runs in rows]


@lru_cache(maxsize=1 << 18)
def _rows_under(left: int, room: int, pattern: tuple, several: bool) -> list:
    """`_rows` under a row whose first cell is at q = 0 (`pattern`, empty on top)."""
    q_line, s_line = set(pattern), {q - 1 for q in pattern}
    lo, hi = (-1 - room // 2, pattern[-1] + room // 2) if pattern else (0, left + room)
    out = []

    def segments(start: int, cells: list, runs: int) -> None:
        for first in range(start, hi + 1):
            if not pattern and cells == [] and first > 0:
                return
            now, seg = runs + 1, []
            for q in range(first, hi + 1):
                now += (q not in q_line) + (q not in s_line)
                seg.append(q)
                row = cells + seg
                if now + _fewest_from(left, len(pattern), len(row)) > room:
                    if now > room or len(row) >= left:
                        break
                    continue  # a longer row may need fewer rows under it
                out.append((tuple(row), now))
                if pattern or several:
                    segments(q + 2, row, now)

    segments(lo, [], 0)
    return out


@cache
def _most_cells(width_sum: int) -> int:
    """The most cells a shape meeting `width_sum` lines of the three directions can hold: its
    cells lie in the rows r < a, q < b and c consecutive diagonals q + r of some a + b + c."""
    best = 0
    for a in range(1, width_sum - 1):
        for b in range(1, width_sum - a):
            c = width_sum - a - b
            per = [min(t + 1, a, b, a + b - 1 - t) for t in range(a + b - 1)]
            best = max(best, max(sum(per[i:i + c]) for i in range(max(1, len(per) - c + 1))))
    return best


def one_top_segment(n: int, loss_max: int) -> bool:
    """Whether every shape within the loss, turned some way, has a top row of one segment.
    Turned so that its top row has the fewest segments, a shape whose top row has two or
    more has them on all six outermost lines, each with an empty cell between two of its
    cells (six cells, distinct, inside the lines the shape meets); so it meets w lines with
    at most `_most_cells(w)` - 6 cells, and starts at least w + 6 runs. When no w leaves
    room for both, one segment on top suffices (for 56 cells within 32: w = 26 holds at
    most 56 cells, and w = 27 starts 33 runs)."""
    return all(_most_cells(w) < n + 6 for w in range(3, loss_max - 5))


def shapes_complete(n: int, loss_max: int, several_on_top: bool | None = None,
                    part: str = "0/1") -> list[tuple[int, tuple]]:
    """(loss, cells) of every connected n-cell shape without holes whose outline cuts at most
    `loss_max` arcs, one per class up to rotation and translation (see above the runs and
    `one_top_segment`; `several_on_top` True walks top rows of several segments even where
    one suffices; `part` I/N walks every N-th pair of top rows from the I-th, a shape turned
    several ways perhaps in more than one part). 56 cells within 30: the 20 shapes the moves
    list, 42 CPU s."""
    first, step = map(int, part.split("/"))
    if several_on_top is None:
        several_on_top = not one_top_segment(n, loss_max)
    found: dict[tuple, tuple[int, frozenset]] = {}
    twice = 2 * loss_max  # against 2 * runs + odd cells

    def walk(rows: list, used: int, runs: int, odd: int) -> None:
        left = n - used
        row, above = rows[-1], rows[-2] if len(rows) > 1 else frozenset()
        if left == 0:
            if 2 * runs + odd + _odd(row, above, frozenset()) <= twice:
                cells = frozenset((q, r) for r, cs in enumerate(rows) for q in cs)
                if (k := key(cells)) not in found and whole(cells):
                    found[k] = (loss(cells), cells)
            return
        for below, started in _rows(left, (twice - odd) // 2 - runs, row):
            if len(rows) == 1 and next(pairs) % step != first:
                continue  # another part's pair of top rows
            after = runs + started + _fewest_runs(left - len(below), len(below))
            more = odd + _odd(row, above, below)
            if 2 * after + more <= twice:
                walk(rows + [below], used + len(below), runs + started, more)

    pairs = itertools.count(1)
    for top, started in _rows(n, loss_max, frozenset(), several_on_top):
        if started + _fewest_runs(n - len(top), len(top)) <= loss_max:
            walk([top], len(top), started, 0)
    return sorted((lost, tuple(sorted(c))) for lost, c in found.values())


def read_listing(path: Path) -> list[tuple[int, tuple]]:
    """(loss, cells) rows of a listing's CSV."""
    with path.open() as f:
        return [(int(row["loss"]),
                 tuple(tuple(map(int, c.split(","))) for c in row["cells"].split()))
                for row in csv.DictReader(f)]


def screen(found: list, floor: int, out: Path, limit: float, part: str) -> None:
    """Whether a Loop board of `floor` or more fits each shape (see the module's text)."""
    import tilesolve

    first, step = map(int, part.split("/"))
    done = set()
    if out.exists():
        with out.open() as f:
            done = {int(row["index"]) for row in csv.DictReader(f)}
    out.parent.mkdir(parents=True, exist_ok=True)
    goals = [f"loop {k}" for k in ("red", "yellow", "blue", "green")]
    with out.open("a", newline="") as f:
        w = csv.writer(f)
        if not done:
            w.writerow(["index", "loss", "floor", "status", "score", "rounds", "cuts", "seconds"])
        for i, (lost, cells) in enumerate(found):
            if i % step != first or i in done:
                continue
            puzzle = tilesolve.tantrix("1-56", goals, cells=key(cells))
            t0 = time.perf_counter()
            res = puzzle.solve("sat", objective="longest", floor=floor, solver="g4",
                               time_limit=limit)
            w.writerow([i, lost, floor, res.status.value, res.objective, res.stats.get("rounds"),
                        res.stats.get("cuts"), f"{time.perf_counter() - t0:.2f}"])
            f.flush()
            if res.solution is not None:
                board = [[q, r, t, rot] for (q, r), (t, rot) in sorted(res.solution.items())]
                Path(f"{out}.board{i}.json").write_text(json.dumps(board) + "\n")
                print(f"shape {i}: a board of {res.objective}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cells", type=int, default=56)
    ap.add_argument("--loss-max", type=int, required=True)
    ap.add_argument("--through", type=int, help="moves may pass through shapes cutting up to "
                    "this many arcs (default: --loss-max)")
    ap.add_argument("--complete", action="store_true", help="every shape within the loss, "
                    "row by row (a proof), instead of the moves' reach")
    ap.add_argument("--csv", type=Path)
    ap.add_argument("--except", dest="known", type=Path,
                    help="leave out the shapes of this listing's CSV (screen only new ones)")
    ap.add_argument("--write", type=int, default=0, help="instances of the N lowest shapes")
    ap.add_argument("--instance", type=Path, help="the free-shape puzzle the instances fix")
    ap.add_argument("--out", type=Path, default=Path("out/shapes"))
    ap.add_argument("--floor", type=int, help="screen each shape for a Loop board of N or more")
    ap.add_argument("--screen", type=Path, help="the screen's CSV (resumed when it exists)")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per shape (screen)")
    ap.add_argument("--part", default="0/1", help="I/N: every N-th shape from the I-th (with "
                    "--complete and no --floor: every N-th pair of top rows)")
    args = ap.parse_args()
    t0 = time.process_time()
    if args.floor is not None and args.csv and args.csv.exists():  # screen a listing made before
        found = read_listing(args.csv)
    elif args.complete:
        found = shapes_complete(args.cells, args.loss_max,
                                part=args.part if args.floor is None else "0/1")
    else:
        found = shapes_within(args.cells, args.loss_max, args.through)
    if args.known:
        known = {key(cells) for _, cells in read_listing(args.known)}
        found = [(lost, cells) for lost, cells in found if key(cells) not in known]
    print(f"{len(found)} shapes, by arcs lost: {dict(sorted(Counter(l for l, _ in found).items()))}"
          f" ({time.process_time() - t0:.0f} CPU s)")
    if args.csv and not args.csv.exists():
        args.csv.parent.mkdir(parents=True, exist_ok=True)
        with args.csv.open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["loss", "cells"])
            for lost, cells in found:
                w.writerow([lost, " ".join(f"{q},{r}" for q, r in key(cells))])
    if args.write:
        args.out.mkdir(parents=True, exist_ok=True)
        head = args.instance.read_text().replace("shape free", "shape board").rstrip() + "\n"
        for i, (lost, cells) in enumerate(found[:args.write]):
            text = head + "".join(f"cell {q} {r}\n" for q, r in key(cells))
            (args.out / f"{args.instance.stem}_outline{lost}_{i:02d}.txt").write_text(text)
    if args.floor is not None:
        screen(found, args.floor, args.screen or Path("out/screen.csv"), args.limit, args.part)


if __name__ == "__main__":
    main()
