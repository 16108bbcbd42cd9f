"""Reading: the instance file (`latin N`, then N rows of numbers or `.`) and solutions."""

from __future__ import annotations

from pathlib import Path

from ...core.errors import InputError
from ...core.result import Solution
from ...core.textfile import Record, parse_int, read_text, records, source_stem
from .instance import LatinInstance

MAX_N = 64  # a bound on what a file may ask for, checked before anything is built


def read_instance(path: str | Path, fmt: str | None = None,
                  text: str | None = None) -> LatinInstance:
    recs = records(path, read_text(path) if text is None else text)
    head = recs[0]
    if len(head.tokens) != 2:
        raise head.error("expected 'latin N'")
    n = parse_int(head.tokens[1], head, "the size N")
    if not 1 <= n <= MAX_N:
        raise head.error(f"expected a size from 1 to {MAX_N}, got {n}")
    return LatinInstance(n, rows(n, recs[1:], path, blanks=True), source_stem(path))


def rows(n: int, recs: list[Record], path, blanks: bool) -> dict[tuple[int, int], int]:
    """The numbers of N rows of N tokens (`.` an empty cell where `blanks`)."""
    if len(recs) != n:
        raise InputError(f"expected {n} rows, got {len(recs)}", path,
                         recs[n].line if len(recs) > n else None)
    cells = {}
    for r, rec in enumerate(recs):
        if len(rec.tokens) != n:
            raise rec.error(f"expected {n} entries, got {len(rec.tokens)}")
        for c, tok in enumerate(rec.tokens):
            if tok == "." and blanks:
                continue
            value = parse_int(tok, rec, "a number")
            if not 1 <= value <= n:
                raise rec.error(f"expected a number from 1 to {n}, got {value}")
            cells[r, c] = value
    return cells


def parse_solution(inst: LatinInstance, recs: list[Record], path: str) -> Solution:
    return rows(inst.n, recs, path, blanks=False)


def solution_from_json(inst: LatinInstance, data: dict, path: str) -> Solution:
    grid = data.get("rows")
    if not isinstance(grid, list) or len(grid) != inst.n:
        raise InputError(f"expected 'rows': a list of {inst.n} rows", path)
    return {(r, c): v for r, row in enumerate(grid) for c, v in enumerate(row)}
