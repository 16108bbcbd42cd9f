"""Free-shape Tantrix with line goals as a CP-SAT walk model (used by the cpsat backend).

The cell model (cpsat.py) leaves every cell of a hexagon open, which is weak when a goal is an
open line: any local clash can be dodged by leaving a cell empty, and the line's two ends may be
anywhere. This model states the puzzle the way the line walk searches it. The goal colour F
carried by the most tiles is walked: step i holds a tile carrying F, entered through side s_i
and left through side x_i, at axial cell (q_i, r_i); step 0 sits at the origin entered through
side 3 (SW), which removes translations and rotations, and every next step lies beside the
previous one across its exit side. Tiles without F are extra steps, free in position and
rotation. The rules:
- a table ties each step's tile, entry side, exit side and six edge colours (its rotation);
- tiles used as often as listed; all steps on distinct cells;
- F a line: the cells beyond both ends stay empty; F a loop: the last exit returns to step 0;
- for each pair of steps, six literals say "j lies beside i across side d"; the golden rule
  holds across each; no holes: touching pairs minus touching triples is n - 1 (Euler), the
  extras joining the cluster (a rank order makes it connected);
- every other goal colour is an `add_circuit` over the steps that carry it, an arc for each
  touching pair showing it (a line closes through a dummy node);
- redundant: step i lies within i of the origin and within j - i of step j; the goal links
  need distinct touching pairs; a line F is walked from the end with the lower tile number.
"""

from __future__ import annotations

import itertools

from ortools.sat.python import cp_model

from ...backends.compiled import Unsupported
from ...backends.cpsat import CpsatModel
from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.result import Solution
from . import catalogue as cat
from .check import colour_lines
from .instance import TantrixInstance
from .linewalk import followed_goal

COLOUR = {c: i for i, c in enumerate(cat.COLOURS)}
DQ = [d[0] for d in hx.DIRECTIONS]
DR = [d[1] for d in hx.DIRECTIONS]


def applies(inst: TantrixInstance, lines_only: bool = True) -> bool:
    """The walk model takes free shapes with goals of fixed, distinct colours; it is the
    default where a goal is a line (`lines_only`)."""
    if inst.shape != "free" or (lines_only and not any(g.kind == "line" for g in inst.goals)):
        return False
    try:
        followed_goal(inst)
    except InputError:
        return False
    return True


class TantrixWalkCpsat(CpsatModel):
    def __init__(self, inst: TantrixInstance):
        self.inst = inst
        fi = followed_goal(inst)
        self.f = f = inst.goals[fi]
        others = [g for gi, g in enumerate(inst.goals) if gi != fi]
        counts = inst.counts()
        self.walkers = walkers = [t for t in inst.types() if f.colour in cat.colours(t)]
        self.extras = extras = [t for t in inst.types() for _ in range(counts[t])
                                if f.colour not in cat.colours(t)]
        self.nw = nw = sum(counts[t] for t in walkers)
        self.n = n = inst.n
        bound = n + 1
        m = self.model = cp_model.CpModel()
        self.q = q = [m.new_int_var(-bound, bound, f"q{i}") for i in range(n)]
        self.r = r = [m.new_int_var(-bound, bound, f"r{i}") for i in range(n)]
        self.col = col = [[m.new_int_var(0, 3, f"c{i}_{d}") for d in range(6)] for i in range(n)]
        self.tile = tile = [m.new_int_var(1, cat.TILE_COUNT, f"t{i}") for i in range(n)]
        self.entry = [m.new_int_var(0, 5, f"s{i}") for i in range(nw)]
        self.exit = [m.new_int_var(0, 5, f"x{i}") for i in range(nw)]
        m.add(q[0] == 0)
        m.add(r[0] == 0)
        m.add(self.entry[0] == 3)
        self._walk()
        for j, t in enumerate(extras):
            i = nw + j
            m.add(tile[i] == t)
            m.add_allowed_assignments(col[i], sorted({self._colours(t, rot) for rot in range(6)}))
        self._distinct_cells()
        self._line_ends()
        self.adj, self.touch = self._pairs()
        self._no_holes(others)
        for g in others:
            self._route(g)

    @staticmethod
    def _colours(t: int, rot: int) -> tuple[int, ...]:
        return tuple(COLOUR[c] for c in cat.edges(t, rot))

    # ------------------------------------------------------------------ the walk
    def _walk(self) -> None:
        m, f, nw = self.model, self.f, self.nw
        q, r, s, x = self.q, self.r, self.entry, self.exit
        rows = []
        for t in self.walkers:
            ends = cat.arc(t, 0, f.colour)
            for e in range(2):
                for side in range(6):
                    rot = (side - ends[e]) % 6
                    rows.append((t, side, (ends[1 - e] + rot) % 6, *self._colours(t, rot)))
        self.is_tile = {}
        for i in range(nw):
            m.add_allowed_assignments([self.tile[i], s[i], x[i], *self.col[i]], rows)
            for t in self.walkers:
                b = self.is_tile[i, t] = m.new_bool_var(f"is{i}_{t}")
                m.add(self.tile[i] == t).only_enforce_if(b)
                m.add(self.tile[i] != t).only_enforce_if(b.Not())
            m.add_exactly_one(self.is_tile[i, t] for t in self.walkers)
            # within i steps of the origin (hex distance)
            for v in (q[i], r[i], q[i] + r[i]):
                m.add(v <= i)
                m.add(v >= -i)
            if i + 1 < nw:
                m.add_element(x[i], [3, 4, 5, 0, 1, 2], s[i + 1])
                dq, dr = self._step(x[i], f"{i}")
                m.add(q[i + 1] == q[i] + dq)
                m.add(r[i + 1] == r[i] + dr)
        counts = self.inst.counts()
        for t in self.walkers:
            m.add(sum(self.is_tile[i, t] for i in range(nw)) == counts[t])
        for i, j in itertools.combinations(range(nw), 2):  # within j - i of each other
            for v in (q[j] - q[i], r[j] - r[i], q[j] + r[j] - q[i] - r[i]):
                m.add(v <= j - i)
                m.add(v >= i - j)
        if f.kind == "line":  # both ends of a line start a walk: keep the lower tile first
            m.add(self.tile[0] <= self.tile[nw - 1])

    def _step(self, side, name: str):
        m = self.model
        dq, dr = m.new_int_var(-1, 1, f"dq{name}"), m.new_int_var(-1, 1, f"dr{name}")
        m.add_element(side, DQ, dq)
        m.add_element(side, DR, dr)
        return dq, dr

    def _cell_id(self, q, r):
        return q * (4 * self.n + 7) + r

    def _distinct_cells(self) -> None:
        m = self.model
        span = (2 * self.n + 4) * (4 * self.n + 7)
        self.cell = [m.new_int_var(-span, span, f"id{i}") for i in range(self.n)]
        for i in range(self.n):
            m.add(self.cell[i] == self._cell_id(self.q[i], self.r[i]))
        m.add_all_different(self.cell)

    def _line_ends(self) -> None:
        m, last = self.model, self.nw - 1
        dq, dr = self._step(self.exit[last], "end")
        beyond = self._cell_id(self.q[last] + dq, self.r[last] + dr)
        if self.f.kind == "loop":
            m.add(beyond == self._cell_id(0, 0))
            return
        before = self._cell_id(DQ[3], DR[3])  # beside step 0, past its free end
        for i in range(self.n):
            m.add(self.cell[i] != beyond)
            m.add(self.cell[i] != before)

    # ------------------------------------------------------------------ touching steps
    def _pairs(self):
        m, n, q, r, col = self.model, self.n, self.q, self.r, self.col
        span = 2 * self.n + 2
        adj, touch = {}, {}
        for i, j in itertools.combinations(range(n), 2):
            eq = {}
            for name, a, b in (("q", q[i], q[j]), ("r", r[i], r[j])):
                delta = m.new_int_var(-span, span, f"d{name}{i}_{j}")
                m.add(delta == b - a)
                for v in (-1, 0, 1):
                    lit = eq[name, v] = m.new_bool_var(f"e{name}{i}_{j}_{v}")
                    m.add(delta == v).only_enforce_if(lit)
                    m.add(delta != v).only_enforce_if(lit.Not())
            sides = []
            for d in range(6):
                a = m.new_bool_var(f"adj{i}_{j}_{d}")  # j lies beside i across i's side d
                both = [eq["q", DQ[d]], eq["r", DR[d]]]
                m.add_bool_and(both).only_enforce_if(a)
                m.add_bool_or([b.Not() for b in both] + [a])
                m.add(col[i][d] == col[j][hx.opposite(d)]).only_enforce_if(a)  # golden rule
                sides.append(a)
            adj[i, j] = sides
            t = touch[i, j] = touch[j, i] = m.new_bool_var(f"touch{i}_{j}")
            m.add(sum(sides) == t)
        return adj, touch

    def _no_holes(self, others) -> None:
        m, n, nw, touch = self.model, self.n, self.nw, self.touch
        pairs = [touch[i, j] for i, j in itertools.combinations(range(n), 2)]
        tris = []
        for i, j, k in itertools.combinations(range(n), 3):
            sides = [touch[i, j], touch[j, k], touch[i, k]]
            tri = m.new_bool_var(f"tri{i}_{j}_{k}")
            m.add_bool_and(sides).only_enforce_if(tri)
            m.add_bool_or([s.Not() for s in sides] + [tri])
            tris.append(tri)
        m.add(sum(pairs) - sum(tris) == n - 1)
        # goal links are distinct touching pairs
        counts = self.inst.counts()
        need = 0
        for g in [self.f, *others]:
            carriers = sum(counts[t] for t in self.inst.types() if g.colour in cat.colours(t))
            need += carriers - (g.kind == "line")
        m.add(sum(pairs) >= need)
        # extras join the walk, each through a walk tile or an extra of lower rank
        extras = range(nw, n)
        rank = {j: m.new_int_var(1, max(1, n - nw), f"rank{j}") for j in extras}
        for j in extras:
            via = [touch[i, j] for i in range(nw)]
            for k in extras:
                if k != j:
                    u = m.new_bool_var(f"via{k}_{j}")
                    m.add_implication(u, touch[k, j])
                    m.add(rank[k] < rank[j]).only_enforce_if(u)
                    via.append(u)
            m.add_bool_or(via)

    def _route(self, g) -> None:
        """One circuit for goal colour k over the steps that carry it."""
        m, n, nw = self.model, self.n, self.nw
        k = COLOUR[g.colour]
        arcs = []
        carries = []
        for i in range(n):
            if i < nw:
                lits = [self.is_tile[i, t] for t in self.walkers if g.colour in cat.colours(t)]
                c = m.new_bool_var(f"on{i}_{g.colour}")
                m.add(sum(lits) == c)
            else:
                c = m.new_constant(int(g.colour in cat.colours(self.extras[i - nw])))
            carries.append(c)
            arcs.append((i, i, c.Not()))
        for i, j in itertools.combinations(range(n), 2):
            links = []
            for d, a in enumerate(self.adj[i, j]):
                shows = m.new_bool_var(f"k{i}_{d}_{k}")
                m.add(self.col[i][d] == k).only_enforce_if(shows)
                m.add(self.col[i][d] != k).only_enforce_if(shows.Not())
                link = m.new_bool_var(f"l{i}_{j}_{d}_{k}")
                m.add_bool_and([a, shows]).only_enforce_if(link)
                m.add_bool_or([a.Not(), shows.Not(), link])
                links.append(link)
            fw, bw = m.new_bool_var(f"a{i}_{j}_{k}"), m.new_bool_var(f"a{j}_{i}_{k}")
            m.add(fw + bw == sum(links))
            arcs += [(i, j, fw), (j, i, bw)]
        dummy = n
        if g.kind == "line":
            for i in range(n):
                into, out = m.new_bool_var(f"in{i}_{k}"), m.new_bool_var(f"out{i}_{k}")
                m.add_implication(into, carries[i])
                m.add_implication(out, carries[i])
                arcs += [(dummy, i, into), (i, dummy, out)]
            arcs.append((dummy, dummy, m.new_constant(0)))
        else:
            arcs.append((dummy, dummy, m.new_constant(1)))
        m.add_circuit(arcs)

    # ------------------------------------------------------------------ the runner seam
    def decode(self, value) -> Solution:
        sol = {}
        for i in range(self.n):
            t = int(value(self.tile[i]))
            shown = tuple(int(value(c)) for c in self.col[i])
            rot = next(k for k in range(6) if self._colours(t, k) == shown)
            sol[int(value(self.q[i])), int(value(self.r[i]))] = (t, rot)
        return sol

    def suggest(self, solution: Solution) -> None:
        """Hint the walk of a full solution whose goal colour F forms one line or loop:
        turned and shifted so the walk starts as this model starts it. Anything else (a
        partial or broken cluster) gives no hint."""
        self.model.clear_hints()
        walk = self._walk_of(solution)
        if walk is None:
            return
        for i, (cell, t, entry) in enumerate(walk):
            for var, val in ((self.q[i], cell[0]), (self.r[i], cell[1]), (self.tile[i], t),
                             (self.entry[i], entry)):
                self.model.add_hint(var, val)

    def _walk_of(self, solution: Solution):
        lines = colour_lines(solution, self.f.colour)
        if len(lines.pieces) != 1 or len(lines.pieces[0]) != self.nw:
            return None
        # a line starts at the end with the lower tile number (as the model requires)
        start = min(lines.ends, key=lambda e: solution[e[0]][0], default=None)
        if start is None:  # a loop: start anywhere, leave through either end
            cell = min(lines.pieces[0])
            t, rot = solution[cell]
            start = (cell, cat.arc(t, rot, self.f.colour)[0])
        cell, free = start
        turn = (3 - free) % 6  # turn the cluster so the free end faces side 3
        walk = []
        seen = set()
        while cell in solution and cell not in seen and len(walk) < self.nw:
            seen.add(cell)
            t, rot = solution[cell]
            a, b = cat.arc(t, rot, self.f.colour)
            out = b if a == free else a
            walk.append((cell, t, (free + turn) % 6))
            free = hx.opposite(out)
            cell = hx.neighbour(cell, out)
        if len(walk) != self.nw:
            return None
        c0 = hx.rotate_cell(walk[0][0], turn)
        return [((hx.rotate_cell(c, turn)[0] - c0[0], hx.rotate_cell(c, turn)[1] - c0[1]), t, e)
                for c, t, e in walk]

    def impose(self, partial: Solution) -> None:
        raise Unsupported(self, "imposing a partial assignment", "the walk model has no fixed "
                          "frame; use the cell model of CP-SAT (--model cells)")
