"""Every bound on what tilesolve reads and builds, in one place (README, "Limits").

Readers check these before they allocate: a file's kind and size before it is read, its line
count and longest line before it is split, and each family's counts (tiles, cells, colours)
before a list of that size is made. What lies beyond is refused in one line (exit 2); a puzzle
whose counts alone show it has no solution is reported infeasible (exit 3) without building it.

Commands that build a model (solve, count, export, the Python API) estimate its memory from
the instance's counts first (`check_model`) and refuse, with the estimate, what would not fit
in the memory budget (`--memory`, default `DEFAULT_MEMORY`).
"""

from __future__ import annotations

import os

from .errors import InputError

# --- input files (standard input and URLs included) ---------------------------------------
# The largest shipped instance is 7.3 kB; a 100,000-cell Hidato board is about 0.7 MB.
MAX_BYTES = 4 * 1024 * 1024
MAX_LINES = 200_000
MAX_LINE_CHARS = 1_000_000
MAX_INT = 10**9  # any number in a file, in absolute value

# --- families ------------------------------------------------------------------------------
# Edge colours 0..MAX_COLOUR (Eternity II has 23, e2.bucas.name's letters 26): the search
# indexes its tables by (cell, west colour, north colour), so colours up to 9,999 on 4x4 took
# over 3 GB; the GA keeps colours in 16-bit integers, and 10^9 took 7.5 GB to render.
MAX_COLOUR = 255
# Tantrix: tiles in a puzzle (each of the 56 tiles may repeat); a free shape's model grows
# with the square of the tile count.
MAX_TANTRIX_TILES = 1_000
# Hidato: cells of the board; every exact model has cells x numbers literals, and the
# drawing of 100,000 cells took 97 s and 1.1 GB.
MAX_HIDATO_CELLS = 10_000
# Magic hexagon order (10,621 cells at 60).
MAX_MAGICHEX_ORDER = 60

# --- models --------------------------------------------------------------------------------
DEFAULT_MEMORY = 2 * 1024**3  # bytes a model may take unless --memory says otherwise
# What a model takes to build, as A * U ** B bytes of a family's size U (its `model_units`:
# Tantrix cells x tiles, edge matching pieces^2, Hidato and magic hexagon cells), fitted to
# the peak resident memory of building each model (backends.export.build_model) on two
# shipped instances a family: Tantrix discovery 10 and 16 (cnf 129 and 1,575 MB, lp 46 and
# 262, cpsat 7 and 27), edge matching 8x8 and 16x16 (cnf 12 and 313, lp 6 and 174, cpsat 9
# at 16x16), Hidato 217 and 1,000 cells (cnf 2 and 11, lp 3 and 20, cpsat 1 and 9; cpsat
# on 100,000 cells went past 2 GB), magic hexagon orders 5 and 6 (cnf 273 and 1,095, lp 1
# and 4). A model missing here is linear in the instance and not estimated.
MODEL_COST: dict[tuple[str, str], tuple[float, float]] = {
    ("tantrix", "cnf"): (160.0, 2.0),
    ("tantrix", "lp"): (6_600.0, 1.3),
    ("tantrix", "cpsat"): (7_700.0, 1.0),
    ("edgematch", "cnf"): (656.0, 1.18),
    ("edgematch", "lp"): (256.0, 1.21),
    ("edgematch", "cpsat"): (140.0, 1.0),
    ("hidato", "cnf"): (1_956.0, 1.25),
    ("hidato", "lp"): (3_557.0, 1.25),
    ("hidato", "cpsat"): (1_600.0, 1.25),
    ("magichex", "cnf"): (154.0, 3.5),
    ("magichex", "lp"): (0.6, 3.5),
}
# Writing an export holds the model and its file's form at once: the cnf export of Tantrix
# discovery 16 peaked at 3.3 GB of a 1.6 GB model, magic hexagon order 6 at 2.5 of 1.1.
EXPORT_FACTOR = 2.2
MODEL_OF = {"cnf": "cnf", "sat": "cnf", "lp": "lp", "mps": "lp", "mzn": "lp", "milp": "lp",
            "cpsat": "cpsat"}  # export kinds and backends -> the model they build


def too_big(what: str, count: int, limit: int, unit: str) -> str:
    """The one line a refusal says: `what` has `count` `unit`, at most `limit`."""
    return f"{what} has {count:,} {unit}; expected at most {limit:,} (README: Limits)"


def memory_budget(given: float | None = None) -> int:
    """Bytes a model may take: `given` (gigabytes, --memory), else TILESOLVE_MEMORY (GB),
    else DEFAULT_MEMORY."""
    text = os.environ.get("TILESOLVE_MEMORY")
    if given is None and text:
        try:
            given = float(text)
        except ValueError:
            raise InputError("TILESOLVE_MEMORY must be a number of gigabytes, "
                             f"got {text!r}") from None
    if given is None:
        return DEFAULT_MEMORY
    if not 0 < given < 1e6:
        raise InputError(f"--memory must be a positive number of gigabytes, got {given}")
    return int(given * 1024**3)


def gigabytes(size: float) -> str:
    return f"{size / 1024**3:,.1f} GB" if size >= 0.1 * 1024**3 else f"{size / 1024**2:.0f} MB"


def model_bytes(family: str, kind: str, units: int) -> int | None:
    """The memory the model that an export kind or a backend builds is estimated to take."""
    cost = MODEL_COST.get((family, MODEL_OF.get(kind, "")))
    return None if cost is None else int(cost[0] * float(units) ** cost[1])


def check_model(family: str, kind: str, size: tuple[int, str] | None, budget: int,
                factor: float = 1.0) -> None:
    """Refuse in one line, with the estimate, a model that would not fit in `budget` bytes;
    `size` is the family's (units, what they count), None where it gives none; `factor`
    what writing it adds (EXPORT_FACTOR)."""
    estimate = None if size is None else model_bytes(family, kind, size[0])
    if estimate is None:
        return
    estimate = int(estimate * factor)
    counted = size[1]
    model = MODEL_OF[kind]
    if estimate > budget:
        raise InputError(f"the {model} model would take about {gigabytes(estimate)} of memory "
                         f"({counted}), over the budget of {gigabytes(budget)}; give more with "
                         "--memory GB, or choose a smaller puzzle or model")
