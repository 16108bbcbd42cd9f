"""Which backends race, and how many threads each may use on this machine.

The rule: CP-SAT workers plus one per other process must not exceed the cores, CP-SAT never
gets fewer than one worker. Every other backend is single-threaded in the race.
"""

from __future__ import annotations

import os

from ..core.errors import InputError
from ..core.family import EXACT_BACKENDS, PROGRAM_OPTIONS, Family
from ..core.options import Options
from ..core.registry import BACKENDS

# race order when the user names none: the exact solvers that are strongest on most puzzles
# (CP-SAT, our own tree searches), the GA, then the rest
DEFAULT_ORDER = ("cpsat", "search", "ga", "sat", "milp")


def available(family: Family) -> list[str]:
    """Backends the family declares (core.registry), in race order.

    None is imported here (solver libraries take seconds to import, and each lane imports its
    own); a module that fails to import becomes that lane's error.
    """
    return [name for name in DEFAULT_ORDER if has_backend(family, name)]


def has_backend(family: Family, name: str) -> bool:
    return name in family.backends


def choose(family: Family, requested: str | None, cores: int,
           objective: str | None = None, instance=None) -> list[str]:
    """The racing backends: the requested list (validated), else as many as the cores allow
    (for an objective, the family's `objective_backends` when it names them)."""
    have = [n for n in BACKENDS if has_backend(family, n)]
    if requested:
        names = [n.strip() for n in requested.split(",") if n.strip()]
        for n in names:
            if n not in BACKENDS:
                raise InputError(
                    f"unknown backend {n!r} in --backends; expected some of "
                    f"{', '.join(BACKENDS)}"
                )
            if n not in have:
                raise InputError(f"the {family.name} family has no {n} backend")
        if not names:
            raise InputError("--backends is empty; expected e.g. cpsat,ga")
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:  # lanes are named by backend: a second one was dropped without a word
            raise InputError(f"--backends names {', '.join(twice)} more than once; a backend "
                             "races in one lane (with --objective the adaptive rule gives it "
                             "more cores once it pays)")
        return names
    preferred = [b for b in family.objective_backends(instance) if has_backend(family, b)] \
        if objective and instance is not None else []
    if objective and preferred:
        return preferred[: max(1, cores)]
    default = available(family)
    if not default:
        raise InputError(f"the {family.name} family has no backend to race")
    return default[: max(3, cores)]


def cores(requested: int = 0) -> int:
    return max(1, requested or os.cpu_count() or 1)


def threads(backends: list[str], total: int) -> dict[str, int]:
    """Threads per backend: every process but CP-SAT gets one, CP-SAT the rest (at least 1)."""
    others = sum(1 for b in backends if b != "cpsat")
    return {b: max(1, total - others) if b == "cpsat" else 1 for b in backends}


def exact(backends: list[str]) -> list[str]:
    return [b for b in backends if b in EXACT_BACKENDS]


def check_params(family: Family, backends: list[str], params: dict, own: Options,
                 run: str = "portfolio") -> dict:
    """The `run`'s own options (the portfolio's, the islands') validated, defaults filled in.

    Every other option goes to the lanes: it must be one that some racing backend takes, with
    a value valid for each backend that takes it (each lane validates its share again with
    `Family.backend_options(...).pick`); one line otherwise."""
    base = Options(own, family.options, PROGRAM_OPTIONS)
    if set(params) - set(base.names()):  # spare the solver imports when there is no need
        tables = [family.backend_options(b) for b in backends]
        Options(base, *tables).validate(params, f"the {run} of {', '.join(backends)}")
        lanes = {k: v for k, v in params.items() if k not in own}
        for table in tables:
            table.pick(lanes)
    return own.pick(params)
