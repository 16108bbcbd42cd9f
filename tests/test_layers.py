"""The layering: `core/` imports nothing above it (no backend, family, hybrid or API module)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import tilesolve.core

CORE = Path(tilesolve.core.__file__).parent


def _imported(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a core module, those inside functions
    too, and of every module named by a constant passed to importlib.import_module."""
    package = "tilesolve.core"
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
