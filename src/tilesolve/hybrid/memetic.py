"""A memetic loop: a GA whose best individual is handed to a local improver (an exact
large-neighbourhood search, say) every few generations, and whose population takes the
improved board back in place of its worst member.

Puzzle-independent: it needs the GA encoding's encode/decode/fitness and an `improve`
function; it hooks into the engine through `GAConfig.on_generation`, whose `GAState` holds
the live population and fitness arrays, so the GA keeps its population across the loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from ..backends import ga as engine
from ..core.result import Solution

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
