"""One engine per algorithm, in two builds: each compiled core (`_name.c`, an optional
extension) has one Python reference implementation beside it. The reference is what runs
when the core was not built (an install without a C compiler, see tests/test_no_compiler.py)
and the oracle the tests hold the core to: for a fixed seed both walk the same tree, count
the same boards or draw the same numbers.

ENGINES below is the one list of them; the tests keep it true: every optional core in
pyproject.toml is listed, every reference exists and says which core it implements, and
every oracle test named here exists. `_deadline.c` alone has no reference: without it the
watchdog thread keeps the time limit (core/limits.py).
"""

from __future__ import annotations

import ast
import importlib
import tomllib
from array import array
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_no_compiler import CORES

from tilesolve.families.edgematch import search
from tilesolve.families.edgematch.generate import generate

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Engine:
    core: str  # the compiled module, under tilesolve.families
    reference: str  # module:qualified name of its Python reference implementation
    oracles: tuple[str, ...]  # tests (file::function) that hold the core to the reference


ENGINES = (
    Engine("edgematch._rowscan", "edgematch.search:PySearcher",
           ("test_edgematch_rowscan_order.py::test_c_and_python_walk_the_same_tree",
            "test_edgematch_lookahead.py::test_c_and_python_walk_the_same_pruned_tree",
            "test_edgematch_treesize.py::test_the_compiled_core_walks_each_order_like_the_python_loop")),
    Engine("edgematch._rowscan", "edgematch.search:_shuffle",
           ("test_engines.py::test_the_shuffle_reference_draws_the_cores_order",)),
    Engine("edgematch._rowscan", "edgematch.treesize:_Prober",
           ("test_edgematch_treesize.py::test_the_compiled_estimate_draws_the_python_paths",)),
    Engine("edgematch._breakscan", "edgematch.breakscan:py_step",
           ("test_edgematch_hybrid.py::test_python_and_c_break_searches_walk_the_same_tree",
            "test_edgematch_eii_rule.py::test_c_core_and_python_loop_walk_the_same_tree_under_the_eii_rule")),
    # the annealing reference draws from numpy's generator, not the core's, and breaks ties
    # by one draw where the core draws once per tie: the same moves, not the same boards. Its
    # oracle is the checker and enumeration, each test run on both engines.
    Engine("edgematch._anneal", "edgematch.anneal:py_run",
           ("test_edgematch_anneal.py::test_anneal_finds_the_enumerated_optimum_of_a_3x3",
            "test_edgematch_anneal.py::test_claimed_scores_are_the_checkers_and_fixed_pieces_stay",
            "test_edgematch_anneal.py::test_three_cycles_count_their_change_exactly_and_keep_a_permutation",
            "test_edgematch_anneal.py::test_weighted_chain_when_hot_still_counts_its_score_exactly")),
    Engine("tantrix._loopscan", "tantrix.search:PyLoop",
           ("test_tantrix_search.py::test_engines_walk_the_same_tree",)),
    Engine("tantrix._linewalk", "tantrix.linewalk:PyWalk",
           ("test_tantrix_search.py::test_walk_engines_agree",)),
    Engine("magichex._postea", "magichex.post_ea:PostRun._step_numpy",
           ("test_magichex_post_ea.py::test_compiled_loop_equals_the_numpy_loop",)),
    # like the annealing: the reference breaks ties by numpy's draws, the core by its own
    Engine("magichex._tabu", "magichex.tabu:_numpy_search",
           ("test_magichex.py::test_the_compiled_tabu_step_makes_a_best_swap_as_the_numpy_step_does",
            "test_magichex.py::test_the_tabu_search_keeps_the_givens_and_its_cost_honest",
            "test_magichex.py::test_the_tabu_search_counts_every_swap_it_scores")),
)


def reference(engine: Engine):
    module, name = engine.reference.split(":")
    obj = importlib.import_module(f"tilesolve.families.{module}")
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def test_every_optional_core_is_listed_with_a_reference():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    modules = project["tool"]["setuptools"]["ext-modules"]
    assert all(m.get("optional") for m in modules)  # no compiler: the install still works
    built = {m["name"] for m in modules}
    listed = {f"tilesolve.families.{e.core}" for e in ENGINES}
    assert built == listed | {"tilesolve.core._deadline"}
    # the no-compiler test hides exactly these cores
    assert set(CORES) == {name.rsplit(".", 1)[1] for name in built}


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.reference)
def test_each_reference_names_the_core_it_implements(engine):
    doc = reference(engine).__doc__ or ""
    assert doc.startswith(f"Reference implementation of `{engine.core.split('.')[1]}"), doc


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.reference)
def test_each_oracle_test_exists(engine):
    for oracle in engine.oracles:
        path, name = oracle.split("::")
        tree = ast.parse((ROOT / "tests" / path).read_text(encoding="utf-8"))
        names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert name in names, oracle


@pytest.mark.skipif(search._rowscan is None, reason="the compiled core is not built")
@pytest.mark.parametrize("seed", [1, 7, 2**64 - 1])
def test_the_shuffle_reference_draws_the_cores_order(seed):
    inst, planted = generate(6, 6, seed=4)
    tables = search.RowscanTables(inst, hint={(2, 3): planted[2, 3], (0, 1): planted[0, 1]})
    assert any(tables.keep)  # the hints stay first in their buckets
    before = [list(col) for col in tables.columns]
    core = tuple(array("i", col) for col in tables.columns)
    ref = tuple(array("i", col) for col in tables.columns)
    search._rowscan.shuffle(tables.start, tables.keep, *core, seed & search.MASK64)
    search._shuffle(tables.start, tables.keep, ref, seed & search.MASK64)
    assert [list(c) for c in core] == [list(c) for c in ref]
    assert [list(c) for c in core] != before  # the seed really moved entries
    assert all(c[i] == b[i] for c, b in zip(core, before, strict=True)
               for i, k in enumerate(tables.keep) if k)
    start = tables.start
    for b in range(len(start) - 1):  # each bucket holds the same entries, reordered
        lo, hi = start[b], start[b + 1]
        rows = sorted(zip(*(c[lo:hi] for c in core), strict=True))
        assert rows == sorted(zip(*(c[lo:hi] for c in before), strict=True))
