"""Simulated annealing over swaps and rotations (anneal.py, _anneal.c): scores it claims are
the checker's, boards stay permutations that keep fixed pieces, and on a board small enough
to enumerate it finds the optimum."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from conftest import INSTANCES

from tilesolve.core.result import SolveOptions
from tilesolve.families.edgematch import anneal, lns
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.generate import generate
from tilesolve.families.edgematch.instance import EdgeInstance
from tilesolve.families.edgematch.parse import read_instance

ENGINES = ["python"] + (["compiled"] if anneal._anneal is not None else [])


def recoloured(seed: int) -> EdgeInstance:
    """A 3x3 board whose pieces' coloured sides are redrawn from 3 colours: a perfect board
    is then unlikely, so the optimum is a real maximum, not the planted board."""
    inst, _ = generate(3, 3, seed=seed)
    rnd = random.Random(seed)
    pieces = [tuple(0 if c == 0 else rnd.randint(1, 3) for c in e) for e in inst.pieces]
    return EdgeInstance(3, 3, pieces, name=f"recoloured{seed}")


def brute_force(board: lns.Board) -> int:
    """The best score over every board: corners and borders permuted (one rotation each on
    a 3x3), the centre piece in its four rotations."""
    groups = [np.flatnonzero(board.cell_class == k) for k in range(3)]
    pieces = [np.flatnonzero(board.piece_class == k) for k in range(3)]
    best = -1
    pcs = np.zeros(board.n, dtype=np.int64)
    rts = np.zeros(board.n, dtype=np.int64)
    for corner in itertools.permutations(pieces[0].tolist()):
        for border in itertools.permutations(pieces[1].tolist()):
            for cells, chosen in ((groups[0], corner), (groups[1], border)):
                for c, p in zip(cells.tolist(), chosen, strict=True):
                    pcs[c], rts[c] = p, int(np.flatnonzero(board.allowed[c, p])[0])
            centre = int(groups[2][0])
            pcs[centre] = int(pieces[2][0])
            for r in range(4):
                rts[centre] = r
                best = max(best, board.score(pcs, rts))
    return best


def first_board(board: lns.Board):
    """The pieces of each class on the cells of that class in order, each turned to fit the
    frame: a legal board to start from (moves keep pieces within their class)."""
    pcs = np.zeros(board.n, dtype=np.int64)
    rts = np.zeros(board.n, dtype=np.int64)
    for k in range(3):
        for c, p in zip(np.flatnonzero(board.cell_class == k).tolist(),
                        np.flatnonzero(board.piece_class == k).tolist(), strict=True):
            pcs[c], rts[c] = p, int(np.flatnonzero(board.allowed[c, p])[0])
    return board.solution(pcs, rts)


def engine_name(engine: str) -> str:
    return "python" if engine == "python" else "auto"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_anneal_finds_the_enumerated_optimum_of_a_3x3(engine, seed):
    inst = recoloured(seed)
    board = lns.Board(inst)
    optimum = brute_force(board)
    assert optimum < 12  # the recolouring made a perfect board impossible: a real maximum
    start = first_board(board)
    a = anneal.Annealer(board, start, seed, engine_name(engine))
    for _ in range(8):  # 6,400 moves: the Python loop takes them in about a second
        a.run(400, 0.4)
        a.run(400, 0.05)
    best = a.best()
    assert a.best_score == optimum == board.score(*board.arrays(best))


@pytest.mark.parametrize("engine", ENGINES)
def test_claimed_scores_are_the_checkers_and_fixed_pieces_stay(engine):
    inst = read_instance(INSTANCES / "e2_6x6.txt")
    start = lns.start_board(inst, SolveOptions(seed=0, objective="matches"), 2.0)
    board = lns.Board(inst, {(2, 3): start[(2, 3)]})  # an inner cell held fixed
    start_score = board.score(*board.arrays(start))
    a = anneal.Annealer(board, start, 7, engine_name(engine))
    for temp in (0.8, 0.3, 0.1):  # hot first, so moves that lose joins are taken too
        a.run(3_000, temp)
        cur = a.current()
        assert a.score == board.score(*board.arrays(cur))  # the incremental count is exact
        assert cur[(2, 3)] == start[(2, 3)]
        assert sorted(p for p, _ in cur.values()) == list(range(1, inst.n + 1))
    best = a.best()
    rep = verify(inst, best, "matches")
    assert rep.ok and rep.score == a.best_score >= start_score
    assert best[(2, 3)] == start[(2, 3)]


@pytest.mark.parametrize("assign_every", [0, 2])
def test_anneal_schedule_never_returns_worse_than_its_start_and_reports_each_gain(
        assign_every):
    inst = read_instance(INSTANCES / "e2_7x7.txt")
    board = lns.Board(inst)
    start = lns.start_board(inst, SolveOptions(seed=3, objective="matches"), 1.0)
    start_score = board.score(*board.arrays(start))
    seen: list[int] = []
    best, score = anneal.anneal(board, start, 3, seconds=2.0, cycle=0.5,
                                on_improve=lambda sol, s: seen.append(s),
                                assign_every=assign_every)
    assert score == board.score(*board.arrays(best)) >= start_score
    assert seen == sorted(seen) and (not seen or seen[-1] == score)
    assert verify(inst, best, "matches").ok


def test_reassigned_board_is_never_worse_and_keeps_the_fixed_piece():
    inst = read_instance(INSTANCES / "e2_7x7.txt")
    start = lns.start_board(inst, SolveOptions(seed=1, objective="matches"), 1.0)
    fix = {(3, 3): start[(3, 3)]}
    board = lns.Board(inst, fix)
    rng = np.random.default_rng(0)
    sol, changed = start, 0
    for _ in range(20):
        new = anneal.reassigned(board, sol, rng)
        assert board.score(*board.arrays(new)) >= board.score(*board.arrays(sol))
        assert new[(3, 3)] == fix[(3, 3)]
        assert sorted(p for p, _ in new.values()) == list(range(1, inst.n + 1))
        changed += new != sol
        sol = new
    assert changed  # ties are broken at random: equal-score boards differ


def test_lns_backend_anneals_by_default_and_repairs_when_asked():
    inst = read_instance(INSTANCES / "e2_6x6.txt")
    for params, method in (({}, "anneal"), ({"anneal": "off"}, None)):
        out = lns.solve(inst, SolveOptions(seed=0, objective="matches", time_limit=3.0,
                                           params=params))
        assert verify(inst, out.solution, "matches").score == out.objective
        assert out.stats.get("method") == method
