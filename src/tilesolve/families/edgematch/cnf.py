"""Edge matching as CNF (PySAT; CaDiCaL by default), after Heule's placement/diamond encoding.

Rules, as the clauses state them:
- a variable x[cell, piece, rot] for every placement the frame rule allows, exactly one per
  cell and exactly one per piece (cardinality encodings from `pysat.card`, all numbered by
  the one shared IDPool);
- satisfaction: one "diamond" variable per join and colour; a placement implies the diamond
  of the colour it shows on each join, at most one diamond per join is true (so both sides
  agree), and a true diamond needs a placement showing it on each side (redundant, it
  speeds up propagation);
- optimisation ("matches"): each side of a join has its own colour variables, channelled the
  same way, and a literal m[join] forces the two sides' colours equal; the runner maximises
  the number of true m (anytime, best board kept);
- with no fixed piece, the first corner piece is pinned to break the board's rotations.
"""

from __future__ import annotations

from pysat.card import CardEnc, EncType
from pysat.formula import CNF, IDPool

from ...backends import cnf as runner
from ...core import squaregrid as sq
from ...core.errors import InputError
from ...core.limits import building
from ...core.options import NO_SYMMETRY, Options, switch
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions
from . import presearch
from .instance import Cell, EdgeInstance
from .placements import PlacementTable

OPTIONS = Options(runner.OPTIONS, NO_SYMMETRY, presearch.PRESEARCH)
PAIRWISE_MAX = 6  # at-most-one over this many literals or fewer: pairwise, else sequential


class EdgeCnf(runner.CnfModel):
    def __init__(self, inst: EdgeInstance, objective: str | None = None, symmetry: bool = True):
        self.inst = inst
        self.table = table = PlacementTable(inst)
        self.objective = objective == "matches"
        pool = self.vpool = IDPool()
        self.x = {pl: pool.id(("x", *pl)) for pl in table}  # placements get ids 1..P
        cnf = self.clauses = CNF()

        for cell, prs in table.by_cell.items():
            self._exactly_one([self.x[cell, p, r] for p, r in prs])
        for p in range(1, inst.n + 1):
            self._exactly_one([self.x[pl] for pl in table.by_piece[p]])

        self.objective_lits: list[int] = []
        for a, s, b in table.joins():
            colours = table.join_colours(a, s, b)
            if not self.objective:
                diamond = {k: pool.id(("d", a, s, k)) for k in colours}
                self._channel(a, s, diamond)
                self._channel(b, sq.opposite(s), diamond)
                self._at_most_one(list(diamond.values()))
                continue
            here = self._side_colours(a, s)
            there = self._side_colours(b, sq.opposite(s))
            m = pool.id(("m", a, s))
            for k in colours:  # m -> the two sides show the same colour
                if k in here:
                    cnf.append([-m, -here[k]] + ([there[k]] if k in there else []))
                if k in there:
                    cnf.append([-m, -there[k]] + ([here[k]] if k in here else []))
            self.objective_lits.append(m)

        anchor = table.anchor() if symmetry else None
        if anchor:
            cnf.append([self.x[pl] for pl in anchor])

    # --- encoding helpers ----------------------------------------------------------------
    def _exactly_one(self, lits: list[int]) -> None:
        enc = EncType.pairwise if len(lits) <= PAIRWISE_MAX else EncType.seqcounter
        self.clauses.extend(CardEnc.equals(lits, 1, vpool=self.vpool, encoding=enc).clauses)

    def _at_most_one(self, lits: list[int]) -> None:
        enc = EncType.pairwise if len(lits) <= PAIRWISE_MAX else EncType.seqcounter
        self.clauses.extend(CardEnc.atmost(lits, 1, vpool=self.vpool, encoding=enc).clauses)

    def _channel(self, cell: Cell, side: int, colour_vars: dict[int, int]) -> None:
        """Placements imply the colour they show on this side; a colour needs a placement."""
        showing = self.table.showing[cell, side]
        for k, var in colour_vars.items():
            pls = showing.get(k, [])
            for pl in pls:
                self.clauses.append([-self.x[pl], var])
            self.clauses.append([-var] + [self.x[pl] for pl in pls])

    def _side_colours(self, cell: Cell, side: int) -> dict[int, int]:
        """Colour variables of one side of a join (optimisation mode)."""
        out = {k: self.vpool.id(("c", cell, side, k)) for k in self.table.showing[cell, side]}
        self._channel(cell, side, out)
        return out

    # --- the runner's seam -----------------------------------------------------------------
    def decode(self, value) -> Solution:
        return {cell: (p, r) for (cell, p, r), var in self.x.items() if value(var)}

    def suggest(self, solution: Solution) -> None:
        self.phases = [self.x[pl] if on else -self.x[pl]
                       for pl, on in self.table.board(solution).items()]

    def impose(self, partial: Solution) -> None:
        for cell, (p, r) in partial.items():
            if cell not in self.table.by_cell:
                raise InputError(f"cannot fix a piece at {cell}: outside the board")
            pl = self.table.resolve(cell, p, r)
            if pl is None:  # not a legal placement: the cell must stay empty, which is UNSAT
                self.clauses.extend([-self.x[cell, q, s]] for q, s in self.table.by_cell[cell])
            else:
                self.clauses.append([self.x[pl]])

    def forbid(self, solution: Solution) -> None:
        self.clauses.append([-self.x[self.table.resolve(cell, p, r)]
                             for cell, (p, r) in solution.items()])


def build(inst: EdgeInstance, opts: SolveOptions) -> EdgeCnf:
    # a fixed or hinted board has its own orientation, which the symmetry clause might exclude
    symmetry = not (switch(opts.params, "no_symmetry", False) or opts.fix or opts.hint)
    return EdgeCnf(inst, opts.objective, symmetry=symmetry)


def solve(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    opts, proof, pre = presearch.hinted(inst, opts)  # the search's board as phases
    if proof is not None:
        return proof
    with building(opts):
        compiled = build(inst, opts)
    out = runner.run(compiled, opts)
    if pre:
        out.stats["presearch"] = pre
    return out


def count(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    # every solution, so no symmetry breaking
    with building(opts):
        compiled = EdgeCnf(inst, symmetry=False)
    return runner.count(compiled, opts)


BACKEND = Backend("sat", OPTIONS, solve, objectives=("matches",), count=count, build=build)
