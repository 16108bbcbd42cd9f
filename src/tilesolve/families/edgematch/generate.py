"""Random edge-matching instances with a planted solution.

Every join of a W x H board gets a random colour (frame colours on the rim, inner colours
inside, grey facing out); the pieces are the cells cut apart, shuffled and turned. By default
the colour counts are the hardest known for the size (Brendan Owen's table), at which a board
of that size typically has few solutions. With `patterns` every join, on the rim or inside,
draws from one palette of that many colours, as on the boards of Niang's thesis ("4x4 (5)":
five patterns besides grey, shared by frame and inner joins).
"""

from __future__ import annotations

import random
from pathlib import Path

from ...core import squaregrid as sq
from ...core.errors import InputError
from ...core.options import Option, Options, count
from ...core.result import Solution
from ...core.textfile import write_text_atomic
from .format import format_instance
from .instance import EdgeInstance

# size -> (frame colours, inner colours), square boards, after Brendan Owen's "hardest" sets
HARDEST = {
    3: (1, 1), 4: (2, 3), 5: (3, 4), 6: (3, 5), 7: (3, 6), 8: (3, 8), 9: (4, 9), 10: (4, 10),
    11: (4, 11), 12: (4, 12), 13: (4, 14), 14: (5, 15), 15: (5, 16), 16: (5, 17), 17: (5, 18),
    18: (5, 20), 19: (5, 21), 20: (6, 22),
}


def hardest_counts(width: int, height: int) -> tuple[int, int]:
    side = max(3, min(20, round((width * height) ** 0.5)))
    return HARDEST[side]


def generate(
    width: int,
    height: int,
    frame_colours: int | None = None,
    inner_colours: int | None = None,
    seed: int = 0,
    fixed: int = 0,
    patterns: int | None = None,
) -> tuple[EdgeInstance, Solution]:
    """An instance and its planted solution (pieces numbered in shuffled order)."""
    if width < 2 or height < 2:
        raise InputError(f"board {width}x{height} too small; expected at least 2x2")
    hf, hi = hardest_counts(width, height)
    fc = hf if frame_colours is None else frame_colours
    ic = hi if inner_colours is None else inner_colours
    if fc < 1 or (ic < 1 and width > 2 and height > 2) or (patterns is not None and patterns < 1):
        raise InputError("expected at least one frame and one inner colour")
    rng = random.Random(seed)
    frame_pal = list(range(1, fc + 1))
    inner_pal = list(range(fc + 1, fc + ic + 1))
    if patterns is not None:
        frame_pal = inner_pal = list(range(1, patterns + 1))
    cells = list(sq.cells(width, height))
    rim = {c for c in cells if sq.cell_kind(c, width, height) != "inner"}
    joins = list(sq.joins(width, height))
    for _attempt in range(1000):
        colour = {}
        for a, s, b in joins:
            on_rim = a in rim and b in rim and (a[0] == b[0] in (0, height - 1)
                                                or a[1] == b[1] in (0, width - 1))
            colour[a, s] = rng.choice(frame_pal if on_rim else inner_pal)
        used = set(colour.values())
        if used >= set(frame_pal) | set(inner_pal) or _attempt == 999:
            break
    edges: dict = {}
    for cell in cells:
        e = []
        for s in sq.SIDES:
            nb = sq.neighbour(cell, s)
            if not sq.inside(nb, width, height):
                e.append(0)
            elif s in (sq.E, sq.S):
                e.append(colour[cell, s])
            else:
                e.append(colour[nb, sq.opposite(s)])
        edges[cell] = tuple(e)
    order = cells[:]
    rng.shuffle(order)
    pieces, planted = [], {}
    for number, cell in enumerate(order, start=1):
        turn = rng.randrange(4)  # the listed piece is the planted one turned back by `turn`
        pieces.append(sq.rotate_edges(edges[cell], -turn % 4))
        planted[cell] = (number, turn)
    inst = EdgeInstance(width, height, pieces, name=f"e2_{width}x{height}_s{seed}")
    for cell in rng.sample(cells, min(fixed, len(cells))):
        inst.fixed[cell] = planted[cell]
    return inst, planted


MAX_SIDE = 64  # four times the official 16x16; the planted board is built in memory


OPTIONS = Options(
    Option("size", int, None, "a square board's side (or --width and --height)"),
    Option("width", int, None, "columns (default: --size)"),
    Option("height", int, None, "rows (default: --size)"),
    Option("frame_colours", int, None, "colours on the frame joins (default: by board size)"),
    Option("inner_colours", int, None, "colours on the inner joins (default: by board size)"),
    Option("patterns", int, None, "one palette of this many colours for every join (instead "
           "of frame and inner colours)"),
    Option("fixed", count, 0, "pieces fixed in place on the planted board"),
    Option("solution", str, None, "also write the planted solution to this file"),
)


def generate_text(seed: int = 0, **opts: str) -> str:
    """CLI entry: --size N or --width W --height H, --frame-colours, --inner-colours, or
    --patterns P (one palette for every join), --fixed K, --solution FILE (also write the
    planted solution)."""
    o = OPTIONS.validate(opts, "generate edgematch")
    size = o.get("size")
    width, height = o.get("width", size), o.get("height", size)
    if width is None or height is None:
        raise InputError("generate edgematch needs --size N or --width W --height H")
    if not (2 <= width <= MAX_SIDE and 2 <= height <= MAX_SIDE):
        raise InputError(f"board {width}x{height} out of range; expected sides 2..{MAX_SIDE}")
    fc, ic, fixed, patterns = o.get("frame_colours"), o.get("inner_colours"), o["fixed"], \
        o.get("patterns")
    if patterns is not None and (fc is not None or ic is not None):
        raise InputError("--patterns replaces --frame-colours and --inner-colours; give one")
    sol_path = o.get("solution")
    inst, planted = generate(width, height, fc, ic, seed, fixed, patterns)
    if sol_path:

        from .family import FAMILY

        write_text_atomic(sol_path, FAMILY.format_solution(inst, planted))
    fcn, icn = len(inst.frame_colours()), len(inst.inner_colours())
    palette = f"{patterns} patterns on every join" if patterns is not None else \
        f"{fcn} frame / {icn} inner colours"
    comment = f"generated by tilesolve: {width}x{height}, {palette}, seed {seed}, planted solution"
    return format_instance(inst, comment)


def planted_file(folder: str | Path, size: int, seed: int) -> Path:
    """A size x size board at the generator's default colour counts (Brendan Owen's hardest
    for that size) with a planted solution: written once as folder/gen_NNxNN_sSEED.txt, read
    back as it is after, so benchmarks keep running on the same held-out board."""
    path = Path(folder) / f"gen_{size:02d}x{size:02d}_s{seed}.txt"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, generate_text(seed=seed, size=str(size)))
    return path
