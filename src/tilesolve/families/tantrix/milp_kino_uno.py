"""Kino & Uno's integer program for fixed-board Tantrix, row for row (`--model kino-uno`).

The paper's setting: a board with exactly one place per tile and one goal loop of a named
colour (the designated colour). Its rows, on places j, edges l and orientations k:

- x[i, j, k] binary for every tile i, place j and orientation k; i runs over the n tiles
  (C2, `--c2 c2`: each tile once, 6 n^2 variables) or over the tile types (C2', `--c2
  c2prime`: type i used as often as listed, 6 n n' variables);
- y[j, l] = sum c(i, k, l) x[i, j, k], the colour code shown at edge l of place j: 3 for the
  designated colour, 1 and 2 for the others;
- C1 one tile per place; C2 or C2'; C3 1 <= y[j, l] <= 2 on the board's boundary; C4
  y[j, l] = y[j', l'] across every touching pair; objective x of the first variable (a
  placeholder, as in the paper);
- C5, lazily: for every subloop S of a decoded board, the designated lines cross the cut
  around S at least twice: sum over the cut's edges of z[j, l] >= 2, with z[j, l] in {0, 1},
  z <= y / 2 - 1 / 2 and z >= y - 2 (so z = 1 exactly when y = 3);
- C6 (`--c6 on`): a place with only two neighbours on the board shows the designated colour
  towards both, and they towards it: four rows y = 3;
- C7-C9 (`--c7-c9 on`, for more than 5 tiles, as the paper): no loop of 3, 4 or 5 tiles, stated as
  the paper does, as forbidden arrangements of designated lines on two or three touching
  places: two 120-degree lines turning around the vertex two touching places share (C7); two
  60-degree lines bending around the edge between two touching places (C8); on three
  mutually touching places, a straight line on one and 60-degree lines on the other two
  bending around it (C9). Each arrangement forces the short loop, so at most all but one of
  its placements may be chosen.

Unlike the default model (`milp.py`), nothing is folded into the placements: C3 and C6 are
rows, so `--c6 off` gives the paper's Tables 1-3 and `--c6 on` its Tables 4-5.
"""

from __future__ import annotations

import pulp

from ...backends.milp import MilpModel
from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.result import Solution
from . import catalogue as cat
from .check import colour_lines
from .instance import TantrixInstance
from .region import Layout

C2_FORMS = ("c2", "c2prime")


def check_setting(inst: TantrixInstance) -> str:
    """The designated colour, or a one-line refusal outside the paper's setting."""
    loops = [g for g in inst.goals if g.kind == "loop" and g.colour != "any"]
    full = inst.shape == "board" and len(inst.board) == inst.n
    if not full or len(inst.goals) != 1 or not loops:
        raise InputError("--model kino-uno needs the paper's setting: a board with one place "
                         "per tile and one goal loop of a named colour")
    return loops[0].colour


def _arc(edges: tuple[str, ...], colour: str) -> frozenset[int]:
    return frozenset(d for d, k in enumerate(edges) if k == colour)


def _around(d: int) -> frozenset[int]:
    """The two edges beside edge d: a 60-degree line bending around it."""
    return frozenset(((d - 1) % 6, (d + 1) % 6))


class KinoUnoMilp(MilpModel):
    lazy = "C5 subloop cuts"

    def __init__(self, layout: Layout, c2: str = "c2prime", c6: bool = True,
                 c7_c9: bool = True):
        inst = layout.inst
        self.layout = lay = layout
        self.colour = colour = check_setting(inst)
        others = [k for k in cat.COLOURS if k != colour]
        self.code = {colour: 3, **{k: i + 1 for i, k in enumerate(others)}}
        # tiles: every copy on its own (C2) or one entry per type with its count (C2')
        counts = inst.counts()
        if c2 == "c2":
            self.tiles = [(i, t, 1) for i, t in enumerate(sorted(inst.tiles))]
        else:
            self.tiles = [(i, t, counts[t]) for i, t in enumerate(inst.types())]
        prob = self.prob = pulp.LpProblem("tantrix_kino_uno", pulp.LpMinimize)
        self.x = {(i, j, k): prob.add_variable(f"x_{i}_{j}_{k}", 0, 1, pulp.LpBinary)
                  for i, _t, _n in self.tiles for j in range(len(lay.cells)) for k in range(6)}
        self.tile_of = {i: t for i, t, _n in self.tiles}
        self.loops: list[int] = []  # designated loops of each decoded board
        prob += next(iter(self.x.values()))  # the paper's placeholder objective x[1, 1, 1]
        cells = lay.cells
        for j in range(len(cells)):
            prob += pulp.lpSum(self.x[i, j, k] for i, _t, _n in self.tiles
                               for k in range(6)) == 1, f"C1_{j}"
        for i, _t, n in self.tiles:
            prob += pulp.lpSum(self.x[i, j, k] for j in range(len(cells))
                               for k in range(6)) == n, f"C2_{i}"
        self.z: dict[tuple[int, int], pulp.LpVariable] = {}
        for j, c in enumerate(cells):
            for d in range(6):
                nb = hx.neighbour(c, d)
                if not lay.inside(nb):
                    prob += self.y(j, d) <= 2, f"C3_{j}_{d}"
                    prob += self.y(j, d) >= 1, f"C3lo_{j}_{d}"
                elif d < 3:
                    prob += self.y(j, d) == self.y(lay.index[nb], hx.opposite(d)), f"C4_{j}_{d}"
        if c6:
            self._c6()
        if c7_c9:
            self._c7_c9()

    # ------------------------------------------------------------------ expressions
    def y(self, j: int, d: int) -> pulp.LpAffineExpression:
        return pulp.lpSum(self.code[cat.edges(t, k)[d]] * self.x[i, j, k]
                          for i, t, _n in self.tiles for k in range(6))

    def with_arc(self, j: int, ends: frozenset[int]) -> list[pulp.LpVariable]:
        """Placements on place j whose designated line joins exactly these two edges."""
        return [self.x[i, j, k] for i, t, _n in self.tiles for k in range(6)
                if _arc(cat.edges(t, k), self.colour) == ends]

    def zvar(self, j: int, d: int) -> pulp.LpVariable:
        """z[j, d] = 1 exactly when edge d of place j shows the designated colour."""
        if (j, d) not in self.z:
            v = self.z[j, d] = self.prob.add_variable(f"z_{j}_{d}", 0, 1, pulp.LpBinary)
            self.prob += 2 * v - self.y(j, d) <= -1, f"zhi_{j}_{d}"
            self.prob += v - self.y(j, d) >= -2, f"zlo_{j}_{d}"
        return self.z[j, d]

    # ------------------------------------------------------------------ C6-C9
    def _c6(self) -> None:
        lay = self.layout
        for j, c in enumerate(lay.cells):
            inner = [d for d in range(6) if lay.inside(hx.neighbour(c, d))]
            if len(inner) != 2:
                continue
            for d in inner:
                j2 = lay.index[hx.neighbour(c, d)]
                self.prob += self.y(j, d) == 3, f"C6_{j}_{d}"
                self.prob += self.y(j2, hx.opposite(d)) == 3, f"C6n_{j}_{d}"

    def _c7_c9(self) -> None:
        lay, n, prob = self.layout, self.layout.inst.n, self.prob
        if n <= 5:  # the paper adds C7-C9 "for challenge number greater than 5" (Figure 13)
            return
        for a, d, b in lay.pairs:
            ja, jb = lay.index[a], lay.index[b]
            # C7: 120-degree lines around either vertex the two places share
            for e, f in ((frozenset((d, (d + 1) % 6)), frozenset(((d + 2) % 6, (d + 3) % 6))),
                         (frozenset(((d - 1) % 6, d)), frozenset(((d + 3) % 6, (d + 4) % 6)))):
                prob += (pulp.lpSum(self.with_arc(ja, e) + self.with_arc(jb, f)) <= 1,
                         f"C7_{ja}_{jb}_{min(e)}_{max(e)}")
            # C8: 60-degree lines bending around the shared edge
            prob += (pulp.lpSum(self.with_arc(ja, _around(d))
                                + self.with_arc(jb, _around(hx.opposite(d)))) <= 1,
                     f"C8_{ja}_{jb}")
        # C9: a straight line on one of three touching places, 60-degree on the other two
        for tri in lay.triangles:
            for x in tri:
                p, q = (c for c in tri if c != x)
                dp, dq = _direction(x, p), _direction(x, q)
                first = dp if (dp + 1) % 6 == dq else dq  # dq, dp are neighbouring edges
                straight = frozenset(((first - 1) % 6, (first + 2) % 6))
                rows = (self.with_arc(lay.index[x], straight)
                        + self.with_arc(lay.index[p], _around(_direction(p, x)))
                        + self.with_arc(lay.index[q], _around(_direction(q, x))))
                name = "_".join(str(lay.index[c]) for c in (x, p, q))
                prob += pulp.lpSum(rows) <= 2, f"C9_{name}"

    # ------------------------------------------------------------------ the runner seam
    def decode(self, value) -> Solution:
        return {self.layout.cells[j]: (self.tile_of[i], k)
                for (i, j, k), v in self.x.items() if value(v) > 0.5}

    def suggest(self, solution: Solution) -> None:
        """Start values: each placed tile on its place (copies of a tile taken in turn)."""
        copies: dict[int, list[int]] = {}
        for i, t in self.tile_of.items():
            copies.setdefault(t, []).append(i)
        start, taken = set(), dict.fromkeys(copies, 0)
        for c, (t, k) in sorted(solution.items()):
            if c in self.layout.index and t in copies:
                start.add((copies[t][taken[t] % len(copies[t])], self.layout.index[c], k))
                taken[t] += 1
        for key, var in self.x.items():
            var.setInitialValue(int(key in start))

    def forbid(self, solution: Solution) -> None:
        """Not this board: every copy of its tiles counts (C2 numbers each copy)."""
        lay = self.layout
        chosen = pulp.lpSum(self.x[i, lay.index[c], k] for c, (t, k) in solution.items()
                            for i, tt in self.tile_of.items() if tt == t)
        self.prob += chosen <= len(solution) - 1, f"nogood_{self.prob.numConstraints()}"

    def violated_cuts(self, sol: Solution) -> list:
        """C5 for every subloop: the cut around its places must be crossed twice."""
        lay = self.layout
        lines = colour_lines(sol, self.colour)
        self.loops.append(len(lines.pieces))
        if len(lines.pieces) <= 1:
            return []
        out, seen = [], set()
        for piece in lines.pieces:
            side = frozenset(piece)
            rest = frozenset(lay.cells) - side
            if min(side, rest, key=sorted) in seen:
                continue
            seen.add(min(side, rest, key=sorted))
            cut = [(lay.index[c], d) for c in sorted(side) for d in range(6)
                   if lay.inside(hx.neighbour(c, d)) and hx.neighbour(c, d) not in side]
            out.append((pulp.lpSum(self.zvar(j, d) for j, d in cut) >= 2, "C5"))
        return out


def _direction(a, b) -> int:
    return hx.DIRECTIONS.index((b[0] - a[0], b[1] - a[1]))
