"""`tilesolve run-model`: an export solved by a solver that ships with tilesolve, its answer
read back by `verify --map`; the README's external-solver steps run as written."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import INSTANCES, ROOT, run_cli

import tilesolve
from tilesolve.backends.external import cbc_path


def readme_steps() -> list[str]:
    """The command lines of the README's block under "Models for other solvers"."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("### Models for other solvers"):]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


def test_readme_external_solver_steps_run_as_written(tmp_path):
    (tmp_path / "instances").symlink_to(INSTANCES)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    ran = []
    for line in readme_steps():
        if line.startswith("minizinc") and shutil.which("minizinc") is None:
            continue  # not on PyPI; tests/test_export_families.py runs it where installed
        res = subprocess.run(["bash", "-c", f"set -e; {line}"], capture_output=True, text=True,
                             cwd=tmp_path, env=env, timeout=300)
        assert res.returncode == 0, f"{line}\n{res.stdout}{res.stderr}"
        if " verify " in line:
            assert res.stdout.splitlines()[-1] == "valid", line
        ran.append(line.split()[1])
    assert ran.count("run-model") == 3  # cnf, cpsat, mps (by CBC)


@pytest.mark.parametrize("kind, solver, suffix", [
    ("cnf", "glucose4", ".cnf"), ("cpsat", None, ".pbtxt"), ("lp", "highs", ".lp"),
    ("lp", "cbc", ".lp"), ("mps", None, ".mps")])
def test_each_kind_solves_and_verifies(tmp_path, kind, solver, suffix):
    inst = INSTANCES / "hidato_19_01.txt"
    model = tmp_path / f"m{suffix}"
    tilesolve.load(inst).export(model, kind)  # the command `export`: test_export.py
    extra = ["--solver", solver] if solver else []
    res = run_cli("run-model", model, "-o", tmp_path / "ans", "--json", *extra)
    assert res.returncode == 0, res.stderr
    obj = json.loads(res.stdout)
    assert obj["status"] == "solved" and obj["kind"] == kind
    assert obj["solver"] == (solver or {"cpsat": "cpsat", "mps": "highs"}[kind])
    assert obj["output"] == str(tmp_path / "ans") and "answer" not in obj
    res = run_cli("verify", inst, tmp_path / "ans", "--map", f"{model}.map.json")
    assert res.returncode == 0 and res.stdout.startswith("valid"), res.stdout + res.stderr


def test_the_cbc_binary_is_the_one_for_this_machine():
    path = cbc_path()
    res = subprocess.run([path, "-quit"], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and "CBC" in res.stdout.upper()


def test_maxsat_answer_on_stdout_with_its_optimum(tmp_path):
    wcnf = tmp_path / "o.wcnf"
    tilesolve.load(INSTANCES / "e2_4x4.txt").export(wcnf, "cnf", "matches")
    res = run_cli("run-model", wcnf, "-t", "60")
    assert res.returncode == 0, res.stderr
    assert "s OPTIMUM FOUND" in res.stdout and "\no 0\n" in res.stdout
    assert res.stderr.startswith("solved by rc2-glucose4")


def test_unsatisfiable_cnf_exits_3_and_verify_finds_no_board(tmp_path):
    cnf = tmp_path / "u.cnf"
    cnf.write_text("p cnf 1 2\n1 0\n-1 0\n")
    res = run_cli("run-model", cnf, "--json")
    assert res.returncode == 3
    obj = json.loads(res.stdout)
    assert obj["status"] == "infeasible" and "s UNSATISFIABLE" in obj["answer"]


@pytest.mark.parametrize("args, message", [
    (["nope.cnf"], "nope.cnf: no such file"),
    (["README.md"], "unknown model kind '.md'"),
    (["models/e2_4x4.lp", "--solver", "cadical195"], "does not run lp models"),
    (["models/e2_4x4.cnf", "--solver", "nosuch"], "unknown SAT solver 'nosuch'"),
    (["models/e2_4x4.cnf", "-t", "0"], "expected a positive number of seconds"),
    (["models/e2_4x4.cnf", "--solver", "kissat", "-t", "5"], "cannot be time-limited"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    res = run_cli("run-model", *args)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and message in res.stderr
    res = run_cli("run-model", *args, "--json")
    assert res.returncode == 2 and json.loads(res.stdout)["status"] == "bad-input"


def test_a_minizinc_export_is_sent_to_minizinc(tmp_path):
    base = tmp_path / "e4"
    tilesolve.load(INSTANCES / "e2_4x4.txt").export(base, "mzn")
    res = run_cli("run-model", tmp_path / "e4.mzn")
    assert res.returncode == 2 and "minizinc --solver gecode" in res.stderr
