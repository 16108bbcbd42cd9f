"""The Python API (`import tilesolve`): every entry point on real solvers and shipped instances,
the README's example, and the API reference built from the docstrings without a warning."""

from __future__ import annotations

import inspect
import json
import re
import signal
import subprocess
import sys
import typing
import warnings

import pytest
from conftest import INSTANCES, ROOT, ctrl_c_default

import tilesolve
from tilesolve import InputError, Status

E = None  # an empty cell in the builders' rows
HIDATO_19_01 = [[E, 8, 10], [E, 5, E, E], [E, E, E, 12, E], [1, 19, 15, E], [E, E, E]]


def test_import_loads_no_solver_library():
    code = ("import sys, tilesolve; print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('ortools', 'pulp', 'pysat', 'highspy', 'numpy', 'matplotlib', 'typer')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert proc.stdout.strip() == "[]"


def readme_example() -> str:
    """The first Python block of the README."""
    text = (ROOT / "README.md").read_text()
    return re.search(r"```python\n(.*?)```", text, re.S).group(1)


def test_readme_example_runs_and_solves():
    code = readme_example()
    assert len(code.strip().splitlines()) == 3
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert re.fullmatch(r"solved \(verified\) by cpsat in [0-9.]+ s \(13, 0\)\n", proc.stdout)


def test_load_and_solve_the_6x6_edge_matching_puzzle():
    puzzle = tilesolve.load(INSTANCES / "e2_6x6.txt")
    assert puzzle.family == "edgematch" and puzzle.info()["pieces"] == 36
    result = puzzle.solve(backend="cpsat", time_limit=120, seed=1, threads=1)
    assert result.status == Status.SOLVED and result.verified and result.solved
    assert len(result.solution) == 36 and result.solution[(0, 0)][0] == 13  # the corner piece
    assert puzzle.verify(result.solution).ok and result.verify().ok
    assert result.objective is None and result.objective_max is None
    assert result.to_json()["status"] == "solved" and result.stats["solver"] == "cp-sat"
    assert result.legend.startswith("piece/rot") and len(result.text.splitlines()) == 6


def test_objective_comes_with_its_maximum():
    result = tilesolve.solve(str(INSTANCES / "e2_4x4.txt"), backend="cpsat",
                             objective="matches", threads=1)
    assert result.status == Status.SOLVED  # proven optimal: all 24 joins matched
    assert (result.objective, result.objective_max) == (24, 24)
    assert result.objective_counts == "matched joins"
    assert "matched joins 24/24" in result.summary()
    report = result.verify()
    assert report.ok and (report.score, report.max_score) == (24, 24)


def test_hidato_built_in_memory_is_solved_as_its_file_is():
    built = tilesolve.hidato(HIDATO_19_01)
    assert built.family == "hidato" and built.name == "<hidato>"
    result = built.solve(backend="cpsat", threads=1)
    assert result.status == Status.SOLVED and result.verified
    assert sorted(result.solution.values()) == list(range(1, 20))
    from_file = tilesolve.load(INSTANCES / "hidato_19_01.txt").solve(threads=1)
    assert result.solution == from_file.solution  # the puzzle has one solution
    assert tilesolve.parse(built.text).solve(threads=1).solution == result.solution


def test_infeasible_hidato_is_reported_infeasible():
    # four corners left with one free neighbour each: a path has only two ends
    rows = [[E, "#", E], ["#", E, E, "#"], [E, E, E, E, E], ["#", E, E, E], [E, "#", E]]
    result = tilesolve.hidato(rows).solve(backend="cpsat", threads=1)
    assert result.status == Status.INFEASIBLE and "proved_by" not in result.stats  # by CP-SAT
    assert result.solution is None and not result.solved
    precheck = tilesolve.hidato([[1, E, 2], [E] * 4, [E] * 5, [E] * 4, [E] * 3]).solve()
    assert precheck.status == Status.INFEASIBLE and precheck.stats["proved_by"] == "precheck"
    assert "givens 1 and 2 lie 2 moves apart" in precheck.stats["reason"]


def test_bad_file_raises_input_error_naming_the_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("edgematch 2 2\n0 1 1 0\n0 0 1 x\n1 1 0 0\n1 0 0 1\n")
    with pytest.raises(InputError) as caught:
        tilesolve.load(path)
    assert (caught.value.path, caught.value.line) == (str(path), 3)
    assert str(caught.value).startswith(f"{path}:3: expected colours N E S W")


@pytest.mark.parametrize(("build", "where"), [
    (lambda: tilesolve.edgematch([(0, 1, 1, 0), (0, 0, 1, 1), (1, 1, 0, 0), (1, 0, 0, -1)]),
     "<edgematch>:5: colours must be integers 0..255"),  # piece 4 on line 5
    (lambda: tilesolve.hidato([[E, 8, 10], [E, 5, E]]), "<hidato>:3: expected 5 rows"),
    (lambda: tilesolve.hidato([[E, 8, 10], [E, 5, E], *HIDATO_19_01[2:]]),
     "<hidato>:3: expected 4 tokens in this row"),
    (lambda: tilesolve.magichex(3, rows=[[1, 2, 3], [E] * 4, [E, E, E, E, 99], [E] * 4, [E] * 3]),
     "<magichex>:4: number 99 out of range; expected 1..19"),
    (lambda: tilesolve.tantrix([1, 2, 57], ["loop red"]), "<tantrix>:2: unknown tile 57"),
    (lambda: tilesolve.tantrix("1-5", ["loop purple"]), "<tantrix>:3: unknown colour"),
])
def test_builders_refuse_bad_data_naming_the_line(build, where):
    with pytest.raises(InputError, match=re.escape(where)):
        build()


def test_edge_matching_built_in_memory_honours_fixed_pieces():
    pieces = [(0, 1, 1, 0), (0, 0, 1, 1), (1, 1, 0, 0), (1, 0, 0, 1)]
    result = tilesolve.edgematch(pieces).solve(threads=1)
    assert result.solved and result.solution == {(0, 0): (1, 0), (0, 1): (3, 2),
                                                 (1, 0): (2, 2), (1, 1): (4, 0)}
    fixed = tilesolve.edgematch(pieces, 2, 2, fixed={(0, 0): (4, 2)}).solve(threads=1)
    assert fixed.solved and fixed.solution[(0, 0)] == (4, 2)


def test_count_tantrix_and_the_magic_hexagon():
    discovery5 = tilesolve.tantrix("1-5", ["loop red"]).count(threads=1)
    assert discovery5.status == Status.SOLVED and (discovery5.count, discovery5.count_raw) == (4, 4)
    from_file = tilesolve.load(INSTANCES / "tantrix_discovery_05.txt").count(threads=1)
    assert from_file.count == 4
    normal = tilesolve.magichex(3).count(backend="search", threads=1)
    assert normal.count == 1 and normal.count_raw == 12  # one hexagon in 12 symmetric copies
    assert sum(normal.solution[c] for c in normal.puzzle.instance.rows[0]) == 38


def test_backend_options_reach_the_backend_and_best_boards_stay_apart(tmp_path):
    puzzle = tilesolve.load(INSTANCES / "e2_16x16.txt")
    result = puzzle.solve(backend="ga", preset="paper", generations=2, population=20, seed=3)
    assert result.status == Status.BUDGET and result.stats["population"] == 20
    assert result.solution is None and len(result.best) == 256
    report = result.verify()
    assert not report.ok and len(report.violations) == result.stats["broken_rules"]
    with pytest.raises(InputError, match="no verified solution; best=True"):
        result.render(tmp_path / "x.svg")
    written = result.write(tmp_path / "best.txt", best=True)
    assert written.read_text().startswith("# not a solution: the best board of a budget run")
    assert len(puzzle.verify(written).violations) == result.stats["broken_rules"]
    with pytest.raises(ValueError, match="argument 'population' expects a positive integer"):
        puzzle.solve(backend="ga", population="lots")
    with pytest.raises(ValueError, match="argument 'time_limit' must be a positive"):
        puzzle.solve(time_limit=0)


def test_result_writes_renders_and_the_puzzle_exports(tmp_path):
    puzzle = tilesolve.load(INSTANCES / "e2_4x4.txt")
    result = puzzle.solve(threads=1)
    board = result.write(tmp_path / "s.json")
    assert puzzle.verify(board).ok and json.loads(board.read_text())["board"][0][0] is not None
    assert puzzle.verify(result.to_json()["solution"]).ok  # the JSON form is accepted too
    svg = result.render(tmp_path / "s.svg")
    assert "<svg" in svg.read_text()
    assert puzzle.render(tmp_path / "pieces.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(InputError, match="expected .svg, .png or .pdf"):
        result.render(tmp_path / "s.gif")
    size = puzzle.export(tmp_path / "m.cnf", to="cnf")
    assert size and (tmp_path / "m.cnf").read_text().startswith("c ")
    assert json.loads((tmp_path / "m.cnf.map.json").read_text())


def test_portfolio_solves_a_puzzle_built_in_memory():
    """The portfolio's lanes read the instance from a file: a built puzzle gets one."""
    puzzle = tilesolve.parse((INSTANCES / "e2_4x4.txt").read_text(), name="four")
    result = puzzle.solve(objective="matches", time_limit=60, threads=2)
    assert result.backend == "portfolio" and result.raw.instance == "four"
    assert result.status == Status.SOLVED and result.objective == result.objective_max == 24


def test_api_reference_builds_without_warnings(tmp_path):
    """pdoc renders the top-level module; any warning (a broken link, an annotation it cannot
    read) fails the build, and every public name and member has a docstring."""
    import pdoc
    import pdoc.doc

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pdoc.pdoc("tilesolve", output_directory=tmp_path)
    page = (tmp_path / "tilesolve.html").read_text()
    for name in tilesolve.__all__:
        if inspect.ismodule(getattr(tilesolve, name)):  # a public module: a page of its own
            assert (tmp_path / "tilesolve" / f"{name}.html").exists(), name
            assert f'href="tilesolve/{name}.html"' in page, name
        else:
            assert f'<section id="{name}">' in page, name
    for name in ("Puzzle.solve", "Result.objective_max", "Result.render", "Puzzle.export"):
        assert f'id="{name}"' in page, name
    for name in ("Result.raw", "Report.add", "Puzzle._family"):  # internals stay out
        assert f'id="{name}"' not in page, name
    assert 'id="Improvement.source"' in page
    undocumented = []
    for name, member in pdoc.doc.Module(tilesolve).members.items():
        if not member.docstring:
            undocumented.append(name)
        for own in getattr(member, "own_members", []):
            if not own.name.startswith("_") and not own.docstring:
                undocumented.append(own.fullname)
    assert undocumented == []


# the README's guard-free use: a solve at the top level of a script, or in a notebook cell
SCRIPT = f"""
import tilesolve
puzzle = tilesolve.load({str(INSTANCES / "e2_6x6.txt")!r})
result = puzzle.solve(objective="matches", time_limit=120, threads=2)
print("RESULT", result.backend, result.status.value, result.verify().ok, result.objective)
"""


@pytest.mark.parametrize("how", ["script", "cell"])
def test_portfolio_runs_without_a_main_guard(tmp_path, how):
    """A lane used to run the caller's script again (multiprocessing's `__mp_main__`): the
    lanes died in their bootstrapping, the portfolio answered `error` and semaphores leaked.
    A notebook cell is code with no file behind `__main__` (`python -c`)."""
    script = tmp_path / "plain.py"
    script.write_text(SCRIPT)
    command = [str(script)] if how == "script" else ["-c", SCRIPT]
    proc = subprocess.run([sys.executable, *command], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 1, proc.stdout  # the lanes did not run the script again
    backend, status, ok, score = lines[0].split()[1:]
    assert backend == "portfolio" and status in ("solved", "feasible") and ok == "True"
    assert 0 < int(score) <= 60
    assert "leaked semaphore" not in proc.stderr and "bootstrapping" not in proc.stderr


def test_on_solution_hears_each_verified_improvement():
    # the 5x5 streams 14 boards to its optimum in 0.4 CPU s (the 6x6: 10 in 2 s)
    puzzle = tilesolve.load(INSTANCES / "e2_5x5.txt")
    seen: list[tilesolve.Improvement] = []
    result = puzzle.solve("cpsat", objective="matches", threads=1, seed=2,
                          solver_params={"stop_after_first_solution": False},
                          on_solution=seen.append)
    scores = [s.objective for s in seen]
    assert len(scores) >= 2 and scores == sorted(set(scores))
    assert scores[-1] == result.objective == 40
    for improvement in seen:
        assert improvement.source == "cpsat" and improvement.objective_max == 40
        assert puzzle.verify(improvement.board, "matches").score == improvement.objective
    assert [s.seconds for s in seen] == sorted(s.seconds for s in seen)
    plain: list[tilesolve.Improvement] = []
    solved = tilesolve.load(INSTANCES / "hidato_19_01.txt").solve(threads=1,
                                                                  on_solution=plain.append)
    assert [(s.board, s.objective, s.source) for s in plain] == [
        (solved.solution, None, "cpsat")]  # without an objective: the solution, once


def test_board_json_saves_a_streamed_board_in_the_family_s_json_form(tmp_path):
    """What a script saves as boards stream in reads back as the same board and score."""
    # Discovery 10 streams 4 boards within its 2,000 conflicts in 0.5 CPU s (the 56-tile
    # Loop puzzle took 14 s for the same path)
    puzzle = tilesolve.load(INSTANCES / "tantrix_discovery_10.txt")
    seen: list[tilesolve.Improvement] = []
    result = puzzle.solve("cpsat", objective="longest", threads=1, time_limit=60,
                          solver_params={"max_number_of_conflicts": 2000},
                          on_solution=seen.append)
    assert len(seen) >= 2  # a board streamed before the last one
    saved = puzzle.board_json(seen[-1].board)
    assert saved == result.to_json()["solution"]
    assert sorted(p["tile"] for p in saved["placements"]) == list(range(1, 11))
    path = tmp_path / "best.json"
    path.write_text(json.dumps(saved))
    assert puzzle.verify(path, "longest").score == seen[-1].objective == result.objective
    assert puzzle.board_json(path) == saved


def test_on_solution_hears_the_portfolio_lanes():
    seen: list[tilesolve.Improvement] = []
    result = tilesolve.load(INSTANCES / "e2_4x4.txt").solve(
        objective="matches", time_limit=120, threads=2, on_solution=seen.append)
    assert result.backend == "portfolio" and result.objective == 24
    assert seen and seen[-1].objective == 24 and seen[-1].board == result.solution
    assert all(s.source in result.stats["backends"] for s in seen)
    assert seen[-1].source == result.stats["best_from"]


def test_solver_params_reach_the_solver_and_unknown_names_are_refused():
    puzzle = tilesolve.load(INSTANCES / "e2_6x6.txt")
    # no conflict allowed: CP-SAT gives up on a puzzle it solves otherwise (no time limit)
    stopped = puzzle.solve("cpsat", threads=1, solver_params={"max_number_of_conflicts": 0})
    assert stopped.status == Status.TIMEOUT and stopped.solution is None
    with pytest.raises(ValueError, match=r"CP-SAT has no parameter 'num_worker' "
                                         r"\(did you mean 'num_workers'\?\)"):
        puzzle.solve("cpsat", solver_params={"num_worker": 2})
    with pytest.raises(ValueError, match="CP-SAT's num_workers cannot take 'four'"):
        puzzle.solve("cpsat", solver_params={"num_workers": "four"})
    hidato = tilesolve.load(INSTANCES / "hidato_19_01.txt")
    for backend, options in [("milp", {"solver": "highs"}), ("milp", {"solver": "cbc"}),
                             ("sat", {}), ("sat", {"solver": "glucose42"})]:
        native = {"highs": {"mip_rel_gap": 0.0}, "cbc": {"maxNodes": 1000},
                  "glucose42": {"rnd-seed": 3}}.get(options.get("solver"), {"seed": 3})
        res = hidato.solve(backend, threads=1, solver_params=native, **options)
        assert res.solved, (backend, options)
    with pytest.raises(ValueError, match="HiGHS has no parameter 'mip_rel_gapp' "
                                         r"\(did you mean 'mip_rel_gap'\?\)"):
        hidato.solve("milp", solver="highs", solver_params={"mip_rel_gapp": 0.1})
    with pytest.raises(ValueError, match="python-sat sets parameters of cadical153, "
                                         "cadical195, glucose42 only, not of glucose4"):
        hidato.solve("sat", solver="g4", solver_params={"seed": 1})
    with pytest.raises(ValueError, match="the ga backend runs no solver of its own"):
        hidato.solve("ga", solver_params={"seed": 1})


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"timelimit": 8}, TypeError,
     "solve() got an unexpected keyword argument 'timelimit' (did you mean 'time_limit'?)"),
    ({"backend": "ga", "populaton": 9}, TypeError,
     "solve() got an unexpected keyword argument 'populaton' (did you mean 'population'?)"),
    ({"threads": "2"}, TypeError, "solve() argument 'threads' must be an int, not str"),
    ({"time_limit": "8"}, TypeError,
     "solve() argument 'time_limit' must be a number of seconds or None, not str"),
    ({"seed": -1}, ValueError, "solve() argument 'seed' must be in 0.."),
    ({"objective": "longest"}, ValueError,
     "solve() argument 'objective' must be one of 'matches' for the edgematch family, "
     "got 'longest'"),
    ({"on_solution": 3}, TypeError, "solve() argument 'on_solution' must be callable, not int"),
    ({"solver_params": [("num_workers", 2)]}, TypeError,
     "solve() argument 'solver_params' must be a dict of parameters or None, not list"),
])
def test_bad_arguments_raise_python_errors_naming_the_argument(kwargs, error, message):
    puzzle = tilesolve.load(INSTANCES / "e2_4x4.txt")
    with pytest.raises(error) as caught:
        puzzle.solve(**kwargs)
    assert str(caught.value).startswith(message) and isinstance(caught.value, InputError)


def test_load_takes_parse_s_argument_order_and_the_old_one_still_reads():
    path = INSTANCES / "e2_4x4.txt"
    text = path.read_text()
    assert tilesolve.load(path, "edgematch", "native").text == tilesolve.parse(
        text, "edgematch", "native").text
    assert tilesolve.load(path, format="native", family="edgematch").family == "edgematch"
    with pytest.warns(DeprecationWarning, match="pass format='native'"):
        assert tilesolve.load(path, "native").text == tilesolve.load(path).text


def test_the_package_ships_its_type_information():
    import tomllib

    assert (ROOT / "src" / "tilesolve" / "py.typed").is_file()
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "py.typed" in setup["package-data"]["tilesolve"]
    hints = typing.get_type_hints(tilesolve.Result.objective.fget)
    assert hints["return"] == int | None


INTERRUPTED = """
import sys, tilesolve
puzzle = tilesolve.load(sys.argv[1])
def told(improvement):
    print("BETTER", improvement.objective, flush=True)
result = puzzle.solve("lns", objective="matches", seed=1, on_solution=told)
print("RESULT", result.status.value, puzzle.verify(result.best, "matches").score, result.objective,
      result.stats["interrupted_by"], flush=True)
"""


def test_an_interrupted_solve_returns_its_best_verified_board(tmp_path):
    """Ctrl-C in a script used to raise KeyboardInterrupt out of solve() and lose the board."""
    script = tmp_path / "run.py"
    script.write_text(INTERRUPTED)
    proc = subprocess.Popen([sys.executable, str(script), str(INSTANCES / "e2_16x16.txt")],
                            stdout=subprocess.PIPE, text=True, cwd=tmp_path,
                            preexec_fn=ctrl_c_default)
    try:
        assert proc.stdout.readline().startswith("BETTER")  # a verified board is kept
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=120)
    finally:
        proc.kill()
    result = out.splitlines()[-1].split()
    assert proc.returncode == 0, out
    assert result[0] == "RESULT" and result[1] == "interrupted"
    assert int(result[2]) == int(result[3]) > 0 and result[4] == "KeyboardInterrupt"
