"""The edge-matching GA: operators keep boards valid, fitness agrees with the checker, the CLI
solves a public 4x4 with a verified result, options are validated."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import E2_DATA, needs_e2_data, run_cli

from tilesolve.core.family import load_instance
from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.edgematch import ga
from tilesolve.families.edgematch.check import score, verify

PIECES5 = E2_DATA / "brendan" / "pieces_05x05.txt"
SOLUTION5 = E2_DATA / "brendan" / "solution_05x05.txt"


def _hinted_instance():
    fam, inst = load_instance(PIECES5)
    sol = fam.read_solution(inst, SOLUTION5)
    for cell in ((0, 0), (2, 2), (1, 3), (4, 2)):  # a corner, inner and border hints
        inst.fixed[cell] = sol[cell]
    return inst, sol


def _check_valid(enc, inst, pop):
    for g in pop:
        board = enc.decode(g)
        rep = verify(inst, board, "matches")  # every piece once, frame rule, hints honoured
        assert rep.ok, [v.message for v in rep.violations][:3]


@needs_e2_data()
def test_operators_keep_permutations_classes_and_hints():
    inst, _ = _hinted_instance()
    enc = ga.EdgeEncoding(inst)
    rng = np.random.default_rng(0)
    pop = enc.random(rng, 30)
    _check_valid(enc, inst, pop)
    for op in ga.MUTATIONS:
        enc.operators = (op,)
        for _ in range(20):
            pop = enc.mutate(pop, rng)
        _check_valid(enc, inst, pop)
    for rate in (0.0, 1.0):  # region exchange only, uniform only
        enc.uniform_rate = rate
        c1, c2 = enc.crossover(pop[:15], pop[15:], rng)
        _check_valid(enc, inst, np.concatenate([c1, c2]))
    _check_valid(enc, inst, [enc.repair(pop[0], rng)])
    fixed = enc.force_genes(pop.copy(), {3: int(pop[0, 3]), enc.n + 7: 2})
    _check_valid(enc, inst, fixed)
    assert (fixed[:, 3] == pop[0, 3]).all()


@needs_e2_data()
def test_region_rotation_keeps_inner_joins():
    """Turning a block a quarter turn keeps the joins inside the block matched."""
    fam, inst = load_instance(PIECES5)
    sol = fam.read_solution(inst, SOLUTION5)
    enc = ga.EdgeEncoding(inst)
    g = enc.encode(sol)
    assert enc.fitness(g[None])[0] == 40.0
    enc.operators = ("region_rotate",)
    rng = np.random.default_rng(3)
    turned = enc.mutate(g[None].copy(), rng)[0]
    f = enc.fitness(turned[None])[0]
    assert f < 40.0 and f >= 40 - 4 * 3  # only joins on the block's boundary can break


@needs_e2_data()
def test_fitness_is_the_checkers_score():
    inst, _ = _hinted_instance()
    enc = ga.EdgeEncoding(inst)
    pop = enc.random(np.random.default_rng(1), 20)
    fit = enc.fitness(pop)
    assert [score(inst, enc.decode(g)) for g in pop] == fit.astype(int).tolist()


@needs_e2_data()
def test_hinted_instance_is_solved_with_hints_in_place():
    inst, _ = _hinted_instance()
    out = ga.solve(inst, SolveOptions(seed=2, time_limit=60, params={"preset": "tuned"}))
    assert out.status == Status.SOLVED
    assert verify(inst, out.solution).ok
    assert all(out.solution[c] == pr for c, pr in inst.fixed.items())


@needs_e2_data()
def test_cli_solves_brendan_4x4_verified():
    r = run_cli("solve", "--backend", "ga", E2_DATA / "brendan" / "pieces_04x04.txt",
                "--seed", "0", "--time-limit", "60", "--json", "--population", "40",
                "--preset", "tuned")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["status"] == "solved" and out["verified"] is True
    assert out["stats"]["best_fitness"] == 24.0 and out["stats"]["evaluations"] > 0


@needs_e2_data()
def test_optimisation_mode_returns_a_scored_board():
    r = run_cli("solve", "--backend", "ga", E2_DATA / "brendan" / "pieces_08x08.txt",
                "--objective", "matches", "--json", "--generations", "3", "--population", "20",
                "--preset", "tuned", "--tabu-iterations", "0", "--lns-moves", "0", "--seed", "1")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["status"] == "feasible" and out["verified"] is True
    assert out["objective"] == out["stats"]["best_fitness"]
    assert out["stats"]["generations"] == 3 and out["stats"]["evaluations"] == 20 + 3 * 19


def test_paper_preset_scores_legal_boards_under_matches():
    """The paper preset's free layout puts pieces outside their class, which the matches
    objective cannot score: there the preset keeps the frame, and its board verifies (with
    the free layout the 16x16's answer broke the frame rule and failed the gate)."""
    r = run_cli("solve", "--backend", "ga", "instances/e2_16x16.txt", "--objective", "matches",
                "--preset", "paper", "--json", "--generations", "2", "--population", "20",
                "--seed", "3")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["status"] == "feasible" and out["verified"] is True
    assert out["objective"] > 0 and out["stats"]["generations"] == 2
    r = run_cli("solve", "--backend", "ga", "instances/e2_16x16.txt", "--objective", "matches",
                "--preset", "paper", "--layout", "free", "--generations", "2")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [
        "error: --layout free puts pieces outside their class, which --objective matches "
        "cannot score; use --layout frame (its default there)"]


@pytest.mark.parametrize("args", [
    ("--population", "lots"), ("--elitism", "1.5"), ("--operators", "shuffle"),
    ("--tabu-iterations", "-3"), ("--no-such-option", "1"),
])
def test_bad_parameters_are_one_line_errors(args):
    r = run_cli("solve", "--backend", "ga", "instances/e2_4x4.txt", *args)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_the_default_ga_solves_the_readme_6x6():
    """`--backend ga` with no preset runs the tuned GA, which solves the README's 6x6 (seed 1:
    4 generations, about 1 CPU s; seed 0 took 63, about 9 CPU s; the paper preset, the default
    before, timed out), and the board passes the checker."""
    r = run_cli("solve", "--backend", "ga", "instances/e2_6x6.txt", "--seed", "1", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["status"] == "solved" and out["verified"] is True
    assert out["stats"]["population"] == 60 and out["stats"]["best_fitness"] == 60.0
