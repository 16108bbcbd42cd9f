"""One counter: every exact backend of every family counts the same small puzzles alike, a
limit stops each of them at N, and a capability a model lacks is refused in one line."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import INSTANCES, run_cli

from tilesolve.backends.compiled import Unsupported
from tilesolve.core.errors import InputError
from tilesolve.core.result import SolveOptions, Status
from tilesolve.dispatch import solve_file
from tilesolve.families.tantrix import cnf as tantrix_cnf
from tilesolve.families.tantrix import cpsat_walk
from tilesolve.families.tantrix.ga_downing import DowningEncoding
from tilesolve.families.tantrix.milp_kino_uno import KinoUnoMilp
from tilesolve.families.tantrix.parse import read_instance
from tilesolve.families.tantrix.region import fixed_layout

# a 3x3 edge-matching set with one board: its four turns are the raw solutions
EDGE_3X3 = """edgematch 3 3
0 1 1 0
2 3 0 0
5 6 4 4
0 1 4 1
4 1 0 3
5 2 0 1
1 0 0 3
3 0 2 6
0 1 2 0
"""
HIDATO_7 = "hidato hex 2\n1 .\n. . .\n. 7\n"  # the path turns left or right around the middle
# the normal hexagon with the five cells of an axis given: the original and its mirror
# image in that axis (one up to symmetry); the MILP counts them in 0.9 s, 1.7 s with only
# the axis's corners and centre given
CHALLENGE_10 = INSTANCES / "tantrix_challenge_10.txt"  # a fixed board
MAGIC_AXIS = "magichex 3\n10 . .\n. 4 . .\n. . 5 . .\n. . 1 .\n. . 18\n"

CASES = [  # (puzzle text or shipped file, exact backends, count, count_raw)
    (EDGE_3X3, ("cpsat", "milp", "sat", "search"), 4, 4),
    # 4 tiles, 2 loops (the MILP counts them in 0.25 s, 5 tiles' 4 loops in 1.1 s)
    (INSTANCES / "tantrix_discovery_04.txt", ("cpsat", "milp", "sat", "search"), 2, 2),
    (CHALLENGE_10, ("cpsat", "milp", "sat"), 28, 28),
    (HIDATO_7, ("cpsat", "milp", "sat"), 2, 2),
    (MAGIC_AXIS, ("cpsat", "milp", "sat", "search"), 1, 2),
]


def _path(tmp_path, puzzle) -> str:
    if not isinstance(puzzle, str):
        return str(puzzle)
    path = tmp_path / "puzzle.txt"
    path.write_text(puzzle)
    return str(path)


def _count(path: str, backend: str, limit: int | None = None):
    return solve_file(path, backend, SolveOptions(count=True, count_limit=limit, threads=1,
                                                  time_limit=120))


@pytest.mark.parametrize(("puzzle", "backend", "count", "raw"), [
    (puzzle, backend, count, raw) for puzzle, backends, count, raw in CASES
    for backend in backends])
def test_every_exact_backend_counts_the_same(tmp_path, puzzle, backend, count, raw):
    res = _count(_path(tmp_path, puzzle), backend)
    assert res.status == Status.SOLVED and res.verified and res.stats["complete"] is True
    assert (res.count, res.count_raw) == (count, raw)
    assert res.stats["unique"] is (count == 1)


@pytest.mark.parametrize("backend", ["cpsat", "milp", "sat", "search"])
def test_a_limit_stops_every_backend_at_n(tmp_path, backend):
    res = _count(_path(tmp_path, EDGE_3X3), backend, limit=3)
    assert res.status == Status.SOLVED and res.count_raw == 3
    assert res.stats["complete"] is False and res.stats["count_limit"] == 3
    assert res.stats["unique"] is False


def test_count_means_all_and_the_limit_answers_uniqueness(tmp_path):
    path = _path(tmp_path, HIDATO_7)
    every = json.loads(run_cli("solve", path, "--count", "--json", "--threads", "1").stdout)
    assert every["count"] == 2 and every["stats"]["complete"] is True
    once = run_cli("solve", path, "--count", "--count-limit", "1", "--json", "--threads", "1")
    data = json.loads(once.stdout)
    assert once.returncode == 0 and data["count"] == 1 and data["stats"]["unique"] is None


@pytest.mark.parametrize("c2", ["c2", "c2prime"])
def test_kino_uno_rows_count_alike_and_take_a_hint(c2):
    res = solve_file(CHALLENGE_10, "milp", SolveOptions(
        count=True, threads=1, time_limit=120, params={"model": "kino-uno", "c2": c2}))
    assert res.stats["complete"] is True and (res.count, res.count_raw) == (28, 28)
    inst = read_instance(CHALLENGE_10)
    board = tantrix_cnf.solve(inst, SolveOptions(threads=1, time_limit=60)).solution
    model = KinoUnoMilp(fixed_layout(inst), c2=c2)
    model.suggest(board)  # start values: the board's placements, each copy used once
    assert [row.name for row in model.prob.constraints() if not row.valid()] == []
    assert model.decode(lambda v: v.varValue) == board


def test_a_missing_capability_is_one_clear_refusal():
    inst = read_instance(INSTANCES / "tantrix_super_genius.txt")
    walk = cpsat_walk.TantrixWalkCpsat(inst)
    with pytest.raises(Unsupported, match="not supported by this model") as err:
        walk.forbid({})
    assert isinstance(err.value, InputError) and "\n" not in str(err.value)
    # a GA encoding that cannot fix converged genes (Downing's) refuses CBGI the same way
    genes = DowningEncoding(inst)
    with pytest.raises(Unsupported, match="not supported by this model"):
        genes.force_genes(genes.random(np.random.default_rng(0), 2), {0: 1})


def test_cbgi_on_an_encoding_without_it_is_refused_in_one_line():
    proc = run_cli("solve", INSTANCES / "tantrix_discovery_20.txt", "--backend", "ga", "--cbgi",
                   "on", "--cbgi-start", "0", "--cbgi-threshold", "0", "-t", "30", "--threads",
                   "1")
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1
    assert "not supported by this model (DowningEncoding)" in lines[0]
