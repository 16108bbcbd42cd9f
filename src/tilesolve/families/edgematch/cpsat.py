"""Edge matching as a CP-SAT model.

Rules, as the model states them:
- every cell holds one (piece, rotation) from a table filtered by the cell's kind (corner,
  border, inner) so grey faces exactly the frame;
- neighbours share one colour variable per join, so matching is implied (satisfaction mode);
  in optimisation mode each side has its own colour and a literal rewards equal joins;
- every piece is used once (all-different);
- with no fixed piece, one corner piece is pinned to break the board's rotations.

Two additions, both options: `--order rowscan` makes CP-SAT branch on the cells in the
search backend's order (row by row, piece then rotation) with its fixed search, and
`--presearch S` first runs the rowscan search for S seconds and hands its board to CP-SAT
as a hint (on Brendan's hardest 7x7 CP-SAT alone finds nothing in 600 s, either way); unset,
it is on for boards from 7x7 (presearch.py).
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from ...backends import cpsat as runner
from ...core import squaregrid as sq
from ...core.errors import InputError
from ...core.limits import building
from ...core.options import NO_SYMMETRY, Option, Options, switch
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions
from . import presearch
from .instance import EdgeInstance
from .placements import PlacementTable

OPTIONS = Options(NO_SYMMETRY, Option(
    "model", str, "table", "table: a piece and a turn per cell; bool: a Boolean per placement "
    "(perfect boards only)", ("table", "bool")), Option(
    "order", str, "auto", "auto: CP-SAT's own search; rowscan: branch on the cells in the "
    "search backend's order (row by row, piece then turn)", ("auto", "rowscan")),
    presearch.PRESEARCH)


def search_params(workers: int) -> dict:
    """Solver parameters measured best on Brendan's and Heule's boards (see bench_edgematch).

    Time to a first board varies by orders of magnitude with the search order, so restarts
    with randomised choices pay: one worker runs the quick-restart portfolio; with two or
    more, quick restarts race the default LP-guided search. Explicit --cpsat parameters win.
    """
    if workers == 1:
        return {"search_branching": cp_model.PORTFOLIO_WITH_QUICK_RESTART_SEARCH}
    return {"subsolvers": ["default_lp", "quick_restart"]}


class EdgeCpsatBool(runner.CpsatModel):
    """Satisfaction model over Boolean placements x[cell, piece, rot] (Heule's encoding).

    Exactly one placement per cell and per piece; one "diamond" literal per join and colour,
    exactly one per join; a placement implies the diamond of each colour it shows, and a
    diamond needs a placement showing it on either side. CP-SAT's clause learning works on
    these literals directly, which on the public benchmarks beats the table model by far.
    """

    def __init__(self, inst: EdgeInstance, symmetry: bool = True):
        self.inst = inst
        self.table = table = PlacementTable(inst)
        m = self.model = cp_model.CpModel()
        self.x = {pl: m.new_bool_var(f"x{pl}") for pl in table}
        for cell, prs in table.by_cell.items():
            m.add_exactly_one(self.x[cell, p, r] for p, r in prs)
        for pls in table.by_piece.values():
            m.add_exactly_one(self.x[pl] for pl in pls)
        for a, side, b in table.joins():
            diamonds = []
            for col in table.join_colours(a, side, b):
                d = m.new_bool_var(f"d{a}{side}_{col}")
                diamonds.append(d)
                for cell, s in ((a, side), (b, sq.opposite(side))):
                    showing = [self.x[pl] for pl in table.showing[cell, s].get(col, [])]
                    for lit in showing:
                        m.add_implication(lit, d)
                    m.add_bool_or(showing).only_enforce_if(d)
            m.add_exactly_one(diamonds)
        anchor = table.anchor() if symmetry else None
        if anchor:
            m.add_bool_or(self.x[pl] for pl in anchor)

    def decode(self, value) -> Solution:
        return {cell: (p, r) for (cell, p, r), lit in self.x.items() if value(lit)}

    def suggest(self, solution: Solution) -> None:
        self.model.clear_hints()
        for pl, val in self.table.board(solution).items():
            self.model.add_hint(self.x[pl], val)

    def impose(self, partial: Solution) -> None:
        for cell, (p, r) in partial.items():
            pl = self.table.resolve(cell, p, r)
            if pl is None:  # not a placement the frame rule allows: nothing can satisfy it
                self.model.add_bool_or([])
            else:
                self.model.add(self.x[pl] == 1)


class EdgeCpsat(runner.CpsatModel):
    def __init__(self, inst: EdgeInstance, objective: str | None = None, symmetry: bool = True):
        self.inst = inst
        self.objective = objective == "matches"
        m = self.model = cp_model.CpModel()
        w, h = inst.width, inst.height
        ncol = inst.colour_span()
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
        first = inst.corner_pieces()[0]
        w, h = inst.width, inst.height
        if w == h:
            self.model.add(self.piece[(0, 0)] == first)
        else:
            tl = self.model.new_bool_var("first_tl")
            self.model.add(self.piece[(0, 0)] == first).only_enforce_if(tl)
            self.model.add(self.piece[(0, w - 1)] == first).only_enforce_if(~tl)

    def decode(self, value) -> Solution:
        return {cell: (value(self.piece[cell]), value(self.rot[cell])) for cell in self.piece}

    def suggest(self, solution: Solution) -> None:
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

    def impose(self, partial: Solution) -> None:
        for cell, (p, r) in partial.items():
            self.model.add(self.piece[cell] == p)
            self.model.add(self.rot[cell] == r)

    def branch_rowscan(self) -> None:
        """Branch on the cells row by row, piece before rotation, smallest value first (the
        rowscan's order, with CP-SAT's propagation and learning between the decisions)."""
        order = [v for cell in self.inst.cells() for v in (self.piece[cell], self.rot[cell])]
        self.model.add_decision_strategy(order, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)


def build(inst: EdgeInstance, opts: SolveOptions) -> EdgeCpsat | EdgeCpsatBool:
    # a pin would contradict an imposed or suggested board in another orientation
    symmetry = not (switch(opts.params, "no_symmetry", False) or opts.fix or opts.hint)
    kind = str(opts.params.get("model", "table")).lower()
    order = branching(opts)
    if kind not in ("table", "bool"):
        raise InputError(f"--model must be table or bool, got {kind!r}")
    if kind == "bool":
        if opts.objective:
            raise InputError("--model bool finds perfect boards only; drop --objective")
        if order == "rowscan":
            raise InputError("--order rowscan needs --model table")
        return EdgeCpsatBool(inst, symmetry)
    compiled = EdgeCpsat(inst, opts.objective, symmetry=symmetry)
    if order == "rowscan":
        compiled.branch_rowscan()
    return compiled


def branching(opts: SolveOptions) -> str:
    """`--order auto` (CP-SAT's own search) or `rowscan` (the cells in the search's order)."""
    return OPTIONS.value(opts.params, "order")  # the table refuses any other value


def solve(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    rowscan = branching(opts) == "rowscan"  # a bad value fails before any search runs
    opts, proof, pre = presearch.hinted(inst, opts)  # a hint drops the symmetry pin
    if proof is not None:
        return proof
    tuned = {} if opts.objective else search_params(opts.thread_count())
    tuned = {k: v for k, v in tuned.items() if k not in opts.params.get("cpsat", {})}
    if rowscan:
        tuned = {"search_branching": cp_model.FIXED_SEARCH}
    with building(opts):
        compiled = build(inst, opts)
    out = runner.run(compiled, opts, **tuned)
    if pre:
        out.stats["presearch"] = pre
    return out


def count(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    # every solution, so no symmetry breaking
    compiled = EdgeCpsat(inst, None, symmetry=False)
    return runner.count(compiled, opts)


BACKEND = Backend("cpsat", OPTIONS, solve, objectives=("matches",), count=count, build=build)
