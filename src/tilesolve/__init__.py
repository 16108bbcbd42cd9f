"""tilesolve: exact and hybrid solvers for tile and hex puzzles.

Eternity II-style edge matching, Tantrix, Beehive Hidato and the magic hexagon, each compiled
to CP-SAT, a MILP, CNF and a genetic algorithm, with search backends and a portfolio; every
solution is checked by the puzzle's own verifier before it is returned.

    import tilesolve
    result = tilesolve.load("instances/e2_6x6.txt").solve(backend="cpsat", time_limit=60)
    print(result.summary(), result.solution[(0, 0)])  # the piece at the top left

`load` reads a puzzle file and `parse` its text; `edgematch`, `tantrix`, `hidato` and
`magichex` build one from Python data. `Puzzle.solve` returns a `Result`: its status, the
verified solution, the objective with its maximum, statistics, and methods to check, draw and
write it. Bad input raises `InputError`, which names the file and line. Importing this package
loads no solver library: OR-Tools, PuLP and python-sat are imported by the solve that uses
them.

For experiments: `generate` makes a random puzzle with its planted solution, `presets`
describes a backend's named settings, `Puzzle.solve`'s `stop` ends a run
from another thread, and the `bench` module runs and times whole solves as `tilesolve
solve` does (one child process each, its CPU seconds measured), sweeps and summarises them.
"""

__version__ = "0.1.0"

from .api import (
    Improvement,
    Preset,
    Puzzle,
    Result,
    edgematch,
    generate,
    hidato,
    load,
    magichex,
    parse,
    presets,
    solve,
    tantrix,
)
from .core.errors import InputError
from .core.report import Report, Violation
from .core.result import Status

__all__ = [
    "Improvement",
    "InputError",
    "Preset",
    "Puzzle",
    "Report",
    "Result",
    "Status",
    "Violation",
    "bench",
    "edgematch",
    "generate",
    "hidato",
    "load",
    "magichex",
    "parse",
    "presets",
    "solve",
    "tantrix",
]


def __getattr__(name: str):
    """`tilesolve.bench` is imported on first use: `import tilesolve` stays light."""
    if name == "bench":
        import importlib

        return importlib.import_module(".bench", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
