"""The lns backend for --objective longest: a large-neighbourhood search over a free shape.

The other score backends fill one fixed compact 56-cell shape, so the shape long loops need
is never searched (lab/pages/tantrix_56.md). Here the shape changes: each step takes the tiles
out of a window of the current board, adds empty cells next to the cluster to the window, and
re-solves the window with CP-SAT for Downing's score, the rest of the board fixed
(`window_model`: golden rule, one cluster, no holes, the score's pieces through the window).
A tile may move to one of the empty cells and leave its own cell empty, so the cluster's
outline moves step by step.

The window grows while it finds nothing better: after `--widen` steps without a better board
it takes 2 more tiles and 1 more empty cell, up to `--window-max` tiles, its CP-SAT time
growing in proportion (`--window-seconds` is the time of a window of `--window` tiles). From
the best Loop board (93), windows of 10 tiles found nothing better in 1,387 steps (84 CPU s);
one of 22 tiles found 94 within 40 s (lab/pages/tantrix_56.md).

`--kick N` leaves a basin: after N steps at the widest window without a better board, one
window of that size is re-solved for its best board that changes at least half its cells, and
the search goes on from it even when its score is lower (from the best board instead when the
current one has fallen more than `--kick-drop` below it); the window starts small again. The
Loop's best boards came from the basins the lns was started in, not from more time in one; but
kicks every 20 stale steps at windows of 20 tiles found nothing better than the 104 or than
another start's 87 in 600 CPU s (2-3 kicks each), so they are off by default
(lab/pages/tantrix_56.md, "Kicks").

`--cap N` steers the steps by a balanced score: each goal colour counts at most N tiles (and N
rises by one whenever every colour reaches it), so a step may shorten a loop that is longer
than N to lengthen a short one; the best board is still the one of the highest full score.
The best Loop boards had red and blue loops of 36-37 tiles and yellow and green of 4 and 16,
where every step that lengthens yellow or green costs red or blue more than it gives.

Windows, one of two kinds per step:
- loop surgery (`--surgery`, the share of steps): a goal colour, its longest piece of the
  goal's kind and the nearest other piece of that colour; the window is centred where the two
  come closest, so a re-solve can splice them into one; for a line goal, half of these
  windows are centred on an open end of its longest line instead, where it can grow;
- a window around a random tile of the cluster.

The checker (`check.verify`) verifies every board the search moves to; a board is kept when
its score is not lower (equal scores let the shape drift), and the best is offered to the
pipeline as it improves. The start: the `hint` board (a `--hint FILE` or a portfolio's
board), else the compact fill of the search backend. No bound is proved: FEASIBLE.
"""

from __future__ import annotations

import dataclasses
import random
import time

from ortools.sat.python import cp_model

from ...backends import cpsat as runner
from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.options import Option, Options, as_is, count, fraction, positive_int, seconds
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions, Status
from . import check, score_search
from .window_model import WindowModel

Hex = hx.Hex
OBJECTIVES = ("longest",)


OPTIONS = Options(
    Option("window", positive_int, 10, "--objective longest: tiles a step takes out"),
    Option("empty", positive_int, 8, "--objective longest: empty cells next to the cluster a "
           "step adds to the window (where the shape may grow)"),
    Option("surgery", fraction, 0.5, "--objective longest: share of steps whose window joins the "
           "longest piece of a goal colour to the nearest other piece of that colour"),
    Option("window_seconds", seconds, 2.0, "--objective longest: CP-SAT's time on one window "
           "(seconds and deterministic units)"),
    Option("window_max", positive_int, 30, "--objective longest: the most tiles a window grows "
           "to while steps find nothing better (--window: a fixed window)"),
    Option("widen", positive_int, 40, "--objective longest: steps without a better board before "
           "the window takes 2 more tiles"),
    Option("cap", positive_int, None, "--objective longest: steps maximise the score with each "
           "goal colour counted up to this many tiles (raised by 1 when all reach it); the best "
           "board is judged by the full score"),
    Option("kick", positive_int, None, "--objective longest: steps at the widest window "
           "without a better board before a kick: the best re-solve of a window of that size "
           "that changes at least half its cells, kept even when its score is lower"),
    Option("kick_drop", count, 6, "--objective longest: with --kick, a kick starts from the "
           "best board instead of the current one when the current is more than this below it"),
    Option("steps", positive_int, 200, "--objective longest: steps when there is no -t"),
    Option("hint", str, None, "--objective longest: a board file to start from"),
    Option("inbox", as_is, help="the portfolio's boards from the other lanes (hybrid.lanes)",
           internal=True),
)


def goal_length(board: Solution, goal) -> int:
    """Tiles on the goal colour's longest piece of the goal's kind."""
    return check.longest_piece(check.colour_lines(board, goal.colour), goal.kind)


def steered(inst, board: Solution, cap: int | None) -> int:
    """The full score, or with a cap the balanced score: each goal's piece counted up to it."""
    if cap is None:
        return int(check.score(inst, board))
    return sum(min(cap, goal_length(board, g)) for g in inst.goals)


def surgery_centre(inst, board: Solution, rng: random.Random,
                   cap: int | None = None) -> Hex | None:
    """Where a goal colour's longest piece of the goal's kind comes closest to another piece
    of that colour (None when the colour draws one piece only); with a cap, a colour below it
    where there is one."""
    short = [g for g in inst.goals if cap is not None and goal_length(board, g) < cap]
    goal = rng.choice(short or inst.goals)
    lines = check.colour_lines(board, goal.colour)
    want = goal.kind == "loop"
    mine = [p for p, closed in zip(lines.pieces, lines.closed, strict=True) if closed == want]
    if not mine:
        return None
    main = max(mine, key=len)
    ends = [c for c, _edge in lines.ends if c in main]
    if ends and rng.random() < 0.5:  # a line goal's longest line grows at its ends
        return rng.choice(ends)
    if len(lines.pieces) < 2:
        return None
    others = [c for p in lines.pieces if p is not main for c in p]
    pairs = [(hx.distance(a, b), rng.random(), a, b) for a in main for b in others]
    _d, _r, a, b = min(pairs)
    return rng.choice((a, b))


def window(board: Solution, centre: Hex, tiles: int, empty: int,
           rng: random.Random) -> tuple[list[Hex], list[Hex]]:
    """The `tiles` placed cells nearest the centre and the `empty` free cells next to the
    cluster nearest it."""
    def near(cells):
        return sorted(cells, key=lambda c: (hx.distance(c, centre), rng.random()))
    taken = near(board)[:tiles]
    rim = {nb for c in board for nb in hx.neighbours(c) if nb not in board}
    return taken, near(rim)[:empty]


def start_board(inst, opts: SolveOptions, rng: random.Random, late) -> Solution | None:
    """The hint board when it verifies, else the search backend's compact fill (None when
    `late()` comes first)."""
    board = opts.hint
    if board and check.verify(inst, board, check.LONGEST).ok:
        return dict(board)
    t = score_search.Tables.build(inst)
    while not late():
        full = score_search.first_fill(t, rng, score_search.FILL_NODES, opts.deadline(), opts)
        if full is not None:
            return {t.cells[i]: (t.tiles[j], rot) for i, (j, rot) in enumerate(full)}
    return None


class FreeShapeLns:
    def __init__(self, inst, opts: SolveOptions):
        if opts.started is None:  # a caller that did not start the clock: the limit runs now
            opts = dataclasses.replace(opts)
            opts.start_clock()
        self.inst, self.opts = inst, opts
        self.p = {k: OPTIONS.value(opts.params, k) for k in OPTIONS.names()}
        self.rng = random.Random(opts.seed)
        self.steps = self.moves = self.better = self.surgeries = self.rejected = 0
        self.best_step = 0  # the step that found the best board
        self.size = self.p["window"]  # the window's tiles now (grows while nothing is found)
        self.stale = 0  # steps since the last better board
        self.cap = self.p["cap"]  # each goal colour's most tiles in the steps' score (None: all)
        self.steer_start = self.steer_end = None  # the balanced score at the start and end
        self.taken = 0  # boards of other lanes adopted (a portfolio's --share)
        self.kicks = self.kicks_lower = 0  # kicks, and those that took a lower score

    def start(self) -> Solution | None:
        return start_board(self.inst, self.opts, self.rng, self.late)

    def steered(self, board: Solution) -> int:
        """The score the steps maximise: the full score, or with --cap each goal's piece
        counted up to the cap."""
        return steered(self.inst, board, self.cap)

    def late(self) -> bool:
        deadline = self.opts.deadline()
        return self.opts.stopped() or (deadline is not None and time.monotonic() >= deadline)

    def step(self, board: Solution, floor: int, kick: bool = False) -> tuple[Solution, int] | None:
        """One window re-solved, its steered score at least `floor` (a kick: changing at least
        half the window's cells, any score); the verified board and its full score, or None."""
        centre = None
        if self.rng.random() < self.p["surgery"]:
            centre = surgery_centre(self.inst, board, self.rng, self.cap)
            self.surgeries += centre is not None
        if centre is None:
            centre = self.rng.choice(sorted(board))
        grown = self.size - self.p["window"]
        taken, empty = window(board, centre, self.size, self.p["empty"] + grown // 2, self.rng)
        model = WindowModel(self.inst, board, taken, empty, floor=0 if kick else floor,
                            cap=self.cap)
        if kick:
            model.must_change((len(taken) + len(empty) + 1) // 2)
        budget = self.p["window_seconds"] * self.size / self.p["window"]
        left = self.opts.remaining()
        limit = budget if left is None else min(left, budget)
        # the deterministic limit makes a seeded run repeat on a loaded machine as well
        solver = runner.make_solver(dataclasses.replace(
            self.opts, time_limit=max(0.01, limit), seed=self.rng.randrange(2**31 - 1),
            verbose=False, params={}), max_deterministic_time=budget,
            catch_sigint_signal=False)  # a window is one step: Ctrl-C ends the run after it
        if solver.solve(model.m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        new = model.board(solver)
        rep = check.verify(self.inst, new, check.LONGEST)
        if not rep.ok:  # the model states the checker's rules; count any disagreement
            self.rejected += 1
            return None
        return new, int(rep.score)

    def run(self) -> Outcome:
        t0 = time.perf_counter()
        board = self.start()
        if board is None:
            return Outcome(Status.TIMEOUT, stats=self.stats(t0, None))
        score, steer = int(check.score(self.inst, board)), self.steered(board)
        self.steer_start = steer
        best, best_score = dict(board), score
        self.opts.offer(best, float(best_score), source="lns")
        limit = None if self.opts.time_limit is not None else self.p["steps"]
        top = check.max_score(self.inst)  # every arc of the goal colours on its line: done
        while best_score < top and not self.late() and (limit is None or self.steps < limit):
            if (sent := self.received(best_score)) is not None:  # another lane's better board
                board, score = sent
                best, best_score = dict(board), score
                steer = self.steered(board)
            self.steps += 1
            rose, kick = False, self.kick_due()
            if kick:
                board, score, steer = self.kicked(board, score, best, best_score)
            elif (got := self.step(board, steer)) is not None and \
                    (new := self.steered(got[0])) >= steer:
                self.moves += got[0] != board
                rose = new > steer  # with --cap: a better balanced score
                (board, score), steer = got, new
                if self.cap is not None and steer == self.cap * len(self.inst.goals):
                    self.cap += 1  # every colour reached the cap: ask one more tile of each
                    steer = self.steered(board)
            improved = score > best_score
            if improved:
                best, best_score = dict(board), score
                self.better += 1
                self.best_step = self.steps
                self.opts.offer(best, float(best_score), source="lns")
            if not kick:  # a kick starts the count of stale steps afresh
                self.widen(rose or improved)
            self.opts.report(best=best_score, steps=self.steps)
        self.steer_end = steer
        return Outcome(Status.FEASIBLE, best, float(best_score), stats=self.stats(t0, best_score))

    def received(self, best: int) -> tuple[Solution, int] | None:
        """The newest board the portfolio's other lanes sent, when it verifies and beats
        `best` (the portfolio's CP-SAT lane finds 79-86 on the compact shape within minutes,
        where this search from the compact fill reached 45-49 in 300 CPU s)."""
        inbox = self.p.get("inbox")
        held = None if inbox is None else inbox.take()
        if held is None:
            return None
        board = dict(held[0])
        rep = check.verify(self.inst, board, check.LONGEST)
        if not rep.ok or int(rep.score) <= best:
            return None
        self.taken += 1
        return board, int(rep.score)

    def kick_due(self) -> bool:
        """--kick: that many steps at the widest window without a better board."""
        return (self.p["kick"] is not None and self.size >= self.p["window_max"]
                and self.stale >= self.p["kick"])

    def kicked(self, board: Solution, score: int, best: Solution,
               best_score: int) -> tuple[Solution, int, int]:
        """(board, score, steered score) after a kick from the current board, or from the
        best one when the current has fallen more than --kick-drop below it; the window starts
        small again. A kick CP-SAT could not finish in its time leaves the board as it was."""
        if score < best_score - self.p["kick_drop"]:
            board, score = dict(best), best_score
        self.kicks += 1
        got = self.step(board, 0, kick=True)  # at the widest window, where the kick is due
        self.size, self.stale = self.p["window"], 0
        if got is None:
            return board, score, self.steered(board)
        self.kicks_lower += got[1] < score
        self.moves += 1
        return got[0], got[1], self.steered(got[0])

    def widen(self, better: bool) -> None:
        """After `widen` steps in a row without a better board (or, with --cap, a better
        balanced score) the window grows."""
        self.stale = 0 if better else self.stale + 1
        if self.stale >= self.p["widen"] and self.size < self.p["window_max"]:
            self.size = min(self.p["window_max"], self.size + 2)
            self.stale = 0

    def stats(self, t0: float, best) -> dict:
        return {**{k: v for k, v in self.p.items() if k not in ("hint", "inbox")},
                "solver": "free-shape lns",
                "window_reached": self.size, "cap_reached": self.cap,
                **({} if self.p.get("inbox") is None else {"adopted": self.taken}),
                **({} if self.cap is None else {"balanced_start": self.steer_start,
                                                "balanced_end": self.steer_end}),
                **({} if self.p["kick"] is None else {"kicks": self.kicks,
                                                      "kicks_lower": self.kicks_lower}),
                "steps": self.steps, "steps_to_best": self.best_step, "moves": self.moves,
                "improvements": self.better,
                "surgery_windows": self.surgeries, "rejected_by_checker": self.rejected,
                "best_score": best, "seconds": round(time.perf_counter() - t0, 4)}


def free_shape_options(inst, opts: SolveOptions, who: str) -> SolveOptions:
    """What a search that changes the shape needs (a free shape, goals of given colours),
    refused in one line naming `who`, and the options with `--hint FILE` read as the hint."""
    if inst.shape != "free":
        raise InputError(f"{who} changes the shape: free shapes only")
    if not inst.goals or any(g.colour == "any" for g in inst.goals):
        raise InputError(f"{who} scores goals of given colours (no 'any')")
    path = opts.params.get("hint")
    if path is None:
        return opts
    from .family import FAMILY

    return opts.but(hint=FAMILY.read_solution(inst, path))


def solve(inst, opts: SolveOptions) -> Outcome:
    if opts.objective not in OBJECTIVES:
        raise InputError("the lns backend of tantrix searches --objective longest only")
    return FreeShapeLns(inst, free_shape_options(inst, opts, "the lns backend of tantrix")).run()


BACKEND = Backend("lns", OPTIONS, solve, objectives=OBJECTIVES)
