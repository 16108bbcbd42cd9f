"""A PuLP model as MiniZinc: one linear model (FILE.mzn) and the instance's numbers (FILE.dzn).

The model is the same for every puzzle: integer columns `x`, continuous columns `y` (only
when the MILP has some), rows stored sparsely (`row_start`, `col`, `coef`), each row's
`sense` (-1 <=, 0 =, 1 >=) and `rhs`, and the objective's terms. Any MiniZinc solver runs it
(`minizinc --solver cbc|gecode|chuffed|cp-sat FILE.mzn FILE.dzn`); its output item prints
`x = [...];` (and `y`), which `tilesolve verify INSTANCE OUT --map FILE.mzn.map.json` reads.
Without continuous columns and with integral coefficients everything stays integer, so
finite-domain solvers (Gecode, Chuffed) take it as well as MIP solvers do.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from ..core.errors import InputError
from ..core.textfile import read_text, write_text_atomic

BIG = 10**9  # stands for a missing bound: MiniZinc needs finite integer domains
SENSE = {-1: "<=", 0: "=", 1: ">="}  # PuLP's constraint senses

MODEL = """\
int: n_int;                            % integer columns x[1..n_int]
int: n_real;                           % continuous columns y[1..n_real]
int: n_rows;
array[1..n_int] of int: x_lo;
array[1..n_int] of int: x_hi;
array[1..n_real] of float: y_lo;
array[1..n_real] of float: y_hi;
array[1..n_rows + 1] of int: row_start;   % row r's terms: row_start[r] .. row_start[r+1]-1
array[int] of int: col;                   % column of a term: x[c], or y[c - n_int]
array[int] of NUM: coef;
array[1..n_rows] of -1..1: sense;         % -1: <=, 0: =, 1: >=
array[1..n_rows] of NUM: rhs;
array[int] of int: obj_col;
array[int] of NUM: obj_coef;

array[1..n_int] of var min(x_lo ++ [0])..max(x_hi ++ [0]): x;
constraint forall(i in 1..n_int)(x[i] >= x_lo[i] /\\ x[i] <= x_hi[i]);
"""

REAL_COLUMNS = """\
array[1..n_real] of var float: y;
constraint forall(j in 1..n_real)(y[j] >= y_lo[j] /\\ y[j] <= y_hi[j]);
function var float: column(int: c) =
  if c <= n_int then int2float(x[c]) else y[c - n_int] endif;
"""

INT_COLUMNS = """\
function var int: column(int: c) = x[c];
"""

ROWS = """\
constraint forall(r in 1..n_rows)(
  let { var NUM: lhs = sum(k in row_start[r]..row_start[r + 1] - 1)(coef[k] * column(col[k])) }
  in if sense[r] < 0 then lhs <= rhs[r] elseif sense[r] > 0 then lhs >= rhs[r]
     else lhs = rhs[r] endif);

"""


def _integral(values) -> bool:
    return all(float(v).is_integer() for v in values)


def _num(value: float, integer: bool) -> str:
    return str(int(value)) if integer else repr(float(value))


def _array(name: str, values, per_line: int = 20) -> str:
    items = [str(v) for v in values]
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return f"{name} = [" + ",\n  ".join(lines) + "];\n"


def _bound(value, default: float) -> float:
    return default if value is None or math.isinf(value) else value


def columns(prob) -> tuple[list, list]:
    """(integer columns, continuous columns), each in PuLP's order."""
    cols = [v for v in prob.variables() if v.name != "__dummy"]  # PuLP's writers add it
    ints = [v for v in cols if v.cat == "Integer"]
    reals = [v for v in cols if v.cat != "Integer"]
    return ints, reals


def write(prob, path: Path, head: list[str]):
    """FILE.mzn and FILE.dzn from a PuLP problem; returns the export's `Written`."""
    from .export import Written

    ints, reals = columns(prob)
    objective = dict(prob.objective.items()) if prob.objective is not None else {}
    index = {v.name: i for i, v in enumerate(ints + reals, start=1)}
    rows = list(prob.constraints())  # PuLP 3.3: a list (the old dict view is deprecated)
    coefs = [c for row in rows for c in row.values()]
    coefs += [-row.constant for row in rows] + list(objective.values())
    integer = not reals and _integral(coefs)
    num = "int" if integer else "float"
    sign = -1 if prob.sense == -1 else 1  # PuLP: 1 minimise, -1 maximise
    goal = "maximize" if sign < 0 else "minimize"
    solve = (f"solve {goal} sum(k in index_set(obj_col))(obj_coef[k] * column(obj_col[k]));\n"
             if objective else "solve satisfy;\n")
    output = 'output ["x = ", show(x), ";\\n"' + (', "y = ", show(y), ";\\n"' if reals else "")
    model = ("".join(f"% {line}\n" for line in head)
             + f"% data: {path.with_suffix('.dzn').name}; columns by name: the map's 'names'\n"
             + MODEL.replace("NUM", num) + (REAL_COLUMNS if reals else INT_COLUMNS)
             + ROWS.replace("NUM", num) + solve + output + "];\n")
    starts, cols, vals = [1], [], []
    for row in rows:
        for var, c in row.items():
            cols.append(index[var.name])
            vals.append(_num(c, integer))
        starts.append(len(cols) + 1)
    data = (f"n_int = {len(ints)};\nn_real = {len(reals)};\nn_rows = {len(rows)};\n"
            + _array("x_lo", [int(_bound(v.lowBound, -BIG)) for v in ints])
            + _array("x_hi", [int(_bound(v.upBound, BIG)) for v in ints])
            + _array("y_lo", [float(_bound(v.lowBound, -BIG)) for v in reals])
            + _array("y_hi", [float(_bound(v.upBound, BIG)) for v in reals])
            + _array("row_start", starts) + _array("col", cols) + _array("coef", vals)
            + _array("sense", [row.sense for row in rows])
            + _array("rhs", [_num(-row.constant, integer) for row in rows])
            + _array("obj_col", [index[v.name] for v in objective])
            + _array("obj_coef", [_num(c, integer) for c in objective.values()]))
    write_text_atomic(path, model)
    write_text_atomic(path.with_suffix(".dzn"), data)
    return Written([path, path.with_suffix(".dzn")], "mzn", [v.name for v in ints + reals],
                   f"{len(ints)} integer and {len(reals)} continuous columns, {len(rows)} rows",
                   extra={"integer_columns": len(ints)})


# --------------------------------------------------------------------------- answers
_ASSIGN = re.compile(r"^\s*([xy])\s*=\s*\[([^\]]*)\]\s*;", re.M)
NO_SOLUTION = ("=====UNSATISFIABLE=====", "=====UNKNOWN=====", "=====ERROR=====",
               "=====UNSATorUNBOUNDED=====", "=====UNBOUNDED=====")


def read_output(path: str | Path, names: list[str], n_int: int) -> dict[str, float]:
    """Column values from MiniZinc's output (the last solution printed), by column name."""
    text = read_text(path)
    for word in NO_SOLUTION:
        if word in text:
            line = text[: text.index(word)].count("\n") + 1
            raise InputError(f"the solver reports {word.strip('=')}: there is no board to check",
                             path, line)
    blocks = [b for b in text.split("----------") if _ASSIGN.search(b)]
    if not blocks:
        raise InputError("no solution found; expected 'x = [...];' as the model's output item "
                         "prints it", path)
    found: dict[str, list[float]] = {}
    for name, body in _ASSIGN.findall(blocks[-1]):
        try:
            found[name] = [float(t) for t in body.replace(",", " ").split()]
        except ValueError:
            raise InputError(f"{name} holds a non-number; expected numbers", path) from None
    x, y = found.get("x", []), found.get("y", [])
    if len(x) != n_int or len(x) + len(y) != len(names):
        raise InputError(f"{len(x)} x and {len(y)} y values; the model has {n_int} integer and "
                         f"{len(names) - n_int} continuous columns", path)
    return dict(zip(names, x + y, strict=True))
