"""Niang's selection and repair heuristics (thesis 4.8, 4.9), as far as the words allow.

The thesis, in full: "The selection heuristic ... checks the best individuals to see if they
are deadlocked, when the repair threshold is reached. All individuals who seem to be
deadlocked are tagged and the threshold is lowered by a percentage. The next time the
threshold is reached, if the tagged individuals are still unable to improve the repair
heuristic corresponding to the symptoms is executed." (4.8) "One repair function was
developed to remove the deadlocks and one to rearrange the 2x2 areas and another to
rearrange the border tiles." (4.9) Repairs come "at calculated intervals that depend on the
rigidity of the individual to increase its fitness", and "immediately after a repair,
individuals have lower fitness values" (Table 5, Fig. 38).

Read here as (`ThesisRepair`):

* the repair threshold is a number of generations without a better best board (`threshold`,
  20 by default: the thesis gives no number; its Fig. 31 run stagnates from generation 40 of
  100 and its 100-generation runs with repair, Figs. 32-33, converge, so repairs start well
  inside 100 generations);
* when it is reached, the boards of the population's best fitness are tagged (by genome: a
  board that has not changed has not improved) and the threshold is lowered by `lower` (10%:
  the thesis's "a percentage"); a better best board resets it;
* the next time it is reached, every board still carrying a tagged genome is repaired in
  place, each by its own random draws, so the copies of a stuck best spread out, except one
  copy of each (elitism 1 keeps the best board): the population's mean fitness drops right
  after a repair (Fig. 38) while its best stays;
* the repairs "corresponding to the symptoms": the thesis names two repairs for two
  symptoms, whose purpose is to remove the deadlocks; a board gets each whose symptom it
  shows. Unmatched joins *between frame cells* rearrange the border tiles (every free frame
  piece is shuffled within its class and turned grey side out); *2x2 areas* with an
  unmatched join (Fig. 8) are rearranged (the pieces of each area that may turn, inner pieces
  or all on a free board, are shuffled among its cells and turned at random).

The third repair, "to remove the deadlocks", is named but not described; the thesis's one
remedy for a board that is "completely stuck" is its Scramble mutation (4.5.8: "maintains a
corner tile in the left corner and scrambles the rest of the tiles, in order to force the
board to re-assemble"). Read here as (`deadlock`, off by default, on with `--deadlock N`): when
the best board has not improved for N generations the population is deadlocked, and every
board in it is scrambled (the best board found so far stays the run's result): in effect a
restart every N generations while the best stays stuck. N is ours: 100, since 14 of 40 fresh
4x4 runs of the paper preset (frame kept) solved within 100 generations. Scrambling only the
boards of the population's best fitness was tried first: the areas and border repairs keep
the stuck best's relatives varied, so only 61-115 boards in 500 generations were scrambled
and the 4x4's seeds 2, 4 and 5 stayed at 0.847; scrambling all solved them at generations
223-251.
"""

from __future__ import annotations

import numpy as np

from .genome import BoardGenome
from .mutations import scramble

THRESHOLD = 20.0  # generations without a better best board before the first check
LOWER = 0.1  # fraction the threshold drops by at each check while the best stays stuck
DEADLOCK = 100  # generations without a better best before the stuck boards are scrambled


def unmatched_sides(b: BoardGenome, g: np.ndarray) -> np.ndarray:
    """(cells, 4) bool: the side of the cell faces a neighbour and the join is unmatched."""
    mh, mv = b.join_matches(g[None, :])
    bad = np.zeros((b.h, b.w, 4), dtype=bool)
    h, v = ~mh[0], ~mv[0]
    bad[:, :-1, 1] |= h  # east side of the left cell
    bad[:, 1:, 3] |= h  # west side of the right cell
    bad[:-1, :, 2] |= v  # south side of the upper cell
    bad[1:, :, 0] |= v  # north side of the lower cell
    return bad.reshape(b.n, 4)


def frame_cells_on_bad_joins(b: BoardGenome, g: np.ndarray) -> np.ndarray:
    """Free frame cells on an unmatched join between two frame cells."""
    rim = b.cell_class < 2
    bad = unmatched_sides(b, g)
    out = set()
    for i in np.flatnonzero(rim & b.free):
        for s in range(4):
            j = b.nb[i, s]
            if j >= 0 and rim[j] and bad[i, s]:
                out.add(int(i))
    return np.array(sorted(out), dtype=np.int64)


def bad_area_corners(b: BoardGenome, g: np.ndarray) -> np.ndarray:
    """Top-left cells (row, col) of the 2x2 areas with an unmatched join."""
    mh, mv = b.join_matches(g[None, :])
    ok = mh[0, :-1, :] & mh[0, 1:, :] & mv[0, :, :-1] & mv[0, :, 1:]
    return np.argwhere(~ok)


def _turns(b: BoardGenome, cells: np.ndarray) -> np.ndarray:
    """The cells among `cells` whose pieces turn freely."""
    return cells[np.isin(cells, b.inner_free)]


def frame_cells(b: BoardGenome, g: np.ndarray) -> np.ndarray:
    """The free frame cells when an unmatched join lies between two frame cells, else none."""
    if not len(frame_cells_on_bad_joins(b, g)):
        return np.zeros(0, np.int64)
    return np.flatnonzero((b.cell_class < 2) & b.free)


def rearrange_border(b: BoardGenome, g: np.ndarray, cells: np.ndarray, rng) -> None:
    """The pieces on `cells` are shuffled within their class (corners among corner cells,
    border pieces among border cells); turned grey side out afterwards by `repair_board`."""
    n = b.n
    for k in np.unique(b.cell_group[cells]):
        mine = cells[b.cell_group[cells] == k]
        order = rng.permutation(len(mine))
        g[mine], g[n + mine] = g[mine[order]].copy(), g[n + mine[order]].copy()
        spin = _turns(b, mine)
        g[n + spin] = rng.integers(0, 4, len(spin))


def rearrange_areas(b: BoardGenome, g: np.ndarray, corners: np.ndarray, rng) -> None:
    """Each area (in random order): the pieces of its cells that may turn are shuffled among
    those cells and turned at random."""
    n = b.n
    for r, c in corners[rng.permutation(len(corners))]:
        cells = _turns(b, b.block(int(r), int(c), 2, 2))
        if not len(cells):
            continue
        order = rng.permutation(len(cells))
        g[cells] = g[cells[order]].copy()
        g[n + cells] = rng.integers(0, 4, len(cells))


SYMPTOMS = (  # (name, where it shows, the repair), in the order they are looked for
    ("border", frame_cells, rearrange_border),
    ("areas", bad_area_corners, rearrange_areas),
)


def repair_board(b: BoardGenome, g: np.ndarray, rng) -> list[str]:
    """Repair one board in place by every symptom it shows, in the order of SYMPTOMS (each
    found on the board as it is before the repairs); returns the repairs' names (none: the
    board is solved). Frame pieces end grey side out."""
    found = [(name, find(b, g), move) for name, find, move in SYMPTOMS]
    done = []
    for name, where, move in found:
        if len(where):
            move(b, g, where, rng)
            done.append(name)
    if done:
        g[:] = b.normalise(g[None, :].copy())[0]
    return done


class ThesisRepair:
    """The selection heuristic's state: threshold, tagged genomes (see the module docstring).

    Called by the GA engine after each generation (`tend`) with the generations since the
    best board last improved; returns the rows it repaired in place."""

    def __init__(self, board: BoardGenome, threshold: float = THRESHOLD,
                 lower: float = LOWER, deadlock: int = 0) -> None:
        self.board, self.start, self.lower = board, float(threshold), lower
        self.deadlock = deadlock  # 0: no scramble (the areas and border repairs only)
        self.threshold = self.start
        self.checked = 0  # stall count at the last check
        self.scrambled = 0  # stall count at the last scramble
        self.tagged: set[bytes] = set()
        self.done: dict[str, int] = {name: 0 for name, _, _ in SYMPTOMS}
        if deadlock:
            self.done["deadlock"] = 0

    def __call__(self, pop: np.ndarray, fit: np.ndarray, stall: int, rng) -> np.ndarray:
        if stall == 0:  # the best improved: nothing is deadlocked, the threshold starts over
            self.threshold, self.checked, self.scrambled = self.start, 0, 0
            return np.zeros(0, dtype=np.int64)
        if self.deadlock and stall - self.scrambled >= self.deadlock:
            return self.unlock(pop, stall, rng)
        if stall - self.checked < self.threshold:
            return np.zeros(0, dtype=np.int64)
        self.checked = stall
        keys = [row.tobytes() for row in pop]
        # every board still showing a tagged genome, but one copy of each: elitism keeps it
        first = {k: i for i, k in reversed(list(enumerate(keys)))}
        stuck = np.array([i for i, k in enumerate(keys) if k in self.tagged and first[k] != i],
                         dtype=np.int64)
        for i in stuck:
            for name in repair_board(self.board, pop[i], rng):
                self.done[name] += 1
        rest = np.setdiff1d(np.arange(len(pop)), stuck)
        top = fit[rest].max() if len(rest) else -np.inf
        self.tagged = {keys[i] for i in rest if fit[i] >= top}
        self.threshold = max(1.0, self.threshold * (1.0 - self.lower))
        return stuck

    def unlock(self, pop: np.ndarray, stall: int, rng) -> np.ndarray:
        """The deadlock repair: every board scrambled (4.5.8); the tagging starts over."""
        rows = np.arange(len(pop))
        for i in rows:
            scramble(self.board, pop[i], rng)
        pop[rows] = self.board.normalise(pop[rows])
        self.done["deadlock"] += len(rows)
        self.scrambled = self.checked = stall
        self.threshold, self.tagged = self.start, set()
        return rows
