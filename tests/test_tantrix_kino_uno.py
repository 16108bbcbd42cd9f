"""Kino & Uno's formulations of fixed-board Tantrix (`--model kino-uno`): every combination of
C2 / C2', with or without C6, with or without C7-C9 gives a verified solution; their rows
hold for a known solution; the C7-C9 rows exclude the short loops they are meant for; the
options are checked."""

import functools
import json
from pathlib import Path

import pytest
from conftest import run_cli

import tilesolve
from tilesolve.core import hexgrid as hx
from tilesolve.families.tantrix import catalogue as cat
from tilesolve.families.tantrix.challenge import (
    challenge_colour,
    challenge_instance,
    challenge_tiles,
)
from tilesolve.families.tantrix.check import colour_lines, verify
from tilesolve.families.tantrix.instance import Goal
from tilesolve.families.tantrix.milp_kino_uno import KinoUnoMilp
from tilesolve.families.tantrix.parse import read_instance
from tilesolve.families.tantrix.region import fixed_layout

ROOT = Path(__file__).resolve().parent.parent
BOARD = "instances/tantrix_challenge_15.txt"


def test_colour_rule_follows_the_discovery_box():
    # the paper: challenge 5 red, challenge 20 blue (Figure 10); the box prints 7 red, 10 blue
    assert [challenge_colour(n) for n in (5, 10, 17, 20, 23, 40, 59, 60)] == [
        "red", "blue", "red", "blue", "yellow", "blue", "yellow", "blue"]
    assert challenge_tiles(12) == [1, 1, 2, 2, *range(3, 11)]


@pytest.mark.parametrize("c2", ["c2", "c2prime"])
@pytest.mark.parametrize("c6,c7_c9", [("off", "off"), ("on", "off"), ("on", "on")])
def test_each_formulation_solves_a_board(c2, c6, c7_c9):
    # through the API (the command line's options: test_bad_formulation_options_are_one_line)
    res = tilesolve.load(ROOT / BOARD).solve("milp", model="kino-uno", c2=c2, c6=c6,
                                               c7_c9=c7_c9, threads=1, time_limit=120)
    assert res.status.value == "solved" and res.verified is True
    stats = res.stats
    assert len(stats["round_seconds"]) == stats["rounds"] == len(stats["loops"])
    assert stats["loops"][-1] == 1
    per_tile = 6 * 15 * (15 if c2 == "c2" else 10)  # 6 n^2 or 6 n n' placement variables
    extra = stats["variables"] - per_tile  # C5's z variables, made with the first cut
    assert extra >= 0 and (extra == 0) == (stats["cuts"] == 0)


def _assign(model: KinoUnoMilp, sol) -> None:
    """Set x to the placements of `sol` (the first free copy of each tile under C2)."""
    for v in model.prob.variables():
        v.varValue = 0
    free: dict = {}
    for i, t, _n in model.tiles:
        free.setdefault(t, []).append(i)
    for c, (t, rot) in sol.items():
        i = free[t].pop() if len(free[t]) > 1 else free[t][0]
        model.x[i, model.layout.index[c], rot].varValue = 1


def _broken(model: KinoUnoMilp) -> list[str]:
    return [row.name for row in model.prob.constraints() if not row.valid()]


@functools.cache
def known_solution() -> dict:
    """CP-SAT's solution of the board, found once for both C2 variants."""
    res = tilesolve.load(ROOT / BOARD).solve("cpsat", threads=1)
    return {(p["q"], p["r"]): (p["tile"], p["rot"])
            for p in res.to_json()["solution"]["placements"]}


@pytest.mark.parametrize("c2", ["c2", "c2prime"])
def test_rows_hold_for_a_known_solution(c2):
    inst = read_instance(ROOT / BOARD)
    sol = known_solution()
    assert verify(inst, sol).ok
    model = KinoUnoMilp(fixed_layout(inst), c2=c2)
    _assign(model, sol)
    assert _broken(model) == []
    assert model.violated_cuts(sol) == []  # one loop: no C5 cut


def _red_loop(cells: list) -> dict:
    """Tiles 1..10 turned so that red runs around `cells` in this cyclic order."""
    sol = {}
    for i, c in enumerate(cells):
        ends = {hx.DIRECTIONS.index((n[0] - c[0], n[1] - c[1]))
                for n in (cells[i - 1], cells[(i + 1) % len(cells)])}
        sol[c] = next((t, rot) for t in range(1, 11) for rot in range(6)
                      if set(cat.arc(t, rot, "red")) == ends)
    return sol


@pytest.mark.parametrize("loop,rows", [
    ([(0, 0), (1, 0), (0, 1)], "C7"),                       # around a vertex
    ([(0, 0), (1, -1), (1, 0), (0, 1)], "C8"),              # around a rhombus
    ([(0, 0), (1, -1), (2, -1), (1, 0), (0, 1)], "C9"),     # a fan of three triangles
    ([(0, 0), (1, 0), (2, 0), (1, 1), (0, 1)], "C9"),       # a strip of three triangles
])
def test_short_loop_rows_exclude_their_loops(loop, rows):
    sol = _red_loop(loop)
    assert colour_lines(sol, "red").closed == [True]
    board = set(loop) | {nb for c in loop for nb in hx.neighbours(c)}
    inst = challenge_instance(len(board), board)
    inst.goals[0] = Goal("loop", "red")
    model = KinoUnoMilp(fixed_layout(inst), c6=False, c7_c9=True)
    _assign(model, sol)
    assert any(name.startswith(rows) for name in _broken(model))
    bare = KinoUnoMilp(fixed_layout(inst), c6=False, c7_c9=False)
    _assign(bare, sol)
    assert not any(name.startswith(("C7", "C8", "C9")) for name in _broken(bare))


@pytest.mark.parametrize("args,expect", [
    (["--model", "kino-uno", "--c6", "maybe"], "--c6 expects one of on, off, got 'maybe'"),
    (["--model", "kino-uno", "--c2", "c3"], "--c2 expects one of c2, c2prime, got 'c3'"),
    (["--model", "paper"], "--model expects one of ours, kino-uno, got 'paper'"),
    (["--c7-c9", "yes"], "--c7-c9 expects one of on, off, got 'yes'"),
    (["--c2", "c2"], "--c2 c2 and --c6 off need --model kino-uno"),
])
def test_bad_formulation_options_are_one_line(args, expect):
    # a generous -t: a limit that ran out before the refusal (a busy machine) would be the
    # answer (timeout) instead of the refusal
    proc = run_cli("solve", BOARD, "-b", "milp", *args, "-t", "60")
    assert proc.returncode == 2
    assert expect in proc.stderr and "Traceback" not in proc.stderr


def test_kino_uno_refuses_boards_with_empty_places():
    proc = run_cli("solve", "instances/tantrix_challenge_10_slack.txt", "-b", "milp",
                   "--model", "kino-uno", "-t", "60")
    assert proc.returncode == 2 and "one place per tile" in proc.stderr


@pytest.mark.parametrize("short", ["on", "off"])
def test_cnf_with_and_without_short_loop_clauses(short):
    proc = run_cli("solve", BOARD, "-b", "sat", "--c7-c9", short, "--threads", "1", "-t", "120",
                   "--json")
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert res["status"] == "solved" and res["verified"] is True and res["stats"]["rounds"] >= 1


def test_cnf_checks_its_short_loop_option():
    proc = run_cli("solve", BOARD, "-b", "sat", "--c7-c9", "maybe", "-t", "60")
    assert proc.returncode == 2 and "--c7-c9 expects one of on, off" in proc.stderr
