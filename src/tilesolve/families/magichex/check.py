"""Checking a magic hexagon: every broken rule, and the key of a solution up to symmetry."""

from __future__ import annotations

from collections import Counter

from ...core.report import Report
from ...core.result import Solution
from .instance import MagicHexInstance


def verify(inst: MagicHexInstance, sol: Solution, objective: str | None = None) -> Report:
    """Every violation: empty or foreign cells, numbers out of range, repeated or missing
    numbers, moved givens, and each line whose sum is not the magic constant. Magic hexagons
    score no objective: `objective` is taken as by every family's checker and unused."""
    rep = Report()
    cells = set(inst.cells)
    for c in sorted(set(sol) - cells):
        rep.add("outside", f"cell {c} lies outside the order-{inst.order} hexagon")
    for c in inst.cells:
        if c not in sol:
            rep.add("empty-cell", f"cell {c} is empty")
    placed = {c: v for c, v in sol.items() if c in cells}
    for c, v in sorted(placed.items()):
        if not inst.first <= v <= inst.last:
            rep.add("out-of-range", f"number {v} at {c} is outside {inst.first}..{inst.last}")
    uses = Counter(placed.values())
    for v, k in sorted(uses.items()):
        if k > 1:
            where = sorted(c for c, w in placed.items() if w == v)
            rep.add("repeated-number", f"number {v} appears {k} times, at {where}")
    for v in inst.values:
        if uses[v] == 0:
            rep.add("missing-number", f"number {v} is not placed")
    for c, v in sorted(inst.givens.items()):
        if placed.get(c) != v:
            rep.add("moved-given", f"given {v} must be at {c}, found {placed.get(c, 'nothing')}")
    for name, line in inst.lines:
        if all(c in placed for c in line):
            s = sum(placed[c] for c in line)
            if s != inst.magic_exact:
                rep.add("line-sum", f"{name} {[placed[c] for c in line]} sums to {s}; "
                        f"expected {inst.magic_text}")
    return rep


def canonical(inst: MagicHexInstance, sol: Solution) -> tuple:
    """The smallest of the 12 rotated/reflected images, as a tuple in row order."""
    vals = [sol.get(c) for c in inst.cells]
    images = []
    for perm in inst.symmetries:
        img: list = [None] * len(vals)
        for i, j in enumerate(perm):
            img[j] = vals[i]
        images.append(tuple((v is None, v or 0) for v in img))
    return min(images)

