"""The GA engine on toy encodings: convergence, budgets, stop flag, RTS, CBGI and parameters."""

from __future__ import annotations

import numpy as np
import pytest

from tilesolve.backends.ga import (
    CbgiLink,
    Encoding,
    GAConfig,
    apply_params,
    evolve,
    select,
    sigma_scaled,
)
from tilesolve.core.errors import InputError
from tilesolve.core.result import SolveOptions, StopFlag


class OneMax(Encoding):
    """Bit strings; fitness = number of ones."""

    def __init__(self, n: int) -> None:
        self.length = n
        self.target: float | None = float(n)

    def random(self, rng, n):
        return rng.integers(0, 2, (n, self.length))

    def fitness(self, pop):
        return pop.sum(axis=1).astype(float)

    def mutate(self, pop, rng):
        flip = rng.random(pop.shape) < 1.0 / self.length
        return np.where(flip, 1 - pop, pop)

    def crossover(self, a, b, rng):
        mask = rng.random(a.shape) < 0.5
        return np.where(mask, a, b), np.where(mask, b, a)

    def decode(self, genome):
        return {i: int(v) for i, v in enumerate(genome)}

    def gene_cells(self, genome, idx):
        return {int(i): int(genome[i]) for i in idx}

    def force_genes(self, pop, genes):
        pop = pop.copy()
        for g, v in genes.items():
            pop[:, g] = v
        return pop


class Sorting(OneMax):
    """Permutations of 0..n-1; fitness = number of positions holding their own index."""

    def random(self, rng, n):
        return np.stack([rng.permutation(self.length) for _ in range(n)])

    def fitness(self, pop):
        return (pop == np.arange(self.length)).sum(axis=1).astype(float)

    def mutate(self, pop, rng):
        pop = pop.copy()
        rows = np.arange(len(pop))
        i = rng.integers(0, self.length, len(pop))
        j = rng.integers(0, self.length, len(pop))
        pop[rows, i], pop[rows, j] = pop[rows, j], pop[rows, i]
        return pop

    def crossover(self, a, b, rng):
        return a.copy(), b.copy()  # mutation alone suffices for this toy

    def force_genes(self, pop, genes):
        pop = pop.copy()
        for g, v in genes.items():
            where = np.argmax(pop == v, axis=1)  # swap value v into position g
            rows = np.arange(len(pop))
            pop[rows, where] = pop[rows, g]
            pop[:, g] = v
        return pop

    def repair(self, genome, rng):
        return np.sort(genome)  # the perfect local fix, to see repair being called


def test_onemax_generational_tournament_converges():
    enc = OneMax(40)
    cfg = GAConfig(population=60, generations=300, elitism=0.05, seed=1)
    seen: list[float] = []
    res = evolve(enc, cfg, SolveOptions(on_solution=lambda sol, f: seen.append(f)))
    assert res.solved and res.fitness == 40.0 and res.stop_reason == "target"
    assert seen == sorted(seen) and seen[-1] == 40.0  # elite streamed, only on improvement
    assert res.evaluations == 60 * (res.generations + 1) - res.generations * cfg.elite_count()


def test_onemax_truncation_sigma_immigrants_converges():
    cfg = GAConfig(population=60, generations=400, selection="truncation", truncation=0.5,
                   sigma_scaling=True, elitism=0.05, immigrants=0.1, seed=2)
    res = evolve(OneMax(30), cfg)
    assert res.solved and res.fitness == 30.0


def test_permutation_steady_state_rts_converges_and_stays_a_permutation():
    enc = Sorting(12)
    cfg = GAConfig(population=40, max_evaluations=60_000, replacement="steady_state",
                   selection="tournament", seed=3)
    res = evolve(enc, cfg)
    assert res.solved
    assert sorted(res.best.tolist()) == list(range(12))


def test_budgets_are_exact_in_evaluations_and_generations():
    cfg = GAConfig(population=20, generations=7, seed=0)
    res = evolve(OneMax(500), cfg)
    assert res.stop_reason == "generations" and res.generations == 7
    assert res.evaluations == 20 * 8
    cfg = GAConfig(population=20, max_evaluations=101, replacement="steady_state",
                   steady_batch=2, seed=0)
    res = evolve(OneMax(500), cfg)
    assert res.stop_reason == "evaluations" and res.evaluations == 102  # 20 + 41 steps of 2


def test_stop_flag_is_polled():
    flag = StopFlag()
    calls = []

    def on_gen(state):
        calls.append(state.generation)
        if state.generation == 3:
            flag.set()

    res = evolve(OneMax(500), GAConfig(population=10, on_generation=on_gen, seed=0),
                 SolveOptions(stop=flag))
    assert res.stop_reason == "stopped" and res.generations == 3 and calls == [1, 2, 3]


class TwoMax(OneMax):
    """Two peaks: all ones and all zeros."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.target = None

    def fitness(self, pop):
        ones = pop.sum(axis=1)
        return np.maximum(ones, self.length - ones).astype(float)


def _peaks(pop: np.ndarray, n: int) -> tuple[bool, bool]:
    ones = pop.sum(axis=1)
    return bool((ones >= n - 2).any()), bool((ones <= 2).any())


def test_rts_niching_keeps_both_peaks_where_generational_loses_one():
    # RTS keeps both peaks in about half the runs, generational replacement practically never:
    # compare a few seeds rather than trust one
    n = 24

    def both_kept(seed: int, **replacement) -> bool:
        last = []
        cfg = GAConfig(population=40, max_evaluations=12_000, seed=seed, **replacement,
                       on_generation=lambda st: last.append(_peaks(st.pop, n)))
        evolve(TwoMax(n), cfg)
        return last[-1] == (True, True)

    rts = sum(both_kept(s, replacement="steady_state", rts_start=1.0, rts_end=1.0)
              for s in range(4))
    generational = sum(both_kept(s, elitism=0.05) for s in range(4))
    assert rts >= 1 and generational == 0


def test_window_rank_distribution_matches_enumerated_windows():
    # RTS draws the rank of the nearest window member; enumerate every window to check it
    from itertools import combinations, pairwise

    from tilesolve.backends.ga import window_ranks

    for size, w in ((7, 1), (7, 3), (8, 8), (9, 4)):
        counts = [0] * size
        windows = list(combinations(range(size), w))
        for win in windows:
            counts[min(win)] += 1  # members ordered by distance: rank = position
        cdf = [*window_ranks(size, w), 1.0]
        probs = [cdf[0]] + [b - a for a, b in pairwise(cdf)]
        assert probs == pytest.approx([c / len(windows) for c in counts[:len(probs)]])
        assert sum(counts[len(probs):]) == 0


def test_cbgi_fixes_converged_genes_and_releases_on_request():
    reports: list[dict] = []
    link = CbgiLink(on_fixed=lambda partial: reports.append(dict(partial)))
    released_once = []

    def on_gen(state):
        if state.generation == 40 and not released_once:
            assert state.fixed, "genes should be fixed by now"
            gene = next(iter(state.fixed))
            released_once.append((gene, state.fixed[gene]))
            link.release({gene: state.fixed[gene]})

    enc = OneMax(60)
    enc.target = None  # run the whole budget
    cfg = GAConfig(population=40, generations=100, cbgi=None, elitism=0.05, seed=4,
                   on_generation=on_gen)
    res = evolve(enc, cfg, link=link)
    assert reports and all(isinstance(r, dict) for r in reports)
    # 20% of 100 generations, then one gene every 5 generations: at most 17 fixed genes
    assert 1 <= len(res.fixed) <= 17
    assert all(v == 1 for v in res.fixed.values())  # the population converged on ones
    gene, value = released_once[0]
    assert gene not in res.fixed  # released and never fixed to the same value again
    assert res.released and gene in res.released[0]
    assert res.fixed_partial == {g: v for g, v in res.fixed.items()}
    assert (res.best[list(res.fixed)] == 1).all()


def test_cbgi_fix_keeps_permutations_valid():
    enc = Sorting(10)
    enc.target = None
    cfg = GAConfig(population=30, generations=60, cbgi=True, seed=5)
    seen: list[np.ndarray] = []
    cfg.on_generation = lambda st: seen.append(st.pop.copy())
    res = evolve(enc, cfg)
    assert res.fixed
    for pop in seen[-3:]:
        assert (np.sort(pop, axis=1) == np.arange(10)).all()
        for g, v in res.fixed.items():
            assert (pop[:, g] == v).all()


class NoCells(Encoding):
    """Bit strings whose genes show no cells (as a developmental genome): no CBGI."""

    length, target = 8, None
    random, fitness, mutate, crossover = (OneMax.random, OneMax.fitness, OneMax.mutate,
                                          OneMax.crossover)

    def decode(self, genome):
        return {}


def test_cbgi_on_a_genome_without_cells_is_refused_before_any_work_or_left_off_in_a_portfolio():
    from tilesolve.backends.compiled import Unsupported

    enc = NoCells()
    assert OneMax(8).cbgi_capable and not enc.cbgi_capable
    seen: list[int] = []
    cfg = GAConfig(population=6, generations=5, cbgi=True, cbgi_start=0.0, seed=1,
                   on_generation=lambda st: seen.append(st.generation))
    with pytest.raises(Unsupported, match="not supported by this model"):
        evolve(enc, cfg)  # asked for by the user: one line, no generation run
    assert seen == []
    res = evolve(enc, cfg, link=CbgiLink())  # a portfolio's lane runs its whole budget
    assert res.generations == 5 and not res.fixed
    assert res.stats()["cbgi_off"] == "no gene of this genome fixes a cell (NoCells)"
    assert "cbgi_off" not in evolve(OneMax(8), cfg, link=CbgiLink()).stats()


def test_repair_runs_on_stall():
    enc = Sorting(30)
    cfg = GAConfig(population=10, generations=500, stall_generations=3, mutation_rate=0.0,
                   crossover_rate=0.0, seed=6)
    res = evolve(enc, cfg)
    assert res.repairs >= 1 and res.solved


class Kept(OneMax):
    """OneMax whose stall repair keeps the genome."""

    def repair(self, genome, rng):
        return genome


class Climbing(Kept):
    """The same repair, as a hill climb that scored 25 boards inside itself."""

    def repair(self, genome, rng):
        self.local_evaluations += 25
        return genome


def test_a_repairs_own_evaluations_count_and_spend_the_budget():
    def run(enc):
        cfg = GAConfig(population=10, generations=12, stall_generations=2, mutation_rate=0.0,
                       crossover_rate=0.0, seed=3, repair_count=2)
        return evolve(enc, cfg)

    plain, climbed = run(Kept(30)), run(Climbing(30))
    assert plain.repairs == climbed.repairs >= 2  # the same run, rows and draws
    # every repair call scored 25 boards: they are the difference, nothing else
    assert climbed.evaluations - plain.evaluations == 25 * climbed.repairs
    capped = evolve(Climbing(30), GAConfig(population=10, max_evaluations=200,
                                           stall_generations=1, mutation_rate=0.0,
                                           crossover_rate=0.0, seed=3))
    # the climbs' evaluations spend the budget: fewer generations fit in 200
    assert capped.stop_reason == "evaluations"
    assert capped.generations < (200 - 10) // 10


def test_selection_helpers():
    rng = np.random.default_rng(0)
    fit = np.array([0.0, 1.0, 2.0, 10.0])
    picks = select(fit, 1000, GAConfig(selection="truncation", truncation=0.5), rng)
    assert set(picks.tolist()) <= {2, 3}
    picks = select(fit, 1000, GAConfig(tournament_k=4), rng)
    # with replacement, the best of 4 is in a 4-tournament with chance 1 - (3/4)^4 = 0.68
    assert 600 < np.bincount(picks, minlength=4)[3] < 760
    s = sigma_scaled(fit)
    assert s.min() >= 0.1 and np.argmax(s) == 3
    assert (sigma_scaled(np.ones(5)) == 1).all()


def test_apply_params_converts_and_rejects():
    cfg = apply_params(GAConfig(), {"population": "50", "tournament": "4", "elitism": "0.1",
                                    "cbgi": "on", "replacement": "steady-state", "other": "x"})
    assert (cfg.population, cfg.tournament_k, cfg.elitism, cfg.cbgi) == (50, 4, 0.1, True)
    assert cfg.replacement == "steady_state"
    for bad in ({"population": "many"}, {"elitism": "2"}, {"population": "1"},
                {"selection": "lottery"}, {"cbgi": "maybe"}):
        with pytest.raises(InputError):
            apply_params(GAConfig(), bad)


class Marked(OneMax):
    """Single-point crossover at gene 2; random genomes are all 7 (to recognise them)."""

    def random(self, rng, n):
        return np.full((n, self.length), 7)

    def crossover(self, a, b, rng):
        return np.concatenate([a[:, :2], b[:, 2:]], 1), np.concatenate([b[:, :2], a[:, 2:]], 1)


def test_headless_chicken_pairings():
    from tilesolve.backends.ga import _Run

    enc = Marked(4)
    a, b = np.zeros((1, 4), int), np.ones((1, 4), int)
    each = _Run(enc, GAConfig(headless=1.0, headless_pairing="each"), SolveOptions(), None)
    c1, c2 = each.headless_children(a, b)
    # each parent keeps its head and gets a random tail
    assert c1.tolist() == [[0, 0, 7, 7]] and c2.tolist() == [[1, 1, 7, 7]]
    second = _Run(enc, GAConfig(headless=1.0, headless_pairing="second"), SolveOptions(), None)
    c1, c2 = second.headless_children(a, b)
    # the second parent is replaced by a random genome; both children kept
    assert c1.tolist() == [[0, 0, 7, 7]] and c2.tolist() == [[7, 7, 0, 0]]


def test_distinct_elitism_counts_copies_once():
    from tilesolve.backends.ga import _Run

    pop = np.array([[1, 1], [1, 1], [0, 1], [0, 0]])
    fit = np.array([5.0, 5.0, 4.0, 3.0])
    plain = _Run(OneMax(2), GAConfig(), SolveOptions(), None)
    distinct = _Run(OneMax(2), GAConfig(elite_distinct=True), SolveOptions(), None)
    assert plain.elites(pop, fit, 2).tolist() == [0, 1]
    assert distinct.elites(pop, fit, 2).tolist() == [0, 2]
    assert distinct.elites(pop, fit, 4).tolist() == [0, 2, 3]  # only three distinct genomes


class SolvedAtThree(OneMax):
    """Fitness that does not mark the solution: the genome with exactly three ones is it."""

    def __init__(self, n):
        super().__init__(n)
        self.target = None

    def solved(self, pop):
        return pop.sum(axis=1) == 3


def test_solved_hook_ends_the_run_on_a_solution_whatever_its_fitness():
    enc = SolvedAtThree(8)
    res = evolve(enc, GAConfig(population=20, generations=200, seed=1))
    assert res.solved and res.stop_reason == "target"
    assert int(res.best.sum()) == 3  # not the fittest genome: that would have more ones
    assert res.stats()["evaluations_to_best"] <= res.evaluations


class Constant(OneMax):
    """Bit strings whose mutation writes one fixed string: a child that is known in advance."""

    def __init__(self, n: int, child: list[int]) -> None:
        super().__init__(n)
        self.child = np.array(child)

    def mutate(self, pop, rng):
        pop[:] = self.child
        return pop


def one_step(child: list[int], pop: list[list[int]], **cfg):
    """One steady-state step (one child, no crossover, always mutated) on 4-bit OneMax."""
    from tilesolve.backends.ga import _Run

    enc = Constant(4, child)
    cfg = {"seed": 0, **cfg}
    config = GAConfig(population=len(pop), steady_batch=1, crossover_rate=0.0,
                      mutation_rate=1.0, max_evaluations=1000, **cfg)
    run = _Run(enc, config, SolveOptions(), None)
    pop = np.array(pop)
    fit = enc.fitness(pop)
    run.note(pop, fit)
    step = run.replace_worst if config.replacement == "replace_worst" else run.steady
    improved = step(pop, fit)
    return pop.tolist(), fit.tolist(), improved


def test_replace_worst_step_puts_the_child_in_the_worst_place_even_if_worse():
    # fitnesses 2, 1, 3, 1: the worst is slot 1 (first of equals); the child 0000 scores 0
    pop, fit, improved = one_step([0, 0, 0, 0], [[1, 1, 0, 0], [1, 0, 0, 0], [1, 1, 1, 0],
                                                 [0, 0, 0, 1]], replacement="replace_worst",
                                  selection="tournament", tournament_k=2)
    assert pop == [[1, 1, 0, 0], [0, 0, 0, 0], [1, 1, 1, 0], [0, 0, 0, 1]]
    assert fit == [2, 0, 3, 1] and not improved


def test_rts_step_replaces_the_nearest_member_only_if_the_child_is_better():
    # at progress 0 the window is the whole population; child 1111 (fitness 4) is at Hamming
    # distance 4, 1, 2, 3 from the members: the nearest, 1110 (fitness 3), makes way
    members = [[0, 0, 0, 0], [1, 1, 1, 0], [0, 0, 1, 1], [1, 0, 0, 0]]
    pop, fit, improved = one_step([1, 1, 1, 1], members, replacement="steady_state",
                                  selection="random")
    assert pop == [[0, 0, 0, 0], [1, 1, 1, 1], [0, 0, 1, 1], [1, 0, 0, 0]] and improved
    assert fit == [0, 4, 2, 1]
    # child 0110 (fitness 2): nearest is 1110 (distance 1, fitness 3), better than the child,
    # so nothing changes although the child beats members 0 and 3
    pop, fit, improved = one_step([0, 1, 1, 0], members, replacement="steady_state",
                                  selection="random")
    assert pop == members and not improved


def test_random_selection_is_uniform_whatever_the_fitness():
    rng = np.random.default_rng(0)
    fit = np.array([0.0, 1.0, 2.0, 10.0])
    counts = np.bincount(select(fit, 4000, GAConfig(selection="random"), rng), minlength=4)
    assert all(900 < c < 1100 for c in counts)  # 1000 each expected, sd 27
    cfg = GAConfig(population=30, max_evaluations=20_000, replacement="replace_worst",
                   selection="random", seed=4)
    res = evolve(OneMax(20), cfg)
    assert res.solved and res.evaluations <= 20_000


def test_independent_window_rank_distribution_matches_enumerated_draws():
    # --rts-window independent: w draws with replacement; enumerate every tuple of draws
    from itertools import pairwise, product

    from tilesolve.backends.ga import independent_window_ranks, window_ranks

    for size, w in ((3, 2), (5, 5), (6, 3)):
        counts = [0] * size
        draws = list(product(range(size), repeat=w))
        for d in draws:
            counts[min(d)] += 1
        cdf = [*independent_window_ranks(size, w), 1.0]
        probs = [cdf[0]] + [b - a for a, b in pairwise(cdf)]
        assert probs == pytest.approx([c / len(draws) for c in counts])
    # a window of the whole population: distinct members always hold the nearest one;
    # 2 independent draws of 2 members miss it when both draw the other (1 in 4)
    assert window_ranks(2, 2) == [] and independent_window_ranks(2, 2) == [0.75]


def test_rts_window_drawn_independently_can_repeat_the_far_member():
    # child 1111 (fitness 4) beats both members; the nearest is 1110 (slot 0). A window of
    # the whole population always holds it; two independent draws repeat slot 1 a quarter
    # of the time, and the child then replaces 0000 instead
    def replaced(window: str) -> list[int]:
        out = []
        for seed in range(40):
            pop, _, _ = one_step([1, 1, 1, 1], [[1, 1, 1, 0], [0, 0, 0, 0]],
                                 replacement="steady_state", selection="random",
                                 rts_start=1.0, rts_end=1.0, rts_window=window, seed=seed)
            out.append(pop.index([1, 1, 1, 1]))
        return out

    assert set(replaced("distinct")) == {0}
    assert 3 <= replaced("independent").count(1) <= 20  # 10 expected of 40, sd 2.7


def test_skip_copy_steps_leaves_a_step_of_copies_unevaluated():
    from tilesolve.backends.ga import _Run

    members = [[1, 1, 0, 0], [0, 0, 1, 1]]
    for child, skip, counted in (([0, 0, 1, 1], True, 0), ([0, 0, 1, 1], False, 1),
                                 ([1, 1, 1, 1], True, 1)):
        config = GAConfig(population=2, steady_batch=1, crossover_rate=0.0,
                          mutation_rate=1.0, replacement="steady_state", seed=0,
                          skip_copy_steps=skip)
        run = _Run(Constant(4, child), config, SolveOptions(), None)
        pop = np.array(members)
        run.steady(pop, run.enc.fitness(pop))
        assert run.evaluations == counted
    # a population of copies only still spends its budget: every population-th step counts
    res = evolve(Constant(4, [1, 1, 0, 0]), GAConfig(
        population=2, steady_batch=1, crossover_rate=0.0, mutation_rate=1.0,
        replacement="steady_state", max_evaluations=20, seed=0, skip_copy_steps=True),
        seeds=[np.array([1, 1, 0, 0])] * 2)
    assert res.evaluations == 20 and res.stop_reason == "evaluations"
