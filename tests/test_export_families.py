"""Every family's exports (DIMACS, LP, MPS, CP-SAT proto, MiniZinc) solved by a separate
solver process, and the answer read back and checked by `tilesolve verify --map`."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest
from conftest import INSTANCES, ROOT, run_cli

from tilesolve.backends.answers import read_answer
from tilesolve.backends.export import export
from tilesolve.backends.milp import cbc_path
from tilesolve.core.family import load_instance

# the normal magic hexagon with four givens: its MILP takes HiGHS 0.2 s, without them 12 s
MAGICHEX = "magichex 3\n3 17 18\n. . . .\n. . 5 . .\n. . . .\n. . .\n"
CASES = {
    "edgematch": INSTANCES / "e2_4x4.txt",
    "hidato": INSTANCES / "hidato_19_01.txt",
    "magichex": None,  # MAGICHEX, written by the fixture
    "tantrix-board": INSTANCES / "tantrix_challenge_5.txt",
    "tantrix-free": INSTANCES / "tantrix_discovery_05.txt",
}
HIGHS_SOLVE = """
import sys, highspy
h = highspy.Highs()
h.silent()
h.readModel(sys.argv[1])
h.run()
print(h.modelStatusToString(h.getModelStatus()))
h.writeSolution(sys.argv[2], 0)
"""


@pytest.fixture(scope="module", params=list(CASES))
def case(request, tmp_path_factory):
    d = tmp_path_factory.mktemp(request.param)
    path = CASES[request.param]
    if path is None:
        path = d / "magichex_3_givens.txt"
        path.write_text(MAGICHEX)
    return path, d


def run(*cmd, cwd=ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=120,
                          cwd=cwd)


def exported(path, out, kind: str, objective=None) -> dict:
    family, inst = load_instance(path)
    export(family, inst, kind, out, objective)
    model = out if kind != "mzn" else out.with_suffix(".mzn")
    return json.loads(model.with_name(model.name + ".map.json").read_text())


def verify_map(path, answer, map_path, objective=None):
    """What `tilesolve verify PATH ANSWER --map MAP` checks, in this process (25 commands
    cost 5 CPU s; the command's own run is test_export.py's and the subloop test's here)."""
    family, inst = load_instance(path)
    inst = family.prepare(inst, family.options.validate({}))
    report = family.verify(inst, read_answer(family, inst, answer, map_path), objective)
    assert report.ok, report.summary()
    return report


def highs(model, out) -> str:
    res = run(sys.executable, "-c", HIGHS_SOLVE, model, out)
    assert res.returncode == 0, res.stderr
    return res.stdout.strip()


def test_cnf_by_an_external_sat_solver(case):
    path, d = case
    data = exported(path, d / "m.cnf", "cnf")
    res = run_cli("run-model", d / "m.cnf")
    assert res.returncode == 0, res.stderr
    (d / "cnf.out").write_text(res.stdout)
    assert data["format"] == "cnf" and data["variables"] >= len(data["names"]) > 0
    verify_map(path, d / "cnf.out", d / "m.cnf.map.json")


def test_cpsat_proto_by_a_separate_cpsat_process(case):
    path, d = case
    suffix = ".pbtxt" if path.name.startswith("e2") else ".pb"  # text once, binary elsewhere
    model = d / f"m{suffix}"
    data = exported(path, model, "cpsat")
    assert data["variables"] == len(data["names"])
    if suffix == ".pbtxt":
        assert model.read_text().startswith("# tilesolve ")
    res = run_cli("run-model", model, "-o", d / "resp.txt")
    assert res.returncode == 0, res.stderr
    verify_map(path, d / "resp.txt", f"{model}.map.json")


def test_lp_by_the_cbc_binary(case):
    path, d = case
    exported(path, d / "m.lp", "lp")
    res = run(cbc_path(), "m.lp", "solve", "solution", "cbc.sol", cwd=d)
    assert "Result - Optimal solution found" in res.stdout, res.stdout[-500:]
    assert (d / "cbc.sol").read_text().startswith("Optimal")
    verify_map(path, d / "cbc.sol", d / "m.lp.map.json")


@pytest.fixture(scope="module")
def highs_solved(case):
    """The MPS export and HiGHS' solution file of it, solved once for two tests."""
    path, d = case
    exported(path, d / "m.mps", "mps")
    assert highs(d / "m.mps", d / "highs.sol") == "Optimal"
    return d / "highs.sol"


def test_mps_by_highs_in_its_own_process(case, highs_solved):
    path, d = case
    verify_map(path, highs_solved, d / "m.mps.map.json")


def test_only_lazy_models_say_they_are_incomplete(case):
    path, d = case
    data = exported(path, d / "n.lp", "lp")
    lazy = [n for n in data["notes"] if n.startswith("incomplete: subloop cuts")]
    assert len(lazy) == path.name.startswith("tantrix")  # a goal loop: on a board or free
    comments = [line for line in (d / "n.lp").read_text().splitlines() if line.startswith("\\ ")]
    assert len([c for c in comments if "incomplete" in c]) == len(lazy)


# --------------------------------------------------------------------------- MiniZinc
def dzn_values(text: str) -> dict[str, list[float] | float]:
    """Parameters of a .dzn (`name = number;` or `name = [numbers];`)."""
    out: dict = {}
    for name, body in re.findall(r"(\w+)\s*=\s*([^;]*);", text):
        body = body.strip()
        assert name not in out, f"{name} assigned twice"
        out[name] = ([float(t) for t in body[1:-1].replace(",", " ").split()]
                     if body.startswith("[") else float(body))
    return out


def mzn_parameters(text: str) -> set[str]:
    """Names of the model's data parameters (declarations without '=' and without var)."""
    names = set()
    for stmt in re.sub(r"%[^\n]*", "", text).split(";"):
        m = re.fullmatch(r"\s*(?:array\[[^\]]*\] of )?[^:]*:\s*(\w+)\s*", stmt)
        if m and " var " not in f" {stmt} ":
            names.add(m.group(1))
    return names


def violated_rows(dzn: dict, values: list[float]) -> list[int]:
    """The rows of the data that `values` (x then y, by column index) break."""
    start, col, coef = dzn["row_start"], dzn["col"], dzn["coef"]
    bad = []
    for r in range(int(dzn["n_rows"])):
        lhs = sum(coef[k] * values[int(col[k]) - 1]
                  for k in range(int(start[r]) - 1, int(start[r + 1]) - 1))
        rhs, sense = dzn["rhs"][r], dzn["sense"][r]
        ok = (lhs <= rhs + 1e-6) if sense < 0 else (lhs >= rhs - 1e-6) if sense > 0 \
            else abs(lhs - rhs) <= 1e-6
        if not ok:
            bad.append(r)
    return bad


def minizinc_output(data: dict, values: list[float]) -> str:
    n = data["integer_columns"]
    x = ", ".join(str(round(v)) for v in values[:n])
    y = ", ".join(repr(v) for v in values[n:])
    return f"x = [{x}];\n" + (f"y = [{y}];\n" if y else "") + "----------\n==========\n"


def test_minizinc_model_and_data_hold_on_a_solved_board(case, highs_solved):
    """Without the minizinc binary (not on PyPI): the .mzn declares exactly the parameters
    the .dzn assigns, and the rows in the data hold on HiGHS' optimum of the same MILP,
    which `verify --map` then accepts in MiniZinc's output format."""
    path, d = case
    data = exported(path, d / "z", "mzn")
    model, dzn_text = (d / "z.mzn").read_text(), (d / "z.dzn").read_text()
    assert model.count("(") == model.count(")") and model.count("[") == model.count("]")
    assert "solve satisfy;" in model and 'output ["x = ", show(x)' in model
    dzn = dzn_values(dzn_text)
    assert mzn_parameters(model) == set(dzn)
    n_int = int(dzn["n_int"])
    assert n_int == data["integer_columns"] and n_int + dzn["n_real"] == data["variables"]
    assert len(dzn["row_start"]) == dzn["n_rows"] + 1 == len(dzn["rhs"]) + 1

    solved = {}
    for line in highs_solved.read_text().splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in data["names"]:
            solved.setdefault(parts[0], float(parts[1]))
    values = [solved.get(name, 0.0) for name in data["names"]]
    assert violated_rows(dzn, values) == []
    one = next(i for i, v in enumerate(values[:n_int]) if v > 0.5)
    assert violated_rows(dzn, [0.0 if i == one else v for i, v in enumerate(values)])

    out = d / "minizinc.out"
    out.write_text(minizinc_output(data, values))
    verify_map(path, out, d / "z.mzn.map.json")


def minizinc_solver() -> str | None:
    """A MiniZinc solver for the linear model: COIN-BC where the bundle has it, else Gecode
    (Debian's minizinc package has Gecode only); None without the minizinc binary."""
    if shutil.which("minizinc") is None:
        return None
    listed = subprocess.run(["minizinc", "--solvers"], capture_output=True, text=True).stdout
    return "cbc" if "coin-bc" in listed.lower() else "gecode"


@pytest.mark.skipif(minizinc_solver() is None, reason="the minizinc binary is not installed")
def test_minizinc_solves_the_export(case):
    path, d = case
    exported(path, d / "w", "mzn")
    res = run("minizinc", "--solver", minizinc_solver(), "--time-limit", "120000",
              d / "w.mzn", d / "w.dzn")
    assert res.returncode == 0, res.stderr
    (d / "w.out").write_text(res.stdout)
    verify_map(path, d / "w.out", d / "w.mzn.map.json")


def test_maximising_mps_reaches_full_score(tmp_path):
    """The objective survives export: CBC minimises the negated score to -24 (all joins)."""
    path = INSTANCES / "e2_4x4.txt"
    exported(path, tmp_path / "o.mps", "mps", "matches")
    assert "* objective negated" in (tmp_path / "o.mps").read_text()
    res = run(cbc_path(), "o.mps", "solve", "solution", "o.sol", cwd=tmp_path)
    assert "objective value -24" in (tmp_path / "o.sol").read_text(), res.stdout[-300:]
    report = verify_map(path, tmp_path / "o.sol", tmp_path / "o.mps.map.json", "matches")
    assert report.score == 24


def test_an_answer_with_subloops_is_rejected(tmp_path):
    """The MILP written without its lazy cuts lets HiGHS 1.14 (deterministic here, measured
    twice) close two red loops on challenge 15: verify says so instead of accepting it."""
    path = INSTANCES / "tantrix_challenge_15.txt"
    exported(path, tmp_path / "c15.mps", "mps")
    assert highs(tmp_path / "c15.mps", tmp_path / "c15.sol") == "Optimal"
    res = run_cli("verify", path, tmp_path / "c15.sol", "--map", tmp_path / "c15.mps.map.json")
    assert res.returncode == 1, res.stdout + res.stderr
    assert "goal: red forms 2 separate lines (2 closed, 0 open)" in res.stdout


def test_goals_a_model_cannot_state_are_refused_in_one_line(tmp_path):
    res = run_cli("export", INSTANCES / "tantrix_super_genius.txt", "--to", "lp", "-o",
                  tmp_path / "g.lp")
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1
    assert "goal loops of a named colour only" in res.stderr and not (tmp_path / "g.lp").exists()
