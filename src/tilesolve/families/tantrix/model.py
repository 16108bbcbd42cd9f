"""Tantrix instances and solutions: reading, writing, verification.

An instance is a multiset of tiles from the 56-tile set (repeats allowed), goal lines (a loop
or an open line of a colour, or of `any` colour) and a shape: `free`, `triangle N` (the tiles
must cover a triangle of side N, in any position and orientation), or `board` (a fixed set of
cells the tiles must lie on; cells may stay empty).

A solution maps each occupied cell (q, r) to (tile, rot), rot = clockwise 60-degree steps.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.family import Family
from ...core.report import Report
from ...core.result import Solution
from ...core.textfile import Record, parse_int, read_text, records
from . import catalogue as cat

Hex = hx.Hex
GOAL_KINDS = ("loop", "line")
GOAL_COLOURS = (*cat.COLOURS, "any")
SHAPES = ("free", "triangle", "board")


@dataclass(frozen=True)
class Goal:
    kind: str  # "loop" | "line"
    colour: str  # a colour name or "any"

    def __str__(self) -> str:
        return f"{self.kind} {self.colour}"


@dataclass
class TantrixInstance:
    tiles: list[int]  # tile numbers, repeats allowed, in file order
    goals: list[Goal] = field(default_factory=list)
    shape: str = "free"
    size: int | None = None  # side of the triangle
    board: list[Hex] = field(default_factory=list)  # the cells of a fixed board
    name: str = ""

    @property
    def n(self) -> int:
        return len(self.tiles)

    def counts(self) -> Counter:
        return Counter(self.tiles)

    def types(self) -> list[int]:
        """Distinct tile numbers, ascending."""
        return sorted(set(self.tiles))

    def edges(self, tile: int, rot: int) -> tuple[str, ...]:
        return cat.edges(tile, rot)

    def cells(self) -> list[Hex] | None:
        """The cells tiles must lie on when fixed in advance (board, triangle), else None."""
        if self.shape == "board":
            return list(self.board)
        if self.shape == "triangle":
            assert self.size is not None
            return triangle(self.size)
        return None

    def goal_colours(self) -> list[str]:
        return [g.colour for g in self.goals if g.colour != "any"]


def triangle(side: int) -> list[Hex]:
    """A triangle of hexes with rows of 1, 2, .., side cells, apex at the origin, pointing up."""
    return [(q, r) for r in range(side) for q in range(-r, 1)]


def shape_key(cells: Iterable[Hex]) -> tuple[Hex, ...]:
    """A key equal for cell sets that are the same up to translation and rotation."""
    cells = list(cells)
    return min(hx.normalise(hx.rotate_cell(c, k) for c in cells) for k in range(6))


# --------------------------------------------------------------------------- reading
def parse_tile_list(tokens: list[str], rec: Record) -> list[int]:
    """Tile numbers from tokens like `1-10`, `3`, `4,5`; ranges ascending, 1..56."""
    out = []
    for tok in (t for raw in tokens for t in raw.split(",") if t):
        if "-" in tok:
            lo_s, _, hi_s = tok.partition("-")
            lo = parse_int(lo_s, rec, f"a tile range A-B with A, B in 1..{cat.TILE_COUNT}")
            hi = parse_int(hi_s, rec, f"a tile range A-B with A, B in 1..{cat.TILE_COUNT}")
            if lo > hi:
                raise rec.error(f"tile range {tok!r} runs backwards; expected A-B with A <= B")
            nums = list(range(lo, hi + 1))
        else:
            nums = [parse_int(tok, rec, f"a tile number 1..{cat.TILE_COUNT} or a range A-B")]
        for t in nums:
            if not 1 <= t <= cat.TILE_COUNT:
                raise rec.error(f"unknown tile {t}; expected tile numbers 1..{cat.TILE_COUNT}")
        out += nums
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


def parse_instance(recs: list[Record], path: str) -> TantrixInstance:
    if not recs or recs[0].tokens[0].lower() != "tantrix" or len(recs[0].tokens) != 1:
        raise InputError("expected the header line 'tantrix'", path, recs[0].line if recs else None)
    inst = TantrixInstance(tiles=[], name=Path(path).stem)
    shape_rec = None
    for rec in recs[1:]:
        key = rec.tokens[0].lower()
        if key == "tiles":
            if len(rec.tokens) < 2:
                raise rec.error("expected 'tiles' followed by tile numbers or ranges like 1-10")
            inst.tiles += parse_tile_list(rec.tokens[1:], rec)
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
    return parse_instance(records(path, text if text is not None else read_text(path)), path)


def compress_tiles(tiles: list[int]) -> str:
    """`1 2 3 5` -> `1-3 5`; repeats are written as further runs."""
    out, rest = [], sorted(tiles)
    while rest:
        run, left = [], []
        for t in rest:
            if run and t == run[-1]:
                left.append(t)
            else:
                run.append(t)
        rest = left
        start = prev = run[0]
        for t in [*run[1:], None]:
            if t is not None and t == prev + 1:
                prev = t
                continue
            out.append(f"{start}-{prev}" if prev > start else str(start))
            if t is not None:
                start = prev = t
    return " ".join(out)


def format_instance(inst: TantrixInstance, comment: str = "") -> str:
    lines = [f"# {c}" if c else "#" for c in comment.splitlines()]
    lines += ["tantrix", f"tiles {compress_tiles(inst.tiles)}"]
    lines += [f"goal {g}" for g in inst.goals]
    if inst.shape == "triangle":
        lines.append(f"shape triangle {inst.size}")
    else:
        lines.append(f"shape {inst.shape}")
    lines += [f"cell {q} {r}" for q, r in inst.board]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- solutions
def _placement(rec: Record, vals: list[int], path: str) -> tuple[Hex, tuple[int, int]]:
    tile, q, r, rot = vals
    if not 1 <= tile <= cat.TILE_COUNT:
        raise rec.error(f"unknown tile {tile}; expected 1..{cat.TILE_COUNT}")
    if not 0 <= rot <= 5:
        raise rec.error(f"rotation {rot} out of range; expected 0..5")
    return (q, r), (tile, rot)


def parse_solution(recs: list[Record], path: str) -> Solution:
    if recs and recs[0].tokens[0].lower() == "tantrix":
        recs = recs[1:]
    sol: Solution = {}
    for rec in recs:
        cell, tr = _placement(rec, rec.ints(4, "integers TILE Q R ROT"), path)
        if cell in sol:
            raise rec.error(f"cell {cell} holds two tiles")
        sol[cell] = tr
    return sol


def solution_from_json(data: dict, path: str) -> Solution:
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
    return parse_solution(recs, path)


def format_solution(sol: Solution) -> str:
    rows = sorted(sol.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    return "".join(f"{t} {q} {r} {rot}\n" for (q, r), (t, rot) in rows)


def solution_json(sol: Solution) -> dict:
    rows = sorted(sol.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    return {"placements": [{"tile": t, "q": q, "r": r, "rot": rot}
                           for (q, r), (t, rot) in rows]}


# --------------------------------------------------------------------------- checking
def components(cells: Iterable[Hex]) -> list[set[Hex]]:
    """Groups of cells connected through shared edges, largest first."""
    left = set(cells)
    out = []
    while left:
        start = left.pop()
        comp, stack = {start}, [start]
        while stack:
            for nb in hx.neighbours(stack.pop()):
                if nb in left:
                    left.remove(nb)
                    comp.add(nb)
                    stack.append(nb)
        out.append(comp)
    return sorted(out, key=lambda c: (-len(c), min(c)))


def holes(cells: Iterable[Hex]) -> list[set[Hex]]:
    """Groups of empty cells enclosed by the given cells (not reachable from far away)."""
    filled = set(cells)
    if not filled:
        return []
    qs = [c[0] for c in filled]
    rs = [c[1] for c in filled]
    box = {(q, r) for q in range(min(qs) - 1, max(qs) + 2) for r in range(min(rs) - 1, max(rs) + 2)}
    empty = box - filled
    border = {c for c in empty if c[0] in (min(qs) - 1, max(qs) + 1)
              or c[1] in (min(rs) - 1, max(rs) + 1)}
    return [g for g in components(empty) if not g & border]


@dataclass
class ColourLines:
    """The lines one colour draws on a placed cluster: pieces, closed ones, open ends."""

    colour: str
    pieces: list[set[Hex]]  # cells of each connected line
    closed: list[bool]  # is the piece a closed loop
    ends: list[tuple[Hex, int]]  # (cell, edge) where a line ends open

    def check(self, kind: str) -> str | None:
        """None when the colour forms exactly one loop (kind 'loop') or one open line."""
        if not self.pieces:
            return f"no {self.colour} lines on the placed tiles; expected one {kind}"
        loops = sum(self.closed)
        lines = len(self.pieces) - loops
        if len(self.pieces) > 1:
            return (f"{self.colour} forms {len(self.pieces)} separate lines ({loops} closed, "
                    f"{lines} open); expected one {kind} through every {self.colour} arc")
        if kind == "loop" and not self.closed[0]:
            ends = ", ".join(f"{c} edge {hx.DIRECTION_NAMES[d]}" for c, d in self.ends)
            return f"{self.colour} forms an open line (ends at {ends}); expected a closed loop"
        if kind == "line" and self.closed[0]:
            return f"{self.colour} forms a closed loop; expected an open line"
        return None


def colour_lines(sol: Solution, colour: str) -> ColourLines:
    """Follow the lines of one colour across the placed tiles."""
    ends_of = {cell: cat.arc(t, rot, colour) for cell, (t, rot) in sol.items()}
    ends_of = {c: e for c, e in ends_of.items() if e is not None}
    open_ends = []
    links: dict[Hex, list[Hex]] = {c: [] for c in ends_of}
    for cell, pair in ends_of.items():
        for d in pair:
            nb = hx.neighbour(cell, d)
            if nb in ends_of and hx.opposite(d) in ends_of[nb]:
                links[cell].append(nb)
            else:
                open_ends.append((cell, d))
    pieces, closed = [], []
    open_cells = {c for c, _ in open_ends}
    for comp in components_in(links):
        pieces.append(comp)
        closed.append(not comp & open_cells)
    return ColourLines(colour, pieces, closed, sorted(open_ends))


def components_in(links: dict[Hex, list[Hex]]) -> list[set[Hex]]:
    """Connected components of an adjacency mapping."""
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(links)
    g.add_edges_from((a, b) for a, nbs in links.items() for b in nbs)
    return sorted((set(c) for c in nx.connected_components(g)), key=lambda c: (-len(c), min(c)))


def goal_colour_options(inst: TantrixInstance) -> list[tuple[str, ...]]:
    """Every way to give each goal a colour: fixed colours kept, `any` goals distinct others."""
    fixed = set(inst.goal_colours())
    free = [c for c in cat.COLOURS if c not in fixed]
    n_any = sum(g.colour == "any" for g in inst.goals)
    out = []
    for pick in itertools.permutations(free, n_any):
        it = iter(pick)
        out.append(tuple(g.colour if g.colour != "any" else next(it) for g in inst.goals))
    return out


def goal_problems(inst: TantrixInstance, sol: Solution) -> list[str]:
    """Messages for the goal lines; empty when some colour choice satisfies every goal."""
    if not inst.goals:
        return []
    lines = {c: colour_lines(sol, c) for c in cat.COLOURS}
    best: list[str] | None = None
    for choice in goal_colour_options(inst):
        msgs = [m for g, c in zip(inst.goals, choice, strict=True)
                if (m := lines[c].check(g.kind)) is not None]
        if not msgs:
            return []
        if best is None or len(msgs) < len(best):
            best = msgs
            if any(g.colour == "any" for g in inst.goals):
                best = [f"goal {g}: {m}" for g, m in zip(inst.goals, msgs, strict=False)]
    return best or []


# --------------------------------------------------------------------------- the score
# Downing (2005, sec. 3.4) scores the two unsolved 56-tile puzzles by "the sum of the number of
# arcs used in the longest segment or loop of each color": the Loop puzzle counts closed loops,
# the Curve puzzle open lines. With `--objective longest` the goals become that score: each
# goal colour adds the tiles of its longest piece of the goal's kind (a tile holds one arc of
# each of its colours), and the goals no longer have to run through every arc.
LONGEST = "longest"
OBJECTIVES = (LONGEST,)


def longest_piece(lines: ColourLines, kind: str) -> int:
    """Tiles in the longest closed loop (kind 'loop') or open line (kind 'line'), else 0."""
    want_closed = kind == "loop"
    return max((len(p) for p, closed in zip(lines.pieces, lines.closed, strict=True)
                if closed == want_closed), default=0)


def score(inst: TantrixInstance, sol: Solution) -> int:
    """Downing's score: per goal, the longest piece of its kind in its colour, summed; goals of
    colour `any` take the distinct colours that score most."""
    lines = {c: colour_lines(sol, c) for c in cat.COLOURS}
    return max((sum(longest_piece(lines[c], g.kind) for g, c in zip(inst.goals, choice,
                                                                     strict=True))
                for choice in goal_colour_options(inst)), default=0)


def max_score(inst: TantrixInstance) -> int:
    """Every arc of every goal colour on its longest piece: 4 x 42 = 168 for the full set."""
    return max((sum(sum(1 for t in inst.tiles if c in cat.colours(t)) for c in choice)
                for choice in goal_colour_options(inst)), default=0)


def verify(inst: TantrixInstance, sol: Solution, objective: str | None = None) -> Report:
    """Every violation: tile multiset, shape, golden rule, connection, holes, goal lines.

    With objective 'longest' the goal lines are scored (`score`) instead of required."""
    rep = Report()
    placed = Counter(t for t, _ in sol.values())
    want = inst.counts()
    for t in sorted(set(placed) | set(want)):
        if placed[t] < want[t]:
            rep.add("missing-tile", f"tile {t} is placed {placed[t]} time(s); expected {want[t]}")
        elif placed[t] > want[t]:
            where = sorted(c for c, (u, _) in sol.items() if u == t)
            rep.add("extra-tile", f"tile {t} is placed {placed[t]} time(s), at {where}; "
                    f"expected {want[t]}")
    for cell, (t, rot) in sorted(sol.items()):
        if not 0 <= rot <= 5 or t not in cat.TILES:
            rep.add("bad-placement", f"cell {cell}: tile {t} rotation {rot} does not exist")
    sol = {c: tr for c, tr in sol.items() if tr[0] in cat.TILES and 0 <= tr[1] <= 5}
    if inst.shape == "board":
        board = set(inst.board)
        for cell in sorted(set(sol) - board):
            rep.add("off-board", f"tile {sol[cell][0]} at {cell} lies off the board")
    elif inst.shape == "triangle" and inst.size is not None:
        if shape_key(sol) != shape_key(triangle(inst.size)):
            rep.add("shape", f"the tiles do not form a triangle of side {inst.size}")
    for cell, (t, rot) in sorted(sol.items()):
        mine = cat.edges(t, rot)
        for d in (0, 1, 2):  # each touching pair once
            nb = hx.neighbour(cell, d)
            if nb in sol:
                theirs = cat.edges(*sol[nb])[hx.opposite(d)]
                if mine[d] != theirs:
                    rep.add("mismatch", f"tile {t}/{rot} at {cell} shows {mine[d]} on its "
                            f"{hx.DIRECTION_NAMES[d]} edge, tile {sol[nb][0]}/{sol[nb][1]} at "
                            f"{nb} shows {theirs}")
    comps = components(sol)
    if len(comps) > 1:
        sizes = ", ".join(f"{len(c)} tile(s) around {min(c)}" for c in comps)
        rep.add("disconnected", f"the tiles form {len(comps)} separate groups: {sizes}")
    for h in holes(sol):
        rep.add("hole", f"{len(h)} empty cell(s) enclosed by tiles: {sorted(h)}")
    if objective == LONGEST:
        rep.score, rep.max_score = score(inst, sol), max_score(inst)
        return rep
    for m in goal_problems(inst, sol):
        rep.add("goal", m)
    return rep


def canonical(inst: TantrixInstance, sol: Solution) -> Hashable:
    """Free shapes and triangles: the same up to translation and rotation of the cluster."""
    if inst.shape == "board":
        return frozenset(sol.items())
    keys = []
    for k in range(6):
        turned = {hx.rotate_cell(c, k): (t, (rot + k) % 6) for c, (t, rot) in sol.items()}
        if not turned:
            return ()
        q0, r0 = min(turned, key=lambda c: (c[1], c[0]))
        keys.append(tuple(((q - q0, r - r0), turned[(q, r)])
                          for q, r in sorted(turned, key=lambda c: (c[1], c[0]))))
    return min(keys)


# --------------------------------------------------------------------------- the family
class TantrixFamily(Family):
    name = "tantrix"
    objectives = OBJECTIVES
    objective_counts = {LONGEST: "tiles on each goal's longest loop or line"}

    def legend(self, instance) -> str:
        return "tile/rot: tile number (1-56, as on its back) / clockwise sixth turns"

    def objective_backends(self, instance) -> tuple[str, ...]:
        """--objective longest without -b: the backends that score (MILP and SAT refuse)."""
        return ("search", "cpsat")

    def read_instance(self, path, fmt=None, text=None) -> TantrixInstance:
        return read_instance(path, fmt, text)

    def parse_solution_text(self, instance, recs, path) -> Solution:
        return parse_solution(recs, path)

    def solution_from_json(self, instance, data, path) -> Solution:
        return solution_from_json(data, path)

    def format_instance(self, instance, comment="") -> str:
        return format_instance(instance, comment)

    def format_solution(self, instance, solution) -> str:
        return format_solution(solution)

    def solution_json(self, instance, solution) -> dict:
        return solution_json(solution)

    def draw_text(self, instance, solution) -> str:
        return draw_text(solution)

    def verify(self, instance, solution, objective=None) -> Report:
        return verify(instance, solution, objective)

    def canonical(self, instance, solution) -> Hashable:
        return canonical(instance, solution)

    def info(self, instance) -> dict:
        out = {
            "family": self.name,
            "tiles": instance.n,
            "tile_types": len(instance.types()),
            "goals": [str(g) for g in instance.goals],
            "shape": instance.shape + (f" {instance.size}" if instance.size else ""),
        }
        if instance.shape == "board":
            out["board_cells"] = len(instance.board)
        return out


def draw_text(sol: Solution) -> str:
    """Rows of `tile/rot`, indented half a cell per row like the hex grid."""
    if not sol:
        return "(empty)\n"
    width = 6
    qs = [q + r / 2 for q, r in sol]
    x0 = min(qs)
    lines = []
    for row in hx.rows_of(sol):
        r = row[0][1]
        text = ""
        for q, _ in row:
            col = round((q + r / 2 - x0) * width)
            t, rot = sol[(q, r)]
            text = text.ljust(col) + f"{t}/{rot}".center(width)
        lines.append(text.rstrip())
    return "\n".join(lines) + "\n"


FAMILY = TantrixFamily()
