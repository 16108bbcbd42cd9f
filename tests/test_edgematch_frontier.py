"""CP-SAT's rowscan branching, and the rowscan board as a hint for CP-SAT and SAT.

Correctness only: each variant solves small boards to a verified board, agrees with the
default model that an impossible board is infeasible, and honours fixed pieces and hints.
Speed is measured by lab/scripts/bench_edgematch.py, never here.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import INSTANCES, run_cli

import tilesolve
from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.edgematch import cnf, cpsat, search
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.parse import read_instance

VARIANTS = {  # name -> (backend, options)
    "cpsat rowscan order": ("cpsat", {"order": "rowscan"}),
    "cpsat search hint": ("cpsat", {"presearch": "5"}),
    "sat search hint": ("sat", {"presearch": "5"}),
}
IMPOSSIBLE_3X3 = """edgematch 3 3
# the frame shows colour 1 inwards everywhere, the inner piece has only colour 2
0 0 5 5
0 0 5 5
5 0 0 5
5 5 0 0
0 5 1 5
0 5 1 5
0 5 1 5
0 5 1 5
2 2 2 2
"""


def solve_json(path, backend: str, time_limit: float, **options: str) -> dict:
    """The run's JSON result, through the API (the command line's start-up cost 0.3 CPU s a
    run; its options' names are checked by test_cpsat_rejects_bad_options)."""
    res = tilesolve.load(path).solve(backend, time_limit=time_limit, threads=1, **options)
    return res.to_json()


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", ["e2_4x4.txt", "e2_5x5.txt"])
def test_variants_solve_shipped_boards(variant, name):
    backend, args = VARIANTS[variant]
    data = solve_json(INSTANCES / name, backend, 120, **args)
    assert data["status"] == "solved" and data["verified"] is True


def test_search_hint_reaches_cpsat_as_a_complete_board():
    data = solve_json(INSTANCES / "e2_5x5.txt", "cpsat", 120, presearch="30")
    assert data["status"] == "solved" and data["verified"]
    assert data["stats"]["presearch"] == "board"
    assert data["stats"]["solution_info"] == "complete_hint"


@pytest.mark.parametrize(("size", "params", "want"), [
    (7, {}, 30.0),  # the rule: boards from 7x7, half the time limit
    (6, {}, 0.0),
    (7, {"presearch": "0"}, 0.0),  # switched off through the options table
    (5, {"presearch": "2"}, 2.0),
])
def test_presearch_seconds_follow_the_board_size_rule(size, params, want):
    from tilesolve.families.edgematch import presearch
    from tilesolve.families.edgematch.generate import generate_text
    from tilesolve.families.edgematch.parse import read_instance as read

    inst = read("gen.txt", text=generate_text(seed=1, size=str(size)))
    opts = SolveOptions(time_limit=60, params=cpsat.OPTIONS.validate(params, "cpsat"))
    assert presearch.seconds(inst, opts) == pytest.approx(want, abs=0.5)
    assert presearch.seconds(inst, SolveOptions(objective="matches", params=params)) == 0.0


def test_default_cpsat_and_sat_run_the_search_first_on_a_7x7():
    for backend in ("cpsat", "sat"):
        data = solve_json(INSTANCES / "e2_niang_7x7_p7.txt", backend, 120)
        assert data["status"] == "solved" and data["verified"]
        assert data["stats"]["presearch"] == "board"
    data = solve_json(INSTANCES / "e2_5x5.txt", "cpsat", 120)
    assert data["status"] == "solved" and data["verified"] and "presearch" not in data["stats"]


@pytest.mark.parametrize("variant", [*VARIANTS, "cpsat default", "sat default",
                                     "search default"])
def test_variants_agree_an_impossible_board_is_infeasible(tmp_path, variant):
    path = tmp_path / "impossible.txt"
    path.write_text(IMPOSSIBLE_3X3)
    backend, args = VARIANTS.get(variant, (variant.split()[0], {}))
    data = solve_json(path, backend, 60, **args)
    assert data["status"] == "infeasible" and data["solution"] is None


@pytest.mark.parametrize(("mod", "params"), [(cpsat, {"order": "rowscan"}),
                                             (cpsat, {"presearch": "5"}),
                                             (cnf, {"presearch": "5"})])
def test_variants_honour_fix_and_hint(mod, params):
    inst = read_instance(INSTANCES / "e2_5x5.txt")
    known = search.solve(inst, SolveOptions(time_limit=60, threads=1)).solution
    partial = {cell: known[cell] for cell in [(1, 1), (1, 2), (4, 4)]}
    opts = SolveOptions(time_limit=60, threads=1, fix=partial, hint=known, params=params)
    out = mod.solve(inst, opts)
    assert out.status == Status.SOLVED and verify(inst, out.solution).ok
    assert all(out.solution[c] == pr for c, pr in partial.items())
    # a border piece fixed in an inner cell: no board
    opts = SolveOptions(time_limit=60, threads=1, fix={(2, 2): known[(0, 1)]}, params=params)
    assert mod.solve(inst, opts).status == Status.INFEASIBLE


@pytest.mark.parametrize(("args", "word"), [(["--order", "diagonal"], "--order"),
                                            (["--presearch", "-1"], "--presearch"),
                                            (["--model", "bool", "--order", "rowscan"], "table")])
def test_cpsat_rejects_bad_options(args, word):
    proc = run_cli("solve", INSTANCES / "e2_4x4.txt", "--backend", "cpsat", *args)
    assert proc.returncode == 2 and word in proc.stderr


def test_bench_backend_options_become_command_line_options():
    from tilesolve import bench

    assert bench.command_options("cpsat:presearch=5:no_symmetry") == (
        "cpsat", ["--presearch", "5", "--no-symmetry", "true"])
    assert bench.command_options("search") == ("search", [])


def test_bench_prints_the_table_of_a_real_run(tmp_path):
    script = INSTANCES.parent / "lab" / "scripts" / "bench_edgematch.py"
    proc = subprocess.run(
        [sys.executable, str(script), str(INSTANCES / "e2_4x4.txt"), "-b", "search,sat",
         "--seeds", "2", "-t", "60", "-o", str(tmp_path / "b.csv")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "| e2_4x4 | search | 2/2 | 0 |" in proc.stdout
    assert "| e2_4x4 | sat | 2/2 | 0 |" in proc.stdout
    assert "load average" in proc.stdout
    assert len((tmp_path / "b.csv").read_text().splitlines()) == 5  # header + 2 x 2 runs
    again = subprocess.run([sys.executable, str(script), "--table", str(tmp_path / "b.csv")],
                           capture_output=True, text=True, timeout=120)
    rows = [ln for ln in proc.stdout.splitlines() if ln.startswith("| e2_4x4")]
    assert again.returncode == 0 and again.stdout.splitlines()[2:] == rows
