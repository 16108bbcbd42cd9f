"""Mutation operators on one board genome (see genome.py), edited in place.

Each operator is `op(board, g, rng)`; `mutate` applies one operator, drawn uniformly from a
list, to every row and then re-turns frame pieces grey side out (`board.normalise`). Moves
keep every piece in its group (its class, corner, border or inner, when the genome keeps the
frame; one group on Niang's free boards) and never move a fixed piece; a draw that would
break this is drawn again (at most TRIES times), so the move is uniform over the moves the
groups allow.

Two tables name the operators: `PAPER` as Niang's thesis defines them (section 4.5), `TUNED`
the tuned preset's variants (a random number of quarter turns, swaps that re-turn the pieces
at random, inversions that turn inner pieces half a turn, block swaps anywhere).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .genome import BoardGenome

TRIES = 50
Operator = Callable[[BoardGenome, np.ndarray, np.random.Generator], None]


# --- shared --------------------------------------------------------------------------------
def _pair(b: BoardGenome, rng) -> tuple[int, int, int] | None:
    """Two random free cells of one class (the class drawn by its size), or None."""
    sizes = np.array([len(c) for c, _ in b.groups], dtype=float)
    if (sizes >= 2).sum() == 0:
        return None
    weight = np.where(sizes >= 2, sizes, 0)
    k = rng.choice(len(sizes), p=weight / weight.sum())
    x, y = rng.choice(b.groups[k][0], 2, replace=False)
    return int(k), int(x), int(y)


def swap(b: BoardGenome, g: np.ndarray, rng, turn: bool = False) -> None:
    """Two pieces of one class exchange cells (4.5.2); with `turn`, inner ones re-turned."""
    pick = _pair(b, rng)
    if pick is None:
        return
    k, x, y = pick
    n = b.n
    g[[x, y]], g[[n + x, n + y]] = g[[y, x]], g[[n + y, n + x]]
    if turn and k == 2:
        g[[n + x, n + y]] = rng.integers(0, 4, 2)


def region_rotate(b: BoardGenome, g: np.ndarray, rng) -> None:
    """Turn a k x k block (k >= 2) of inner cells a quarter clockwise, pieces and all (4.5.4):
    its inner joins survive. A block with frame cells would turn frame pieces inwards."""
    box = b.inner_box
    if box is None or min(box[2], box[3]) < 2:
        return swap(b, g, rng)
    k = int(rng.integers(2, min(box[2], box[3]) + 1))
    r0 = box[0] + int(rng.integers(0, box[2] - k + 1))
    c0 = box[1] + int(rng.integers(0, box[3] - k + 1))
    cells = b.free_block(r0, c0, k, k)
    if cells is None:
        return swap(b, g, rng)
    n = b.n
    grid = cells.reshape(k, k)
    pcs, rts = g[grid].copy(), g[n + grid].copy()
    g[grid] = np.rot90(pcs, -1)  # clockwise
    g[n + grid] = (np.rot90(rts, -1) + 1) % 4


def _move(b: BoardGenome, g: np.ndarray, src: np.ndarray, dst: np.ndarray) -> None:
    """The pieces at src go to dst (same order), keeping their rotations."""
    n = b.n
    pcs, rts = g[src].copy(), g[n + src].copy()
    g[dst], g[n + dst] = pcs, rts


def random_region(b: BoardGenome, rng, rule: str = "corners") -> tuple[int, int, int, int]:
    """A random block (row, col, height, width) of the board.

    "corners" (the thesis: "select two points, a random length and width"): two random cells
    are opposite corners of the block. "corner_size": a random top-left cell, then a random
    height and width that fit."""
    if rule == "corners":
        r0, r1 = sorted(int(x) for x in rng.integers(0, b.h, 2))
        c0, c1 = sorted(int(x) for x in rng.integers(0, b.w, 2))
        return r0, c0, r1 - r0 + 1, c1 - c0 + 1
    r0, c0 = int(rng.integers(0, b.h)), int(rng.integers(0, b.w))
    return r0, c0, int(rng.integers(1, b.h - r0 + 1)), int(rng.integers(1, b.w - c0 + 1))


# --- Niang's operators (thesis section 4.5) --------------------------------------------------
def rotate_cw(b: BoardGenome, g: np.ndarray, rng) -> None:
    """4.5.1: one piece turned a quarter clockwise (inner pieces: a frame piece has one
    allowed turn)."""
    if len(b.inner_free):
        i = rng.choice(b.inner_free)
        g[b.n + i] = (g[b.n + i] + 1) % 4


def swap_rotate_cw(b: BoardGenome, g: np.ndarray, rng) -> None:
    """4.5.3: two pieces of one class are each turned a quarter clockwise and exchanged."""
    pick = _pair(b, rng)
    if pick is None:
        return
    _, x, y = pick
    n = b.n
    g[[x, y]], g[[n + x, n + y]] = g[[y, x]], (g[[n + y, n + x]] + 1) % 4


def halves_swap(b: BoardGenome, g: np.ndarray, rng) -> None:
    """4.5.5: the board is cut in two halves, vertically or horizontally; a block of one size
    is drawn in each half and the two blocks exchange pieces (rotations kept)."""
    for _ in range(TRIES):
        vertical = bool(rng.integers(0, 2))  # a vertical cut: left and right halves
        span = b.w if vertical else b.h
        cut = span // 2
        if cut < 1:
            return
        other = b.h if vertical else b.w
        along = int(rng.integers(1, cut + 1))  # across the cut: fits in the smaller half
        size2 = int(rng.integers(1, other + 1))
        p1 = int(rng.integers(0, cut - along + 1))
        p2 = cut + int(rng.integers(0, span - cut - along + 1))
        q1, q2 = (int(x) for x in rng.integers(0, other - size2 + 1, 2))
        if vertical:
            x, y = b.block(q1, p1, size2, along), b.block(q2, p2, size2, along)
        else:
            x, y = b.block(p1, q1, along, size2), b.block(p2, q2, along, size2)
        if b.movable(x, y):
            _move(b, g, np.concatenate([x, y]), np.concatenate([y, x]))
            return


def _reverse(b: BoardGenome, g: np.ndarray, cells: np.ndarray) -> bool:
    """Copy the pieces of `cells` back in reverse order, rotations kept (False: the classes
    do not allow it)."""
    if len(cells) < 2 or not b.movable(cells, cells[::-1]):
        return False
    _move(b, g, cells[::-1].copy(), cells)
    return True


def region_inversion(b: BoardGenome, g: np.ndarray, rng) -> None:
    """4.5.6: the pieces of a random block are copied back from the last one: the block's
    top-left cell gets its last piece, and so on left to right. The thesis copies the tiles,
    so rotations are kept (a literal reading; the tuned `invert` turns them instead)."""
    for _ in range(TRIES):
        if _reverse(b, g, b.block(*random_region(b, rng))):
            return


def _line_inversion(b: BoardGenome, g: np.ndarray, rng, horizontal: bool) -> None:
    length, lines = (b.w, b.h) if horizontal else (b.h, b.w)
    for _ in range(TRIES):
        line = int(rng.integers(0, lines))
        lo, hi = sorted(int(x) for x in rng.integers(0, length, 2))
        cells = b.block(line, lo, 1, hi - lo + 1) if horizontal else \
            b.block(lo, line, hi - lo + 1, 1)
        if _reverse(b, g, cells):
            return


def row_inversion(b: BoardGenome, g: np.ndarray, rng) -> None:
    """4.5.7: inversion (Eiben and Smith) along a row: a random run of it reversed."""
    _line_inversion(b, g, rng, True)


def column_inversion(b: BoardGenome, g: np.ndarray, rng) -> None:
    """4.5.7: the same down a column."""
    _line_inversion(b, g, rng, False)


def scramble(b: BoardGenome, g: np.ndarray, rng) -> None:
    """4.5.8: the piece in the top-left corner stays; every other piece is shuffled (within
    its class) and inner pieces get random turns."""
    n = b.n
    for cells, _pieces in b.groups:
        cells = cells[cells != 0]
        if len(cells) > 1:
            g[cells] = g[rng.permutation(cells)]
    inner = b.inner_free[b.inner_free != 0]
    g[n + inner] = rng.integers(0, 4, len(inner))


# --- the tuned preset's variants -------------------------------------------------------------
def rotate_any(b: BoardGenome, g: np.ndarray, rng) -> None:
    """An inner piece turned one to three quarters."""
    if len(b.inner_free):
        i = rng.choice(b.inner_free)
        g[b.n + i] = (g[b.n + i] + rng.integers(1, 4)) % 4


def swap_returned(b: BoardGenome, g: np.ndarray, rng) -> None:
    """A swap whose two inner pieces get random turns."""
    swap(b, g, rng, turn=True)


def block_swap(b: BoardGenome, g: np.ndarray, rng) -> None:
    """Exchange two non-overlapping equal blocks of inner cells (rotations kept)."""
    box = b.inner_box
    if box is None or box[2] * box[3] < 2:
        return swap(b, g, rng)
    for _ in range(8):
        hh = int(rng.integers(1, max(1, box[2] // 2) + 1))
        ww = int(rng.integers(1, max(1, box[3] // 2) + 1))
        r1, r2 = box[0] + rng.integers(0, box[2] - hh + 1, 2)
        c1, c2 = box[1] + rng.integers(0, box[3] - ww + 1, 2)
        if abs(int(r1) - int(r2)) < hh and abs(int(c1) - int(c2)) < ww:
            continue  # overlapping
        x = b.free_block(int(r1), int(c1), hh, ww)
        y = b.free_block(int(r2), int(c2), hh, ww)
        if x is None or y is None:
            continue
        n = b.n
        g[x], g[y] = g[y].copy(), g[x].copy()
        g[n + x], g[n + y] = g[n + y].copy(), g[n + x].copy()
        return None
    return swap(b, g, rng)


def invert_turned(b: BoardGenome, g: np.ndarray, rng) -> None:
    """Reverse a segment of a row or column of one class (inner, or one side of the frame);
    inner pieces turn half a turn so the reversed run still joins along its axis."""
    w, h, n = b.w, b.h, b.n
    horizontal = bool(rng.integers(0, 2))
    length = w if horizontal else h
    line = int(rng.integers(0, h if horizontal else w))
    idx = [line * w + j for j in range(length)] if horizontal else \
        [j * w + line for j in range(length)]
    idx = np.array(idx)
    kind = b.cell_class[idx]
    lo, hi = sorted(rng.choice(np.arange(1, length - 1), 2, replace=True)) if length > 3 \
        else (1, length - 2)
    seg = idx[lo : hi + 1]
    if len(seg) < 2 or len(set(kind[lo : hi + 1])) != 1 or not b.free[seg].all():
        return swap(b, g, rng)
    g[seg] = g[seg[::-1]].copy()
    if kind[lo] == 2:
        g[n + seg] = (g[n + seg[::-1]] + 2) % 4


PAPER: dict[str, Operator] = {
    "rotate": rotate_cw, "swap": swap, "swap_rotate": swap_rotate_cw,
    "region_rotate": region_rotate, "region_swap": halves_swap,
    "region_inversion": region_inversion, "row_inversion": row_inversion,
    "column_inversion": column_inversion, "scramble": scramble,
}
TUNED: dict[str, Operator] = {
    "rotate": rotate_any, "swap": swap, "swap_rotate": swap_returned,
    "region_rotate": region_rotate, "region_swap": block_swap, "invert": invert_turned,
}


def mutate(b: BoardGenome, pop: np.ndarray, rng, table: dict[str, Operator],
           names: tuple[str, ...]) -> np.ndarray:
    """One operator, drawn uniformly from `names`, applied to every row."""
    choice = rng.integers(0, len(names), len(pop))
    for row, k in zip(pop, choice, strict=True):
        table[names[k]](b, row, rng)
    return b.normalise(pop)
