"""Hidato instances and solutions: reading, writing, verification, the board graph.

A board is a beehive hexagon of side s (rows of s .. 2s-1 .. s cells, axial (q, r) cells from
core.hexgrid) or a W x H square grid with king moves ((row, col) cells). `#` tokens are holes:
not part of the board. The N remaining cells take the numbers 1..N, each once, so that
consecutive numbers sit in adjacent cells (a Hamiltonian path). A solution maps cell -> number.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from ...core import hexgrid as hx
from ...core import squaregrid as sq
from ...core.errors import InputError
from ...core.family import Family
from ...core.report import Report
from ...core.result import Solution
from ...core.textfile import Record, read_text, strict_int

Cell = tuple[int, int]
SHAPES = ("hex", "square")
HOLE, EMPTY = "#", "."


def layout(shape: str, dims: tuple[int, ...]) -> list[list[Cell]]:
    """Every slot of the board (holes included), row by row, left to right."""
    if shape == "hex":
        return hx.rows_of(hx.hexagon(dims[0]))
    width, height = dims
    return [[(r, c) for c in range(width)] for r in range(height)]


def adjacent_cells(shape: str, cell: Cell) -> list[Cell]:
    """The up to 6 (hex) or 8 (square, king moves) cells around `cell`, holes not excluded."""
    if shape == "hex":
        return list(hx.neighbours(cell))
    return [(cell[0] + dr, cell[1] + dc) for dr, dc in sq.KING_STEPS]


@dataclass
class HidatoInstance:
    shape: str  # "hex" or "square"
    dims: tuple[int, ...]  # (side,) or (width, height)
    holes: frozenset[Cell]
    givens: dict[Cell, int] = field(default_factory=dict)
    name: str = ""
    distance_cache: dict[int, np.ndarray] = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def rows(self) -> list[list[Cell]]:
        return layout(self.shape, self.dims)

    @cached_property
    def cells(self) -> list[Cell]:
        """Board cells (holes left out) in row order; index i is cell number i in the models."""
        return [c for row in self.rows for c in row if c not in self.holes]

    @cached_property
    def index(self) -> dict[Cell, int]:
        return {c: i for i, c in enumerate(self.cells)}

    @property
    def n(self) -> int:
        return len(self.cells)

    @cached_property
    def neighbours(self) -> list[list[int]]:
        """Adjacency lists by cell index."""
        idx = self.index
        return [[idx[d] for d in adjacent_cells(self.shape, c) if d in idx] for c in self.cells]

    def adjacent(self, a: Cell, b: Cell) -> bool:
        return b in adjacent_cells(self.shape, a)

    @cached_property
    def given_at(self) -> dict[int, int]:
        """number -> cell index of the givens."""
        return {v: self.index[c] for c, v in self.givens.items()}

    def distances_from(self, i: int) -> np.ndarray:
        """Breadth-first distances (in moves on the board) from cell index i; unreachable
        cells get n (farther than any path). Cached: shared by copies made with `with_givens`."""
        if i not in self.distance_cache:
            n = self.n
            dist = np.full(n, n, dtype=np.int64)
            dist[i] = 0
            todo = deque([i])
            nbrs = self.neighbours
            while todo:
                a = todo.popleft()
                for b in nbrs[a]:
                    if dist[b] == n:
                        dist[b] = dist[a] + 1
                        todo.append(b)
            self.distance_cache[i] = dist
        return self.distance_cache[i]

    def with_givens(self, givens: dict[Cell, int]) -> HidatoInstance:
        """The same board with other givens (keeps the geometry and the distance cache)."""
        out = HidatoInstance(self.shape, self.dims, self.holes, dict(givens), self.name)
        out.distance_cache = self.distance_cache
        for key in ("rows", "cells", "index", "neighbours"):
            if key in self.__dict__:
                out.__dict__[key] = self.__dict__[key]
        return out

    def candidates(self) -> list[list[int]]:
        """cands[k] (k = 1..N; index 0 unused): cell indices that can hold number k.

        A cell can hold k only if it is within |k - g| moves of the given g nearest below and
        nearest above k; a given's cell holds only its own number. Sound pruning: every
        solution survives it.
        """
        n = self.n
        given = self.given_at
        free = np.ones(n, bool)
        free[list(given.values())] = False
        everywhere = np.zeros(n, np.int64)  # no given on that side: no limit
        out: list[list[int]] = [[]]
        below: int | None = None
        keys = sorted(given) + [None]
        for above in keys:
            top = n if above is None else above - 1
            d_lo = everywhere if below is None else self.distances_from(given[below])
            d_hi = everywhere if above is None else self.distances_from(given[above])
            for k in range((below or 0) + 1, top + 1):
                ok = free & (d_lo <= (k - below if below is not None else n))
                ok &= d_hi <= (above - k if above is not None else n)
                out.append(np.flatnonzero(ok).tolist())
            if above is not None:
                out.append([given[above]])
                below = above
        return out

    def successions(self, cands: list[list[int]]):
        """(k, c, j, cells): "k in cell c" needs j = k+1 and j = k-1 in one of `cells` (the
        candidates of j next to c). The path rule of every literal model (CP-SAT, MILP, CNF)."""
        nbrs = self.neighbours
        for k in range(1, self.n + 1):
            for j in (k - 1, k + 1):
                if 1 <= j <= self.n:
                    there = set(cands[j])
                    for c in cands[k]:
                        yield k, c, j, [d for d in nbrs[c] if d in there]

    def search_space_log10(self) -> float:
        free = self.n - len(self.givens)
        return math.lgamma(free + 1) / math.log(10)


# --------------------------------------------------------------------------- reading
def _grid_token(tok: str) -> bool:
    return tok in (HOLE, EMPTY) or tok.lstrip("-").isdigit()


def strip_comment(line: str) -> list[str]:
    """Tokens of a line with its comment removed, where `#` is also the hole token.

    A comment starts at the first token that is not a number, `.` or `#` when that token begins
    with `#` (`#note`), else at the nearest `#` token before it (`# 37 cells`); a line of
    numbers, dots and `#` only has no comment. So a comment must contain a word.
    """
    toks = line.split()
    for j, tok in enumerate(toks):
        if _grid_token(tok):
            continue
        if tok.startswith("#"):
            return toks[:j]
        marks = [i for i in range(j) if toks[i] == HOLE]
        return toks[: marks[-1]] if marks else toks
    return toks


def grid_records(path: str, text: str, header: bool = True) -> list[Record]:
    """Numbered token lines: up to the header `#` always starts a comment, in the rows it is
    read by `strip_comment`."""
    out = []
    for no, raw in enumerate(text.splitlines(), start=1):
        before_header = header and not out
        toks = raw.split("#", 1)[0].split() if before_header else strip_comment(raw)
        if toks:
            out.append(Record(no, toks, str(path)))
    return out


# Beyond this the models no longer fit in memory (CP-SAT's Boolean model has N^2 literals);
# the largest shipped board has 1,024 cells.
MAX_CELLS = 100_000


def _check_size(rec: Record, cells: int, what: str) -> None:
    if cells > MAX_CELLS:
        raise rec.error(f"{what} has {cells:,} cells; expected at most {MAX_CELLS:,}")


def _header(rec: Record) -> tuple[str, tuple[int, ...]]:
    toks = rec.tokens
    shape = toks[1].lower() if len(toks) > 1 else ""
    if shape == "hex" and len(toks) == 3:
        (side,) = Record(rec.line, toks[2:], rec.path).ints(1, "the side of the hexagon")
        if side < 1:
            raise rec.error(f"hexagon side must be at least 1, got {side}")
        _check_size(rec, 3 * side * (side - 1) + 1, f"a hexagon of side {side}")
        return shape, (side,)
    if shape == "square" and len(toks) == 4:
        w, h = Record(rec.line, toks[2:], rec.path).ints(2, "width and height")
        if w < 1 or h < 1:
            raise rec.error(f"board {w}x{h} is empty; expected width and height >= 1")
        _check_size(rec, w * h, f"a {w}x{h} board")
        return shape, (w, h)
    raise rec.error("expected header 'hidato hex SIDE' or 'hidato square W H'")


def _read_grid(
    shape: str, dims: tuple[int, ...], body: list[Record], path: str, head: Record, what: str
) -> tuple[dict[Cell, str], list[Record]]:
    """Map every slot to its token, checking the row count and the row lengths."""
    slots = layout(shape, dims)
    if len(body) != len(slots):
        line = body[-1].line if body else head.line
        raise InputError(
            f"expected {len(slots)} rows of {what} for {' '.join(head.tokens)}, found {len(body)}",
            path,
            line,
        )
    grid: dict[Cell, str] = {}
    for rec, row in zip(body, slots, strict=True):
        if len(rec.tokens) != len(row):
            raise rec.error(f"expected {len(row)} tokens in this row, found {len(rec.tokens)}")
        grid.update(zip(row, rec.tokens, strict=True))
    return grid, body


def _number(tok: str, rec: Record, allowed: str) -> int:
    try:
        return strict_int(tok)
    except ValueError:
        raise rec.error(f"expected a number, {allowed}; found {tok!r}") from None


def parse_instance(text: str, path: str) -> HidatoInstance:
    recs = grid_records(path, text)
    if not recs:
        raise InputError("empty file; expected a header 'hidato hex SIDE'", path)
    head = recs[0]
    if head.tokens[0].lower() != "hidato":
        raise head.error("expected header 'hidato hex SIDE' or 'hidato square W H'")
    shape, dims = _header(head)
    grid, body = _read_grid(shape, dims, recs[1:], path, head, "numbers, '.' or '#'")
    line_of = {c: rec.line for rec, row in zip(body, layout(shape, dims), strict=True) for c in row}
    holes = frozenset(c for c, t in grid.items() if t == HOLE)
    n = len(grid) - len(holes)
    if n == 0:
        raise InputError("the board has no cells: every slot is a hole '#'", path, head.line)
    givens: dict[Cell, int] = {}
    seen: dict[int, Cell] = {}
    for cell, tok in grid.items():
        if tok in (HOLE, EMPTY):
            continue
        rec = Record(line_of[cell], [tok], path)
        v = _number(tok, rec, "'.' (empty) or '#' (hole)")
        if not 1 <= v <= n:
            raise rec.error(f"number {v} out of range; this board has {n} cells, expected 1..{n}")
        if v in seen:
            raise rec.error(f"number {v} given twice (also on line {line_of[seen[v]]})")
        seen[v] = cell
        givens[cell] = v
    return HidatoInstance(shape, dims, holes, givens, Path(path).stem)


def read_instance(path: str | Path, fmt: str | None = None, text: str | None = None):
    if fmt not in (None, "native", "hidato"):
        raise InputError(f"unknown hidato format {fmt!r}; expected 'native'", path)
    path = str(path)
    return parse_instance(read_text(path) if text is None else text, path)


def _row_tokens(inst: HidatoInstance, value_of) -> list[list[str]]:
    return [
        [HOLE if c in inst.holes else value_of(c) for c in row] for row in inst.rows
    ]


def _aligned(inst: HidatoInstance, rows: list[list[str]]) -> str:
    """Rows padded so a hexagon looks like one (each row shifted by half a cell per step)."""
    width = max(2, len(str(inst.n)))
    if inst.shape == "hex" and width % 2 == 0:
        width += 1  # an even cell pitch: rows shift by exactly half a cell
    longest = max(len(r) for r in rows)
    lines = []
    for row in rows:
        pad = (longest - len(row)) * (width + 1) // 2 if inst.shape == "hex" else 0
        lines.append((" " * pad + " ".join(t.rjust(width) for t in row)).rstrip())
    return "\n".join(lines) + "\n"


def header_line(inst: HidatoInstance) -> str:
    return f"hidato {inst.shape} {' '.join(map(str, inst.dims))}"


def format_instance(inst: HidatoInstance, comment: str = "") -> str:
    lines = [f"# {c}" for c in comment.splitlines()] if comment else []
    lines.append(header_line(inst))
    body = _aligned(inst, _row_tokens(inst, lambda c: str(inst.givens.get(c, EMPTY))))
    return "\n".join(lines) + "\n" + body


# --------------------------------------------------------------------------- solutions
def parse_board(inst: HidatoInstance, body: list[Record], path: str) -> Solution:
    """A filled board in the instance's row layout; '.' leaves a cell empty, '#' marks a hole."""
    if body and body[0].tokens[0].lower() == "hidato":
        body = body[1:]  # a solution may repeat the instance header
    head = Record(body[0].line if body else 1, header_line(inst).split(), path)
    grid, _ = _read_grid(inst.shape, inst.dims, body, path, head, "numbers")
    line_of = {c: rec.line for rec, row in zip(body, inst.rows, strict=True) for c in row}
    sol: Solution = {}
    for cell, tok in grid.items():
        rec = Record(line_of[cell], [tok], path)
        if tok in (HOLE, EMPTY):
            continue  # a board cell left so is reported empty by the checker
        sol[cell] = _number(tok, rec, "'.' or '#'")  # a number in a hole: the checker says so
    return sol


def solution_rows(inst: HidatoInstance, sol: Solution) -> list[list[int | None]]:
    """JSON rows: the number per slot, None for holes and empty cells."""
    return [[None if c in inst.holes else sol.get(c) for c in row] for row in inst.rows]


# --------------------------------------------------------------------------- checking
def _where(inst: HidatoInstance, sol: Solution) -> dict[int, list[Cell]]:
    where: dict[int, list[Cell]] = {}
    for c in inst.cells:
        if c in sol:
            where.setdefault(sol[c], []).append(c)
    return where


def verify(inst: HidatoInstance, sol: Solution, objective: str | None = None) -> Report:
    """Every violation: holes or foreign cells filled, empty cells, numbers out of range,
    doubled or missing numbers, givens changed, consecutive numbers not adjacent."""
    rep = Report()
    board = set(inst.cells)
    for c in sorted(set(sol) - board):
        what = "a hole" if c in inst.holes else "outside the board"
        rep.add("outside", f"cell {c} is {what} but holds {sol[c]}")
    for c in inst.cells:
        if c not in sol:
            rep.add("empty-cell", f"cell {c} is empty")
        elif not isinstance(sol[c], int) or not 1 <= sol[c] <= inst.n:
            rep.add("out-of-range", f"cell {c} holds {sol[c]!r}; expected 1..{inst.n}")
    where = _where(inst, sol)
    for k in range(1, inst.n + 1):
        if k not in where:
            rep.add("missing-number", f"number {k} is not on the board")
        elif len(where[k]) > 1:
            rep.add("doubled-number", f"number {k} is placed {len(where[k])} times, at {where[k]}")
    for c, v in sorted(inst.givens.items(), key=lambda cv: cv[1]):
        if sol.get(c) != v:
            rep.add("changed-given", f"cell {c} must hold the given {v}, found {sol.get(c)}")
    for k in range(1, inst.n):
        a, b = where.get(k, []), where.get(k + 1, [])
        if len(a) == 1 and len(b) == 1 and not inst.adjacent(a[0], b[0]):
            rep.add("not-adjacent", f"{k} at {a[0]} and {k + 1} at {b[0]} are not neighbours")
    return rep


# --------------------------------------------------------------------------- the family
class HidatoFamily(Family):
    name = "hidato"

    def legend(self, instance) -> str:
        return f"numbers 1..{instance.n} run along a path, each touching the next; # a hole"

    def read_instance(self, path, fmt=None, text=None) -> HidatoInstance:
        return read_instance(path, fmt, text)

    def parse_solution_text(self, instance, recs, path) -> Solution:
        return parse_board(instance, recs, path)

    def read_solution(self, instance, path, fmt=None) -> Solution:
        text = read_text(path)
        if text.lstrip().startswith("{"):
            return super().read_solution(instance, path, fmt)
        recs = grid_records(str(path), text, header=text.lstrip().lower().startswith("hidato"))
        return parse_board(instance, recs, str(path))

    def solution_from_json(self, instance, data, path) -> Solution:
        rows = data.get("rows")
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise InputError('expected {"rows": [[number or null, ...], ...]}', path, 1)
        recs = []
        for row in rows:
            toks = []
            for item in row:
                if item is None or item in (HOLE, EMPTY):
                    toks.append(EMPTY if item is None else item)
                elif isinstance(item, int) and not isinstance(item, bool):
                    toks.append(str(item))
                else:
                    raise InputError(f"expected a number or null in rows, found {item!r}", path, 1)
            recs.append(Record(1, toks, path))
        # JSON writes holes as null: put '#' back where the instance has holes
        for rec, slots in zip(recs, instance.rows, strict=False):
            for i, c in enumerate(slots[: len(rec.tokens)]):
                if c in instance.holes and rec.tokens[i] == EMPTY:
                    rec.tokens[i] = HOLE
        return parse_board(instance, recs, path)

    def format_instance(self, instance, comment="") -> str:
        return format_instance(instance, comment)

    def format_solution(self, instance, solution) -> str:
        return _aligned(instance, _row_tokens(instance, lambda c: str(solution.get(c, EMPTY))))

    def solution_json(self, instance, solution) -> dict:
        return {"rows": solution_rows(instance, solution)}

    def verify(self, instance, solution, objective=None) -> Report:
        return verify(instance, solution, objective)

    def info(self, instance) -> dict:
        dims = instance.dims
        return {
            "family": self.name,
            "shape": instance.shape,
            "size": f"side {dims[0]}" if instance.shape == "hex" else f"{dims[0]}x{dims[1]}",
            "cells": instance.n,
            "holes": len(instance.holes),
            "givens": len(instance.givens),
            "given_fraction": round(len(instance.givens) / instance.n, 3),
            "degree": dict(sorted(Counter(len(a) for a in instance.neighbours).items())),
            "search_space": f"10^{instance.search_space_log10():.1f} (free numbers permuted)",
        }


FAMILY = HidatoFamily()
