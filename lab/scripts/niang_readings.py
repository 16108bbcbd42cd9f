"""Probe readings of Niang's GA (thesis, 2010) that its text leaves open, on one board.

python lab/scripts/niang_readings.py READING BOARD --seeds 0,1,2,3,4 --generations 2000 \
    [--param layout=frame ...]

Runs the paper preset (`tilesolve solve BOARD --backend ga`, with the --param options) with
one step replaced as READING says, and prints one JSON line per seed: solved, the generation
it stopped at, the best fitness, the CPU seconds, and at generations 20, 50, 209 (Fig. 23's
counters), 500, 1000 and 2000 the best fitness, the number of distinct boards among the
population and the population's mean fitness. The readings (niang_notes.md gives what each
measured):

* paper: the preset as it is (10% of the children mutated once each).
* per-cell: every child's cells are each mutated with chance 0.1: a Binomial(cells, 0.1)
  number of operator draws per child (mutation rate per gene, not per child).
* population: the children are not mutated; once the elite has replaced the worst child,
  10% of the new population (the elite included) is mutated ("Mutating 200" in Fig. 45).
* elite-exposed: the previous best takes the place of the worst tournament winner in the
  mating pool and goes through crossover and mutation like the others (Fig. 35: the best
  gets worse under elitism 1).
* replace-if-better: each child takes its parent's place in the population only when it
  is fitter than the board now there (parents otherwise survive).

Evaluations are counted as the thesis's EVAL counter: one per child, 200 per generation.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from tilesolve.backends import ga as engine
from tilesolve.core.family import load_instance
from tilesolve.core.result import SolveOptions
from tilesolve.families.edgematch import ga, mutations

SNAPSHOTS = (20, 50, 209, 500, 1000, 2000)


class PerCell(ga.NiangEncoding):
    """Mutation per gene: each cell draws an operator with chance `cell_rate`."""

    cell_rate = 0.1

    def mutate(self, pop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        draws = rng.binomial(self.n, self.cell_rate, len(pop))
        for row, times in zip(pop, draws, strict=True):
            for _ in range(times):
                name = self.operators[rng.integers(0, len(self.operators))]
                mutations.PAPER[name](self, row, rng)
        return self.normalise(pop)


class Population(engine._Run):
    """Mutation of the new population after replacement, the elite included."""

    def generational(self, pop, fit):
        rate = self.cfg.mutation_rate
        self.cfg.mutation_rate = 0.0
        pop, fit = super().generational(pop, fit)
        self.cfg.mutation_rate = rate
        rows = np.flatnonzero(self.rng.random(len(pop)) < rate)
        if len(rows):
            pop[rows] = self.enc.mutate(pop[rows], self.rng)
            self.evaluations -= len(rows)  # re-scored boards, not new children
            fit[rows] = self.evaluate(pop[rows])
        return pop, fit


class _Pairs(engine._Run):
    def bred(self, pool: np.ndarray) -> np.ndarray:
        """Crossover of the pool's halves (0.9 per pair), then mutation (0.1 per child)."""
        c, rng, enc = self.cfg, self.rng, self.enc
        half = len(pool) // 2
        a, b = pool[:half].copy(), pool[half:2 * half].copy()
        cross = rng.random(half) < c.crossover_rate
        if cross.any():
            a[cross], b[cross] = enc.crossover(a[cross], b[cross], rng)
        kids = np.concatenate([a, b])
        mut = rng.random(len(kids)) < c.mutation_rate
        if mut.any():
            kids[mut] = enc.mutate(kids[mut], rng)
        return kids


class EliteExposed(_Pairs):
    """The previous best in the mating pool, varied like the others."""

    def generational(self, pop, fit):
        par = engine.select(fit, len(pop), self.cfg, self.rng)
        par[int(np.argmin(fit[par]))] = int(np.argmax(fit))
        kids = self.bred(pop[self.rng.permutation(par)])
        return kids, self.evaluate(kids)


class ReplaceIfBetter(_Pairs):
    """Children take their parents' places only when fitter."""

    def generational(self, pop, fit):
        par = engine.select(fit, len(pop) // 2 * 2, self.cfg, self.rng)
        kids = self.bred(pop[par])
        kf = self.evaluate(kids)
        pop, fit = pop.copy(), fit.copy()
        for slot, kid, f in zip(par, kids, kf, strict=True):
            if f > fit[slot]:
                pop[slot], fit[slot] = kid, f
        return pop, fit


RUNS = {"paper": engine._Run, "per-cell": engine._Run, "population": Population,
        "elite-exposed": EliteExposed, "replace-if-better": ReplaceIfBetter}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reading", choices=sorted(RUNS))
    ap.add_argument("board")
    ap.add_argument("--seeds", default="0,1,2,3,4")
    ap.add_argument("--generations", type=int, default=2000)
    ap.add_argument("--param", action="append", default=[], help="NAME=VALUE for the preset")
    a = ap.parse_args()
    _, inst = load_instance(a.board)
    params = dict(p.split("=", 1) for p in a.param)
    for seed in (int(s) for s in a.seeds.split(",")):
        opts = SolveOptions(seed=seed, params={**params, "generations": a.generations})
        problem = ga.ga_problem(inst, opts, engine.choose_preset(ga.PRESETS, opts.params).name)
        enc, cfg = problem.encoding, problem.config
        if a.reading == "per-cell":
            enc.__class__ = PerCell
            cfg.mutation_rate = 1.0  # every child goes to mutate, which draws per cell
        snap = {}

        def watch(s: engine.GAState, snap: dict = snap) -> None:
            if s.generation in SNAPSHOTS:
                snap[s.generation] = (round(float(s.fit.max()), 3),
                                      len(np.unique(s.pop, axis=0)), round(float(s.fit.mean()), 3))

        cfg.on_generation = watch
        cpu = time.process_time()
        res = RUNS[a.reading](enc, cfg, opts, None).run([])
        print(json.dumps({"reading": a.reading, "board": a.board, "seed": seed, "params": params,
                          "solved": bool(res.solved), "generations": res.generations,
                          "evaluations": res.evaluations, "best": round(res.fitness, 3),
                          "snapshots": snap, "cpu": round(time.process_time() - cpu, 1)}),
              flush=True)


if __name__ == "__main__":
    main()
