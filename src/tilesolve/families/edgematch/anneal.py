"""Simulated annealing over swaps and rotations for the most matched joins.

A move swaps the pieces of two cells of one class, each turned to its best rotation at its
new cell, or turns one inner piece to its best other rotation; moves of equal score are
always taken (on Eternity II most moves are: the search walks across plateaus), worse ones
with probability exp(delta / T). Millions of moves a second in the compiled core
(`_anneal.c`); without it the same loop runs in Python (about a hundred times slower).

The schedule (`anneal`) cools geometrically from T_HOT to T_COLD within a cycle and then
starts again from the best board met, so a long run is a chain of anneals that each start at
the record. The search is only as good as its start: from a break-search board (structured,
~440 on Eternity II) it climbs within seconds, from a weaker one (~420) it stays in the
low 430s at the same temperature; the LNS lane therefore renews its start (lns.py).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np

from ...core.result import Solution
from .lns import Board

try:
    from . import _anneal
except ImportError:  # built without a C compiler: the Python loop below serves
    _anneal = None

CHUNK = 200_000  # moves per call of the core (~50 ms): the clock and stop flag are read between
# a cycle's temperatures: on the official Eternity II from a 440 break-search board, a fixed
# T = 0.19 reached 450-454 within 3-7 CPU s; at 0.25 the board melts (407 after 10 M moves),
# at 0.10-0.13 it freezes at 444-446; cycles from 0.3 or hotter never came back (docs/hybrid.md)
T_HOT, T_COLD = 0.19, 0.19
CYCLE = 30.0  # CPU seconds per cooling cycle; each cycle starts from the best board


class CpuBudget:
    """A stop request (SolveOptions.stop) set once this process has used `seconds` more CPU:
    runs on a loaded machine then compare at equal work, not equal wall time."""

    def __init__(self, seconds: float):
        self.end = time.process_time() + seconds

    def is_set(self) -> bool:
        return time.process_time() >= self.end


class Annealer:
    """The state of one annealing run on one board (current and best), as the core's arrays."""

    def __init__(self, board: Board, sol: Solution, seed: int, engine: str = "auto"):
        self.board = board
        pcs, rts = board.arrays(sol)
        n, npieces = board.n, board.inst.n
        col = board.col.astype(np.int32).reshape(npieces * 16)
        nb = board.nb.astype(np.int32).reshape(n * 4)
        bits = (board.allowed * (1 << np.arange(4))).sum(axis=2).astype(np.uint8)
        movable = np.flatnonzero(board.free).astype(np.int32)
        klass = board.cell_class.astype(np.int32)
        score = board.score(pcs, rts)
        cur = [pcs.astype(np.int32), rts.astype(np.int32)]
        best = [pcs.astype(np.int32), rts.astype(np.int32)]
        rng = np.random.default_rng(seed)
        state = np.array([int(rng.integers(1, 1 << 62)), score, score, npieces], dtype=np.int64)
        self.arrays = (col, nb, bits.reshape(n * npieces), movable, klass, *cur, *best, state)
        self.compiled = engine != "python" and _anneal is not None and len(movable) > 0

    @property
    def score(self) -> int:
        return int(self.arrays[9][1])

    @property
    def best_score(self) -> int:
        return int(self.arrays[9][2])

    def best(self) -> Solution:
        return self.board.solution(self.arrays[7], self.arrays[8])

    def current(self) -> Solution:
        return self.board.solution(self.arrays[5], self.arrays[6])

    def restart(self, sol: Solution) -> None:
        """Continue from `sol` (its score becomes the current one; the best is kept)."""
        pcs, rts = self.board.arrays(sol)
        self.arrays[5][:], self.arrays[6][:] = pcs, rts
        self.arrays[9][1] = self.board.score(pcs, rts)
        if self.arrays[9][1] > self.arrays[9][2]:
            self.arrays[7][:], self.arrays[8][:] = pcs, rts
            self.arrays[9][2] = self.arrays[9][1]

    def run(self, moves: int, temperature: float, focus: float = 0.5) -> int:
        """`moves` moves at one temperature; returns how many were taken."""
        if len(self.arrays[3]) == 0:
            return 0
        if self.compiled:
            return _anneal.run(self.arrays, moves, temperature, focus)[2]
        return py_run(self.arrays, moves, temperature, focus)


def anneal(board: Board, sol: Solution, seed: int, *, seconds: float,
           stop: Callable[[], bool] = lambda: False,
           on_improve: Callable[[Solution, int], None] | None = None,
           t_hot: float = T_HOT, t_cold: float = T_COLD, cycle: float = CYCLE,
           focus: float = 0.5, engine: str = "auto",
           assign_every: int = 0) -> tuple[Solution, int]:
    """Cycles of cooling from t_hot to t_cold (`cycle` CPU s each), each from the best board;
    returns the best board met and its score (never worse than `sol`). on_improve sees each
    new best, at most once per chunk of moves. `assign_every` > 0: after that many chunks
    the current board gets one very large move, the optimal re-placement of scattered cells
    of one class (lns.assign, never worse), and the chain goes on from it."""
    a = Annealer(board, sol, seed, engine)
    rng = np.random.default_rng(seed)
    chunks = 0
    target = len(board.joins)
    cpu0 = time.process_time()
    end = time.monotonic() + seconds
    cycle_start, reported = cpu0, a.best_score
    chunk = CHUNK if a.compiled else 2_000
    while a.best_score < target and time.monotonic() < end and not stop():
        frac = min(1.0, (time.process_time() - cycle_start) / cycle)
        temp = t_hot * (t_cold / t_hot) ** frac
        a.run(chunk, temp, focus)
        chunks += 1
        if assign_every and chunks % assign_every == 0:
            a.restart(reassigned(board, a.current(), rng))
        if a.best_score > reported and on_improve is not None:
            reported = a.best_score
            on_improve(a.best(), reported)
        if frac >= 1.0:
            a.restart(a.best())
            cycle_start = time.process_time()
    return a.best(), a.best_score


def reassigned(board: Board, sol: Solution, rng: np.random.Generator) -> Solution:
    """`sol` after one assignment move of lns (scattered cells of one class re-placed
    optimally, ties at random): at least as good, often a different board of equal score."""
    from .lns import assign, scattered

    pcs, rts = board.arrays(sol)
    inner = int((board.free & (board.cell_class == 2)).sum())
    cells = scattered(board, pcs, rts, rng, int(rng.integers(8, max(9, inner // 2))))
    assign(board, pcs, rts, cells, rng)
    return board.solution(pcs, rts)


# --- the fallback --------------------------------------------------------------------------
def py_run(arrays: tuple, moves: int, temp: float, focus: float) -> int:
    """The loop of `_anneal.c` in Python, move for move the same kinds (not the same draws)."""
    col, nb, amask, movable, klass, pcs, rts, bpcs, brts, state = arrays
    npieces = int(state[3])
    rng = np.random.default_rng(int(state[0]))
    byclass = [[int(c) for c in movable if klass[c] == k] for k in range(3)]
    full = {0: 2, 1: 3, 2: 4}

    def shown(c: int, s: int) -> int:
        return int(col[(pcs[c] * 4 + rts[c]) * 4 + s])

    def cell_score(c: int) -> int:
        k = 0
        for s in range(4):
            o = int(nb[c * 4 + s])
            if o >= 0:
                x = shown(c, s)
                k += x != 0 and x == shown(o, (s + 2) % 4)
        return k

    def pair_score(a: int, b: int, side: int) -> int:
        k = cell_score(a) + cell_score(b)
        if side >= 0:
            x = shown(a, side)
            k -= x != 0 and x == shown(b, (side + 2) % 4)
        return k

    def rotations(c: int) -> list[int]:
        mask = int(amask[c * npieces + pcs[c]])
        return [r for r in range(4) if mask >> r & 1]

    def best_turns(cs: list[int], side: int, skip: int = -1) -> None:
        """Best rotations of the pieces at cs (one cell, or a pair joined across side)."""
        combos = [(r,) for r in rotations(cs[0]) if r != skip] if len(cs) == 1 else \
            [(ra, rb) for ra in rotations(cs[0]) for rb in rotations(cs[1])]
        if not combos:
            return
        scored = []
        for combo in combos:
            for c, r in zip(cs, combo, strict=True):
                rts[c] = r
            scored.append(cell_score(cs[0]) if len(cs) == 1 else pair_score(*cs, side))
        top = max(scored)
        pick = combos[int(rng.choice([i for i, v in enumerate(scored) if v == top]))]
        for c, r in zip(cs, pick, strict=True):
            rts[c] = r

    def take(delta: int) -> bool:
        return delta >= 0 or (temp > 0 and rng.random() < math.exp(delta / temp))

    score, best, taken = int(state[1]), int(state[2]), 0
    for _ in range(moves):
        a = int(rng.choice(movable))
        for _k in range(4):
            if cell_score(a) != full[int(klass[a])] or rng.random() >= focus:
                break
            a = int(rng.choice(movable))
        kl = int(klass[a])
        pa, oa = int(pcs[a]), int(rts[a])
        if kl == 2 and (len(byclass[kl]) < 2 or rng.integers(8) == 0):
            before = cell_score(a)
            best_turns([a], -1, skip=oa)
            delta = cell_score(a) - before
            if not take(delta):
                rts[a] = oa
                continue
        else:
            if len(byclass[kl]) < 2:
                continue
            b = a
            while b == a:
                b = int(rng.choice(byclass[kl]))
            pb, ob = int(pcs[b]), int(rts[b])
            side = next((s for s in range(4) if nb[a * 4 + s] == b), -1)
            before = pair_score(a, b, side)
            pcs[a], pcs[b] = pb, pa
            if side >= 0:
                best_turns([a, b], side)
            else:
                best_turns([a], -1)
                best_turns([b], -1)
            delta = pair_score(a, b, side) - before
            if not take(delta):
                pcs[a], rts[a], pcs[b], rts[b] = pa, oa, pb, ob
                continue
        score += delta
        taken += 1
        if score > best:
            best = score
            bpcs[:], brts[:] = pcs, rts
    state[0] = int(rng.integers(1, 1 << 62))
    state[1], state[2] = score, best
    return taken
