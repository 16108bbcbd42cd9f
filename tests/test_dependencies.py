"""What tilesolve asks of its dependencies: none of their deprecated API from our code (PuLP
3.3 deprecates what PuLP 4 removes), version ranges rather than exact pins, and the test
suite's setting that turns a warning raised from our modules into an error."""

from __future__ import annotations

import os
import warnings
from importlib import metadata

import pytest
from conftest import INSTANCES
from packaging.requirements import Requirement

from tilesolve.backends import milp as milp_runner
from tilesolve.core.family import load_instance
from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.edgematch import milp as em_milp
from tilesolve.families.hidato import milp as hidato_milp
from tilesolve.families.magichex import milp as magichex_milp
from tilesolve.families.tantrix import check as tantrix_check
from tilesolve.families.tantrix import milp as tantrix_milp

# one small instance per MILP model: each builds its variables and its solver object
CASES = [
    (em_milp, "e2_4x4.txt", {"solver": "cbc"}, Status.SOLVED),
    (em_milp, "e2_4x4.txt", {"solver": "highs"}, Status.SOLVED),
    (hidato_milp, "hidato_19_01.txt", {"solver": "cbc"}, Status.SOLVED),
    (tantrix_milp, "tantrix_discovery_04.txt", {"solver": "cbc"}, Status.SOLVED),
    (tantrix_milp, "tantrix_challenge_5.txt", {"model": "kino-uno"}, Status.SOLVED),
]


def _solve(module, inst, params: dict, **kwargs):
    opts = SolveOptions(threads=1, time_limit=120, params=params, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every warning, whoever raises it
        return module.solve(inst, opts)


@pytest.mark.parametrize(("module", "name", "params", "status"), CASES,
                         ids=[f"{m.__name__.split('.')[-2]}-{p}" for m, _, p, _ in CASES])
def test_milp_models_use_no_deprecated_pulp_api(module, name, params, status):
    _family, inst = load_instance(INSTANCES / name)
    assert _solve(module, inst, params).status == status


@pytest.mark.parametrize("solver", ["cbc", "highs"])
def test_magichex_and_tantrix_score_models_use_no_deprecated_pulp_api(tmp_path, solver):
    # order 2 has no magic hexagon: the solver proves it on 7 cells
    _family, hexagon = load_instance(write(tmp_path, "h.txt", "magichex 2 first 0\n"))
    assert _solve(magichex_milp, hexagon, {"solver": solver}).status == Status.INFEASIBLE
    three = "tantrix\ntiles 1-3\ngoal line red\nshape board\ncell 0 0\ncell 1 -1\ncell 1 0\n"
    _family, trio = load_instance(write(tmp_path, "t.txt", three))
    out = _solve(tantrix_milp, trio, {"solver": solver}, objective="longest")
    assert out.status == Status.SOLVED and round(out.objective) == 3  # one red line, 3 tiles
    assert tantrix_check.verify(trio, out.solution, "longest").score == 3


def write(folder, name: str, text: str):
    path = folder / name
    path.write_text(text)
    return path


def test_cbc_is_found_without_pulps_deprecated_solver_class():
    path = milp_runner.cbc_path()
    assert os.access(path, os.X_OK), path


def test_requirements_are_ranges_not_pins():
    exact = [r for r in map(Requirement, metadata.requires("tilesolve") or [])
             if any(s.operator in ("==", "===") for s in r.specifier)]
    assert exact == []


def test_a_warning_from_our_code_fails_the_suite():
    """pyproject's filterwarnings: raised from a tilesolve module it is an error, and so is a
    PuLP deprecation (PuLP attributes them to its own line); another dependency's own warning
    stays a warning (theirs to fix)."""
    with pytest.raises(DeprecationWarning):
        warnings.warn_explicit("old", DeprecationWarning, "milp.py", 1,
                               module="tilesolve.backends.milp")
    with pytest.raises(UserWarning):
        warnings.warn_explicit("odd", UserWarning, "api.py", 1, module="tilesolve.api")
    with pytest.raises(DeprecationWarning, match="PuLP 4.0"):
        import pulp

        pulp.LpVariable("x")
    with warnings.catch_warnings(record=True) as seen:
        warnings.warn_explicit("theirs", DeprecationWarning, "nx.py", 1, module="networkx.x")
    assert [str(w.message) for w in seen] == ["theirs"]
