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
import json
import time
from collections import Counter, deque
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
    ap.add_argument("--csv", type=Path)
    ap.add_argument("--except", dest="known", type=Path,
                    help="leave out the shapes of this listing's CSV (screen only new ones)")
    ap.add_argument("--write", type=int, default=0, help="instances of the N lowest shapes")
    ap.add_argument("--instance", type=Path, help="the free-shape puzzle the instances fix")
    ap.add_argument("--out", type=Path, default=Path("out/shapes"))
    ap.add_argument("--floor", type=int, help="screen each shape for a Loop board of N or more")
    ap.add_argument("--screen", type=Path, help="the screen's CSV (resumed when it exists)")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per shape (screen)")
    ap.add_argument("--part", default="0/1", help="I/N: every N-th shape from the I-th")
    args = ap.parse_args()
    t0 = time.process_time()
    if args.floor is not None and args.csv and args.csv.exists():  # screen a listing made before
        found = read_listing(args.csv)
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
