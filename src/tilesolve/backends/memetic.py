"""Memetic loops: a GA whose best individual is handed to a local improver (an exact
large-neighbourhood search, say) every few generations, and whose population takes the
improved board back in place of its worst member (`attach`); and a small pool of improved
boards whose children, made by a recombination and improved in turn, replace the worst member
(`evolve_pool`).

Puzzle-independent: `attach` needs the GA encoding's encode/decode/fitness and an `improve`
function; it hooks into the engine through `GAConfig.on_generation`, whose `GAState` holds
the live population and fitness arrays, so the GA keeps its population across the loop.
`evolve_pool` needs a `recombine` and an `improve` function over the family's boards.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from ..core.result import Solution
from . import ga as engine

Improver = Callable[[Solution, float], tuple[Solution, float]]


@dataclass
class MemeticLog:
    calls: int = 0
    gains: int = 0  # calls that returned a better board than the GA gave
    seconds: float = 0.0
    history: list[tuple[float, float, str]] = field(default_factory=list)  # (s, fitness, src)


def attach(enc, cfg: engine.GAConfig, improve: Improver, every: int,
           log: MemeticLog | None = None,
           on_better: Callable[[Solution, float], None] | None = None) -> engine.GAConfig:
    """A copy of `cfg` whose generation hook improves the best member every `every`
    generations and puts the result in the worst member's place when the GA's fitness rates
    it higher (the improver may score boards its own way; on_better gets its score)."""
    log = log if log is not None else MemeticLog()
    chained = cfg.on_generation
    rng = np.random.default_rng(0)

    def hook(state: engine.GAState) -> None:
        if chained is not None:
            chained(state)
        if state.generation % max(1, every):
            return
        i = int(np.argmax(state.fit))
        t0 = time.perf_counter()
        sol, fit = improve(enc.decode(state.pop[i]), float(state.fit[i]))
        log.seconds += time.perf_counter() - t0
        log.calls += 1
        genome = enc.encode(sol, rng)
        value = float(enc.fitness(genome[None, :])[0])  # in the GA's own fitness terms
        if value <= state.fit[i]:
            return
        log.gains += 1
        j = int(np.argmin(state.fit))
        state.pop[j], state.fit[j] = genome, value
        if on_better is not None:
            on_better(sol, fit)

    return replace(cfg, on_generation=hook)


# --- a memetic pool: every member a locally optimal board ----------------------------------
Recombiner = Callable[[Solution, Solution, np.random.Generator], Solution]


@dataclass
class PoolLog:
    children: int = 0
    kept: int = 0  # children that replaced the worst member
    gains: int = 0  # children better than every member before them
    duplicates: int = 0  # children equal to a member, not kept
    received: int = 0  # boards from elsewhere (another lane's best) taken into the pool


def evolve_pool(members: list[tuple[Solution, float]], recombine: Recombiner,
                improve: Improver, rng: np.random.Generator, stop: Callable[[], bool],
                log: PoolLog | None = None, target: float = float("inf"),
                on_better: Callable[[Solution, float], None] | None = None,
                incoming: Callable[[], tuple[Solution, float] | None] | None = None
                ) -> list[tuple[Solution, float]]:
    """A steady-state memetic algorithm over improved boards: two distinct members make a
    child (`recombine`), the improver raises it, and it replaces the worst member when it is
    better and not already in the pool. Before each child, a board from `incoming` (another
    lane's best) takes the worst member's place in the same way, so children recombine it.
    Runs until `stop` or a member reaches `target`; returns the pool, best first."""
    log = log if log is not None else PoolLog()
    pool = list(members)
    best = max(f for _, f in pool)
    while len(pool) >= 2 and best < target and not stop():
        got = incoming() if incoming is not None else None
        if got is not None and not any(got[0] == sol for sol, _ in pool):
            worst = min(range(len(pool)), key=lambda k: pool[k][1])
            if got[1] > pool[worst][1]:
                pool[worst] = (dict(got[0]), float(got[1]))
                best = max(best, float(got[1]))
                log.received += 1
        i, j = rng.choice(len(pool), size=2, replace=False)
        child, fit = improve(recombine(pool[i][0], pool[j][0], rng), -1.0)
        log.children += 1
        if stop() and fit <= best:
            break
        worst = min(range(len(pool)), key=lambda k: pool[k][1])
        if any(child == sol for sol, _ in pool):
            log.duplicates += 1
            continue
        if fit > pool[worst][1]:
            pool[worst] = (child, fit)
            log.kept += 1
        if fit > best:
            best = fit
            log.gains += 1
            if on_better is not None:
                on_better(child, fit)
    return sorted(pool, key=lambda m: -m[1])
