"""Reading Tantrix instances (`tantrix`, `tiles`, `goal`, `shape`, `cell` lines) and solutions
(lines TILE Q R ROT, or their JSON)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ...core.bounds import MAX_TANTRIX_TILES, too_big
from ...core.errors import InputError
from ...core.result import Solution
from ...core.textfile import Record, parse_int, read_text, records
from . import catalogue as cat
from .instance import GOAL_COLOURS, GOAL_KINDS, Goal, Hex, TantrixInstance


def parse_tile_list(tokens: list[str], rec: Record, before: int = 0) -> list[int]:
    """Tile numbers from tokens like `1-10`, `3`, `4,5`; ranges ascending, 1..56; with the
    `before` tiles of earlier lines at most MAX_TANTRIX_TILES (checked before any list)."""
    out: list[int] = []
    for tok in (t for raw in tokens for t in raw.split(",") if t):
        if "-" in tok:
            lo_s, _, hi_s = tok.partition("-")
            lo = parse_int(lo_s, rec, f"a tile range A-B with A, B in 1..{cat.TILE_COUNT}")
            hi = parse_int(hi_s, rec, f"a tile range A-B with A, B in 1..{cat.TILE_COUNT}")
            if lo > hi:
                raise rec.error(f"tile range {tok!r} runs backwards; expected A-B with A <= B")
        else:
            lo = hi = parse_int(tok, rec, f"a tile number 1..{cat.TILE_COUNT} or a range A-B")
        for t in (lo, hi):
            if not 1 <= t <= cat.TILE_COUNT:
                raise rec.error(f"unknown tile {t}; expected tile numbers 1..{cat.TILE_COUNT}")
        if before + len(out) + hi - lo + 1 > MAX_TANTRIX_TILES:
            raise rec.error(too_big("the puzzle", before + len(out) + hi - lo + 1,
                                    MAX_TANTRIX_TILES, "tiles"))
        out += range(lo, hi + 1)
    return out


def _goal(rec: Record) -> Goal:
    if len(rec.tokens) != 3:
        raise rec.error("expected 'goal loop|line COLOUR'")
    kind, colour = rec.tokens[1].lower(), rec.tokens[2].lower()
    if kind not in GOAL_KINDS:
        raise rec.error(f"unknown goal kind {rec.tokens[1]!r}; expected loop or line")
    if colour not in GOAL_COLOURS:
        raise rec.error(f"unknown colour {rec.tokens[2]!r}; expected one of "
                        f"{', '.join(GOAL_COLOURS)}")
    return Goal(kind, colour)


def _parse_instance(recs: list[Record], path: str) -> TantrixInstance:
    if not recs or recs[0].tokens[0].lower() != "tantrix" or len(recs[0].tokens) != 1:
        raise InputError("expected the header line 'tantrix'", path, recs[0].line if recs else None)
    inst = TantrixInstance(tiles=[], name=Path(path).stem)
    shape_rec = None
    for rec in recs[1:]:
        key = rec.tokens[0].lower()
        if key == "tiles":
            if len(rec.tokens) < 2:
                raise rec.error("expected 'tiles' followed by tile numbers or ranges like 1-10")
            inst.tiles += parse_tile_list(rec.tokens[1:], rec, len(inst.tiles))
        elif key == "goal":
            inst.goals.append(_goal(rec))
        elif key == "shape":
            if shape_rec is not None:
                raise rec.error(f"second shape line (first on line {shape_rec.line})")
            shape_rec = rec
            kind = rec.tokens[1].lower() if len(rec.tokens) > 1 else ""
            if kind == "free" and len(rec.tokens) == 2:
                inst.shape = "free"
            elif kind == "board" and len(rec.tokens) == 2:
                inst.shape = "board"
            elif kind == "triangle" and len(rec.tokens) == 3:
                inst.shape = "triangle"
                inst.size = parse_int(rec.tokens[2], rec, "the triangle side N")
                if inst.size < 1:
                    raise rec.error("triangle side must be at least 1")
            else:
                raise rec.error("expected 'shape free', 'shape triangle N' or 'shape board'")
        elif key == "cell":
            if len(rec.tokens) != 3:
                raise rec.error("expected 'cell Q R'")
            cell = (parse_int(rec.tokens[1], rec, "integer Q"),
                    parse_int(rec.tokens[2], rec, "integer R"))
            if cell in inst.board:
                raise rec.error(f"board cell {cell} listed twice")
            inst.board.append(cell)
        else:
            raise rec.error(f"unknown keyword {rec.tokens[0]!r}; expected tiles, goal, shape "
                            "or cell")
    if not inst.tiles:
        raise InputError("no tiles; expected a line 'tiles 1-10'", path, recs[0].line)
    if inst.board and inst.shape != "board":
        raise InputError("'cell' lines need 'shape board'", path)
    fixed = inst.goal_colours()
    dup = [c for c, k in Counter(fixed).items() if k > 1]
    if dup:
        raise InputError(f"two goals of colour {dup[0]}; goal lines need distinct colours", path)
    if len(inst.goals) > len(cat.COLOURS):
        raise InputError(f"{len(inst.goals)} goals but only {len(cat.COLOURS)} colours", path)
    return inst


def read_instance(path: str | Path, fmt: str | None = None, text: str | None = None):
    if fmt not in (None, "native", "tantrix"):
        raise InputError(f"unknown tantrix format {fmt!r}; expected native", path)
    path = str(path)
    return _parse_instance(records(path, text if text is not None else read_text(path)), path)



def _placement(rec: Record, vals: list[int], path: str) -> tuple[Hex, tuple[int, int]]:
    tile, q, r, rot = vals
    if not 1 <= tile <= cat.TILE_COUNT:
        raise rec.error(f"unknown tile {tile}; expected 1..{cat.TILE_COUNT}")
    if not 0 <= rot <= 5:
        raise rec.error(f"rotation {rot} out of range; expected 0..5")
    return (q, r), (tile, rot)


def parse_solution(inst: TantrixInstance, recs: list[Record], path: str) -> Solution:
    """Lines TILE Q R ROT, after an optional `tantrix` header; the instance is not needed to
    read them (verify compares them with it)."""
    if recs and recs[0].tokens[0].lower() == "tantrix":
        recs = recs[1:]
    sol: Solution = {}
    for rec in recs:
        cell, tr = _placement(rec, rec.ints(4, "integers TILE Q R ROT"), path)
        if cell in sol:
            raise rec.error(f"cell {cell} holds two tiles")
        sol[cell] = tr
    return sol


def solution_from_json(inst: TantrixInstance, data: dict, path: str) -> Solution:
    """{"placements": [{"tile": t, "q": q, "r": r, "rot": k}, ...]}"""
    items = data.get("placements")
    if not isinstance(items, list):
        raise InputError('expected {"placements": [{"tile": t, "q": q, "r": r, "rot": k}, ...]}',
                         path, 1)
    recs = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not all(k in item for k in ("tile", "q", "r", "rot")):
            raise InputError(f"placement {i}: expected keys tile, q, r, rot; found {item!r}",
                             path, 1)
        recs.append(Record(1, [str(item[k]) for k in ("tile", "q", "r", "rot")], path))
    return parse_solution(inst, recs, path)

