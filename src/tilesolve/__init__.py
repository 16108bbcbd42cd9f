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
"""

__version__ = "0.1.0"

from .api import (
    Improvement,
    Puzzle,
    Result,
    edgematch,
    hidato,
    load,
    magichex,
    parse,
    solve,
    tantrix,
)
from .core.errors import InputError
from .core.report import Report, Violation
from .core.result import Status

__all__ = [
    "Improvement",
    "InputError",
    "Puzzle",
    "Report",
    "Result",
    "Status",
    "Violation",
    "edgematch",
    "hidato",
    "load",
    "magichex",
    "parse",
    "solve",
    "tantrix",
]
