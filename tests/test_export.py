"""Model export (DIMACS CNF/WCNF, LP, MPS with variable maps), an external SAT solver process,
and reading its answer back through `tilesolve verify --map`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import INSTANCES, ROOT, run_cli

from tilesolve.backends.answers import read_answer
from tilesolve.core import squaregrid as sq
from tilesolve.core.errors import InputError
from tilesolve.core.family import get_family
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.parse import read_instance

INST = INSTANCES / "e2_5x5.txt"


def read_dimacs(inst, answer, map_path):
    return read_answer(get_family("edgematch"), inst, answer, map_path)


def dimacs_solve(path, *args: str) -> subprocess.CompletedProcess:
    return run_cli("run-model", path, *args, timeout=120)


@pytest.fixture(scope="module")
def solved_cnf(tmp_path_factory):
    """An exported CNF and the answer of a separate SAT-solver process."""
    d = tmp_path_factory.mktemp("cnf")
    cnf = d / "m.cnf"
    res = run_cli("export", INST, "--to", "cnf", "-o", cnf)
    assert res.returncode == 0, res.stderr
    out = dimacs_solve(cnf, "--solver", "cadical195", "--time-limit", "60")
    assert out.returncode == 0, out.stderr
    answer = d / "answer.txt"
    answer.write_text(out.stdout)
    return cnf, answer


def test_cnf_export_solved_externally_verifies(solved_cnf):
    cnf, answer = solved_cnf
    header = next(line for line in cnf.read_text().splitlines() if line.startswith("p "))
    data = json.loads((cnf.parent / "m.cnf.map.json").read_text())
    assert header.split()[:3] == ["p", "cnf", str(data["variables"])]
    assert answer.read_text().splitlines()[1] == "s SATISFIABLE"
    res = run_cli("verify", INST, answer, "--map", f"{cnf}.map.json")
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.startswith("valid")


def test_bare_literal_list_and_several_v_lines(solved_cnf, tmp_path):
    cnf, answer = solved_cnf
    inst = read_instance(INST)
    lits = [tok for line in answer.read_text().splitlines() if line.startswith("v")
            for tok in line.split()[1:]]
    bare = tmp_path / "bare.txt"
    bare.write_text(" ".join(lits) + "\n")
    sol = read_dimacs(inst, bare, f"{cnf}.map.json")
    assert verify(inst, sol).ok
    assert sol == read_dimacs(inst, answer, f"{cnf}.map.json")


def _corrupt(answer, tmp_path, name, edit):
    path = tmp_path / name
    path.write_text(edit(answer.read_text()))
    return path


@pytest.mark.parametrize(
    ("name", "edit", "needle"),
    [
        ("token.txt", lambda t: t.replace("v ", "v 1x ", 1), ":3:"),
        ("unsat.txt", lambda t: t.replace("s SATISFIABLE", "s UNSATISFIABLE"), "UNSATISFIABLE"),
        ("truncated.txt", lambda t: t.replace("v 0\n", ""), "terminated"),
        ("garbage.txt", lambda t: t + "hello\n", "unexpected line"),
        ("range.txt", lambda t: t.replace("v 0", "v 999999 0"), "out of range"),
    ],
)
def test_malformed_solver_output_is_bad_input(solved_cnf, tmp_path, name, edit, needle):
    cnf, answer = solved_cnf
    bad = _corrupt(answer, tmp_path, name, edit)
    res = run_cli("verify", INST, bad, "--map", f"{cnf}.map.json")
    assert res.returncode == 2
    err = res.stderr.strip()
    assert len(err.splitlines()) == 1 and name in err and needle in err, err


def test_wrong_board_is_invalid_not_bad_input(solved_cnf, tmp_path):
    """Dropping one placement literal empties a cell: exit 1 with the violation listed."""
    cnf, answer = solved_cnf
    data = json.loads((cnf.parent / "m.cnf.map.json").read_text())
    placement_vars = {var for var, name in data["names"] if name.startswith("x(")}
    text = answer.read_text()
    first_true = next(int(t) for line in text.splitlines() if line.startswith("v")
                      for t in line.split()[1:] if int(t) in placement_vars)
    bad = tmp_path / "wrong.txt"
    bad.write_text(text.replace(f" {first_true} ", f" -{first_true} ", 1))
    res = run_cli("verify", INST, bad, "--map", f"{cnf}.map.json")
    assert res.returncode == 1
    assert "empty-cell" in res.stdout


def test_map_of_another_instance_is_rejected(solved_cnf):
    cnf, answer = solved_cnf
    with pytest.raises(InputError, match="map is for 'e2_5x5'"):
        read_dimacs(read_instance(INSTANCES / "e2_4x4.txt"), answer, f"{cnf}.map.json")


def test_maxsat_export_reaches_full_score(tmp_path):
    wcnf = tmp_path / "o.wcnf"
    res = run_cli("export", INSTANCES / "e2_4x4.txt", "--to", "cnf", "-o", wcnf,
                  "--objective", "matches")
    assert res.returncode == 0, res.stderr
    out = dimacs_solve(wcnf, "--time-limit", "60")
    assert out.returncode == 0 and "s OPTIMUM FOUND" in out.stdout, out.stderr
    answer = tmp_path / "o.out"
    answer.write_text(out.stdout)
    res = run_cli("verify", INSTANCES / "e2_4x4.txt", answer, "--map", f"{wcnf}.map.json",
                  "--objective", "matches", "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["score"] == sq.join_count(4, 4)


def test_lp_map_cannot_decode_sat_output(solved_cnf, tmp_path):
    _, answer = solved_cnf
    lp = tmp_path / "m.lp"
    assert run_cli("export", INST, "--to", "lp", "-o", lp).returncode == 0
    res = run_cli("verify", INST, answer, "--map", f"{lp}.map.json")
    assert res.returncode == 2 and "no values of the model's columns" in res.stderr


def test_shipped_models_are_current(tmp_path):
    res = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "export_models.py"), str(INSTANCES / "e2_4x4.txt"),
         "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert res.returncode == 0, res.stderr
    for name in ("e2_4x4.cnf", "e2_4x4.lp", "e2_4x4.mps", "e2_4x4.pbtxt", "e2_4x4.mzn",
                 "e2_4x4.dzn", "e2_4x4.cnf.map.json", "e2_4x4.mzn.map.json"):
        assert (tmp_path / name).read_text() == (ROOT / "models" / name).read_text(), name


def test_export_refuses_an_unknown_option_with_the_valid_ones(tmp_path):
    out = tmp_path / "m.cnf"
    res = run_cli("export", INST, "--to", "cnf", "-o", out, "--no-symetry", "on")
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert "unknown option(s) --no-symetry" in res.stderr and "--no-symmetry" in res.stderr
    assert not out.exists() and not (tmp_path / "m.cnf.map.json").exists()
    res = run_cli("export", INST, "--to", "cnf", "-o", out, "--no-symmetry", "on")
    assert res.returncode == 0, res.stderr
    assert json.loads((tmp_path / "m.cnf.map.json").read_text())["params"] == {
        "no_symmetry": "on"}
