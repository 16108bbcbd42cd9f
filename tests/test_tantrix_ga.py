"""The Tantrix GA: growth rule invariants, operators, fitness against the checker, CLI runs."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from conftest import run_cli

from tilesolve.core.errors import InputError
from tilesolve.core.result import SolveOptions, Status
from tilesolve.core.textfile import records
from tilesolve.families.tantrix import ga
from tilesolve.families.tantrix.ga_growth import GENES_PER_TILE, SOLVED_BONUS, Grower
from tilesolve.families.tantrix.model import parse_instance, verify

INSTANCES = {
    "discovery5": "tantrix\ntiles 1-5\ngoal loop red\nshape free\n",
    "discovery10": "tantrix\ntiles 1-10\ngoal loop red\nshape free\n",
    "discovery20": "tantrix\ntiles 1-20\ngoal loop yellow\nshape free\n",
    "genius": "tantrix\ntiles 1 4 6 7 9 10 13 16 28 37 48 49\ngoal line red\ngoal line blue\n"
              "shape free\n",
    "any_colour": "tantrix\ntiles 1-7\ngoal loop any\nshape free\n",
    "pyramid": "tantrix\ntiles 21 3 15 13 5 2 35 9 18 17 33 20 10 12 8\nshape triangle 5\n",
    "board": "tantrix\ntiles 1-4\ngoal loop red\nshape board\n"
             + "".join(f"cell {q} {r}\n" for q in range(3) for r in range(2)),
}


def instance(name: str):
    return parse_instance(records(name, INSTANCES[name]), name)


def write(tmp_path, name: str):
    path = tmp_path / f"tantrix_{name}.txt"
    path.write_text(INSTANCES[name])
    return path


@pytest.mark.parametrize("name", sorted(INSTANCES))
def test_growth_gives_connected_golden_rule_clusters(name):
    inst = instance(name)
    grower = Grower(inst)
    enc = ga.TantrixEncoding(inst)
    rng = np.random.default_rng(7)
    pop = enc.mutate(enc.random(rng, 150), rng)
    for genome in pop:
        grown = grower.grow(genome)
        sol = grower.solution(grown)
        kinds = verify(inst, sol).kinds()
        assert not kinds["mismatch"] and not kinds["disconnected"] and not kinds["off-board"]
        assert not kinds["bad-placement"] and not kinds["extra-tile"]
        # every tile is either placed once or reported left over
        used = Counter(i for i, _ in grown.board.values()) + Counter(grown.unplaced)
        assert used == Counter(range(inst.n))
        if inst.shape == "board":
            assert set(sol) <= set(inst.board)


@pytest.mark.parametrize("name", ["discovery5", "any_colour", "board"])
def test_solved_flag_agrees_with_the_checker(name):
    inst = instance(name)
    grower = Grower(inst)
    enc = ga.TantrixEncoding(inst)
    rng = np.random.default_rng(3)
    agree = Counter()
    for genome in enc.random(rng, 600):
        score = grower.score(genome)
        ok = verify(inst, grower.solution(grower.grow(genome))).ok
        assert score.solved == ok
        assert (score.fitness >= SOLVED_BONUS) == ok
        agree[ok] += 1
    assert agree[True] > 0 and agree[False] > 0  # both sides were exercised


def test_operators_keep_genes_in_range_and_exchange_whole_tile_blocks():
    inst = instance("discovery10")
    enc = ga.TantrixEncoding(inst, inversion=1.0, bin_swap=1.0)
    rng = np.random.default_rng(1)
    a, b = enc.random(rng, 40), enc.random(rng, 40)
    for pop in (enc.mutate(a.copy(), rng), *enc.crossover(a, b, rng)):
        assert (pop >= 0).all() and (pop < enc.high).all()
    c1, c2 = enc.crossover(a, b, rng)
    for k in range(len(a)):
        took = c1[k] != a[k]
        assert (c1[k][took] == b[k][took]).all() and (c2[k][took] == a[k][took]).all()
        # the exchanged genes lie in one run of whole tile blocks
        blocks = np.flatnonzero(took) // GENES_PER_TILE
        if len(blocks):
            lo, hi = blocks.min() * GENES_PER_TILE, (blocks.max() + 1) * GENES_PER_TILE
            assert (c1[k][lo:hi] == b[k][lo:hi]).all()
    # a bin swap keeps the focal line's shape: in placement order, the arc angle at each
    # position stays, and genes only move between tiles
    swapped = ga.TantrixEncoding(inst, bit_mutation=0.0, inversion=0.0, bin_swap=1.0)
    before = a.copy()
    after = swapped.mutate(a.copy(), rng)
    for x, y in zip(before, after, strict=True):
        order_x = np.argsort(-x[0:-1:GENES_PER_TILE], kind="stable")
        order_y = np.argsort(-y[0:-1:GENES_PER_TILE], kind="stable")
        assert swapped.bins[order_x].tolist() == swapped.bins[order_y].tolist()
        assert Counter(x[:-1].tolist()) == Counter(y[:-1].tolist())


def test_solve_streams_improving_elites_and_is_reproducible():
    inst = instance("discovery10")
    seen: list[float] = []
    opts = SolveOptions(seed=2, params={"generations": "60"},
                        on_solution=lambda sol, fit: seen.append(fit))
    out = ga.solve(inst, opts)
    assert seen and seen == sorted(seen) and len(set(seen)) == len(seen)
    assert out.objective == pytest.approx(seen[-1], abs=1e-6)
    again = ga.solve(inst, SolveOptions(seed=2, params={"generations": "60"}))
    assert again.solution == out.solution and again.status == out.status
    if out.status == Status.SOLVED:
        assert verify(inst, out.solution).ok


def test_impossible_puzzle_times_out_with_best_cluster():
    # tiles 24-30 carry no yellow, so no yellow loop can pass through tiles 1-30
    inst = parse_instance(records("x", "tantrix\ntiles 1-30\ngoal loop yellow\n"), "x")
    out = ga.solve(inst, SolveOptions(seed=0, params={"generations": "3", "population": "20"}))
    assert out.status == Status.TIMEOUT
    assert out.solution and len(out.solution) <= 30
    assert out.stats["generations"] == 3 and out.stats["runs"] == 1


def test_cli_solves_small_discovery_verified(tmp_path):
    path = write(tmp_path, "discovery5")
    out = tmp_path / "sol.txt"
    res = run_cli("solve", path, "--backend", "ga", "--seed", "1", "--json", "--out", out,
                  "--population", "40", "--generations", "50", "--restarts", "0")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["status"] == "solved" and data["verified"] is True
    assert len(data["solution"]["placements"]) == 5
    assert data["stats"]["runs"] == 1
    check = run_cli("verify", path, out)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.parametrize(
    "flag, value, expect",
    [
        ("--population", "1", "--population"),
        ("--fitness", "best", "--fitness"),
        ("--bin-swap", "1.5", "--bin-swap"),
        ("--inversion", "x", "--inversion"),
        ("--restarts", "-1", "--restarts"),
        ("--selection", "lottery", "--selection"),
        ("--frobnicate", "3", "--frobnicate"),
    ],
)
def test_cli_rejects_bad_parameters(tmp_path, flag, value, expect):
    path = write(tmp_path, "discovery5")
    res = run_cli("solve", path, "--backend", "ga", flag, value)
    assert res.returncode == 2
    assert expect in res.stderr and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_bad_parameter_raises_input_error_in_the_library():
    with pytest.raises(InputError, match="--bit-mutation"):
        ga.solve(instance("discovery5"), SolveOptions(params={"bit_mutation": "-0.1"}))
