"""Magic hexagons: instances, solutions, lines, symmetries and verification.

A hexagon of order n has N = 3n(n-1)+1 cells (DESIGN's axial hexagon of side n, centre
(0, 0)) holding the consecutive integers first..first+N-1 once each, so that every straight
line in the three directions (2n-1 per direction) sums to the magic constant
M = N(2 first + N - 1) / (2(2n-1)). A Solution maps each cell (q, r) to its number.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from pathlib import Path

from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.family import Family
from ...core.report import Report
from ...core.result import Solution
from ...core.textfile import Record, parse_int, read_text, records

Cell = tuple[int, int]
# the three line directions: cells sharing r (rows), q (NW-SE lines), s = -q-r (NE-SW lines)
LINE_KINDS = ("row", "NW-SE line", "NE-SW line")


def cell_count(order: int) -> int:
    return 3 * order * (order - 1) + 1


def magic_sum(order: int, first: int) -> Fraction:
    n = cell_count(order)
    return Fraction(n * (2 * first + n - 1), 2 * (2 * order - 1))


def admissible_starts(order: int) -> tuple[int, list[int]]:
    """(period p, residues a) such that the magic sum is an integer iff first = a (mod p)."""
    period = 2 * (2 * order - 1)
    return period, [f for f in range(period) if magic_sum(order, f).denominator == 1]


@dataclass
class MagicHexInstance:
    order: int
    first: int = 1
    givens: dict[Cell, int] = field(default_factory=dict)
    name: str = ""

    @property
    def n_cells(self) -> int:
        return cell_count(self.order)

    @property
    def last(self) -> int:
        return self.first + self.n_cells - 1

    @property
    def values(self) -> range:
        return range(self.first, self.last + 1)

    @property
    def magic(self) -> int:
        return int(magic_sum(self.order, self.first))

    @cached_property
    def cells(self) -> list[Cell]:
        return hx.hexagon(self.order)

    @cached_property
    def rows(self) -> list[list[Cell]]:
        return hx.rows_of(self.cells)

    @cached_property
    def lines(self) -> list[tuple[str, list[Cell]]]:
        """(name, cells) of every straight line: rows, then NW-SE, then NE-SW lines."""
        out = []
        keys = (lambda c: c[1], lambda c: c[0], lambda c: -c[0] - c[1])
        for kind, key in zip(LINE_KINDS, keys, strict=True):
            groups: dict[int, list[Cell]] = {}
            for c in self.cells:
                groups.setdefault(key(c), []).append(c)
            for i, k in enumerate(sorted(groups), start=1):
                out.append((f"{kind} {i}", sorted(groups[k], key=lambda c: (c[1], c[0]))))
        return out

    @cached_property
    def corners(self) -> list[Cell]:
        """The six corners clockwise from the top-left one."""
        k = self.order - 1
        top_left = (0, -k)
        return [hx.rotate_cell(top_left, i) for i in range(6)]

    @cached_property
    def symmetries(self) -> list[list[int]]:
        """The 12 symmetries as index permutations: perm[i] = index of the image of cell i."""
        index = {c: i for i, c in enumerate(self.cells)}
        out = []
        for mirror in (False, True):
            for k in range(6):
                perm = []
                for c in self.cells:
                    img = hx.rotate_cell(hx.mirror_cell(c) if mirror else c, k)
                    perm.append(index[img])
                out.append(perm)
        return out


# --------------------------------------------------------------------------- reading
# 10,621 cells at order 60: far beyond what any backend solves, still cheap to read and check.
MAX_ORDER = 60


def _header(rec: Record) -> tuple[int, int]:
    toks = rec.tokens
    usage = "expected header 'magichex ORDER [first F]'"
    if toks[0].lower() != "magichex" or len(toks) not in (2, 4):
        raise rec.error(usage)
    order = parse_int(toks[1], rec, "the order (a positive integer)")
    if not 1 <= order <= MAX_ORDER:
        raise rec.error(f"order {order} out of range; expected 1..{MAX_ORDER}")
    first = 1
    if len(toks) == 4:
        if toks[2].lower() != "first":
            raise rec.error(f"unknown option {toks[2]!r}; {usage}")
        first = parse_int(toks[3], rec, "the first number F (an integer)")
    if magic_sum(order, first).denominator != 1:
        period, res = admissible_starts(order)
        raise rec.error(
            f"no magic hexagon of order {order} starts at {first}: the magic sum "
            f"{magic_sum(order, first)} is not an integer; expected first = "
            f"{' or '.join(map(str, res))} (mod {period})"
        )
    return order, first


def parse_rows(
    inst: MagicHexInstance, recs: list[Record], path: str, blanks: bool
) -> dict[Cell, int]:
    """Rows of numbers (and `.` for an empty cell when `blanks`) in the hexagon's layout.

    Numbers must lie in first..last and appear once.
    """
    rows = inst.rows
    if len(recs) != len(rows):
        line = recs[-1].line if recs else None
        raise InputError(
            f"expected {len(rows)} rows for a hexagon of order {inst.order} "
            f"(lengths {' '.join(str(len(r)) for r in rows)}), found {len(recs)}",
            path,
            line,
        )
    out: dict[Cell, int] = {}
    where: dict[int, Record] = {}
    what = "a number or '.'" if blanks else "a number"
    for rec, row in zip(recs, rows, strict=True):
        if len(rec.tokens) != len(row):
            raise rec.error(
                f"row of {len(rec.tokens)} tokens; expected {len(row)} in this row of the "
                f"order-{inst.order} hexagon"
            )
        for tok, cell in zip(rec.tokens, row, strict=True):
            if blanks and tok == ".":
                continue
            v = parse_int(tok, rec, what)
            if not inst.first <= v <= inst.last:
                raise rec.error(f"number {v} out of range; expected {inst.first}..{inst.last}")
            if v in where:
                raise rec.error(f"number {v} appears twice (also on line {where[v].line})")
            where[v] = rec
            out[cell] = v
    return out


def read_instance(path: str | Path, text: str | None = None) -> MagicHexInstance:
    path = str(path)
    recs = records(path, text if text is not None else read_text(path))
    if not recs:
        raise InputError("empty file; expected header 'magichex ORDER [first F]'", path)
    order, first = _header(recs[0])
    inst = MagicHexInstance(order, first, name=Path(path).stem)
    if len(recs) > 1:
        inst.givens = parse_rows(inst, recs[1:], path, blanks=True)
    return inst


def format_instance(inst: MagicHexInstance, comment: str = "") -> str:
    lines = [f"# {c}" for c in comment.splitlines()] if comment else []
    head = f"magichex {inst.order}" + (f" first {inst.first}" if inst.first != 1 else "")
    lines.append(head)
    if inst.givens:
        lines.append(format_rows(inst, inst.givens).rstrip("\n"))
    return "\n".join(lines) + "\n"


def format_rows(inst: MagicHexInstance, sol: Solution) -> str:
    """Rows indented so the hexagon shows its shape; `.` marks an empty cell."""
    width = max(len(str(inst.first)), len(str(inst.last)))
    out = []
    for row in inst.rows:
        toks = [str(sol[c]).rjust(width) if c in sol else ".".rjust(width) for c in row]
        pad = " " * ((2 * inst.order - 1 - len(row)) * (width + 1) // 2)
        out.append(pad + " ".join(toks))
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- checking
def verify(inst: MagicHexInstance, sol: Solution) -> Report:
    """Every violation: empty or foreign cells, numbers out of range, repeated or missing
    numbers, moved givens, and each line whose sum is not the magic constant."""
    rep = Report()
    cells = set(inst.cells)
    for c in sorted(set(sol) - cells):
        rep.add("outside", f"cell {c} lies outside the order-{inst.order} hexagon")
    for c in inst.cells:
        if c not in sol:
            rep.add("empty-cell", f"cell {c} is empty")
    placed = {c: v for c, v in sol.items() if c in cells}
    for c, v in sorted(placed.items()):
        if not inst.first <= v <= inst.last:
            rep.add("out-of-range", f"number {v} at {c} is outside {inst.first}..{inst.last}")
    uses = Counter(placed.values())
    for v, k in sorted(uses.items()):
        if k > 1:
            where = sorted(c for c, w in placed.items() if w == v)
            rep.add("repeated-number", f"number {v} appears {k} times, at {where}")
    for v in inst.values:
        if uses[v] == 0:
            rep.add("missing-number", f"number {v} is not placed")
    for c, v in sorted(inst.givens.items()):
        if placed.get(c) != v:
            rep.add("moved-given", f"given {v} must be at {c}, found {placed.get(c, 'nothing')}")
    for name, line in inst.lines:
        if all(c in placed for c in line):
            s = sum(placed[c] for c in line)
            if s != inst.magic:
                rep.add("line-sum", f"{name} {[placed[c] for c in line]} sums to {s}; "
                        f"expected {inst.magic}")
    return rep


def canonical(inst: MagicHexInstance, sol: Solution) -> tuple:
    """The smallest of the 12 rotated/reflected images, as a tuple in row order."""
    vals = [sol.get(c) for c in inst.cells]
    images = []
    for perm in inst.symmetries:
        img: list = [None] * len(vals)
        for i, j in enumerate(perm):
            img[j] = vals[i]
        images.append(tuple((v is None, v or 0) for v in img))
    return min(images)


# --------------------------------------------------------------------------- the family
class MagicHexFamily(Family):
    name = "magichex"

    def legend(self, instance) -> str:
        return (f"numbers {instance.first}..{instance.last}; every straight line of cells sums "
                f"to {instance.magic}")

    def read_instance(self, path, fmt=None, text=None) -> MagicHexInstance:
        if fmt not in (None, "native"):
            raise InputError(f"unknown magichex format {fmt!r}; expected native", path)
        return read_instance(path, text)

    def parse_solution_text(self, instance, recs, path) -> Solution:
        if recs and recs[0].tokens[0].lower() == "magichex":
            recs = recs[1:]  # a full instance-style file is accepted as a solution too
        return parse_solution_rows(instance, recs, path)

    def solution_from_json(self, instance, data, path) -> Solution:
        rows = data.get("rows")
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise InputError('expected {"rows": [[numbers...], ...]}', path, 1)
        recs = [Record(1, ["." if v is None else str(v) for v in row], path) for row in rows]
        return parse_solution_rows(instance, recs, path)

    def format_instance(self, instance, comment="") -> str:
        return format_instance(instance, comment)

    def format_solution(self, instance, solution) -> str:
        return format_rows(instance, solution)

    def solution_json(self, instance, solution) -> dict:
        return {"rows": [[solution.get(c) for c in row] for row in instance.rows]}

    def verify(self, instance, solution, objective=None) -> Report:
        return verify(instance, solution)

    def canonical(self, instance, solution):
        return canonical(instance, solution)

    def info(self, instance) -> dict:
        return {
            "family": self.name,
            "order": instance.order,
            "cells": instance.n_cells,
            "numbers": f"{instance.first}..{instance.last}",
            "magic_sum": instance.magic,
            "lines": len(instance.lines),
            "givens": len(instance.givens),
            "symmetries": 12,
        }


def parse_solution_rows(inst: MagicHexInstance, recs: list[Record], path: str) -> Solution:
    """A solution's rows: numbers (any integers, so verify can name every fault) or `.`."""
    rows = inst.rows
    if len(recs) != len(rows):
        line = recs[-1].line if recs else None
        raise InputError(f"expected {len(rows)} rows of numbers, found {len(recs)}", path, line)
    sol: Solution = {}
    for rec, row in zip(recs, rows, strict=True):
        if len(rec.tokens) != len(row):
            raise rec.error(f"row of {len(rec.tokens)} numbers; expected {len(row)}")
        for tok, cell in zip(rec.tokens, row, strict=True):
            if tok != ".":
                sol[cell] = parse_int(tok, rec, "a number or '.'")
    return sol


FAMILY = MagicHexFamily()
