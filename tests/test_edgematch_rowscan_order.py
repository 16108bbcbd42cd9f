"""The rowscan's orders: the value order (`--values shuffled|fixed`: a seeded order per
bucket, or the table's own order, piece number then turn, whatever the seed), which finds the
same boards either way in the compiled core and the Python loop alike; and the anchor corner
that removes a square board's turns (the top-left cell takes it and no other piece)."""

from __future__ import annotations

import pytest
from conftest import walk

from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.edgematch import search
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.generate import generate

needs_c = pytest.mark.skipif(search._rowscan is None, reason="the compiled core is not built")


def _count(inst, values: str, fix=None, seed: int = 0):
    out = search.count(inst, SolveOptions(count=True, fix=fix, seed=seed,
                                          params={"values": values}))
    assert out.stats["complete"]
    return {frozenset(sol.items()) for sol in out.solutions}, out.stats["nodes"]


@pytest.mark.parametrize(("width", "height", "seed"), [(4, 4, 1), (5, 5, 3), (3, 5, 5)])
def test_fixed_order_counts_the_same_boards(width, height, seed):
    inst, _ = generate(width, height, seed=seed)
    shuffled = _count(inst, "shuffled", seed=9)
    assert shuffled[0] and all(verify(inst, dict(board)).ok for board in shuffled[0])
    assert _count(inst, "fixed")[0] == shuffled[0]


def test_fixed_order_counts_the_same_boards_around_a_fixed_piece():
    inst, planted = generate(5, 5, seed=4)
    fix = {(1, 2): planted[1, 2]}
    boards = _count(inst, "fixed", fix=fix)[0]
    assert boards == _count(inst, "shuffled", fix=fix)[0]
    assert all(dict(board)[1, 2] == planted[1, 2] for board in boards)


def test_fixed_order_is_the_tables_order():
    inst, _ = generate(5, 5, seed=3)
    tables = search.RowscanTables(inst)
    assert tables.ordered(None) == tables.columns
    assert tables.ordered(5) != tables.columns


def test_fixed_order_ignores_the_seed_and_never_restarts():
    inst, _ = generate(6, 6, seed=11)
    runs = []
    for seed in (0, 1):
        out = search.solve(inst, SolveOptions(time_limit=120, seed=seed, threads=1,
                                              params={"values": "fixed", "restart": 1000}))
        assert out.status is Status.SOLVED and verify(inst, out.solution).ok
        assert out.stats["restarts"] == 0
        runs.append((out.stats["nodes"], out.solution))
    assert runs[0] == runs[1] and runs[0][0] > 1000  # a seeded run would have restarted


def test_fixed_order_with_two_threads_solves_verified():
    inst, _ = generate(6, 6, seed=12)
    out = search.solve(inst, SolveOptions(time_limit=120, seed=3, threads=2,
                                          params={"values": "fixed"}))
    assert out.status is Status.SOLVED and verify(inst, out.solution).ok


@needs_c
@pytest.mark.parametrize("seed", [None, 5])
def test_c_and_python_walk_the_same_tree(seed):
    inst, planted = generate(5, 5, seed=3)
    tables = search.RowscanTables(inst, hint={(1, 1): planted[1, 1]})
    walks = [walk(kind(tables, seed)) for kind in (search.CSearcher, search.PySearcher)]
    assert walks[0] == walks[1] and walks[0][-1][1] > 0


def _turned(board: dict, n: int) -> dict:
    """A square board turned a quarter clockwise: the same solution, another corner top left."""
    return {(c, n - 1 - r): (p, (rot + 1) % 4) for (r, c), (p, rot) in board.items()}


def _top_left_pieces(tables) -> set[int]:
    lo, hi = tables.start[0], tables.start[tables.nkeys]
    return {tables.columns[0][i] + 1 for i in range(lo, hi)}


def test_the_top_left_cell_of_a_square_board_takes_the_anchor_only():
    inst, planted = generate(5, 5, seed=3)
    corners = {p for p in range(1, inst.n + 1) if inst.kind(p) == "corner"}
    assert _top_left_pieces(search.RowscanTables(inst, symmetry=False)) == corners
    assert _top_left_pieces(search.RowscanTables(inst)) == {min(corners)}
    # a hinted board keeps its own top-left corner as the anchor, turned any way
    for turns in range(4):
        board = planted
        for _ in range(turns):
            board = _turned(board, 5)
        assert verify(inst, board).ok
        tables = search.RowscanTables(inst, hint=board)
        assert _top_left_pieces(tables) == {board[0, 0][0]}
        searcher = search.CSearcher(tables, 8) if search._rowscan else \
            search.PySearcher(tables, 8)
        assert searcher.step(10_000) == (1, 25) and searcher.solution() == board


@pytest.mark.parametrize(("size", "seed"), [(4, 2), (5, 3), (5, 4)])
def test_the_anchor_keeps_every_board_up_to_a_turn(size, seed):
    inst, _ = generate(size, size, seed=seed)
    every = _count(inst, "shuffled")[0]  # counting keeps every turn of every board
    tables = search.RowscanTables(inst)
    searcher = search.CSearcher(tables, 3) if search._rowscan else search.PySearcher(tables, 3)
    kept = set()
    while (code := searcher.step(1_000_000)[0]) != -1:
        if code == 1:
            kept.add(frozenset(searcher.solution().items()))
    anchor = min(p for p in range(1, inst.n + 1) if inst.kind(p) == "corner")
    assert kept and kept == {b for b in every if dict(b)[0, 0][0] == anchor}
    assert 4 * len(kept) == len(every)
