"""Tantrix as a MILP (PuLP; HiGHS by default on fixed boards, CBC on free shapes, either with
`--solver cbc|highs`), after Kino & Uno's integer-programming model, on a fixed board or, for
free shapes, on a hexagon of cells around a pinned tile that grows until the puzzle fits.

Rules, as the model states them:
- C1: a binary x[cell, tile, rot] for every placement the layout allows; at most one per
  cell (exactly one on a board the tiles fill); y[cell] = the cell's sum;
- C2: every tile type used as often as listed;
- C3: a goal loop colour never faces an empty or outside cell. Placements keep it off the
  region's boundary, which also gives C6 (a cell with only two region neighbours holds a tile
  whose loop colour turns towards both), and across a touching pair the loop colour is shown
  on both sides or on neither: z[a, d, k] = z[b, d+3, k], z being a sum of placements. This
  equality is the link of colour k between a and b;
- C4: the other colours match when both cells are occupied, stated per touching pair with
  u[a, k] = "a shows k towards an empty b": z[a, d, k] - z[b, d+3, k] = u[a, k] - u[b, k],
  u <= z, and sum over k of u[a, k] <= 1 - y[b] (tighter than one row per colour when the
  cells are only fractionally filled);
- C7-C9 (`--c7-c9 on|off`): no loop of 3, 4 or 5 tiles: for each cell set of a short cycle
  of the cell graph, the links of colour k among its cells number at most |S| - 1 (when more
  tiles carry k);
- no small holes: for every set H of up to three cells whose rim lies in the region, a full
  rim forces every cell of H to be filled;
- free shapes (or `--euler on`): shared pairs minus filled triangles equals tiles minus one
  (Euler's formula for a connected, hole-free cluster on the triangulated hex lattice), with
  e = y[a] y[b] and t = y[a] y[b] y[c] linearised; a loop through every tile also has at
  least 2n - 3 shared pairs (n links plus n - 3 inside it). On nearly full boards these rows
  made each round slower than the lazy hole cuts they save, so they are off there;
- C5, lazily (`separate`): a closed loop S of colour k through fewer tiles than carry k is
  cut by "links of colour k among the cells of S <= |S| - 1" (sound: in a solution the
  k-links among a cell set smaller than the loop are paths), for each subloop and each union
  of subloops still smaller than the loop. Holes found are cut at every turned and shifted
  copy in the region; disconnected groups need a tile next to them (see `cuts`).

`--model kino-uno` states the paper's own rows instead (`milp_kino_uno.py`: `--c2 c2|c2prime`,
`--c6 on|off`, `--c7-c9 on|off`), solved and re-solved with C5 cuts, without restarts.
"""

from __future__ import annotations

import dataclasses

import pulp

from ...backends import milp as runner
from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.limits import built
from ...core.options import Option, Options, auto_switch
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions, Status
from .instance import TantrixInstance
from .lazy import (
    Table,
    check_goals,
    hole_copies,
    hole_shapes,
    inner_links,
    loop_groups,
    rim,
    violations,
)
from .milp_kino_uno import C2_FORMS, KinoUnoMilp, check_setting
from .region import (
    RADIUS,
    SHORT_LOOPS,
    Layout,
    choice_option,
    covering_colour,
    export_layout,
    fixed_layout,
    solve_on_layouts,
)

OBJECTIVES = ("longest",)  # Downing's score on a fixed board: `milp_score`
MODELS = ("ours", "kino-uno")
CONNECT = ("flow", "lazy")  # --objective longest: how `milp_score` keeps a picked piece whole
OPTIONS = Options(
    Option("solver", str, None, "cbc or highs (default: highs on fixed boards and for "
           "--objective, cbc on free shapes)", runner.SOLVERS),
    RADIUS,
    Option("euler", auto_switch, None, "Euler's rows for a connected, hole-free cluster (default: "
           "on for free shapes)"),
    Option("short", auto_switch, None, "a loop through every tile has at least 2n - 3 shared "
           "pairs (default: on)"),
    Option("model", str, "ours", "ours, or kino-uno: the paper's own rows", MODELS),
    Option("c2", str, "c2prime", "--model kino-uno: the paper's C2 or C2'", C2_FORMS),
    Option("c6", str, "on", "--model kino-uno: the paper's C6", ("on", "off")),
    SHORT_LOOPS,
    Option("connect", str, "flow", "--objective longest: one picked piece per goal by a flow, "
           "or by lazy cuts", CONNECT),
)


def _tag(*cells) -> str:
    return "_".join(f"{q}_{r}" for q, r in cells).replace("-", "m")


def _flag(opts: SolveOptions, name: str, default: bool) -> bool:
    """An on/off/auto option; auto (or none) is `default`."""
    val = OPTIONS.value(opts.params, name)
    return default if val is None else val


class TantrixMilp(runner.MilpModel):
    lazy = "subloop cuts (each goal colour one loop, no separate smaller loops)"

    def __init__(self, layout: Layout, euler: bool = True, short: bool = True,
                 short_loops: bool = True):
        self.table = table = Table(layout)
        self.layout = lay = layout
        inst = lay.inst
        prob = self.prob = pulp.LpProblem("tantrix", pulp.LpMinimize)
        self.x = {pl: prob.add_variable(f"x_{_tag(pl[0])}_{pl[1]}_{pl[2]}", 0, 1, pulp.LpBinary)
                  for pls in table.at.values() for pl in pls}
        self.y = {c: self._sum(pls) for c, pls in table.at.items()}
        for c, y in self.y.items():
            filled = lay.all_filled or (lay.pin is not None and c == lay.pin[0])
            prob += (y == 1) if filled else (y <= 1), f"cell_{_tag(c)}"
        by_tile: dict[int, list] = {}
        for pl in self.x:
            by_tile.setdefault(pl[1], []).append(pl)
        for t, n in inst.counts().items():
            prob += self._sum(by_tile.get(t, [])) == n, f"tile_{t}"

        open_a: dict = {}
        open_b: dict = {}
        for i, (a, d, b) in enumerate(lay.pairs):
            for k in table.colours():
                za, zb = self.z(a, d, k), self.z(b, hx.opposite(d), k)
                if za.isNumericalConstant() and zb.isNumericalConstant():
                    continue
                if k in table.loops:  # C3 on both sides: the link exists on both or neither
                    prob += za == zb, f"link_{i}_{k}"
                    continue
                # u: colour k shown by one side towards an empty other side
                ua = prob.add_variable(f"ua_{i}_{k}", 0, 1)
                ub = prob.add_variable(f"ub_{i}_{k}", 0, 1)
                prob += za - zb - ua + ub == 0, f"match_{i}_{k}"
                prob += ua - za <= 0, f"uza_{i}_{k}"
                prob += ub - zb <= 0, f"uzb_{i}_{k}"
                open_a.setdefault(i, []).append(ua)
                open_b.setdefault(i, []).append(ub)
        for i, (a, _d, b) in enumerate(lay.pairs):
            if i in open_a:
                prob += pulp.lpSum(open_a[i]) + self.y[b] <= 1, f"opena_{i}"
                prob += pulp.lpSum(open_b[i]) + self.y[a] <= 1, f"openb_{i}"
        if short and short_loops:
            self._short_loops()
        if short:
            self._small_holes()
        if euler and not lay.all_filled:
            self._euler()

    def _sum(self, pls) -> pulp.LpAffineExpression:
        return pulp.LpAffineExpression((self.x[pl], 1) for pl in pls)

    def z(self, cell, d: int, k: str) -> pulp.LpAffineExpression:
        return self._sum(self.table.showing.get((cell, d, k), []))

    def links(self, k: str, cells: set) -> pulp.LpAffineExpression:
        """Links of loop colour k among `cells` (a link is its z on the lower side)."""
        return pulp.lpSum(self.z(a, d, k) for a, d in inner_links(self.layout, cells))

    def _short_loops(self) -> None:
        """C7-C9: no closed loop through the cells of a short cycle."""
        sets = {frozenset(cyc) for cyc in self.table.short_cycles()}
        for cells in sorted(sets, key=sorted):
            for k in sorted(self.table.loops):
                if self.table.need[k] > len(cells):
                    self.prob += (self.links(k, set(cells)) <= len(cells) - 1,
                                  f"short_{k}_{_tag(*sorted(cells))}")

    def _small_holes(self) -> None:
        """No hole of up to three cells: around such cells, not every tile present."""
        for hole in hole_shapes(self.layout, 3):
            for i, row in enumerate(self.hole_rows(hole)):
                self.prob += row, f"hole_{i}_{_tag(*sorted(hole))}"

    def hole_rows(self, hole) -> list:
        """If every cell around `hole` holds a tile, so does every cell of it (or it is a
        hole); a cell of it outside the region stays empty, so the rim cannot be full."""
        around = rim(set(hole))
        total = pulp.lpSum(self.y[c] for c in around)
        inside = [c for c in sorted(hole) if c in self.y]
        if len(inside) < len(hole):
            return [total <= len(around) - 1]
        return [total - self.y[c] <= len(around) - 1 for c in inside]

    def _euler(self) -> None:
        """Shared pairs minus filled triangles equals tiles minus one (e = y[a] y[b] and
        t = y[a] y[b] y[c] linearised); a loop through every tile has at least 2n - 3 shared
        pairs."""
        lay, prob, y = self.layout, self.prob, self.y
        n = lay.inst.n
        e = []
        for a, _d, b in lay.pairs:
            v = prob.add_variable(f"e_{_tag(a, b)}", 0, 1)
            e.append(v)
            prob += v - y[a] - y[b] >= -1, f"ec_{_tag(a, b)}"
            prob += v - y[a] <= 0, f"ea_{_tag(a, b)}"
            prob += v - y[b] <= 0, f"eb_{_tag(a, b)}"
        tris = []
        for cells in lay.triangles:
            v = prob.add_variable(f"t_{_tag(*cells)}", 0, 1)
            tris.append(v)
            for j, c in enumerate(cells):
                prob += v - y[c] <= 0, f"t{j}_{_tag(*cells)}"
            prob += v - pulp.lpSum(y[c] for c in cells) >= -2, f"tc_{_tag(*cells)}"
        shared = pulp.lpSum(e)
        prob += shared - pulp.lpSum(tris) == n - 1, "euler"
        cover = covering_colour(lay.inst)
        if cover is not None and cover in self.table.loops:
            prob += shared >= 2 * n - 3, "loop_chords"

    # ------------------------------------------------------------------ the runner seam
    def decode(self, value) -> Solution:
        return {c: (t, rot) for (c, t, rot), v in self.x.items() if value(v) > 0.5}

    def violated_cuts(self, solution: Solution) -> list:
        return cuts(self, solution)

    def suggest(self, solution: Solution) -> None:
        for (c, t, rot), v in self.x.items():
            v.setInitialValue(int(solution.get(c) == (t, rot)))

    def impose(self, partial: Solution) -> None:
        for i, (c, tr) in enumerate(sorted(partial.items())):
            if c not in self.y:
                raise InputError(f"cannot fix a tile at {c}: outside the board")
            pl = (c, *tr)
            # an impossible placement: a cell count below zero makes the model infeasible
            row = self._sum([pl]) == 1 if pl in self.x else self.y[c] <= -1
            self.prob += row, f"fix_{i}"

    def forbid(self, solution: Solution) -> None:
        chosen = self._sum((c, *tr) for c, tr in solution.items())
        self.prob += chosen <= len(solution) - 1, f"nogood_{self.prob.numConstraints()}"


def cuts(m: TantrixMilp, sol: Solution) -> list:
    """Linear cuts for what the board violates (sound for every solution, see the module
    docstring): a hole H is empty only if some tile around it is missing or some cell of H
    in the region is filled; a group G of tiles all present needs a tile next to it."""
    found = violations(m.table, sol)
    out = []
    for k, cells in loop_groups(m.table, found):
        out.append((m.links(k, cells) <= len(cells) - 1, f"subloop_{k}"))
    for _rim, _inside, hole in found.holes:
        for h in hole_copies(m.layout, hole):
            out += [(row, "hole") for row in m.hole_rows(h)]
    for group, around in found.parts:
        expr = pulp.lpSum(m.y[c] for c in group) - pulp.lpSum(m.y[c] for c in around)
        out.append((expr <= len(group) - 1, "apart"))
    return out


FIRST_SLICE = 30.0  # seconds before the first restart; each later slice is twice as long


def run_restarting(compiled: TantrixMilp, opts: SolveOptions) -> Outcome:
    """The lazy-cut loop in time slices of growing length, each with a new seed: a round
    that gets lost in a bad part of the search tree is abandoned, and the cuts found so far
    stay in the model (the run times of these feasibility MILPs vary widely with the seed)."""
    totals: dict = {"rounds": 0, "cuts": 0, "restarts": 0, "round_seconds": []}
    piece, seed, sub = FIRST_SLICE, opts.seed, opts
    while True:
        left = opts.remaining()  # model building counts
        limit = piece if left is None else max(0.01, min(piece, left))
        out = runner.run(compiled, dataclasses.replace(sub, time_limit=limit, seed=seed))
        for key in ("rounds", "cuts"):
            totals[key] += int(out.stats.get(key, 0))
        totals["round_seconds"] = totals["round_seconds"] + out.stats.get("round_seconds", [])
        out.stats.update(totals)
        if out.status != Status.TIMEOUT or opts.stopped() or limit < piece:
            return out
        totals["restarts"] += 1
        piece, seed, sub = 2 * piece, seed + 1, dataclasses.replace(opts, fix=None)


def build(inst: TantrixInstance, opts: SolveOptions) -> TantrixMilp:
    """The default model on `export_layout`, with the rows it starts from (no lazy cuts)."""
    if opts.objective in OBJECTIVES:
        from .milp_score import ScoreMilp

        return ScoreMilp(inst, choice_option(opts, "connect", CONNECT, "flow"))
    check_goals(inst, "milp")
    lay, notes = export_layout(inst, opts)
    compiled = TantrixMilp(lay, euler=inst.shape == "free")
    compiled.export_notes = notes
    return compiled


def solve(inst: TantrixInstance, opts: SolveOptions) -> Outcome:
    if opts.objective in OBJECTIVES:
        from . import milp_score

        return milp_score.solve(inst, opts)
    return _solve(inst, opts, count=False)


def count(inst: TantrixInstance, opts: SolveOptions) -> Outcome:
    """Every solution on the fixed board, or with the pinned tile at the origin, unturned, in
    a region large enough for any solution (as the CP-SAT cell model counts them): solve,
    forbid the board, solve again."""
    return _solve(inst, opts, count=True)


def _solve(inst: TantrixInstance, opts: SolveOptions, count: bool) -> Outcome:
    check_goals(inst, "milp")
    model = choice_option(opts, "model", MODELS, "ours")
    c2 = choice_option(opts, "c2", C2_FORMS, "c2prime")
    c6 = choice_option(opts, "c6", ("on", "off"), "on") == "on"
    c7_c9 = choice_option(opts, "c7_c9", ("on", "off"), "on") == "on"
    if inst.shape != "free":
        # challenge 40 (exact board, four cell orders): HiGHS closed the lazy loop in 10-68 s
        # every time, CBC in 2-72 s three times out of four; free shapes: CBC was faster
        opts = runner.unless_named(opts, "highs")
    if model == "kino-uno":
        check_setting(inst)
        compiled = built(opts, lambda: KinoUnoMilp(fixed_layout(inst), c2, c6, c7_c9))
        return runner.count(compiled, opts) if count else solve_kino_uno(compiled, opts)
    if c2 == "c2" or not c6:
        raise InputError("--c2 c2 and --c6 off need --model kino-uno (the default model keeps "
                         "one variable per tile type and folds C3 and C6 into its placements)")
    # Euler's rows make each round harder; they pay where most of the region stays empty
    euler, short = _flag(opts, "euler", inst.shape == "free"), _flag(opts, "short", True)
    run = runner.count if count else run_restarting
    return solve_on_layouts(
        inst, opts, lambda lay, o: run(built(o, lambda: TantrixMilp(lay, euler, short, c7_c9)), o),
        whole=count)


def solve_kino_uno(compiled: KinoUnoMilp, opts: SolveOptions) -> Outcome:
    """The paper's loop: solve, add C5 for the subloops found, solve again (no restarts);
    `loops` lists the designated loops of each round's board."""
    out = runner.run(compiled, opts)
    out.stats["loops"] = compiled.loops
    return out


BACKEND = Backend("milp", OPTIONS, solve, objectives=OBJECTIVES, count=count, build=build)
