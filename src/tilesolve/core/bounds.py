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
# Edge colours 0..MAX_COLOUR: a colour is a label, and the GA keeps them in 16-bit integers
# and the drawing makes one palette entry per colour (10^9 took 7.5 GB to render).
MAX_COLOUR = 9_999
# Tantrix: tiles in a puzzle (each of the 56 tiles may repeat); a free shape's model grows
# with the square of the tile count.
MAX_TANTRIX_TILES = 1_000
# Hidato: cells of the board; every exact model has cells x numbers literals, and the
# reader's own tables took 0.5 kB a cell.
MAX_HIDATO_CELLS = 100_000
# Magic hexagon order (10,621 cells at 60).
MAX_MAGICHEX_ORDER = 60

# --- models --------------------------------------------------------------------------------
DEFAULT_MEMORY = 2 * 1024**3  # bytes a model may take unless --memory says otherwise


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
    return f"{size / 1024**3:.1f} GB" if size >= 0.1 * 1024**3 else f"{size / 1024**2:.0f} MB"


def check_model(estimate: tuple[int, str] | None, model: str, budget: int) -> None:
    """Refuse in one line a model whose estimate (bytes, what it counts) exceeds `budget`."""
    if estimate is None:
        return
    size, counted = estimate
    if size > budget:
        raise InputError(f"the {model} model would take about {gigabytes(size)} of memory "
                         f"({counted}), over the budget of {gigabytes(budget)}; give more with "
                         "--memory GB, or choose a smaller puzzle or model")
