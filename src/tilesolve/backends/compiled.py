"""What a compiled model may offer an exact runner, each capability declared once.

A family compiles its puzzle for one runner into a subclass of that runner's model class
(`cpsat.CpsatModel`, `milp.MilpModel`, `cnf.CnfModel`), all of them subclasses of
`CompiledModel`. Every model decodes the solver's values into a Solution; the capabilities
below change the model before (or between) solves, and a model that lacks one refuses it
with `Unsupported`, one line for the user (exit code 2), never a traceback:

- `impose(partial)`: only solutions that extend the partial assignment remain;
- `suggest(solution)`: the solver starts its search from this (complete or partial)
  assignment, which need not be a solution (CP-SAT hints, MILP warm starts, SAT phases);
- `forbid(solution)`: exactly this solution is excluded, every other one remains (counting
  by solve, forbid, solve again).

`objective` is True when the model maximises something; a stopped run with an incumbent is
then `feasible`, not `solved`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from ..core.errors import InputError
from ..core.result import Solution


class Unsupported(InputError):
    """A capability the compiled model does not offer; `why` says what to use instead."""

    def __init__(self, model: object, capability: str, why: str = ""):
        super().__init__(f"{capability} is not supported by this model ({type(model).__name__})"
                         + (f": {why}" if why else ""))


class CompiledModel(ABC):
    objective: bool = False
    lazy = ""  # the rules a runner adds while solving (`violated_cuts`), for export notes
    export_notes: Sequence[str] = ()  # what a file of the model says about it (its region)

    @abstractmethod
    def decode(self, value: Callable[[Any], Any]) -> Solution:
        """The solution the solver's values encode; `value(variable)` reads one."""

    def impose(self, partial: Solution) -> None:
        """Keep only the solutions that extend `partial` (added constraints)."""
        raise Unsupported(self, "imposing a partial assignment")

    def suggest(self, solution: Solution) -> None:
        """Start the search from `solution` (a hint; it replaces any earlier one)."""
        raise Unsupported(self, "suggesting a solution (a hint)")

    def forbid(self, solution: Solution) -> None:
        """Exclude exactly `solution` (a nogood), so that a new solve finds another."""
        raise Unsupported(self, "forbidding a solution (counting)")
