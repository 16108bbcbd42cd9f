"""The free-shape LNS of --objective longest (families/tantrix/lns.py): its window model keeps
the checker's rules and finds the window's best score, and its steps improve a poor board on a
free shape, the shape changing on the way."""

from __future__ import annotations

import random

import pytest
from conftest import INSTANCES, run_cli
from ortools.sat.python import cp_model

from tilesolve.core.family import load_instance
from tilesolve.core.result import SolveOptions
from tilesolve.families.tantrix import check, lns
from tilesolve.families.tantrix.window_model import WindowModel


def poor_board():
    """Discovery 10 (red loop through tiles 1-10, best score 10) on the search backend's
    compact fill: a valid board whose score is 0."""
    _, inst = load_instance(INSTANCES / "tantrix_discovery_10.txt")
    start = lns.FreeShapeLns(inst, SolveOptions(objective="longest", seed=1, threads=1)).start()
    assert check.verify(inst, start, check.LONGEST).ok and check.score(inst, start) == 0
    return inst, start


def test_a_window_over_the_whole_board_and_empty_cells_finds_the_red_loop():
    inst, start = poor_board()
    taken, empty = lns.window(start, (0, 0), 10, 8, random.Random(0))
    model = WindowModel(inst, start, taken, empty, floor=0)
    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False  # as the library's solves
    solver.parameters.num_workers = 1
    assert solver.solve(model.m) == cp_model.OPTIMAL
    board = model.board(solver)
    rep = check.verify(inst, board, check.LONGEST)
    assert rep.ok and rep.score == 10  # every tile on one red loop: the puzzle's answer
    assert set(board) != set(start)  # the shape changed to hold it


def test_a_window_that_may_not_reach_a_better_board_keeps_every_rule():
    inst, start = poor_board()
    for seed in range(4):  # small windows and empty cells at random tiles
        rng = random.Random(seed)
        taken, empty = lns.window(start, rng.choice(sorted(start)), 4, 4, rng)
        model = WindowModel(inst, start, taken, empty, floor=0)
        solver = cp_model.CpSolver()
        solver.parameters.catch_sigint_signal = False  # as the library's solves
        solver.parameters.num_workers = 1
        assert solver.solve(model.m) == cp_model.OPTIMAL
        rep = check.verify(inst, model.board(solver), check.LONGEST)
        assert rep.ok and rep.score == solver.objective_value // (len(model.cells) + 1)


def test_a_window_with_an_outline_keeps_the_shape_to_it_around_fixed_tiles():
    """Windows among fixed tiles (their cells' open edges count too): with the outline at the
    start board's, every board found cuts no more arcs; one less forces another shape."""
    inst, start = poor_board()
    loss = check.outline_loss(start)
    shapes = set()
    for seed in range(4):
        rng = random.Random(seed)
        taken, empty = lns.window(start, rng.choice(sorted(start)), 4, 4, rng)
        for most in (loss, loss - 1):
            model = WindowModel(inst, start, taken, empty, floor=0, outline=most)
            solver = cp_model.CpSolver()
            solver.parameters.catch_sigint_signal = False  # as the library's solves
            solver.parameters.num_workers = 1
            if solver.solve(model.m) != cp_model.OPTIMAL:
                assert most < loss  # the start board itself fits its own outline
                continue
            board = model.board(solver)
            assert check.verify(inst, board, check.LONGEST).ok
            assert check.outline_loss(board) <= most
            shapes.add(check.outline_loss(board))
    assert min(shapes) < loss  # some window found a shape with a shorter outline


def test_the_lns_improves_a_poor_board_and_the_checker_agrees():
    inst, start = poor_board()
    out = lns.solve(inst, SolveOptions(objective="longest", seed=1, threads=1, hint=start,
                                       params={"window": 7, "empty": 6, "steps": 10,
                                               "window_seconds": 10}))
    rep = check.verify(inst, out.solution, check.LONGEST)
    assert rep.ok and rep.score == out.objective == 10
    assert set(out.solution) != set(start)
    assert out.stats["rejected_by_checker"] == 0


def test_the_window_model_is_the_same_whatever_the_hash_seed():
    """A seeded run repeats in every process: the model's variables and constraints come in one
    order under any PYTHONHASHSEED (string hashing once reordered the flow's node pairs)."""
    import hashlib
    import os
    import subprocess
    import sys

    code = ("import random, sys; sys.path.insert(0, 'tests'); "
            "from test_tantrix_lns import poor_board, lns, WindowModel; "
            "inst, start = poor_board(); "
            "taken, empty = lns.window(start, (0, 0), 7, 6, random.Random(0)); "
            "print(str(WindowModel(inst, start, taken, empty, floor=0).m.Proto()))")
    root = INSTANCES.parent
    digests = set()
    for seed in ("13", "15"):
        out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                             text=True, env={**os.environ, "PYTHONHASHSEED": seed}, check=True)
        digests.add(hashlib.sha256(out.stdout.encode()).hexdigest())
    assert len(digests) == 1


def test_the_lns_stops_at_the_puzzles_maximum():
    # every tile on the red loop is the most a board can score: no step after it (the lns
    # went on to its time limit, 5 s of a 5 s run on Discovery 4)
    inst, start = poor_board()
    out = lns.solve(inst, SolveOptions(objective="longest", seed=1, threads=1, hint=start,
                                       time_limit=600, params={"window": 7, "empty": 6}))
    assert out.objective == check.max_score(inst) == 10
    assert out.stats["steps"] == out.stats["steps_to_best"] > 0


def test_the_window_grows_while_steps_find_nothing_better_and_stays_when_fixed():
    inst, start = poor_board()
    grown, fixed = (lns.solve(inst, SolveOptions(
        objective="longest", seed=1, threads=1, hint=start,
        params={"window": 2, "empty": 2, "steps": 6, "window_seconds": 5, "widen": 1,
                "window_max": most})) for most in (6, 2))
    # windows of 2 tiles cannot close the red loop through 10: steps fail, the window grows
    assert grown.stats["window_reached"] == 6
    assert fixed.stats["window_reached"] == 2
    for out in (grown, fixed):
        assert check.verify(inst, out.solution, check.LONGEST).ok


def test_a_capped_window_counts_each_colour_up_to_the_cap():
    inst, start = poor_board()
    taken, empty = lns.window(start, (0, 0), 10, 8, random.Random(0))
    model = WindowModel(inst, start, taken, empty, floor=0, cap=4)
    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False  # as the library's solves
    solver.parameters.num_workers = 1
    assert solver.solve(model.m) == cp_model.OPTIMAL
    assert solver.objective_value // (len(model.cells) + 1) == 4  # the red loop counted to 4
    rep = check.verify(inst, model.board(solver), check.LONGEST)
    assert rep.ok and rep.score >= 4


def test_the_cap_rises_as_the_colours_reach_it_and_the_full_score_is_kept():
    inst, start = poor_board()
    out = lns.solve(inst, SolveOptions(objective="longest", seed=1, threads=1, hint=start,
                                       params={"window": 7, "empty": 6, "steps": 10,
                                               "window_seconds": 10, "cap": 2}))
    rep = check.verify(inst, out.solution, check.LONGEST)
    assert rep.ok and rep.score == out.objective
    # the red loop reached the cap (2), so the cap was raised at least once, and the full
    # score of the best board is at least the last cap reached
    assert out.stats["cap_reached"] > 2
    assert out.objective >= out.stats["cap_reached"] - 1


def test_the_lns_takes_a_better_board_from_the_portfolio():
    from tilesolve.hybrid.lanes import Inbox

    inst, start = poor_board()
    good = lns.solve(inst, SolveOptions(objective="longest", seed=1, threads=1, hint=start,
                                        params={"window": 7, "empty": 6, "steps": 10,
                                                "window_seconds": 10})).solution
    inbox = Inbox()
    inbox.put(good, 10.0)
    out = lns.solve(inst, SolveOptions(objective="longest", seed=1, threads=1, hint=start,
                                       params={"window": 2, "empty": 2, "steps": 1,
                                               "inbox": inbox}))
    assert out.objective == 10 and out.stats["adopted"] == 1
    assert check.verify(inst, out.solution, check.LONGEST).score == 10


def test_free_shapes_solve_by_cpsat_and_race_cpsat_and_the_lns_in_a_portfolio():
    from tilesolve.dispatch import default_backend
    from tilesolve.families.tantrix.family import FAMILY
    from tilesolve.hybrid.portfolio import share_by_default

    _, loop = load_instance(INSTANCES / "tantrix_loop56.txt")
    _, fixed = load_instance(INSTANCES / "tantrix_challenge_10.txt")
    scored = SolveOptions(objective="longest")
    assert default_backend(FAMILY, loop, scored) == "cpsat"  # every thread to CP-SAT
    assert default_backend(FAMILY, fixed, scored) == "portfolio"
    assert default_backend(FAMILY, loop, SolveOptions()) == "cpsat"
    raced = SolveOptions(objective="longest", params={"backends": "cpsat,lns"})
    assert default_backend(FAMILY, loop, raced) == "portfolio"  # --backends alone: a race
    assert FAMILY.objective_backends(loop) == ("cpsat", "lns")  # --backend portfolio, islands
    assert share_by_default(FAMILY, list(FAMILY.objective_backends(loop)))
    assert FAMILY.objective_backends(fixed) == ("search", "cpsat")


def test_a_kick_changes_half_the_window_and_keeps_every_rule():
    inst, start = poor_board()
    taken, empty = lns.window(start, (0, 0), 6, 4, random.Random(2))
    model = WindowModel(inst, start, taken, empty, floor=0)
    model.must_change(5)
    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False  # as the library's solves
    solver.parameters.num_workers = 1
    assert solver.solve(model.m) == cp_model.OPTIMAL
    board = model.board(solver)
    assert check.verify(inst, board, check.LONGEST).ok
    assert sum(board.get(c) != start.get(c) for c in taken + empty) >= 5


def test_kicks_leave_the_board_and_the_best_board_is_kept():
    """Windows of 2 tiles cannot better Discovery 10's poor board, so each step at the widest
    window (2) is stale and every second step kicks; the best board is still reported."""
    inst, start = poor_board()
    opts = {"window": 2, "empty": 2, "window_max": 2, "steps": 8, "window_seconds": 5}
    runs = [lns.solve(inst, SolveOptions(objective="longest", seed=3, threads=1, hint=start,
                                         params={**opts, **extra}))
            for extra in ({"kick": 1}, {})]
    kicked, plain = runs
    assert kicked.stats["kicks"] == 4 and "kicks" not in plain.stats
    assert kicked.stats["moves"] >= 4  # each kick moved the board
    for out in runs:
        rep = check.verify(inst, out.solution, check.LONGEST)
        assert rep.ok and rep.score == out.objective >= 0


def test_cpsat_with_a_margin_searches_the_shape_and_beats_the_compact_board():
    """Discovery 6 (a red loop through tiles 1-6): CP-SAT proves 5 the best on the compact
    board; with one ring of empty cells around it the band holds the 6-tile loop, on another
    shape, and the checker agrees."""
    from tilesolve.families.tantrix import cpsat_score

    _, inst = load_instance(INSTANCES / "tantrix_discovery_06.txt")
    fixed = cpsat_score.solve(inst, SolveOptions(objective="longest", seed=1, threads=1))
    assert fixed.objective == 5 and fixed.stats["optimal_on_board"]
    banded = cpsat_score.solve(inst, SolveOptions(objective="longest", seed=1, threads=1,
                                                  hint=fixed.solution, params={"margin": 1}))
    rep = check.verify(inst, banded.solution, check.LONGEST)
    assert rep.ok and rep.score == banded.objective == 6
    assert banded.stats["optimal_in_band"] and banded.stats["start_score"] == 5
    assert set(banded.solution) != set(fixed.solution)


def test_a_capped_band_ranks_by_the_balanced_score_then_the_full_one():
    """--cap 3 on Discovery 6: the start board's loop of 5 counts 3, and among the band's boards
    of balanced score 3 CP-SAT's second objective takes the 6-tile loop; the answer and its
    score are the board's own (CP-SAT's stand-in objective reads 3 * 7 + 6 = 27)."""
    from tilesolve.families.tantrix import cpsat_score

    _, inst = load_instance(INSTANCES / "tantrix_discovery_06.txt")
    fixed = cpsat_score.solve(inst, SolveOptions(objective="longest", seed=1, threads=1))
    capped = cpsat_score.solve(inst, SolveOptions(objective="longest", seed=1, threads=1,
                                                  hint=fixed.solution,
                                                  params={"margin": 1, "cap": 3}))
    rep = check.verify(inst, capped.solution, check.LONGEST)
    assert rep.ok and rep.score == capped.objective == 6
    assert capped.stats["cap"] == 3 and capped.stats["balanced_start"] == 3
    assert capped.stats["balanced_end"] == 3
    assert capped.stats["optimal_in_band"] and capped.bound is None


def test_an_outline_keeps_the_band_to_shapes_that_cut_few_arcs():
    """Discovery 6: the band's best board, the 6-tile loop, lies on a shape whose outline cuts
    10 arcs; with --outline 9 the best is a loop of 5 on a shape cutting 9 (the start board,
    cutting 11, is no answer: the band steers from it into the outline); with 8 the band holds
    no such shape and no board is answered, which is not a proof that the puzzle has none."""
    from tilesolve.families.tantrix import cpsat_score

    _, inst = load_instance(INSTANCES / "tantrix_discovery_06.txt")
    start = cpsat_score.solve(inst, SolveOptions(objective="longest", seed=1, threads=1))
    assert check.outline_loss(start.solution) == 11

    offered = []  # (outline, each board's cut arcs) as the run streams them

    def band(outline):
        return cpsat_score.solve(inst, SolveOptions(
            objective="longest", seed=1, threads=1, hint=start.solution,
            on_solution=lambda b, _o: offered.append((outline, check.outline_loss(b))),
            params={"margin": 1} if outline is None else {"margin": 1, "outline": outline}))

    free, nine, eight = band(None), band(9), band(8)
    assert (9, 9) in offered and all(cut <= most for most, cut in offered if most is not None)
    assert (free.objective, check.outline_loss(free.solution)) == (6, 10)
    assert check.verify(inst, nine.solution, check.LONGEST).score == nine.objective == 5
    assert check.outline_loss(nine.solution) == 9 and nine.stats["outline_start"] == 11
    assert nine.stats["optimal_in_band"]
    assert eight.status == "budget" and eight.solution is None
    assert "outline cuts at most 8 arcs" in eight.stats["stop_reason"]


@pytest.mark.parametrize("option", ["--cap", "--outline"])
def test_a_shape_option_without_a_margin_is_refused_in_one_line(option):
    proc = run_cli("solve", INSTANCES / "tantrix_discovery_06.txt", "--objective", "longest",
                   "-b", "cpsat", option, "3")
    assert proc.returncode != 0 and "needs --margin" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_a_margin_on_a_fixed_board_is_refused_in_one_line():
    proc = run_cli("solve", INSTANCES / "tantrix_challenge_10.txt", "--objective", "longest",
                   "-b", "cpsat", "--margin", "1")
    assert proc.returncode != 0 and "free shapes only" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_workers_set_cp_sats_worker_count_whatever_the_threads():
    """--workers N: CP-SAT's workers, also beyond the cores (--threads is capped at them)."""
    from tilesolve.families.tantrix.cpsat import workers

    assert workers(SolveOptions(threads=0)) == {"num_workers": 8}
    assert workers(SolveOptions(threads=2)) == {}  # make_solver takes --threads
    assert workers(SolveOptions(threads=2, params={"workers": 16})) == {"num_workers": 16}
