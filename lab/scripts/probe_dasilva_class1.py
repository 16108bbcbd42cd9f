"""Class 1 of da Silva & de Magalhaes 2017 (Table 1: RTS, no CBGI): evaluations to the best
with the paper preset and with one detail of the algorithm read another way, on the ten
shipped 19-cell boards. One JSON line per run, so a stopped probe keeps what it has.

    python lab/scripts/probe_dasilva_class1.py --runs 10 --out probe.jsonl   # every variant
    python lab/scripts/probe_dasilva_class1.py --summary probe.jsonl          # the table

Variants (each changes one thing in the paper preset):
  paper          the preset as shipped (cbgi off, as in Table 1)
  mutate_all     swap mutation on every child (rate 1.0 instead of 0.1)
  mutate_gene    "mutation probability 10%" per gene: each gene swaps with a random other
                 gene with probability 0.1 (every child is offered)
  one_child      PMX keeps only its first child (one evaluation per step)
  pmx_distinct   PMX cut points always distinct (no empty segment, which copies the parents)
  (the paper and window_draws runs also give two counts of the same runs: "memo", a child
  identical to a member of the population is not evaluated; "memo_pair", a step's two
  children are not evaluated when both copy members, so counts stay even, as the paper's are)
  accept_equal   RTS: a child equal in fitness to its nearest member replaces it
  tournament     parents by binary tournament instead of at random
  window_10      RTS window 10% of the population throughout (instead of 100% -> 10%)
  window_draws   the w members of the RTS window drawn with replacement (w independent
                 draws: at w = 250 about 63% of the population, not all of it;
                 the engine's --rts-window independent)
(both readings are engine options now, --rts-window and --skip-copy-steps, and the page's
columns run them through lab/scripts/reproduce_dasilva.py; this probe keeps the others)
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
from pathlib import Path

import numpy as np

from tilesolve.backends import ga as engine
from tilesolve.core.result import SolveOptions
from tilesolve.families.hidato import ga
from tilesolve.families.hidato.parse import read_instance

ROOT = Path(__file__).resolve().parents[2]
BOARDS = sorted((ROOT / "instances").glob("hidato_19_*.txt"))
TABLE1 = dataclasses.replace(ga.PAPER, cbgi=False)


class PerGeneSwap(ga.HidatoEncoding):
    """Swap mutation with the rate read per gene: each gene, with probability `rate`, swaps
    its number with that of another gene drawn at random."""

    rate = 0.1

    def mutate(self, pop, rng):
        for row in pop:
            for i in np.flatnonzero(rng.random(self.length) < self.rate):
                j = (i + 1 + rng.integers(self.length - 1)) % self.length
                row[i], row[j] = row[j], row[i]
        return pop


class DistinctCuts(ga.HidatoEncoding):
    """PMX whose two cut points differ, so the exchanged segment is never empty."""

    def crossover(self, a, b, rng):
        c1, c2 = [], []
        for p1, p2 in zip(a.tolist(), b.tolist(), strict=True):
            lo, hi = sorted(rng.choice(self.length + 1, 2, replace=False).tolist())
            c1.append(ga.pmx(p1, p2, lo, hi))
            c2.append(ga.pmx(p2, p1, lo, hi))
        return np.array(c1, dtype=a.dtype), np.array(c2, dtype=b.dtype)


class _CountingRun(engine._Run):
    """The paper preset's run, also counting the children that copy a member of the
    population (a memoising implementation would not evaluate them) and the steps whose two
    children both do, as they stand when the best is first reached."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.copies = self.copy_steps = 0
        self.at_best = (0, 0)

    def steady(self, pop, fit):
        children = self.children

        def tally(p, f, n, draws=None):
            kids = children(p, f, n, draws)
            k = int(((kids[:, None, :] == p[None, :, :]).all(axis=2)).any(axis=1).sum())
            self.copies += k
            self.copy_steps += k == len(kids)
            return kids

        self.children = tally
        try:
            return super().steady(pop, fit)
        finally:
            del self.children

    def note(self, pop, fit):
        before = self.best_fit
        super().note(pop, fit)
        if self.best_fit > before:
            self.at_best = (self.copies, self.copy_steps)


class _EqualRun(engine._Run):
    """RTS in which a child at least as good as its nearest member replaces it (the engine's
    strict comparison, with ties let through by lowering every member's fitness a hair for
    the comparison only)."""

    def steady(self, pop, fit):
        shifted = fit - 1e-6
        better = super().steady(pop, shifted)
        moved = shifted != fit - 1e-6  # slots a child took: they hold the child's own fitness
        fit[:] = np.where(moved, shifted, np.round(shifted + 1e-6))
        return better


def run(variant: str, board: Path, seed: int) -> dict:
    inst = read_instance(board)
    cfg = dataclasses.replace(TABLE1, seed=seed)
    enc: ga.HidatoEncoding = ga.HidatoEncoding(inst)
    runner = engine._Run
    if variant == "mutate_all":
        cfg = dataclasses.replace(cfg, mutation_rate=1.0)
    elif variant == "mutate_gene":
        cfg = dataclasses.replace(cfg, mutation_rate=1.0)
        enc = PerGeneSwap(inst)
    elif variant == "one_child":
        cfg = dataclasses.replace(cfg, steady_batch=1)
    elif variant == "pmx_distinct":
        enc = DistinctCuts(inst)
    elif variant == "accept_equal":
        runner = _EqualRun
    elif variant == "tournament":
        cfg = dataclasses.replace(cfg, selection="tournament", tournament_k=2)
    elif variant == "window_10":
        cfg = dataclasses.replace(cfg, rts_start=0.1, rts_end=0.1)
    elif variant == "window_draws":
        cfg = dataclasses.replace(cfg, rts_window="independent")
        runner = _CountingRun
    elif variant == "paper":
        runner = _CountingRun
    else:
        raise SystemExit(f"unknown variant {variant!r}")
    r = runner(enc, cfg, SolveOptions(seed=seed), None)
    res = r.run([])
    out = {"variant": variant, "board": board.stem, "seed": seed, "solved": res.solved,
           "evaluations": res.evaluations, "to_best": res.history[-1][0]}
    if isinstance(r, _CountingRun):
        copies, steps = r.at_best
        out |= {"to_best_memo": out["to_best"] - copies,
                "to_best_memo_pair": out["to_best"] - 2 * steps}
    return out


VARIANTS = ("paper", "mutate_all", "mutate_gene", "one_child", "pmx_distinct",
            "accept_equal", "tournament", "window_10", "window_draws")


def summary(path: Path) -> None:
    # one row per (variant, board, seed): a rerun's line replaces an earlier one
    rows = list({(r["variant"], r["board"], r["seed"]): r for r in
                 map(json.loads, path.read_text().splitlines())}.values())
    for r in [r for r in rows if "to_best_memo" in r]:
        for key in ("to_best_memo", "to_best_memo_pair"):
            rows.append(dict(r, variant=f"{r['variant']} {key.removeprefix('to_best_')}",
                             to_best=r[key]))
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    print("| variant | runs | solved | mean evaluations to the best | per board (mean) |")
    print("|---|---|---|---|---|")
    for v in variants:
        rs = [r for r in rows if r["variant"] == v]
        boards = sorted({r["board"] for r in rs})
        per = [statistics.fmean(r["to_best"] for r in rs if r["board"] == b) for b in boards]
        print(f"| {v} | {len(rs)} | {sum(r['solved'] for r in rs)} | "
              f"{statistics.fmean(per):,.0f} | {' '.join(f'{x / 1000:.1f}k' for x in per)} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10, help="runs per board and variant")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--out", type=Path, help="append one JSON line per run here")
    ap.add_argument("--summary", type=Path, help="print the table of a probe's lines")
    args = ap.parse_args()
    if args.summary:
        summary(args.summary)
        return
    done = set()
    if args.out and args.out.exists():
        for line in args.out.read_text().splitlines():
            r = json.loads(line)
            done.add((r["variant"], r["board"], r["seed"]))
    out = args.out.open("a") if args.out else sys.stdout
    for seed in range(args.runs):  # seed by seed: a stopped probe compares like with like
        for v in args.variants.split(","):
            for board in BOARDS:
                if (v, board.stem, seed) in done:
                    continue
                print(json.dumps(run(v, board, seed)), file=out, flush=True)


if __name__ == "__main__":
    main()
