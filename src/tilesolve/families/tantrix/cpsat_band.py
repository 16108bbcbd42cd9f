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
and 33 (Curve 131). A start board outside that is no answer. The band then steers: the outline
is a cost instead of a rule, `STEER` points of the objective for each arc cut above K, so the
start board is a solution CP-SAT can leave from (as a rule, CP-SAT found no first board in 690
s from the Loop's 126), and only the boards that keep to K are answers. A run that finds none
ends with no board (status budget), which says nothing of the puzzle.

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
from .window_model import STEER, WindowModel


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
                 cap: int | None = None, outline: int | None = None, over: int = 0):
        """`over`: the arcs the board cuts above the outline; any, and the band steers."""
        self.inst, self.cap, self.outline = inst, cap, outline
        self.cells = sorted(board) + band(board, margin)
        self.steering = over > 0  # the start board lies outside the outline: steer into it
        self.win = WindowModel(inst, board, sorted(board), self.cells[len(board):],
                               steered(inst, board, cap) - STEER * over, cap=cap, walk=False,
                               outline=outline, steer=STEER if self.steering else None)
        self.model = self.win.m
        # the best answer by its own score (the start board if it keeps to the outline)
        self.best = (None, -1) if self.steering else (board, check.score(inst, board))
        self.balanced = steered(inst, board, cap)

    def decode(self, value) -> Solution:
        return {c: tr for c in self.cells for tr, v in self.win.x[c].items() if value(v)}

    def answers(self, board: Solution) -> bool:
        """Does the board keep to the outline (every board does without one)?"""
        return self.outline is None or check.outline_loss(board) <= self.outline

    def reported(self, value, raw: float) -> float:
        """With a cap CP-SAT maximises the balanced score first: the board's own score.
        Every board's score is noted for the answer (the best that keeps to the outline)."""
        if self.cap is None and not self.steering:
            return raw
        board = self.decode(value)
        score = check.score(self.inst, board)
        self.balanced = steered(self.inst, board, self.cap)  # the last board's, for the stats
        if score > self.best[1] and self.answers(board):
            self.best = (board, score)
        return score if self.cap is not None else raw

    def suggest(self, solution: Solution) -> None:
        self.win.hint(solution)


def solve(inst: TantrixInstance, opts: SolveOptions, margin: int,
          cap: int | None = None, outline: int | None = None) -> Outcome:
    board = start_board(inst, opts, random.Random(opts.seed),
                        lambda: opts.stopped() or opts.remaining() == 0)
    if board is None:
        return Outcome(Status.TIMEOUT, stats={"margin": margin})
    score = int(check.score(inst, board))
    lost = check.outline_loss(board)
    over = 0 if outline is None else max(0, lost - outline)
    inside = over == 0  # else the start is a hint, not an answer
    if inside:
        opts.offer(board, float(score), source="start")  # kept should the build outlast the limit
    stats = {"margin": margin, "start_score": score,
             **({} if cap is None else {"cap": cap, "balanced_start": steered(inst, board, cap)}),
             **({} if outline is None else {"outline": outline, "outline_start": lost})}
    try:
        compiled = built(opts, lambda: BandCpsat(inst, board, margin, cap, outline, over))
    except OutOfTime:
        stopped = {**stats, "stopped": "the time limit ran out while the model was built"}
        return Outcome(Status.FEASIBLE, board, float(score), stats=stopped) if inside else \
            Outcome(Status.TIMEOUT, stats=stopped)
    steps = {"on_solution": _answers_only(compiled, opts.on_solution)} if compiled.steering else {}
    out = runner.run(compiled, opts.but(hint=board, **steps),  # the start board, not a hint
                     **workers(opts))                           # it replaced
    out.stats.update(stats, band_cells=len(compiled.cells))
    if out.solution is None and out.status == Status.TIMEOUT and inside:  # stopped in presolve
        out.status, out.solution, out.objective = Status.FEASIBLE, board, float(score)
    if cap is not None:  # CP-SAT's bound is on the balanced score first: none on the score
        out.bound = None
        for key in ("bound", "gap"):
            out.stats.pop(key, None)
        out.stats["balanced_end"] = compiled.balanced
    elif out.bound is not None:  # with steering too: an answer's objective is its score
        out.stats["bound_in_band"] = out.bound
    if compiled.steering:
        return _steered_answer(compiled, out, outline)
    if cap is not None and compiled.best[1] > (out.objective or -1):  # CP-SAT's last can score less
        out.solution, out.objective = compiled.best
    if out.status == Status.SOLVED:  # the best inside the band, not over all shapes
        out.stats["optimal_in_band"] = True
        out.status = Status.FEASIBLE
    return out


def _answers_only(compiled: BandCpsat, passed):
    """While steering, the boards outside the outline are steps, not answers: only the
    others reach the caller, by their own score. Installed even without a caller, so that
    CP-SAT reports every board to `compiled.reported`, which keeps the best answer."""
    def on_solution(board: Solution, _objective) -> None:
        if passed is not None and compiled.answers(board):
            passed(board, float(check.score(compiled.inst, board)))
    return on_solution


def _steered_answer(compiled: BandCpsat, out: Outcome, outline: int) -> Outcome:
    """The best board found that keeps to the outline, else none (status budget)."""
    board, score = compiled.best
    if board is None:
        out.status, out.solution, out.objective = Status.BUDGET, None, None
        out.stats["stop_reason"] = (f"no board found whose outline cuts at most {outline} "
                                    f"arcs")
        return out
    optimal = out.status == Status.SOLVED and out.objective is not None and score >= out.objective
    out.status, out.solution, out.objective = Status.FEASIBLE, board, float(score)
    if optimal:  # the best inside the band, not over all shapes
        out.stats["optimal_in_band"] = True
    return out
