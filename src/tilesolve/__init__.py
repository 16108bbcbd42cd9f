"""tilesolve: exact and hybrid solvers for tile and hex puzzles."""

__version__ = "0.1.0"
