"""Solver-neutral exports of an edge-matching instance, and reading a SAT solver's answer back.

- `cnf`: DIMACS CNF from the SAT model (with `--objective matches`: a MaxSAT WCNF whose soft
  clauses are the join-match literals);
- `lp` / `mps`: the MILP model through PuLP's writers.

Beside each model, `FILE.map.json` says what the placement variables mean: for the CNF, the
DIMACS variable number of every (cell, piece, rot); for LP/MPS, the column name. A SAT
solver's output (`s`/`v` lines) is decoded back to a board with `read_dimacs`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...core import squaregrid as sq
from ...core.errors import InputError
from ...core.result import Solution
from ...core.textfile import read_text
from .model import EdgeInstance

KINDS = ("cnf", "lp", "mps")
SAT_WORDS = {"SATISFIABLE", "OPTIMUM FOUND", "SAT"}
NO_MODEL_WORDS = {"UNSATISFIABLE", "UNSAT", "UNKNOWN", "INDETERMINATE"}


def map_path_of(path: str | Path) -> Path:
    return Path(f"{path}.map.json")


def _header(inst: EdgeInstance, fmt: str, objective: str | None) -> dict[str, Any]:
    return {
        "family": "edgematch",
        "format": fmt,
        "instance": inst.name,
        "width": inst.width,
        "height": inst.height,
        "pieces": inst.n,
        "objective": objective,
    }


def _entry(pl, **ref) -> dict[str, Any]:
    (r, c), p, rot = pl
    return {**ref, "cell": [r, c], "piece": p, "rot": rot}


def export(inst: EdgeInstance, kind: str, path: str | Path, objective: str | None = None) -> str:
    """Write the model and its variable map; return a short description of the model size."""
    path = Path(path)
    if kind not in KINDS:
        raise InputError(f"unknown export kind {kind!r}; expected one of {', '.join(KINDS)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "cnf":
        from .cnf import EdgeCnf

        model = EdgeCnf(inst, objective)
        comments = [f"c tilesolve edgematch {inst.width}x{inst.height} {inst.name}",
                    f"c placement variables: see {map_path_of(path).name}"]
        if model.objective:
            from pysat.formula import WCNF

            wcnf = WCNF()
            wcnf.extend(model.clauses.clauses)
            for lit in model.objective_lits:
                wcnf.append([lit], weight=1)
            wcnf.to_file(str(path), comments=comments)
            fmt, size = "wcnf", f"{len(wcnf.hard)} hard and {len(wcnf.soft)} soft clauses"
        else:
            model.clauses.to_file(str(path), comments=comments)
            fmt, size = "cnf", f"{len(model.clauses.clauses)} clauses"
        nvars = model.vpool.top
        data = _header(inst, fmt, objective)
        data["variables"] = nvars
        data["placements"] = [_entry(pl, var=v) for pl, v in model.x.items()]
        info = f"{nvars} variables, {size}"
    else:
        from .milp import EdgeMilp, var_name

        model = EdgeMilp(inst, objective)
        if kind == "lp":
            model.prob.writeLP(str(path))
        else:
            model.prob.writeMPS(str(path), with_objsense=True)
        data = _header(inst, kind, objective)
        data["placements"] = [_entry(pl, name=var_name(pl)) for pl in model.x]
        info = f"{model.prob.numVariables()} columns, {model.prob.numConstraints()} rows"
    map_path_of(path).write_text(_map_text(data))
    return info


def _map_text(data: dict[str, Any]) -> str:
    """JSON with one placement per line: small, and still readable and diffable."""
    head = {k: v for k, v in data.items() if k != "placements"}
    rows = ",\n".join(json.dumps(e, separators=(",", ":")) for e in data["placements"])
    return json.dumps(head, indent=1)[:-2] + ',\n "placements": [\n' + rows + "\n ]\n}\n"


# --------------------------------------------------------------------------- reading back
def _read_map(inst: EdgeInstance, map_path: str | Path) -> tuple[int, dict[int, tuple]]:
    """(number of variables, var -> (cell, piece, rot)) from a CNF export's map."""
    try:
        data = json.loads(read_text(map_path))
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON: {exc.msg}", map_path, exc.lineno) from None
    if not isinstance(data, dict) or "placements" not in data:
        raise InputError("not a variable map; expected the .map.json written by export", map_path)
    if data.get("format") not in ("cnf", "wcnf"):
        raise InputError(
            f"map of a {data.get('format')!r} export; SAT output needs the map of a cnf export",
            map_path,
        )
    if (data.get("width"), data.get("height"), data.get("pieces")) != (
        inst.width, inst.height, inst.n,
    ):
        raise InputError(
            f"map is for a {data.get('width')}x{data.get('height')} board with "
            f"{data.get('pieces')} pieces; the instance is {inst.width}x{inst.height} with "
            f"{inst.n}",
            map_path,
        )
    nvars = data.get("variables")
    if not isinstance(nvars, int) or nvars < 1:
        raise InputError("map without a positive 'variables' count", map_path)
    table: dict[int, tuple] = {}
    for item in data["placements"]:
        try:
            var, (r, c), p, rot = item["var"], item["cell"], item["piece"], item["rot"]
            ok = all(isinstance(v, int) for v in (var, r, c, p, rot))
        except (KeyError, TypeError, ValueError):
            ok = False
        if not ok or not (1 <= var <= nvars and 1 <= p <= inst.n and 0 <= rot <= 3) or not \
                sq.inside((r, c), inst.width, inst.height):
            raise InputError(f"bad placement entry {item!r}; expected var, cell, piece, rot",
                             map_path)
        table[var] = ((r, c), p, rot)
    return nvars, table


def read_model(path: str | Path, nvars: int) -> set[int]:
    """The true variables of a SAT solver's output.

    Accepts the competition format (`c` comments, one `s` line, `v` lines ending in 0, `o`
    cost lines of MaxSAT solvers) and a bare list of literals.
    """
    lines = read_text(path).splitlines()
    lits: list[int] = []
    terminated = saw_v = False
    last = 0
    for no, raw in enumerate(lines, start=1):
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
                path,
                no,
            )
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


def read_dimacs(inst: EdgeInstance, output_path: str | Path, map_path: str | Path) -> Solution:
    """The board a SAT solver's output encodes, decoded with the export's variable map."""
    nvars, table = _read_map(inst, map_path)
    sol: Solution = {}
    for var in sorted(read_model(output_path, nvars)):
        if var in table:
            cell, p, rot = table[var]
            if cell in sol:
                raise InputError(
                    f"the model places two pieces at cell {cell}: {sol[cell][0]}/{sol[cell][1]} "
                    f"and {p}/{rot}",
                    output_path,
                )
            sol[cell] = (p, rot)
    return sol
