"""Niang's GA (the edge-matching `paper` preset): each operator against a hand-worked example,
the fitness with its 2x2-area term on hand-scored boards, linear ranking probabilities, and
the preset solving a shipped 4x4 board with 5 patterns within the thesis's budget."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import INSTANCES, run_cli

from tilesolve.backends import ga as engine
from tilesolve.core.family import load_instance
from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.edgematch import crossovers, ga, mutations
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.instance import EdgeInstance
from tilesolve.families.edgematch.niang_fitness import bad_areas

NIANG_4X4 = INSTANCES / "e2_niang_4x4_p5.txt"


def _free_4x4():
    """The 4x4 board on the free layout: one group, so moves are the thesis's plain ones."""
    _, inst = load_instance(NIANG_4X4)
    return ga.NiangEncoding(inst, layout="free")


def _genome(pieces, turns):
    return np.array(list(pieces) + list(turns), dtype=np.int64)


def test_region_draw_is_two_random_corners():
    enc = _free_4x4()
    # seed 38 draws rows (0, 1) and columns (1, 0): the block of cells 0, 1, 4, 5
    assert mutations.random_region(enc, np.random.default_rng(38)) == (0, 0, 2, 2)
    assert np.random.default_rng(38).integers(0, 4, 2).tolist() == [0, 1]


def test_region_exchange_by_hand():
    """Algorithm 7 on the block of cells 0, 1, 4, 5 (drawn by seed 38).

    A holds piece i at cell i, all turned 0; B's block holds 7, 0, 12, 5. Child A: B's block
    copied in (7, 0, 12, 5 with B's turns); pieces 7 and 12 leave holes at cells 7 and 12
    (row-major), filled from list A = A's block pieces B's block lacks, in order: 1, 4.
    Child B: A's block (0, 1, 4, 5) copied in; pieces 1 and 4 sat at cells 7 and 12 of B;
    list B = 7, 12 (with the turns they had in B's block)."""
    enc = _free_4x4()
    a = _genome(range(16), [0] * 16)
    b = _genome([7, 0, 3, 2, 12, 5, 6, 1, 9, 8, 10, 11, 4, 13, 15, 14], [2] + [1] * 15)
    c1, c2 = crossovers.region_exchange(enc, a[None], b[None], np.random.default_rng(38))
    assert c1[0, :16].tolist() == [7, 0, 2, 3, 12, 5, 6, 1, 8, 9, 10, 11, 4, 13, 14, 15]
    assert c1[0, 16:].tolist() == [2, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    assert c2[0, :16].tolist() == [0, 1, 3, 2, 4, 5, 6, 7, 9, 8, 10, 11, 12, 13, 15, 14]
    assert c2[0, 16:].tolist() == [0, 0, 1, 1, 0, 0, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1]


def test_region_exchange_keeps_classes_and_hints_on_the_frame_layout():
    _, inst = load_instance(NIANG_4X4)
    inst.fixed[(1, 1)] = (5, 2)
    enc = ga.NiangEncoding(inst)
    rng = np.random.default_rng(4)
    pop = enc.random(rng, 40)
    c1, c2 = enc.crossover(pop[:20], pop[20:], rng)
    for g in np.concatenate([c1, c2]):
        assert verify(inst, enc.decode(g), "matches").ok
    assert (c1 != pop[:20]).any()


def test_region_exchange_of_two_regions_by_hand():
    """The two-regions reading: B's block at cells 0, 1 (pieces 7, 0 turned 2, 1) goes to A's
    cells 10, 11. A's pieces 7 and 0 leave holes at cells 0 and 7, filled in row-major order
    from A's block pieces, 10 and 11 (turn 0). Child B gets A's cells 10, 11 (pieces 10, 11)
    at its cells 0, 1; its pieces 10 and 11 leave holes at cells 10, 11, filled by 7 and 0
    with the turns they had in B's block."""
    enc = _free_4x4()
    a = _genome(range(16), [0] * 16)
    b = _genome([7, 0, 3, 2, 12, 5, 6, 1, 9, 8, 10, 11, 4, 13, 15, 14], [2] + [1] * 15)
    here, there = np.array([10, 11]), np.array([0, 1])
    c1 = crossovers.exchange_child(enc, a, b, here, there)
    c2 = crossovers.exchange_child(enc, b, a, there, here)
    assert c1[:16].tolist() == [10, 1, 2, 3, 4, 5, 6, 11, 8, 9, 7, 0, 12, 13, 14, 15]
    assert c1[16:].tolist() == [0] * 10 + [2, 1] + [0] * 4
    assert c2[:16].tolist() == [10, 11, 3, 2, 12, 5, 6, 1, 9, 8, 7, 0, 4, 13, 15, 14]
    assert c2[16:].tolist() == [0, 0] + [1] * 8 + [2, 1] + [1] * 4


def test_two_regions_move_blocks_and_keep_classes_on_the_frame_layout():
    _, inst = load_instance(INSTANCES / "e2_niang_6x6_p7.txt")
    enc = ga.NiangEncoding(inst, region="two_regions")
    rng = np.random.default_rng(5)
    moved = 0
    for _ in range(40):
        here, there = crossovers.two_regions(enc, rng)
        assert (enc.cell_group[here] == enc.cell_group[there]).all()
        moved += not np.array_equal(here, there)
    assert moved > 10
    pop = enc.random(rng, 40)
    c1, c2 = enc.crossover(pop[:20], pop[20:], rng)
    for g in np.concatenate([c1, c2]):
        assert verify(inst, enc.decode(g), "matches").ok


def test_region_inversion_by_hand():
    """Seed 83 draws rows 1-2 and columns 0-2: cells 4, 5, 6, 8, 9, 10 get their pieces back
    last first (10, 9, 8, 6, 5, 4), each keeping its turn."""
    enc = _free_4x4()
    assert mutations.random_region(enc, np.random.default_rng(83)) == (1, 0, 2, 3)
    g = _genome(range(16), [i % 4 for i in range(16)])
    mutations.region_inversion(enc, g, np.random.default_rng(83))
    assert g[:16].tolist() == [0, 1, 2, 3, 10, 9, 8, 7, 6, 5, 4, 11, 12, 13, 14, 15]
    assert g[16:].tolist() == [0, 1, 2, 3, 2, 1, 0, 3, 2, 1, 0, 3, 0, 1, 2, 3]


class Draws:
    """Scripted random draws for one operator call: each `integers(lo, hi[, size])` takes the
    next value, which must lie in [lo, hi), so a test also pins the range of every draw."""

    def __init__(self, *values):
        self.values = list(values)

    def integers(self, lo, hi, size=None):
        value = self.values.pop(0)
        assert all(lo <= v < hi for v in np.atleast_1d(value)), (lo, hi, value)
        return np.array(value) if size is not None else value


def test_region_rotation_by_hand():
    """4.5.4 on the free 4x4: draws k = 3, rows from 0, columns from 1: the block of cells
    1, 2, 3 / 5, 6, 7 / 9, 10, 11 turns a quarter clockwise, so the left column (1, 5, 9)
    becomes the top row read right to left (9, 5, 1), and each piece turns one quarter more.
    Anticlockwise would put 3, 7, 11 on top; a transpose 1, 5, 9."""
    enc = _free_4x4()
    g = _genome(range(16), [i % 4 for i in range(16)])
    draws = Draws(3, 0, 1)  # k in [2, 4], then a top-left cell the block fits from
    mutations.region_rotate(enc, g, draws)
    assert not draws.values
    assert g[:16].tolist() == [0, 9, 5, 1, 4, 10, 6, 2, 8, 11, 7, 3, 12, 13, 14, 15]
    assert g[16:].tolist() == [0, 2, 2, 2, 0, 3, 3, 3, 0, 0, 0, 0, 0, 1, 2, 3]
    # the picture turns with the block: the new top-right piece shows on its east side what
    # the old top-left piece (1) showed on its north side, and so on round the block
    col = enc.col
    before = {p: col[p, p % 4] for p in range(16)}
    assert col[g[3], g[19], 1] == before[1][0]  # E of the new corner = N of piece 1
    assert col[g[9], g[25], 0] == before[11][3]  # N of the new bottom-left = W of piece 11


def test_region_rotation_keeps_the_frame_on_the_frame_layout():
    """On the frame layout only the inner block turns: on a 4x4 that is the 2x2 of cells 5, 6,
    9, 10 (k drawn in [2, 2], offsets in [1, 1]): 9 goes to 5, 5 to 6, 10 to 9, 6 to 10."""
    _, inst = load_instance(NIANG_4X4)
    enc = ga.NiangEncoding(inst)
    g = enc.random(np.random.default_rng(1), 1)[0]
    before = g.copy()
    draws = Draws(2, 0, 0)
    mutations.region_rotate(enc, g, draws)
    assert not draws.values
    assert g[[5, 6, 9, 10]].tolist() == before[[9, 5, 10, 6]].tolist()
    assert g[16 + np.array([5, 6, 9, 10])].tolist() == \
        ((before[16 + np.array([9, 5, 10, 6])] + 1) % 4).tolist()
    rest = np.setdiff1d(np.arange(32), [5, 6, 9, 10, 21, 22, 25, 26])
    assert (g[rest] == before[rest]).all()
    assert verify(inst, enc.decode(g), "matches").ok


@pytest.mark.parametrize(("draws", "moved"), [
    # a vertical cut (columns 0-1 | 2-3); blocks 1 row by 2 columns at (3, 0) and (0, 2)
    ((1, 2, 1, 0, 0, [3, 0]), {12: 2, 13: 3, 2: 12, 3: 13}),
    # a horizontal cut (rows 0-1 | 2-3); blocks 1 row by 3 columns at (1, 0) and (3, 1)
    ((0, 1, 3, 1, 1, [0, 1]), {4: 13, 5: 14, 6: 15, 13: 4, 14: 5, 15: 6}),
])
def test_region_swap_by_hand(draws, moved):
    """4.5.5 ("Region Swap" in the tables, the paper preset's `region_swap`): the board cut
    in halves, one block size, a block in each half; the blocks exchange pieces in reading
    order, each keeping its turn. Draws: cut direction, the size across the cut (at most half
    the board) and along it, the offsets across the cut in each half, the two offsets along."""
    assert mutations.PAPER["region_swap"] is mutations.halves_swap
    assert ga.PRESETS["paper"].options["operators"] == ("region_rotate", "region_swap")
    enc = _free_4x4()
    g = _genome(range(16), [i % 4 for i in range(16)])
    script = Draws(*draws)
    mutations.halves_swap(enc, g, script)
    assert not script.values
    expect = [moved.get(i, i) for i in range(16)]
    assert g[:16].tolist() == expect
    assert g[16:].tolist() == [p % 4 for p in expect]  # turns travel with the pieces


def test_scramble_keeps_the_top_left_piece_and_the_classes():
    _, inst = load_instance(NIANG_4X4)
    enc = ga.NiangEncoding(inst)  # frame layout: classes must survive the shuffle
    rng = np.random.default_rng(0)
    g = enc.random(rng, 1)[0]
    before = g.copy()
    out = mutations.mutate(enc, g[None].copy(), rng, mutations.PAPER, ("scramble",))[0]
    assert out[0] == before[0] and out[16] == before[16]
    assert sorted(out[:16]) == list(range(16)) and (out[:16] != before[:16]).sum() >= 4
    assert verify(inst, enc.decode(out), "matches").ok


def test_row_inversion_reverses_a_run_of_one_row():
    enc = _free_4x4()
    g = _genome(range(16), [0] * 16)
    mutations.row_inversion(enc, g, np.random.default_rng(5))
    changed = np.flatnonzero(g[:16] != np.arange(16))
    row = changed // 4
    assert len(changed) >= 2 and len(set(row.tolist())) == 1
    assert g[changed].tolist() == changed[::-1].tolist()


def _stripes_3x3() -> EdgeInstance:
    """Piece i + 1 solves cell i unturned: colour 1 on every east-west join, 2 on every
    north-south join, grey on the frame."""
    pieces = [(0 if r == 0 else 2, 0 if c == 2 else 1, 0 if r == 2 else 2, 0 if c == 0 else 1)
              for r in range(3) for c in range(3)]
    return EdgeInstance(3, 3, pieces)


@pytest.mark.parametrize("change, both, edges_only", [
    ({}, 1.0, 1.0),
    # the centre turned a quarter: its 4 joins of 12 and all 4 areas fail
    ({"turn": (4, 1)}, 1 - (4 / 12 + 4 / 4) / 2, 1 - 4 / 12),
    # the centre turned half a turn looks the same
    ({"turn": (4, 2)}, 1.0, 1.0),
    # border pieces of cells (0, 1) and (1, 0) exchanged (turned grey side out): 6 joins fail,
    # and 3 areas (only the bottom-right one is whole)
    ({"swap": (1, 3)}, 1 - (6 / 12 + 3 / 4) / 2, 1 - 6 / 12),
])
def test_fitness_with_the_area_term_by_hand(change, both, edges_only):
    inst = _stripes_3x3()
    g = _genome(range(9), [0] * 9)
    if "turn" in change:
        cell, r = change["turn"]
        g[9 + cell] = r
    if "swap" in change:
        x, y = change["swap"]
        g[[x, y]] = g[[y, x]]
    for terms, expected in ((("edges", "areas"), both), (("edges",), edges_only)):
        enc = ga.NiangEncoding(inst, terms=terms)
        fit = enc.fitness(enc.normalise(g[None].copy()))[0]
        assert fit == pytest.approx(expected)


# The thesis's solved boards as its screenshots list them (Figs. 44, 45, 43), shipped as
# instances: the tile at cell k, row-major, as (north, east, south, west) where it lies; in the
# file it is piece k + 1, unturned.
FIG44_4X4, FIG45_5X5, FIG43_6X6 = (
    load_instance(INSTANCES / f"e2_niang_{name}.txt")[1].pieces
    for name in ("fig44_4x4", "fig45_5x5", "fig43_6x6"))


def _faults(enc, pop):
    """(unmatched joins, unmatched 2x2 areas) per board."""
    mh, mv = enc.join_matches(pop)
    joins = mh[0].size + mv[0].size
    return list(zip((joins - mh.sum(axis=(1, 2)) - mv.sum(axis=(1, 2))).tolist(),
                    bad_areas(mh, mv).tolist(), strict=True))


@pytest.mark.parametrize("pieces, printed", [
    (FIG44_4X4, 0.826), (FIG45_5X5, 0.900), (FIG43_6X6, 0.935)])
def test_the_last_status_line_of_each_solved_run_is_one_frame_piece_turned(pieces, printed):
    """Each solved run's screenshot prints, one generation before its solution, 3 unmatched
    joins and 2 unmatched areas at fitness `printed`. Our fitness scores the thesis's board 1,
    and 3, 2 and `printed` once the frame piece of cell 1 is turned half a turn (its three
    joins break; two areas hold them). With frame pieces kept grey side out (`--layout
    frame`) no single move of a solved board gives that state: the thesis's frame pieces
    turned freely, as on the free layout."""
    n = int(len(pieces) ** 0.5)
    inst = EdgeInstance(n, n, list(pieces))
    free = ga.NiangEncoding(inst, layout="free")
    g = _genome(range(n * n), [0] * (n * n))
    assert verify(inst, free.decode(g)).ok and free.fitness(g[None])[0] == 1.0
    turned = g.copy()
    turned[n * n + 1] = 2
    assert _faults(free, turned[None]) == [(3, 2)]
    assert round(float(free.fitness(turned[None])[0]), 3) == printed
    frame = ga.NiangEncoding(inst, layout="frame")
    g = frame.encode(free.decode(g))
    moves = []
    for i in range(n * n):
        for r in (1, 2, 3) if frame.cell_class[i] == 2 else ():
            moves.append(g.copy())
            moves[-1][n * n + i] = (g[n * n + i] + r) % 4
        for j in np.flatnonzero(frame.cell_group == frame.cell_group[i]):
            if j > i:
                moves.append(g.copy())
                moves[-1][[i, j, n * n + i, n * n + j]] = g[[j, i, n * n + j, n * n + i]]
    faults = _faults(frame, frame.normalise(np.array(moves)))
    assert len(faults) > 50 and (3, 2) not in faults


def test_linear_ranking_probabilities():
    p = engine.linear_ranking_probabilities(4, 1.5)
    assert p.tolist() == pytest.approx([0.125, 0.125 + 1 / 12, 0.125 + 2 / 12, 0.125 + 3 / 12])
    assert engine.linear_ranking_probabilities(4, 2.0).tolist() == pytest.approx(
        [0, 1 / 6, 2 / 6, 3 / 6])
    # selection follows them by rank, whatever the order of the population
    cfg = engine.GAConfig(selection="linear_ranking", ranking_pressure=2.0)
    fit = np.array([3.0, 0.0, 2.0, 1.0])  # ranks 3, 0, 2, 1
    picks = engine.select(fit, 60_000, cfg, np.random.default_rng(0))
    freq = np.bincount(picks, minlength=4) / len(picks)
    assert freq[1] == 0.0
    assert freq.tolist() == pytest.approx([3 / 6, 0, 2 / 6, 1 / 6], abs=0.01)


def test_paper_preset_is_niangs_ga_and_solves_a_4x4_with_five_patterns():
    _, inst = load_instance(NIANG_4X4)
    default = engine.default_preset(ga.PRESETS)
    assert isinstance(ga.ga_problem(inst, SolveOptions(), default).encoding, ga.EdgeEncoding)
    problem = ga.ga_problem(inst, SolveOptions(), "paper")  # tuned is the default, paper this
    enc, cfg = problem.encoding, problem.config
    assert isinstance(enc, ga.NiangEncoding)
    assert not enc.keep_frame and len(enc.groups) == 1  # any piece anywhere in any turn
    assert (cfg.population, cfg.generations, cfg.tournament_k, cfg.elite_count()) == \
        (200, 10_000, 3, 1)
    assert (cfg.crossover_rate, cfg.mutation_rate, cfg.elite_replaces_worst) == (0.9, 0.1, True)
    # "Elitism Rate 1" at any population (Tables 5-6: 1000 and 500), not 1/200 of it (5, 2)
    for size in ("500", "1000"):
        cfg = ga.ga_problem(inst, SolveOptions(params={"population": size}), "paper").config
        assert (cfg.population, cfg.elite_count()) == (int(size), 1)
    # the free layout rarely solves it (niang_notes.md); the frame kept, seed 3 does
    out = ga.solve(inst, SolveOptions(seed=3, params={"preset": "paper", "layout": "frame"}))
    assert out.status == Status.SOLVED and verify(inst, out.solution).ok
    # 200 evaluations per generation, as in the thesis's screenshots (EVAL = 200 x generation)
    assert out.stats["evaluations"] == 200 * (out.stats["generations"] + 1)
    assert out.stats["generations"] <= 10_000 and out.stats["best_fitness"] == 1.0


def test_elite_replaces_the_worst_child():
    _, inst = load_instance(NIANG_4X4)
    enc = ga.NiangEncoding(inst)
    seen = []
    cfg = engine.GAConfig(population=20, generations=5, elitism=0.05, elite_replaces_worst=True,
                          on_generation=lambda s: seen.append(s.fit.copy()))
    res = engine.evolve(enc, cfg, SolveOptions(seed=1))
    assert res.evaluations == 20 * 6  # a full population of children each generation
    assert all(len(f) == 20 for f in seen)
    assert [f.max() for f in seen] == sorted(f.max() for f in seen)  # the best never lost


@pytest.mark.parametrize("args", [
    ("--preset", "nope"), ("--preset", "paper", "--tabu-iterations", "5"),
    ("--preset", "paper", "--operators", "invert"),
    ("--preset", "paper", "--selection", "linear-ranking", "--ranking-pressure", "3"),
    ("--preset", "paper", "--layout", "round"),
])
def test_bad_paper_options_are_one_line_errors(args):
    r = run_cli("solve", "--backend", "ga", NIANG_4X4, *args)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


NIANG_CSV = INSTANCES.parent / "lab" / "reproductions" / "niang.csv"


@pytest.mark.parametrize("key", [
    "table9|4x4 (5)|paper+repair|0",  # recorded before the free layout became the default
    "table9|4x4 (5)|paper+repair|3", "table9|4x4 (5)|paper|3", "studies|Table 1|paper|0",
    "studies|Figs. 32-33|paper+repair|0", "table9|4x4 thesis (5)|paper+deadlock|0",
])
def test_the_reproduction_rows_replay_as_their_csv_writes_them(key):
    """Each row's `backend` column is the whole setting: run as written, with the row's seed,
    it gives the row's generations, evaluations and best fitness."""
    import csv

    row = next(r for r in csv.DictReader(NIANG_CSV.open()) if r["key"] == key)
    name, *pairs = row["backend"].split(":")
    assert name == "ga"
    params = dict(p.split("=", 1) for p in pairs)
    _, inst = load_instance(INSTANCES.parent / row["instance"])
    out = ga.solve(inst, SolveOptions(seed=int(row["seed"]), params=params))
    assert (out.stats["generations"], out.stats["evaluations"]) == \
        (int(row["generations"]), int(row["evaluations"]))
    assert out.stats["best_fitness"] == pytest.approx(float(row["best_fitness"]), abs=1e-12)
