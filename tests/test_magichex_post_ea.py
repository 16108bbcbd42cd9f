"""The magic-hexagon post's EA (the ga backend's paper preset): each operator on a small
example checked by hand, the run against the post's own code, and the presets."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import INSTANCES, run_cli

from tilesolve.core.errors import InputError
from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.magichex import ga, post_ea
from tilesolve.families.magichex.check import verify
from tilesolve.families.magichex.legacy_sort import legacy_argsort
from tilesolve.families.magichex.parse import read_instance

ORDER3 = INSTANCES / "magichex_3.txt"
# the magic hexagon in reading order (the post's board columns 1..19)
MAGIC = [10, 12, 16, 13, 4, 2, 19, 15, 8, 5, 7, 3, 14, 6, 1, 17, 9, 11, 18]


@pytest.fixture(scope="module")
def boards():
    return post_ea.PostBoards(read_instance(ORDER3))


def board(values):
    return np.array([0, *values], dtype=np.int64)


def test_cost_is_the_posts_sum_of_absolute_line_errors(boards):
    # 1..19 in reading order, worked out line by line against 38:
    # rows 6 22 50 58 54 -> 32+16+12+20+16 = 96; top to bottom-left 13 29 50 51 47 -> 25+9+12+13+9
    # = 68; top to bottom-right 22 35 50 45 38 -> 16+3+12+7+0 = 38; 96 + 68 + 38 = 202
    in_order = board(range(1, 20))
    # swapping the first two cells of the magic hexagon (10 <-> 12) puts four lines off by 2
    swapped = board([12, 10, *MAGIC[2:]])
    costs = boards.cost(np.stack([in_order, board(MAGIC), swapped]))
    assert costs.tolist() == [202, 0, 8]


def test_candidate_count_is_the_divisor_nearest_p_size_times_p_cand():
    assert post_ea.candidate_count(100, 0.2) == 20  # the post's first setting: 20 x 5 clones
    assert post_ea.candidate_count(25, 0.0925) == 1  # its tuned one: int(2.31) = 2 -> 1 of 1, 5, 25
    assert post_ea.candidate_count(12, 0.25) == 3
    assert post_ea.candidate_count(15, 4.01 / 15) == 3  # 3 and 5 both 1 away: the smaller


def test_legacy_argsort_orders_ties_as_numpy_1_24():
    # insertion sort up to 16 entries (stable), a median-of-three partition above
    assert legacy_argsort([7] * 16) == list(range(16))
    assert legacy_argsort([5] * 25)[:4] == [0, 22, 21, 20]
    assert legacy_argsort([3, 1, 2, 1]) == [1, 3, 2, 0]
    costs = [9, 4, 4, 8, 4, 1, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]
    order = legacy_argsort(costs)
    assert order[0] == 5 and sorted(costs[i] for i in order) == [costs[i] for i in order]


def test_clone_and_swap_step_with_fixed_draws(boards):
    in_order, magic, swapped = board(range(1, 20)), board(MAGIC), board([12, 10, *MAGIC[2:]])
    pop = np.stack([in_order, swapped, magic, swapped])  # costs 202, 8, 0, 8
    rows = post_ea.select_best(boards.cost(pop), 2)
    assert rows == [2, 1]  # the cheapest two, ties in the order numpy's argsort gives
    cands = post_ea.clone(pop, rows, 2)
    assert (cands == np.stack([magic, magic, swapped, swapped])).all()
    # the post's code swaps in the first n_candidates rows only: row 0 cells 1 and 2, row 1
    # cell 19 with itself (no change); rows 2 and 3 stay exact copies
    code = post_ea.mutate(cands.copy(), np.array([[1, 19], [2, 19]]))
    assert (code == np.stack([swapped, magic, swapped, swapped])).all()
    # the prose's reading: one swap in every clone
    prose = post_ea.mutate(cands.copy(), np.array([[1, 19, 1, 5], [2, 19, 2, 5]]))
    assert (prose == np.stack([swapped, magic, magic, swapped])).all()
    assert boards.cost(prose).tolist() == [8, 0, 0, 8]


def test_replacement_keeps_only_the_clones_of_the_best_even_when_worse(boards):
    """No elitism: with every clone swapped the parent survives only through a swap of a cell
    with itself; here none is, so the next population holds no copy of it."""
    swapped = board([12, 10, *MAGIC[2:]])  # cost 8
    cands = np.repeat(swapped[None], 4, axis=0)
    draws = np.array([[3, 4, 8, 13], [17, 19, 12, 18]])
    pop = post_ea.mutate(cands, draws)
    costs = boards.cost(pop)
    assert (costs > 8).all()
    best = post_ea.select_best(costs, 1)[0]
    nxt = post_ea.clone(pop, [best], 4)
    assert (nxt == pop[best]).all() and not (nxt == swapped).all(axis=1).any()
    assert int(boards.cost(nxt[:1])[0]) == costs.min()


def test_draws_are_the_posts_randint_calls(boards):
    rs, post = np.random.RandomState(4), np.random.RandomState(4)
    got = boards.swap_columns(rs, 3, 5)
    for g in range(3):  # the post: np.random.randint(1, 20, size=(2, n_candidates)) each time
        assert (got[g] == post.randint(1, 20, size=(2, 5))).all()


@pytest.mark.parametrize("p_size, p_cand, seed, gens, cost, best", [
    # the post's code printed as is, run under numpy 1.24.4 after np.random.seed(seed)
    (100, 0.2, 0, 3000, 16, [14, 9, 17, 13, 12, 5, 8, 11, 7, 2, 3, 15, 10, 1, 6, 19, 16, 18, 4]),
    (12, 0.25, 1, 2000, 4, [10, 9, 19, 14, 2, 7, 15, 13, 11, 3, 6, 4, 17, 1, 5, 16, 8, 12, 18]),
])
def test_printed_code_reading_matches_the_posts_code(boards, p_size, p_cand, seed, gens, cost,
                                                     best):
    run = post_ea.PostRun(boards, p_size, post_ea.candidate_count(p_size, p_cand), seed)
    run.step(gens)
    costs = boards.cost(run.cands)
    top = post_ea.select_best(costs, 1)[0]
    assert int(costs[top]) == cost and run.cands[top][1:].tolist() == best


@pytest.mark.parametrize("mutate_all", [False, True])
def test_compiled_loop_equals_the_numpy_loop(boards, mutate_all):
    runs = [post_ea.PostRun(boards, 12, 3, 5, mutate_all) for _ in range(2)]
    for k in (1, 50, 400):
        runs[0].step(k, compiled=True)
        runs[1].step(k, compiled=False)
    a, b = runs
    assert (a.cands == b.cands).all() and a.best_cost == b.best_cost
    assert (a.generation, a.evaluations, a.evaluations_to_best) == \
        (b.generation, b.evaluations, b.evaluations_to_best)
    assert a.curve.result() == b.curve.result()


def test_paper_preset_is_the_default_and_solves_order_3():
    res = run_cli("solve", ORDER3, "--backend", "ga", "--seed", "2", "--json")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    st = data["stats"]
    assert data["status"] == "solved" and data["verified"] and st["preset"] == "paper"
    assert (st["population"], st["candidates"], st["generations"]) == (25, 1, 350)
    assert st["evaluations"] == 25 * 351 == st["evaluations_to_best"]
    assert st["best_fitness"] == 0.0 and st["curve"][-1][:3] == [350, 8775, 0.0]


def test_paper_budgets_and_the_posts_first_setting():
    inst = read_instance(ORDER3)
    opts = SolveOptions(seed=0, params={"population": "100", "p_cand": "0.2",
                                        "generations": "300"})
    out = ga.solve(inst, opts)
    assert out.status == Status.BUDGET and out.stats["candidates"] == 20
    assert out.stats["generations"] == 300 and out.stats["evaluations"] == 100 * 301
    assert out.objective == out.stats["best_fitness"] < 0
    assert verify(inst, out.solution).kinds().get("repeated-number") is None
    opts = SolveOptions(seed=0, params={"evaluations": "1000"})
    assert ga.solve(inst, opts).stats["evaluations"] == 1000  # 25 x 40 generations
    with pytest.raises(InputError, match="--elitism not used by --preset paper"):
        ga.solve(inst, SolveOptions(params={"elitism": "0.1"}))
    with pytest.raises(InputError, match="--polish not used by --preset paper"):
        ga.solve(inst, SolveOptions(params={"polish": "0"}))
    with pytest.raises(InputError, match="--p-cand"):
        ga.solve(inst, SolveOptions(params={"p_cand": "2"}))


def test_tuned_preset_lists_its_differences_and_still_solves_order_4():
    assert ga.PRESETS["paper"].differences == ()
    assert any("squared" in d for d in ga.PRESETS["tuned"].differences)
    inst = read_instance(INSTANCES / "magichex_4_3.txt")
    out = ga.solve(inst, SolveOptions(seed=1, time_limit=60, params={"preset": "tuned"}))
    assert out.status == Status.SOLVED and verify(inst, out.solution).ok
    assert out.stats["preset"] == "tuned"
    # CBGI (the portfolio's GA lane asks for it) is only in the tuned preset
    inst3 = read_instance(ORDER3)
    out = ga.solve(inst3, SolveOptions(seed=0, time_limit=30, params={"cbgi": "on"}))
    assert out.stats["preset"] == "tuned" and out.status == Status.SOLVED
    with pytest.raises(InputError, match="--cbgi not used by --preset paper"):
        ga.solve(inst3, SolveOptions(params={"cbgi": "on", "preset": "paper"}))
    with pytest.raises(InputError, match="--p-cand not used by --preset tuned"):
        ga.solve(inst, SolveOptions(params={"preset": "tuned", "p_cand": "0.2"}))


def test_solve_help_lists_the_presets_and_their_differences():
    res = run_cli("solve", "--help")
    assert res.returncode == 0
    text = " ".join(res.stdout.split())
    assert "--preset paper (default)" in text and "--preset tuned" in text
    assert "minus the sum of squared line errors" in text
