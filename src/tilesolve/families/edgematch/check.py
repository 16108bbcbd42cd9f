"""Checking an edge-matching board: every broken rule, and the matched joins it scores."""

from __future__ import annotations

from collections import Counter

from ...core import squaregrid as sq
from ...core.report import Report
from ...core.result import Solution
from .instance import EdgeInstance


def score(inst: EdgeInstance, sol: Solution) -> int:
    """Matched inner joins: both sides present, equal and not grey."""
    total = 0
    for a, side, b in sq.joins(inst.width, inst.height):
        if a in sol and b in sol:
            ca = inst.edges(*sol[a])[side]
            cb = inst.edges(*sol[b])[sq.opposite(side)]
            total += ca == cb and ca != 0
    return total


def verify(inst: EdgeInstance, sol: Solution, objective: str | None = None) -> Report:
    """Every violation: missing/doubled/unknown pieces, empty cells, moved hints, frame, joins.

    With objective 'matches' mismatched joins lower the score instead of invalidating.
    """
    rep = Report()
    w, h = inst.width, inst.height
    extra = sorted(c for c in sol if not sq.inside(c, w, h))
    for c in extra:
        rep.add("outside", f"cell {c} lies outside the {w}x{h} board")
    for cell in inst.cells():
        if cell not in sol:
            rep.add("empty-cell", f"cell {cell} is empty")
    uses = Counter(p for c, (p, _r) in sol.items() if sq.inside(c, w, h))
    for p in range(1, inst.n + 1):
        if uses[p] == 0:
            rep.add("missing-piece", f"piece {p} is not on the board")
        elif uses[p] > 1:
            where = sorted(c for c, (q, _r) in sol.items() if q == p)
            rep.add("doubled-piece", f"piece {p} is placed {uses[p]} times, at {where}")
    for p in sorted(set(uses) - set(range(1, inst.n + 1))):
        rep.add("unknown-piece", f"piece {p} does not exist (1..{inst.n})")
    for cell, (p, r) in sorted(inst.fixed.items()):
        if sol.get(cell) != (p, r):
            got = sol.get(cell)
            shown = f"{got[0]}/{got[1]}" if got else "nothing"
            rep.add("moved-hint", f"fixed piece {p}/{r} must be at {cell}, found {shown}")
    valid = {c: pr for c, pr in sol.items() if sq.inside(c, w, h) and 1 <= pr[0] <= inst.n}
    for cell, (p, r) in sorted(valid.items()):
        e = inst.edges(p, r)
        frame = sq.frame_sides(cell, w, h)
        for s in range(4):
            if s in frame and e[s] != 0:
                rep.add(
                    "frame",
                    f"piece {p}/{r} at {cell} shows colour {e[s]} to the frame "
                    f"on its {sq.SIDE_NAMES[s]} side; expected grey 0",
                )
            if s not in frame and e[s] == 0:
                rep.add(
                    "frame",
                    f"piece {p}/{r} at {cell} shows grey inside the board on its "
                    f"{sq.SIDE_NAMES[s]} side",
                )
    mismatches = []
    for a, side, b in sq.joins(w, h):
        if a in valid and b in valid:
            ca = inst.edges(*valid[a])[side]
            cb = inst.edges(*valid[b])[sq.opposite(side)]
            if ca != cb:
                mismatches.append(
                    f"join {a} {sq.SIDE_NAMES[side]} / {b} {sq.SIDE_NAMES[sq.opposite(side)]}: "
                    f"colour {ca} against {cb}"
                )
    if objective == "matches":
        rep.score = score(inst, valid)
        rep.max_score = sq.join_count(w, h)
    else:
        for m in mismatches:
            rep.add("mismatch", m)
    return rep

