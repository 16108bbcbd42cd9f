"""Edge-matching sets that cannot fill their board, by counting pieces and colours.

Piece kinds must fit the frame (4 corners with two grey sides, borders with one, inner
pieces with none), with or without an objective. For the satisfaction puzzle colours count
too: a frame piece has one grey side (two for a corner); turned so grey faces out, its sides
next to grey run along the frame and meet other frame pieces, and every other side faces in.
So each colour must show an even number of times among frame-running sides, and an even
number of times among the others: every join pairs two sides of one colour.
"""

from __future__ import annotations

from collections import Counter

from .instance import EdgeInstance


def _greys(edges) -> list[int]:
    return [s for s in range(4) if edges[s] == 0]


def reason(inst: EdgeInstance, objective: str | None = None) -> str | None:
    if min(inst.width, inst.height) < 2:
        return None
    w, h = inst.width, inst.height
    kinds: Counter = Counter()
    along: Counter = Counter()  # colours on sides running along the frame
    inward: Counter = Counter()  # colours on every other side
    for p, edges in enumerate(inst.pieces, start=1):
        grey = _greys(edges)
        if len(grey) > 2 or (len(grey) == 2 and (grey[1] - grey[0]) % 2 == 0):
            return f"piece {p} has grey on {len(grey)} sides that no cell of a {w}x{h} " \
                   "frame shows"
        kinds[len(grey)] += 1
        runs = {(s + d) % 4 for s in grey for d in (1, 3)} - set(grey)
        for s in range(4):
            if edges[s] != 0:
                (along if s in runs else inward)[edges[s]] += 1
    want = {2: 4, 1: 2 * (w - 2) + 2 * (h - 2), 0: (w - 2) * (h - 2)}
    names = {2: "corner", 1: "border", 0: "inner"}
    for g, count in want.items():
        if kinds[g] != count:
            return f"{kinds[g]} {names[g]} pieces, but a {w}x{h} board has {count} such cells"
    if objective is not None:
        return None  # with `--objective matches` a board with mismatches is an answer too
    for where, counts in (("along the frame", along), ("facing inwards", inward)):
        odd = sorted(c for c, k in counts.items() if k % 2)
        if odd:
            return f"colour {odd[0]} shows {counts[odd[0]]} times on sides {where}; every " \
                   "join needs two"
    return None
