"""The fast edge-matching backends: the rowscan search (compiled and Python) and CP-SAT.

Small public instances solve to a verified board through the API; fixed pieces are honoured;
an impossible board is proven infeasible; a tiny time limit on a hard board ends in a timeout.
"""

from __future__ import annotations

import json

import pytest
from conftest import E2_DATA, needs_e2_data, run_cli

import tilesolve
from tilesolve.core.result import SolveOptions, Status
from tilesolve.dispatch import solve_file
from tilesolve.families.edgematch import search
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.parse import read_instance

BRENDAN = E2_DATA / "brendan"
pytestmark = needs_e2_data()


def solve_json(path, backend: str, time_limit: float | None = None, **options) -> dict:
    """The run's JSON result, through the API (the command line's start-up cost 0.2 CPU s a
    run; its exit codes and options are checked by the run_cli tests below)."""
    res = tilesolve.load(path).solve(backend, time_limit=time_limit, threads=1, **options)
    return res.to_json()


@pytest.mark.parametrize("backend", ["search", "cpsat"])
@pytest.mark.parametrize(
    "path", [BRENDAN / "pieces_04x04.txt", BRENDAN / "pieces_05x05.txt", E2_DATA / "clue1.txt"]
)
def test_small_public_instances_solve_verified(backend, path):
    data = solve_json(path, backend, 120)
    assert data["status"] == "solved" and data["verified"] is True
    assert data["backend"] == backend
    if backend == "search":
        assert data["stats"]["nodes"] > 0
        assert data["stats"]["engine"] == ("c" if search._rowscan else "python")


def test_python_engine_solves_and_reports_itself():
    data = solve_json(BRENDAN / "pieces_05x05.txt", "search", engine="python")
    assert data["status"] == "solved" and data["verified"]
    assert data["stats"]["engine"] == "python"


def _instance_with(tmp_path, pieces_file, fixed_lines: list[str]):
    lines = [ln for ln in pieces_file.read_text().splitlines() if ln and not ln.startswith("#")]
    w, h = lines[0].split()
    text = "\n".join([f"edgematch {w} {h}", *lines[1:], *fixed_lines]) + "\n"
    path = tmp_path / "fixed.txt"
    path.write_text(text)
    return path


@pytest.mark.parametrize("backend", ["search", "cpsat"])
def test_fixed_piece_is_honoured(tmp_path, backend):
    # piece 13 turned once sits at row 2, column 1 in the known solution of this board
    path = _instance_with(tmp_path, BRENDAN / "pieces_04x04.txt", ["fixed 2 1 13 1"])
    data = solve_json(path, backend, 60)
    assert data["status"] == "solved" and data["verified"]
    assert data["solution"]["board"][2][1] == [13, 1]


def test_search_honours_fix_option():
    inst = read_instance(BRENDAN / "pieces_04x04.txt")
    opts = SolveOptions(time_limit=30, threads=1, fix={(1, 1): (14, 3)})
    out = search.solve(inst, opts)
    assert out.status == Status.SOLVED
    assert out.solution[(1, 1)] == (14, 3)
    assert verify(inst, out.solution).ok


@pytest.mark.parametrize("backend", ["search", "cpsat"])
def test_tiny_time_limit_on_a_hard_board_times_out(backend):
    data = solve_json(BRENDAN / "pieces_10x10.txt", backend, 0.3)
    assert data["status"] == "timeout" and data["verified"] is False


def test_search_scores_boards_in_the_optimisation_mode():
    proc = run_cli(
        "solve", BRENDAN / "pieces_04x04.txt", "--backend", "search", "--objective", "matches",
        "-t", "10", "--json",
    )
    data = json.loads(proc.stdout)
    assert proc.returncode == 0 and data["verified"] and data["objective"] == 24


def test_search_rejects_a_bad_restart_value():
    proc = run_cli(
        "solve", BRENDAN / "pieces_04x04.txt", "--backend", "search", "--restart", "-5"
    )
    assert proc.returncode == 2 and "--restart" in proc.stderr


def test_search_and_cpsat_count_the_same_solutions():
    # every board, rotations included (counting switches symmetry breaking off)
    counts = {}
    for backend in ("search", "cpsat"):
        data = solve_json(BRENDAN / "pieces_04x04.txt", backend, 120, count=True)
        assert data["verified"]
        counts[backend] = data["count_raw"]
    assert counts["search"] == counts["cpsat"] > 0
    assert counts["search"] % 4 == 0  # a square board's four turns of each solution


# the quick ones; lab/scripts/solve_e2_data.py runs them all (Heule's 7x7s vary a lot in time)
QUICK_E2 = [
    "clue1.txt", "clue3.txt", "heule_em_7_4_9.txt", "brendan/pieces_04x04.txt",
    "brendan/pieces_05x05.txt",
]  # fmt: skip


@pytest.mark.parametrize("name", QUICK_E2)
def test_public_e2_data_solved_by_cpsat_and_checked(name):
    res = solve_file(E2_DATA / name, "cpsat", SolveOptions(time_limit=120, threads=1))
    assert res.status == Status.SOLVED and res.verified
    inst = read_instance(E2_DATA / name)
    board = res.solution["board"]
    sol = {(r, c): tuple(board[r][c]) for r in range(inst.height) for c in range(inst.width)}
    assert verify(inst, sol).ok


def test_cpsat_boolean_model_solves_and_honours_a_fixed_piece(tmp_path):
    path = _instance_with(tmp_path, BRENDAN / "pieces_04x04.txt", ["fixed 1 2 16 3"])
    data = solve_json(path, "cpsat", model="bool")
    assert data["status"] == "solved" and data["verified"]
    assert data["solution"]["board"][1][2] == [16, 3]


@pytest.mark.skipif(search._rowscan is None, reason="the compiled core is not built")
def test_python_and_c_rowscans_walk_the_same_tree():
    inst = read_instance(BRENDAN / "pieces_05x05.txt")
    tables = search.RowscanTables(inst)
    found = []
    for kind in (search.CSearcher, search.PySearcher):
        s = kind(tables, 1234)
        code, nodes = s.step(50_000)
        found.append((code, nodes, s.max_depth, s.solution() if code == 1 else None))
    assert found[0] == found[1] and found[0][1] > 0


def test_hinted_placement_leads_its_bucket_whatever_the_seed():
    inst = read_instance(BRENDAN / "pieces_05x05.txt")
    board = {cell: pr for cell, pr in
             search.solve(inst, SolveOptions(time_limit=60, seed=0)).solution.items()}
    tables = search.RowscanTables(inst, hint=board)
    for seed in (0, 1, 99):
        piece, rot, _, _ = tables.ordered(seed)
        searcher = search.CSearcher(tables, seed) if search._rowscan else \
            search.PySearcher(tables, seed)
        code, nodes = searcher.step(10_000)
        assert code == 1 and nodes == 25  # the hint walks straight down to a full board
        assert searcher.solution() == board
        assert sorted(piece) == sorted(tables.columns[0])  # a reordering, nothing lost
