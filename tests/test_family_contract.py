"""What every family promises, run over core.registry: a family added there (or the template,
families/TEMPLATE, registered here as a fifth) is tested by these without a line of its own.

Every family parses its shipped instances and writes them back the same; every declared
backend solves the family's smallest instance and the answer passes the checker; every model
it declares exports; every declaration matches its module; every GA is one entry point run
by the engine's one answer path."""

from __future__ import annotations

import functools
import importlib
import inspect
import json
from pathlib import Path

import pytest
from conftest import INSTANCES

import tilesolve.families
from tilesolve.core import registry
from tilesolve.core.family import get_family, load_instance
from tilesolve.core.options import Options
from tilesolve.core.result import SolveOptions, Status
from tilesolve.core.solve import backend_params, solve_backend

TEMPLATE = registry.FamilyEntry("latin", backends=("cpsat",), package="TEMPLATE")
ENTRIES = [*registry.FAMILIES.values(), TEMPLATE]
PAIRS = [(e, b) for e in ENTRIES for b in e.backends]
GAS = [e for e in ENTRIES if "ga" in e.backends]
EXPORTS = [(e, kind) for e in ENTRIES for b in e.backends for kind in registry.BACKENDS[b].exports]
PROVEN = ("cpsat", "search")  # solve every small instance within seconds; the others may not


def _id(value) -> str:
    return value.name if isinstance(value, registry.FamilyEntry) else str(value)


@pytest.fixture(autouse=True)
def template_registered():
    registry.register(TEMPLATE)
    yield
    registry.unregister(TEMPLATE.name)


@functools.cache
def shipped() -> dict[str, list[Path]]:
    """The instance files shipped for each family: instances/ and each package's own examples,
    by the family that reads them (the template registered by the fixture)."""
    package = Path(tilesolve.families.__file__).parent
    by_family: dict[str, list[Path]] = {}
    for path in sorted([*INSTANCES.glob("*.txt"), *package.glob("*/*.txt")]):
        fam, _ = load_instance(path)
        by_family.setdefault(fam.name, []).append(path)
    return by_family


@functools.cache
def puzzle_size(path: Path) -> tuple[int, str]:
    """The length of the instance as its family writes it (comments do not count: by file
    size a commented 100-tile Tantrix came before the 4-tile Discovery puzzle, and its runs
    cost 5 s each)."""
    fam, inst = load_instance(path)
    return len(fam.format_instance(inst)), path.name


def by_size(entry: registry.FamilyEntry) -> list[Path]:
    return sorted(shipped()[entry.name], key=puzzle_size)


def solve_smallest(entry: registry.FamilyEntry, backend: str):
    """The backend's run on the family's smallest shipped instance it takes (a backend may
    refuse a kind of puzzle in one line: the MILP a Tantrix loop of any colour)."""
    from tilesolve.core.errors import InputError

    limit = 30 if backend in PROVEN else 5
    for path in by_size(entry)[:10]:
        fam, inst = load_instance(path)
        budget = {}
        if backend not in PROVEN and "steps" in {o.name for o in fam.backend(backend).options}:
            # a step budget in place of the limit: Tantrix's lns, which cannot know its best
            # loop is the longest there is, would run out all of the 5 s
            limit, budget = None, {"steps": "5"}
        # an optimiser that takes no plain solve (lns, memetic) runs for the family's objective
        for objective in (None, *fam.backend(backend).objectives):
            try:
                return fam, inst, solve_backend(fam, inst, path.name, backend, SolveOptions(
                    time_limit=limit, seed=1, threads=1, objective=objective, params=budget))
            except InputError:
                continue
    raise AssertionError(f"{entry.name} --backend {backend} took none of the small instances")


def test_the_registry_declares_the_four_families_and_their_backends():
    assert {e.name: len(e.backends) for e in registry.FAMILIES.values() if e != TEMPLATE} == {
        "edgematch": 7, "tantrix": 6, "hidato": 4, "magichex": 5}
    assert len(PAIRS) == 23 and len(EXPORTS) == 21


@pytest.mark.parametrize("entry", ENTRIES, ids=_id)
def test_every_family_parses_its_shipped_instances_and_writes_them_back(entry):
    files = shipped()[entry.name]
    assert files
    fam = get_family(entry.name)
    for path in files:
        _, inst = load_instance(path)
        text = fam.format_instance(inst)
        again = fam.read_instance(path, None, text)
        assert fam.format_instance(again) == text, path.name


@pytest.mark.parametrize("entry,backend", PAIRS, ids=_id)
def test_every_declaration_matches_its_module(entry, backend):
    fam = get_family(entry.name)
    declared = fam.backend(backend)
    assert declared.name == backend
    assert isinstance(declared.options, Options) and all(o.help for o in declared.options)
    assert set(declared.objectives) <= set(entry.objectives)
    kind = registry.BACKENDS[backend]
    assert (declared.build is not None) == bool(kind.exports)
    if kind.model:
        assert declared.count is not None  # every model backend counts
    # the table lists what the backend accepts: its defaults validate, a misspelling does not
    defaults = backend_params(fam, backend, {})
    assert backend_params(fam, backend, defaults) == defaults
    with pytest.raises(Exception, match="unknown option"):
        backend_params(fam, backend, {"no_such_option_x": "1"})


@pytest.mark.parametrize("entry,backend", PAIRS, ids=_id)
def test_every_declared_backend_solves_a_small_instance_and_the_checker_agrees(entry, backend):
    fam, inst, res = solve_smallest(entry, backend)
    if backend in PROVEN:
        assert res.status == Status.SOLVED, (entry.name, backend, res.status)
    if res.status in (Status.SOLVED, Status.FEASIBLE):  # the gate's verdict, and the checker's
        assert res.verified
        assert fam.verify(inst, fam.solution_from_json(inst, res.solution, "json")).ok


@pytest.mark.parametrize("entry,kind", EXPORTS, ids=_id)
def test_every_declared_export_writes(entry, kind, tmp_path):
    from tilesolve.backends.export import export, map_path_of
    from tilesolve.core.errors import InputError

    path = tmp_path / f"model.{kind}"
    for small in by_size(entry)[:10]:  # the smallest instance the model takes
        fam, inst = load_instance(small)
        try:
            said = export(fam, inst, kind, path)
            break
        except InputError:
            continue
    assert said.startswith("wrote ")
    assert path.stat().st_size > 0
    data = json.loads(map_path_of(path).read_text())
    assert data["family"] == entry.name and data["variables"] > 0


def test_a_family_missing_a_backend_says_so_in_one_line():
    from tilesolve.core.errors import InputError

    with pytest.raises(InputError, match="^the hidato family has no search backend$"):
        get_family("hidato").backend("search")


@pytest.mark.parametrize("entry", GAS, ids=_id)
def test_every_ga_is_one_entry_point_run_by_the_engines_answer_path(entry):
    """The GA seam: a family's ga.py declares `ga_problem(instance, opts, preset) ->
    GAProblem` and its backend's solve is backends/ga.py's `solve_problem` over it; every
    preset builds a GAProblem on the smallest instance, and a 2-generation run is answered by
    the shared rule (solved, or BUDGET for the generation budget)."""
    from tilesolve.backends import ga as engine

    module = importlib.import_module(entry.module_path + ".ga")
    declared = get_family(entry.name).backend("ga")
    assert declared is module.BACKEND and declared.problem is module.ga_problem
    assert list(inspect.signature(module.ga_problem).parameters)[1:] == ["opts", "preset"]
    assert declared.solve.func is engine.solve_problem
    assert declared.solve.args == (module.ga_problem, declared.presets)
    fam, inst = load_instance(by_size(entry)[0])
    for preset in declared.presets:
        problem = module.ga_problem(inst, SolveOptions(seed=1), preset)
        assert isinstance(problem, engine.GAProblem)
        assert (problem.encoding is None) == (problem.runner is not None)
    res = solve_backend(fam, inst, "small", "ga", SolveOptions(seed=1, params={"generations": "2"}))
    assert res.status in (Status.SOLVED, Status.BUDGET), res.status
    assert res.stats["generations"] <= 2 and res.stats["evaluations"] > 0
    if res.status == Status.BUDGET:
        assert res.stats["stop_reason"] == "generations"
