"""Tantrix as a CP-SAT model.

Rules, as the model states them (on a `Layout`: a board, a triangle or a hexagon of cells
around a pinned tile):
- x[cell, tile, rot]: at most one placement per cell, every tile used as often as listed;
- z[cell, d, colour] is the colour shown at edge d; touching edges of two placed tiles agree
  (the golden rule, as clauses);
- each goal colour is routed through `add_circuit` over the cells: a cell whose tile carries
  the colour is on the circuit, others take their self-loop; an undirected link is the sum of
  two arc literals; an open line closes through a dummy node joined to its two open ends;
- no holes: for a connected cluster on the hex lattice, touching pairs minus filled triangles
  equals tiles minus one (Euler), stated linearly; a loop through every tile also has at
  least 2n - 3 touching pairs (n links plus n - 3 inside it, the turning-angle count);
- connectivity comes from a goal line through every tile, else from a single-commodity flow;
- free shapes: the hexagon grows until the puzzle fits; the pinned tile removes translations
  and rotations.
Free shapes with a line goal use the walk model instead (`cpsat_walk.py`; `--model
auto|cells|walk` chooses).
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from ...backends import cpsat as runner
from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.limits import built
from ...core.options import Option, Options, count, positive_int
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions
from . import catalogue as cat
from . import cpsat_walk
from .instance import TantrixInstance
from .region import (
    RADIUS,
    Layout,
    candidate_colours,
    covering_colour,
    export_layout,
    fixed_loop_colours,
    solve_on_layouts,
)
from .window_model import STEER

OPTIONS = Options(
    RADIUS,
    Option("model", str, "auto", "auto, cells or walk. cells: a placement per cell; walk: the "
           "tiles as a walk (free shapes, goals of fixed distinct colours); auto: walk for free "
           "shapes with a line goal"),
    Option("hint", str, None, "--objective longest: a board file (same cells) as the solver's "
           "hint"),
    Option("margin", count, 0, "--objective longest on a free shape: rings of empty cells "
           "around the start board (the hint, else a compact fill) that the tiles may take, so "
           "the shape is searched inside them (0: the compact board, fixed)"),
    Option("workers", positive_int, None, "CP-SAT's workers (default: 8 with --threads 0, "
           "else --threads); more workers than cores share them, each a different search"),
    Option("cap", positive_int, None, "with --margin: CP-SAT maximises the score with each goal "
           "colour counted up to this many tiles first, the full score second (a long colour "
           "may give tiles to a short one); boards are kept by the full score"),
    Option("outline", count, None, "with --margin: only shapes whose outline cuts at most this "
           "many arcs (a cell with b open edges loses ceil(b/2) of its 3; a board scores at most "
           "the arcs kept, so the Loop's 136 needs 32 or fewer); from a start board that cuts "
           f"more, the search steers into it (each arc over costs {STEER} points) and answers "
           "only boards that keep to it"),
)
OBJECTIVES = ("longest",)  # Downing's score on a fixed board: `cpsat_score`


class TantrixCpsat(runner.CpsatModel):
    def __init__(self, layout: Layout):
        self.layout = lay = layout
        self.inst = inst = layout.inst
        m = self.model = cp_model.CpModel()
        self.x: dict[tuple, cp_model.IntVar] = {}
        self.y: dict = {}
        by_cell: dict = {c: [] for c in lay.cells}
        by_tile: dict = {t: [] for t in inst.types()}
        self.at: dict = {c: [] for c in lay.cells}  # cell -> [((cell, tile, rot), x)]
        for c in lay.cells:
            for t, rot in lay.placements(c):
                v = self.x[c, t, rot] = m.new_bool_var(f"x{c}_{t}_{rot}")
                self.at[c].append(((c, t, rot), v))
                by_cell[c].append(v)
                by_tile[t].append(v)
        for c in lay.cells:
            y = self.y[c] = m.new_bool_var(f"y{c}")
            m.add(sum(by_cell[c]) == y)
            if lay.all_filled:
                m.add(y == 1)
        counts = inst.counts()
        for t, vs in by_tile.items():
            m.add(sum(vs) == counts[t])
        if lay.pin is not None:
            m.add(self.y[lay.pin[0]] == 1)

        # shown colours; only colours some tile carries
        used = sorted({k for t in inst.types() for k in cat.colours(t)}, key=cat.COLOURS.index)
        self.z: dict[tuple, object] = {}
        for c in lay.cells:
            for d in range(6):
                for k in used:
                    terms = [v for (_c, t, rot), v in self.at[c] if cat.edges(t, rot)[d] == k]
                    if not terms:
                        self.z[c, d, k] = 0
                    elif len(terms) == 1:
                        self.z[c, d, k] = terms[0]
                    else:
                        z = self.z[c, d, k] = m.new_bool_var(f"z{c}_{d}_{k}")
                        m.add(sum(terms) == z)
        # golden rule: a colour shown towards a placed neighbour is shown back
        for a, d, b in lay.pairs:
            for k in used:
                za, zb = self.z[a, d, k], self.z[b, hx.opposite(d), k]
                if _false(za) and _false(zb):
                    continue
                self._implies_if(za, self.y[b], zb)
                self._implies_if(zb, self.y[a], za)

        self._edges_and_triangles()
        self._goals(used)
        if covering_colour(inst) is None and not lay.all_filled:
            self._connect()

    # ------------------------------------------------------------------ helpers
    # Literals are model Booleans or the Python constants 0 and 1, folded away here.
    def _implies_if(self, a, cond, b) -> None:
        """a and cond -> b."""
        if _false(a) or _false(cond) or _true(b):
            return
        lits = [v.Not() for v in (a, cond) if not _true(v)]
        if not _false(b):
            lits.append(b)
        self.model.add_bool_or(lits)

    def _not(self, v):
        return 1 - v if isinstance(v, int) else v.Not()

    def _and(self, lits: list, name: str):
        """A literal equal to the conjunction of literals."""
        if any(_false(v) for v in lits):
            return 0
        lits = [v for v in lits if not _true(v)]
        if not lits:
            return 1
        if len(lits) == 1:
            return lits[0]
        v = self.model.new_bool_var(name)
        self.model.add_bool_and(lits).only_enforce_if(v)
        self.model.add_bool_or([lit.Not() for lit in lits] + [v])
        return v

    # ------------------------------------------------------------------ shape
    def _edges_and_triangles(self) -> None:
        lay, m, y = self.layout, self.model, self.y
        n = self.inst.n
        if lay.all_filled:
            return  # a full board or triangle has neither holes nor gaps
        self.shared = {(a, b): self._and([y[a], y[b]], f"e{a}{b}") for a, _d, b in lay.pairs}
        tris = [self._and([y[a], y[b], y[c]], f"t{a}{b}{c}") for a, b, c in lay.triangles]
        # Euler on the triangulated cluster: tiles - shared + triangles = parts - holes = 1
        m.add(sum(self.shared.values()) - sum(tris) == n - 1)
        cover = covering_colour(self.inst)
        if cover is not None and cover in fixed_loop_colours(self.inst):
            m.add(sum(self.shared.values()) >= 2 * n - 3)

    def _connect(self) -> None:
        """Single-commodity flow from a root cell: every other tile receives one unit."""
        lay, m, y = self.layout, self.model, self.y
        n = self.inst.n
        if lay.pin is not None:
            root = {c: int(c == lay.pin[0]) for c in lay.cells}
        else:
            root = {c: m.new_bool_var(f"root{c}") for c in lay.cells}
            m.add(sum(root.values()) == 1)
            for c in lay.cells:
                m.add_implication(root[c], y[c])
        inflow: dict = {c: [] for c in lay.cells}
        outflow: dict = {c: [] for c in lay.cells}
        for a, _d, b in lay.pairs:
            e = self.shared[a, b]
            for u, v in ((a, b), (b, a)):
                f = m.new_int_var(0, n - 1, f"f{u}{v}")
                m.add(f <= (n - 1) * e)
                outflow[u].append(f)
                inflow[v].append(f)
        for c in lay.cells:
            m.add(sum(inflow[c]) - sum(outflow[c]) == y[c] - n * root[c])

    # ------------------------------------------------------------------ goals
    def _goals(self, used: list[str]) -> None:
        inst, m = self.inst, self.model
        goals = inst.goals
        if not goals:
            return
        cands = [k for k in candidate_colours(inst) if k in used]
        sel: dict = {}
        for gi, g in enumerate(goals):
            opts = [g.colour] if g.colour != "any" else [
                k for k in cands if k not in inst.goal_colours()]
            if g.colour != "any":
                sel[gi, g.colour] = 1
            else:
                for k in opts:
                    sel[gi, k] = m.new_bool_var(f"sel{gi}_{k}")
                m.add_exactly_one([sel[gi, k] for k in opts])
        for k in cands:
            mine = [(gi, v) for (gi, kk), v in sel.items() if kk == k]
            if not mine:
                continue
            if all(_true(v) for _, v in mine):
                active, line = 1, int(goals[mine[0][0]].kind == "line")
            else:
                m.add(sum(v for _, v in mine) <= 1)
                active = m.new_bool_var(f"active_{k}")
                m.add(sum(v for _, v in mine) == active)
                lines = [v for gi, v in mine if goals[gi].kind == "line"]
                line = m.new_bool_var(f"line_{k}") if lines else 0
                if lines:
                    m.add(sum(lines) == line)
            self._route(k, active, line)

    def _route(self, k: str, active, line) -> None:
        """One circuit for colour k: a loop, or a line closed through a dummy node."""
        lay, m, y, z = self.layout, self.model, self.y, self.z
        node = {c: i for i, c in enumerate(lay.cells)}
        dummy = len(node)
        arcs = []
        directed: dict = {}  # (cell, neighbour) -> arc literal
        carries: dict = {}
        for c in lay.cells:
            terms = [v for (_c, t, rot), v in self.at[c] if k in cat.colours(t)]
            h = m.new_bool_var(f"h{c}_{k}")
            m.add(sum(terms) == h)
            carries[c] = self._and([h, active], f"on{c}_{k}")
            if not _true(carries[c]):
                arcs.append((node[c], node[c], self._not(carries[c])))
        # links between touching cells both showing k
        for a, d, b in lay.pairs:
            za, zb = z[a, d, k], z[b, hx.opposite(d), k]
            link = self._and([za, zb, active], f"l{a}{b}_{k}")
            if _false(link):
                continue
            fw, bw = m.new_bool_var(f"a{a}{b}_{k}"), m.new_bool_var(f"a{b}{a}_{k}")
            m.add(fw + bw == link)
            arcs += [(node[a], node[b], fw), (node[b], node[a], bw)]
            directed[a, b], directed[b, a] = fw, bw
        # open ends: colour k shown towards an empty or outside cell
        ends: dict = {c: [] for c in lay.cells}
        loop_on = active if _false(line) else self._and([active, self._not(line)], f"loop_{k}")
        for c in lay.cells:
            for d in range(6):
                zc = z[c, d, k]
                if _false(zc):
                    continue
                nb = hx.neighbour(c, d)
                free = y[nb].Not() if nb in y else 1
                self._implies_if(zc, loop_on, y[nb] if nb in y else 0)
                if _false(line):
                    continue
                ends[c].append(self._and([zc, free, line, active], f"end{c}_{d}_{k}"))
        if not _false(line):
            all_ends = [v for vs in ends.values() for v in vs]
            two = m.add(sum(all_ends) == 2)
            if not _true(line):
                two.only_enforce_if(line)
            for c in lay.cells:
                if not ends[c]:
                    continue
                into, out = m.new_bool_var(f"in{c}_{k}"), m.new_bool_var(f"out{c}_{k}")
                m.add(into + out == sum(ends[c]))
                arcs += [(dummy, node[c], into), (node[c], dummy, out)]
            arcs.append((dummy, dummy, self._not(line)))
        else:
            arcs.append((dummy, dummy, 1))
        on_nodes = [v for v in carries.values() if not _false(v)]
        need = m.add(sum(on_nodes) >= 1)  # the empty circuit is no loop
        if not _true(active):
            need.only_enforce_if(active)
        m.add_circuit([(u, v, self._lit(lit)) for u, v, lit in arcs])
        if _true(active) and _false(line):
            self._orient(k, directed, carries)

    def _orient(self, k: str, directed: dict, carries: dict) -> None:
        """Redundant rules for a loop of fixed colour k, traversed along the circuit's arcs:
        p[c, i, j] says the loop enters c through edge i and leaves through edge j; the turns
        add up to one full clockwise or anticlockwise turn, and every edge on the loop's
        inner side faces a tile (no holes inside the loop)."""
        lay, m, y = self.layout, self.model, self.y
        cw = m.new_bool_var(f"cw_{k}")
        if lay.pin is None:
            # without a pinned tile both traversals of every loop are solutions: keep the
            # clockwise one (on a fixed board ten times fewer conflicts for challenge 40)
            m.add(cw == 1)
        turns = []
        for c in lay.cells:
            if _false(carries[c]):
                continue
            ins = {i: directed.get((hx.neighbour(c, i), c)) for i in range(6)}
            outs = {j: directed.get((c, hx.neighbour(c, j))) for j in range(6)}
            arcs_here: dict = {}
            for (_c, t, rot), v in self.at[c]:
                ends = cat.arc(t, rot, k)
                if ends is not None:
                    arcs_here.setdefault(frozenset(ends), []).append(v)
            p: dict = {}
            for pair in arcs_here:
                i, j = sorted(pair)
                for a, b in ((i, j), (j, i)):
                    if ins[a] is not None and outs[b] is not None:
                        p[a, b] = m.new_bool_var(f"p{c}_{a}{b}_{k}")
            for i in range(6):
                row = [v for (a, _b), v in p.items() if a == i]
                if ins[i] is not None:
                    m.add(sum(row) == ins[i])
                col = [v for (_a, b), v in p.items() if b == i]
                if outs[i] is not None:
                    m.add(sum(col) == outs[i])
            for pair, xs in arcs_here.items():
                i, j = sorted(pair)
                m.add(sum(xs) == sum(p.get(ab, 0) for ab in ((i, j), (j, i))))
            for (i, j), v in p.items():
                turns.append(TURN[(j - i - 3) % 6] * v)
                for e in range(1, 6):
                    d = (j + e) % 6
                    if d == i:
                        break
                    self._implies_if(v, cw, y.get(hx.neighbour(c, d), 0))
                for e in range(1, 6):
                    d = (i + e) % 6
                    if d == j:
                        break
                    self._implies_if(v, cw.Not(), y.get(hx.neighbour(c, d), 0))
        m.add(sum(turns) == 12 * cw - 6)
        if lay.pin is not None:  # the pinned tile leaves through the later end of its arc
            c = lay.pin[0]
            ends = cat.arc(lay.pin[1], lay.pin[2], k)
            if ends is not None and (c, hx.neighbour(c, ends[1])) in directed:
                m.add(directed[c, hx.neighbour(c, ends[1])] == 1)

    def _lit(self, v):
        return self.model.new_constant(v) if isinstance(v, int) else v

    # ------------------------------------------------------------------ the runner seam
    def decode(self, value) -> Solution:
        return {c: (t, rot) for (c, t, rot), v in self.x.items() if value(v)}

    def suggest(self, solution: Solution) -> None:
        self.model.clear_hints()
        for (c, t, rot), v in self.x.items():
            self.model.add_hint(v, solution.get(c) == (t, rot))

    def impose(self, partial: Solution) -> None:
        for c, (t, rot) in partial.items():
            v = self.x.get((c, t, rot))
            if v is None:
                self.model.add_bool_or([])  # the partial assignment cannot be honoured here
            else:
                self.model.add(v == 1)


# turn of the loop by (exit - entry - 3) mod 6, in clockwise 60-degree steps
TURN = {0: 0, 1: 1, 2: 2, 4: -2, 5: -1}


def _false(v) -> bool:
    return isinstance(v, int) and v == 0


def _true(v) -> bool:
    return isinstance(v, int) and v == 1


# ---------------------------------------------------------------------- solving
# CP-SAT's workers are differently configured searches; on Tantrix their diversity pays even
# when they share two cores (Discovery 30: 14-17 s with 8 workers, > 60 s with 2).
DEFAULT_WORKERS = 8


def walk_workers(opts: SolveOptions) -> dict:
    """The walk model's workers: copies of one search without LP relaxation, seeded apart,
    one per thread. On Super Genius (2 cores) two such copies found the solution in 2-164 s
    (median 32, seeds 0-9); one copy took 14-282 s (median 90); CP-SAT's own 2-8 worker
    portfolios, with LP workers, found nothing in 60 s."""
    k = opts.thread_count()
    subs = "".join(f'subsolver_params {{ name: "walk{i}" linearization_level: 0 '
                   f'random_seed: {opts.seed * 101 + i} }} ' for i in range(k))
    names = "".join(f'subsolvers: "walk{i}" ' for i in range(k))
    return {"num_workers": k, "linearization_level": 0, "text_format": subs + names}


def workers(opts: SolveOptions, walk: bool = False) -> dict:
    """Solver parameters for --workers N, else for the default thread count (0); an explicit
    --threads is kept."""
    if walk:
        return walk_workers(opts)
    n = OPTIONS.value(opts.params, "workers")
    if n is not None:
        return {"num_workers": n}
    return {"num_workers": DEFAULT_WORKERS} if opts.threads == 0 else {}


def _run(compiled, opts: SolveOptions, enumerate_all: bool, walk: bool = False) -> Outcome:
    if enumerate_all:
        return runner.count(compiled, opts)
    return runner.run(compiled, opts, **workers(opts, walk))


def use_walk(inst: TantrixInstance, opts: SolveOptions) -> bool:
    """`--model auto|cells|walk`: auto takes the walk model for free shapes with a line goal."""
    want = str(opts.params.get("model", "auto")).lower()
    if want not in ("auto", "cells", "walk"):
        raise InputError(f"--model must be auto, cells or walk, got {want!r}")
    if want == "walk" and not cpsat_walk.applies(inst, lines_only=False):
        raise InputError("--model walk needs a free shape and goals of fixed, distinct colours")
    return want == "walk" or (want == "auto" and cpsat_walk.applies(inst))


def build(inst: TantrixInstance, opts: SolveOptions):
    """The one model `export` writes: the score model for --objective, the walk model where
    solving takes it, else the cell model on `export_layout`."""
    if opts.objective in OBJECTIVES:
        from . import cpsat_score

        return cpsat_score.ScoreCpsat(inst)
    if use_walk(inst, opts):
        return cpsat_walk.TantrixWalkCpsat(inst)
    lay, notes = export_layout(inst, opts)
    compiled = TantrixCpsat(lay)
    compiled.export_notes = notes
    return compiled


def solve(inst: TantrixInstance, opts: SolveOptions, enumerate_all: bool = False) -> Outcome:
    """Free shapes: the walk model for line goals, else the hexagon around the pinned tile
    grows until a solution appears."""
    if opts.objective in OBJECTIVES and not enumerate_all:
        from . import cpsat_score

        return cpsat_score.solve(inst, opts)
    if use_walk(inst, opts):
        out = _run(built(opts, lambda: cpsat_walk.TantrixWalkCpsat(inst)), opts, enumerate_all,
                   walk=True)
        out.stats["model"] = "walk"
        return out
    return solve_on_layouts(
        inst, opts, lambda lay, o: _run(built(o, lambda: TantrixCpsat(lay)), o, enumerate_all),
        whole=enumerate_all)


def count(inst: TantrixInstance, opts: SolveOptions) -> Outcome:
    """Every solution with the pinned tile at the origin, unturned, in a region large enough
    for any solution: each class up to translation and rotation then appears once per copy of
    the pinned tile (once when it is used once). The walk model meets each class once per walk
    that states it; the pipeline merges them."""
    return solve(inst, opts, enumerate_all=True)


BACKEND = Backend("cpsat", OPTIONS, solve, objectives=OBJECTIVES, count=count, build=build)
