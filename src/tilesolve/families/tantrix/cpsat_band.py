"""CP-SAT's --objective longest on a free shape inside a band of cells: `--margin N`.

The score model of `cpsat_score` fills one compact board, and the best score on a board can
lie below the puzzle's: CP-SAT proved that the Loop's compact board holds at most 130, where
Kuiper's board scores 136 (lab/pages/tantrix_56.md). With `--margin N` the tiles may also
take the empty cells within N steps of the start board (the `--hint` board, else the search
backend's compact fill), so one solve searches every shape inside that band. The model is the
lns's window model (`window_model.WindowModel`) with every tile in the window and none fixed:

- each tile once, at most one per cell of the band;
- the golden rule between touching tiles;
- one cluster (a flow from one root tile) without holes (Euler's count);
- per goal colour one picked piece of the goal's kind (`add_circuit`), the score their sum;
- the start board as the hint and its score as a floor, so every solution found is at least
  as good.

With `--cap N` the model maximises the balanced score first (each goal colour counted up to N
tiles; the start board's balanced score the floor) and the full score second, so a colour
longer than N may give tiles to a short one; boards are kept and reported by the full score.

With `--outline K` only shapes whose outline cuts at most K arcs are searched (`check.
outline_loss`; a board scores at most the arcs its shape keeps, `check.shape_bound`, a cut the
model also states): the Loop's 136 needs K <= 32, and the best boards' shapes cut 35 (Loop 126)
and 33 (Curve 131). A start board outside that is only the hint: it is neither the floor nor an
answer, and a band without such a shape ends with no board (status budget), which says nothing
of the puzzle.

Every model solution is a valid board of the free puzzle. CP-SAT's bound holds over the
band's shapes only, never over all shapes, so an answer is FEASIBLE (stats: `band_cells`,
`bound_in_band`). One ring (86 cells for 56 tiles) took the Loop from 113 to 126 and the Curve
from 129 to 131 in 1,200 s of eight workers on two cores, where runs on the compact board had
gained 2 and 1 (lab/pages/tantrix_56.md).
"""

from __future__ import annotations

import random

from ...backends import cpsat as runner
from ...core import hexgrid as hx
from ...core.limits import OutOfTime, built
from ...core.result import Outcome, Solution, SolveOptions, Status
from . import check
from .cpsat import workers
from .instance import TantrixInstance
from .lns import start_board, steered
from .window_model import WindowModel


def band(board: Solution, margin: int) -> list[hx.Hex]:
    """The empty cells within `margin` steps of the board's cells."""
    out, edge = set(), set(board)
    for _ in range(margin):
        edge = {nb for c in edge for nb in hx.neighbours(c)} - set(board) - out
        out |= edge
    return sorted(out)


class BandCpsat(runner.CpsatModel):
    objective = True

    def __init__(self, inst: TantrixInstance, board: Solution, margin: int,
                 cap: int | None = None, outline: int | None = None, inside: bool = True):
        """`inside`: the board keeps to the outline; if not, it is no solution: no floor."""
        self.inst, self.cap = inst, cap
        self.cells = sorted(board) + band(board, margin)
        floor = steered(inst, board, cap) if inside else 0
        self.win = WindowModel(inst, board, sorted(board), self.cells[len(board):], floor,
                               cap=cap, walk=False, outline=outline)
        self.model = self.win.m
        # the best board by its own score (the start board if it lies in the searched shapes)
        self.best = (board, check.score(inst, board)) if inside else (None, -1)
        self.balanced = steered(inst, board, cap)

    def decode(self, value) -> Solution:
        return {c: tr for c in self.cells for tr, v in self.win.x[c].items() if value(v)}

    def reported(self, value, raw: float) -> float:
        """With a cap CP-SAT maximises the balanced score first: the board's own score."""
        if self.cap is None:
            return raw
        board = self.decode(value)
        score = check.score(self.inst, board)
        self.balanced = steered(self.inst, board, self.cap)  # the last board's, for the stats
        if score > self.best[1]:
            self.best = (board, score)
        return score

    def suggest(self, solution: Solution) -> None:
        self.win.hint(solution)


def solve(inst: TantrixInstance, opts: SolveOptions, margin: int,
          cap: int | None = None, outline: int | None = None) -> Outcome:
    board = start_board(inst, opts, random.Random(opts.seed),
                        lambda: opts.stopped() or opts.remaining() == 0)
    if board is None:
        return Outcome(Status.TIMEOUT, stats={"margin": margin})
    score = int(check.score(inst, board))
    # --outline: a start board outside the shapes searched is a hint, not an answer
    lost = check.outline_loss(board)
    inside = outline is None or lost <= outline
    if inside:
        opts.offer(board, float(score), source="start")  # kept should the build outlast the limit
    stats = {"margin": margin, "start_score": score,
             **({} if cap is None else {"cap": cap, "balanced_start": steered(inst, board, cap)}),
             **({} if outline is None else {"outline": outline, "outline_start": lost})}
    try:
        compiled = built(opts, lambda: BandCpsat(inst, board, margin, cap, outline, inside))
    except OutOfTime:
        stopped = {**stats, "stopped": "the time limit ran out while the model was built"}
        return Outcome(Status.FEASIBLE, board, float(score), stats=stopped) if inside else \
            Outcome(Status.TIMEOUT, stats=stopped)
    out = runner.run(compiled, opts.but(hint=board),  # the start board, not a hint it replaced
                     **workers(opts))
    out.stats.update(stats, band_cells=len(compiled.cells))
    if out.solution is None and out.status == Status.TIMEOUT and inside:  # stopped in presolve
        out.status, out.solution, out.objective = Status.FEASIBLE, board, float(score)
    if cap is not None:  # CP-SAT's bound is on the balanced score first: none on the score
        out.bound = None
        for key in ("bound", "gap"):
            out.stats.pop(key, None)
        out.stats["balanced_end"] = compiled.balanced
        if compiled.best[1] > (out.objective or -1):  # CP-SAT's last can score less
            out.solution, out.objective = compiled.best
    elif out.bound is not None:
        out.stats["bound_in_band"] = out.bound
    if out.status == Status.INFEASIBLE:  # no shape in the band: the puzzle is not proved so
        out.status = Status.BUDGET
        out.stats["stop_reason"] = (f"no board in the band has an outline that cuts at most "
                                    f"{outline} arcs")
    if out.status == Status.SOLVED:  # the best inside the band, not over all shapes
        out.stats["optimal_in_band"] = True
        out.status = Status.FEASIBLE
    return out
