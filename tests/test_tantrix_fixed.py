"""Fixed-board Tantrix: the compact challenge boards (Kino & Uno's setting), the earlier band
and slack boards, and the generator that makes the compact boards."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest
from conftest import run_cli

from tilesolve.core import hexgrid as hx
from tilesolve.core.result import SolveOptions
from tilesolve.families.tantrix import cpsat
from tilesolve.families.tantrix.challenge import challenge_colour, challenge_instance
from tilesolve.families.tantrix.check import verify
from tilesolve.families.tantrix.parse import read_instance

ROOT = Path(__file__).resolve().parent.parent
BAND_SIZES = (50, 60, 70, 80, 90, 100)


def generator():
    spec = importlib.util.spec_from_file_location(
        "make_tantrix_instances", ROOT / "scripts" / "make_tantrix_instances.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def tile_counts(n: int) -> Counter:
    return Counter({t: -(-(n + 1 - t) // 10) for t in range(1, 11)})


@pytest.mark.parametrize("n", generator().SIZES)
def test_compact_boards_hold_the_kino_uno_tiles(n):
    inst = read_instance(ROOT / "instances" / f"tantrix_challenge_{n}.txt")
    assert inst.shape == "board" and len(inst.board) == n  # one tile per place
    assert inst.counts() == tile_counts(n)
    assert [str(g) for g in inst.goals] == [f"loop {challenge_colour(n)}"]
    # compact: inside the near-regular hexagon of about n / 0.75 cells it was found on
    assert set(inst.board) <= set(generator().compact_region(n))


@pytest.mark.parametrize("n", BAND_SIZES)
def test_band_and_slack_boards_stay_as_their_own_set(n):
    band = read_instance(ROOT / "instances" / f"tantrix_challenge_band_{n}.txt")
    slack = read_instance(ROOT / "instances" / f"tantrix_challenge_{n}_slack.txt")
    for inst in (band, slack):
        assert inst.counts() == tile_counts(n)
        assert [str(g) for g in inst.goals] == ["loop red"]
    rows = hx.rows_of(band.board)
    assert len(band.board) == n and len(rows) == 3
    assert set(slack.board) == set(band.board) | {(row[-1][0] + 1, row[-1][1]) for row in rows}


def test_cpsat_solves_a_band_board_on_two_threads(tmp_path):
    out = tmp_path / "c50.sol"
    path = "instances/tantrix_challenge_band_50.txt"
    proc = run_cli("solve", path, "--backend", "cpsat", "--threads", "2", "-t", "240",
                   "--json", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert res["status"] == "solved" and res["verified"] is True
    cells = {(p["q"], p["r"]) for p in res["solution"]["placements"]}
    assert len(cells) == 50 and cells == set(read_instance(ROOT / path).board)
    again = run_cli("verify", path, str(out))
    assert again.returncode == 0, again.stdout


def test_each_board_solution_is_enumerated_once():
    # both traversals of a loop would otherwise be two solutions of the model
    inst = read_instance(ROOT / "instances" / "tantrix_challenge_10_slack.txt")
    out = cpsat.count(inst, SolveOptions(time_limit=120, threads=1))
    assert out.stats["complete"] and len(out.solutions) > 100
    assert all(verify(inst, s).ok for s in out.solutions[:20])
    assert len({frozenset(s.items()) for s in out.solutions}) == len(out.solutions)


def test_generator_is_reproducible_and_grows_by_ten():
    gen = generator()
    region = gen.compact_region(5)
    first = gen.solve_region(5, region, seed=3, budget=20)
    assert first is not None and first == gen.solve_region(5, region, seed=3, budget=20)
    assert verify(challenge_instance(5), first).ok and set(first) <= set(region)
    grown = gen.grow(15, first, seed=3, budget=60)
    assert grown is not None and len(grown) == 15
    assert verify(challenge_instance(15), grown).ok
    assert set(grown) <= set(gen.compact_region(15))
