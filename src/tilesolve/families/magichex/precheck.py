"""Magic hexagons whose givens already rule out the magic sum on some line.

A line with k empty cells can at least add the k smallest unused numbers and at most the k
largest; if even that misses the magic sum, no arrangement exists. (A magic sum that is not
an integer is refused when the file is read.)
"""

from __future__ import annotations

from .instance import MagicHexInstance


def reason(inst: MagicHexInstance, objective: str | None = None) -> str | None:
    free = sorted(set(inst.values) - set(inst.givens.values()))
    for name, cells in inst.lines:
        fixed = sum(inst.givens[c] for c in cells if c in inst.givens)
        k = sum(1 for c in cells if c not in inst.givens)
        low, high = fixed + sum(free[:k]), fixed + sum(free[len(free) - k:])
        if not low <= inst.magic <= high:
            return (f"{name} can only sum to {low}..{high} with its givens, "
                    f"not to the magic {inst.magic}")
    return None
