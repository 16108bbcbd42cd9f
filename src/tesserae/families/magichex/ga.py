"""An evolutionary algorithm for magic hexagons, after the numpy EA of "Sudoku on steroids".

Each individual is a permutation of the numbers over the cells (givens stay in place); its
fitness is minus the sum of squared line errors (0 = magic). A generation keeps the best
`--candidates` (p_cand) of the `--population` (p_size) boards, clones them round-robin to
refill the population and mutates every clone by 1..`--swaps` random swaps; the candidates
themselves survive unchanged (elitism), so the best fitness never drops.

What makes it reliable: when the best board has not improved for `--stall` generations it is
polished by the swap tabu search (tabu.py) for `--polish` steps and the result replaces the
worst candidate (a memetic step). `--polish 0` runs the plain EA of the blog.
"""

from __future__ import annotations

import time

import numpy as np

from ...core.errors import InputError
from ...core.result import Outcome, Solution, SolveOptions, Status
from .model import MagicHexInstance
from .tabu import LineAlgebra, tabu_search

PARAMS = ("population", "candidates", "swaps", "stall", "polish", "generations")
DEFAULTS = {"population": 200, "candidates": 20, "swaps": 2, "stall": 50, "polish": 2000}
DEFAULT_SECONDS = 60.0  # without --time-limit: the EA cannot prove there is no solution


def int_param(opts: SolveOptions, name: str, default: int | None, low: int) -> int | None:
    raw = opts.params.get(name, default)
    if raw is None:
        return None
    try:
        val = int(raw)
    except (TypeError, ValueError):
        raise InputError(f"--{name} must be an integer, got {raw!r}") from None
    if val < low:
        raise InputError(f"--{name} must be at least {low}, got {val}")
    return val


def decode(inst: MagicHexInstance, board: np.ndarray) -> Solution:
    return {c: int(v) for c, v in zip(inst.cells, board, strict=True)}


def solve(inst: MagicHexInstance, opts: SolveOptions) -> Outcome:
    size = int_param(opts, "population", DEFAULTS["population"], 2)
    cand = int_param(opts, "candidates", DEFAULTS["candidates"], 1)
    swaps = int_param(opts, "swaps", DEFAULTS["swaps"], 1)
    stall = int_param(opts, "stall", DEFAULTS["stall"], 1)
    polish = int_param(opts, "polish", DEFAULTS["polish"], 0)
    max_gen = int_param(opts, "generations", None, 1)
    if cand > size:
        raise InputError(f"--candidates ({cand}) cannot exceed --population ({size})")
    rng = np.random.default_rng(opts.seed)
    la = LineAlgebra(inst)
    movable = np.flatnonzero(la.movable)
    t0 = time.monotonic()
    deadline = t0 + (opts.time_limit if opts.time_limit is not None else DEFAULT_SECONDS)

    pop = np.stack([la.random_board(rng) for _ in range(size)])
    if opts.hint and all(c in opts.hint for c in inst.cells):
        pop[0] = [opts.hint[c] for c in inst.cells]
    cost = la.costs(pop)
    best_cost, since, gen, polishes = int(cost.min()), 0, 0, 0
    while best_cost > 0 and len(movable) >= 2:
        if time.monotonic() >= deadline or opts.stopped():
            break
        if max_gen is not None and gen >= max_gen:
            break
        gen += 1
        keep = np.argsort(cost, kind="stable")[:cand]
        elite, elite_cost = pop[keep], cost[keep]
        clones = elite[np.arange(size - cand) % cand].copy()
        rows = np.arange(len(clones))
        for _ in range(int(rng.integers(1, swaps + 1))):
            a = movable[rng.integers(0, len(movable), len(clones))]
            b = movable[rng.integers(0, len(movable), len(clones))]
            clones[rows, a], clones[rows, b] = clones[rows, b], clones[rows, a].copy()
        pop = np.concatenate([elite, clones])
        cost = np.concatenate([elite_cost, la.costs(clones)])
        if polish and since >= stall:
            res = tabu_search(inst, rng, start=elite[0], deadline=deadline, stop=opts.stop,
                              max_iterations=polish, algebra=la)
            pop[cand - 1], cost[cand - 1] = res.values, res.cost
            polishes += 1
            since = 0
        now = int(cost.min())
        if now < best_cost:
            best_cost, since = now, 0
            if opts.on_solution is not None:
                opts.on_solution(decode(inst, pop[int(np.argmin(cost))]), float(-now))
        else:
            since += 1
    best = pop[int(np.argmin(cost))]
    stats = {
        "generations": gen,
        "evaluations": size + gen * (size - cand),
        "best_fitness": -best_cost,
        "polishes": polishes,
        "seconds": round(time.monotonic() - t0, 4),
    }
    status = Status.SOLVED if best_cost == 0 else Status.TIMEOUT
    return Outcome(status, decode(inst, best), float(-best_cost), None, stats)
