"""The package works without its compiled cores, as after `pip install .` on a machine with no
C compiler (the cores are optional extensions): each search engine falls back to its Python
loop and still gives verified answers.

A child process hides every compiled core (`tilesolve.*._name` extension modules) with an
import hook, so the test is the same whether or not this checkout has built them.
`scripts/check_wheel.py` builds the wheel itself with and without a compiler.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORES = ("_rowscan", "_breakscan", "_anneal", "_loopscan", "_linewalk", "_postea", "_tabu",
         "_deadline")

HIDE_CORES = f"""
import importlib.abc, sys
class NoCompiledCores(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.startswith("tilesolve.") and name.rsplit(".", 1)[-1] in {CORES!r}:
            raise ImportError("no compiled core: " + name)
        return None
sys.meta_path.insert(0, NoCompiledCores())
"""


def run_hidden(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", HIDE_CORES + code], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)


def test_import_hook_really_hides_the_cores():
    proc = run_hidden("import tilesolve.families.edgematch._rowscan")
    assert proc.returncode != 0
    assert "no compiled core: tilesolve.families.edgematch._rowscan" in proc.stderr


def test_every_search_engine_falls_back_to_python():
    code = """
import json
from tilesolve.families.edgematch import search as em, breakscan, anneal
from tilesolve.families.tantrix import search as tx, linewalk
from tilesolve.families.magichex import post_ea, tabu
from tilesolve.core import limits
print(json.dumps([em._rowscan, breakscan._breakscan, anneal._anneal, tx._loopscan,
                  linewalk._linewalk, post_ea._postea, tabu._tabu, limits._deadline]))
"""
    proc = run_hidden(code)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [None] * 8


def test_solves_without_the_cores_are_verified():
    cases = [
        ("instances/e2_5x5.txt", "search", "solved"),
        ("instances/tantrix_discovery_10.txt", "search", "solved"),
        ("instances/tantrix_super_professor.txt", "search", "solved"),  # the line walk
        ("instances/magichex_3.txt", "search", "solved"),
        ("instances/magichex_4_3.txt", "cpsat", "solved"),  # from the numpy tabu search's board
    ]
    code = """
import json, sys
from tilesolve.cli import main
sys.argv = ["tilesolve", "solve", sys.argv[1], "--backend", sys.argv[2], "--json",
            "--threads", "1", "-t", "120"]
main()
"""
    for path, backend, status in cases:
        proc = subprocess.run([sys.executable, "-c", HIDE_CORES + code, path, backend],
                              capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert proc.returncode == 0, (path, proc.stderr)
        data = json.loads(proc.stdout)
        assert data["status"] == status, (path, data)
        assert data["verified"] is True, (path, data)
        if "engine" in data.get("stats", {}):
            assert data["stats"]["engine"] == "python", (path, data["stats"])
        if "tabu_engine" in data.get("stats", {}):
            assert data["stats"]["tabu_engine"] == "numpy", (path, data["stats"])
