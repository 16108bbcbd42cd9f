"""Edge matching as a MILP (PuLP; CBC by default, HiGHS with `--solver highs`).

Rules, as the model states them:
- a binary x[cell, piece, rot] for every placement the frame rule allows, one per cell and one
  per piece (grey faces exactly the frame by construction of the placement table);
- satisfaction: for every join and colour, the placements showing that colour on one side sum
  to those showing it on the other side; with one placement per cell, that is "the colours
  match";
- optimisation ("matches"): z[join, colour] in [0, 1] is at most each side's sum for that
  colour, and the model maximises the sum of z (one per matched join when x is integral);
- with no fixed piece, the first corner piece is pinned to break the board's rotations.
"""

from __future__ import annotations

import pulp

from ...backends import milp as runner
from ...core import squaregrid as sq
from ...core.errors import InputError
from ...core.limits import building
from ...core.options import NO_SYMMETRY, Options, switch
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions
from .instance import EdgeInstance
from .placements import Placement, PlacementTable

OPTIONS = Options(runner.OPTIONS, NO_SYMMETRY)


def var_name(pl: Placement) -> str:
    (r, c), p, rot = pl
    return f"x_{r}_{c}_{p}_{rot}"


class EdgeMilp(runner.MilpModel):
    def __init__(self, inst: EdgeInstance, objective: str | None = None, symmetry: bool = True):
        self.inst = inst
        self.table = table = PlacementTable(inst)
        self.objective = objective == "matches"
        sense = pulp.LpMaximize if self.objective else pulp.LpMinimize
        prob = self.prob = pulp.LpProblem(f"edgematch_{inst.width}x{inst.height}", sense)
        self.x = {pl: prob.add_variable(var_name(pl), 0, 1, pulp.LpBinary) for pl in table}

        for cell, prs in table.by_cell.items():
            prob += self._sum([(cell, p, r) for p, r in prs]) == 1, f"cell_{cell[0]}_{cell[1]}"
        for p in range(1, inst.n + 1):
            prob += self._sum(table.by_piece[p]) == 1, f"piece_{p}"

        self.z: dict[tuple, pulp.LpVariable] = {}
        for a, s, b in table.joins():
            tag = f"{a[0]}_{a[1]}_{sq.SIDE_NAMES[s]}"
            for k in table.join_colours(a, s, b):
                here = self._sum(table.showing[a, s].get(k, []))
                there = self._sum(table.showing[b, sq.opposite(s)].get(k, []))
                if not self.objective:
                    prob += here - there == 0, f"match_{tag}_{k}"
                    continue
                z = self.z[a, s, k] = prob.add_variable(f"z_{tag}_{k}", 0, 1)
                prob += z - here <= 0, f"agree_{tag}_{k}_a"
                prob += z - there <= 0, f"agree_{tag}_{k}_b"
        if self.objective:
            prob += pulp.LpAffineExpression((z, 1) for z in self.z.values())

        anchor = table.anchor() if symmetry else None
        if anchor:
            prob += self._sum(anchor) == 1, "symmetry"
        self.nogoods = 0

    def _sum(self, placements) -> pulp.LpAffineExpression:
        # LpAffineExpression from pairs is much faster than lpSum on large models
        return pulp.LpAffineExpression((self.x[pl], 1) for pl in placements)

    def decode(self, value) -> Solution:
        return {cell: (p, r) for (cell, p, r), var in self.x.items() if value(var) > 0.5}

    def suggest(self, solution: Solution) -> None:
        values = self.table.board(solution)
        for pl, var in self.x.items():
            var.setInitialValue(values.get(pl, 0))

        def shown(cell, side):
            return self.inst.edges(*solution[cell])[side] if cell in solution else None

        for (a, s, k), z in self.z.items():
            b = sq.neighbour(a, s)
            z.setInitialValue(int(shown(a, s) == k == shown(b, sq.opposite(s))))

    def impose(self, partial: Solution) -> None:
        for cell, (p, r) in partial.items():
            if cell not in self.table.by_cell:
                raise InputError(f"cannot fix a piece at {cell}: outside the board")
            pl = self.table.resolve(cell, p, r)
            name = f"fix_{cell[0]}_{cell[1]}"
            if pl is None:  # not a legal placement: the fixed board has no solution
                prob_row = self._sum((cell, q, s) for q, s in self.table.by_cell[cell]) == 0
            else:
                prob_row = self._sum([pl]) == 1
            self.prob += prob_row, name

    def forbid(self, solution: Solution) -> None:
        chosen = [self.table.resolve(cell, p, r) for cell, (p, r) in solution.items()]
        self.nogoods += 1
        self.prob += self._sum(chosen) <= len(chosen) - 1, f"nogood_{self.nogoods}"


def build(inst: EdgeInstance, opts: SolveOptions) -> EdgeMilp:
    # a fixed or hinted board has its own orientation, which the symmetry row might exclude
    symmetry = not (switch(opts.params, "no_symmetry", False) or opts.fix or opts.hint)
    return EdgeMilp(inst, opts.objective, symmetry=symmetry)


def solve(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    with building(opts):
        compiled = build(inst, opts)
    return runner.run(compiled, opts)


def count(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    # every solution, so no symmetry breaking
    with building(opts):
        compiled = EdgeMilp(inst, symmetry=False)
    return runner.count(compiled, opts)


BACKEND = Backend("milp", OPTIONS, solve, objectives=("matches",), count=count, build=build)
