"""The Python API (`import tilesolve`): every entry point on real solvers and shipped instances,
the README's example, and the API reference built from the docstrings without a warning."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings

import pytest
from conftest import INSTANCES, ROOT

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
     "<edgematch>:5: colours must be non-negative"),  # piece 4 on line 5
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
    result = puzzle.solve(backend="ga", generations=2, population=20, seed=3)
    assert result.status == Status.BUDGET and result.stats["population"] == 20
    assert result.solution is None and len(result.best) == 256
    report = result.verify()
    assert not report.ok and len(report.violations) == result.stats["broken_rules"]
    with pytest.raises(InputError, match="no verified solution; best=True"):
        result.render(tmp_path / "x.svg")
    written = result.write(tmp_path / "best.txt", best=True)
    assert written.read_text().startswith("# not a solution: the best board of a budget run")
    assert len(puzzle.verify(written).violations) == result.stats["broken_rules"]
    with pytest.raises(InputError, match="--population"):
        puzzle.solve(backend="ga", population="lots")
    with pytest.raises(InputError, match="--time-limit must be a positive"):
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
    with pytest.raises(InputError, match="expected .svg or .png"):
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
        assert f'<section id="{name}">' in page, name
    for name in ("Puzzle.solve", "Result.objective_max", "Result.render", "Puzzle.export"):
        assert f'id="{name}"' in page, name
    undocumented = []
    for name, member in pdoc.doc.Module(tilesolve).members.items():
        if not member.docstring:
            undocumented.append(name)
        for own in getattr(member, "own_members", []):
            if not own.name.startswith("_") and not own.docstring:
                undocumented.append(own.fullname)
    assert undocumented == []
