"""The layering, bottom up: `core/` imports nothing above it; `backends/` (solver runners)
only core; `families/` no hybrid, dispatch, API or command line; `hybrid/` no dispatch, API or
command line; and the lab (lab/) only the public `tilesolve` API and its own runner
`experiment`, less the scripts in LAB_ALLOWED, which shrinks as they are converted."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import tilesolve.core

CORE = Path(tilesolve.core.__file__).parent
PACKAGE = CORE.parent
LAB = PACKAGE.parents[1] / "lab"


def _imported(path: Path, package: str = "tilesolve.core") -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a module of `package`, those inside
    functions too, and of every module named by a constant passed to importlib.import_module."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            if name == "tilesolve":  # `from tilesolve import bench`: a module, not the API
                out += [(node.lineno, f"tilesolve.{alias.name}") for alias in node.names
                        if alias.name not in tilesolve.__all__]
                if all(alias.name not in tilesolve.__all__ for alias in node.names):
                    continue
            out.append((node.lineno, name))
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant)):
            out.append((node.lineno, str(node.args[0].value)))
    return out


def test_core_modules_import_nothing_above_core():
    modules = sorted(CORE.glob("*.py"))
    assert len(modules) > 10  # the walk found the package
    upward = [f"{p.name}:{line} imports {name}" for p in modules for line, name in _imported(p)
              if name.split(".")[0] == "tilesolve" and not name.startswith("tilesolve.core")]
    assert upward == []


def test_the_walk_sees_an_upward_import_inside_a_function(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from ..hybrid.portfolio import solve_portfolio\n")
    assert _imported(probe) == [(2, "tilesolve.hybrid.portfolio")]


def test_importing_every_core_module_loads_nothing_above_core():
    names = [f"tilesolve.core.{p.stem}" for p in sorted(CORE.glob("*.py"))
             if p.stem != "__init__"]
    code = (
        "import importlib, sys, tilesolve\n"
        "before = set(sys.modules)\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in set(sys.modules) - before\n"
        "             if m.startswith('tilesolve.') and not m.startswith('tilesolve.core')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def _package_of(path: Path) -> str:
    return ".".join(("tilesolve", *path.parent.relative_to(PACKAGE).parts))


def _imports_in(layer: str) -> list[tuple[str, str]]:
    """(file:line, module) of every tilesolve import in the layer's modules."""
    found = []
    for p in sorted((PACKAGE / layer).rglob("*.py")):
        found += [(f"{p.relative_to(PACKAGE)}:{line}", name)
                  for line, name in _imported(p, _package_of(p))
                  if name.split(".")[0] == "tilesolve"]
    return found


# layer -> the tilesolve packages it may import
MAY_IMPORT = {
    "backends": ("tilesolve.core", "tilesolve.backends"),
    "families": ("tilesolve.core", "tilesolve.backends", "tilesolve.families"),
    "hybrid": ("tilesolve.core", "tilesolve.backends", "tilesolve.hybrid"),
}


@pytest.mark.parametrize("layer", sorted(MAY_IMPORT))
def test_each_layer_imports_only_the_layers_below_it(layer):
    found = _imports_in(layer)
    assert len(found) > 10  # the walk read the layer
    allowed = MAY_IMPORT[layer]
    upward = [f"{where} imports {name}" for where, name in found
              if not any(name == a or name.startswith(a + ".") for a in allowed)]
    assert upward == []


def test_a_family_importing_the_hybrid_layer_is_seen(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("from ...hybrid import race\n")
    assert _imported(probe, "tilesolve.families.edgematch") == [(1, "tilesolve.hybrid")]


def test_a_module_imported_from_the_package_is_not_the_public_api(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("from tilesolve import load, dispatch\nfrom tilesolve import Status\n")
    assert _imported(probe, "lab") == [(1, "tilesolve.dispatch"), (1, "tilesolve"),
                                       (2, "tilesolve")]


def _public(name: str) -> bool:
    """`tilesolve`, or a module its `__all__` lists (`tilesolve.bench`)."""
    parts = name.split(".")
    return parts[0] == "tilesolve" and (len(parts) == 1 or parts[1] in tilesolve.__all__)


def test_a_public_module_is_the_public_api(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("from tilesolve import bench\nfrom tilesolve.bench import run_one\n"
                     "from tilesolve.backends import ga\n")
    assert [name for _, name in _imported(probe, "lab") if not _public(name)] == [
        "tilesolve.backends"]


# lab files that still reach past the public API: file -> (the areas it uses, why). Converting
# a script to `tilesolve.load(...).solve(...)` removes its line; a new one may not be added.
PROBE = "probes a family's internals (its engines and models), not a solve"
PAPER = "studies readings of a paper on the GA engine's own operators"
LAB_ALLOWED = {
    "scripts/anneal_probe.py": ({"tilesolve.core", "tilesolve.families.edgematch"}, PROBE),
    "scripts/e2_rate.py": ({"tilesolve.core", "tilesolve.families.edgematch"}, PROBE),
    "scripts/magichex_repair_probe.py": ({"tilesolve.families.magichex"}, PROBE),
    "scripts/kino_uno_paper.py": ({"tilesolve.core", "tilesolve.families.tantrix"},
                                  "the paper-shaped boards' shape measures (two-neighbour "
                                  "places, the record condition) come from the challenge "
                                  "module, which no public call gives"),
    "scripts/niang_readings.py": ({"tilesolve.backends", "tilesolve.core",
                                   "tilesolve.families.edgematch"}, PAPER),
    "scripts/plateau_rows.py": ({"tilesolve.core", "tilesolve.families.edgematch"}, PROBE),
    "scripts/probe_dasilva_class1.py": ({"tilesolve.backends", "tilesolve.core",
                                         "tilesolve.families.hidato"}, PROBE),
    "scripts/rowscan_seeds.py": ({"tilesolve.core", "tilesolve.families.edgematch"}, PROBE),
    "scripts/tantrix_compact_shapes.py": ({"tilesolve.core", "tilesolve.families.tantrix"},
                                          PROBE),
    "scripts/tree_estimate.py": ({"tilesolve.families.edgematch"}, PROBE),
}


def _area(name: str) -> str:
    """tilesolve.families.edgematch.parse -> tilesolve.families.edgematch; tilesolve.core.x ->
    tilesolve.core."""
    parts = name.split(".")
    return ".".join(parts[:3] if parts[1] == "families" else parts[:2])


def test_the_lab_imports_only_the_public_api_and_its_runner():
    """`import tilesolve` / `from tilesolve import ...`, the modules `tilesolve.__all__` lists
    (`tilesolve.bench`) and the lab's `experiment` only; the allow-list must shrink as
    scripts are converted, never grow."""
    files = sorted(LAB.rglob("*.py"))
    assert len(files) > 20
    private = {}
    for p in files:
        areas = {_area(name) for _, name in _imported(p, "lab")
                 if name.startswith("tilesolve.") and not _public(name)}
        if areas:
            private[str(p.relative_to(LAB))] = areas
    assert private == {path: areas for path, (areas, _) in LAB_ALLOWED.items()}
