"""Edge matching with the MILP (CBC, HiGHS) and SAT (CaDiCaL, glucose) backends, and the
generic lazy loops of both runners, with real solvers on small instances."""

from __future__ import annotations

import json

import pulp
import pytest
from conftest import E2_DATA, INSTANCES, needs_e2_data, run_cli

import tilesolve
from tilesolve.backends import cnf as cnf_runner
from tilesolve.backends import milp as milp_runner
from tilesolve.core import squaregrid as sq
from tilesolve.core.result import SolveOptions, Status, StopFlag
from tilesolve.core.textfile import records
from tilesolve.families.edgematch import cnf as em_cnf
from tilesolve.families.edgematch import milp as em_milp
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.family import FAMILY
from tilesolve.families.edgematch.format import format_instance
from tilesolve.families.edgematch.parse import parse_solution, read_instance

BRENDAN = E2_DATA / "brendan"
SOLVERS = [("milp", "cbc"), ("milp", "highs"), ("sat", "cadical195"), ("sat", "glucose4")]
# CBC takes 9 s on the 5x5 (it solves the 6x6 in the default run)
BRENDAN_SOLVERS = [pytest.param(*SOLVERS[0], marks=pytest.mark.slow), *SOLVERS[1:]]
MODULES = {"milp": em_milp, "sat": em_cnf}


def solve_json(*args: str) -> dict:
    res = run_cli("solve", *args, "--json", "--threads", "1", timeout=240)
    assert res.returncode in (0, 3, 4), res.stderr
    return json.loads(res.stdout)


def brendan_solution(n: int):
    inst = read_instance(BRENDAN / f"pieces_{n:02d}x{n:02d}.txt")
    path = BRENDAN / f"solution_{n:02d}x{n:02d}.txt"
    return inst, parse_solution(inst, records(path), str(path))


@needs_e2_data()
@pytest.mark.parametrize(("backend", "solver"), BRENDAN_SOLVERS)
def test_solves_brendan_5x5(backend, solver):
    out = solve_json(BRENDAN / "pieces_05x05.txt", "--backend", backend, "--solver", solver,
                     "--time-limit", "120")
    assert out["status"] == "solved" and out["verified"] is True
    assert out["stats"]["solver"] == solver
    board = out["solution"]["board"]
    assert len(board) == 5 and sorted(p for row in board for p, _ in row) == list(range(1, 26))


@pytest.mark.parametrize("backend", ["milp", "sat"])
def test_shipped_6x6_and_clue1(backend):
    out = solve_json(INSTANCES / "e2_6x6.txt", "--backend", backend, "--time-limit", "120")
    assert out["status"] == "solved" and out["verified"] is True
    assert out["stats"]["rounds"] == 1 and out["stats"]["cuts"] == 0


@needs_e2_data()
def test_sat_solves_clue_puzzle_with_its_hint_piece():
    out = solve_json(E2_DATA / "clue1.txt", "--backend", "sat", "--time-limit", "120")
    assert out["status"] == "solved" and out["verified"] is True


def _spoiled(tmp_path):
    """The 4x4 instance with one inner edge recoloured to a colour nothing else shows:
    that join can never match, so the optimum is below 24."""
    inst = read_instance(INSTANCES / "e2_4x4.txt")
    p = next(k for k in range(1, inst.n + 1) if inst.kind(k) == "inner")
    pieces = list(inst.pieces)
    pieces[p - 1] = (99, *pieces[p - 1][1:])
    inst.pieces = pieces
    path = tmp_path / "spoiled.txt"
    path.write_text(format_instance(inst))
    return path


@pytest.mark.parametrize(("backend", "solver"), SOLVERS[1:])
def test_matches_optimum_agrees_with_cpsat(tmp_path, backend, solver):
    path = _spoiled(tmp_path)
    ref = solve_json(path, "--objective", "matches", "--time-limit", "120")
    assert ref["status"] == "solved" and ref["objective"] < sq.join_count(4, 4)
    out = solve_json(path, "--backend", backend, "--solver", solver, "--objective", "matches",
                     "--time-limit", "120")
    assert out["status"] == "solved" and out["verified"] is True
    assert out["objective"] == ref["objective"]


def test_matches_full_score_on_solvable_board():
    for backend in ("milp", "sat"):
        out = solve_json(INSTANCES / "e2_5x5.txt", "--backend", backend, "--objective",
                         "matches", "--time-limit", "120")
        assert out["status"] == "solved" and out["objective"] == sq.join_count(5, 5)


@needs_e2_data()
@pytest.mark.parametrize("backend", ["milp", "sat"])
def test_fixed_pieces_in_the_instance_are_honoured(tmp_path, backend):
    inst, known = brendan_solution(5)
    inst.fixed = {cell: known[cell] for cell in [(0, 0), (2, 2), (3, 1)]}
    path = tmp_path / "fixed.txt"
    path.write_text(format_instance(inst))
    out = solve_json(path, "--backend", backend, "--time-limit", "120")
    assert out["status"] == "solved"
    for (r, c), pr in inst.fixed.items():
        assert tuple(out["solution"]["board"][r][c]) == pr


@needs_e2_data()
@pytest.mark.parametrize("backend", ["milp", "sat"])
def test_fix_and_hint_options(backend):
    inst, known = brendan_solution(5)
    mod = MODULES[backend]
    partial = {cell: known[cell] for cell in [(1, 1), (1, 2), (4, 4)]}
    opts = SolveOptions(time_limit=60, threads=1, fix=partial, hint=known)
    out = mod.solve(inst, opts)
    assert out.status == Status.SOLVED and verify(inst, out.solution).ok
    assert all(out.solution[c] == pr for c, pr in partial.items())
    # a border piece cannot be fixed in an inner cell: no solution
    opts = SolveOptions(time_limit=60, threads=1, fix={(2, 2): known[(0, 1)]})
    assert mod.solve(inst, opts).status == Status.INFEASIBLE


@needs_e2_data()
@pytest.mark.parametrize("backend", ["milp", "sat"])
def test_stop_flag_set_before_solving_gives_timeout(backend):
    inst = read_instance(BRENDAN / "pieces_05x05.txt")
    stop = StopFlag()
    stop.set()
    out = MODULES[backend].solve(inst, SolveOptions(threads=1, stop=stop))
    assert out.status == Status.TIMEOUT and out.solution is None


@needs_e2_data()
@pytest.mark.parametrize(("backend", "solver"), [("sat", "cadical195"), ("sat", "glucose4"),
                                                 ("milp", "highs")])
def test_time_limit_stops_a_hard_instance(backend, solver):
    # through the API: no command line's start-up (0.3 CPU s), nor its watchdog, which may
    # answer first on a loaded machine; a limit reached while the model is built counts too
    res = tilesolve.load(BRENDAN / "pieces_10x10.txt").solve(backend, time_limit=1.0,
                                                             threads=1, solver=solver)
    assert res.status == Status.TIMEOUT and res.solution is None


def test_unknown_solver_is_bad_input():
    for backend, solver in (("milp", "gurobi9"), ("sat", "nosuchsat"), ("sat", "kissat404")):
        res = run_cli("solve", INSTANCES / "e2_4x4.txt", "--backend", backend,
                      "--solver", solver)
        assert res.returncode == 2
        assert len(res.stderr.strip().splitlines()) == 1 and "solver" in res.stderr


# --------------------------------------------------------------------------- lazy loops
class ToyMilp(milp_runner.MilpModel):
    """Pick one of ten items; `violated_cuts` rejects items below 7 one cut at a time."""

    def __init__(self):
        self.prob = pulp.LpProblem("toy", pulp.LpMinimize)
        self.x = [self.prob.add_variable(f"x{i}", 0, 1, pulp.LpBinary) for i in range(10)]
        self.prob += pulp.lpSum(self.x) == 1, "one"
        self.prob += pulp.lpSum(i * v for i, v in enumerate(self.x))  # prefers small items

    def decode(self, value):
        return {"item": next(i for i, v in enumerate(self.x) if value(v) > 0.5)}

    def violated_cuts(self, solution):
        i = solution["item"]
        return [] if i >= 7 else [(self.x[i] == 0, f"ban_{i}")]


class ToyCnf(cnf_runner.CnfModel):
    def __init__(self):
        from pysat.card import CardEnc
        from pysat.formula import IDPool

        self.vpool = IDPool()
        self.x = [self.vpool.id(("x", i)) for i in range(10)]
        self.clauses = CardEnc.equals(self.x, 1, vpool=self.vpool).clauses

    def decode(self, value):
        return {"item": next(i for i, v in enumerate(self.x) if value(v))}

    def violated_cuts(self, solution):
        i = solution["item"]
        return [] if i >= 7 else [[-self.x[i]]]


@pytest.mark.parametrize("solver", ["cbc", "highs"])
def test_milp_lazy_loop_adds_cuts_until_none(solver):
    out = milp_runner.run(ToyMilp(), SolveOptions(threads=1, params={"solver": solver}))
    assert out.status == Status.SOLVED and out.solution == {"item": 7}
    assert out.stats["rounds"] == 8 and out.stats["cuts"] == 7


def test_cnf_lazy_loop_and_maximiser():
    out = cnf_runner.run(ToyCnf(), SolveOptions(params={"solver": "glucose4"}))
    assert out.status == Status.SOLVED and out.solution["item"] >= 7
    assert out.stats["rounds"] == out.stats["cuts"] + 1

    toy = ToyCnf()
    toy.objective = True
    toy.objective_lits = [toy.x[2], -toy.x[5], toy.x[8]]  # best: item 2 or 8 (score 2)
    out = cnf_runner.run(toy, SolveOptions())
    assert out.status == Status.SOLVED and out.objective == 2 and out.solution["item"] == 8


def test_family_decodes_what_it_encodes():
    inst = read_instance(INSTANCES / "e2_4x4.txt")
    out = em_cnf.solve(inst, SolveOptions(threads=1))
    model = em_milp.EdgeMilp(inst)
    model.suggest(out.solution)
    assert model.decode(lambda v: v.varValue) == out.solution
    assert FAMILY.verify(inst, out.solution).ok


@needs_e2_data()
def test_highs_starts_from_the_hint():
    # from a known board HiGHS has its incumbent at once (PuLP's HiGHS interface drops warm
    # starts: backends.milp gives it); the 8x8 (1.1 CPU s; the 10x10 took 2.2)
    inst, known = brendan_solution(8)
    opts = SolveOptions(time_limit=60, threads=1, hint=known, params={"solver": "highs"})
    out = MODULES["milp"].solve(inst, opts)
    assert out.status == Status.SOLVED and verify(inst, out.solution).ok
    assert out.stats["hint"].endswith(" values given to HiGHS (kOk)")
