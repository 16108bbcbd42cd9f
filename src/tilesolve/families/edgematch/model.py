"""Edge-matching instances and solutions: reading, writing, verification.

Pieces are numbered from 1 (line k of the piece list is piece k). A solution maps each cell
(row, col) to (piece, rot), rot = clockwise quarter turns; row 0 is the top row. Colour 0 is
the grey frame colour.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ...core import squaregrid as sq
from ...core.errors import InputError
from ...core.family import Family
from ...core.options import Option, Options
from ...core.report import Report
from ...core.result import Solution
from ...core.textfile import Record, read_text, records, strict_int

Edges = tuple[int, int, int, int]
Cell = tuple[int, int]
FORMATS = ("native", "bare", "heule", "url")
SMALL_BOARD = 64  # cells: up to 8x8 the matches portfolio races CP-SAT (it proves optima)


@dataclass
class EdgeInstance:
    width: int
    height: int
    pieces: list[Edges]  # pieces[p - 1] = (N, E, S, W) of piece p
    fixed: dict[Cell, tuple[int, int]] = field(default_factory=dict)  # cell -> (piece, rot)
    name: str = ""

    @property
    def n(self) -> int:
        return len(self.pieces)

    def edges(self, piece: int, rot: int = 0) -> Edges:
        return sq.rotate_edges(self.pieces[piece - 1], rot)  # type: ignore[return-value]

    def kind(self, piece: int) -> str:
        greys = sum(1 for c in self.pieces[piece - 1] if c == 0)
        return "corner" if greys >= 2 else "border" if greys == 1 else "inner"

    def cells(self) -> list[Cell]:
        return list(sq.cells(self.width, self.height))

    def frame_colours(self) -> set[int]:
        """Colours on the joins between frame pieces (the non-grey edges along the rim)."""
        out = set()
        for e in self.pieces:
            if 0 in e:
                for s in range(4):
                    if e[s] == 0:
                        # the two sides next to a grey side run along the frame
                        for t in ((s + 1) % 4, (s + 3) % 4):
                            if e[t] != 0:
                                out.add(e[t])
        return out

    def colours(self) -> set[int]:
        return {c for e in self.pieces for c in e if c != 0}

    def inner_colours(self) -> set[int]:
        return self.colours() - self.frame_colours()

    def fits(self, cell: Cell, piece: int, rot: int) -> bool:
        """Does the piece, so turned, show grey exactly on this cell's frame sides?"""
        frame = sq.frame_sides(cell, self.width, self.height)
        e = self.edges(piece, rot)
        return all((e[s] == 0) == (s in frame) for s in range(4))

    def placements(self, cell: Cell) -> list[tuple[int, int]]:
        """(piece, rot) pairs allowed at a cell by the frame rule and the fixed pieces."""
        if cell in self.fixed:
            return [self.fixed[cell]]
        fixed_pieces = {p for p, _ in self.fixed.values()}
        out = []
        for p in range(1, self.n + 1):
            if p in fixed_pieces:
                continue
            seen = set()
            for r in range(4):
                e = self.edges(p, r)
                if e not in seen and self.fits(cell, p, r):
                    seen.add(e)  # rotationally symmetric pieces: one row per distinct look
                    out.append((p, r))
        return out

    def search_space_log10(self) -> float:
        """log10 of the placements left after the frame rule (a crude size estimate)."""
        kinds = Counter(self.kind(p) for p in range(1, self.n + 1))
        total = 0.0
        for k, m in kinds.items():
            total += math.lgamma(m + 1) / math.log(10)
            if k == "inner":
                total += m * math.log10(4)
        return total


# --------------------------------------------------------------------------- reading
def _check_counts(inst: EdgeInstance, path: str) -> None:
    """The board's size; whether the pieces fit its frame is the precheck's (infeasible, not
    bad input)."""
    w, h = inst.width, inst.height
    if w < 2 or h < 2:
        raise InputError(f"board {w}x{h} too small; expected at least 2x2", path)


def _read_pieces(recs: list[Record], count: int, path: str, header: Record) -> list[Edges]:
    pieces = []
    for rec in recs:
        vals = rec.ints(4, "colours N E S W (non-negative integers)")
        if any(v < 0 for v in vals):
            raise rec.error("colours must be non-negative integers")
        pieces.append(tuple(vals))
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
    pieces = []
    for rec in piece_recs:
        vals = rec.ints(4, "colours N E S W")
        pieces.append(tuple(vals))
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


def board_url(inst: EdgeInstance, solution: Solution, name: str = "tilesolve") -> str:
    """The e2.bucas.name URL showing a board (empty cells as 'aaaa')."""
    out = []
    for cell in inst.cells():
        if cell in solution:
            p, r = solution[cell]
            out.append("".join(chr(ord("a") + c) for c in inst.edges(p, r)))
        else:
            out.append("aaaa")
    return (
        f"https://e2.bucas.name/#puzzle={name}&board_w={inst.width}&board_h={inst.height}"
        f"&board_edges={''.join(out)}"
    )


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
    from .official import apply_rules  # the official set's start piece

    apply_rules(inst)
    for cell, (p, r) in inst.fixed.items():
        if not inst.fits(cell, p, r):
            raise InputError(
                f"fixed piece {p}/{r} at {cell} does not fit the frame (grey must face out)", path
            )
    return inst


def format_instance(inst: EdgeInstance, comment: str = "") -> str:
    lines = [f"# {c}" for c in comment.splitlines()] if comment else []
    lines.append(f"edgematch {inst.width} {inst.height}")
    lines += [" ".join(map(str, e)) for e in inst.pieces]
    for (r, c), (p, rot) in sorted(inst.fixed.items()):
        lines.append(f"fixed {r} {c} {p} {rot}")
    return "\n".join(lines) + "\n"


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


def parse_board(inst: EdgeInstance, recs: list[Record], path: str) -> Solution:
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


# --------------------------------------------------------------------------- checking
def score(inst: EdgeInstance, sol: Solution) -> int:
    """Matched inner joins: both sides present, equal and not grey."""
    total = 0
    for a, side, b in sq.joins(inst.width, inst.height):
        if a in sol and b in sol:
            ca = inst.edges(*sol[a])[side]
            cb = inst.edges(*sol[b])[sq.opposite(side)]
            total += ca == cb and ca != 0
    return total


def verify(inst: EdgeInstance, sol: Solution, objective: str | None = None) -> Report:
    """Every violation: missing/doubled/unknown pieces, empty cells, moved hints, frame, joins.

    With objective 'matches' mismatched joins lower the score instead of invalidating.
    """
    rep = Report()
    w, h = inst.width, inst.height
    extra = sorted(c for c in sol if not sq.inside(c, w, h))
    for c in extra:
        rep.add("outside", f"cell {c} lies outside the {w}x{h} board")
    for cell in inst.cells():
        if cell not in sol:
            rep.add("empty-cell", f"cell {cell} is empty")
    uses = Counter(p for c, (p, _r) in sol.items() if sq.inside(c, w, h))
    for p in range(1, inst.n + 1):
        if uses[p] == 0:
            rep.add("missing-piece", f"piece {p} is not on the board")
        elif uses[p] > 1:
            where = sorted(c for c, (q, _r) in sol.items() if q == p)
            rep.add("doubled-piece", f"piece {p} is placed {uses[p]} times, at {where}")
    for p in sorted(set(uses) - set(range(1, inst.n + 1))):
        rep.add("unknown-piece", f"piece {p} does not exist (1..{inst.n})")
    for cell, (p, r) in sorted(inst.fixed.items()):
        if sol.get(cell) != (p, r):
            got = sol.get(cell)
            shown = f"{got[0]}/{got[1]}" if got else "nothing"
            rep.add("moved-hint", f"fixed piece {p}/{r} must be at {cell}, found {shown}")
    valid = {c: pr for c, pr in sol.items() if sq.inside(c, w, h) and 1 <= pr[0] <= inst.n}
    for cell, (p, r) in sorted(valid.items()):
        e = inst.edges(p, r)
        frame = sq.frame_sides(cell, w, h)
        for s in range(4):
            if s in frame and e[s] != 0:
                rep.add(
                    "frame",
                    f"piece {p}/{r} at {cell} shows colour {e[s]} to the frame "
                    f"on its {sq.SIDE_NAMES[s]} side; expected grey 0",
                )
            if s not in frame and e[s] == 0:
                rep.add(
                    "frame",
                    f"piece {p}/{r} at {cell} shows grey inside the board on its "
                    f"{sq.SIDE_NAMES[s]} side",
                )
    mismatches = []
    for a, side, b in sq.joins(w, h):
        if a in valid and b in valid:
            ca = inst.edges(*valid[a])[side]
            cb = inst.edges(*valid[b])[sq.opposite(side)]
            if ca != cb:
                mismatches.append(
                    f"join {a} {sq.SIDE_NAMES[side]} / {b} {sq.SIDE_NAMES[sq.opposite(side)]}: "
                    f"colour {ca} against {cb}"
                )
    if objective == "matches":
        rep.score = score(inst, valid)
        rep.max_score = sq.join_count(w, h)
    else:
        for m in mismatches:
            rep.add("mismatch", m)
    return rep


# --------------------------------------------------------------------------- the family
class EdgeMatchFamily(Family):
    name = "edgematch"
    objectives = ("matches",)
    options = Options(Option("clues", bool, False, "official Eternity II set: fix the four clue "
                             "pieces as well as the start piece"))
    objective_counts = {"matches": "matched joins"}

    def legend(self, instance) -> str:
        return "piece/rot: piece number (file order, from 1) / clockwise quarter turns"
    def objective_backends(self, instance) -> tuple[str, ...]:
        """Most matched joins: on small boards CP-SAT proves the optimum within seconds (4x4 to
        6x6), beside the LNS; on large ones it gives no board at all in a minute (16x16), so
        the cores go to the LNS and the memetic GA."""
        if instance.width * instance.height <= SMALL_BOARD:
            return ("cpsat", "lns")
        return ("lns", "memetic")

    def prepare(self, instance, params) -> EdgeInstance:
        """`--clues`: on the official set, the four clue pieces are fixed as well."""
        if self.options.value(params, "clues"):
            from .official import apply_rules, is_official

            if not is_official(instance):
                raise InputError("--clues applies to the official Eternity II piece set only")
            apply_rules(instance, clues=True)
        return instance

    def sniff(self, recs, text) -> bool:
        return detect_format(recs, text) is not None

    def read_instance(self, path, fmt=None, text=None) -> EdgeInstance:
        return read_instance(path, fmt, text)

    def parse_solution_text(self, instance, recs, path) -> Solution:
        return parse_board(instance, recs, path)

    def read_solution(self, instance, path, fmt=None) -> Solution:
        text = str(path)
        if looks_like_url(text) and not Path(text).exists():
            return solution_from_cells(instance, url_board(text, "<url>")[2], "<url>")
        text = read_text(path)
        if looks_like_url(text):
            w, h, cells = url_board(text, str(path))
            if (w, h) != (instance.width, instance.height):
                raise InputError(
                    f"board is {w}x{h}; expected {instance.width}x{instance.height}", path, 1
                )
            return solution_from_cells(instance, cells, str(path))
        return super().read_solution(instance, path, fmt)

    def solution_from_json(self, instance, data, path) -> Solution:
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
        return parse_board(instance, recs, path)

    def format_instance(self, instance, comment="") -> str:
        return format_instance(instance, comment)

    def format_solution(self, instance, solution) -> str:
        width = len(str(instance.n)) + 2
        lines = []
        for r in range(instance.height):
            toks = []
            for c in range(instance.width):
                pr = solution.get((r, c))
                toks.append((f"{pr[0]}/{pr[1]}" if pr else ".").rjust(width))
            lines.append(" ".join(toks))
        return "\n".join(lines) + "\n"

    def solution_json(self, instance, solution) -> dict:
        return {
            "board": [
                [
                    list(solution[(r, c)]) if (r, c) in solution else None
                    for c in range(instance.width)
                ]
                for r in range(instance.height)
            ]
        }

    def verify(self, instance, solution, objective=None) -> Report:
        return verify(instance, solution, objective)

    def info(self, instance) -> dict:
        kinds = Counter(instance.kind(p) for p in range(1, instance.n + 1))
        return {
            "family": self.name,
            "size": f"{instance.width}x{instance.height}",
            "pieces": instance.n,
            "corner_pieces": kinds["corner"],
            "border_pieces": kinds["border"],
            "inner_pieces": kinds["inner"],
            "frame_colours": len(instance.frame_colours()),
            "inner_colours": len(instance.inner_colours()),
            "fixed_pieces": len(instance.fixed),
            "joins": sq.join_count(instance.width, instance.height),
            "search_space": f"10^{instance.search_space_log10():.1f}",
        }


FAMILY = EdgeMatchFamily()
