"""What a command loads at start-up: only what it uses. Every module imported is CPU time of
every run (NumPy alone 0.2 CPU s here), which the whole-process timings of the search count."""

from __future__ import annotations

import subprocess
import sys

from conftest import INSTANCES

HEAVY = ("ortools", "pulp", "pysat", "highspy", "numpy", "networkx", "matplotlib", "rich",
         "dask")


def _loaded_after(code: str) -> list[str]:
    """Heavy packages and tilesolve family packages in sys.modules after `code`, run in a
    fresh interpreter."""
    probe = (
        "import sys\n" + code + "\n"
        f"heavy = {HEAVY!r}\n"
        "names = {m.split('.')[0] for m in sys.modules if m.split('.')[0] in heavy}\n"
        "names |= {'.'.join(m.split('.')[:3]) for m in sys.modules\n"
        "          if m.startswith('tilesolve.families.')}\n"
        "print(sorted(names))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=60, check=True)
    return eval(out.stdout.strip())  # noqa: S307 - a list of names printed by our own probe


def test_the_command_line_module_loads_no_solver_and_no_family():
    assert _loaded_after("import tilesolve.cli") == []


def test_reading_an_edge_matching_file_loads_that_family_only():
    code = ("from tilesolve.core.family import load_instance\n"
            f"fam, inst = load_instance({str(INSTANCES / 'e2_4x4.txt')!r})\n"
            "assert fam.name == 'edgematch' and inst.n == 16\n")
    assert _loaded_after(code) == ["tilesolve.families.edgematch"]


def test_the_search_backend_loads_no_solver_library_and_no_numpy():
    code = ("from tilesolve.core.family import get_family\n"
            "get_family('edgematch').backend('search')\n")
    assert _loaded_after(code) == ["tilesolve.families.edgematch"]
