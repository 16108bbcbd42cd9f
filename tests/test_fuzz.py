"""Fuzzing every reader: malformed and odd-but-legal text never ends in anything but a parsed
puzzle or one InputError naming the file (and a line inside it); tiny puzzles are solved or
proved infeasible, and both answers are confirmed by trying every arrangement.

The command itself is fuzzed too, each run a real subprocess within 2 GB of address space:
instance paths that are FIFOs, devices, directories, sparse huge files, names too long or OS
errors, and outputs that cannot be written (one line, exit 2); files and header counts near
and over every bound of core/bounds.py (exit 2 naming the file and line, exit 3 by counting,
never exit 1 or a traceback); a signal at a random moment of a portfolio run (nothing left
behind); and small random Tantrix puzzles, on which every backend that decides agrees.

The default profile runs a few cases per test; `HYPOTHESIS_PROFILE=fuzz pytest -m fuzz` runs
thousands (the `fuzz` marker selects this file's tests, the profile sets the count; `CASES`
below the count of each test that starts processes).
"""

from __future__ import annotations

import itertools
import json
import os
import tempfile
from pathlib import Path

import pytest
from conftest import E2_DATA, INSTANCES, popen_cli
from fuzzing import SIGNALS, answers, one_line_error, one_status, run, signal_and_check, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tilesolve.core.bounds import (
    MAX_BYTES,
    MAX_COLOUR,
    MAX_HIDATO_CELLS,
    MAX_INT,
    MAX_LINE_CHARS,
    MAX_LINES,
    MAX_MAGICHEX_ORDER,
    MAX_TANTRIX_TILES,
)
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


# --- the command line on odd paths, sizes and counts, under 2 GB -------------------------
LONG = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"
# (default, fuzz) cases of the tests that start processes: the fuzz profile's ten minutes
CASES = {"paths": (4, 100), "outputs": (3, 100), "sizes": (3, 40), "counts": (6, 120),
         "signals": (1, 20), "agree": (2, 40)}


def cases(name: str) -> settings:
    return settings(max_examples=CASES[name][LONG])


DEVICES = ["/dev/zero", "/dev/urandom", "/dev/null", "/dev/full", "/dev/tty"]
COMMANDS = [("solve", "-t", "2"), ("info",), ("render", "-o", "{tmp}/b.svg"),
            ("export", "--to", "lp", "-o", "{tmp}/m.lp"), ("verify", "{path}")]


def _odd_path(kind: str, size: int, tmp: Path) -> Path:
    """An instance path of the given kind inside `tmp` (or a device)."""
    path = tmp / "p.txt"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    elif kind == "sparse":
        with open(path, "wb") as fh:
            fh.truncate(size)  # zeros without disk: over the byte bound or one line too long
    elif kind == "long-name":
        path = tmp / ("x" * (256 + size % 4096))  # over NAME_MAX (255), under ARG_MAX
    elif kind == "missing":
        path = tmp / "no" / "p.txt"
    elif kind == "proc":
        path = Path("/proc/self/mem")
    else:
        path = Path(kind)
    return path


def _command(words: tuple, path: Path, tmp: Path) -> list[str]:
    """The command line with the instance (the argument before a verify's solution)."""
    args = [w.format(tmp=tmp, path=path) for w in words]
    return [args[0], str(path), *args[1:]]


@given(st.sampled_from(["fifo", "directory", "sparse", "long-name", "missing", "proc",
                        *DEVICES]),
       st.integers(256, 50 * MAX_BYTES), st.sampled_from(COMMANDS))
@cases("paths")
def test_odd_instance_paths_are_one_line_of_bad_input(kind, size, command):
    if kind == "/dev/tty" and not os.path.exists(kind):
        return
    with tempfile.TemporaryDirectory(prefix="fuzz_") as tmp:
        path = _odd_path(kind, size, Path(tmp))
        line = one_line_error(run(*_command(command, path, Path(tmp)), timeout=120))
        assert str(path) in line, line
        assert not list(Path(tmp).glob("[bm].*")), "an output written from bad input"


OUTPUTS = ["{tmp}", "{tmp}/" + "y" * 300 + ".txt", "/dev/full", "/dev/null", "/proc/self/mem/x",
           "{tmp}/file.txt/x.txt", "/sys/x.txt", "/proc/x.txt"]


@given(option=st.sampled_from(["-o", "--render", "--log-jsonl"]),
       target=st.sampled_from(OUTPUTS))
@cases("outputs")
def test_unwritable_outputs_are_refused_before_the_solve(option, target, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("out")
    (tmp / "file.txt").write_text("a file, not a folder\n")
    target = target.format(tmp=tmp)
    if option == "--log-jsonl" and target.startswith("/dev/"):
        return  # a log may go to a device (/dev/stderr)
    r = run("solve", INSTANCES / "e2_4x4.txt", option, target, "-t", "30")
    line = one_line_error(r)
    assert "solved" not in r.stdout, "the solve ran before its output was checked"
    assert target.split("/x")[0].split("/y")[0] in line, line


# Files at, just under and just over each bound on the text: (what grows, its bound)
TEXT_BOUNDS = {"bytes": MAX_BYTES, "lines": MAX_LINES, "line": MAX_LINE_CHARS}


def _padded(base: str, what: str, total: int) -> str:
    """`base` (a puzzle) with comment lines added to reach `total` bytes, lines or
    characters on its longest line."""
    if what == "line":
        return base + "#" + "x" * (total - 1) + "\n"
    if what == "lines":
        return base + "#\n" * (total - len(base.splitlines()))
    pad = total - len(base.encode())
    lines, rest = divmod(pad, 100)
    return base + ("#" + "x" * 98 + "\n") * lines + ("#" * (rest - 1) + "\n" if rest else "")


@given(st.sampled_from(sorted(TEXT_BOUNDS)), st.integers(-2, 2),
       st.sampled_from(["e2_4x4.txt", "tantrix_discovery_05.txt", "magichex_3.txt"]))
@cases("sizes")
def test_files_at_each_text_bound_are_read_or_refused_exactly(what, offset, name):
    bound = TEXT_BOUNDS[what]
    text = _padded((INSTANCES / name).read_text(), what, bound + offset)
    with tempfile.TemporaryDirectory(prefix="fuzz_") as tmp:
        path = Path(tmp) / name
        path.write_text(text)
        r = run("info", path, timeout=120)
    if offset <= 0:
        assert r.returncode == 0, (what, offset, r.stderr[-300:])
    else:
        line = one_line_error(r)
        assert f"at most {bound:,} (README: Limits)" in line, (what, offset, line)


def _tantrix(tiles: int, shape: str) -> str:
    full, rest = divmod(tiles, 56)
    lines = ["tantrix", *["tiles 1-56"] * full, *([f"tiles 1-{rest}"] if rest else []), shape]
    return "\n".join(lines) + "\n"


def _near(bound: int) -> st.SearchStrategy[int]:
    return st.integers(max(1, bound - 3), bound + 3)


# A header near and over each family's bound: (text, the limit it tests or None)
HEADERS = st.one_of(
    st.tuples(_near(MAX_TANTRIX_TILES), st.sampled_from(["shape free", "shape board"])).map(
        lambda t: (_tantrix(*t), MAX_TANTRIX_TILES)),
    st.tuples(st.integers(1, 60), st.one_of(_near(MAX_INT), st.integers(1, 20))).map(
        lambda t: (_tantrix(t[0], f"shape triangle {t[1]}"), MAX_INT)),
    st.tuples(_near(MAX_COLOUR), st.integers(0, MAX_COLOUR)).map(
        lambda t: (_edgematch_2x2([1, 1, 1, 1]).replace("0 1 1 0", f"{t[1]} 1 1 {t[0]}"),
                   MAX_COLOUR)),
    st.tuples(_near(MAX_INT), _near(2)).map(
        lambda t: (f"edgematch {t[0]} {t[1]}\n0 0 1 1\n", MAX_INT)),
    st.tuples(st.integers(56, 60)).map(lambda t: (f"hidato hex {t[0]}\n", MAX_HIDATO_CELLS)),
    st.tuples(_near(100), _near(100)).map(
        lambda t: (f"hidato square {t[0]} {t[1]}\n", MAX_HIDATO_CELLS)),
    st.tuples(_near(MAX_MAGICHEX_ORDER), st.one_of(_near(MAX_INT), st.integers(-9, 9))).map(
        lambda t: (f"magichex {t[0]} first {t[1]}\n", MAX_MAGICHEX_ORDER)),
)


@given(HEADERS, st.sampled_from([("info",), ("solve", "-t", "2", "--json"),
                                 ("solve", "-t", "2", "-b", "cpsat")]))
@cases("counts")
def test_counts_near_each_bound_end_in_an_answer_or_one_line(header, command):
    text, _bound = header
    with tempfile.TemporaryDirectory(prefix="fuzz_") as tmp:
        path = Path(tmp) / "counts.txt"
        path.write_text(text)
        r = run(command[0], path, *command[1:], timeout=120)
    assert r.returncode in (0, 2, 3, 4), (text[:200], command, r.returncode, r.stderr[-500:])
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    if r.returncode == 2:
        line = one_line_error(r)
        assert f"error: {path}" in line, line
        if "(README: Limits)" in line or "out of range" in line:
            assert f"error: {path}:" in line, line  # a count's line is named


# --- a signal at a random moment -----------------------------------------------------------
@given(st.sampled_from(sorted(SIGNALS)), st.floats(0.0, 3.0))
@cases("signals")
def test_a_signal_at_a_random_moment_leaves_nothing(how, delay):
    import time
    import uuid

    sig, code = SIGNALS[how]
    tag = uuid.uuid4().hex
    with tempfile.TemporaryDirectory(prefix="fuzz_") as tmp:
        proc = popen_cli("solve", "instances/e2_8x8.txt", "--backend", "portfolio",
                         "--backends", "cpsat,milp", "-t", "20", "--json", tag=tag,
                         env={"TMPDIR": tmp})
        # an answer before the signal is the run's own exit (0, 4): no signal came in time;
        # death by the signal itself (-sig) is its first moments, while Python imports the
        # package, before any handler can be set (README: Time limits)
        out, err = signal_and_check(proc, sig, (code, 0, 4, -sig), tag, Path(tmp),
                                    lambda: time.sleep(delay))
    assert "leaked" not in err, err
    assert "Traceback" not in err or proc.returncode == -sig, err
    if proc.returncode >= 0:
        assert json.loads(out)["status"] in ("interrupted", "solved", "timeout"), out


# --- small random Tantrix puzzles: every backend that decides agrees -----------------------
@st.composite
def tantrix_puzzles(draw) -> str:
    """A few tiles, an optional goal, on a free shape or a small board (cells of a 4x4
    patch of the hex grid, as many as the tiles or one off)."""
    tiles = draw(st.lists(st.integers(1, 56), min_size=1, max_size=4, unique=True))
    lines = ["tantrix", "tiles " + " ".join(map(str, sorted(tiles)))]
    if draw(st.booleans()):
        kind = draw(st.sampled_from(["loop", "line"]))
        lines.append(f"goal {kind} {draw(st.sampled_from(['red', 'yellow', 'blue', 'green']))}")
    if draw(st.booleans()):
        return "\n".join([*lines, "shape free"]) + "\n"
    count = max(1, len(tiles) + draw(st.sampled_from([0, 0, 0, -1, 1])))
    cells = draw(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=count,
                          max_size=count, unique=True))
    return "\n".join([*lines, "shape board", *(f"cell {q} {r}" for q, r in cells)]) + "\n"


@given(tantrix_puzzles())
@cases("agree")
def test_every_backend_that_decides_a_small_tantrix_puzzle_agrees(text):
    path = write(text, "fuzz_")
    try:
        # tiny puzzles: a timeout (a loaded machine) decides nothing and is allowed
        found = answers(path, exact_limit=10, heuristic_limit=1)
    finally:
        path.unlink()
    one_status(found, exact_decide=False)
