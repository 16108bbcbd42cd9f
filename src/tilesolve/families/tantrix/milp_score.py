"""The MILP's --objective longest: Downing's score maximised on a fixed board.

The placement rows of `milp.TantrixMilp` (x[cell, tile, rot], tile counts, the golden rule)
on the full board of `score_pick.score_layout`, the same board CP-SAT's `cpsat_score` fills,
and per goal colour k the picked piece of `score_pick` as rows (one block per rule below).
One piece (`--connect`):
- flow (default): a single-commodity flow from one root among the picked cells, along
  k-links between picked cells, delivers one unit to every other picked cell. Every
  incumbent is one piece, so a run stopped early holds a valid board scored at least its
  objective, and the solver's bound is a sound bound on this board at every point;
- lazy: no flow; an incumbent whose picked cells lie on several pieces gets the cuts of
  `score_pick.apart` and the model is re-solved (stats `rounds`, `cuts`). A rejected
  incumbent is still a valid placement: a stopped run returns it, scored by the checker.
Why flow by default (HiGHS, one thread, wall seconds on a loaded machine): on 5-cell boards
(two goals) flow proved the optimum in 0.5 and 1.6 s, lazy in 1.3 and 2.7 s; on the 7-cell
board with a loop and a line goal flow proved 10 in 5.2 s, lazy in 14.2 s (12 rounds); with
three line goals flow held the optimum 15 at 20 s, lazy a board of 14; ten tiles, three line
goals, 25 s: flow 20, lazy 12 (9 rounds, 96 cuts). Only ten tiles with three loop goals went
the other way (lazy proved 13 in 8 s, flow in 18 s).

An optimum on a chosen board is reported FEASIBLE for a free shape (other shapes may score
more), SOLVED where the instance fixes the board.
"""

from __future__ import annotations

import pulp

from ...backends import milp as runner
from ...core.limits import built
from ...core.result import Outcome, Solution, SolveOptions
from . import catalogue as cat
from .instance import TantrixInstance
from .milp import CONNECT, TantrixMilp, _tag, choice_option
from .score_pick import Pick, apart, on_board, picks, score_layout


class ScoreMilp(TantrixMilp):
    objective = True

    def __init__(self, inst: TantrixInstance, connect: str = "flow"):
        lay = score_layout(inst, "the MILP")
        # a full board: no holes, no gaps, no goal loops to keep short (the rows are trivial)
        super().__init__(lay, euler=False, short=False, short_loops=False)
        self.lazy = "pieces apart (each goal colour one picked piece)" if connect == "lazy" \
            else ""
        self.connect = connect
        self.on: dict[str, dict] = {}
        self.shown_at: dict = {}
        total = []
        for i, p in enumerate(picks(inst, lay)):
            self.on[p.colour] = self._piece(i, p)
            total += self.on[p.colour].values()
        self.prob.sense = pulp.LpMaximize
        self.prob.setObjective(pulp.lpSum(total))
        self.picked: dict[str, set] = {}

    def shown(self, c, d: int, k: str):
        """A continuous variable equal to z[c, d, k], the sum of the ~110 placements that
        show k there: the closure, end and flow rows use it instead of the sum (on loop56
        the sums gave 604,012 nonzeros and HiGHS presolved them for 7 s)."""
        key = (c, d, k)
        if key not in self.shown_at:
            v = self.shown_at[key] = self.prob.add_variable(f"s_{_tag(c)}_{d}_{k}", 0, 1)
            self.prob += v - self.z(c, d, k) == 0, f"shown_{_tag(c)}_{d}_{k}"
        return self.shown_at[key]

    def _piece(self, i: int, p: Pick) -> dict:
        prob, k = self.prob, p.colour
        # picked cells: on[c] only where the cell's tile carries k
        on = {c: prob.add_variable(f"on{i}_{_tag(c)}", 0, 1, pulp.LpBinary) for c in p.cells}
        for c, v in on.items():
            carriers = [pl for pl in self.table.at[c] if k in cat.colours(pl[1])]
            prob += v - self._sum(carriers) <= 0, f"carry{i}_{_tag(c)}"
        # closure: a picked cell's k-arc crossing a shared edge picks the neighbour too
        # (on a full board the golden rule makes both sides show k: one z serves)
        for a, d, b in p.pairs:
            za = self.shown(a, d, k)
            prob += on[a] + za - on[b] <= 1, f"close{i}_{_tag(a, b)}"
            prob += on[b] + za - on[a] <= 1, f"close{i}_{_tag(b, a)}"
        # a loop is closed: no picked k-arc faces off the board; a line is open: some does
        # (with one piece, an end makes it a line)
        some = prob.add_variable(f"some{i}", 0, 1, pulp.LpBinary)
        for c, v in on.items():
            prob += v - some <= 0, f"some{i}_{_tag(c)}"
        if p.line:
            ends = []
            for c, d in p.outward:
                e = prob.add_variable(f"end{i}_{_tag(c)}_{d}", 0, 1)
                prob += e - on[c] <= 0, f"endon{i}_{_tag(c)}_{d}"
                prob += e - self.shown(c, d, k) <= 0, f"endz{i}_{_tag(c)}_{d}"
                ends.append(e)
            prob += pulp.lpSum(ends) - some >= 0, f"open{i}"
        else:
            for c, d in p.outward:
                prob += on[c] + self.shown(c, d, k) <= 1, f"closed{i}_{_tag(c)}_{d}"
        if self.connect == "flow":
            self._flow(i, p, on, some)
        return on

    def _flow(self, i: int, p: Pick, on: dict, some) -> None:
        """One piece: a root among the picked cells (one when any is picked) sends one unit
        to every other picked cell along k-links between picked cells."""
        prob, k = self.prob, p.colour
        big = len(p.cells) - 1
        root = {c: prob.add_variable(f"root{i}_{_tag(c)}", 0, 1, pulp.LpBinary) for c in on}
        prob += pulp.lpSum(root.values()) - some == 0, f"root{i}"
        flow_in: dict = {c: [] for c in on}
        flow_out: dict = {c: [] for c in on}
        for a, d, b in p.pairs:
            za = self.shown(a, d, k)
            for u, v in ((a, b), (b, a)):
                f = prob.add_variable(f"f{i}_{_tag(u, v)}", 0, big)
                prob += f - big * za <= 0, f"fz{i}_{_tag(u, v)}"
                prob += f - big * on[u] <= 0, f"fu{i}_{_tag(u, v)}"
                prob += f - big * on[v] <= 0, f"fv{i}_{_tag(u, v)}"
                flow_out[u].append(f)
                flow_in[v].append(f)
        for c in on:
            prob += root[c] - on[c] <= 0, f"rooton{i}_{_tag(c)}"
            # a picked cell keeps one unit; the root may also send up to `big`
            prob += (pulp.lpSum(flow_in[c]) - pulp.lpSum(flow_out[c]) - on[c]
                     + (big + 1) * root[c] >= 0, f"bal{i}_{_tag(c)}")
            prob += (pulp.lpSum(flow_in[c]) - pulp.lpSum(flow_out[c]) - on[c] <= 0,
                     f"balmax{i}_{_tag(c)}")

    # ------------------------------------------------------------------ the runner seam
    def decode(self, value) -> Solution:
        self.picked = {k: {c for c, v in on.items() if value(v) > 0.5}
                       for k, on in self.on.items()}
        return super().decode(value)

    def violated_cuts(self, solution: Solution) -> list:
        if self.connect != "lazy":
            return []
        out = []
        for cut in apart(self.layout, solution, self.picked):
            on = self.on[cut.colour]
            lhs = pulp.lpSum(on[c] for c in cut.piece) + on[cut.other]
            crossing = pulp.lpSum(self.shown(c, d, cut.colour) for c, d in cut.border)
            out.append((lhs - crossing <= len(cut.piece), f"apart_{cut.colour}"))
        return out


def solve(inst: TantrixInstance, opts: SolveOptions) -> Outcome:
    connect = choice_option(opts, "connect", CONNECT, "flow")
    # the tests' five-cell board: HiGHS proved 7 in 0.5 s, CBC in 2 s; ten tiles, three
    # loop goals: HiGHS proved 13 in 18 s, CBC had 12 unproved at 25 s
    opts = runner.unless_named(opts, "highs")
    compiled = built(opts, lambda: ScoreMilp(inst, connect))
    out = runner.run(compiled, opts)
    out.stats["connect"] = connect
    return on_board(out, inst, compiled.layout)
