"""Reading Hidato instances (a `hidato hex SIDE` or `hidato square W H` header, then the rows of
numbers, `.` empty cells and `#` holes) and solutions (the filled rows, or their JSON)."""

from __future__ import annotations

from pathlib import Path

from ...core.bounds import MAX_HIDATO_CELLS, too_big
from ...core.errors import InputError
from ...core.result import Solution
from ...core.textfile import Record, read_text, strict_int
from .instance import Cell, HidatoInstance, layout

HOLE, EMPTY = "#", "."


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


def _check_size(rec: Record, cells: int, what: str) -> None:
    """The board's size before any table of it is made (core.bounds); the largest shipped
    board has 1,024 cells."""
    if cells > MAX_HIDATO_CELLS:
        raise rec.error(too_big(what, cells, MAX_HIDATO_CELLS, "cells"))


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


def _parse_instance(text: str, path: str) -> HidatoInstance:
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
    return _parse_instance(read_text(path) if text is None else text, path)


def header_line(inst: HidatoInstance) -> str:
    return f"hidato {inst.shape} {' '.join(map(str, inst.dims))}"


def parse_solution(inst: HidatoInstance, recs: list[Record], path: str) -> Solution:
    """A filled board in the instance's row layout; '.' leaves a cell empty, '#' marks a hole."""
    if recs and recs[0].tokens[0].lower() == "hidato":
        recs = recs[1:]  # a solution may repeat the instance header
    head = Record(recs[0].line if recs else 1, header_line(inst).split(), path)
    grid, _ = _read_grid(inst.shape, inst.dims, recs, path, head, "numbers")
    line_of = {c: rec.line for rec, row in zip(recs, inst.rows, strict=True) for c in row}
    sol: Solution = {}
    for cell, tok in grid.items():
        rec = Record(line_of[cell], [tok], path)
        if tok in (HOLE, EMPTY):
            continue  # a board cell left so is reported empty by the checker
        sol[cell] = _number(tok, rec, "'.' or '#'")  # a number in a hole: the checker says so
    return sol


def solution_from_json(inst: HidatoInstance, data: dict, path: str) -> Solution:
    """{"rows": [[number or null, ...], ...]} in the instance's row layout."""
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
    for rec, slots in zip(recs, inst.rows, strict=False):
        for i, c in enumerate(slots[: len(rec.tokens)]):
            if c in inst.holes and rec.tokens[i] == EMPTY:
                rec.tokens[i] = HOLE
    return parse_solution(inst, recs, path)
