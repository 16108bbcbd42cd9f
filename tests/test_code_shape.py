"""Every function in the package fits on a screen and a half and every class stays one idea:
no function (nested ones counted on their own, and inside their parent) over 80 lines, no
class over 300."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "tilesolve"
MOST = {ast.FunctionDef: 80, ast.AsyncFunctionDef: 80, ast.ClassDef: 300}


def too_long(source: str, name: str) -> list[str]:
    """`file:line name: N lines (most M)` for each function or class of `source` over its
    limit; decorators are not counted, docstrings and comments are."""
    found = []
    for node in ast.walk(ast.parse(source)):
        most = MOST.get(type(node))
        if most is not None and node.end_lineno - node.lineno + 1 > most:
            lines = node.end_lineno - node.lineno + 1
            found.append(f"{name}:{node.lineno} {node.name}: {lines} lines (most {most})")
    return found


def test_the_measure_counts_lines_from_def_to_last_line():
    body = "\n".join(f"    x{i} = {i}" for i in range(80))
    assert too_long(f"def f():\n{body}\n", "m.py") == ["m.py:1 f: 81 lines (most 80)"]
    assert too_long(f"def f():\n{body[:body.rindex(chr(10))]}\n", "m.py") == []
    def cls(n: int) -> str:  # a class line, then three lines per method less the last blank
        return "class C:\n" + "\n".join(f"    def m{i}(self):\n        return {i}\n"
                                         for i in range(n))

    assert too_long(cls(100), "m.py") == []
    assert too_long(cls(101), "m.py") == ["m.py:1 C: 303 lines (most 300)"]


def test_no_function_over_80_lines_and_no_class_over_300():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found += too_long(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE)))
    assert found == []
