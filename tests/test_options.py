"""Options are declared in one table per backend, generator and race, validated by one rule on
every path (a misspelt one refused with the valid names, on/off read the same everywhere) and
listed by `tilesolve options`; an imposed board is never contradicted by a symmetry pin: every
backend with a pin accepts a solution in each of its orientations."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import INSTANCES, run_cli, wait_for

from tilesolve.core.errors import InputError
from tilesolve.core.options import parse_switch, switch
from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.edgematch import cpsat as em_cpsat
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.family import FAMILY
from tilesolve.families.edgematch.parse import read_instance


@pytest.mark.parametrize("text,value", [("on", True), ("TRUE", True), ("yes", True), ("1", True),
                                        ("off", False), ("False", False), ("no", False),
                                        ("0", False), (True, True), (False, False)])
def test_switch_values(text, value):
    assert parse_switch(text) is value
    assert switch({"x": text}, "x", not value) is value


def test_switch_default_and_bad_value():
    assert switch({}, "no_symmetry", False) is False
    with pytest.raises(InputError, match=r"--no-symmetry must be on or off, got 'maybe'"):
        switch({"no_symmetry": "maybe"}, "no_symmetry", False)


def constraints(model) -> int:
    return len(model.model.Proto().constraints)


def test_no_symmetry_false_keeps_symmetry_breaking():
    inst = read_instance(INSTANCES / "e2_5x5.txt")
    sizes = {v: constraints(em_cpsat.build(inst, SolveOptions(params=p)))
             for v, p in (("default", {}), ("false", {"no_symmetry": "false"}),
                          ("true", {"no_symmetry": "true"}))}
    assert sizes["false"] == sizes["default"] > sizes["true"]


def turned(sol: dict, n: int) -> dict:
    """The board turned a quarter clockwise: cell (r, c) goes to (c, n-1-r), each piece turns."""
    return {(c, n - 1 - r): (p, (rot + 1) % 4) for (r, c), (p, rot) in sol.items()}


@pytest.mark.parametrize("backend", ["cpsat", "milp", "sat", "search"])
def test_an_imposed_board_is_accepted_in_every_orientation(backend):
    inst = read_instance(INSTANCES / "e2_4x4.txt")
    mod = FAMILY.backend(backend)
    first = mod.solve(inst, SolveOptions(time_limit=60, threads=1))
    assert first.status == Status.SOLVED
    board = first.solution
    for quarter in range(4):
        assert verify(inst, board).ok, quarter
        # all but one cell imposed: the backend must complete it, pin or no pin
        part = dict(list(board.items())[1:])
        out = mod.solve(inst, SolveOptions(time_limit=60, threads=1, fix=part))
        assert out.status == Status.SOLVED, (backend, quarter)
        assert out.solution == board
        board = turned(board, inst.width)


@pytest.mark.parametrize("backend", ["milp", "sat", "cpsat"])
def test_a_limit_shorter_than_model_building_ends_the_build(backend):
    # the 16x16 models take 3-5 CPU s to build; the limit covers building
    proc = run_cli("solve", INSTANCES / "e2_16x16.txt", "-b", backend, "-t", "0.5", "--json")
    out = json.loads(proc.stdout)
    assert proc.returncode == 4 and out["status"] == "timeout"
    assert out["stats"]["stopped"].startswith("the time limit ran out")


def cbc_children() -> list[str]:
    """Running CBC processes: a killed one lives on as a zombie ("Z") until the machine's
    first process reaps it, which on some containers takes seconds; a zombie runs nothing."""
    found = []
    for p in Path("/proc").glob("[0-9]*/comm"):
        try:
            if p.read_text().strip() == "cbc" and \
                    (p.parent / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                found.append(p.parent.name)
        except (OSError, IndexError):
            continue  # ended while we looked
    return found


def test_cbc_is_stopped_at_the_limit_and_leaves_no_files(tmp_path):
    # CBC overruns its own time limit (its root LP of the 16x16 by 120 s) and the runner ends
    # it. The 8x8: its model is built in 0.5 s, so CBC runs, and is ended, within -t 2 (the
    # 16x16 under -t 6 took 5 CPU s and at a load of 3 never started CBC: building ate -t)
    env_tmp = tmp_path / "tmp"
    env_tmp.mkdir()
    before = set(cbc_children())
    proc = run_cli("solve", INSTANCES / "e2_8x8.txt", "-b", "milp", "-t", "2", "--json",
                   env={"TMPDIR": str(env_tmp)})
    out = json.loads(proc.stdout)
    assert out["status"] == "timeout"
    assert wait_for(lambda: set(cbc_children()) <= before, 5.0)  # a killed CBC may be dying
    assert list(env_tmp.iterdir()) == []


def test_options_can_be_reused_their_clock_starts_with_each_solve():
    from tilesolve.dispatch import solve_file

    opts = SolveOptions(time_limit=30, threads=1)
    assert opts.remaining() == 30  # no clock yet: the whole limit
    for _ in range(2):
        res = solve_file(INSTANCES / "e2_4x4.txt", "cpsat", opts)
        assert res.status == Status.SOLVED and res.verified
    assert opts.started is None  # solve_file timed a private copy
    opts.start_clock()
    assert 29 < opts.remaining() <= 30


# --- the magic hexagon: 6 turns and their mirror images ------------------------------------
def magichex_images(inst, board: dict) -> list[dict]:
    """The board under each of the instance's 12 symmetries."""
    cells = inst.cells
    return [{cells[perm[i]]: board[cells[i]] for i in range(len(cells))}
            for perm in inst.symmetries]


@pytest.mark.parametrize("backend", ["cpsat", "milp", "sat", "search"])
def test_an_imposed_magic_hexagon_is_accepted_in_every_orientation(backend):
    from tilesolve.families.magichex.family import FAMILY as MAGICHEX
    from tilesolve.families.magichex.parse import read_instance as read_magichex

    inst = read_magichex(INSTANCES / "magichex_3.txt")
    mod = MAGICHEX.backend(backend)
    # one solution found once (the MILP alone needs minutes for it on a loaded machine)
    first = MAGICHEX.backend("search").solve(inst, SolveOptions(time_limit=60, threads=1))
    assert first.status == Status.SOLVED
    images = magichex_images(inst, first.solution)
    assert len({tuple(sorted(b.items())) for b in images}) == 12  # twelve distinct boards
    for k, board in enumerate(images):
        assert MAGICHEX.verify(inst, board).ok, k
        part = dict(list(board.items())[1:])
        out = mod.solve(inst, SolveOptions(time_limit=120, threads=1, fix=part))
        assert out.status == Status.SOLVED, (backend, k)
        assert out.solution == board


# --- one table, one rule ----------------------------------------------------------------
def test_a_table_converts_fills_defaults_and_refuses_a_misspelt_option():
    from tilesolve.core.options import Option, Options, positive_int

    table = Options(Option("fast", bool, False, "go fast"),
                    Option("steps", positive_int, 10, "how many"),
                    Option("kind", str, None, "which", ("one", "two_three")))
    assert table.validate({}) == {"fast": False, "steps": 10}
    assert table.validate({"fast": "YES", "steps": "3", "kind": "two-three"}) == {
        "fast": True, "steps": 3, "kind": "two_three"}
    assert table.validate(table.validate({"steps": "4"})) == {"fast": False, "steps": 4}
    with pytest.raises(InputError, match=r"unknown option\(s\) --step for the x backend "
                                         r"\(did you mean --steps\?\); "
                                         r"expected --fast, --kind, --steps$"):
        table.validate({"step": "3"}, "the x backend")
    with pytest.raises(InputError, match=r"--steps expects a positive integer, got '0'"):
        table.validate({"steps": "0"})
    with pytest.raises(InputError, match=r"--kind expects one of one, two_three, got 'four'"):
        table.validate({"kind": "four"})
    assert table.pick({"fast": "on", "other": "x"}) == {"fast": True, "steps": 10}


def backend_modules():
    from tilesolve.core.family import families

    return [(fam, b) for fam in families().values() for b in fam.backends]


def test_every_backend_and_generator_declares_its_options_in_one_table():
    from tilesolve.core.family import families
    from tilesolve.core.options import Options

    pairs = backend_modules()
    assert len(pairs) == 22  # tantrix has its free-shape lns too
    for fam, b in pairs:
        declared = fam.backend(b)
        assert declared.name == b
        assert isinstance(declared.options, Options), (fam.name, b)
        assert all(o.help for o in declared.options), (fam.name, b)
    generators = [f for f in families().values() if f.name in ("edgematch", "hidato")]
    for fam in generators:
        assert isinstance(fam.module("generate").OPTIONS, Options)


@pytest.mark.parametrize("word,value", [("false", False), ("off", False), ("0", False),
                                        ("no", False), ("true", True), ("on", True),
                                        ("1", True), ("yes", True)])
def test_on_off_words_mean_the_same_to_every_backend_with_a_pin(word, value):
    from tilesolve.core.solve import backend_params

    pinned = [(fam, b) for fam, b in backend_modules()
              if "no_symmetry" in fam.backend_options(b)]
    assert len(pinned) == 8  # edge matching and the magic hexagon: cpsat, milp, sat, search
    for fam, b in pinned:
        assert backend_params(fam, b, {"no_symmetry": word})["no_symmetry"] is value


MISSPELT = "unknown option(s) --no-symetry"


def test_a_misspelt_option_is_refused_on_every_path(tmp_path):
    from tilesolve import bench
    from tilesolve.core.family import load_instance
    from tilesolve.core.solve import run_backend
    from tilesolve.dispatch import solve_file
    from tilesolve.hybrid.islands import Islands
    from tilesolve.hybrid.portfolio import Portfolio

    e2 = INSTANCES / "e2_4x4.txt"
    bad = {"no_symetry": "on"}
    family, inst = load_instance(e2)
    paths = [
        lambda: solve_file(e2, "cpsat", SolveOptions(params=bad)),  # the Python API
        lambda: run_backend(family, inst, "sat", SolveOptions(params=bad)),
        lambda: Portfolio(family, inst, str(e2), SolveOptions(time_limit=5, params=bad)),
        lambda: Islands(family, inst, str(e2), SolveOptions(
            time_limit=5, objective="matches", params=bad), 2),
        lambda: bench.check({str(e2): family}, ["cpsat", "ga"], bad),
        lambda: bench.check({str(e2): family}, ["cpsat:no-symetry=on"]),
    ]
    for k, path in enumerate(paths):
        with pytest.raises(InputError, match=re.escape(MISSPELT)) as exc:
            path()
        assert "--no-symmetry" in str(exc.value), k  # the valid names are listed
    # the command line refuses it while parsing, naming the nearest known option
    proc = run_cli("solve", e2, "-b", "milp", "--no-symetry", "on")
    assert proc.returncode == 2 and proc.stderr == ("error: unknown option(s) --no-symetry for "
                                                    "solve --backend milp (did you mean "
                                                    "--no-symmetry?)\n")
    proc = run_cli("generate", "edgematch", "--sise", "4", "-o", tmp_path / "g.txt")
    assert proc.returncode == 2 and "unknown option(s) --sise for generate" in proc.stderr
    assert "(did you mean --size?)" in proc.stderr and not (tmp_path / "g.txt").exists()


def test_the_portfolio_checks_each_lanes_values_before_the_race():
    from tilesolve.core.family import load_instance
    from tilesolve.hybrid.portfolio import Portfolio

    e2 = INSTANCES / "e2_4x4.txt"
    family, inst = load_instance(e2)
    opts = SolveOptions(time_limit=5, params={"backends": "cpsat,ga", "population": "many"})
    with pytest.raises(InputError, match="--population expects a positive integer"):
        Portfolio(family, inst, str(e2), opts)
    cfg = Portfolio(family, inst, str(e2), SolveOptions(
        time_limit=5, params={"backends": "cpsat,ga", "hints": "no", "epoch": "3"})).cfg
    assert (cfg.hints, cfg.cbgi, cfg.epoch) == (False, True, 3.0)


# --- discovery ------------------------------------------------------------------------------
def test_options_lists_each_option_with_type_default_and_meaning():
    proc = run_cli("options", "cpsat", "--family", "edgematch")
    assert proc.returncode == 0, proc.stderr
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:4]]
            for line in proc.stdout.splitlines() if line.startswith("│ --")}
    assert rows["--no-symmetry"] == ["on|off", "off"]
    assert rows["--model"] == ["table|bool", "table"]
    assert rows["--clues"] == ["on|off", "off"]  # the family's own, for every backend
    every = run_cli("options", "ga")
    for fam in ("edgematch", "tantrix", "hidato", "magichex"):
        assert f"{fam} --backend ga" in every.stdout
    assert "--rts" in every.stdout and "--population" in every.stdout
    portfolio = run_cli("options", "portfolio")
    assert "--epoch" in portfolio.stdout and "2.0" in portfolio.stdout
    assert "racing backends" in portfolio.stdout
    gen = run_cli("options", "generate", "edgematch")
    assert "--size" in gen.stdout and "--fixed" in gen.stdout
    for args, word in ((("nope",), "expected a backend"), (("lns", "--family", "hidato"),
                                                           "no lns backend"),
                       (("generate",), "needs a family")):
        bad = run_cli("options", *args)
        assert bad.returncode == 2 and word in bad.stderr, args


def test_solve_help_points_to_the_options_and_lists_the_backends():
    text = " ".join(run_cli("solve", "--help").stdout.split())
    assert "tilesolve options BACKEND" in text
    assert "memetic: edgematch" in text and "search: edgematch, tantrix, magichex" in text
