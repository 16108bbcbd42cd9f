"""Reading another solver's answer to an exported model back into a board.

The variable map says which model the answer belongs to; the same model is built again from
the instance, its variables are checked against the map's (so a map of another instance is
refused), and the model's own `decode` turns the answer's values into a board, which
`tilesolve verify` then checks like any other solution.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..core.result import Solution
from ..core.textfile import read_text
from . import export as ex

SAT_WORDS = {"SATISFIABLE", "OPTIMUM FOUND", "SAT"}
NO_MODEL_WORDS = {"UNSATISFIABLE", "UNSAT", "UNKNOWN", "INDETERMINATE"}
FORMATS = ("cnf", "wcnf", "lp", "mps", "cpsat", "mzn")


def read_map(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON: {exc.msg}", path, exc.lineno) from None
    if not isinstance(data, dict) or not isinstance(data.get("names"), list):
        raise InputError("not a variable map; expected the .map.json written by export", path)
    if data.get("format") not in FORMATS:
        raise InputError(f"unknown model format {data.get('format')!r}; expected one of "
                         f"{', '.join(FORMATS)}", path)
    if not isinstance(data.get("variables"), int) or data["variables"] < 1:
        raise InputError("map without a positive 'variables' count", path)
    return data


def rebuild(family, inst, data: dict, map_path: str | Path):
    """The exported model, built again; refused unless its variables are the map's."""
    if data.get("family") != family.name:
        raise InputError(f"map of a {data.get('family')} model; the instance is {family.name}",
                         map_path)
    kind = {"wcnf": "cnf"}.get(data["format"], data["format"])
    compiled = ex.build_model(family, inst, kind, data.get("objective"), data.get("params"))
    names = _names(compiled, kind)
    if names != data["names"]:
        raise InputError(f"map is for {data.get('instance')!r}, whose {data['format']} model has "
                         f"other variables than this instance's ({len(data['names'])} named in "
                         f"the map, {len(names)} here)", map_path)
    return compiled


def _names(compiled, kind: str) -> list:
    if kind == "cnf":
        return ex.cnf_names(compiled)
    if kind == "cpsat":
        return [v.name for v in compiled.model.proto.variables]
    if kind == "mzn":
        from .minizinc import columns

        ints, reals = columns(compiled.prob)
        return [v.name for v in ints + reals]
    return ex.milp_names(compiled.prob)


def read_answer(family, inst, answer: str | Path, map_path: str | Path) -> Solution:
    """The board a solver's answer encodes, through the export's variable map."""
    data = read_map(map_path)
    compiled = rebuild(family, inst, data, map_path)
    fmt = data["format"]
    if fmt in ("cnf", "wcnf"):
        true = read_dimacs(answer, data["variables"])
        return compiled.decode(true.__contains__)
    if fmt == "cpsat":
        return compiled.decode(cpsat_values(answer, data["variables"]))
    if fmt == "mzn":
        from .minizinc import read_output

        values = read_output(answer, data["names"], int(data.get("integer_columns", 0)))
    else:
        values = read_values(answer, set(data["names"]))
    return compiled.decode(lambda var: values.get(var.name, 0.0))


# --------------------------------------------------------------------------- DIMACS
def read_dimacs(path: str | Path, nvars: int) -> set[int]:
    """The true variables of a SAT solver's output.

    Accepts the competition format (`c` comments, one `s` line, `v` lines ending in 0, `o`
    cost lines of MaxSAT solvers) and a bare list of literals.
    """
    lits: list[int] = []
    terminated = saw_v = False
    last = 0
    for no, raw in enumerate(read_text(path).splitlines(), start=1):
        line = raw.strip()
        if not line or line[0] == "c":
            continue
        last = no
        word = line[1:].strip().upper() if line[0] == "s" else line.upper()
        if word in NO_MODEL_WORDS:
            raise InputError(f"the solver reports {word}: there is no board to check", path, no)
        if word in SAT_WORDS:
            continue
        if line[0] in "so":
            if line[0] == "s":
                raise InputError(f"unknown status {line!r}; expected 's SATISFIABLE'", path, no)
            continue  # MaxSAT cost line
        if line[0] == "v":
            saw_v, tokens = True, line[1:].split()
        elif line[0] in "-0123456789":
            tokens = line.split()
        else:
            raise InputError(
                f"unexpected line {line[:30]!r}; expected 's', 'v' or 'c' lines or literals",
                path, no)
        for tok in tokens:
            try:
                lit = int(tok)
            except ValueError:
                raise InputError(f"expected an integer literal, found {tok!r}", path, no) from None
            if terminated:
                raise InputError("literals after the terminating 0", path, no)
            if lit == 0:
                terminated = True
            elif abs(lit) > nvars:
                raise InputError(f"literal {lit} out of range: the model has {nvars} variables",
                                 path, no)
            else:
                lits.append(lit)
    if not lits:
        raise InputError("no model found; expected 'v' lines of literals ending in 0", path,
                         last or None)
    if saw_v and not terminated:
        raise InputError("model not terminated by 0 (truncated output?)", path, last)
    true = {lit for lit in lits if lit > 0}
    both = sorted(true & {-lit for lit in lits if lit < 0})
    if both:
        raise InputError(f"variable {both[0]} is both true and false", path)
    return true


# --------------------------------------------------------------------------- LP / MPS
def read_values(path: str | Path, names: set[str]) -> dict[str, float]:
    """Column values from a MILP solver's solution file: on each line, a column name and its
    value next to it (CBC: 'index name value cost'; HiGHS: 'name value'). The first value
    of a name counts (HiGHS lists reduced costs under the same names afterwards); columns
    not listed are 0 (CBC lists only the nonzero ones)."""
    values: dict[str, float] = {}
    for no, raw in enumerate(read_text(path).splitlines(), start=1):
        tokens = raw.split()
        low = raw.strip().lower()
        if low.startswith(("infeasible", "integer infeasible", "unbounded")) or \
                low in ("infeasible", "unbounded", "model status infeasible"):
            raise InputError(f"the solver reports {raw.strip()!r}: there is no board to check",
                             path, no)
        for i, tok in enumerate(tokens[:-1]):
            if tok in names:
                try:
                    values.setdefault(tok, float(tokens[i + 1]))
                except ValueError:
                    raise InputError(f"column {tok} has value {tokens[i + 1]!r}; expected a "
                                     "number", path, no) from None
                break
    if not values:
        raise InputError("no values of the model's columns found; expected lines of "
                         "'column value' (a CBC or HiGHS solution file)", path)
    return values


# --------------------------------------------------------------------------- CP-SAT
def cpsat_values(path: str | Path, nvars: int):
    """value(variable, literal or expression) from a CpSolverResponse file, text or binary."""
    from ortools.sat.python import cp_model
    from ortools.sat.python import cp_model_helper as cmh

    raw = _read_bytes(path)
    resp = cmh.CpSolverResponse()
    try:
        parsed = resp.parse_text_format(raw.decode("utf-8"))
    except UnicodeDecodeError:
        parsed = False
    if not parsed:
        from google.protobuf import text_format
        from google.protobuf.message import DecodeError
        from ortools.sat import cp_model_pb2

        try:
            binary = cp_model_pb2.CpSolverResponse.FromString(raw)
        except DecodeError:
            raise InputError("not a CpSolverResponse (text or binary)", path) from None
        resp = cmh.CpSolverResponse()
        resp.parse_text_format(text_format.MessageToString(binary))
    status = int(resp.status)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        name = {cp_model.INFEASIBLE: "INFEASIBLE", cp_model.UNKNOWN: "UNKNOWN",
                cp_model.MODEL_INVALID: "MODEL_INVALID"}.get(status, str(status))
        raise InputError(f"the solver reports {name}: there is no board to check", path)
    if len(resp.solution) != nvars:
        raise InputError(f"the response has {len(resp.solution)} values; the model has {nvars} "
                         "variables", path)

    def value(expr):
        if isinstance(expr, cmh.NotBooleanVariable):
            return int(cmh.ResponseHelper.boolean_value(resp, expr))
        return cmh.ResponseHelper.value(resp, expr)

    return value


def _read_bytes(path: str | Path) -> bytes:
    from ..core.textfile import as_url

    if as_url(path) is not None:
        return read_text(path).encode()
    p = Path(path)
    if not p.is_file():
        raise InputError("no such file", p)
    return p.read_bytes()
