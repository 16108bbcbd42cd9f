"""Edge matching as a CP-SAT model.

Rules, as the model states them:
- every cell holds one (piece, rotation) from a table filtered by the cell's kind (corner,
  border, inner) so grey faces exactly the frame;
- neighbours share one colour variable per join, so matching is implied (satisfaction mode);
  in optimisation mode each side has its own colour and a literal rewards equal joins;
- every piece is used once (all-different);
- with no fixed piece, one corner piece is pinned to break the board's rotations.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from ...backends import cpsat as runner
from ...core import squaregrid as sq
from ...core.result import Outcome, Solution, SolveOptions
from .model import EdgeInstance


PARAMS = ("no_symmetry",)  # extra command-line options this backend accepts


class EdgeCpsat:
    def __init__(self, inst: EdgeInstance, objective: str | None = None, symmetry: bool = True):
        self.inst = inst
        self.objective = objective == "matches"
        m = self.model = cp_model.CpModel()
        w, h = inst.width, inst.height
        ncol = max(max(e) for e in inst.pieces) + 1
        self.piece: dict = {}
        self.rot: dict = {}
        self.side: dict = {}  # (cell, side) -> colour variable

        if not self.objective:
            # shared join colours: top edge of row r is hz[r][c], left edge of column c is vt[r][c]
            hz = [[m.new_int_var(0, ncol - 1, f"h{r}_{c}") for c in range(w)] for r in range(h + 1)]
            vt = [[m.new_int_var(0, ncol - 1, f"v{r}_{c}") for c in range(w + 1)] for r in range(h)]
            for r in range(h):
                for c in range(w):
                    self.side[(r, c), sq.N] = hz[r][c]
                    self.side[(r, c), sq.S] = hz[r + 1][c]
                    self.side[(r, c), sq.W] = vt[r][c]
                    self.side[(r, c), sq.E] = vt[r][c + 1]
        else:
            for cell in inst.cells():
                for s in sq.SIDES:
                    self.side[cell, s] = m.new_int_var(0, ncol - 1, f"c{cell}_{s}")

        for cell in inst.cells():
            p = self.piece[cell] = m.new_int_var(1, inst.n, f"p{cell}")
            r = self.rot[cell] = m.new_int_var(0, 3, f"r{cell}")
            rows = [(pc, rt, *inst.edges(pc, rt)) for pc, rt in inst.placements(cell)]
            sides = [self.side[cell, s] for s in sq.SIDES]
            m.add_allowed_assignments([p, r, *sides], rows)
        m.add_all_different(list(self.piece.values()))

        if self.objective:
            self.match = []
            for a, s, b in sq.joins(w, h):
                lit = m.new_bool_var(f"m{a}{s}")
                m.add(self.side[a, s] == self.side[b, sq.opposite(s)]).only_enforce_if(lit)
                self.match.append(lit)
            m.maximize(sum(self.match))

        if symmetry and not inst.fixed:
            self._break_symmetry()

    def _break_symmetry(self) -> None:
        """Pin the first corner piece: to the top-left corner on a square board (4 rotations),
        to a top corner on a rectangle (the 180-degree turn)."""
        inst = self.inst
        first = next(p for p in range(1, inst.n + 1) if inst.kind(p) == "corner")
        w, h = inst.width, inst.height
        if w == h:
            self.model.add(self.piece[(0, 0)] == first)
        else:
            tl = self.model.new_bool_var("first_tl")
            self.model.add(self.piece[(0, 0)] == first).only_enforce_if(tl)
            self.model.add(self.piece[(0, w - 1)] == first).only_enforce_if(~tl)

    def decode(self, value) -> Solution:
        return {cell: (value(self.piece[cell]), value(self.rot[cell])) for cell in self.piece}

    def hint(self, solution: Solution) -> None:
        self.model.clear_hints()
        values: dict[int, tuple] = {}  # shared join variables would otherwise be hinted twice
        for cell, (p, r) in solution.items():
            if cell in self.piece:
                values[self.piece[cell].index] = (self.piece[cell], p)
                values[self.rot[cell].index] = (self.rot[cell], r)
                for s, col in enumerate(self.inst.edges(p, r)):
                    var = self.side[cell, s]
                    values.setdefault(var.index, (var, col))
        for var, val in values.values():
            self.model.add_hint(var, val)

    def fix(self, partial: Solution) -> None:
        for cell, (p, r) in partial.items():
            self.model.add(self.piece[cell] == p)
            self.model.add(self.rot[cell] == r)


def build(inst: EdgeInstance, opts: SolveOptions) -> EdgeCpsat:
    return EdgeCpsat(inst, opts.objective, symmetry=not opts.params.get("no_symmetry", False))


def solve(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    return runner.run(build(inst, opts), opts)


def count(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    # every solution, so no symmetry breaking
    compiled = EdgeCpsat(inst, None, symmetry=False)
    return runner.enumerate_all(compiled, opts)
