"""SAT's --objective longest: Downing's score maximised on a fixed board by a rising bound.

The placement clauses of `cnf.TantrixCnf` (x[cell, tile, rot], tile counts, the golden rule)
on the full board of `score_pick.score_layout`, the same board CP-SAT's `cpsat_score` fills,
and per goal colour k the picked piece of `score_pick` as clauses (one block per rule below).
One piece is stated lazily (`--connect lazy`, the default): a model whose picked cells of a
colour lie on several pieces gets, for each piece, the clause of `score_pick.apart` ("a cell
of the piece or the other cell unpicked, or a k-link crossing the piece's border"), added to
the running solver before it solves again (stats `rounds`, `cuts`); or up front (`--connect
reach`): every picked cell is reached from the first within the piece's radius (`_reach`).

Maximised by the SAT runner's rising bound (`backends.cnf.maximise`): the picked literals are
counted by an incremental totalizer (pysat.card), and each accepted model of score s adds
"at least s + 1 picked". UNSAT at bound s + 1 proves s the optimum on this board: every
clause added lazily excludes only pick sets that are not one whole piece, so no picked piece
of a valid board is lost, and the picked cells can be each goal's longest piece. The status is
then SOLVED on a board the instance fixes and FEASIBLE for a free shape (other shapes may
score more). A stopped run returns the best accepted board, or the last rejected one (a valid
placement all the same), scored by the checker.

On the Loop puzzle (a loop goal in every colour) the outline's clauses (`_outline`) tell the
solver which cells may lose arcs once the score must come near the board's bound, and
`--floor N` (the SAT runner's) starts the bound at N: on a fixed board, a run that finds
nothing at N proves that no board there scores N or more (status infeasible).
"""

from __future__ import annotations

from pysat.card import CardEnc, EncType, ITotalizer

from ...backends import cnf as runner
from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.limits import built
from ...core.result import Outcome, Solution, SolveOptions
from . import catalogue as cat
from .check import shape_bound, shape_room
from .cnf import OPTIONS, TantrixCnf
from .instance import TantrixInstance
from .score_pick import (
    Pick,
    apart,
    colour_free,
    first_colouring,
    on_board,
    one_kind_each,
    picks,
    score_layout,
)


class ScoreCnf(TantrixCnf):
    objective = True
    lazy = "pieces apart (each goal colour one picked piece)"
    # each of the 56 tiles has 336 placements on the 56-cell board: "exactly one" took 59,130
    # clauses as a totalizer, 1,005 as a sequential counter (3.5 million clauses in all, and
    # 12 CPU s to build, with the totalizer)
    once = EncType.seqcounter

    def __init__(self, inst: TantrixInstance, recolour: bool = False, connect: str = "lazy"):
        lay = score_layout(inst, "SAT")
        super().__init__(lay, short_loops=False)  # a full board: no goal loops to keep long
        self.on: dict[str, dict] = {}
        goals = picks(inst, lay)
        self.connect = connect
        for i, p in enumerate(goals):
            self.on[p.colour] = self._piece(i, p)
            if connect == "reach":
                self._reach(i, p)
        self.objective_lits = [v for on in self.on.values() for v in on.values()]
        self.picked: dict[str, set] = {}
        self.bound = shape_bound(inst, lay.cells)
        self.imperfect: ITotalizer | None = None
        kind = one_kind_each(inst)  # the clauses count on every arc (the bound uncapped)
        if lay.all_filled and kind and self.bound == shape_room(inst, lay.cells):
            self._outline(loops=kind == "loop")
        self.recoloured = recolour and colour_free(inst)
        if self.recoloured:
            self._one_colouring(min(lay.cells))

    def _one_colouring(self, cell) -> None:
        """Of the 24 recolourings of each board (`score_pick.colour_free`: they score alike),
        only the one whose tile at `cell` misses red, shows yellow at edge 0 and blue next
        (`first_colouring`): 14 of the cell's 336 placements stay."""
        for pl in self.table.at[cell]:
            if not first_colouring(pl[1], pl[2]):
                self.clauses.append([-self.x[pl]])

    def _outline(self, loops: bool) -> None:
        """Clauses the outline implies once the score must come near the shape's bound.

        Every arc counts on the Loop puzzle (a loop goal in each colour), so a board scores
        the bound exactly when each cell loses only the ceil(b / 2) arcs its b open edges cut
        (`check.shape_bound`) and every other arc lies on its colour's picked loop: the cell
        is *perfect*. A board scoring the bound minus s has at most s cells that are not.
        Where two perfect cells touch, an arc that ends on the outline at one side of their
        edge meets one that ends on the outline at the other: the edge's colour runs from the
        outline to the outline through the two cells and is lost in both. The solver sees
        that at once; from the score's count alone it does not: on the Loop's shape that
        cuts 29 arcs, "136 or more" was refuted in one solve with these clauses (Glucose 4:
        5,550 conflicts, 3.3 s with the start) and in 162 s without them (CaDiCaL).

        On the Curve puzzle (a line goal in each colour) the bound adds each line's two end
        arcs, which are arcs the outline cuts: a board at the bound minus s still has at most
        s cells that lose an arc beyond their outline's or hold an uncut arc off their
        colour's line (each such cell costs a point, and at most the eight ends give points
        back, all counted in the bound). Across two perfect cells, an arc ending on the
        outline may meet one that does not only where it is its colour's line's end: at most
        twice a line."""
        lay, pool, cnf, x = self.layout, self.vpool, self.clauses, self.x
        perfect = {c: pool.id(("perfect", c)) for c in lay.cells}
        ends: dict[tuple, int] = {}  # (cell, d): the arc at edge d ends on the outline
        for c, pls in self.table.at.items():
            outline = {d for d in range(6) if not lay.inside(hx.neighbour(c, d))}
            for d in range(6):
                if d not in outline:
                    ends[c, d] = pool.id(("ends", c, d))
            for pl in pls:
                v, (_c, t, rot) = x[pl], pl
                arcs = [(k, cat.arc(t, rot, k)) for k in cat.COLOURS if k in cat.colours(t)]
                cut = [(k, arc) for k, arc in arcs if outline & set(arc)]
                # a perfect cell loses no arc beyond the ceil(b / 2) its open edges cut
                if len(cut) > (len(outline) + 1) // 2:
                    cnf.append([-v, -perfect[c]])
                for k, arc in arcs:  # and keeps every other arc on its colour's loop
                    if (k, arc) not in cut:
                        cnf.append([-v, -perfect[c], self.on[k][c]])
                inward = {d for _k, arc in cut for d in arc} - outline
                for d in range(6):
                    if d not in outline:
                        cnf.append([-v, ends[c, d] if d in inward else -ends[c, d]])
        # two perfect cells: an arc ending on the outline meets one across their edge, or (a
        # line goal) it is the end of its colour's line there, one of the 2 a line has
        turns = []
        for a, d, b in lay.pairs:
            for one, other in (((a, d), (b, hx.opposite(d))), ((b, hx.opposite(d)), (a, d))):
                clause = [-perfect[a], -perfect[b], -ends[one], ends[other]]
                if not loops:
                    turns.append(pool.id(("line end", one)))
                    clause.append(turns[-1])
                cnf.append(clause)
        if turns:
            cnf.extend(CardEnc.atmost(turns, 2 * len(self.on), vpool=pool,
                                      encoding=EncType.seqcounter).clauses)
        # at most s cells not perfect once the score must reach the bound minus s
        self.imperfect = runner.totalizer(pool, [-v for v in perfect.values()], len(perfect))
        cnf.extend(self.imperfect.cnf.clauses)

    def floor_clauses(self, floor: int) -> list[list[int]]:
        slack = self.bound - floor
        if self.imperfect is None or slack >= len(self.imperfect.rhs):
            return []
        if slack < 0:  # above the bound: no board
            never = self.vpool.id(("above the bound",))
            return [[never], [-never]]
        return [[-self.imperfect.rhs[slack]]]

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
            e = pool.id(("end", i, c, zc))  # a picked cell's k-arc faces off the board
            cnf.extend([[-e, on[c]], [-e, zc], [e, -on[c], -zc]])
            ends.append(e)
        cnf.extend([[-v, *ends] for v in on.values()])
        # one line has two ends: picked cells on several open pieces are excluded up front,
        # not one lazy round at a time (on the Curve's 131 shape the lazy step had added 585
        # cuts in 28 rounds without one accepted model in 400 s)
        cnf.extend(CardEnc.atmost(ends, 2, vpool=pool, encoding=EncType.seqcounter).clauses)
        return on

    def _reach(self, i: int, p: Pick) -> None:
        """`--connect reach`: the picked cells of goal i are one piece, stated up front.

        The first picked cell in the board's order is the root (`_root`); r[c, t] says cell c
        is reached from it over at most t picked k-links; every picked cell is reached within
        the piece's radius: for a loop half the most tiles it can hold (a loop of L cells has
        every cell within L // 2 of any of its cells), for a line that many tiles less one (the
        root may be an end). A pick on separate pieces is then excluded before any solve, where
        the lazy cuts exclude one at a time and solve again: on the Loop's 20 tiles (compact
        board, CaDiCaL) the optimum 36 was proven in 96,555 conflicts and 22 s, against 254,795
        and 58 s with 79 cuts in 48 rounds; on 28 tiles, 57 against 43 in 120 s."""
        pool, cnf, k, on = self.vpool, self.clauses, p.colour, self.on[p.colour]
        cells = list(on)
        most = min(len(cells), self.table.need[k])
        radius = max(most - 1 if p.line else most // 2, 0)
        r = {(c, t): pool.id(("reach", i, c, t)) for c in cells for t in range(radius + 1)}
        self._root(i, on, r)
        # a cell reached within t: within t - 1, or over a k-link from a cell reached within
        # t - 1 (the link: that cell shows k on the shared edge; closure picks this one)
        into: dict = {c: [] for c in cells}
        for a, d, b in p.pairs:
            for src, e, dst in ((a, d, b), (b, hx.opposite(d), a)):
                z = self.z.get((src, e, k))
                if z is not None:
                    into[dst].append((src, z))
        for c in cells:
            for t in range(1, radius + 1):
                via = []
                for src, z in into[c]:
                    s = pool.id(("reach step", i, src, c, t))
                    cnf.extend([[-s, r[src, t - 1]], [-s, z]])
                    via.append(s)
                cnf.append([-r[c, t], r[c, t - 1], *via])
                cnf.extend([[-r[c, t - 1], r[c, t]], [-r[c, t], on[c]]])
            cnf.append([-on[c], r[c, radius]])

    def _root(self, i: int, on: dict, r: dict) -> None:
        """r[c, 0] exactly for the first picked cell in `on`'s order (`before`: a literal
        for "some cell before this one is picked"), so each pick has one root."""
        pool, cnf, before = self.vpool, self.clauses, None
        for c, v in on.items():
            earlier = [before] if before else []
            cnf.append([-r[c, 0], v])
            cnf.append([-v, r[c, 0], *earlier])
            now = pool.id(("picked so far", i, c))
            cnf.extend([[-now, v, *earlier], [-v, now]])
            if before:
                cnf.extend([[-r[c, 0], -before], [-before, now]])
            before = now

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


def score_model(inst: TantrixInstance, opts: SolveOptions) -> ScoreCnf:
    """The model with the options' recolouring and connection rule (solving and export)."""
    return ScoreCnf(inst, recolouring(opts), OPTIONS.value(opts.params, "connect"))


def recolouring(opts: SolveOptions) -> bool:
    """`--recolour one` (the default), unless a board is imposed or suggested: that board may
    be any of its recolourings, so they are all kept then."""
    return OPTIONS.value(opts.params, "recolour") == "one" and not opts.fix and not opts.hint


def solve(inst: TantrixInstance, opts: SolveOptions) -> Outcome:
    if opts.params.get("floor") is not None and inst.shape == "free":
        # the model fills one chosen board: "nothing scores N there" is no proof for the puzzle
        raise InputError("sat --floor proves a bound on a fixed board; this puzzle's shape is "
                         "free (give its cells with 'shape board')")
    compiled = built(opts, lambda: score_model(inst, opts))
    out = runner.run(compiled, opts)
    out.stats["connect"] = compiled.connect
    if compiled.recoloured:
        out.stats["recolourings"] = "one of 24 (the colours are interchangeable)"
    return on_board(out, inst, compiled.layout)
