"""Edge matching by a memetic algorithm, in one of two forms.

- The pool (the default, `pool` >= 2): a few boards, each a break-search board annealed
  (anneal.py); a child of two members takes a rectangle of one and the rest of the other
  (recombine.py), is annealed for `memetic_seconds` CPU s and replaces the worst member when
  it is better and not already there (backends/memetic.py, evolve_pool).
- The GA (`pool 0`): the GA's population, seeded with break-search boards, with its best member
  improved by a short anneal (the LNS lane's exact repairs with `anneal=off`) every few
  generations and the improved board put back into the population (backends/memetic.py, attach).

Options: every GA option (ga.py; the tuned preset unless --preset says otherwise), plus
`memetic_every` (generations between repairs), `memetic_seconds` (time per repair or child),
`seeds` (break-search boards to start from, besides a complete board given as the hint), the
break search's `breaks` / `break_from`, `anneal` (on|off), and the pool's `pool`,
`member_seconds` and `start_time`; the annealing's schedule takes the LNS lane's options
(`temperature`, `replicas`, `t_max`, `triples`...).
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from ...backends import ga as engine
from ...backends import memetic
from ...core.errors import InputError
from ...core.options import Option, Options, count, non_negative, positive_int, seconds
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions, Status
from . import anneal, breakscan, ga, lns
from .break_options import BREAK_OPTIONS
from .instance import EdgeInstance

POOL = 4
MEMBER_SECONDS = 10.0
START_SECONDS = 5.0
OPTIONS = Options(
    ga.OPTIONS,
    engine.preset_option(ga.PRESETS, "tuned"),
    BREAK_OPTIONS,
    lns.OPTIONS["anneal"],
    *(lns.OPTIONS[name] for name in (*lns.SCHEDULE_OPTIONS, "inbox")),
    Option("memetic_every", positive_int, None, "generations between repairs of the best "
           "board (1 when annealing, else 5)"),
    Option("memetic_seconds", seconds, None, "s per repair of the best board (5)"),
    Option("seeds", count, None, "break-search boards seeding the population (2)"),
    Option("pool", count, None, "boards in the memetic pool: each a break-search board "
           "annealed, children by rectangle crossover (recombine.py) annealed "
           "--memetic-seconds CPU s, replacing the worst member (0: the GA instead; "
           f"default {POOL})"),
    Option("member_seconds", seconds, None, "CPU s of annealing per first pool member "
           f"({MEMBER_SECONDS:g})"),
    Option("start_time", non_negative, None, "CPU s of break search per pool member's start "
           f"board ({START_SECONDS:g})"),
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
    pool = OPTIONS.value(p, "pool")
    if annealing and (POOL if pool is None else pool) >= 2:
        return solve_pool(inst, opts, POOL if pool is None else pool)
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
    problem = ga.ga_problem(inst, replace(opts, params=ga_params), "tuned")
    enc, cfg = problem.encoding, problem.config
    board = lns.Board(inst, opts.fix)
    rng = np.random.default_rng(opts.seed)
    sched = lns.schedule_of(p)
    shown = [-1.0]

    def offer(sol: Solution, fit: float, source: str) -> None:
        if fit > shown[0]:
            shown[0] = fit
            opts.offer(sol, fit, source)

    def improve(sol: Solution, fit: float) -> tuple[Solution, float]:
        left = seconds if end is None else max(0.01, min(seconds, end - time.perf_counter()))
        if annealing:  # the LNS lane's annealing (lab/pages/hybrid.md: it beats the exact repairs)
            out, score = sched.search(board, sol, int(rng.integers(1 << 30)), seconds=left,
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


def solve_pool(inst: EdgeInstance, opts: SolveOptions, size: int) -> Outcome:
    """The memetic pool (backends/memetic.py, evolve_pool): `size` break-search boards, each
    annealed; then children of two members by rectangle crossover (recombine.py), each
    annealed, replacing the worst member. Every budget is CPU seconds, so a loaded machine
    slows the run but does not change what it does."""
    from . import recombine

    p = opts.params
    t0, cpu0 = time.perf_counter(), time.process_time()
    left = opts.remaining()  # the process's start-up counted
    end = None if left is None else t0 + left
    child_cpu = float(lns._number(p, "memetic_seconds", 5.0, 0.01, 1e9))
    member_cpu = float(lns._number(p, "member_seconds", MEMBER_SECONDS, 0.01, 1e9))
    start_cpu = float(lns._number(p, "start_time", START_SECONDS, 0.0, 1e9))
    board = lns.Board(inst, opts.fix)
    rng = np.random.default_rng(opts.seed)
    sched = lns.schedule_of(p)
    shown = [-1]

    def out_of_time() -> bool:
        return opts.stopped() or (end is not None and time.perf_counter() >= end)

    def offer(sol: Solution, score: int, source: str) -> None:
        if score > shown[0]:
            shown[0] = score
            opts.offer(sol, score, source)

    def annealed(sol: Solution, cpu: float, source: str) -> tuple[Solution, float]:
        budget = anneal.CpuBudget(cpu)
        wall = 1e9 if end is None else max(0.01, end - time.perf_counter())
        out, score = sched.search(board, sol, int(rng.integers(1 << 30)), seconds=wall,
                                  stop=lambda: opts.stopped() or budget.is_set(),
                                  on_improve=lambda s, k: offer(s, k, source))
        return out, float(score)

    members: list[tuple[Solution, float]] = []
    for k in range(size):
        if out_of_time():
            break
        if k == 0 and _complete_hint(inst, opts):
            start = dict(opts.hint)
        else:
            fresh = replace(opts, seed=opts.seed + 7919 * k, hint=None, on_solution=None,
                            progress_jsonl=None)
            wall = 4 * start_cpu if end is None else \
                max(0.05, min(4 * start_cpu, end - time.perf_counter()))
            start = lns.start_board(inst, fresh, start_cpu, wall, end)
            if start is None:
                continue
        offer(start, board.score(*board.arrays(start)), "hint" if start == opts.hint
              else "backtracker")
        members.append(annealed(start, member_cpu, "lns"))

    def child(a: Solution, b: Solution, rng: np.random.Generator) -> Solution:
        aa, bb = board.arrays(a), board.arrays(b)
        return board.solution(*recombine.recombine(board, aa, bb,
                                                   recombine.rectangle(board, rng), rng))

    log = memetic.PoolLog()
    joins = len(board.joins)
    inbox = p.get("inbox")
    if not members:
        return Outcome(Status.TIMEOUT, stats={"solver": "memetic", "stopped": "no start board "
                                              "within the limit"})
    final = memetic.evolve_pool(members, child,
                                lambda s, _f: annealed(s, child_cpu, "lns"), rng,
                                stop=out_of_time, log=log, target=joins,
                                incoming=None if inbox is None else inbox.take)
    sol, score = final[0][0], int(final[0][1])
    stats = {"solver": "memetic", "method": "pool", "pool": size,
             "first_scores": [int(f) for _, f in members],
             "final_scores": [int(f) for _, f in final], "children": log.children,
             "kept": log.kept, "gains": log.gains, "duplicates": log.duplicates,
             "received": log.received,
             "seconds": round(time.perf_counter() - t0, 4),
             "cpu_seconds": round(time.process_time() - cpu0, 4)}
    status = Status.SOLVED if score == joins else Status.FEASIBLE
    return Outcome(status, sol, score, joins if status == Status.SOLVED else None, stats)


BACKEND = Backend("memetic", OPTIONS, solve, objectives=("matches",))
