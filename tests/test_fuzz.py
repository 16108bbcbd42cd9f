"""Fuzzing every reader: malformed and odd-but-legal text never ends in anything but a parsed
puzzle or one InputError naming the file (and a line inside it); tiny puzzles are solved or
proved infeasible, and both answers are confirmed by trying every arrangement.

The default profile runs a few dozen cases per reader; `HYPOTHESIS_PROFILE=fuzz pytest -m fuzz`
runs thousands (the `fuzz` marker selects this file's tests, the profile sets the count).
"""

from __future__ import annotations

import itertools
import os
import tempfile
from pathlib import Path

import pytest
from conftest import E2_DATA, INSTANCES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tilesolve.core.errors import InputError
from tilesolve.core.family import load_instance
from tilesolve.core.result import SolveOptions
from tilesolve.dispatch import solve_file
from tilesolve.families.edgematch.format import board_url

pytestmark = pytest.mark.fuzz

settings.register_profile("default", max_examples=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

SEEDS = [INSTANCES / n for n in ("e2_4x4.txt", "hidato_19_01.txt", "hidato_square_8x8_holes.txt",
                                 "magichex_3.txt", "magichex_4_3.txt", "tantrix_discovery_05.txt",
                                 "tantrix_challenge_10.txt", "tantrix_pyramid_1.txt")]
SEEDS += [p for p in (E2_DATA / "heule_em_7_3_6.txt", E2_DATA / "brendan" / "pieces_05x05.txt")
          if p.exists()]
TEXTS = {p.name: p.read_text() for p in SEEDS}


def _url_text() -> str:
    _, inst = load_instance(INSTANCES / "e2_4x4.txt")
    return board_url(inst, {}) + "\n"


TEXTS["e2_url.txt"] = _url_text()

ODD_TOKENS = st.sampled_from([
    "0", "-1", "1000000000", "1000000001", "9223372036854775808", "1e3", "1.5", "nan", "٣",
    "３", "+2", "1_0", "", "#", "x", "--", "/", "1/", "/1", "0/9", "any", "loop", "cell", "fixed",
    "tiles", "1-", "-5", "56-1", "1-57", "goal", "shape", "first", ".", "##", "\t", "\u00a0",
])


@st.composite
def mutated(draw) -> tuple[str, str]:
    """(seed name, a text derived from a shipped puzzle by a few random edits)."""
    name = draw(st.sampled_from(sorted(TEXTS)))
    lines = TEXTS[name].splitlines()
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["token", "drop", "dup", "swap", "cut", "blank", "comment"]))
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        if op == "token":
            toks = lines[i].split(" ")
            j = draw(st.integers(0, len(toks) - 1))
            toks[j] = draw(ODD_TOKENS | st.text(max_size=6))
            lines[i] = " ".join(toks)
        elif op == "drop":
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "swap":
            k = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[k] = lines[k], lines[i]
        elif op == "cut":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
            del lines[i + 1:]
        elif op == "blank":
            lines.insert(i, draw(st.sampled_from(["", "   ", "\t"])))
        else:
            lines.insert(i, "# " + draw(st.text(max_size=10)).replace("\n", " "))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    bom = draw(st.sampled_from(["", "\ufeff"]))
    return name, bom + newline.join(lines) + draw(st.sampled_from(["", newline]))


def _write(text: str) -> Path:
    fd, name = tempfile.mkstemp(suffix=".txt", prefix="fuzz_")
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    return Path(name)


def _check_error(exc: InputError, path: Path, text: str) -> None:
    assert exc.message and exc.path == str(path)
    if exc.line is not None:
        assert 1 <= exc.line <= max(1, len(text.splitlines()) + 1), (exc.line, str(exc))


@given(mutated())
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_readers_parse_or_name_the_fault(case):
    _, text = case
    path = _write(text)
    try:
        family, inst = load_instance(path)
    except InputError as exc:
        _check_error(exc, path, text)
        return
    finally:
        path.unlink()
    family.info(inst)  # never solver-sized work, never an exception
    family.precheck(inst)


SOLVED: dict[str, tuple[str, str]] = {}


def _solution_text(name: str) -> tuple[str, str]:
    """A verified solution of a small seed puzzle, as text (computed once)."""
    if name not in SOLVED:
        path = _write(TEXTS[name])
        try:
            family, inst = load_instance(path)
            res = solve_file(path, "cpsat", SolveOptions(time_limit=60, threads=1))
            sol = family.solution_from_json(inst, res.solution, "<result>")
            SOLVED[name] = (TEXTS[name], family.format_solution(inst, sol))
        finally:
            path.unlink()
    return SOLVED[name]


@given(st.sampled_from(["e2_4x4.txt", "hidato_19_01.txt", "magichex_3.txt",
                        "tantrix_discovery_05.txt"]), st.data())
def test_solution_readers_and_verify(name, data):
    inst_text, sol_text = _solution_text(name)
    lines = sol_text.splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    toks = lines[i].split()
    if toks:
        j = data.draw(st.integers(0, len(toks) - 1))
        toks[j] = data.draw(ODD_TOKENS)
    lines[i] = " ".join(toks)
    ipath, spath = _write(inst_text), _write("\n".join(lines) + "\n")
    try:
        family, inst = load_instance(ipath)
        try:
            sol = family.read_solution(inst, spath)
        except InputError as exc:
            _check_error(exc, spath, "\n".join(lines))
            return
        report = family.verify(inst, sol)
        assert report.ok or report.violations
    finally:
        ipath.unlink()
        spath.unlink()


# --- tiny puzzles: the solver's answer against trying every arrangement ---------------------
def _edgematch_2x2(colours: list[int]) -> str:
    a, b, c, d = colours  # the four inner joins of a 2x2 board: top, right, bottom, left
    pieces = [(0, a, d, 0), (0, 0, b, a), (c, 0, 0, b), (d, c, 0, 0)]
    return "edgematch 2 2\n" + "".join(" ".join(map(str, p)) + "\n" for p in pieces)


def _brute_force_solvable(path: Path) -> bool:
    family, inst = load_instance(path)
    if family.name == "edgematch":
        cells = inst.cells()
        for perm in itertools.permutations(range(1, inst.n + 1)):
            for rots in itertools.product(range(4), repeat=inst.n):
                sol = {c: (p, r) for c, p, r in zip(cells, perm, rots, strict=True)}
                if family.verify(inst, sol).ok:
                    return True
        return False
    cells = inst.cells
    for perm in itertools.permutations(range(1, inst.n + 1)):
        if family.verify(inst, dict(zip(cells, perm, strict=True))).ok:
            return True
    return False


@given(st.one_of(
    st.lists(st.integers(1, 3), min_size=4, max_size=4).map(_edgematch_2x2),
    st.lists(st.sampled_from([".", ".", ".", "1", "2", "4", "7", "#"]), min_size=7,
             max_size=7).map(lambda t: f"hidato hex 2\n {t[0]} {t[1]}\n{t[2]} {t[3]} {t[4]}\n"
                                       f" {t[5]} {t[6]}\n"),
))
@settings(max_examples=int(os.environ.get("FUZZ_TINY", "15")))
def test_tiny_puzzles_answers_match_exhaustive_search(text):
    path = _write(text)
    try:
        try:
            load_instance(path)
        except InputError:
            return  # e.g. a given twice: bad input, nothing to solve
        res = solve_file(path, "cpsat", SolveOptions(time_limit=30, threads=1))
        assert res.status.value in ("solved", "infeasible"), res.stats
        assert (res.status.value == "solved") == _brute_force_solvable(path)
        if res.status.value == "solved":
            assert res.verified
    finally:
        path.unlink()
