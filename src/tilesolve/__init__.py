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

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (7 ms)

# Every public name is imported on first use (PEP 562): `import tilesolve`, and so the start
# of the `tilesolve` command before it takes over Ctrl-C, loads none of the package's modules
# (38 ms of imports before; a Ctrl-C in them printed a traceback).
_HOME = {
    **dict.fromkeys(("Improvement", "Preset", "Puzzle", "Result", "edgematch", "generate",
                     "hidato", "load", "magichex", "parse", "presets", "solve", "tantrix"),
                    ".api"),
    "InputError": ".core.errors",
    "Report": ".core.report",
    "Violation": ".core.report",
    "Status": ".core.result",
}

if TYPE_CHECKING:  # what type checkers and editors see
    from . import bench
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
    """A public name, imported on first use; `tilesolve.bench` is a module of its own."""
    import importlib

    if name == "bench":
        return importlib.import_module(".bench", __name__)
    if name in _HOME:
        value = getattr(importlib.import_module(_HOME[name], __name__), name)
        globals()[name] = value  # the next look finds it at once
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
