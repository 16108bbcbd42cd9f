"""Tantrix as CNF (PySAT; CaDiCaL by default) on a fixed board or, for free shapes, on a
hexagon of cells around a pinned tile that grows until the puzzle fits; the MILP model's
rules as clauses:
- x[cell, tile, rot] per allowed placement; y[cell] <-> some placement in the cell; at most
  one placement per cell (y forced on a board the tiles fill); each tile type exactly its
  multiplicity (cardinality encodings from `pysat.card`, numbered by the shared IDPool);
- z[cell, d, k] <-> some placement shows colour k at edge d;
- golden rule: z[a, d, k] and y[b] imply z[b, d+3, k]; a goal loop colour implies y of the
  cell it faces;
- no loop of 3, 4 or 5 tiles (Kino & Uno's C7-C9; `--c7-c9 off` leaves them to the lazy
  loop): for each short cycle of the cell graph, not all its links of a
  loop colour (when more tiles carry the colour); no hole of up to three cells: not every cell
  around it filled with one of its own cells empty;
- lazily (`separate`, clauses added to the running solver): a closed loop of colour k
  through fewer tiles than carry k is forbidden by "not all of its links" (any board with
  those links has that short loop); holes and disconnected groups by the clauses of the
  MILP's cuts (a tile around the hole missing or a board cell inside filled; a tile next to
  the group, or one of the group missing). A hole found is excluded at every turned and
  shifted copy of it in the region at once.
"""

from __future__ import annotations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ...backends import cnf as runner
from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.limits import built
from ...core.options import Option, Options
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions
from .instance import TantrixInstance
from .lazy import (
    Table,
    check_goals,
    hole_copies,
    hole_shapes,
    link_between,
    rim,
    violations,
)
from .region import RADIUS, SHORT_LOOPS, Layout, choice_option, export_layout, solve_on_layouts

RECOLOUR = Option("recolour", str, "one", "--objective longest on a puzzle whose four colours are "
                  "interchangeable (the Loop, the Curve): 'one' keeps one recolouring of each "
                  "board's 24, 'all' every one", ("one", "all"))
CONNECT = Option("connect", str, "lazy", "--objective longest: how each goal colour's picked "
                 "cells are kept one piece: 'lazy' cuts a model's separate pieces and solves "
                 "again, 'reach' states up front that every picked cell is reached from the "
                 "first one within the piece's length", ("lazy", "reach"))
OPTIONS = Options(runner.OPTIONS, RADIUS, SHORT_LOOPS, RECOLOUR, CONNECT)
OBJECTIVES = ("longest",)  # Downing's score on a fixed board: `cnf_score`


class TantrixCnf(runner.CnfModel):
    lazy = "subloop clauses (each goal colour one loop, no separate smaller loops)"
    once = EncType.totalizer  # the encoding of "a tile used once is placed once"

    def __init__(self, layout: Layout, short_loops: bool = True):
        self.table = table = Table(layout)
        self.layout = lay = layout
        inst = lay.inst
        pool = self.vpool = IDPool()
        # a plain list: pysat's CNF checks every clause it is handed (a third of the 56-cell
        # score model's 2.2 CPU s build)
        cnf = self.clauses = []
        self.x = {pl: pool.id(("x", pl)) for pls in table.at.values() for pl in pls}
        self.y = {c: pool.id(("y", c)) for c in lay.cells}
        for c, pls in table.at.items():
            lits = [self.x[pl] for pl in pls]
            cnf.append([-self.y[c], *lits])
            cnf.extend([[-v, self.y[c]] for v in lits])
            cnf.extend(CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.seqcounter).clauses)
            if lay.all_filled or (lay.pin is not None and c == lay.pin[0]):
                cnf.append([self.y[c]])
        by_tile: dict[int, list[int]] = {}
        for pl, v in self.x.items():
            by_tile.setdefault(pl[1], []).append(v)
        for t, n in inst.counts().items():
            lits = by_tile.get(t, [])
            if len(lits) < n:
                cnf.append([])  # the tile cannot be placed often enough anywhere
                continue
            enc = self.once if n == 1 else EncType.totalizer
            cnf.extend(CardEnc.equals(lits, n, vpool=pool, encoding=enc).clauses)

        self.z: dict[tuple, int] = {}
        for key, pls in table.showing.items():
            z = self.z[key] = pool.id(("z", key))
            cnf.append([-z, *(self.x[pl] for pl in pls)])
            cnf.extend([[-self.x[pl], z] for pl in pls])
        for a, d, b in lay.pairs:
            for k in table.colours():
                for (c, e), (o, f) in (((a, d), (b, hx.opposite(d))),
                                       ((b, hx.opposite(d)), (a, d))):
                    zc = self.z.get((c, e, k))
                    if zc is not None:
                        zo = self.z.get((o, f, k))
                        cnf.append([-zc, -self.y[o]] + ([zo] if zo is not None else []))
        for (c, d, k), z in self.z.items():
            if k in table.loops:
                nb = hx.neighbour(c, d)
                cnf.append([-z, self.y[nb]] if lay.inside(nb) else [-z])
        for cyc in table.short_cycles() if short_loops else []:
            for k in table.loops:
                links = [self.z.get((*link_between(a, b), k))
                         for a, b in zip(cyc, cyc[1:] + cyc[:1], strict=True)]
                if table.need[k] > len(cyc) and None not in links:
                    cnf.append([-v for v in links])
        for hole in hole_shapes(lay, 3):
            cnf.extend(self.hole_clauses(hole))

    def hole_clauses(self, hole) -> list[list[int]]:
        """If every cell around `hole` holds a tile, so does each cell of it (a cell of it
        outside the region stays empty, so then the rim cannot be full)."""
        full = [-self.y[c] for c in sorted(rim(set(hole)))]
        inside = [c for c in sorted(hole) if c in self.y]
        if len(inside) < len(hole):
            return [full]
        return [[*full, self.y[c]] for c in inside]

    # ------------------------------------------------------------------ the runner seam
    def decode(self, value) -> Solution:
        return {c: (t, rot) for (c, t, rot), v in self.x.items() if value(v)}

    def violated_cuts(self, solution: Solution) -> list[list[int]]:
        found = violations(self.table, solution)
        out = [[-self.z[a, d, k] for a, d in own] for k, _inner, own, _n in found.subloops]
        for _rim, _inside, hole in found.holes:
            for h in hole_copies(self.layout, hole):
                out += self.hole_clauses(h)
        out += [[-self.y[c] for c in group] + [self.y[c] for c in around]
                for group, around in found.parts]
        return out

    def suggest(self, solution: Solution) -> None:
        self.phases = [v if solution.get(c) == (t, rot) else -v
                       for (c, t, rot), v in self.x.items()]

    def impose(self, partial: Solution) -> None:
        for c, tr in partial.items():
            if c not in self.y:
                raise InputError(f"cannot fix a tile at {c}: outside the board")
            v = self.x.get((c, *tr))
            # an impossible placement: its cell both empty and filled, which is UNSAT
            self.clauses.extend([[v]] if v is not None else [[self.y[c]], [-self.y[c]]])

    def forbid(self, solution: Solution) -> None:
        self.clauses.append([-self.x[c, *tr] for c, tr in solution.items()])


def build(inst: TantrixInstance, opts: SolveOptions) -> TantrixCnf:
    """The formula on `export_layout`, with the clauses it starts from (no lazy clauses)."""
    if opts.objective in OBJECTIVES:
        from .cnf_score import score_model

        return score_model(inst, opts)
    check_goals(inst, "sat")
    lay, notes = export_layout(inst, opts)
    compiled = TantrixCnf(lay)
    compiled.export_notes = notes
    return compiled


def solve(inst: TantrixInstance, opts: SolveOptions) -> Outcome:
    if opts.objective in OBJECTIVES:
        from . import cnf_score

        return cnf_score.solve(inst, opts)
    return _solve(inst, opts, count=False)


def count(inst: TantrixInstance, opts: SolveOptions) -> Outcome:
    """Every solution on the fixed board, or with the pinned tile at the origin, unturned, in
    a region large enough for any solution (as the CP-SAT cell model counts them), each
    forbidden by a blocking clause once found."""
    return _solve(inst, opts, count=True)


def _solve(inst: TantrixInstance, opts: SolveOptions, count: bool) -> Outcome:
    check_goals(inst, "sat")
    short = choice_option(opts, "c7_c9", ("on", "off"), "on") == "on"
    run = runner.count if count else runner.run
    return solve_on_layouts(
        inst, opts, lambda lay, o: run(built(o, lambda: TantrixCnf(lay, short)), o), whole=count)


BACKEND = Backend("sat", OPTIONS, solve, objectives=OBJECTIVES, count=count, build=build)
