"""The lab stays beside the product: the package holds none of it, and lab/README.md lists
every script and names only scripts that exist."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import tilesolve

LAB = Path(__file__).resolve().parents[1]
PACKAGE = Path(tilesolve.__file__).resolve().parent


def test_the_package_holds_no_lab_code():
    assert importlib.util.find_spec("tilesolve.reproduce") is None
    users = [p.name for p in PACKAGE.rglob("*.py")
             if re.search(r"^\s*(import|from) experiment\b", p.read_text(), re.M)]
    assert users == []


def test_the_readme_lists_every_script_and_only_real_ones():
    text = (LAB / "README.md").read_text()
    named = set(re.findall(r"`([a-z0-9_]+\.py)`", text))
    named |= set(re.findall(r"lab/scripts/([a-z0-9_]+\.py)", text))
    scripts = {p.name for p in (LAB / "scripts").glob("*.py")}
    assert scripts - {"experiment.py"} <= named  # every lab script is described
    repo_tools = {p.name for p in (LAB.parent / "scripts").glob("*.py")}
    assert named <= scripts | repo_tools  # and every name is a file that exists
    pages = re.findall(r"\]\(((?:reproductions|pages)/[^)]+)\)", text)
    assert len(pages) >= 9 and all((LAB / page).is_file() for page in pages)
