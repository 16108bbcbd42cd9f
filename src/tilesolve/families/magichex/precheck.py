"""Magic hexagons whose givens already rule out the magic sum on some line.

A line with k empty cells can at least add the k smallest unused numbers and at most the k
largest; if even that misses the magic sum, no arrangement exists. Before that: lines of
integers cannot sum to a fraction, so a first number whose magic sum is not an integer has no
arrangement at all.
"""

from __future__ import annotations

from .instance import MagicHexInstance, no_integer_sum


def reason(inst: MagicHexInstance, objective: str | None = None) -> str | None:
    if inst.magic_exact.denominator != 1:
        return no_integer_sum(inst.order, inst.first)
    free = sorted(set(inst.values) - set(inst.givens.values()))
    for name, cells in inst.lines:
        fixed = sum(inst.givens[c] for c in cells if c in inst.givens)
        k = sum(1 for c in cells if c not in inst.givens)
        low, high = fixed + sum(free[:k]), fixed + sum(free[len(free) - k:])
        if not low <= inst.magic <= high:
            return (f"{name} can only sum to {low}..{high} with its givens, "
                    f"not to the magic {inst.magic}")
    return None
