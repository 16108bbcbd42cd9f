"""Edge matching by the memetic hybrid: the GA's population, seeded with break-search
boards, with its best member improved by a short anneal (anneal.py; the LNS lane's exact
repairs with `anneal=off`) every few generations and the improved board put back into the
population (hybrid/memetic.py).

Options: every GA option (ga.py; the tuned preset unless --preset says otherwise), plus
`memetic_every` (generations between repairs), `memetic_seconds` (time per repair), `seeds`
(break-search boards to start from, besides a complete board given as the hint) and the
break search's `breaks` / `break_from`, and `anneal` (on|off).
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from ...backends import ga as engine
from ...core.errors import InputError
from ...core.options import Option, Options, count, positive_int, seconds
from ...core.result import Outcome, Solution, SolveOptions, Status
from ...hybrid import memetic
from . import anneal, breakscan, ga, lns
from .instance import EdgeInstance

OPTIONS = Options(
    ga.OPTIONS,
    engine.preset_option(ga.PRESETS, "tuned"),
    breakscan.BREAK_OPTIONS,
    lns.OPTIONS["anneal"],
    Option("memetic_every", positive_int, None, "generations between repairs of the best "
           "board (1 when annealing, else 5)"),
    Option("memetic_seconds", seconds, None, "s per repair of the best board (5)"),
    Option("seeds", count, None, "break-search boards seeding the population (2)"),
)
SEED_SECONDS = 3.0  # break search per seeding board


def _complete_hint(inst: EdgeInstance, opts: SolveOptions) -> bool:
    return bool(opts.hint) and len(opts.hint) == inst.width * inst.height


def _seed_boards(inst: EdgeInstance, opts: SolveOptions, count: int) -> list[Solution]:
    """A complete hint first (a board handed over by another run), then `count` break-search
    boards."""
    boards = [dict(opts.hint)] if _complete_hint(inst, opts) else []
    sched = breakscan.schedule_of(inst, opts.params)
    tables = breakscan.BreakTables(inst, opts.fix)
    left = opts.remaining()
    # seeding takes at most a fifth of the limit (two 3 s searches overran -t 5 by 4 s)
    each = SEED_SECONDS if left is None else min(SEED_SECONDS, 0.2 * left / max(1, count))
    for k in range(count):
        if opts.stopped():
            break
        res = breakscan.search(inst, sched, opts.seed + 101 * k, time_limit=each,
                               stop=opts.stopped, tables=tables)
        if res.board is not None:
            boards.append(res.board)
    return boards


def solve(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    if opts.objective != "matches":
        raise InputError("the memetic backend maximises matched joins; add --objective matches")
    p = opts.params
    annealing = OPTIONS.value(p, "anneal")
    # every generation when annealing: on the official Eternity II under load a generation
    # took most of a minute, so 5 generations between repairs left the lane without any
    every = engine.convert(p, "memetic_every", engine._positive_int, "a positive integer") \
        if "memetic_every" in p else (1 if annealing else 5)
    seconds = float(lns._number(p, "memetic_seconds", 5.0, 0.01, 1e9))
    count = engine.convert(p, "seeds", engine._count, "an integer >= 0") if "seeds" in p else 2
    t0, cpu0 = time.perf_counter(), time.process_time()
    left = opts.remaining()  # the process's start-up counted
    end = None if left is None else t0 + left
    # the tuned preset: matched joins as fitness, like the repairs (the paper's fitness differs)
    ga_params = {"preset": "tuned", **{k: v for k, v in p.items() if k in ga.OPTIONS}}
    enc, cfg = ga.build(inst, replace(opts, params=ga_params))
    board = lns.Board(inst, opts.fix)
    rng = np.random.default_rng(opts.seed)
    shown = [-1.0]

    def offer(sol: Solution, fit: float, source: str) -> None:
        if fit > shown[0]:
            shown[0] = fit
            opts.offer(sol, fit, source)

    def improve(sol: Solution, fit: float) -> tuple[Solution, float]:
        left = seconds if end is None else max(0.01, min(seconds, end - time.perf_counter()))
        if annealing:  # the LNS lane's annealing (docs/hybrid.md: it beats the exact repairs)
            out, score = anneal.anneal(board, sol, int(rng.integers(1 << 30)), seconds=left,
                                       stop=opts.stopped)
        else:
            out, score = lns.improve(board, sol, rng, time_limit=left, stop=opts.stopped)
        return out, float(score)

    log = memetic.MemeticLog()
    cfg = memetic.attach(enc, cfg, improve, every, log,
                         on_better=lambda s, f: offer(s, f, "lns"))
    seeds = [enc.encode(b, rng) for b in _seed_boards(inst, opts, count)]
    hinted = _complete_hint(inst, opts)
    for k, g in enumerate(seeds):
        sol = enc.decode(g)
        offer(sol, board.score(*board.arrays(sol)), "hint" if k == 0 and hinted
              else "backtracker")
    ga_opts = replace(opts, params=ga_params,
                      on_solution=lambda s, f: offer(s, board.score(*board.arrays(s)), "ga"))
    if end is not None:
        ga_opts.time_limit = max(0.05, end - time.perf_counter())
    res = engine.evolve(enc, cfg, ga_opts, seeds=seeds)
    sol = enc.decode(res.best)
    score = board.score(*board.arrays(sol))
    stats = res.stats()
    stats.update(solver="memetic", repairs_lns=log.calls, lns_gains=log.gains,
                 lns_seconds=round(log.seconds, 3), seeded=len(seeds),
                 seconds=round(time.perf_counter() - t0, 4),
                 cpu_seconds=round(time.process_time() - cpu0, 4))
    joins = len(board.joins)
    status = Status.SOLVED if score == joins else Status.FEASIBLE
    return Outcome(status, sol, score, joins if status == Status.SOLVED else None, stats)
