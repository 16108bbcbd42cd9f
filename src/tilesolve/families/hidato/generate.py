"""Uniquely solvable Hidato puzzles: a random Hamiltonian path, then givens removed while an
exact solver proves the puzzle still has one solution.

1. Path: a boustrophedon through the rows, mixed by backbite moves (an end jumps to one of its
   neighbours on the path and the segment in between is reversed). Holes are made by dropping
   a path end after some mixing, so the remaining cells always carry a Hamiltonian path and
   the holes land anywhere.
2. Givens: start from the full board and remove givens in random order, in batches. A trial
   set is accepted only when CP-SAT proves that no solution other than the planted one exists
   (the planted solution is forbidden and the model is infeasible). When another solution
   exists it must differ from the planted one in some removed given (otherwise it would have
   solved the previous, unique, puzzle); those givens are put back (one of them on small
   boards) and the check repeats. Batches grow after success and shrink after failure, so small
   boards are reduced one given at a time (an irreducible set) and large ones quickly.
"""

from __future__ import annotations

import math
import random

from ...backends import cpsat as runner
from ...core.bounds import MAX_HIDATO_CELLS as MAX_CELLS
from ...core.errors import InputError
from ...core.options import Option, Options, count, positive_int
from ...core.result import Solution, SolveOptions, Status
from ...core.textfile import write_text_atomic
from .cpsat import HidatoBoolean
from .format import format_instance
from .instance import SHAPES, Cell, HidatoInstance, adjacent_cells, layout


def board_dims(shape: str, cells: int) -> tuple[int, ...]:
    """The smallest hexagon or near-square rectangle with at least `cells` slots."""
    if shape == "hex":
        side = 1
        while 3 * side * (side - 1) + 1 < cells:
            side += 1
        return (side,)
    width = math.ceil(math.sqrt(cells))
    return width, math.ceil(cells / width)


class _PathMixer:
    """A Hamiltonian path over integer cell ids, changed in place by backbite moves."""

    def __init__(self, slots: list[Cell], shape: str, rng: random.Random):
        self.rng = rng
        self.cells = slots
        ids = {c: i for i, c in enumerate(slots)}
        self.adj = [[ids[d] for d in adjacent_cells(shape, c) if d in ids] for c in slots]
        self.active = [True] * len(slots)
        self.path = list(range(len(slots)))

    def move(self) -> None:
        path = self.path
        if len(path) < 3:
            return
        head = self.rng.random() < 0.5
        end = path[0] if head else path[-1]
        choices = [v for v in self.adj[end] if self.active[v]]
        v = self.rng.choice(choices)
        if head:
            i = path.index(v)
            if i > 1:
                path[:i] = path[i - 1 :: -1]
        else:
            j = path.index(v)
            if j < len(path) - 2:
                path[j + 1 :] = path[: j : -1]

    def mix(self, moves: int) -> None:
        for _ in range(moves):
            self.move()

    def drop_end(self) -> None:
        gone = self.path.pop(0) if self.rng.random() < 0.5 else self.path.pop()
        self.active[gone] = False


def snake(rows: list[list[Cell]]) -> list[Cell]:
    """Rows alternately left-to-right and right-to-left: a Hamiltonian path on both boards
    (on the hexagon, row ends touch the ends of the next row)."""
    out: list[Cell] = []
    for i, row in enumerate(rows):
        out.extend(row if i % 2 == 0 else reversed(row))
    return out


def random_path(
    shape: str, dims: tuple[int, ...], holes: int, rng: random.Random, mix: float = 20.0
) -> tuple[list[Cell], frozenset[Cell]]:
    """A random Hamiltonian path over the board minus `holes` random cells, and the holes."""
    slots = snake(layout(shape, dims))
    if not 0 <= holes < len(slots):
        raise InputError(f"cannot make {holes} holes in a board of {len(slots)} cells")
    walk = _PathMixer(slots, shape, rng)
    per_round = max(50, int(mix * len(slots)))
    walk.mix(per_round)
    for _ in range(holes):
        walk.mix(max(5, per_round // max(1, holes)))
        walk.drop_end()
    walk.mix(per_round)
    path = [slots[i] for i in walk.path]
    return path, frozenset(slots) - frozenset(path)


def other_solution(inst: HidatoInstance, planted: Solution, seed: int = 0) -> Solution | None:
    """A solution of `inst` different from `planted`, or None when `planted` is the only one."""
    compiled = HidatoBoolean(inst)
    compiled.forbid(planted)
    out = runner.run(compiled, SolveOptions(threads=1, seed=seed))
    if out.status == Status.INFEASIBLE:
        return None
    if out.status != Status.SOLVED:
        raise RuntimeError(f"uniqueness check ended with {out.status.value}")
    return out.solution


def reduce_givens(
    inst: HidatoInstance,
    planted: Solution,
    rng: random.Random,
    keep: set[Cell],
    target: int = 0,
    seed: int = 0,
) -> tuple[HidatoInstance, dict]:
    """Remove givens (never those in `keep`) while the puzzle stays unique; stop at `target`."""
    order = [c for c in inst.cells if c not in keep]
    rng.shuffle(order)
    givens = dict(planted)
    batch = 1 if inst.n <= 100 else max(1, inst.n // 20)
    checks = kept = 0
    pos = 0
    while pos < len(order) and len(givens) > target:
        take = order[pos : pos + min(batch, len(givens) - target)]
        pos += len(take)
        trial = {c: v for c, v in givens.items() if c not in take}
        removed = list(take)
        failures = 0
        while True:
            checks += 1
            probe = inst.with_givens(trial)
            alt = other_solution(probe, planted, seed)
            if alt is None:
                givens = trial
                break
            failures += 1
            back = [c for c in removed if alt[c] != planted[c]]  # never empty: see above
            if len(take) == 1 or inst.n <= 100:
                back = back[:1]  # one at a time: an irreducible set on small boards
            for c in back:
                trial[c] = planted[c]
                removed.remove(c)
            kept += len(back)
            if not removed:
                break
        batch = max(1, batch // 2) if failures else min(batch * 2, max(1, inst.n // 10))
        if inst.n <= 100:
            batch = 1
    return inst.with_givens(givens), {"checks": checks, "put_back": kept}


def generate(
    shape: str = "hex",
    dims: tuple[int, ...] | None = None,
    cells: int | None = None,
    seed: int = 0,
    givens: int = 0,
    keep_ends: bool = True,
    mix: float = 20.0,
) -> tuple[HidatoInstance, Solution, dict]:
    """A uniquely solvable puzzle, its solution and generation statistics."""
    if shape not in SHAPES:
        raise InputError(f"unknown shape {shape!r}; expected one of {', '.join(SHAPES)}")
    if dims is None:
        if cells is None:
            raise InputError("generate hidato needs --cells N, --side S or --width W --height H")
        dims = board_dims(shape, cells)
    slots = sum(len(r) for r in layout(shape, dims))
    cells = slots if cells is None else cells
    if not 1 <= cells <= slots:
        raise InputError(f"--cells must be between 1 and {slots} for this board, got {cells}")
    rng = random.Random(seed)
    path, holes = random_path(shape, dims, slots - cells, rng, mix)
    planted = {c: k for k, c in enumerate(path, start=1)}
    full = HidatoInstance(shape, dims, holes, dict(planted))
    keep = {path[0], path[-1]} if keep_ends else set()
    inst, stats = reduce_givens(full, planted, rng, keep, givens, seed)
    inst.name = f"hidato_{shape}_{cells}_s{seed}"
    return inst, planted, stats


OPTIONS = Options(
    Option("cells", positive_int, None, "numbers on the board (default: every slot of the "
           "board; fewer than the slots make holes)"),
    Option("shape", str, "hex", "the board's shape", SHAPES),
    Option("side", int, None, "hex: the hexagon's side (default: the smallest for --cells)"),
    Option("width", int, None, "square: columns (with --height)"),
    Option("height", int, None, "square: rows (with --width)"),
    Option("givens", count, 0, "stop removing givens at this many (0: as few as uniqueness "
           "allows)"),
    Option("keep_ends", bool, True, "keep 1 and the last number as givens"),
    Option("mix", float, 20.0, "backbite moves per cell that shuffle the planted path"),
    Option("solution", str, None, "also write the planted solution to this file"),
)


def _slots(dims: tuple[int, ...] | None) -> int:
    """Cells of a board of these dimensions (hexagon side, or width and height)."""
    if dims is None:
        return 0
    if len(dims) == 2:
        return dims[0] * dims[1]
    return 3 * dims[0] * (dims[0] - 1) + 1


def generate_text(seed: int = 0, **opts: str) -> str:
    """CLI entry: --cells N [--shape hex|square] (or --side S / --width W --height H, with
    --cells fewer than the slots making holes), --givens K (stop removing at K givens),
    --keep-ends true|false, --mix F (backbite moves per cell), --solution FILE."""
    o = OPTIONS.validate(opts, "generate hidato")
    shape, cells, side, width, height = o["shape"], o.get("cells"), o.get("side"), \
        o.get("width"), o.get("height")
    target, keep_ends, mix, sol_path = o["givens"], o["keep_ends"], o["mix"], o.get("solution")
    dims: tuple[int, ...] | None = None
    if side is not None:
        if shape != "hex":
            raise InputError("--side is for --shape hex; use --width and --height for square")
        dims = (side,)
    elif width is not None or height is not None:
        if shape != "square" or width is None or height is None:
            raise InputError("--width and --height (both) are for --shape square")
        dims = (width, height)
    if dims is not None and min(dims) < 1:
        raise InputError(f"board dimensions must be positive, got {dims}")
    if max(_slots(dims), cells or 0) > MAX_CELLS:
        raise InputError(f"at most {MAX_CELLS:,} cells can be generated")
    inst, planted, stats = generate(shape, dims, cells, seed, target, keep_ends, mix)
    if sol_path:

        from .family import FAMILY

        write_text_atomic(sol_path, FAMILY.format_solution(inst, planted))
    comment = (
        f"generated by tilesolve: {inst.shape} {'x'.join(map(str, inst.dims))}, {inst.n} cells, "
        f"{len(inst.holes)} holes, {len(inst.givens)} givens, seed {seed}\n"
        f"unique: proved by CP-SAT ({stats['checks']} checks)"
    )
    return format_instance(inst, comment)
