"""The seam every puzzle family implements, and the registry that finds a family for a file.

A family package `tilesolve.families.<name>` exposes `FAMILY`, an instance of a `Family`
subclass (module `family`), and keeps its files and rules in modules named alike in every family:

- `instance`: the instance type;
- `parse`: `read_instance(path, fmt=None, text=None)`, `parse_solution(instance, recs, path)`
  and `solution_from_json(instance, data, path)`;
- `format`: `format_instance(instance, comment="")`, `format_solution(instance, solution)` and
  `solution_json(instance, solution)`;
- `check`: `verify(instance, solution, objective=None) -> Report`.

`Family` reads, writes and checks through those modules. Backends live beside them as modules
(`cpsat`, `milp`, `cnf`, `ga`, ...), each ending with its declaration `BACKEND = Backend(...)`
(core.registry: options table, objectives, solve, count, build); core.registry lists which
family has which backend, so a module is imported only when its backend runs, and a missing
solver library never breaks the other backends.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Hashable
from pathlib import Path
from types import ModuleType
from typing import Any

from .errors import InputError
from .options import Option, Options
from .registry import BACKENDS, FAMILIES, RACES, Backend, FamilyEntry, model_backends
from .report import Report
from .result import Solution
from .textfile import Record, as_url, checked_text, read_text, records, source_stem

EXACT_BACKENDS = model_backends()
# options every backend takes from the program, never from the command line
# (the Python API's solver_params: a backend's solver's own parameters, by the backend's name)
PROGRAM_OPTIONS = Options(Option("cpsat", dict, help="CP-SAT parameters", internal=True),
                          Option("milp", dict, help="HiGHS's or CBC's options", internal=True),
                          Option("sat", dict, help="python-sat's configure()", internal=True))


class Family:
    """Base class: parsing, formatting, verification and backend lookup for one puzzle."""

    name: str = ""
    options = Options()  # options that change the instance, taken by every backend
    # what each objective's score counts, as printed beside it ("matched joins 362/480")
    objective_counts: dict[str, str] = {}

    @property
    def entry(self) -> FamilyEntry:
        """The family's declaration in core.registry."""
        return FAMILIES[self.name]

    @property
    def objectives(self) -> tuple[str, ...]:
        """The --objective names the family scores (declared in core.registry)."""
        return self.entry.objectives

    @property
    def backends(self) -> tuple[str, ...]:
        """The family's backends (declared in core.registry), none imported."""
        return self.entry.backends

    @property
    def optimisation(self) -> bool:
        """Has an optimisation mode (--objective)."""
        return bool(self.objectives)

    def check_objective(self, objective: str | None) -> None:
        """One line when the family does not score this objective."""
        if objective and objective not in self.objectives:
            expected = (f"; expected {' or '.join(self.objectives)}" if self.objectives
                        else "")
            raise InputError(f"--objective {objective} is not supported by the {self.name} "
                             f"family{expected}")

    def objective_backends(self, instance) -> tuple[str, ...]:
        """The portfolio's lanes for --objective on this instance; () = the usual race."""
        return ()

    def objective_default(self, instance) -> str:
        """The backend of an --objective solve without -b: the portfolio of
        `objective_backends` when the family names them, else CP-SAT."""
        return "portfolio" if self.objective_backends(instance) else "cpsat"

    def island_backends(self, instance) -> tuple[str, ...]:
        """The methods islands take turns with for --objective (default: the portfolio's)."""
        return self.objective_backends(instance)

    def prepare(self, instance, params: dict):
        """The instance as the (validated) options shape it; default: unchanged."""
        return instance

    # --- reading -------------------------------------------------------------------------
    def sniff(self, recs: list[Record], text: str) -> bool:
        """Does this file belong to the family? Default: the first line names it."""
        return bool(recs) and recs[0].tokens[0].lower() == self.name

    def read_instance(self, path: str | Path, fmt: str | None = None, text: str | None = None):
        return self.part("parse").read_instance(path, fmt, text)

    def parse_solution_text(self, instance, recs: list[Record], path: str) -> Solution:
        return self.part("parse").parse_solution(instance, recs, path)

    def solution_from_json(self, instance, data: dict, path: str) -> Solution:
        return self.part("parse").solution_from_json(instance, data, path)

    def read_solution(self, instance, path: str | Path, fmt: str | None = None) -> Solution:
        """A solution file: the family's text format, its JSON, or a `solve --json` result."""
        text = read_text(path)
        if text.lstrip().startswith("{"):
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InputError(f"invalid JSON: {exc.msg}", path, exc.lineno) from None
            except RecursionError:
                raise InputError("JSON nested too deeply; expected a solution object", path,
                                 1) from None
            if isinstance(data, dict) and isinstance(data.get("solution"), dict):
                data = data["solution"]
            if not isinstance(data, dict):
                raise InputError("expected a JSON object holding a solution", path, 1)
            return self.solution_from_json(instance, data, str(path))
        return self.parse_solution_text(instance, records(path, text), str(path))

    # --- writing -------------------------------------------------------------------------
    def format_instance(self, instance, comment: str = "") -> str:
        """The instance in the family's file format (what `read_instance` reads back)."""
        return self.part("format").format_instance(instance, comment)

    def format_solution(self, instance, solution: Solution) -> str:
        return self.part("format").format_solution(instance, solution)

    def solution_json(self, instance, solution: Solution) -> dict:
        return self.part("format").solution_json(instance, solution)

    def draw_text(self, instance, solution: Solution) -> str:
        """A terminal drawing of the board; default: the solution file text."""
        return self.format_solution(instance, solution)

    def legend(self, instance) -> str:
        """One line saying how to read `draw_text`'s board (what `piece/rot` means)."""
        return ""

    # --- checking ------------------------------------------------------------------------
    def verify(self, instance, solution: Solution, objective: str | None = None) -> Report:
        return self.part("check").verify(instance, solution, objective)

    def canonical(self, instance, solution: Solution) -> Hashable:
        """A key equal for solutions that are the same up to the puzzle's symmetries."""
        return frozenset(solution.items())

    def info(self, instance) -> dict[str, Any]:
        return {"family": self.name}

    def model_units(self, instance, growing: bool = False) -> tuple[int, str] | None:
        """The size the family's exact models grow with, counted without building anything
        (core.bounds.MODEL_COST prices it), and those counts in words; None: not estimated.
        `growing`: for a solve, which may start on a smaller model than an export writes."""
        return None

    def check_model(self, instance, kind: str, memory: float | None = None,
                    growing: bool = False) -> None:
        """Refuse in one line, with its estimate, a model (an export kind, or a backend when
        `growing`: a solve) that would take more than the memory budget (`memory` GB,
        core.bounds.memory_budget)."""
        from .bounds import EXPORT_FACTOR, check_model, memory_budget

        check_model(self.name, kind, self.model_units(instance, growing), memory_budget(memory),
                    1.0 if growing else EXPORT_FACTOR)

    def precheck(self, instance, objective: str | None = None) -> str | None:
        """Why the puzzle has no solution, if a count anyone can check shows it; else None.

        Runs before any solver, so such puzzles are reported infeasible with the reason, at
        once. The family's `precheck` module holds the counts; none means nothing to check."""
        try:
            mod = importlib.import_module(f"{self.entry.module_path}.precheck")
        except ModuleNotFoundError as exc:
            if exc.name == f"{self.entry.module_path}.precheck":
                return None
            raise
        return mod.reason(instance, objective)

    # --- the family's modules -----------------------------------------------------------
    def part(self, name: str) -> ModuleType:
        """One of the modules every family has (parse, format, check)."""
        return importlib.import_module(f"{self.entry.module_path}.{name}")

    # --- backends and tools --------------------------------------------------------------
    def backend(self, name: str) -> Backend:
        """The declared backend `name` of this family (its module imported now)."""
        if name not in BACKENDS:
            raise InputError(f"unknown backend {name!r}; expected one of "
                             f"{', '.join([*BACKENDS, *RACES])}")
        if name not in self.backends:
            raise InputError(f"the {self.name} family has no {name} backend")
        mod = importlib.import_module(f"{self.entry.module_path}.{BACKENDS[name].module}")
        return mod.BACKEND

    def backend_options(self, backend: str) -> Options:
        """Every option the backend takes: the family's, the backend's own table, and the
        program's own."""
        return Options(self.options, self.backend(backend).options, PROGRAM_OPTIONS)

    def module(self, name: str) -> ModuleType:
        """An optional tool module of the family (render, generate, export)."""
        try:
            return importlib.import_module(f"{self.entry.module_path}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{self.entry.module_path}.{name}":
                raise InputError(f"the {self.name} family does not support {name}") from None
            raise


def family_names() -> tuple[str, ...]:
    """The families core.registry declares, in its order (none imported)."""
    return tuple(FAMILIES)


def installed(name: str) -> Family | None:
    """The declared family package `name` when it is installed, imported only now: reading an
    edge-matching file once imported all four, Hidato's NumPy among them (0.24 CPU s)."""
    path = FAMILIES[name].module_path
    try:
        mod = importlib.import_module(path)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(path):
            return None
        raise
    return mod.FAMILY


def families() -> dict[str, Family]:
    """Every family package that is installed, by name."""
    found = {name: installed(name) for name in family_names()}
    return {name: fam for name, fam in found.items() if fam is not None}


def get_family(name: str) -> Family:
    fam = installed(name) if name in FAMILIES else None
    if fam is None:
        raise InputError(f"unknown family {name!r}; expected one of {', '.join(families())}")
    return fam


def load_instance(path: str | Path, fmt: str | None = None, family: str | None = None):
    """Read an instance file or URL, choosing the family by its first line.
    Returns (family, instance)."""
    url = as_url(path)
    if url is not None:
        fam, inst = load_text(read_text(url), url, fmt, family)
        if hasattr(inst, "name"):
            inst.name = source_stem(url)  # not the URL's query string
        return fam, inst
    return load_text(read_text(path), path, fmt, family)


def load_text(text: str, path: str | Path, fmt: str | None = None, family: str | None = None):
    """Read an instance from its text; `path` names it in errors. Returns (family, instance)."""
    recs = records(path, checked_text(text, path))
    if not recs:
        raise InputError("empty file; expected a header naming the puzzle family", path)
    if family is not None:
        fam = get_family(family)
        return fam, fam.read_instance(path, fmt, text)
    head = recs[0].tokens[0].lower()
    named = installed(head) if head in FAMILIES else None
    if named is not None:
        return named, named.read_instance(path, fmt, text)
    for name in family_names():  # a file without its family's name: the first that claims it
        fam = installed(name)
        if fam is not None and fam.sniff(recs, text):
            return fam, fam.read_instance(path, fmt, text)
    fams = families()
    raise recs[0].error(
        f"unknown header {recs[0].tokens[0]!r}; expected one of {', '.join(fams)} "
        "(or a bare 'W H' edge-matching header)"
    )
