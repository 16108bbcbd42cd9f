"""Downing's genetic operators on his genome (2005, sec. 5.2), as an engine encoding.

* Bit mutation: every bit of every gene flips with probability 0.01.
* Single-point crossover with the cut on a gene boundary (the engine applies it to half the
  pairs, a tenth of those headless-chicken style).
* Inversion (probability 0.02 per child): a run of move genes of random length is cut out
  and put back at a random place among the remaining move genes. The text: "a random-length
  sequence of shape genes is sliced out of its current location and spliced into a random
  new location within the shape portion"; we read the run as any non-empty slice (both ends
  drawn uniformly) and the new place as any gap between the remaining genes, the old place
  included, as a uniform draw would have it.
* Priority swapping (probability 0.2 per child): 1..3 swaps (uniform); each exchanges the
  priority genes of two tiles sharing a bin, the bins being the three arc kinds (corner, bend,
  straight) of the focal colours; a tile with two focal arcs is in both their bins. The text
  does not say how the pair is drawn; we draw a bin with at least two tiles, then two of its
  tiles, uniformly.

The order on a child is Downing's listing order: bit mutation, inversion, priority swap.
Fitness values are Downing's (see `downing_growth`); a solution is reported through `solved`
so the engine stops on it whatever its fitness (F_sum rates a compact open line of all the
tiles like a loop of them).
"""

from __future__ import annotations

import numpy as np

from ...backends.ga import Encoding
from ...core.result import Solution
from . import catalogue as cat
from .downing_growth import DowningGrower, PaperScore, PyramidReading, Weights
from .instance import TantrixInstance

CACHE_SIZE = 200_000


def flip_bits(pop: np.ndarray, bits: np.ndarray, rate: float, rng: np.random.Generator) -> None:
    """Flip each bit of each gene (gene g has bits[g] bits) with probability `rate`, in place
    (rate 0 draws nothing)."""
    if rate <= 0:
        return
    for b in range(int(bits.max())):
        flip = (rng.random(pop.shape) < rate) & (b < bits)
        pop ^= flip.astype(pop.dtype) << b


def single_point(a: np.ndarray, b: np.ndarray, cut: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Children a[:cut] + b[cut:] and b[:cut] + a[cut:], one cut per pair (rows)."""
    head = np.arange(a.shape[1])[None, :] < np.asarray(cut)[:, None]
    return np.where(head, a, b), np.where(head, b, a)


def move_run(moves: np.ndarray, i: int, j: int, pos: int) -> np.ndarray:
    """The move genes with moves[i:j] cut out and put back before the pos-th remaining gene."""
    rest = np.concatenate([moves[:i], moves[j:]])
    return np.concatenate([rest[:pos], moves[i:j], rest[pos:]])


def swap_bins(inst: TantrixInstance, focal: tuple[int, ...]) -> list[list[int]]:
    """Tiles (indices) per arc kind of the focal colours; only bins of two or more tiles."""
    bins: dict[str, list[int]] = {}
    for colour in focal:
        for i, tile in enumerate(inst.tiles):
            kind = cat.arc_kind(tile, cat.COLOURS[colour])
            if kind is not None and i not in bins.setdefault(kind, []):
                bins[kind].append(i)
    return [tiles for _, tiles in sorted(bins.items()) if len(tiles) >= 2]


class DowningEncoding(Encoding):
    """Downing's genome with his operators (the engine's Encoding protocol)."""

    def __init__(self, inst: TantrixInstance, weights: Weights | None = None,
                 bit_mutation: float = 0.01, inversion: float = 0.02, bin_swap: float = 0.2,
                 swaps: int = 3, pyramid: PyramidReading | None = None) -> None:
        self.grower = DowningGrower(inst, weights, pyramid=pyramid)
        self.n = inst.n
        self.length = self.grower.length
        self.target: float | None = None  # solutions are reported by `solved`
        self.bits = np.array(self.grower.gene_bits(), dtype=np.int64)
        self.high = np.left_shift(1, self.bits)
        self.bit_rate = bit_mutation
        self.inversion = inversion
        self.bin_swap = bin_swap
        self.swaps = swaps
        self.bins = swap_bins(inst, self.grower.focal)
        self.cache: dict[bytes, tuple[float, bool]] = {}
        self.developed = 0
        # --objective longest: the best complete, hole-free cluster developed so far, by
        # Downing's score (per goal colour C_i for a loop goal, S_i for a line goal)
        self.kinds = [g.kind for g in inst.goals]
        self.best_valid: tuple[int, np.ndarray] | None = None
        self.on_valid = None  # called with (genome, score) on each better complete cluster

    def random(self, rng: np.random.Generator, n: int) -> np.ndarray:
        return rng.integers(0, self.high, size=(n, self.length), dtype=np.int64)

    def _score(self, row: np.ndarray) -> tuple[float, bool]:
        key = row.tobytes()
        got = self.cache.get(key)
        if got is None:
            self.developed += 1
            s = self.grower.score(row)
            got = (s.fitness, s.solved)
            if s.placed == self.n and s.holes == 0:
                self._archive(row, s)
            if len(self.cache) >= CACHE_SIZE:
                self.cache.clear()
            self.cache[key] = got
        return got

    def _archive(self, row: np.ndarray, s: PaperScore) -> None:
        score = sum(c if kind == "loop" else seg for kind, seg, c in
                    zip(self.kinds, s.segments, s.cycles, strict=False))
        if self.best_valid is None or score > self.best_valid[0]:
            self.best_valid = (score, row.copy())
            if self.on_valid is not None:
                self.on_valid(row, score)

    def fitness(self, pop: np.ndarray) -> np.ndarray:
        return np.array([self._score(row)[0] for row in pop], dtype=float)

    def solved(self, pop: np.ndarray) -> np.ndarray:
        return np.array([self._score(row)[1] for row in pop], dtype=bool)

    def crossover(self, a: np.ndarray, b: np.ndarray, rng: np.random.Generator):
        return single_point(a, b, rng.integers(1, self.length, size=len(a)))

    def mutate(self, pop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        flip_bits(pop, self.bits, self.bit_rate, rng)
        m = self.grower.moves
        for row in pop:
            if m >= 2 and rng.random() < self.inversion:
                i, j = sorted(int(x) for x in rng.choice(m + 1, 2, replace=False))
                pos = int(rng.integers(0, m - (j - i) + 1))
                row[:m] = move_run(row[:m], i, j, pos)
            if self.bins and rng.random() < self.bin_swap:
                for _ in range(int(rng.integers(1, self.swaps + 1))):
                    tiles = self.bins[int(rng.integers(len(self.bins)))]
                    x, y = (self.grower.prio_index(int(t))
                            for t in rng.choice(tiles, 2, replace=False))
                    row[x], row[y] = row[y], row[x]
        return pop

    def decode(self, genome: np.ndarray) -> Solution:
        return self.grower.solution(self.grower.develop(genome))
