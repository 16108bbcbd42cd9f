"""The one place that says which families and backends exist, and what each serves.

Two kinds of declaration, one of each per thing:

- `Backend`: the object a family's backend module ends with (`BACKEND = Backend(...)`): its
  command-line name, options table, the objectives it scores, and its `solve`, `count` and
  `build` (the model an export writes). Fields it lacks are None: nothing is found by probing.
- `FAMILIES` and `BACKENDS` below: which families are installed, which backends each one has
  (the module that holds each one's `BACKEND`), the objectives each family scores and whether
  it generates instances. This is data, read without importing any family or solver: the
  command line builds its `--backend` and `--objective` choices from it at start-up, and a
  command that loaded a family or a solver library it does not use would pay for it (NumPy
  alone 0.2 CPU s, OR-Tools 0.8 s; tests/test_startup_imports.py).

A new family is one `FamilyEntry` here and its package (families/TEMPLATE/README.md);
tests/test_family_contract.py then runs every declared backend of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .options import Options


@dataclass(frozen=True)
class Backend:
    """One family's backend, declared at the bottom of its module: `BACKEND = Backend(...)`.

    `solve(instance, SolveOptions) -> Outcome`; `count` the same for --count (None: the
    backend cannot count); `build(instance, SolveOptions)` the compiled model its runner
    solves, which `tilesolve export` writes (None: nothing to export); `objectives` the
    --objective names it scores; `presets` the named settings --preset picks (GAs); `problem`
    a GA's one entry point, `ga_problem(instance, opts, preset) -> GAProblem`, which `solve`
    runs (`backends.ga.ga_backend` declares both)."""

    name: str
    options: Options
    solve: Callable[..., Any]
    objectives: tuple[str, ...] = ()
    count: Callable[..., Any] | None = None
    build: Callable[..., Any] | None = None
    presets: Mapping[str, Any] | None = None
    problem: Callable[..., Any] | None = None


@dataclass(frozen=True)
class BackendKind:
    """A backend name the command line takes, the module that implements it in a family
    package, whether it solves a declared model (CP-SAT, MILP, CNF: the `export` and
    `run-model` backends) and the export kinds that model is written as."""

    name: str
    module: str
    model: bool = False
    exports: tuple[str, ...] = ()
    summary: str = ""


@dataclass(frozen=True)
class FamilyEntry:
    """An installed family: its package `tilesolve.families.<package>`, the objectives it
    scores (--objective), its backends (names of `BACKENDS`) and whether it generates."""

    name: str
    objectives: tuple[str, ...] = ()
    backends: tuple[str, ...] = ()
    generates: bool = False
    package: str = ""  # default: the name

    @property
    def module_path(self) -> str:
        return f"tilesolve.families.{self.package or self.name}"


BACKENDS: dict[str, BackendKind] = {k.name: k for k in (
    BackendKind("cpsat", "cpsat", model=True, exports=("cpsat",),
                summary="OR-Tools CP-SAT on the family's model"),
    BackendKind("milp", "milp", model=True, exports=("lp", "mps", "mzn"),
                summary="a MILP through PuLP (HiGHS or CBC)"),
    BackendKind("sat", "cnf", model=True, exports=("cnf",),
                summary="a CNF through python-sat"),
    BackendKind("ga", "ga", summary="a genetic algorithm"),
    BackendKind("search", "search", summary="the family's own tree search"),
    BackendKind("lns", "lns", summary="large-neighbourhood search"),
    BackendKind("memetic", "memetic", summary="a memetic pool of local searches"),
)}
RACES = ("portfolio",)  # --backend names that race the backends above (tilesolve.dispatch)

FAMILIES: dict[str, FamilyEntry] = {f.name: f for f in (
    FamilyEntry("edgematch", ("matches",),
                ("cpsat", "milp", "sat", "ga", "search", "lns", "memetic"), generates=True),
    FamilyEntry("tantrix", ("longest",), ("cpsat", "milp", "sat", "ga", "search", "lns")),
    FamilyEntry("hidato", (), ("cpsat", "milp", "sat", "ga"), generates=True),
    FamilyEntry("magichex", (), ("cpsat", "milp", "sat", "ga", "search")),
)}


def model_backends() -> tuple[str, ...]:
    """The backends that solve a declared model: what `export` writes and races prove with."""
    return tuple(k.name for k in BACKENDS.values() if k.model)


def export_sources() -> dict[str, str]:
    """Export kind -> the backend whose model it writes."""
    return {kind: k.name for k in BACKENDS.values() for kind in k.exports}


def objectives() -> tuple[str, ...]:
    """Every --objective some family scores, in declaration order."""
    return tuple(dict.fromkeys(o for f in FAMILIES.values() for o in f.objectives))


def families_with(backend: str) -> list[str]:
    return [f.name for f in FAMILIES.values() if backend in f.backends]


def register(entry: FamilyEntry) -> None:
    """Add a family (a package outside this list: a plug-in, or the template in tests)."""
    unknown = [b for b in entry.backends if b not in BACKENDS]
    if unknown:
        raise ValueError(f"{entry.name}: unknown backends {unknown}; expected some of "
                         f"{', '.join(BACKENDS)}")
    FAMILIES[entry.name] = entry


def unregister(name: str) -> None:
    FAMILIES.pop(name, None)
