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
    # four cycles, as with seconds=2.0 and cycle=0.5 (a quarter of the CPU)
    best, score = anneal.anneal(board, start, 3, seconds=0.5, cycle=0.125,
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


@pytest.mark.parametrize("engine", ENGINES)
def test_three_cycles_count_their_change_exactly_and_keep_a_permutation(engine):
    """Every move a 3-cycle (triples 1.0, hot: most are taken): the incremental score after
    each batch equals the recounted one, the fixed piece stays and the pieces stay a
    permutation."""
    inst = read_instance(INSTANCES / "e2_6x6.txt")
    start = lns.start_board(inst, SolveOptions(seed=0, objective="matches"), 2.0)
    board = lns.Board(inst, {(2, 3): start[(2, 3)]})
    a = anneal.Annealer(board, start, 5, engine_name(engine))
    moved = 0
    for temp in (1.0, 0.3, 0.05):
        before = a.current()
        taken = a.run(1_000, temp, focus=0.0, triples=1.0)
        cur = a.current()
        moved += taken
        assert a.score == board.score(*board.arrays(cur))
        assert cur[(2, 3)] == start[(2, 3)]
        assert sorted(p for p, _ in cur.values()) == list(range(1, inst.n + 1))
        assert taken == 0 or cur != before
    assert moved > 0
    assert verify(inst, a.best(), "matches").score == a.best_score


def test_one_three_cycle_on_a_3x3_moves_three_pieces_of_one_class():
    """One move taken with every swap made a 3-cycle: on a 3x3 it is either a turn of the
    centre (the only inner cell) or three corners or three borders moved, and in both engines
    the counted score is the recount."""
    inst = recoloured(4)
    board = lns.Board(inst)
    start = first_board(board)
    for engine in ENGINES:
        a = anneal.Annealer(board, start, 11, engine_name(engine))
        # T = 100 takes a loss of d joins with probability exp(-d / 100) > 0.9
        assert any(a.run(1, 100.0, focus=0.0, triples=1.0) for _ in range(20))
        cur = a.current()
        changed = [c for c in cur if cur[c][0] != start[c][0]]
        if changed:
            assert len(changed) == 3
            assert len({int(board.cell_class[r * 3 + c]) for r, c in changed}) == 1
        else:  # the centre turned
            assert [c for c in cur if cur[c] != start[c]] == [(1, 1)]
        assert a.score == board.score(*board.arrays(cur))


def test_ladder_is_geometric_from_cold_to_hot():
    temps = anneal.ladder(0.1, 0.4, 3)
    assert temps == pytest.approx([0.1, 0.2, 0.4])
    assert anneal.ladder(0.19, 0.3, 1) == [0.19]


def test_exchange_follows_the_metropolis_rule():
    rng = np.random.default_rng(0)
    temps = [0.1, 0.2]
    slots = [0, 1]
    # the hotter chain holds the better board: always traded
    assert anneal.exchange([400, 401], temps, slots, rng, 0) == 1 and slots == [1, 0]
    # the colder holds a board 5 joins better: exp((10 - 5) * -5) ~ 1e-11, never traded
    slots = [0, 1]
    assert sum(anneal.exchange([405, 400], temps, slots, rng, 0) for _ in range(100)) == 0
    assert slots == [0, 1]
    # parity 1 on two temperatures: no pair to look at
    assert anneal.exchange([400, 401], temps, [0, 1], rng, 1) == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_tempering_keeps_every_chain_a_permutation_and_returns_the_best(engine):
    inst = read_instance(INSTANCES / "e2_16x16.txt")  # never solved within a second
    start = first_board(lns.Board(inst))
    fix = {(3, 3): start[(3, 3)]}
    board = lns.Board(inst, fix)
    start_score = board.score(*board.arrays(start))
    seen: list[int] = []
    stats = anneal.TemperStats()
    chains: list[anneal.Annealer] = []
    best, score = anneal.temper(board, start, 4, seconds=0.5, temps=[0.15, 0.3, 0.6],
                                sweep=4_000, cycle=0.3, engine=engine_name(engine),
                                on_improve=lambda sol, s: seen.append(s), stats=stats,
                                chains=chains)
    assert len(chains) == 3 and stats.rounds > 0 and stats.moves == stats.rounds * 3 * (
        4_000 if chains[0].compiled else 40)
    for c in chains:
        for sol in (c.current(), c.best()):
            assert sorted(p for p, _ in sol.values()) == list(range(1, inst.n + 1))
            assert sol[(3, 3)] == fix[(3, 3)]
        assert c.score == board.score(*board.arrays(c.current()))
    assert score == max(c.best_score for c in chains) >= start_score
    assert verify(inst, best, "matches").score == score
    assert seen == sorted(seen) and (not seen or seen[-1] == score)


def test_lns_restarts_from_a_better_board_another_lane_sent():
    """The LNS lane from a scrambled 10x10 (a complete hint: no break search), with the
    planted perfect board waiting in its inbox: its first cycle restart (0.2 CPU s) takes it,
    and the run ends solved; 0.6 CPU s of annealing alone does not solve a 10x10 from
    scratch."""
    from tilesolve.hybrid.lanes import Inbox

    inst, planted = generate(10, 10, seed=6)
    board = lns.Board(inst)
    rng = np.random.default_rng(0)
    pcs, rts = board.arrays(first_board(board))
    for k in range(3):
        cells = np.flatnonzero(board.cell_class == k)
        pcs[cells] = pcs[cells][rng.permutation(len(cells))]
    start = board.solution(pcs, rts)
    joins = len(board.joins)
    results = {}
    for sent in (False, True):
        inbox = Inbox()
        if sent:
            inbox.put(planted, float(joins))
        out = lns.solve(inst, SolveOptions(seed=0, objective="matches",
                                           stop=anneal.CpuBudget(0.6), hint=start,
                                           params={"cycle": "0.2", "inbox": inbox}))
        assert verify(inst, out.solution, "matches").score == out.objective
        results[sent] = (out.objective, out.stats["received"])
    assert results[False][0] < joins and results[False][1] == 0
    assert results[True] == (joins, 1)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_block_turn_moves_four_inner_pieces_round_keeping_their_joins(engine):
    """From the planted perfect 6x6 (every join matched) with its frame fixed, every move a
    2x2 block turn: the first move taken changes exactly the four cells of one 2x2 block of
    inner cells, each piece one cell round and turned a quarter with it, so the block's four
    inner joins still match; only its eight outer joins may break, and the counted score is
    the recount."""
    inst, planted = generate(6, 6, seed=8)
    board = lns.Board(inst, {k: v for k, v in planted.items() if not all(0 < x < 5 for x in k)})
    joins = len(board.joins)
    a = anneal.Annealer(board, planted, 2, engine_name(engine))
    assert a.score == joins
    # T = 100 takes a loss of d joins with probability exp(-d / 100) > 0.9
    assert any(a.run(1, 100.0, focus=0.0, blocks=1.0) for _ in range(200))
    cur = a.current()
    moved = sorted(c for c in cur if cur[c] != planted[c])
    (r, c) = moved[0]
    assert moved == [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
    assert all(0 < x < 5 for cell in moved for x in cell)  # inner cells only
    ring = [(r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c)]  # clockwise
    steps = set()
    for k in ring:
        src = next(j for j in ring if planted[j][0] == cur[k][0])
        step = (ring.index(k) - ring.index(src)) % 4  # 1: clockwise, 3: anticlockwise
        assert (cur[k][1] - planted[src][1]) % 4 == step  # turned with the block
        steps.add(step)
    assert steps in ({1}, {3})
    assert joins - 8 <= a.score == board.score(*board.arrays(cur)) <= joins


def test_lns_runs_parallel_tempering_when_asked_and_refuses_a_bad_ladder():
    from tilesolve.core.errors import InputError

    inst = read_instance(INSTANCES / "e2_16x16.txt")  # far from solved within a second
    out = lns.solve(inst, SolveOptions(seed=0, objective="matches", stop=anneal.CpuBudget(0.8),
                                       params={"replicas": "3", "t_max": "0.4",
                                               "blocks": "0.2", "start_time": "0.3"}))
    assert verify(inst, out.solution, "matches").score == out.objective
    assert out.stats["moves"] > 0
    assert out.stats["replicas"] == 3 and out.stats["temperature"] == [0.14, 0.4]
    assert out.stats["blocks"] == 0.2
    for bad in ({"replicas": "0"}, {"triples": "1.5"},
                {"replicas": "4", "temperature": "0.5", "t_max": "0.3"}):
        with pytest.raises(InputError):
            lns.solve(inst, SolveOptions(seed=0, objective="matches", time_limit=1.0,
                                         params=bad))


def weighted_sum(board: lns.Board, sol, penalties: anneal.Penalties) -> int:
    """The guided objective recounted: each matched join's weight, in 1/UNIT of a join."""
    pcs, rts = board.arrays(sol)
    side = penalties.sides[0]
    return int((penalties.packed[side] >> 8)[board.matched(pcs, rts)].sum())


@pytest.mark.parametrize("engine", ENGINES)
def test_weighted_joins_steer_the_moves_and_the_score_stays_the_plain_count(engine):
    """Joins weighted 1 to 5 (random penalties), every kind of move on, at T = 0: the chain
    takes only moves that keep or raise the weighted sum, so the recounted weighted sum never
    falls; the score it claims is still the plain count of matched joins; the board stays a
    permutation with the fixed piece in place."""
    inst = read_instance(INSTANCES / "e2_6x6.txt")
    start = first_board(lns.Board(inst))  # far from the best: many moves gain
    board = lns.Board(inst, {(2, 3): start[(2, 3)]})
    a = anneal.Annealer(board, start, 5, engine_name(engine))
    pen = a.penalties = anneal.Penalties(board, 0.0)
    pen.extra[:] = np.random.default_rng(1).uniform(0, anneal.PENALTY_MAX, len(pen.extra))
    pen.pack()
    weighted, taken = weighted_sum(board, start, pen), 0
    for _ in range(6):
        taken += a.run(500, 0.0, focus=0.3, triples=0.2, blocks=0.2)
        cur = a.current()
        now = weighted_sum(board, cur, pen)
        assert now >= weighted
        weighted = now
        assert a.score == board.score(*board.arrays(cur))
        assert cur[(2, 3)] == start[(2, 3)]
        assert sorted(p for p, _ in cur.values()) == list(range(1, inst.n + 1))
    assert taken > 0
    assert verify(inst, a.best(), "matches").score == a.best_score


@pytest.mark.parametrize("engine", ENGINES)
def test_weighted_chain_when_hot_still_counts_its_score_exactly(engine):
    """The same weights, hot (losses taken): the incremental plain score is the recount after
    every batch, and the best board met is at least the start."""
    inst = read_instance(INSTANCES / "e2_6x6.txt")
    start = lns.start_board(inst, SolveOptions(seed=1, objective="matches"), 2.0)
    board = lns.Board(inst, {(2, 3): start[(2, 3)]})
    a = anneal.Annealer(board, start, 9, engine_name(engine))
    a.penalties = anneal.Penalties(board, 0.5)
    for temp in (1.0, 0.3, 0.1):
        a.run(2_000, temp, triples=0.2, blocks=0.2)
        cur = a.current()
        assert a.score == board.score(*board.arrays(cur))
        assert sorted(p for p, _ in cur.values()) == list(range(1, inst.n + 1))
        assert cur[(2, 3)] == start[(2, 3)]
        a.penalties.update(a.arrays[5], a.arrays[6])
    assert a.best_score == board.score(*board.arrays(a.best())) >= board.score(
        *board.arrays(start))


def test_penalties_grow_on_mismatched_joins_decay_elsewhere_and_weigh_both_sides():
    inst = read_instance(INSTANCES / "e2_6x6.txt")
    board = lns.Board(inst)
    sol = first_board(board)
    pcs, rts = board.arrays(sol)
    miss = ~board.matched(pcs, rts)
    assert miss.any() and (~miss).any()
    pen = anneal.Penalties(board, 0.5, decay=0.5, most=0.8)
    assert (pen.packed[pen.sides[0]] == (anneal.UNIT << 8) | 1).all()
    pen.update(pcs, rts)
    assert pen.extra[miss] == pytest.approx(0.5) and not pen.extra[~miss].any()
    pen.update(pcs, rts)
    assert pen.extra[miss] == pytest.approx(0.75)  # 0.5 * 0.5 + 0.5
    pen.update(pcs, rts)
    assert pen.extra[miss] == pytest.approx(0.8)  # capped at `most`
    a, b = pen.sides
    assert (pen.packed[a] == pen.packed[b]).all()  # one join, the same weight from each cell
    assert ((pen.packed[a][miss] >> 8) == anneal.UNIT + round(0.8 * anneal.UNIT)).all()
    assert (pen.packed[a] & 255 == 1).all()  # the low byte counts the join once
    pen.reset()
    assert not pen.extra.any() and ((pen.packed[a] >> 8) == anneal.UNIT).all()


def test_lns_runs_guided_annealing_when_asked():
    inst = read_instance(INSTANCES / "e2_16x16.txt")
    out = lns.solve(inst, SolveOptions(seed=0, objective="matches", stop=anneal.CpuBudget(0.8),
                                       params={"penalty": "0.02", "start_time": "0.3"}))
    assert verify(inst, out.solution, "matches").score == out.objective
    assert out.stats["penalty"] == 0.02
    with pytest.raises(Exception, match="penalty"):
        lns.solve(inst, SolveOptions(seed=0, objective="matches", time_limit=1.0,
                                     params={"penalty": "9"}))
