"""The memetic pool's recombination (recombine.py) and its loop (backends/memetic.py,
evolve_pool): hand-checked children on a solved 4x4, legal children of random parents, and the
pool and the memetic backend's pool mode with the real annealer."""

from __future__ import annotations

import numpy as np
import pytest

from tilesolve.backends import memetic as loop
from tilesolve.core.result import SolveOptions
from tilesolve.families.edgematch import anneal, lns, recombine
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.generate import generate
from tilesolve.hybrid.lanes import Inbox

# cells of a 4x4 by index (row * 4 + column): the inner ones are 5, 6, 9, 10
INNER = (5, 6, 9, 10)


def solved_4x4(seed: int = 3):
    inst, sol = generate(4, 4, seed=seed)
    board = lns.Board(inst)
    return inst, board, board.arrays(sol)


def moved(a, places: dict[int, int]):
    """Board a with the piece of cell k moved to cell places[k] (rotations go with them)."""
    pcs, rts = a[0].copy(), a[1].copy()
    for src, dst in places.items():
        pcs[dst], rts[dst] = a[0][src], a[1][src]
    return pcs, rts


def test_one_cell_from_a_parent_that_differs_by_a_swap_gives_back_that_parent():
    inst, board, a = solved_4x4()
    b = moved(a, {5: 10, 10: 5})  # b: the pieces of cells 5 and 10 swapped
    assert board.score(*b) < board.score(*a) == 24
    child = recombine.recombine(board, a, b, np.array([5]), np.random.default_rng(0))
    # cell 5 takes a's piece, which b has on cell 10 (the clash); the piece b had on 5 is the
    # one left over and goes to cell 10, turned to fit: parent a again, all 24 joins matched
    assert child[0].tolist() == a[0].tolist()
    assert board.score(*child) == 24


def test_two_clashes_are_filled_by_the_assignment():
    inst, board, a = solved_4x4()
    # b holds a's inner pieces P, Q, R, S (cells 5, 6, 9, 10) as R, S, P, Q
    b = moved(a, {5: 9, 6: 10, 9: 5, 10: 6})
    child = recombine.recombine(board, a, b, np.array([5, 6]), np.random.default_rng(0))
    # cells 5, 6 take P, Q from a; b has them on 9 and 10 (the clashes); R and S are left
    # over, and the assignment puts each where it matches its three fixed neighbours
    assert child[0].tolist() == a[0].tolist()
    assert board.score(*child) == 24
    # the frame is b's throughout, which is a's (b moved inner pieces only)
    frame = [c for c in range(16) if c not in INNER]
    assert child[0][frame].tolist() == b[0][frame].tolist()


def scrambled(board: lns.Board, seed: int):
    """A legal board: the free cells' pieces shuffled within their class, turned to fit."""
    rng = np.random.default_rng(seed)
    pcs, rts = board.arrays(anneal_start(board))
    for k in range(3):
        cells = np.flatnonzero(board.free & (board.cell_class == k))
        pcs[cells] = pcs[cells][rng.permutation(len(cells))]
        for c in cells.tolist():
            rts[c] = int(rng.choice(np.flatnonzero(board.allowed[c, pcs[c]])))
    return pcs, rts


def anneal_start(board: lns.Board):
    """The planted board's pieces class by class, frame-legal (fixed cells keep theirs)."""
    inst = board.inst
    pcs = np.zeros(board.n, dtype=np.int64)
    rts = np.zeros(board.n, dtype=np.int64)
    for c, (p, r) in inst.fixed.items():
        pcs[board.index[c]], rts[board.index[c]] = p - 1, r
    used = {p - 1 for p, _ in inst.fixed.values()}
    for k in range(3):
        cells = [c for c in np.flatnonzero(board.cell_class == k).tolist() if board.free[c]]
        pieces = [p for p in np.flatnonzero(board.piece_class == k).tolist() if p not in used]
        for c, p in zip(cells, pieces, strict=True):
            pcs[c], rts[c] = p, int(np.flatnonzero(board.allowed[c, p])[0])
    return board.solution(pcs, rts)


@pytest.mark.parametrize("seed", range(6))
def test_children_of_random_parents_are_legal_and_keep_both_sides(seed):
    inst, _ = generate(6, 6, seed=seed, fixed=1)
    board = lns.Board(inst)
    a, b = scrambled(board, 2 * seed), scrambled(board, 2 * seed + 1)
    rng = np.random.default_rng(seed)
    cells = recombine.rectangle(board, rng)
    assert 0 < len(cells) < board.n and board.free[cells].all()
    pcs, rts = recombine.recombine(board, a, b, cells, rng)
    sol = board.solution(pcs, rts)
    rep = verify(inst, sol, "matches")
    assert rep.ok, rep
    assert sorted(pcs.tolist()) == list(range(inst.n))  # every piece once
    assert pcs[cells].tolist() == a[0][cells].tolist()
    assert rts[cells].tolist() == a[1][cells].tolist()
    # outside the rectangle the child is b except on the clash cells, which held a piece of
    # a's rectangle
    clash = set(np.flatnonzero(np.isin(b[0], a[0][cells])).tolist()) - set(cells.tolist())
    keep = [c for c in range(board.n) if c not in set(cells.tolist()) | clash]
    assert pcs[keep].tolist() == b[0][keep].tolist()
    assert all(sol[c] == v for c, v in inst.fixed.items())


def test_the_pool_keeps_the_best_and_no_duplicates():
    inst, _ = generate(6, 6, seed=4)
    board = lns.Board(inst)
    rng = np.random.default_rng(0)

    def improve(sol, _fit):  # 20,000 annealing moves at the lane's temperature
        a = anneal.Annealer(board, sol, int(rng.integers(1 << 30)))
        a.run(20_000, anneal.T_HOT)
        return a.best(), float(a.best_score)

    members = [improve(board.solution(*scrambled(board, k)), 0) for k in range(3)]

    def child(x, y, rng):
        pcs, rts = recombine.recombine(board, board.arrays(x), board.arrays(y),
                                       recombine.rectangle(board, rng), rng)
        return board.solution(pcs, rts)

    log = loop.PoolLog()
    final = loop.evolve_pool(members, child, improve, rng,
                             stop=lambda: log.children >= 12, log=log)
    assert len(final) == 3
    assert [f for _, f in final] == sorted((f for _, f in final), reverse=True)
    assert final[0][1] >= max(f for _, f in members)
    for sol, f in final:
        rep = verify(inst, sol, "matches")
        assert rep.ok and rep.score == f
    assert len({tuple(sorted(sol.items())) for sol, _ in final}) == 3
    assert log.children == 12 and log.kept + log.duplicates <= log.children
    # with this seed 3 of the 12 children beat the worst member (scores 55 56 54 -> 58 57 56):
    # each took the worst member's place, so no member's rank got worse, and each raised
    # the pool's total by a join at least
    first, last = sorted(f for _, f in members), sorted(f for _, f in final)
    assert log.kept >= 1 and log.gains <= log.kept
    assert all(b >= a for a, b in zip(first, last, strict=True))
    assert sum(last) >= sum(first) + log.kept


def test_the_memetic_backend_runs_its_pool_and_returns_a_verified_board():
    from tilesolve.families.edgematch import memetic

    inst, _ = generate(8, 8, seed=5)
    # CPU budgets (the same work on a loaded machine): 3 x (0.1 + 0.15) s builds the pool,
    # the rest makes children (3 CPU s with members of 0.2 + 0.3 s)
    out = memetic.solve(inst, SolveOptions(objective="matches", seed=1, stop=anneal.CpuBudget(1.5),
                                           params={"pool": "3", "member_seconds": "0.15",
                                                   "start_time": "0.1",
                                                   "memetic_seconds": "0.3"}))
    rep = verify(inst, out.solution, "matches")
    assert rep.ok and rep.score == out.objective
    assert out.stats["method"] == "pool" and len(out.stats["first_scores"]) == 3
    assert out.stats["final_scores"][0] == out.objective >= max(out.stats["first_scores"])
    assert out.stats["children"] >= 1



def test_a_board_from_another_lane_takes_the_worst_members_place():
    inst, planted = generate(6, 6, seed=4)
    board = lns.Board(inst)
    rng = np.random.default_rng(1)
    members = [(board.solution(*scrambled(board, k)), 0.0) for k in range(3)]
    members = [(sol, float(board.score(*board.arrays(sol)))) for sol, _ in members]
    inbox = Inbox()
    inbox.put(planted, float(len(board.joins)))  # the perfect board, from "another lane"

    def child(x, y, rng):  # the second parent unchanged: children never beat the pool
        return y

    log = loop.PoolLog()
    final = loop.evolve_pool(members, child, lambda s, f: (s, float(board.score(
        *board.arrays(s)))), rng, stop=lambda: log.children >= 2, log=log,
        target=len(board.joins) + 1, incoming=inbox.take)
    assert log.received == 1 and inbox.take() is None
    # the first child, a copy of a member, is counted and not kept; the second ends the run
    assert log.duplicates == 1 and log.kept == 0
    assert final[0] == (planted, float(len(board.joins)))
    # the two other members are the two best of the first pool: the worst made way
    assert sorted(f for _, f in final[1:]) == sorted(f for _, f in members)[1:]
