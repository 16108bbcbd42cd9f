"""Reading magic hexagon instances (a `magichex ORDER [first F]` header, then optional rows of
givens and `.`) and solutions (the filled rows, or their JSON)."""

from __future__ import annotations

from pathlib import Path

from ...core.bounds import MAX_MAGICHEX_ORDER
from ...core.errors import InputError
from ...core.result import Solution
from ...core.textfile import Record, parse_int, read_text, records
from .instance import Cell, MagicHexInstance

# 10,621 cells at order 60: far beyond what any backend solves, still cheap to read and check.
MAX_ORDER = MAX_MAGICHEX_ORDER


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
    # a first number that makes the magic sum a fraction is a puzzle without solution, which
    # the precheck reports as infeasible (its reason names the admissible first numbers)
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


def read_instance(path: str | Path, fmt: str | None = None, text: str | None = None
                  ) -> MagicHexInstance:
    if fmt not in (None, "native"):
        raise InputError(f"unknown magichex format {fmt!r}; expected native", path)
    path = str(path)
    recs = records(path, text if text is not None else read_text(path))
    if not recs:
        raise InputError("empty file; expected header 'magichex ORDER [first F]'", path)
    order, first = _header(recs[0])
    inst = MagicHexInstance(order, first, name=Path(path).stem)
    if len(recs) > 1:
        inst.givens = parse_rows(inst, recs[1:], path, blanks=True)
    return inst


def parse_solution(inst: MagicHexInstance, recs: list[Record], path: str) -> Solution:
    """A solution's rows: numbers (any integers, so verify can name every fault) or `.`; a full
    instance-style file is accepted too."""
    if recs and recs[0].tokens[0].lower() == "magichex":
        recs = recs[1:]
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


def solution_from_json(inst: MagicHexInstance, data: dict, path: str) -> Solution:
    """{"rows": [[number or null, ...], ...]} in the hexagon's row layout."""
    rows = data.get("rows")
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise InputError('expected {"rows": [[numbers...], ...]}', path, 1)
    recs = [Record(1, ["." if v is None else str(v) for v in row], path) for row in rows]
    return parse_solution(inst, recs, path)
