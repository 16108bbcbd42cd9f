"""Which backends race, and how many threads each may use on this machine.

The rule: CP-SAT workers plus one per other process must not exceed the cores, CP-SAT never
gets fewer than one worker. Every other backend is single-threaded in the race.
"""

from __future__ import annotations

import importlib.util
import os

from ..core.errors import InputError
from ..core.family import BACKEND_MODULES, EXACT_BACKENDS, Family

# race order when the user names none: the exact solvers that are strongest on most puzzles
# (CP-SAT, our own tree searches), the GA, then the rest
DEFAULT_ORDER = ("cpsat", "search", "ga", "sat", "milp")


def available(family: Family) -> list[str]:
    """Backends the family implements, in race order.

    Found without importing them (solver libraries take seconds to import, and each lane
    imports its own); a module that exists but fails to import becomes that lane's error.
    """
    return [name for name in DEFAULT_ORDER if has_backend(family, name)]


def has_backend(family: Family, name: str) -> bool:
    mod = BACKEND_MODULES.get(name)
    try:
        return mod is not None and importlib.util.find_spec(
            f"tilesolve.families.{family.name}.{mod}") is not None
    except ModuleNotFoundError:
        return False


def choose(family: Family, requested: str | None, cores: int,
           objective: str | None = None, instance=None) -> list[str]:
    """The racing backends: the requested list (validated), else as many as the cores allow
    (for an objective, the family's `objective_backends` when it names them)."""
    have = [n for n in BACKEND_MODULES if has_backend(family, n)]
    if requested:
        names = [n.strip() for n in requested.split(",") if n.strip()]
        for n in names:
            if n not in BACKEND_MODULES:
                raise InputError(
                    f"unknown backend {n!r} in --backends; expected some of "
                    f"{', '.join(BACKEND_MODULES)}"
                )
            if n not in have:
                raise InputError(f"the {family.name} family has no {n} backend")
        if not names:
            raise InputError("--backends is empty; expected e.g. cpsat,ga")
        return list(dict.fromkeys(names))
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


def seconds(params: dict, key: str, default: float) -> float:
    """A positive number of seconds from the options (`--key S`), else `default`."""
    raw = params.get(key)
    if raw is None:
        return default
    try:
        val = float(raw)
    except (TypeError, ValueError):
        val = -1.0
    if not val > 0:  # NaN too
        raise InputError(f"--{key.replace('_', '-')} must be a positive number of seconds, "
                         f"got {raw!r}")
    return val


def exact(backends: list[str]) -> list[str]:
    return [b for b in backends if b in EXACT_BACKENDS]


def check_params(family: Family, backends: list[str], params: dict,
                 own: tuple[str, ...] = (), run: str = "portfolio") -> None:
    """An option no racing backend accepts is a mistake (when every backend lists its own);
    `own`: the options of the `run` itself (the portfolio's, the islands')."""
    accepted: set[str] = set(own) | {"cpsat", "solver"} | set(family.instance_params)
    if not set(params) - accepted:
        return  # nothing to check: spare the solver imports
    for b in backends:
        names = getattr(family.backend_module(b), "PARAMS", None)
        if names is None:
            return
        accepted |= set(names)
    unknown = sorted(set(params) - accepted)
    if unknown:
        raise InputError(
            f"unknown option(s) {', '.join('--' + u.replace('_', '-') for u in unknown)} for "
            f"the {run} of {', '.join(backends)}; expected "
            + ", ".join("--" + a.replace("_", "-") for a in sorted(accepted - {"cpsat"}))
        )
