"""A CP-SAT model of one window of a free-shape Tantrix board, the rest of the board fixed.

The window is a set of cells: the cells whose tiles are taken out, and empty cells next to
the cluster (so the shape can change: a tile may move out to one of them and leave its cell
empty). The window's tiles go back on its cells, every other tile stays. The model states
every rule the checker (`check.verify`) checks, for the whole board:

- tiles: each window tile placed once on a window cell, at most one per cell;
- golden rule: a window placement shows each fixed neighbour its own colour (placements that
  do not are left out), and touching window cells show each other one colour;
- one cluster: a flow from the largest group of fixed tiles reaches every other group of
  fixed tiles (the window's removal may split them) and every filled window cell;
- no holes: with one cluster, Euler's count on the triangulated cluster (tiles - touching
  pairs + triangles of touching cells = 1) leaves no enclosed empty region;
- the score (Downing's): per goal colour the model picks one piece of that colour's lines
  through the window, as `cpsat_score` does on a fixed board, with each stretch of the line
  through fixed cells as a node pair weighted by its tiles (`add_circuit`); a loop goal's
  piece is closed, a line goal's has two open ends; the colour's term is the larger of the
  picked piece and the longest piece of the goal's kind that does not touch the window.

So every model solution is a valid board whose score is at least the model's objective, and
the current board is a solution (the hint), so the optimum never scores less than it.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

from ortools.sat.python import cp_model

from ...core import hexgrid as hx
from ...core.result import Solution
from . import catalogue as cat
from .check import components
from .instance import TantrixInstance

Hex = hx.Hex

# the objective's cost of an arc cut above an outline while a band steers into it
# (`cpsat_band`): 2, so a board one arc over must score two more than one inside to be
# preferred (the shape bound counts each such arc once: 2 pulls inside harder than the score
# alone would)
STEER = 2


@dataclass
class Stretch:
    """A stretch of one colour's line through fixed cells: its tiles and its two ends, each
    the window cell its arc faces, or None where it faces an empty cell outside the window."""

    tiles: int
    ends: tuple[Hex | None, Hex | None]


def stretches(fixed: Solution, window: set[Hex], k: str) -> tuple[list[Stretch], dict]:
    """The fixed cells' pieces of colour k: those that reach the window (as stretches) and,
    per kind ('loop', 'line'), the longest of those that do not."""
    ends_of = {c: cat.arc(t, rot, k) for c, (t, rot) in fixed.items()}
    ends_of = {c: e for c, e in ends_of.items() if e is not None}
    seen: set[Hex] = set()
    out, alone = [], {"loop": 0, "line": 0}
    for start in ends_of:
        if start in seen:
            continue
        piece, stack, ends = {start}, [start], []
        while stack:
            c = stack.pop()
            for d in ends_of[c]:
                nb = hx.neighbour(c, d)
                if nb in ends_of:
                    if nb not in piece:
                        piece.add(nb)
                        stack.append(nb)
                else:
                    ends.append((c, nb if nb in window else None))
        seen |= piece
        if not ends:
            alone["loop"] = max(alone["loop"], len(piece))
        elif all(w is None for _c, w in ends):
            alone["line"] = max(alone["line"], len(piece))
        else:
            (_fa, wa), (_fb, wb) = ends
            out.append(Stretch(len(piece), (wa, wb)))
    return out, alone


class WindowModel:
    """The window's CP-SAT model; `board(solver)` reads the whole board back."""

    def __init__(self, inst: TantrixInstance, board: Solution, taken: list[Hex],
                 empty: list[Hex], floor: int, cap: int | None = None,
                 walk: bool = True, outline: int | None = None, steer: int | None = None):
        """`steer`: the outline is no rule but a cost, `steer` points of the objective for
        each arc it cuts above `outline` (so a board outside it, the hint, is a solution)."""
        self.inst, self.m = inst, cp_model.CpModel()
        self.cells = list(taken) + list(empty)
        self.win = set(self.cells)
        self.fixed = {c: tr for c, tr in board.items() if c not in self.win}
        self.tiles = Counter(board[c][0] for c in taken)
        self._place()
        self._golden()
        links = self._connected_without_holes()
        self.full = [self._goal(g.colour, g.kind) for g in inst.goals]
        self.excess = 0  # arcs cut above the outline (with `steer`; else none may be)
        if outline is not None:
            self._outline(links, outline, steer)
        terms = self.full
        if cap is not None:  # each colour counts at most `cap` tiles (lns.py's --cap)
            terms = [self._at_most(t, cap) for t in terms]
        self.score = sum(terms) - (steer or 0) * self.excess
        self.m.add(self.score >= floor)
        self.changed = [1 - self.x[c].get(board[c], 0) if c in board else self.y[c]
                        for c in self.cells]
        self.m.maximize(self._objective(walk, cap))
        self.hint(board)

    def _objective(self, walk: bool, cap: int | None):
        """The score first; ties go, with `walk`, to the board that differs most from the
        current one, so a plateau of equal scores is walked instead of the hint returned (from
        Loop 91: 1 move in 15 steps without it); without `walk` (one solve of the whole board)
        and with a cap, to the higher full score."""
        if walk:
            return self.score * (len(self.cells) + 1) + sum(self.changed)
        if cap is None:
            return self.score
        return self.score * (len(self.full) * self.inst.n + 1) + sum(self.full)

    def hint(self, board: Solution) -> None:
        """A board as CP-SAT's hint (it replaces any earlier one)."""
        self.m.clear_hints()
        for c in self.cells:
            for (t, rot), v in self.x[c].items():
                self.m.add_hint(v, board.get(c) == (t, rot))

    def must_change(self, cells: int) -> None:
        """At least `cells` of the window's cells hold another tile, turn or no tile (an lns
        kick: the best board that is not the current one's near copy)."""
        self.m.add(sum(self.changed) >= cells)

    def _place(self) -> None:
        m, self.x, self.y = self.m, {}, {}
        by_tile: dict[int, list] = {t: [] for t in self.tiles}
        for c in self.cells:
            self.x[c] = {}
            for t, rot in itertools.product(self.tiles, range(6)):
                if self._fits_fixed(c, cat.edges(t, rot)):
                    v = self.x[c][t, rot] = m.new_bool_var(f"x{c}_{t}_{rot}")
                    by_tile[t].append(v)
            self.y[c] = m.new_bool_var(f"y{c}")
            m.add(sum(self.x[c].values()) == self.y[c])
        for t, vs in by_tile.items():
            m.add(sum(vs) == self.tiles[t])

    def _fits_fixed(self, c: Hex, edges: tuple[str, ...]) -> bool:
        """The golden rule against the fixed neighbours."""
        for d in range(6):
            nb = hx.neighbour(c, d)
            if nb in self.fixed and cat.edges(*self.fixed[nb])[hx.opposite(d)] != edges[d]:
                return False
        return True

    def shows(self, c: Hex, d: int, k: str):
        """A literal: the tile in window cell c shows colour k at edge d (0 when none can)."""
        key = (c, d, k)
        if key not in self._z:
            terms = [v for (t, rot), v in self.x[c].items() if cat.edges(t, rot)[d] == k]
            if not terms:
                self._z[key] = 0
            else:
                z = self._z[key] = self.m.new_bool_var(f"z{c}_{d}_{k}")
                self.m.add(sum(terms) == z)
        return self._z[key]

    def _golden(self) -> None:
        self._z: dict = {}
        for a in self.cells:
            for d in (0, 1, 2):
                b = hx.neighbour(a, d)
                if b not in self.win:
                    continue
                for k in cat.COLOURS:  # both filled: one colour at the shared edge
                    za, zb = self.shows(a, d, k), self.shows(b, hx.opposite(d), k)
                    self.m.add(za + self.y[b] - 1 <= zb)
                    self.m.add(zb + self.y[a] - 1 <= za)

    def both(self, a, b):
        """A literal equal to a and b (literals or the constant 1)."""
        if isinstance(a, int):
            return b if a else 0
        if isinstance(b, int):
            return a if b else 0
        v = self.m.new_bool_var("and")
        self.m.add_bool_and([a, b]).only_enforce_if(v)
        self.m.add_bool_or([a.Not(), b.Not(), v])
        return v

    def filled(self, c: Hex):
        return 1 if c in self.fixed else self.y[c] if c in self.win else 0

    def _connected_without_holes(self) -> None:
        m = self.m
        near = self.win | {nb for c in self.win for nb in hx.neighbours(c) if nb in self.fixed}
        pairs = [(a, b) for a in near for d in (0, 1, 2)
                 if (b := hx.neighbour(a, d)) in near and self.win & {a, b}]
        tris = [(a, hx.neighbour(a, d), hx.neighbour(a, d + 1)) for a in near for d in (1, 2)
                if {hx.neighbour(a, d), hx.neighbour(a, d + 1)} <= near
                and self.win & {a, hx.neighbour(a, d), hx.neighbour(a, d + 1)}]
        fixed_pairs = sum(1 for a in self.fixed for d in (0, 1, 2)
                          if hx.neighbour(a, d) in self.fixed)
        fixed_tris = sum(1 for a in self.fixed for d in (1, 2)
                         if {hx.neighbour(a, d), hx.neighbour(a, d + 1)} <= self.fixed.keys())
        links = {p: self.both(self.filled(p[0]), self.filled(p[1])) for p in pairs}
        corners = [self.both(self.both(self.filled(a), self.filled(b)), self.filled(c))
                   for a, b, c in tris]
        # Euler: tiles - touching pairs + triangles = parts - holes, and parts = 1 below
        m.add(self.inst.n - fixed_pairs - sum(links.values()) + fixed_tris + sum(corners) == 1)
        self._flow(links)
        return links

    def _outline(self, links: dict, most: int, steer: int | None) -> None:
        """The shape loses at most `most` arcs at its outline (`check.outline_loss`: a cell
        with b open edges loses ceil(b / 2)), or with `steer` the arcs over it are counted
        (`excess`), and the score is at most the arcs kept (`check.shape_bound`), a cut the
        model's own constraints imply only through search."""
        m, lost, kept = self.m, [], []
        for c in self.win | self.fixed.keys():
            both = []
            for nb in hx.neighbours(c):
                pair = (c, nb) if (c, nb) in links else (nb, c)
                # not a link: a fixed pair (1), or a neighbour no tile can take (0)
                both.append(links[pair] if pair in links
                            else int(c in self.fixed and nb in self.fixed))
            if c in self.fixed and all(isinstance(v, int) for v in both):
                lost.append((6 - sum(both) + 1) // 2)  # a fixed cell with fixed neighbours
                continue
            loss = m.new_int_var(0, 3, f"lost{c}")
            m.add(2 * loss >= 6 * self.filled(c) - sum(both))
            lost.append(loss)
            kept.append(3 * self.filled(c) - loss)
        if steer is None:
            m.add(sum(lost) <= most)
        else:
            self.excess = m.new_int_var(0, 3 * self.inst.n, "excess")
            m.add(self.excess >= sum(lost) - most)
        if len(self.inst.goals) >= 3:  # every kept arc may count: score <= arcs kept + ends
            ends = 2 * sum(g.kind == "line" for g in self.inst.goals)
            fixed_kept = sum(3 - v for v in lost if isinstance(v, int))
            m.add(sum(self.full) <= sum(kept) + fixed_kept + ends)

    def _flow(self, links: dict) -> None:
        """One unit from a root to every filled window cell and every group of fixed tiles."""
        m = self.m
        groups = components(self.fixed)
        node = {c: c for c in self.cells}
        for i, g in enumerate(groups):
            node.update({c: ("group", i) for c in g})
        need = {c: self.y[c] for c in self.cells} | {("group", i): 1 for i in range(1, len(groups))}
        if groups:
            root = {("group", 0): 1}
        else:
            root = {c: m.new_bool_var(f"root{c}") for c in self.cells}
            m.add(sum(root.values()) == 1)
            for c, r in root.items():
                m.add_implication(r, self.y[c])
        cap = len(need)
        joins: dict = {}  # node pair -> the links between them (a cell may touch a group twice)
        for (a, b), on in links.items():
            if node[a] != node[b] and not (isinstance(on, int) and not on):
                # a pair in one order whatever the hash seed: the model, and so a seeded
                # run, is the same in every process
                pair = tuple(sorted((node[a], node[b]), key=repr))
                joins.setdefault(pair, []).append(on)
        flow: dict = {}
        for (u, v), ons in joins.items():
            for key in ((u, v), (v, u)):
                flow[key] = m.new_int_var(0, cap, "flow")
                m.add(flow[key] <= cap * sum(ons))
        for n, want in need.items():
            into = sum(f for (u, v), f in flow.items() if v == n)
            out = sum(f for (u, v), f in flow.items() if u == n)
            # with no fixed tile the window holds them all: the root sends one to each other
            m.add(into - out == want - self.inst.n * root.get(n, 0))

    def _goal(self, k: str, kind: str):
        """The goal's term: the picked piece of colour k through the window, or the longest
        piece of its kind outside it."""
        picked, alone = PiecePick(self, k, kind == "line").weight()
        term = self.m.new_int_var(0, self.inst.n, f"score_{k}")
        self.m.add_max_equality(term, [picked, alone[kind]])
        return term

    def _at_most(self, term, cap: int):
        """min(term, cap) as the objective sees it (a maximised variable below both)."""
        low = self.m.new_int_var(0, cap, "capped")
        self.m.add(low <= term)
        return low

    def board(self, solver: cp_model.CpSolver) -> Solution:
        out = dict(self.fixed)
        for c in self.cells:
            for tr, v in self.x[c].items():
                if solver.boolean_value(v):
                    out[c] = tr
        return out


class PiecePick:
    """One piece of colour k's lines through the window, as a circuit: window cells, a node
    pair per fixed stretch (its tiles on the first), and a dummy node that closes a line
    through its two open ends (a loop goal has none)."""

    def __init__(self, w: WindowModel, k: str, line: bool):
        self.w, self.k, self.line = w, k, line
        self.arcs: list[tuple[int, int, object]] = []
        self.node = {c: i for i, c in enumerate(w.cells)}
        self.on = {c: w.m.new_bool_var(f"on{c}_{k}") for c in w.cells}
        self.size = len(self.node)
        self.dummy = self._new_node()
        self.open: dict[int, list] = {}  # node -> literals of its open ends when picked

    def _new_node(self) -> int:
        self.size += 1
        return self.size - 1

    def weight(self):
        w, m, k = self.w, self.w.m, self.k
        for c in w.cells:
            carriers = [v for (t, _r), v in w.x[c].items() if k in cat.colours(t)]
            m.add(sum(carriers) >= self.on[c])
            self.arcs.append((self.node[c], self.node[c], self.on[c].Not()))
        self._window_links()
        runs, alone = stretches(w.fixed, w.win, k)
        picked = [self._stretch(s) for s in runs]
        self._ends()
        m.add_circuit(self.arcs)
        total = sum(self.on.values()) + sum(s.tiles * v for s, v in zip(runs, picked, strict=True))
        return total, alone

    def _link(self, u: int, v: int, lits: list) -> list:
        """Two arcs between nodes u and v, each implying the literals."""
        fw, bw = self.w.m.new_bool_var("arc"), self.w.m.new_bool_var("arc")
        self.w.m.add(fw + bw <= 1)
        for arc in (fw, bw):
            for lit in lits:
                self.w.m.add_implication(arc, lit)
        self.arcs += [(u, v, fw), (v, u, bw)]
        return [fw, bw]

    def _window_links(self) -> None:
        w, m, k = self.w, self.w.m, self.k
        for a in w.cells:
            for d in range(6):
                za, b = w.shows(a, d, k), hx.neighbour(a, d)
                if isinstance(za, int):
                    continue
                if b in w.win and d < 3:
                    zb = w.shows(b, hx.opposite(d), k)
                    if isinstance(zb, int):
                        continue
                    fw, bw = self._link(self.node[a], self.node[b],
                                        [self.on[a], self.on[b], za, zb])
                    m.add_bool_or([self.on[a].Not(), za.Not(), w.y[b].Not(), fw, bw])
                    m.add_bool_or([self.on[b].Not(), zb.Not(), w.y[a].Not(), fw, bw])
                if b in w.win:
                    self._end(self.node[a], w.both(w.both(self.on[a], za), w.y[b].Not()))
                elif b not in w.fixed:
                    self._end(self.node[a], w.both(self.on[a], za))

    def _end(self, n: int, lit) -> None:
        self.open.setdefault(n, []).append(lit)

    def _stretch(self, s: Stretch):
        """The node pair of a fixed stretch; returns its 'picked' literal."""
        w, m = self.w, self.w.m
        on = m.new_bool_var(f"stretch_{self.k}")
        a, b = self._new_node(), self._new_node()
        self.arcs += [(a, a, on.Not()), (b, b, on.Not())]
        m.add(sum(self._link(a, b, [on])) == on)
        for n, cell in zip((a, b), s.ends, strict=True):
            if cell is None:
                self._end(n, on)
                continue
            # (a filled cell there shows the colour back, so its arc runs into the stretch)
            g = self._link(n, self.node[cell], [on, self.on[cell]])
            m.add(sum(g) >= w.both(on, w.y[cell]))
            m.add(sum(g) >= self.on[cell])
            self._end(n, w.both(on, w.y[cell].Not()))
        return on

    def _ends(self) -> None:
        """Open ends: a loop's picked cells have none; a line's meet the dummy node once each."""
        m = self.w.m
        any_on = m.new_bool_var(f"any_{self.k}")
        for n, lits in self.open.items():
            lits = [v for v in lits if not isinstance(v, int) or v]
            if not self.line:  # a loop's picked cells have no open end
                for v in lits:
                    m.add_bool_or([v.Not()])
                continue
            into, out = m.new_bool_var("in"), m.new_bool_var("out")
            m.add(into + out == sum(lits))
            self.arcs += [(self.dummy, n, into), (n, self.dummy, out)]
            m.add_implication(into, any_on)
        if self.line:
            for v in self.on.values():
                m.add_implication(v, any_on)
            self.arcs.append((self.dummy, self.dummy, any_on.Not()))
        else:
            self.arcs.append((self.dummy, self.dummy, 1))
