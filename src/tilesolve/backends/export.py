"""Solver-neutral exports of any family's models, with a variable map beside each file.

A family declares its models and nothing else: each model backend's declaration
(core.registry.Backend of `cnf`, `milp`, `cpsat`) names its `build(instance, options) ->
compiled`, the object its runner solves, with `decode(value)`
turning solver values back into a board. This module writes what `build` returns:

- `cnf`: DIMACS CNF of the SAT model (a MaxSAT WCNF when it maximises `objective_lits`);
- `lp` / `mps`: the MILP through PuLP's writers;
- `cpsat`: the CP-SAT model as a `CpModelProto`, text for .txt/.pbtxt/.textproto, else binary;
- `mzn`: the MILP as a MiniZinc model (FILE.mzn) and its data (FILE.dzn), see `minizinc`.

`FILE.map.json` names every variable (DIMACS number, column or proto index -> name) and
records what the model was built from. `answers.read_answer` reads a solver's answer back by
building the same model again, checking that its variables are the map's, and decoding.

Models whose runner adds lazy cuts (`separate`: Tantrix subloops) are written with the rows
they have; the file and the map say so, and a board with subloops is then rejected by verify.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..core.registry import export_sources
from ..core.textfile import write_atomic, write_text_atomic

SOURCE = export_sources()  # export kind -> the backend whose model it writes
KINDS = tuple(SOURCE)
TEXT_PROTO = (".txt", ".pbtxt", ".textproto")
ANSWERS = {
    "cnf": "SAT competition output (s/v lines) or a bare list of literals",
    "wcnf": "MaxSAT competition output (o/s/v lines)",
    "lp": "a solution file with one 'column value' per line (CBC's or HiGHS')",
    "mps": "a solution file with one 'column value' per line (CBC's or HiGHS')",
    "cpsat": "a CpSolverResponse, text or binary (`tilesolve run-model` writes one)",
    "mzn": "MiniZinc output: the 'x = [...];' lines the model's output item prints",
}


@dataclass
class Written:
    """What a writer produced: the files, the map's format name, variable names, a size."""

    files: list[Path]
    fmt: str
    names: list
    size: str
    count: int = 0  # variables in the model (default: one per name)
    extra: dict[str, Any] = field(default_factory=dict)  # more for the map


def map_path_of(path: str | Path) -> Path:
    return Path(f"{path}.map.json")


def build_model(family, inst, kind: str, objective: str | None, params: dict | None = None,
                memory: float | None = None):
    """The compiled model a family's backend runs (the family's `build`), for an export kind;
    `params` are the backend's model options (--radius, --model ...). A model estimated to
    take more than `memory` GB (core.bounds) is refused before it is built."""
    from ..core.result import SolveOptions
    from ..core.solve import backend_params

    if kind not in KINDS:
        raise InputError(f"unknown export kind {kind!r}; expected one of {', '.join(KINDS)}")
    family.check_objective(objective)
    declared = family.backend(SOURCE[kind])
    if declared.build is None:
        raise InputError(f"the {family.name} family cannot export its {SOURCE[kind]} model")
    # validated as a solve validates them: a misspelt option is refused, not ignored
    checked = backend_params(family, SOURCE[kind], dict(params or {}))
    if "radius" not in checked:  # a smaller --radius is the user's own bound on the model
        family.check_model(inst, kind, memory)
    return declared.build(inst, SolveOptions(objective=objective, params=checked))


def notes_of(compiled) -> list[str]:
    """Caveats to print in the file and the map: the model's own, and missing lazy cuts."""
    notes = list(compiled.export_notes)
    if compiled.lazy:
        notes.append(f"incomplete: {compiled.lazy} are added by tilesolve while solving and "
                     "are not in this file; a solution that breaks them is rejected by tilesolve "
                     "verify")
    return notes


def export(family, inst, kind: str, path: str | Path, objective: str | None = None,
           params: dict | None = None, memory: float | None = None) -> str:
    """Write the model and its variable map; return a short description of what was written.
    A MiniZinc export writes FILE.mzn and FILE.dzn (FILE.mzn.map.json beside them)."""
    path = Path(path)
    if kind == "mzn" and path.suffix != ".mzn":
        path = Path(f"{path}.mzn")
    compiled = build_model(family, inst, kind, objective, params, memory)
    notes = notes_of(compiled)
    head = [f"tilesolve {family.name} {inst.name}: {SOURCE[kind]} model"
            + (f", objective {objective}" if objective else ""), *notes,
            f"variables: see {map_path_of(path).name}"]
    written = WRITERS[kind](compiled, path, head)
    data = {
        "family": family.name,
        "format": written.fmt,
        "model": SOURCE[kind],
        "instance": inst.name,
        "objective": objective,
        "params": dict(params or {}),
        "notes": notes,
        "answer": ANSWERS[written.fmt],
        **written.extra,
        "variables": written.count or len(written.names),
        "names": written.names,
    }
    write_text_atomic(map_path_of(path), map_text(data))
    files = ", ".join(str(f) for f in [*written.files, map_path_of(path)])
    return f"wrote {files} ({written.size})"


def map_text(data: dict[str, Any]) -> str:
    """JSON with one variable per line: small, and still readable and diffable."""
    head = {k: v for k, v in data.items() if k != "names"}
    rows = ",\n".join(json.dumps(e, separators=(",", ":")) for e in data["names"])
    return json.dumps(head, indent=1)[:-2] + ',\n "names": [\n' + rows + "\n ]\n}\n"


# --------------------------------------------------------------------------- writers
def cnf_names(compiled) -> list[list]:
    """[DIMACS number, name] of every named variable (encodings' auxiliaries have none)."""
    return [[var, label(obj)] for var, obj in sorted(compiled.vpool.id2obj.items())]


def label(obj) -> str:
    """('x', (0, 0), 3, 1) -> 'x((0, 0), 3, 1)': the tuples the models number variables by."""
    if isinstance(obj, tuple) and obj and isinstance(obj[0], str):
        rest = obj[1:]
        return f"{obj[0]}{rest if len(rest) != 1 else f'({rest[0]!r})'}"
    return str(obj)


def _write_cnf(compiled, path: Path, head: list[str]) -> Written:
    from pysat.formula import CNF, WCNF

    clauses = compiled.formula()
    comments = [f"c {line}" for line in head]
    lits = list(compiled.objective_lits) if compiled.objective else []
    nvars = compiled.vpool.top
    if lits:
        formula = WCNF()
        formula.extend(clauses)
        for lit in lits:  # one point per true literal: maximise how many hold
            formula.append([lit], weight=1)
        size = f"{len(formula.hard)} hard and {len(formula.soft)} soft clauses"
    else:
        formula = CNF(from_clauses=clauses)
        size = f"{len(formula.clauses)} clauses"
    nvars = formula.nv = max(formula.nv, nvars)  # the header declares every numbered variable
    write_atomic(path, lambda tmp: formula.to_file(str(tmp), comments=comments))
    return Written([path], "wcnf" if lits else "cnf", cnf_names(compiled),
                   f"{nvars} variables, {size}", nvars)


def _write_milp(kind: str):
    def write(compiled, path: Path, head: list[str]) -> Written:
        import pulp

        prob = compiled.prob
        mark = "\\" if kind == "lp" else "*"  # LP and MPS comment characters

        lines = list(head)
        if kind == "mps" and prob.sense == pulp.LpMaximize:
            # CBC 2.10 ignores OBJSENSE MAX (it minimised the edge-matching score to 0):
            # the objective is negated instead, which every MPS reader takes the same way
            lines.insert(-1, "objective negated: minimise it to maximise the model's score")

        def fill(tmp: Path) -> None:
            if kind == "lp":
                prob.writeLP(str(tmp))
            else:
                prob.writeMPS(str(tmp), mpsSense=pulp.LpMinimize)
            tmp.write_text("".join(f"{mark} {line}\n" for line in lines) + tmp.read_text())

        write_atomic(path, fill)
        names = milp_names(prob)
        return Written([path], kind, names,
                       f"{prob.numVariables()} columns, {prob.numConstraints()} rows",
                       extra={"objective_negated": True} if len(lines) > len(head) else {})

    return write


def milp_names(prob) -> list[str]:
    """Column names in PuLP's order, without the placeholder PuLP's writers add to a model
    with an empty objective (the model built again for verify has none)."""
    return [v.name for v in prob.variables() if v.name != "__dummy"]


def _write_cpsat(compiled, path: Path, head: list[str]) -> Written:
    model = compiled.model
    proto = model.proto
    if path.suffix.lower() in TEXT_PROTO:
        text = "".join(f"# {line}\n" for line in head) + str(proto)
        write_text_atomic(path, text)
    else:  # binary has no comments: the notes live in the map and the model's name
        model.name = "; ".join(head[:-1])
        write_atomic(path, lambda tmp: _export_binary(model, tmp))
    names = [v.name for v in proto.variables]
    return Written([path], "cpsat", names,
                   f"{len(proto.variables)} variables, {len(proto.constraints)} constraints")


def _export_binary(model, tmp: Path) -> None:
    if not model.export_to_file(str(tmp)):  # binary: the temporary name never ends in txt
        raise OSError(f"CP-SAT could not write {tmp}")


def _write_mzn(compiled, path: Path, head: list[str]) -> Written:
    from . import minizinc

    return minizinc.write(compiled.prob, path, head)


WRITERS = {"cnf": _write_cnf, "lp": _write_milp("lp"), "mps": _write_milp("mps"),
           "cpsat": _write_cpsat, "mzn": _write_mzn}
