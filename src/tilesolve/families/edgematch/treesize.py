"""The size of the rowscan search's tree: Knuth's random-probe estimate, and the exact walk.

Knuth (1975, "Estimating the efficiency of backtrack programs"): walk one random path from
the root, at each depth choosing uniformly among the candidates the search would place
there; with d_k candidates at depth k, d1 + d1 d2 + ... is an unbiased estimate of the
nodes (placements) of the whole tree, and d1 d2 ... d_n, when the path reaches the last
cell, of its boards. The mean over many probes and its standard error estimate a tree far
too large to walk; `walk` counts a small one exactly, to check the estimate against. Both
run on `search.RowscanTables`, so they see the search's cell order, frame rule, anchor
corner and lookahead. `random_boards` is the first-moment count of boards, for a guess at
the boards of a tree too large for probes to meet them.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from dataclasses import dataclass

from .instance import EdgeInstance
from .search import MASK64, CSearcher, PySearcher, RowscanTables, _Counts, _rowscan, splitmix64


@dataclass
class TreeEstimate:
    probes: int
    nodes: float  # mean over the probes
    nodes_se: float  # standard error of that mean
    boards: float
    boards_se: float
    full: int  # probes that met a board
    at_depth: list[float]  # mean nodes at depth 1 .. cells


def random_boards(inst: EdgeInstance) -> float:
    """The first-moment count: the boards (anchor corner top left) a random square board with
    these pieces would hold on average, if each join matched with the chance that two random
    half-edges of its kind (frame: along the rim; inner: the rest) show one colour. Brendan's
    sets hold 156, 165 and 380 times it (5x5-7x7), so it says how the boards fall with size."""
    if inst.width != inst.height or inst.fixed:
        raise ValueError("the first-moment count is for square boards without fixed pieces")
    w = inst.width
    frame, inner, kinds = Counter(), Counter(), Counter()
    for p in range(1, inst.n + 1):
        e, kind = inst.edges(p), inst.kind(p)
        kinds[kind] += 1
        if kind == "inner":
            inner.update(e)
        elif kind == "corner":
            frame.update(c for c in e if c)
        else:  # a border piece: the sides either side of its grey run along the rim
            g = e.index(0)
            frame.update((e[(g + 1) % 4], e[(g + 3) % 4]))
            inner[e[(g + 2) % 4]] += 1
    log = (math.lgamma(kinds["corner"]) + math.lgamma(kinds["border"] + 1)
           + math.lgamma(kinds["inner"] + 1) + kinds["inner"] * math.log(4))
    rim_joins = 4 * (w - 1)
    for counts, joins in ((frame, rim_joins), (inner, 2 * w * (w - 1) - rim_joins)):
        total = sum(counts.values())
        log += joins * math.log(sum((v / total) ** 2 for v in counts.values()))
    return math.exp(log)


def estimate(t: RowscanTables, probes: int, seed: int = 0, exact: int | None = None,
             engine: str = "c") -> TreeEstimate:
    """Knuth's estimate from `probes` random paths, drawn with splitmix64 from `seed`, each
    ending in the whole subtree at depth `exact` (None: at the last cell, a plain probe):
    the C core's (`engine` "c") or the same steps in Python ("python"), which agree exactly.
    Walking the subtrees of the last rows costs more per probe and counts the boards, which
    plain probes reach about once in millions on a 7x7."""
    exact = t.ncells if exact is None else exact
    at_depth = array("d", [0.0]) * t.ncells
    look = t.look[:4] + tuple(array("i", a) for a in t.look[4:]) if t.look else None
    if engine == "c":
        if _rowscan is None:
            raise RuntimeError("the compiled rowscan core is not built: use engine='python'")
        piece, _rot, east, south = t.columns
        sums = _rowscan.estimate(t.start, piece, east, south, t.left, t.up,
                                 bytearray(t.npieces), probes, seed & MASK64, exact, look,
                                 at_depth)
    else:
        sums = _Prober(t, _Counts(look) if look else None, at_depth).run(probes, seed & MASK64,
                                                                          exact)
    total, total_sq, leaves, leaves_sq, full = sums
    return TreeEstimate(probes, total / probes, _se(total, total_sq, probes), leaves / probes,
                        _se(leaves, leaves_sq, probes), full, [a / probes for a in at_depth])


def _se(total: float, total_sq: float, n: int) -> float:
    if n < 2:
        return math.inf
    mean = total / n
    return math.sqrt(max(total_sq / n - mean * mean, 0.0) * n / (n - 1) / n)


class _Prober:
    """Reference implementation of `_rowscan.estimate`, in Python lists (the same paths for
    the same seed)."""

    def __init__(self, t: RowscanTables, look: _Counts | None, at_depth: array):
        self.t, self.look, self.at_depth = t, look, at_depth
        self.start, self.left, self.up = t.start.tolist(), t.left.tolist(), t.up.tolist()
        self.piece, _rot, self.east, self.south = (a.tolist() for a in t.columns)
        self.used, self.pe, self.ps = [False] * t.npieces, [0] * t.ncells, [0] * t.ncells

    def fits(self, d: int) -> tuple[int, list[int]]:
        """Cell d's own count key (lookahead) and the candidates the search would place."""
        t, look, piece, south = self.t, self.look, self.piece, self.south
        left, up, pe, ps = self.left, self.up, self.pe, self.ps
        b = d * t.nkeys + (pe[left[d]] if left[d] >= 0 else 0) * t.ncol
        b += ps[up[d]] if up[d] >= 0 else 0
        kd = look.self_key(ps, up, d) if look else -1
        return kd, [i for i in range(self.start[b], self.start[b + 1])
                    if not self.used[piece[i]] and (
                        not look or (kd < 0 and look.below[d] < 0)
                        or not look.starves(piece[i], kd, look.below_key(d, south[i])))]

    def place(self, d: int, kd: int, i: int) -> None:
        self.used[self.piece[i]] = True
        if self.look:
            self.look.move(self.piece[i], kd, self.look.below_key(d, self.south[i]), -1)
        self.pe[d], self.ps[d] = self.east[i], self.south[i]

    def lift(self, d: int, i: int) -> None:
        self.used[self.piece[i]] = False
        if self.look:
            look = self.look
            look.move(self.piece[i], look.self_key(self.ps, self.up, d),
                      look.below_key(d, self.south[i]), 1)

    def walk_below(self, d: int, weight: float) -> tuple[int, int]:
        """(nodes, boards) of the subtree under cells 0 .. d - 1 as placed"""
        if d == self.t.ncells:
            return 0, 1
        nodes = boards = 0
        kd, fits = self.fits(d)
        for i in fits:
            self.place(d, kd, i)
            self.at_depth[d] += weight
            n, b = self.walk_below(d + 1, weight)
            nodes, boards = nodes + 1 + n, boards + b
            self.lift(d, i)
        return nodes, boards

    def run(self, probes: int, x: int, exact: int) -> tuple:
        total = total_sq = leaves = leaves_sq = 0.0
        full = 0
        for _ in range(probes):
            weight, path_total, chosen, leaf = 1.0, 0.0, [], 0.0
            for d in range(exact):
                kd, fits = self.fits(d)
                if not fits:
                    break
                weight *= len(fits)
                path_total += weight
                self.at_depth[d] += weight
                x, z = splitmix64(x)
                i = fits[z % len(fits)]
                self.place(d, kd, i)
                chosen.append(i)
            if len(chosen) == exact:
                nodes, boards = self.walk_below(exact, weight)
                path_total += weight * nodes
                leaf = weight * boards
            full += leaf > 0
            for d in range(len(chosen) - 1, -1, -1):
                self.lift(d, chosen[d])
            total += path_total
            total_sq += path_total * path_total
            leaves += leaf
            leaves_sq += leaf * leaf
        return total, total_sq, leaves, leaves_sq, full


def walk(t: RowscanTables, engine: str = "c") -> tuple[int, int]:
    """(nodes, boards) of the whole tree, walked by the search itself in the table's order."""
    searcher = (CSearcher if engine == "c" else PySearcher)(t, None)
    nodes = boards = 0
    while True:
        code, n = searcher.step(10_000_000)
        nodes += n
        if code == -1:
            return nodes, boards
        boards += code == 1
