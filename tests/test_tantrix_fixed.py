"""Fixed-board Tantrix: the challenge boards for 50..100 tiles, CP-SAT on them, and the band
construction that makes them."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest
from conftest import run_cli

from tesserae.core import hexgrid as hx
from tesserae.core.result import SolveOptions
from tesserae.families.tantrix import cpsat
from tesserae.families.tantrix.model import Goal, TantrixInstance, read_instance, verify

ROOT = Path(__file__).resolve().parent.parent


def generator():
    spec = importlib.util.spec_from_file_location(
        "make_tantrix_instances", ROOT / "scripts" / "make_tantrix_instances.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("n", [10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
def test_challenge_files_hold_the_kino_uno_tiles(n):
    exact = read_instance(ROOT / "instances" / f"tantrix_challenge_{n}.txt")
    slack = read_instance(ROOT / "instances" / f"tantrix_challenge_{n}_slack.txt")
    for inst in (exact, slack):
        assert inst.shape == "board"
        assert inst.counts() == Counter({t: -(-(n + 1 - t) // 10) for t in range(1, 11)})
        assert [str(g) for g in inst.goals] == [f"loop {gen_colour(n)}"]
    # one tile per place; the slack board adds one empty cell at the end of each row
    rows = hx.rows_of(exact.board)
    assert len(exact.board) == n
    assert set(slack.board) == set(exact.board) | {(row[-1][0] + 1, row[-1][1]) for row in rows}
    if n > 40:  # grown on a band three cells high
        assert len(rows) == 3


def gen_colour(n: int) -> str:
    return generator().challenge_colour(n)


def test_cpsat_solves_challenge_50_on_two_threads(tmp_path):
    out = tmp_path / "c50.sol"
    proc = run_cli("solve", "instances/tantrix_challenge_50.txt", "--backend", "cpsat",
                   "--threads", "2", "-t", "240", "--json", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert res["status"] == "solved" and res["verified"] is True
    cells = {(p["q"], p["r"]) for p in res["solution"]["placements"]}
    inst = read_instance(ROOT / "instances" / "tantrix_challenge_50.txt")
    assert len(cells) == 50 and cells == set(inst.board)
    again = run_cli("verify", "instances/tantrix_challenge_50.txt", str(out))
    assert again.returncode == 0, again.stdout


def test_each_board_solution_is_enumerated_once():
    # both traversals of a loop would otherwise be two solutions of the model
    inst = read_instance(ROOT / "instances" / "tantrix_challenge_10_slack.txt")
    out = cpsat.count(inst, SolveOptions(time_limit=120, threads=1))
    assert out.stats["complete"] and len(out.solutions) > 100
    assert all(verify(inst, s).ok for s in out.solutions[:20])
    assert len({frozenset(s.items()) for s in out.solutions}) == len(out.solutions)


def test_generator_grows_a_loop_by_ten_tiles():
    gen = generator()
    grown = gen.grown_band_solutions(30, time_limit=60, workers=2)
    sol = grown[30]
    assert len(sol) == 30
    free = TantrixInstance(gen.challenge_tiles(30), [Goal("loop", gen.challenge_colour(30))])
    assert verify(free, sol).ok
    assert {r for _q, r in sol} <= {0, 1, 2}
    assert Counter(t for t, _rot in sol.values()) == Counter({t: 3 for t in range(1, 11)})
