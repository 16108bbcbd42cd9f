"""Tantrix search backend: real solves verified by the checker, counts, refusals, both engines."""

from __future__ import annotations

import json

import pytest
from conftest import INSTANCES, run_cli

from tilesolve.core.errors import InputError
from tilesolve.core.result import SolveOptions, Status, StopFlag
from tilesolve.dispatch import solve_file
from tilesolve.families.tantrix import linewalk, search
from tilesolve.families.tantrix.check import verify
from tilesolve.families.tantrix.instance import Goal, TantrixInstance
from tilesolve.families.tantrix.parse import read_instance

ENGINES = ["python", pytest.param("c", marks=pytest.mark.skipif(
    search._loopscan is None, reason="compiled loopscan core not built"))]
WALK_ENGINES = ["python", pytest.param("c", marks=pytest.mark.skipif(
    linewalk._linewalk is None, reason="compiled linewalk core not built"))]


def discovery(k: int):
    return INSTANCES / f"tantrix_discovery_{k:02d}.txt"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("k", range(3, 13))
def test_discovery_solved_and_verified(engine, k):
    for seed in (0, 1):
        opts = SolveOptions(seed=seed, threads=1, time_limit=60, params={"engine": engine})
        res = solve_file(discovery(k), "search", opts)
        assert res.status == Status.SOLVED and res.verified
        assert len(res.solution["placements"]) == k
        assert res.stats["solver"] == "loopscan"


def test_larger_discovery_with_compiled_core():
    if search._loopscan is None:
        pytest.skip("compiled loopscan core not built")
    for k in (20, 24):
        res = solve_file(discovery(k), "search", SolveOptions(seed=3, threads=2, time_limit=60))
        assert res.status == Status.SOLVED and res.verified


def test_engines_walk_the_same_tree():
    if search._loopscan is None:
        pytest.skip("compiled loopscan core not built")
    inst = read_instance(discovery(14))
    ts = search.trees(inst)
    found = {}
    for kind in (search.PyCore, search.CCore):
        s = search.LoopSearcher(ts, 5, kind)
        code, nodes = s.step(10**7)
        assert code == 1
        found[kind] = (nodes, s.solution())
    assert found[search.PyCore] == found[search.CCore]
    assert verify(inst, found[search.CCore][1]).ok


@pytest.mark.parametrize("name,expected", [
    ("discovery_03", 2), ("discovery_05", 4), ("discovery_07", 36), ("discovery_08", 84),
    ("super_junior", 48),
])
def test_counts_match_cpsat(name, expected):
    # the expected numbers are CP-SAT's complete counts; the pin leaves one loop per class
    opts = SolveOptions(count=True, threads=1, time_limit=60)
    res = solve_file(INSTANCES / f"tantrix_{name}.txt", "search", opts)
    assert res.stats["complete"] is True
    assert res.count == expected == res.count_raw


def test_any_colour_loop():
    res = solve_file(INSTANCES / "tantrix_rainbow_white.txt", "search",
                     SolveOptions(seed=2, threads=1, time_limit=60))
    assert res.status == Status.SOLVED and res.verified


@pytest.mark.parametrize("engine", ENGINES)
def test_two_tiles_cannot_close_a_loop(engine):
    inst = TantrixInstance([1, 2], [Goal("loop", "yellow")])
    out = search.solve(inst, SolveOptions(threads=1, time_limit=30, params={"engine": engine}))
    assert out.status == Status.INFEASIBLE


def test_stop_flag_ends_the_search():
    flag = StopFlag()
    flag.set()
    inst = read_instance(discovery(30))
    out = search.solve(inst, SolveOptions(threads=1, stop=flag))
    assert out.status == Status.TIMEOUT and out.solution is None


def test_cli_solution_file_verifies(tmp_path):
    sol = tmp_path / "d12.txt"
    proc = run_cli("solve", discovery(12), "--backend", "search", "--threads", "1", "--json",
                   "--out", sol)
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert res["status"] == "solved" and res["verified"] is True
    assert run_cli("verify", discovery(12), sol).returncode == 0


@pytest.mark.parametrize("text,reason", [
    ("tiles 1-10\ngoal loop red\nshape triangle 4", "shape triangle is not free"),
    ("tiles 1-10\nshape free", "no goal"),
])
def test_unhandled_puzzles_refused(tmp_path, text, reason):
    path = tmp_path / "p.txt"
    path.write_text(f"tantrix\n{text}\n")
    proc = run_cli("solve", path, "--backend", "search")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and reason in lines[0] and "fixed, distinct colours" in lines[0]


@pytest.mark.parametrize("engine", WALK_ENGINES)
def test_professor_two_loops(engine):
    res = solve_file(INSTANCES / "tantrix_super_professor.txt", "search",
                     SolveOptions(threads=1, time_limit=60, params={"engine": engine}))
    assert res.status == Status.SOLVED and res.verified
    assert res.stats["solver"] == "linewalk"
    res = solve_file(INSTANCES / "tantrix_super_professor.txt", "search",
                     SolveOptions(count=True, threads=1, time_limit=60, params={"engine": engine}))
    assert res.stats["complete"] is True and res.count == 2


@pytest.mark.slow  # the whole tree: about 6 CPU s
def test_genius_solved_and_unique():
    if linewalk._linewalk is None:
        pytest.skip("compiled linewalk core not built")
    path = INSTANCES / "tantrix_super_genius.txt"
    res = solve_file(path, "search", SolveOptions(threads=2, time_limit=120))
    assert res.status == Status.SOLVED and res.verified
    # the whole tree: one cluster up to translation and rotation, met from both line ends
    res = solve_file(path, "search", SolveOptions(count=True, threads=1, time_limit=300))
    assert res.stats["complete"] is True and (res.count, res.count_raw) == (1, 2)


@pytest.mark.parametrize("text,expected", [
    # complete CP-SAT counts of the same puzzles (distinct up to translation and rotation)
    ("tiles 1-5\ngoal line yellow", 56),
    ("tiles 1-3 48\ngoal line blue", 120),
    ("tiles 4 8 32 40\ngoal line red", 192),
    ("tiles 8 11 27 33\ngoal line green\ngoal line yellow", 77),  # 27 lacks yellow: placed last
    ("tiles 1-4\ngoal line red\ngoal line blue", 0),
    ("tiles 4-8\ngoal line blue\ngoal loop red", 0),
])
@pytest.mark.parametrize("engine", WALK_ENGINES)
def test_walk_counts_match_cpsat(tmp_path, engine, text, expected):
    path = tmp_path / "p.txt"
    path.write_text(f"tantrix\n{text}\nshape free\n")
    res = solve_file(path, "search",
                     SolveOptions(count=True, threads=1, time_limit=60, params={"engine": engine}))
    assert res.stats["complete"] is True and res.count == expected


def test_walk_engines_agree():
    if linewalk._linewalk is None:
        pytest.skip("compiled linewalk core not built")
    walk = linewalk.Walk.build(read_instance(INSTANCES / "tantrix_super_genius.txt"))
    seen = {}
    for kind in (linewalk.WalkCore, linewalk.CWalkCore):
        core = kind(walk, 3)
        steps = [core.step(5_000) for _ in range(3)]
        seen[kind] = (steps, core.state.tolist(), core.levels[1].tolist())
    assert seen[linewalk.WalkCore] == seen[linewalk.CWalkCore]


def test_fixed_board_refused():
    proc = run_cli("solve", INSTANCES / "tantrix_challenge_10.txt", "--backend", "search")
    assert proc.returncode == 2 and "shape board is not free" in proc.stderr


@pytest.mark.parametrize("opt,value", [("--engine", "fast"), ("--restart", "-1"),
                                       ("--restart", "soon"), ("--population", "5")])
def test_bad_options(opt, value):
    proc = run_cli("solve", discovery(5), "--backend", "search", opt, value)
    assert proc.returncode == 2 and opt in proc.stderr


def test_objective_refused():
    with pytest.raises(InputError, match="not supported"):
        search.solve(read_instance(discovery(5)), SolveOptions(objective="matches"))


def test_open_colours_count_every_choice_once(tmp_path):
    """Goals of colour `any` (Downing's statement of the Super puzzles): the count covers
    every colour choice, each unordered pair once, and equals the fixed-colour counts added."""
    def count(goals: str) -> int:
        path = tmp_path / "p.txt"
        path.write_text(f"tantrix\ntiles 8 11 27 33\n{goals}\nshape free\n")
        res = solve_file(path, "search", SolveOptions(count=True, threads=1, time_limit=60))
        assert res.stats["complete"] is True
        return res.count

    pairs = [("red", "green"), ("yellow", "green"), ("blue", "green"), ("red", "blue")]
    fixed = [count(f"goal line {a}\ngoal line {b}") for a, b in pairs]
    assert fixed == [4, 77, 12, 0]
    assert count("goal line any\ngoal line any") == sum(fixed) == 93


@pytest.mark.parametrize(("name", "count", "choices"), [
    ("junior", 48, None),  # one loop of any colour: the loop search tries every colour
    ("professor", 2, {"loop yellow + loop blue": 12}),  # only yellow and blue close
])
def test_super_puzzles_with_open_colours(name, count, choices):
    path = INSTANCES / f"tantrix_super_{name}_open.txt"
    res = solve_file(path, "search", SolveOptions(count=True, threads=1, time_limit=120))
    assert res.stats["complete"] is True and res.count == count
    if choices:
        assert {k: v for k, v in res.stats["colour_choices"].items() if v} == choices
