"""`tilesolve run-model`: an exported model solved by a solver that ships with tilesolve, its
answer written in the form `tilesolve verify INSTANCE ANSWER --map FILE.map.json` reads.

The model's kind is the export's (`format` in FILE.map.json beside it), else its suffix:

- cnf / wcnf: a PySAT solver (default cadical195; MaxSAT through RC2), answer in the SAT
  competition's format (`s` / `o` / `v` lines);
- lp / mps: HiGHS through highspy (default) or the CBC binary PuLP ships (`--solver cbc`),
  answer their solution file;
- cpsat: CP-SAT on the CpModelProto (text for .txt/.pbtxt/.textproto, else binary), answer the
  CpSolverResponse as text.

Statuses and exit codes are `tilesolve solve`'s: solved or feasible 0, infeasible 3, no answer
within the time limit 4, bad input 2.
"""

from __future__ import annotations

import json
import math
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import InputError
from .cnf import BUDGETED, UNLIMITED, Deadline, canonical_solver, solve_limited
from .cpsat import catches_sigint
from .export import TEXT_PROTO, map_path_of
from .stopwatch import Watcher

SUFFIXES = {".cnf": "cnf", ".wcnf": "cnf", ".lp": "lp", ".mps": "mps", ".pb": "cpsat",
            ".bin": "cpsat", **{s: "cpsat" for s in TEXT_PROTO}}
SOLVERS = {"cnf": "a PySAT solver name (default cadical195)", "lp": "highs (default) or cbc",
           "mps": "highs (default) or cbc", "cpsat": "cpsat"}
NON_INCREMENTAL = ("kissat404",)  # one plain solve call, no way to stop it from inside
EXIT = {"solved": 0, "feasible": 0, "infeasible": 3, "timeout": 4}
CBC_GRACE = 5.0  # seconds past the limit before CBC is killed: it may not look at its clock
                 # before branching (backends/milp.py)


@dataclass
class ModelRun:
    """What a run gave: the status, the answer's text, the solver and its wall seconds."""

    kind: str
    solver: str
    status: str
    answer: str
    seconds: float = 0.0
    binary: str | None = None  # the solver's executable, where it runs as a child process

    @property
    def exit_code(self) -> int:
        return EXIT[self.status]

    def to_json(self, model: Path, output: Path | None) -> dict:
        """The command's one JSON object; the answer's text itself when no file took it."""
        obj = {"model": str(model), "kind": self.kind, "solver": self.solver,
               "status": self.status, "seconds": self.seconds, "exit_code": self.exit_code,
               "output": None if output is None else str(output)}
        if self.binary is not None:
            obj["binary"] = self.binary
        return obj if output is not None else {**obj, "answer": self.answer}

    def summary(self) -> str:
        return f"{self.status} by {self.solver} in {self.seconds:.2f} s"


def model_kind(path: Path) -> str:
    """cnf, lp, mps or cpsat: the export's map says, else the file's suffix."""
    map_path = map_path_of(path)
    if map_path.is_file():
        try:
            fmt = json.loads(map_path.read_text()).get("format")
        except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
            fmt = None
        if fmt == "mzn":
            raise InputError("a MiniZinc model: run it with `minizinc --solver gecode FILE.mzn "
                             "FILE.dzn`", path)
        if fmt in ("cnf", "wcnf", "lp", "mps", "cpsat"):
            return {"wcnf": "cnf"}.get(fmt, fmt)
    kind = SUFFIXES.get(path.suffix.lower())
    if kind is None:
        raise InputError(f"unknown model kind {path.suffix or '(no suffix)'!r}; expected an "
                         "export of tilesolve: .cnf, .wcnf, .lp, .mps, .pb or .pbtxt", path)
    return kind


def run_model(path: str | Path, solver: str | None = None, time_limit: float | None = None,
              threads: int = 1) -> ModelRun:
    """Solve the model file with a bundled solver; InputError for bad input."""
    path = Path(path)
    if not path.is_file():
        raise InputError("no such file", path)
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise InputError(f"time limit {time_limit} s; expected a positive number of seconds")
    if threads < 1:
        raise InputError(f"threads {threads}; expected 1 or more")
    kind = model_kind(path)
    name = (solver or {"cnf": "cadical195", "cpsat": "cpsat"}.get(kind, "highs")).lower()
    start = time.monotonic()
    if kind == "cnf":
        run = _run_dimacs(path, name, time_limit)
    elif kind == "cpsat":
        _expect(name, ("cpsat",), kind)
        run = _run_cpsat(path, time_limit, threads)
    else:
        _expect(name, ("highs", "cbc"), kind)
        runner = _run_highs if name == "highs" else _run_cbc
        run = runner(path, kind, time_limit, threads)
    run.seconds = round(time.monotonic() - start, 3)
    return run


def _expect(name: str, allowed: tuple[str, ...], kind: str) -> None:
    if name not in allowed:
        raise InputError(f"solver {name!r} does not run {kind} models; expected {SOLVERS[kind]}")


# --------------------------------------------------------------------------- DIMACS
def _run_dimacs(path: Path, solver: str, time_limit: float | None) -> ModelRun:
    name = canonical_solver(solver)
    if name in (*UNLIMITED, *NON_INCREMENTAL) and time_limit is not None:
        raise InputError(f"SAT solver {name} cannot be time-limited from inside; run it without "
                         "--time-limit")
    try:
        if _is_wcnf(path):
            return _run_wcnf(path, name, time_limit)
        return _run_cnf(path, name, time_limit)
    except (ValueError, AssertionError, IndexError) as exc:  # PySAT on malformed DIMACS
        raise InputError(f"malformed DIMACS ({exc})", path) from None


def _is_wcnf(path: Path) -> bool:
    """MaxSAT input: a 'p wcnf' header (old format) or 'h' hard clauses (2022 format)."""
    with path.open(errors="replace") as fh:
        for line in fh:
            if line.startswith(("h ", "p wcnf")):
                return True
            if line.startswith("p cnf"):
                return False
    return False


def _model_lines(model: list[int], per_line: int = 20) -> list[str]:
    rows = [model[i : i + per_line] for i in range(0, len(model), per_line)]
    return ["v " + " ".join(map(str, row)) for row in rows] + ["v 0"]


def _run_cnf(path: Path, name: str, time_limit: float | None) -> ModelRun:
    from pysat.formula import CNF
    from pysat.solvers import Solver

    cnf = CNF(from_file=str(path))
    lines = [f"c {path.name}: {cnf.nv} variables, {len(cnf.clauses)} clauses, solver {name}"]
    with Solver(name=name, bootstrap_with=cnf.clauses) as solver:
        if name in NON_INCREMENTAL:
            res = solver.solve()
        else:
            res = solve_limited(solver, name, Deadline(time_limit))
        if res is None:
            return ModelRun("cnf", name, "timeout", "\n".join([*lines, "s UNKNOWN", ""]))
        if res is False:
            return ModelRun("cnf", name, "infeasible", "\n".join([*lines, "s UNSATISFIABLE", ""]))
        lines += ["s SATISFIABLE", *_model_lines(solver.get_model())]
    return ModelRun("cnf", name, "solved", "\n".join([*lines, ""]))


def _run_wcnf(path: Path, name: str, time_limit: float | None) -> ModelRun:
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    wcnf = WCNF(from_file=str(path))
    if name in (*BUDGETED, *UNLIMITED, *NON_INCREMENTAL):
        name = "glucose4"  # RC2 stops through its oracle's interrupt(), which these lack
    lines = [f"c {path.name}: {wcnf.nv} variables, {len(wcnf.hard)} hard and {len(wcnf.soft)} "
             f"soft clauses, RC2 over {name}"]
    with RC2(wcnf, solver=name) as rc2:
        deadline = Deadline(time_limit)
        with Watcher(None, rc2.interrupt, deadline.end):
            model = rc2.compute(expect_interrupt=True)
        if model is None:
            status = "timeout" if deadline.over() else "infeasible"
            word = "UNKNOWN" if status == "timeout" else "UNSATISFIABLE"
            return ModelRun("cnf", f"rc2-{name}", status, "\n".join([*lines, f"s {word}", ""]))
        lines += [f"o {rc2.cost}", "s OPTIMUM FOUND", *_model_lines(model)]
    return ModelRun("cnf", f"rc2-{name}", "solved", "\n".join([*lines, ""]))


# --------------------------------------------------------------------------- CP-SAT
def load_cpsat(path: Path):
    """The CpModel of a CpModelProto file: text by suffix, else binary."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    raw = path.read_bytes()
    if path.suffix.lower() in TEXT_PROTO:
        try:
            ok = model.proto.parse_text_format(raw.decode("utf-8"))
        except UnicodeDecodeError:
            ok = False
    else:
        from google.protobuf import text_format
        from google.protobuf.message import DecodeError
        from ortools.sat import cp_model_pb2

        try:
            binary = cp_model_pb2.CpModelProto.FromString(raw)
        except DecodeError:
            ok = False
        else:
            ok = model.proto.parse_text_format(text_format.MessageToString(binary))
    if not ok:
        raise InputError("not a CpModelProto (text for .txt/.pbtxt/.textproto, else binary)",
                         path)
    return model


def _run_cpsat(path: Path, time_limit: float | None, threads: int) -> ModelRun:
    from ortools.sat.python import cp_model

    model = load_cpsat(path)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = threads
    solver.parameters.catch_sigint_signal = catches_sigint()  # not where Ctrl-C is ignored
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    code = solver.solve(model)
    if code == cp_model.MODEL_INVALID:
        raise InputError(f"CP-SAT finds the model invalid: {model.validate()}", path)
    status = {cp_model.OPTIMAL: "solved", cp_model.FEASIBLE: "feasible",
              cp_model.INFEASIBLE: "infeasible"}.get(code, "timeout")
    return ModelRun("cpsat", "cpsat", status, str(solver.response_proto))


# --------------------------------------------------------------------------- LP / MPS
def _run_highs(path: Path, kind: str, time_limit: float | None, threads: int) -> ModelRun:
    import highspy

    h = highspy.Highs()
    h.silent()
    if h.readModel(str(path)) != highspy.HighsStatus.kOk:
        raise InputError(f"HiGHS cannot read this {kind.upper()} model", path)
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    h.setOptionValue("threads", threads)
    h.run()
    model_status = h.getModelStatus()
    has_values = h.getInfo().primal_solution_status == 2  # kSolutionStatusFeasible
    if model_status == highspy.HighsModelStatus.kOptimal:
        status = "solved"
    elif model_status == highspy.HighsModelStatus.kInfeasible:
        status = "infeasible"
    else:
        status = "feasible" if has_values else "timeout"
    with tempfile.TemporaryDirectory(prefix="tilesolve-highs-") as tmp:
        sol = Path(tmp) / "highs.sol"
        h.writeSolution(str(sol), 0)
        answer = sol.read_text()
    return ModelRun(kind, "highs", status, answer)


def cbc_path() -> str:
    """The CBC binary the MILP backend runs (backends.milp.cbc_path)."""
    from .milp import cbc_path as bundled_cbc

    return bundled_cbc()


def _run_cbc(path: Path, kind: str, time_limit: float | None, threads: int) -> ModelRun:
    run = _cbc_answer(path, kind, time_limit, threads)
    run.binary = cbc_path()
    return run


def _cbc_answer(path: Path, kind: str, time_limit: float | None, threads: int) -> ModelRun:
    args = [cbc_path(), str(path.resolve())]
    if time_limit is not None:
        args += ["sec", f"{time_limit:g}"]
    if threads > 1:
        args += ["threads", str(threads)]
    with tempfile.TemporaryDirectory(prefix="tilesolve-cbc-") as tmp:
        sol = Path(tmp) / "cbc.sol"
        limit = None if time_limit is None else time_limit + CBC_GRACE
        try:
            subprocess.run([*args, "solve", "solution", str(sol)], cwd=tmp, timeout=limit,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        except subprocess.TimeoutExpired:
            return ModelRun(kind, "cbc", "timeout", "Stopped on time - no solution\n")
        answer = sol.read_text() if sol.is_file() else ""
    if not answer:
        raise InputError(f"CBC wrote no solution: it could not read the {kind} model", path)
    first = answer.split("\n", 1)[0].lower()
    if "no integer solution" in first:
        return ModelRun(kind, "cbc", "timeout", answer)
    if first.startswith("optimal"):
        status = "solved"
    elif "infeasible" in first:
        status = "infeasible"
    else:  # "Stopped on time - objective value ...": a board only when columns follow
        status = "feasible" if len(answer.splitlines()) > 1 else "timeout"
    return ModelRun(kind, "cbc", status, answer)
