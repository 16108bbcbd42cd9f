"""Tantrix on a fixed board as a MILP (PuLP; CBC by default, HiGHS with `--solver highs`),
after Kino & Uno's integer-programming model.

Rules, as the model states them:
- C1: a binary x[cell, tile, rot] for every placement the layout allows; at most one per
  cell (exactly one on a board the tiles fill); y[cell] = the cell's sum;
- C2': every tile type used as often as listed;
- C3: a goal loop colour never faces an empty cell (placements already keep it off the
  board's boundary, which also gives C6: a cell with two board neighbours turns its loop
  colour towards them);
- C4: on every touching pair, a colour shown by one tile is shown back when the other cell
  is occupied: z[a, d, k] - z[b, d+3, k] + y[b] <= 1, z being a sum of placements;
- C5, lazily (`separate`): a closed loop S of colour k through fewer tiles than carry k is
  cut by "at most |S| - 1 links of colour k between cells of S". Sound: in a solution the
  k-links form ONE cycle through more than |S| tiles, so the links among the cells of S are
  paths, at most |S| - 1 of them; S itself has |S| links. Holes and disconnected groups,
  which the verifier also rejects, are cut lazily too (see `cuts`).
"""

from __future__ import annotations

import pulp

from ...backends import milp as runner
from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.result import Outcome, Solution, SolveOptions
from .lazy import Table, layout_for, violations
from .model import TantrixInstance

PARAMS = ("solver",)


def _name(pl) -> str:
    (q, r), t, rot = pl
    return f"x_{q}_{r}_{t}_{rot}".replace("-", "m")


class TantrixMilp:
    def __init__(self, inst: TantrixInstance):
        self.table = table = Table(layout_for(inst, "milp"))
        lay = table.layout
        prob = self.prob = pulp.LpProblem("tantrix", pulp.LpMinimize)
        self.x = {pl: prob.add_variable(_name(pl), 0, 1, pulp.LpBinary)
                  for pls in table.at.values() for pl in pls}
        self.y = {c: self._sum(pls) for c, pls in table.at.items()}
        for (q, r), y in self.y.items():
            tag = f"{q}_{r}".replace("-", "m")
            prob += (y == 1) if lay.all_filled else (y <= 1), f"cell_{tag}"
        by_tile: dict[int, list] = {}
        for pl in self.x:
            by_tile.setdefault(pl[1], []).append(pl)
        for t, n in inst.counts().items():
            prob += self._sum(by_tile.get(t, [])) == n, f"tile_{t}"

        for i, (a, d, b) in enumerate(lay.pairs):
            for k in table.colours():
                za, zb = self.z(a, d, k), self.z(b, hx.opposite(d), k)
                if za.isNumericalConstant() and zb.isNumericalConstant():
                    continue
                prob += za - zb + self.y[b] <= 1, f"match_{i}_{k}_a"
                prob += zb - za + self.y[a] <= 1, f"match_{i}_{k}_b"
        for k in sorted(table.loops):  # C3: loop colour faces a tile
            for c in lay.cells:
                for d in range(6):
                    nb = hx.neighbour(c, d)
                    z = self.z(c, d, k)
                    if lay.inside(nb) and not z.isNumericalConstant():
                        prob += z - self.y[nb] <= 0, f"face_{len(prob.constraints)}"

    def _sum(self, pls) -> pulp.LpAffineExpression:
        return pulp.LpAffineExpression((self.x[pl], 1) for pl in pls)

    def z(self, cell, d: int, k: str) -> pulp.LpAffineExpression:
        return self._sum(self.table.showing.get((cell, d, k), []))

    # ------------------------------------------------------------------ the runner seam
    def decode(self, value) -> Solution:
        return {c: (t, rot) for (c, t, rot), v in self.x.items() if value(v) > 0.5}

    def separate(self, sol: Solution) -> list:
        return cuts(self, sol)

    def hint(self, solution: Solution) -> None:
        for (c, t, rot), v in self.x.items():
            v.setInitialValue(int(solution.get(c) == (t, rot)))

    def fix(self, partial: Solution) -> None:
        for i, (c, tr) in enumerate(sorted(partial.items())):
            if c not in self.y:
                raise InputError(f"cannot fix a tile at {c}: outside the board")
            pl = (c, *tr)
            # an impossible placement: a cell count below zero makes the model infeasible
            row = self._sum([pl]) == 1 if pl in self.x else self.y[c] <= -1
            self.prob += row, f"fix_{i}"


def cuts(m: TantrixMilp, sol: Solution) -> list:
    """Linear cuts for what the board violates (sound for every solution, see the module
    docstring): a hole H is empty only if some tile around it is missing or some cell of H
    on the board is filled; a group G of tiles all present needs a tile next to it."""
    found = violations(m.table, sol)
    out = []
    for k, inner, _own, size in found.subloops:
        expr = pulp.lpSum(m.z(a, d, k) for a, d in inner)
        out.append((expr <= size - 1, f"subloop_{k}"))
    for rim, inside in found.holes:
        expr = pulp.lpSum(m.y[c] for c in rim) - pulp.lpSum(m.y[c] for c in inside)
        out.append((expr <= len(rim) - 1, "hole"))
    for group, around in found.parts:
        expr = pulp.lpSum(m.y[c] for c in group) - pulp.lpSum(m.y[c] for c in around)
        out.append((expr <= len(group) - 1, "apart"))
    return out


def solve(inst: TantrixInstance, opts: SolveOptions) -> Outcome:
    return runner.run(TantrixMilp(inst), opts)
