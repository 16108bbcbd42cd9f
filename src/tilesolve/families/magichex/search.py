"""Our own complete search for magic hexagons: depth-first, lines first, sum bounds.

Cells are taken in the static order of search_order.py (outer ring first, so lines complete
early). A cell may take a free number v only if, on each of its three lines, the rest of the
line can still reach the magic sum: with R the sum still missing and k the free cells left
after this one, R - v must lie between the sum of the k smallest and of the k largest free
numbers. The last free cell of a line is thereby forced. The search is resumable (the
`backends/search.py` runner gives it node budgets), so it serves first-solution races with
seeded value orders and complete enumeration for `--count`.

Without givens and when not counting, the 12 symmetries are broken as in the other models.
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort

from ...backends import search as runner
from ...core.options import NO_SYMMETRY, Options, switch
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions
from .instance import MagicHexInstance
from .search_order import cell_order

OPTIONS = Options(NO_SYMMETRY, runner.restart_option(0))


class LineSearch(runner.Searcher):
    parallel = False  # pure Python: threads would only take turns

    def __init__(self, inst: MagicHexInstance, seed: int | None = None, symmetry: bool = True):
        self.inst = inst
        self.magic = inst.magic
        lines = [cells for _name, cells in inst.lines]
        cells = inst.cells
        index = {c: i for i, c in enumerate(cells)}
        self.lines_of = [[li for li, ln in enumerate(lines) if c in ln] for c in cells]
        self.missing = [self.magic] * len(lines)  # sum still missing on each line
        self.free = [len(ln) for ln in lines]  # unassigned cells on each line
        self.value: list[int | None] = [None] * len(cells)
        self.unused = list(inst.values)  # sorted free numbers
        for c, v in inst.givens.items():
            self._place(index[c], v)
        self.order = [index[c] for c in cell_order(inst) if c not in inst.givens]
        self.rng = random.Random(seed) if seed is not None else None
        # symmetry: (cell, lower-bound cell or None, upper-bound cell or None)
        self.above: dict[int, list[int]] = {}
        if symmetry and not inst.givens and inst.order > 1:
            k = [index[c] for c in inst.corners]
            for other in k[1:]:
                self.above.setdefault(other, []).append(k[0])  # corner 0 is the smallest
            self.above.setdefault(k[5], []).append(k[1])
        self.below = {}
        for hi_cell, los in self.above.items():
            for lo_cell in los:
                self.below.setdefault(lo_cell, []).append(hi_cell)
        self.depth = 0
        self.cands: list[list[int]] = [[] for _ in self.order]
        self.pos = [0] * len(self.order)
        self.started = False
        self.max_depth = 0

    # -------------------------------------------------------------- state changes
    def _place(self, i: int, v: int) -> None:
        self.value[i] = v
        del self.unused[bisect_left(self.unused, v)]
        for li in self.lines_of[i]:
            self.missing[li] -= v
            self.free[li] -= 1

    def _lift(self, i: int) -> None:
        v = self.value[i]
        self.value[i] = None
        insort(self.unused, v)
        for li in self.lines_of[i]:
            self.missing[li] += v
            self.free[li] += 1

    def _candidates(self, i: int) -> list[int]:
        unused = self.unused
        lo, hi = unused[0], unused[-1]
        for li in self.lines_of[i]:
            k = self.free[li] - 1  # free cells left on the line after this one
            r = self.missing[li]
            if k == 0:
                lo, hi = max(lo, r), min(hi, r)
            else:
                lo = max(lo, r - sum(unused[-k:]))
                hi = min(hi, r - sum(unused[:k]))
            if lo > hi:
                return []
        for j in self.above.get(i, ()):
            if self.value[j] is not None:
                lo = max(lo, self.value[j] + 1)
        for j in self.below.get(i, ()):
            if self.value[j] is not None:
                hi = min(hi, self.value[j] - 1)
        out = unused[bisect_left(unused, lo) : bisect_left(unused, hi + 1)]
        if self.rng is not None and len(out) > 1:
            # seeded value order, biased towards the middle of the range
            mid = (self.inst.first + self.inst.last) / 2
            out.sort(key=lambda v: abs(v - mid) + self.rng.random() * len(unused) / 2)
        return out

    # -------------------------------------------------------------- the runner's protocol
    def step(self, budget: int) -> tuple[int, int]:
        """Run up to `budget` nodes: 1 = solution ready, 0 = budget spent, -1 = exhausted."""
        order, cands, pos = self.order, self.cands, self.pos
        if not order:  # everything given
            if self.started:
                return -1, 0
            self.started = True
            return (1 if self._complete_ok() else -1), 0
        if not self.started:
            self.started = True
            cands[0], pos[0] = self._candidates(order[0]), 0
        d, nodes = self.depth, 0
        last = len(order) - 1
        while nodes < budget:
            if d < 0:
                self.depth = d
                return -1, nodes
            i = order[d]
            if self.value[i] is not None:
                self._lift(i)
            if pos[d] >= len(cands[d]):
                d -= 1
                continue
            v = cands[d][pos[d]]
            pos[d] += 1
            self._place(i, v)
            nodes += 1
            if d == last:
                self.depth = d
                return 1, nodes
            d += 1
            if d > self.max_depth:
                self.max_depth = d
            cands[d], pos[d] = self._candidates(order[d]), 0
        self.depth = d
        return 0, nodes

    def _complete_ok(self) -> bool:
        return all(m == 0 for m in self.missing)

    def solution(self) -> Solution:
        return {c: v for c, v in zip(self.inst.cells, self.value, strict=True) if v is not None}


def solve(inst: MagicHexInstance, opts: SolveOptions) -> Outcome:
    symmetry = not (opts.fix or switch(opts.params, "no_symmetry", False))
    restart = OPTIONS.value(opts.params, "restart")
    if opts.fix:
        inst = fixed_instance(inst, opts.fix)
    out = runner.run(lambda seed: LineSearch(inst, seed, symmetry), opts, restart=restart)
    out.stats["solver"] = "line search"
    return out


def count(inst: MagicHexInstance, opts: SolveOptions) -> Outcome:
    out = runner.count(LineSearch(inst, None, symmetry=False), opts)
    out.stats["solver"] = "line search"
    return out


def fixed_instance(inst: MagicHexInstance, partial: Solution) -> MagicHexInstance:
    """The instance with a partial assignment added to its givens."""
    from dataclasses import replace

    return replace(inst, givens={**inst.givens, **{c: int(v) for c, v in partial.items()}})


BACKEND = Backend("search", OPTIONS, solve, count=count)
