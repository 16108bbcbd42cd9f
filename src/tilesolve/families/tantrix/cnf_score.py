"""SAT's --objective longest: Downing's score maximised on a fixed board by a rising bound.

The placement clauses of `cnf.TantrixCnf` (x[cell, tile, rot], tile counts, the golden rule)
on the full board of `score_pick.score_layout`, the same board CP-SAT's `cpsat_score` fills,
and per goal colour k the picked piece of `score_pick` as clauses (one block per rule below).
One piece is stated lazily: a model whose picked cells of a colour lie on several pieces gets,
for each piece, the clause of `score_pick.apart` ("a cell of the piece or the other cell
unpicked, or a k-link crossing the piece's border"), added to the running solver before it
solves again (stats `rounds`, `cuts`).

Maximised by the SAT runner's rising bound (`backends.cnf.maximise`): the picked literals are
counted by an incremental totalizer (pysat.card), and each accepted model of score s adds
"at least s + 1 picked". UNSAT at bound s + 1 proves s the optimum on this board: every
clause added lazily excludes only pick sets that are not one whole piece, so no picked piece
of a valid board is lost, and the picked cells can be each goal's longest piece. The status is
then SOLVED on a board the instance fixes and FEASIBLE for a free shape (other shapes may
score more). A stopped run returns the best accepted board, or the last rejected one (a valid
placement all the same), scored by the checker.
"""

from __future__ import annotations

from pysat.card import EncType

from ...backends import cnf as runner
from ...core.limits import built
from ...core.result import Outcome, Solution, SolveOptions
from . import catalogue as cat
from .cnf import TantrixCnf
from .instance import TantrixInstance
from .score_pick import Pick, apart, on_board, picks, score_layout


class ScoreCnf(TantrixCnf):
    objective = True
    lazy = "pieces apart (each goal colour one picked piece)"
    # each of the 56 tiles has 336 placements on the 56-cell board: "exactly one" took 59,130
    # clauses as a totalizer, 1,005 as a sequential counter (3.5 million clauses in all, and
    # 12 CPU s to build, with the totalizer)
    once = EncType.seqcounter

    def __init__(self, inst: TantrixInstance):
        lay = score_layout(inst, "SAT")
        super().__init__(lay, short_loops=False)  # a full board: no goal loops to keep long
        self.on: dict[str, dict] = {}
        for i, p in enumerate(picks(inst, lay)):
            self.on[p.colour] = self._piece(i, p)
        self.objective_lits = [v for on in self.on.values() for v in on.values()]
        self.picked: dict[str, set] = {}

    def _piece(self, i: int, p: Pick) -> dict:
        pool, cnf, k = self.vpool, self.clauses, p.colour
        # picked cells: on[c] only where the cell's tile carries k
        on = {c: pool.id(("on", i, c)) for c in p.cells}
        for c, v in on.items():
            cnf.append([-v, *(self.x[pl] for pl in self.table.at[c] if k in cat.colours(pl[1]))])
        # closure: a picked cell's k-arc crossing a shared edge picks the neighbour too
        for a, d, b in p.pairs:
            za = self.z.get((a, d, k))
            if za is not None:  # on a full board the golden rule makes b show k back
                cnf.extend([[-on[a], -za, on[b]], [-on[b], -za, on[a]]])
        # a loop is closed: no picked k-arc faces off the board; a line is open: some does
        # (with one piece, an end makes it a line)
        faces = [(c, self.z[c, d, k]) for c, d in p.outward if (c, d, k) in self.z]
        if not p.line:
            cnf.extend([[-on[c], -zc] for c, zc in faces])
            return on
        ends = []
        for c, zc in faces:
            e = pool.id(("end", i, c, zc))
            cnf.extend([[-e, on[c]], [-e, zc]])
            ends.append(e)
        cnf.extend([[-v, *ends] for v in on.values()])
        return on

    # ------------------------------------------------------------------ the runner seam
    def decode(self, value) -> Solution:
        self.picked = {k: {c for c, v in on.items() if value(v)} for k, on in self.on.items()}
        return super().decode(value)

    def violated_cuts(self, solution: Solution) -> list[list[int]]:
        out = []
        for cut in apart(self.layout, solution, self.picked):
            on, k = self.on[cut.colour], cut.colour
            crossing = [self.z[c, d, k] for c, d in cut.border if (c, d, k) in self.z]
            out.append([-on[c] for c in cut.piece] + [-on[cut.other]] + crossing)
        return out


def solve(inst: TantrixInstance, opts: SolveOptions) -> Outcome:
    compiled = built(opts, lambda: ScoreCnf(inst))
    out = runner.run(compiled, opts)
    return on_board(out, inst, compiled.layout)
