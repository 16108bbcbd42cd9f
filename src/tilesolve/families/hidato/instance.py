"""The Hidato instance: the board, its holes and givens, and the board graph.

A board is a beehive hexagon of side s (rows of s .. 2s-1 .. s cells, axial (q, r) cells from
core.hexgrid) or a W x H square grid with king moves ((row, col) cells). Holes are not part of
the board. The N remaining cells take the numbers 1..N, each once, so that consecutive numbers
sit in adjacent cells (a Hamiltonian path). A solution maps cell -> number.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ...core import hexgrid as hx
from ...core import squaregrid as sq

Cell = tuple[int, int]
SHAPES = ("hex", "square")


def layout(shape: str, dims: tuple[int, ...]) -> list[list[Cell]]:
    """Every slot of the board (holes included), row by row, left to right."""
    if shape == "hex":
        return hx.rows_of(hx.hexagon(dims[0]))
    width, height = dims
    return [[(r, c) for c in range(width)] for r in range(height)]


def adjacent_cells(shape: str, cell: Cell) -> list[Cell]:
    """The up to 6 (hex) or 8 (square, king moves) cells around `cell`, holes not excluded."""
    if shape == "hex":
        return list(hx.neighbours(cell))
    return [(cell[0] + dr, cell[1] + dc) for dr, dc in sq.KING_STEPS]


@dataclass
class HidatoInstance:
    shape: str  # "hex" or "square"
    dims: tuple[int, ...]  # (side,) or (width, height)
    holes: frozenset[Cell]
    givens: dict[Cell, int] = field(default_factory=dict)
    name: str = ""
    distance_cache: dict[int, np.ndarray] = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def rows(self) -> list[list[Cell]]:
        return layout(self.shape, self.dims)

    @cached_property
    def cells(self) -> list[Cell]:
        """Board cells (holes left out) in row order; index i is cell number i in the models."""
        return [c for row in self.rows for c in row if c not in self.holes]

    @cached_property
    def index(self) -> dict[Cell, int]:
        return {c: i for i, c in enumerate(self.cells)}

    @property
    def n(self) -> int:
        return len(self.cells)

    @cached_property
    def neighbours(self) -> list[list[int]]:
        """Adjacency lists by cell index."""
        idx = self.index
        return [[idx[d] for d in adjacent_cells(self.shape, c) if d in idx] for c in self.cells]

    def adjacent(self, a: Cell, b: Cell) -> bool:
        return b in adjacent_cells(self.shape, a)

    @cached_property
    def given_at(self) -> dict[int, int]:
        """number -> cell index of the givens."""
        return {v: self.index[c] for c, v in self.givens.items()}

    def distances_from(self, i: int) -> np.ndarray:
        """Breadth-first distances (in moves on the board) from cell index i; unreachable
        cells get n (farther than any path). Cached: shared by copies made with `with_givens`."""
        if i not in self.distance_cache:
            n = self.n
            dist = np.full(n, n, dtype=np.int64)
            dist[i] = 0
            todo = deque([i])
            nbrs = self.neighbours
            while todo:
                a = todo.popleft()
                for b in nbrs[a]:
                    if dist[b] == n:
                        dist[b] = dist[a] + 1
                        todo.append(b)
            self.distance_cache[i] = dist
        return self.distance_cache[i]

    def with_givens(self, givens: dict[Cell, int]) -> HidatoInstance:
        """The same board with other givens (keeps the geometry and the distance cache)."""
        out = HidatoInstance(self.shape, self.dims, self.holes, dict(givens), self.name)
        out.distance_cache = self.distance_cache
        for key in ("rows", "cells", "index", "neighbours"):
            if key in self.__dict__:
                out.__dict__[key] = self.__dict__[key]
        return out

    def candidates(self) -> list[list[int]]:
        """cands[k] (k = 1..N; index 0 unused): cell indices that can hold number k.

        A cell can hold k only if it is within |k - g| moves of the given g nearest below and
        nearest above k; a given's cell holds only its own number. Sound pruning: every
        solution survives it.
        """
        n = self.n
        given = self.given_at
        free = np.ones(n, bool)
        free[list(given.values())] = False
        everywhere = np.zeros(n, np.int64)  # no given on that side: no limit
        out: list[list[int]] = [[]]
        below: int | None = None
        keys = sorted(given) + [None]
        for above in keys:
            top = n if above is None else above - 1
            d_lo = everywhere if below is None else self.distances_from(given[below])
            d_hi = everywhere if above is None else self.distances_from(given[above])
            for k in range((below or 0) + 1, top + 1):
                ok = free & (d_lo <= (k - below if below is not None else n))
                ok &= d_hi <= (above - k if above is not None else n)
                out.append(np.flatnonzero(ok).tolist())
            if above is not None:
                out.append([given[above]])
                below = above
        return out

    def successions(self, cands: list[list[int]]):
        """(k, c, j, cells): "k in cell c" needs j = k+1 and j = k-1 in one of `cells` (the
        candidates of j next to c). The path rule of every literal model (CP-SAT, MILP, CNF)."""
        nbrs = self.neighbours
        for k in range(1, self.n + 1):
            for j in (k - 1, k + 1):
                if 1 <= j <= self.n:
                    there = set(cands[j])
                    for c in cands[k]:
                        yield k, c, j, [d for d in nbrs[c] if d in there]

    def search_space(self) -> int:
        return math.factorial(self.n - len(self.givens))

    def search_space_log10(self) -> float:
        free = self.n - len(self.givens)
        return math.lgamma(free + 1) / math.log(10)
