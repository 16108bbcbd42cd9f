"""CP-SAT's rowscan branching and search hint, and the bench table of the hardest boards.

Correctness only: each variant solves small boards to a verified board, agrees with the
default model that an impossible board is infeasible, and honours fixed pieces and hints.
Speed is measured by scripts/bench_edgematch.py, never here.
"""

from __future__ import annotations

import json

import pytest
from conftest import INSTANCES, run_cli

from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.edgematch import cpsat, search
from tilesolve.families.edgematch.model import read_instance, verify

VARIANTS = {
    "rowscan order": ["--order", "rowscan"],
    "search hint": ["--presearch", "5"],
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


def solve_json(*args: str) -> tuple[int, dict]:
    proc = run_cli("solve", *args, "--json", "--threads", "1", timeout=200)
    assert proc.stdout.strip(), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", ["e2_4x4.txt", "e2_5x5.txt"])
def test_cpsat_variants_solve_shipped_boards(variant, name):
    code, data = solve_json(str(INSTANCES / name), "--backend", "cpsat", "--time-limit", "120",
                            *VARIANTS[variant])
    assert code == 0 and data["status"] == "solved" and data["verified"] is True


def test_search_hint_reaches_cpsat_as_a_complete_board():
    code, data = solve_json(str(INSTANCES / "e2_5x5.txt"), "--backend", "cpsat",
                            "--presearch", "30", "--time-limit", "120")
    assert code == 0 and data["verified"]
    assert data["stats"]["presearch"] == "board"
    assert data["stats"]["solution_info"] == "complete_hint"


@pytest.mark.parametrize("variant", [*VARIANTS, "default"])
def test_cpsat_variants_agree_an_impossible_board_is_infeasible(tmp_path, variant):
    path = tmp_path / "impossible.txt"
    path.write_text(IMPOSSIBLE_3X3)
    code, data = solve_json(str(path), "--backend", "cpsat", "--time-limit", "60",
                            *VARIANTS.get(variant, []))
    assert code == 3 and data["status"] == "infeasible" and data["solution"] is None


@pytest.mark.parametrize("params", [{"order": "rowscan"}, {"presearch": "5"}])
def test_cpsat_variants_honour_fix_and_hint(params):
    inst = read_instance(INSTANCES / "e2_5x5.txt")
    known = search.solve(inst, SolveOptions(time_limit=60, threads=1)).solution
    partial = {cell: known[cell] for cell in [(1, 1), (1, 2), (4, 4)]}
    opts = SolveOptions(time_limit=60, threads=1, fix=partial, hint=known, params=params)
    out = cpsat.solve(inst, opts)
    assert out.status == Status.SOLVED and verify(inst, out.solution).ok
    assert all(out.solution[c] == pr for c, pr in partial.items())
    # a border piece fixed in an inner cell: no board
    opts = SolveOptions(time_limit=60, threads=1, fix={(2, 2): known[(0, 1)]}, params=params)
    assert cpsat.solve(inst, opts).status == Status.INFEASIBLE


@pytest.mark.parametrize(("args", "word"), [(["--order", "diagonal"], "--order"),
                                            (["--presearch", "-1"], "--presearch"),
                                            (["--model", "bool", "--order", "rowscan"], "table")])
def test_cpsat_rejects_bad_options(args, word):
    proc = run_cli("solve", INSTANCES / "e2_4x4.txt", "--backend", "cpsat", *args)
    assert proc.returncode == 2 and word in proc.stderr
