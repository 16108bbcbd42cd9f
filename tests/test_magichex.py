"""Magic hexagon: reading, verification, symmetries, every backend on order 3, counting."""

from __future__ import annotations

import json

import pytest
from conftest import INSTANCES, run_cli

from tilesolve.core.errors import InputError
from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.magichex.check import canonical, verify
from tilesolve.families.magichex.family import FAMILY
from tilesolve.families.magichex.parse import read_instance

KNOWN = [[10, 12, 16], [13, 4, 2, 19], [15, 8, 5, 7, 3], [14, 6, 1, 17], [9, 11, 18]]
ORDER3 = INSTANCES / "magichex_3.txt"


def board(inst, rows):
    pairs = zip(inst.rows, rows, strict=True)
    return {c: v for row, vals in pairs for c, v in zip(row, vals, strict=True)}


def write(tmp_path, text, name="m.txt"):
    p = tmp_path / name
    p.write_text(text)
    return p


# --------------------------------------------------------------------------- model
def test_shipped_instances_have_the_published_magic_sums():
    sums = {"3": 38, "3_zero": 0, "4_3": 111, "5_6": 244, "5_15": 305, "6_21": 546,
            "7_2": 635, "8_zero": 0}
    for name, magic in sums.items():
        inst = read_instance(INSTANCES / f"magichex_{name}.txt")
        assert inst.magic == magic
        assert len(inst.lines) == 3 * (2 * inst.order - 1)


def test_known_hexagon_verifies_and_its_twelve_images_share_one_key():
    inst = read_instance(ORDER3)
    sol = board(inst, KNOWN)
    assert verify(inst, sol).ok
    images = set()
    keys = set()
    for perm in inst.symmetries:
        img = {inst.cells[perm[i]]: sol[c] for i, c in enumerate(inst.cells)}
        assert verify(inst, img).ok
        images.add(frozenset(img.items()))
        keys.add(canonical(inst, img))
    assert len(images) == 12 and len(keys) == 1


def test_verify_names_each_violation():
    inst = read_instance(ORDER3)
    sol = board(inst, KNOWN)
    sol[(0, 0)] = 6  # centre 5 -> 6: 6 twice, 5 missing, three lines through the centre off
    rep = verify(inst, sol)
    kinds = rep.kinds()
    assert kinds["repeated-number"] == 1 and kinds["missing-number"] == 1
    assert kinds["line-sum"] == 3
    assert any("row 3" in v.message and "39" in v.message for v in rep.violations)
    del sol[(0, 0)]
    sol[(5, 5)] = 99
    sol[(1, 0)] = 99
    kinds = verify(inst, sol).kinds()
    assert kinds["empty-cell"] == 1 and kinds["outside"] == 1 and kinds["out-of-range"] == 1


def test_givens_are_read_and_enforced(tmp_path):
    rows = "\n".join(" ".join(str(v) if v == 5 else "." for v in r) for r in KNOWN)
    inst = read_instance(write(tmp_path, f"magichex 3\n{rows}\n"))
    assert inst.givens == {(0, 0): 5}
    other = board(inst, KNOWN)
    other[(0, 0)], other[(-2, 0)] = 15, 5  # swap centre and left corner
    assert verify(inst, other).kinds()["moved-given"] == 1


@pytest.mark.parametrize(
    "text, needle",
    [
        ("magichex\n", "expected header"),
        ("magichex three\n", "the order"),
        ("magichex 0\n", "order 0 out of range"),
        ("magichex 3 start 2\n", "unknown option"),
        ("magichex 3\n1 2 3\n4 5 6 7\n8 9 10 11 12\n13 14 15\n16 17\n", "expected 4"),
        ("magichex 3\n. . .\n. . . .\n. . . . .\n. . . .\n", "expected 5 rows"),
        ("magichex 3\n1 . .\n. . . .\n. . 1 . .\n. . . .\n. . .\n", "appears twice"),
        ("magichex 3\n20 . .\n. . . .\n. . . . .\n. . . .\n. . .\n", "out of range"),
        ("magichex 3\nx . .\n. . . .\n. . . . .\n. . . .\n. . .\n", "a number or '.'"),
    ],
)
def test_malformed_input_is_one_line_exit_2(tmp_path, text, needle):
    path = write(tmp_path, text)
    with pytest.raises(InputError, match=needle):
        read_instance(path)
    res = run_cli("info", path)
    assert res.returncode == 2
    assert needle in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert "Traceback" not in res.stderr


def test_verify_cli_accepts_good_and_rejects_bad_boards(tmp_path):
    good = write(tmp_path, "\n".join(" ".join(map(str, r)) for r in KNOWN) + "\n", "good.txt")
    assert run_cli("verify", ORDER3, good).returncode == 0
    bad_rows = [r[:] for r in KNOWN]
    bad_rows[0][0], bad_rows[0][1] = bad_rows[0][1], bad_rows[0][0]
    bad = write(tmp_path, json.dumps({"rows": bad_rows}), "bad.json")
    res = run_cli("verify", ORDER3, bad)
    assert res.returncode == 1 and "line-sum" in res.stdout
    short = write(tmp_path, "1 2\n", "short.txt")
    assert run_cli("verify", ORDER3, short).returncode == 2


# --------------------------------------------------------------------------- backends
# HiGHS takes about 10 s here (the MILP's proof on order 2 stays in the default run)
@pytest.mark.parametrize("backend", ["cpsat", pytest.param("milp", marks=pytest.mark.slow),
                                     "sat", "ga", "search"])
def test_every_backend_solves_order_3(tmp_path, backend):
    out = tmp_path / "sol.json"
    res = run_cli("solve", ORDER3, "--backend", backend, "--threads", "1", "--time-limit",
                  "120", "--json", "--out", out)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["status"] == "solved" and data["verified"] is True
    inst = read_instance(ORDER3)
    sol = FAMILY.read_solution(inst, out)  # the file as `tilesolve verify` reads it
    assert verify(inst, sol).ok
    # the order-3 hexagon is unique up to symmetry
    assert canonical(inst, sol) == canonical(inst, board(inst, KNOWN))


def test_cpsat_tabu_strategy_solves_order_4():
    from tilesolve.families.magichex import cpsat

    inst = read_instance(INSTANCES / "magichex_4_3.txt")
    out = cpsat.solve(inst, SolveOptions(time_limit=60, threads=1, params={"strategy": "tabu"}))
    assert out.status == Status.SOLVED and verify(inst, out.solution).ok


def test_plain_ea_keeps_its_best_board_and_reports_fitness():
    from tilesolve.families.magichex import ga

    inst = read_instance(ORDER3)
    opts = SolveOptions(seed=3, params={"preset": "tuned", "polish": "0", "generations": "30"})
    out = ga.solve(inst, opts)
    assert out.stats["generations"] == 30
    assert out.objective == out.stats["best_fitness"] <= 0
    assert out.status == (Status.SOLVED if out.objective == 0 else Status.BUDGET)
    with pytest.raises(InputError, match="--population"):
        ga.solve(inst, SolveOptions(params={"population": "x"}))


# the SAT model's and the search's counts up to symmetry stay in the default run in
# test_count.py::test_every_exact_backend_counts_the_same (a magic hexagon: 1 of 2 boards)
@pytest.mark.parametrize("backend", ["cpsat", pytest.param("sat", marks=pytest.mark.slow),
                                     pytest.param("search", marks=pytest.mark.slow)])
def test_count_order_3_is_one_up_to_symmetry(backend):
    # through the API: the command line's --count is test_count.py's
    import tilesolve

    res = tilesolve.load(ORDER3).count(backend, threads=1)
    assert (res.count, res.count_raw) == (1, 12)


@pytest.mark.parametrize("channel", [False, True])
def test_cpsat_symmetry_breaking_keeps_one_board_per_orbit(channel):
    """The broken model's boards, all enumerated: order 3's hexagon once; the zero-sum order 3's
    26 hexagons up to rotation and reflection are 19 up to negation too, and every one of the
    19 keeps a board (23 boards: in 4 orbits a board and its negation both have smallest +
    largest corner 0, so both stay)."""
    from tilesolve.backends import cpsat as runner
    from tilesolve.families.magichex.cpsat import MagicHexCpsat

    inst = read_instance(ORDER3)
    (only,) = runner.count(MagicHexCpsat(inst, channel=channel), SolveOptions(threads=1)).solutions
    assert canonical(inst, only) == canonical(inst, board(inst, KNOWN))
    zero = read_instance(INSTANCES / "magichex_3_zero.txt")
    found = runner.count(MagicHexCpsat(zero, channel=channel), SolveOptions(threads=1)).solutions
    up_to_negation = {min(canonical(zero, s), canonical(zero, {c: -v for c, v in s.items()}))
                      for s in found}
    assert all(verify(zero, s).ok for s in found)
    assert len(found) == 23 and len(up_to_negation) == 19


@pytest.mark.slow  # the search's whole tree (a count on order 3 stays: test_count_order_3_...)
def test_count_zero_sum_order_3_is_26():
    res = run_cli("solve", INSTANCES / "magichex_3_zero.txt", "--count", "--backend", "search",
                  "--json")
    data = json.loads(res.stdout)
    assert res.returncode == 0, res.stderr
    assert data["count"] == 26 and data["count_raw"] == 26 * 12


def test_render_png_and_svg(tmp_path):
    # through the API (the command `render`: test_cli_contract.py and test_drawings.py)
    import tilesolve

    sol = tmp_path / "s.txt"
    sol.write_text("\n".join(" ".join(map(str, r)) for r in KNOWN) + "\n")
    for suffix in (".png", ".svg"):
        out = tmp_path / f"h{suffix}"
        assert tilesolve.load(ORDER3).render(out, sol) == out
        assert out.stat().st_size > 1000
    assert "38" in (tmp_path / "h.svg").read_text() or "<svg" in (tmp_path / "h.svg").read_text()


@pytest.mark.parametrize("backend", ["cpsat", "sat", "milp", "search", "ga"])
def test_a_fractional_magic_sum_is_infeasible_before_any_solver(tmp_path, backend):
    # order 4 from 1: 37 numbers summing to 703 over 7 parallel lines, 703/7 per line
    path = write(tmp_path, "magichex 4\n")
    res = run_cli("solve", path, "--backend", backend, "--json")
    assert res.returncode == 3, res.stderr
    out = json.loads(res.stdout)
    assert out["status"] == "infeasible" and out["stats"]["proved_by"] == "precheck"
    assert "703/7" in out["stats"]["reason"] and "3 or 10 mod 14" in out["stats"]["reason"]


def test_a_fractional_magic_sum_is_told_by_info_and_refused_by_export(tmp_path):
    path = write(tmp_path, "magichex 4\n")
    info = json.loads(run_cli("info", path, "--json").stdout)
    assert info["magic_sum"] == "703/7"
    exported = run_cli("export", path, "--to", "cnf", "-o", str(tmp_path / "m.cnf"))
    assert exported.returncode == 2 and len(exported.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "m.cnf").exists()
    # from 3 the numbers 3..39 sum to 777, 111 per line
    assert json.loads(run_cli("info", write(tmp_path, "magichex 4 first 3\n", "m3.txt"),
                              "--json").stdout)["magic_sum"] == 111


@pytest.mark.parametrize("backend", ["cpsat", "sat", "milp", "search"])
def test_order_2_has_no_magic_hexagon(tmp_path, backend):
    path = write(tmp_path, "magichex 2 first 0\n")
    res = run_cli("solve", path, "--backend", backend, "--threads", "1", "--json")
    assert res.returncode == 3, res.stderr
    assert json.loads(res.stdout)["status"] == "infeasible"


@pytest.mark.slow  # each configuration of the script for up to 5 s
def test_every_default_config_of_the_benchmark_runs_on_order_3():
    import importlib.util

    from tilesolve.bench import Budget, run_each

    path = INSTANCES.parent / "lab" / "scripts" / "bench_magichex.py"
    spec = importlib.util.spec_from_file_location("bench_magichex", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    work = [(ORDER3, script.bench_spec(c), 0) for c in script.CONFIGS]
    rows = list(run_each(work, Budget(time_limit=5)))
    assert [(r["backend"], r["error"]) for r in rows if r["status"] == "error"] == []
    assert all(r["status"] in ("solved", "timeout", "budget") for r in rows)
    assert all(r["solved"] for r in rows if r["backend"] in ("cpsat", "sat", "ga", "search"))


@pytest.mark.parametrize("compiled", [True, False])
def test_the_tabu_search_counts_every_swap_it_scores(compiled):
    """One step scores each swap of a cell on a wrong line with every other movable cell; the
    GA's tuned polish adds these to its evaluations."""
    import numpy as np

    from tilesolve.families.magichex.tabu import LineAlgebra, tabu_search

    inst = read_instance(ORDER3)
    la = LineAlgebra(inst)
    start = la.random_board(np.random.default_rng(0))
    on_wrong_line = int((((la.a.T @ (la.errors(start) != 0)) > 0) & la.movable).sum())
    res = tabu_search(inst, np.random.default_rng(1), start=start, max_iterations=1,
                      compiled=compiled)
    assert res.iterations == 1
    assert res.scored == 1 + on_wrong_line * 18 == 343  # the start, then 19 cells x 18 others


def test_the_compiled_tabu_step_makes_a_best_swap_as_the_numpy_step_does():
    """From the same boards, one compiled step and one numpy step reach the same cost: each
    makes a swap of the least cost change (ties may pick different swaps of that change)."""
    import numpy as np

    from tilesolve.families.magichex import tabu

    assert tabu._tabu is not None  # the extension is built on install
    inst = read_instance(INSTANCES / "magichex_5_6.txt")
    la = tabu.LineAlgebra(inst)
    rng = np.random.default_rng(5)
    for _ in range(20):
        start = la.random_board(rng)
        one = [tabu.tabu_search(inst, np.random.default_rng(0), start=start, max_iterations=1,
                                algebra=la, compiled=c) for c in (True, False)]
        assert one[0].cost == one[1].cost < int(la.errors(start) @ la.errors(start))


@pytest.mark.parametrize("compiled", [True, False])
def test_the_tabu_search_keeps_the_givens_and_its_cost_honest(tmp_path, compiled):
    """Order 4 with a given: the board found is magic, a permutation, and the given stays; the
    compiled search's running cost (kept swap by swap) is the board's cost."""
    import numpy as np

    from tilesolve.families.magichex.tabu import LineAlgebra, tabu_search

    known = read_instance(INSTANCES / "magichex_4_3.txt")
    text = (INSTANCES / "magichex_4_3.txt").read_text().splitlines()
    header = next(line for line in text if line.startswith("magichex"))
    rows = [" ".join("." for _ in row) for row in known.rows]
    rows[0] = " ".join(["3"] + ["."] * (len(known.rows[0]) - 1))  # the smallest number, a corner
    inst = read_instance(write(tmp_path, header + "\n" + "\n".join(rows) + "\n"))
    assert inst.givens == {known.rows[0][0]: 3}
    la = LineAlgebra(inst)
    res = tabu_search(inst, np.random.default_rng(2), max_iterations=200_000, compiled=compiled)
    board = dict(zip(inst.cells, res.values.tolist(), strict=True))
    assert res.cost == int(la.errors(res.values) @ la.errors(res.values)) == 0
    assert sorted(board.values()) == list(inst.values)
    assert board[known.rows[0][0]] == 3 and verify(inst, board).ok


def test_tabu_race_runs_one_search_per_thread_and_heeds_the_stop_flag():
    """Two threads race two searches (order 6): the result is magic; one thread is exactly
    the single search with the same seed; a stop flag already set ends both before a step."""
    import threading

    import numpy as np

    from tilesolve.families.magichex.tabu import tabu_race, tabu_search

    inst = read_instance(INSTANCES / "magichex_6_21.txt")
    res, won = tabu_race(inst, 4, 2, max_iterations=2_000_000)
    assert res.cost == 0 and won in (0, 1)
    assert verify(inst, dict(zip(inst.cells, res.values.tolist(), strict=True))).ok
    single, _ = tabu_race(inst, 4, 1, max_iterations=3000)
    alone = tabu_search(inst, np.random.default_rng(4), max_iterations=3000)
    assert (single.values == alone.values).all() and single.iterations == alone.iterations
    stop = threading.Event()
    stop.set()
    stopped, _ = tabu_race(inst, 4, 2, stop=stop)
    assert stopped.iterations == 0 and stopped.cost > 0
