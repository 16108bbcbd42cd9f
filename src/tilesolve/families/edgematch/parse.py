"""Reading edge-matching instances (native, bare, Heule and e2.bucas.name URL formats) and
solutions (rows of PIECE/ROT, their JSON, or a board URL)."""

from __future__ import annotations

import math
from pathlib import Path

from ...core.bounds import MAX_COLOUR
from ...core.errors import InputError
from ...core.result import Solution
from ...core.textfile import Record, read_text, records, strict_int
from .instance import EdgeInstance, Edges
from .official import apply_rules

FORMATS = ("native", "bare", "heule", "url")


def _check_counts(inst: EdgeInstance, path: str) -> None:
    """The board's size; whether the pieces fit its frame is the precheck's (infeasible, not
    bad input)."""
    w, h = inst.width, inst.height
    if w < 2 or h < 2:
        raise InputError(f"board {w}x{h} too small; expected at least 2x2", path)


def colours(rec: Record) -> Edges:
    """A piece's line: four colours N E S W in 0..MAX_COLOUR (0 is the frame's grey)."""
    vals = rec.ints(4, "colours N E S W (non-negative integers)")
    if any(not 0 <= v <= MAX_COLOUR for v in vals):
        raise rec.error(f"colours must be integers 0..{MAX_COLOUR:,} (README: Limits), "
                        f"found {' '.join(rec.tokens)}")
    return tuple(vals)  # type: ignore[return-value]


def _read_pieces(recs: list[Record], count: int, path: str, header: Record) -> list[Edges]:
    pieces = [colours(rec) for rec in recs]
    if len(pieces) != count:
        line = recs[-1].line if recs else header.line
        raise InputError(
            f"wrong piece count: header {header.tokens} asks for {count} pieces, found "
            f"{len(pieces)}",
            path,
            line,
        )
    return pieces  # type: ignore[return-value]


def _fixed_line(rec: Record, inst_dims: tuple[int, int], n: int, one_based: bool) -> tuple:
    vals = rec.ints(4, "integers ROW COL PIECE ROT")
    row, col, piece, rot = vals
    if one_based:
        row, col = row - 1, col - 1
    w, h = inst_dims
    if not (0 <= row < h and 0 <= col < w):
        raise rec.error(f"fixed cell ({row}, {col}) outside the {w}x{h} board")
    if not 1 <= piece <= n:
        raise rec.error(f"unknown piece {piece}; expected 1..{n}")
    if not 0 <= rot <= 3:
        raise rec.error(f"rotation {rot} out of range; expected 0..3")
    return (row, col), (piece, rot)


def _parse_native(recs: list[Record], path: str) -> EdgeInstance:
    head = recs[0]
    if len(head.tokens) != 3:
        raise head.error("expected header 'edgematch W H'")
    w, h = Record(head.line, head.tokens[1:], path).ints(2, "board width and height")
    fixed_recs = [r for r in recs[1:] if r.tokens[0].lower() == "fixed"]
    piece_recs = [r for r in recs[1:] if r.tokens[0].lower() != "fixed"]
    pieces = _read_pieces(piece_recs, w * h, path, head)
    inst = EdgeInstance(w, h, pieces, name=Path(path).stem)
    for rec in fixed_recs:
        cell, pr = _fixed_line(Record(rec.line, rec.tokens[1:], path), (w, h), inst.n, False)
        if cell in inst.fixed:
            raise rec.error(f"cell {cell} fixed twice")
        inst.fixed[cell] = pr
    return inst


def _parse_bare(recs: list[Record], path: str) -> EdgeInstance:
    head = recs[0]
    w, h = head.ints(2, "board width and height 'W H'")
    pieces = _read_pieces(recs[1:], w * h, path, head)
    return EdgeInstance(w, h, pieces, name=Path(path).stem)


def _dims_from_pieces(pieces: list[Edges], path: str) -> tuple[int, int]:
    """Heule files give no size: solve W + H and W * H from the border and total counts."""
    total = len(pieces)
    border = sum(1 for e in pieces if sum(c == 0 for c in e) == 1)
    s = (border + 8) / 2  # W + H
    disc = s * s - 4 * total
    if disc < 0 or s != int(s):
        raise InputError(f"cannot infer the board size from {total} pieces", path)
    root = math.isqrt(int(disc))
    if root * root != int(disc):
        raise InputError(f"cannot infer the board size from {total} pieces", path)
    big, small = (int(s) + root) // 2, (int(s) - root) // 2
    return big, small  # width >= height


def _parse_heule(recs: list[Record], path: str) -> EdgeInstance:
    head = recs[0]
    (k,) = head.ints(1, "the number of hints")
    if k < 0 or k > len(recs) - 1:
        raise head.error(f"hint count {k} out of range")
    hint_recs, piece_recs = recs[1 : 1 + k], recs[1 + k :]
    pieces = [colours(rec) for rec in piece_recs]
    w, h = _dims_from_pieces(pieces, path)
    inst = EdgeInstance(w, h, pieces, name=Path(path).stem)  # type: ignore[arg-type]
    for rec in hint_recs:
        cell, pr = _fixed_line(rec, (w, h), inst.n, True)
        inst.fixed[cell] = pr
    return inst


# e2.bucas.name: 4 letters per cell (up, right, down, left), a = 0 (grey), row-major.
def _url_fields(text: str, path: str) -> dict[str, str]:
    body = text.strip().split("#", 1)[-1] if "#" in text.strip()[:80] else text.strip()
    if "?" in body and "board_edges" not in body.split("?", 1)[0]:
        body = body.split("?", 1)[1]
    fields = {}
    for part in body.replace("?", "&").split("&"):
        if "=" in part:
            k, v = part.split("=", 1)
            fields[k.strip()] = v.strip()
    for key in ("board_w", "board_h", "board_edges"):
        if key not in fields:
            raise InputError(f"e2.bucas.name URL without {key}", path, 1)
    order = fields.get("motifs_order", "")
    if order not in ("", "default"):
        raise InputError(f"motifs_order={order} not supported; expected the default order", path, 1)
    return fields


def url_board(text: str, path: str) -> tuple[int, int, list[Edges]]:
    """(W, H, the edges seen in each cell, row-major) from an e2.bucas.name board URL."""
    f = _url_fields(text, path)
    try:
        w, h = int(f["board_w"]), int(f["board_h"])
    except ValueError:
        raise InputError("board_w and board_h must be integers", path, 1) from None
    letters = f["board_edges"]
    if len(letters) != 4 * w * h or not letters.isalpha():
        raise InputError(
            f"board_edges must hold 4 letters per cell ({4 * w * h}), found {len(letters)}", path, 1
        )
    cells = []
    for i in range(w * h):
        quad = letters[4 * i : 4 * i + 4].lower()
        cells.append(tuple(ord(ch) - ord("a") for ch in quad))
    return w, h, cells  # type: ignore[return-value]



def _parse_url(text: str, path: str) -> EdgeInstance:
    w, h, cells = url_board(text, path)
    return EdgeInstance(w, h, cells, name=Path(path).stem)


def looks_like_url(text: str) -> bool:
    return "board_edges=" in text


def detect_format(recs: list[Record], text: str) -> str | None:
    if looks_like_url(text):
        return "url"
    if not recs:
        return None
    t = recs[0].tokens
    if t[0].lower() == "edgematch":
        return "native"
    if all(tok.lstrip("-").isdigit() for tok in t):
        if len(t) == 2:
            return "bare"
        if len(t) == 1:
            return "heule"
    return None


def read_instance(path: str | Path, fmt: str | None = None, text: str | None = None):
    path = str(path)
    if text is None:
        text = read_text(path)
    recs = records(path, text)
    fmt = fmt or detect_format(recs, text)
    if fmt not in FORMATS:
        line = recs[0].line if recs else None
        raise InputError(
            "unknown edge-matching format; expected 'edgematch W H', a bare 'W H' header, "
            "a Heule hint count, or an e2.bucas.name URL",
            path,
            line,
        )
    if fmt == "url":
        inst = _parse_url(text, path)
    elif not recs:
        raise InputError("empty file; expected a header", path)
    elif fmt == "native":
        inst = _parse_native(recs, path)
    elif fmt == "bare":
        inst = _parse_bare(recs, path)
    else:
        inst = _parse_heule(recs, path)
    _check_counts(inst, path)
    apply_rules(inst)  # the official set's start piece
    for cell, (p, r) in inst.fixed.items():
        if not inst.fits(cell, p, r):
            raise InputError(
                f"fixed piece {p}/{r} at {cell} does not fit the frame (grey must face out)", path
            )
    return inst



# --------------------------------------------------------------------------- solutions
def _token(rec: Record, tok: str, inst: EdgeInstance) -> tuple[int, int] | None:
    if tok in (".", "---/-", "-"):
        return None
    if "/" not in tok:
        raise rec.error(f"expected PIECE/ROT, found {tok!r}")
    a, b = tok.split("/", 1)
    try:
        p, r = strict_int(a), strict_int(b)
    except ValueError:
        raise rec.error(f"expected PIECE/ROT with integers, found {tok!r}") from None
    if not 1 <= p <= inst.n:
        raise rec.error(f"unknown piece {p}; expected 1..{inst.n}")
    if not 0 <= r <= 3:
        raise rec.error(f"rotation {r} out of range in {tok!r}; expected 0..3")
    return p, r


def parse_solution(inst: EdgeInstance, recs: list[Record], path: str) -> Solution:
    """Rows of PIECE/ROT tokens, `.` for an empty cell."""
    if len(recs) != inst.height:
        line = recs[-1].line if recs else None
        raise InputError(f"expected {inst.height} rows of PIECE/ROT, found {len(recs)}", path, line)
    sol: Solution = {}
    for r, rec in enumerate(recs):
        if len(rec.tokens) != inst.width:
            raise rec.error(f"expected {inst.width} tokens PIECE/ROT, found {len(rec.tokens)}")
        for c, tok in enumerate(rec.tokens):
            pr = _token(rec, tok, inst)
            if pr is not None:
                sol[(r, c)] = pr
    return sol


def solution_from_cells(inst: EdgeInstance, cells: list[Edges], path: str) -> Solution:
    """Recover (piece, rot) per cell from the edges shown (e.g. a board URL)."""
    lookup: dict[Edges, list[tuple[int, int]]] = {}
    for p in range(1, inst.n + 1):
        for r in range(4):
            lookup.setdefault(inst.edges(p, r), []).append((p, r))
    used: set[int] = set()
    sol: Solution = {}
    for i, e in enumerate(cells):
        if e == (0, 0, 0, 0):
            continue
        cands = [pr for pr in lookup.get(tuple(e), []) if pr[0] not in used] or lookup.get(
            tuple(e), []
        )
        if not cands:
            raise InputError(
                f"cell {i // inst.width},{i % inst.width} shows edges {e}, which "
                "match no piece of the instance",
                path,
                1,
            )
        sol[(i // inst.width, i % inst.width)] = cands[0]
        used.add(cands[0][0])
    return sol


def solution_from_json(inst: EdgeInstance, data: dict, path: str) -> Solution:
    """A board as JSON: rows of [piece, rot] or null."""
    board = data.get("board")
    if not isinstance(board, list):
        raise InputError('expected {"board": [[[piece, rot], ...], ...]}', path, 1)
    recs = []
    for r, row in enumerate(board):
        if not isinstance(row, list):
            raise InputError(f"board row {r} is not a list", path, 1)
        toks = []
        for item in row:
            if item is None:
                toks.append(".")
            elif isinstance(item, list) and len(item) == 2:
                toks.append(f"{item[0]}/{item[1]}")
            else:
                raise InputError(
                    f"board row {r}: expected [piece, rot], found {item!r}", path, 1
                )
        recs.append(Record(1, toks, path))
    return parse_solution(inst, recs, path)
