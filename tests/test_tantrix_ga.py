"""The Tantrix GA: growth rule invariants, operators, fitness against the checker, CLI runs."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from conftest import run_cli

from tilesolve.core.errors import InputError
from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.tantrix import ga
from tilesolve.families.tantrix.check import verify
from tilesolve.families.tantrix.ga_growth import GENES_PER_TILE, SOLVED_BONUS, Grower
from tilesolve.families.tantrix.parse import read_instance

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
    return read_instance(name, text=INSTANCES[name])


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


def test_impossible_puzzle_spends_its_budget_with_best_cluster():
    # tiles 24-30 carry no yellow, so no yellow loop can pass through tiles 1-30
    inst = read_instance("x", text="tantrix\ntiles 1-30\ngoal loop yellow\n")
    out = ga.solve(inst, SolveOptions(seed=0, params={"generations": "3", "population": "20"}))
    assert out.status == Status.BUDGET
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


# --- the growth rule's steps, on tiles 1-3 (every one has a sharp yellow corner on edges 0-1
# unturned: tile 1 Y Y B R B R, tile 2 Y Y B R R B, tile 3 Y Y R R B B; a tile turned r shows
# its edge (d - r) mod 6 at edge d; edge d faces DIRECTIONS[d])
def _growth(kind: str):
    from tilesolve.families.tantrix.ga_growth import COLOUR_INDEX, Growth

    inst = read_instance("t", text=f"tantrix\ntiles 1-3\ngoal {kind} yellow\nshape free\n")
    return Growth(Grower(inst), COLOUR_INDEX["yellow"])


def test_growth_put_opens_the_focal_ends_and_fits_checks_the_golden_rule():
    g = _growth("loop")
    assert g.focal_left == 3
    g.put(0, 0, (0, 0), 0)  # tile 1 unturned: its yellow corner faces (1,-1) and (1,0)
    assert g.ends == [((0, 0), 0, 0), ((0, 0), 1, 0)] and g.focal_left == 2
    # tile 2 at (1,-1) touches (0,0)'s yellow edge 0 with its edge 3: yellow only turned 2 or 3
    assert [g.fits(1, rot, (1, -1)) for rot in range(6)] == [False, False, True, True, False,
                                                            False]


def test_growth_at_ends_extends_the_line_by_the_arc_end_the_gene_picks():
    g = _growth("loop")
    g.put(0, 0, (0, 0), 0)
    assert g.at_ends(1, 0, 0) == (3, (1, -1), 0)  # enters by arc end 0: the line turns away
    assert g.at_ends(1, 1, 0) == (2, (1, -1), 0)  # by arc end 1: it turns towards (1,0)
    g.put(1, 2, (1, -1), 0)
    assert g.ends == [((1, -1), 2, 0), ((0, 0), 1, 0)] and g.focal_left == 1


@pytest.mark.parametrize(("kind", "closes"), [("loop", True), ("line", False)])
def test_growth_closes_a_loop_only_for_a_loop_goal_and_with_the_last_focal_tile(kind, closes):
    g = _growth(kind)
    g.put(0, 0, (0, 0), 0)
    g.put(1, 2, (1, -1), 0)  # both ends now face (1,0); tile 3 turned 4 closes the corner loop
    got = g.at_ends(2, 0, 0)
    assert got == ((4, (1, 0), 0) if closes else None)
    if closes:
        g.put(2, *got)
        assert g.ends == [] and g.focal_left == 0  # a closed loop has no open end
    else:  # a line goal places the tile next to the cluster, away from the line
        rot, cell = g.anywhere(2, 0, 0)
        assert cell != (1, 0) and g.fits(2, rot, cell)


def test_the_hill_climb_counts_every_board_it_scores():
    """The tuned preset's stall repair is a hill climb: its tries are evaluations too (the
    engine adds them to its count, so an evaluation budget covers them)."""
    enc = ga.TantrixEncoding(instance("discovery10"))
    rng = np.random.default_rng(4)
    genome = enc.random(rng, 1)[0]
    enc.repair(genome, rng)
    # the start board and every try, unless a try solved the puzzle and stopped the climb
    assert enc.local_evaluations == 1 + enc.repair_tries == 41
