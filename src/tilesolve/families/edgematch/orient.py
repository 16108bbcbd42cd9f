"""The tree the exact search walks: the cell order and the corner piece kept top left,
chosen by the tree's size.

On a square set without fixed pieces every board lies, turned, in each of eight trees
exactly once: rows or columns (the rows' order mirrored about the diagonal), each with one
of the four corner pieces kept to the top-left corner. The trees hold the same boards but
are not the same size. Knuth's estimate (`treesize.estimate`, 32 million probes each) gives,
on Brendan Owen's 8x8, 7.25e11 nodes for columns with its third corner piece against 9.38e11
for rows with the first (the search's tree before) and up to 1.12e12; on the generator's
held-out 8x8 (seed 7001) 1.87e13 against 2.62e13; on Brendan's 9x9 the tree before is the
smallest. With the boards at random among the leaves the nodes to a first board scale with
the tree (edgematch_frontier.md), so the search walks the smallest one it estimates.

The search starts on the rows' tree with the first corner piece; after `DELAY` s without an
answer (Brendan's 7x7 needs 0.2 s, the 8x8 minutes) a thread estimates the eight trees,
`PROBES` probes each (about 0.4 CPU s each on an 8x8; fewer when the time left is short),
and the workers take the smallest at their next restart. The restarts are memoryless (the
nodes to a first board spread like an exponential), so the switch loses nothing; a worker
that never restarts (`--restart 0`, the first of `--values fixed`) keeps its tree, and any
tree walked to its end still proves that no board exists.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from .instance import EdgeInstance
from .search import RowscanTables

DELAY = 10.0  # seconds of search on the first tree before the choice
QUICK = 20_000  # probes that time the estimate
# per tree: over 16 seeds the tree taken averaged 7.50e11 nodes on Brendan's 8x8 and 2.21e13
# on the held-out (1.25 and 1.19 times fewer than the tree before); 4 million took no smaller
# ones (a heavy tail), nor did successive halving over the same 16 million
PROBES = 2_000_000
SHARE = 0.05  # of the time left, at most, for the choice
LEAST = 500_000  # probes per tree below which no choice is made (too noisy)

MakeTables = Callable[[str, int | None], RowscanTables]


def eligible(inst: EdgeInstance, fixed: bool, hinted: bool, symmetry: bool) -> bool:
    """The eight trees hold the same boards: a square board, no fixed piece, no hint (whose
    corner piece is kept top left so that the hinted board stays in the tree), symmetry
    broken by the anchor."""
    return inst.width == inst.height and not fixed and not hinted and symmetry


def choose(inst: EdgeInstance, make: MakeTables, seed: int, time_left: float | None,
           stop: threading.Event,
           first: RowscanTables | None = None) -> tuple[RowscanTables, dict] | None:
    """The tables of the smallest estimated tree and what the choice saw (the order and anchor
    taken, its estimate, every tree's, the probes and CPU s); None when stopped first or the
    time left is too short for the probes. `first`: the rows' tables with the first corner
    piece, when already built."""
    from . import treesize  # imports the search module: kept out of its import

    cpu = time.thread_time()
    corners = inst.corner_pieces()
    first = make("rows", corners[0]) if first is None else first
    treesize.estimate(first, QUICK, seed)
    per_probe = (time.thread_time() - cpu) / QUICK
    probes = PROBES
    if time_left is not None:
        probes = min(probes, int(SHARE * time_left / max(per_probe, 1e-9) / 8))
    if probes < LEAST:
        return None
    best, trees = None, []
    for order in ("rows", "columns"):
        for piece in corners:
            if stop.is_set():
                return None
            t = first if (order, piece) == ("rows", corners[0]) else make(order, piece)
            nodes = treesize.estimate(t, probes, seed).nodes
            trees.append(round(nodes))
            if best is None or nodes < best[0]:
                best = (nodes, t)
    nodes, tables = best
    return tables, {"orient": tables.order, "anchor": tables.anchor, "tree_estimate": round(nodes),
                    "tree_estimates": trees, "orient_probes": probes,
                    "orient_cpu_seconds": round(time.thread_time() - cpu, 3)}


class Chooser:
    """The tables the workers build their next searcher from: the first tree, then (after
    `DELAY` s, in a thread of its own) the smallest of the eight. A context manager: leaving
    it stops and joins the thread."""

    def __init__(self, inst: EdgeInstance, make: MakeTables, seed: int,
                 time_left: Callable[[], float | None]):
        self.tables = make("rows", None)
        self.seen: dict = {"orient": "rows", "anchor": self.tables.anchor}
        self._args = (inst, make, seed, time_left)
        self._stop = threading.Event()
        self._t0 = time.monotonic()
        self._thread = threading.Thread(target=self._choose, daemon=True)

    def __enter__(self) -> Chooser:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def settled(self, timeout: float | None = None) -> bool:
        """Wait until the choice is made or given up (at most `timeout` s): whether it is."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _choose(self) -> None:
        if self._stop.wait(DELAY):
            return
        inst, make, seed, time_left = self._args
        chosen = choose(inst, make, seed, time_left(), self._stop, self.tables)
        if chosen is not None:
            self.tables, seen = chosen
            self.seen = {**seen, "orient_at_seconds": round(time.monotonic() - self._t0, 3)}
