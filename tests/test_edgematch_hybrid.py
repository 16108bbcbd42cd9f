"""The matches hybrid: exact repairs (LNS), the break search, the memetic loop, the portfolio
default for --objective matches, progress lines and the official puzzle's rules."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import E2_DATA, INSTANCES, needs_e2_data

from tilesolve.core import squaregrid as sq
from tilesolve.core.result import SolveOptions
from tilesolve.families.edgematch import breakscan, lns, official
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.generate import generate
from tilesolve.families.edgematch.parse import read_instance

JOINS_6 = sq.join_count(6, 6)


def planted(name: str):
    """A shipped board and a perfect solution of it, found by the break search with 0 breaks."""
    inst = read_instance(INSTANCES / name)
    res = breakscan.search(inst, breakscan.Schedule(0, 0), seed=1, time_limit=30)
    assert res.breaks == 0
    return inst, res.board


def scrambled(inst, sol, cells, seed=0):
    """The board with the pieces of `cells` shuffled among themselves and turned at random."""
    board = lns.Board(inst)
    pcs, rts = board.arrays(sol)
    rng = np.random.default_rng(seed)
    for k in range(3):
        group = np.array([c for c in cells if board.cell_class[c] == k], dtype=np.int64)
        pcs[group] = pcs[group][rng.permutation(len(group))]
        for c in group.tolist():
            rts[c] = int(rng.choice(np.flatnonzero(board.allowed[c, pcs[c]])))
    return board, board.solution(pcs, rts)


def test_cpsat_repair_of_a_scrambled_window_restores_every_join():
    inst, sol = planted("e2_6x6.txt")
    window = [r * 6 + c for r in range(1, 4) for c in range(1, 4)]  # 3x3 inner block
    board, bad = scrambled(inst, sol, window, seed=3)
    pcs, rts = board.arrays(bad)
    before = board.score(pcs, rts)
    assert before < JOINS_6
    changed, proven = lns.repair_region(board, pcs, rts, np.array(window), seed=0,
                                        time_limit=30)
    assert changed and proven
    fixed = board.solution(pcs, rts)
    rep = verify(inst, fixed, "matches")
    assert rep.ok and rep.score == JOINS_6  # the optimum of this window is the planted one


def test_assignment_repair_never_loses_and_verifies():
    inst, sol = planted("e2_6x6.txt")
    cells = [7, 9, 14, 16, 21, 28]  # inner cells, no two adjacent
    board, bad = scrambled(inst, sol, cells, seed=5)
    pcs, rts = board.arrays(bad)
    before = board.score(pcs, rts)
    lns.assign(board, pcs, rts, np.array(cells), np.random.default_rng(0))
    after = board.score(pcs, rts)
    assert after == JOINS_6 > before  # independent cells: the assignment is exact
    assert verify(inst, board.solution(pcs, rts), "matches").score == JOINS_6


def test_lns_from_a_scrambled_board_returns_a_board_at_least_as_good():
    inst, sol = planted("e2_5x5.txt")
    board, bad = scrambled(inst, sol, list(range(25)), seed=2)
    start = verify(inst, bad, "matches").score
    out, score = lns.improve(board, bad, np.random.default_rng(0), moves=40, region_time=0.2)
    rep = verify(inst, out, "matches")
    assert rep.ok and rep.score == score >= start


def test_break_search_with_k_breaks_returns_at_most_k_mismatches():
    inst = read_instance(INSTANCES / "e2_7x7.txt")
    joins = sq.join_count(7, 7)
    for k in (4, 8):
        res = breakscan.search(inst, breakscan.Schedule(k, 4), seed=0, node_limit=5_000_000)
        assert res.board is not None
        rep = verify(inst, res.board, "matches")
        assert rep.ok and rep.score == joins - res.breaks >= joins - k


def test_python_and_c_break_searches_walk_the_same_tree():
    inst = read_instance(INSTANCES / "e2_5x5.txt")
    tables = breakscan.BreakTables(inst)
    allow = breakscan.Schedule(4, 2).allow(5, 5)
    found = []
    for engine in ("c", "python"):
        s = breakscan.BreakSearcher(tables, 7, allow, engine)
        code, nodes = s.step(5_000)
        found.append((code, nodes, s.solution() if code == 1 else None))
    assert found[0] == found[1]


def test_search_backend_scores_boards_with_objective(cli):
    proc = cli("solve", INSTANCES / "e2_6x6.txt", "-b", "search", "--objective", "matches",
               "-t", "20", "--json")
    out = json.loads(proc.stdout)
    assert out["verified"] and out["objective"] == JOINS_6  # 0 breaks reachable on 6x6


def test_portfolio_for_matches_runs_lns_and_memetic_and_streams_progress(cli, tmp_path):
    from tilesolve.families.edgematch.family import FAMILY

    # a generated 7x7 (8 inner colours, seed 1) that the lanes solve: the run ends at its
    # answer (about 1 s in, after a first board of 80 joins) instead of at its limit, as on
    # instances/e2_7x7.txt; the limit is the patience of a loaded machine
    path, log = tmp_path / "e2_7x7_c8.txt", tmp_path / "progress.jsonl"
    path.write_text(FAMILY.format_instance(generate(7, 7, inner_colours=8, seed=1)[0]))
    proc = cli("solve", path, "-b", "portfolio", "--objective", "matches",
               "-t", "30", "--threads", "2", "--json", "--progress-jsonl", log)
    out = json.loads(proc.stdout)
    assert out["verified"] and out["status"] in ("feasible", "solved")
    assert set(out["stats"]["threads"]) == {"cpsat", "lns"}  # a small board
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines and lines[-1]["score"] == out["objective"]
    assert all(a["score"] < b["score"] for a, b in zip(lines, lines[1:], strict=False))
    assert {x["source"] for x in lines} <= {"backtracker", "lns", "cpsat"}


def test_large_boards_race_the_break_search_and_lns_for_matches():
    from tilesolve.families.edgematch.family import FAMILY

    big = read_instance(INSTANCES / "e2_16x16.txt")
    small = read_instance(INSTANCES / "e2_5x5.txt")
    assert FAMILY.objective_backends(big) == ("search", "lns")
    assert FAMILY.objective_backends(small)[0] == "cpsat"
    # islands start from the migrants' board, which the break search cannot take
    assert FAMILY.island_backends(big) == ("lns", "memetic")
    assert FAMILY.island_backends(small) == FAMILY.objective_backends(small)


def test_boards_are_shared_by_default_only_where_no_lane_loses_its_own_search():
    """The LNS and the memetic pool restart from boards, the break search takes only their
    score as its bound, CP-SAT takes none: the default pair of a large board shares, two
    lanes that both restart from boards do not, and --share decides."""
    from tilesolve.families.edgematch.family import FAMILY
    from tilesolve.hybrid.lanes import takes_boards
    from tilesolve.hybrid.portfolio import Config, share_by_default

    assert [takes_boards(FAMILY, b) for b in ("lns", "memetic", "search", "cpsat")] == \
        ["inbox", "inbox", "bound", None]
    assert share_by_default(FAMILY, ["search", "lns"])
    assert share_by_default(FAMILY, ["cpsat", "lns"])
    assert share_by_default(FAMILY, ["search", "cpsat"])  # the search's bound
    assert not share_by_default(FAMILY, ["lns", "memetic"])
    assert not share_by_default(FAMILY, ["search"])
    assert not share_by_default(FAMILY, ["cpsat", "ga"])
    big = read_instance(INSTANCES / "e2_16x16.txt")

    def share(**params):
        opts = SolveOptions(objective="matches", threads=2, time_limit=60, params=params)
        return Config.of(FAMILY, opts, big).share

    assert share() is True
    assert share(backends="lns,memetic") is False
    assert share(share="off") is False and share(backends="lns,memetic", share="on") is True
    assert Config.of(FAMILY, SolveOptions(threads=2), big).share is False  # no objective


def test_memetic_backend_returns_a_verified_board():
    from tilesolve.families.edgematch import memetic

    inst = read_instance(INSTANCES / "e2_7x7.txt")
    # no break-search seeds (they solve 7x7 outright): the GA starts from random boards; 2
    # generations, one repair at the 2nd (0.9 CPU s; 6 s of wall time took 3-6 CPU s)
    out = memetic.solve(inst, SolveOptions(time_limit=60, objective="matches",
                                           params={"pool": "0", "memetic_every": "2",
                                                   "generations": "2", "seeds": "0",
                                                   "memetic_seconds": "0.5"}))
    rep = verify(inst, out.solution, "matches")
    assert rep.ok and rep.score == out.objective
    assert out.stats["repairs_lns"] >= 1 and out.stats["lns_gains"] >= 1  # a GA board gains


@needs_e2_data()
def test_the_official_set_gets_its_start_piece_and_clues_on_request():
    path = E2_DATA / "e2_256.txt"
    inst = read_instance(path)
    assert inst.fixed == official.START
    from tilesolve.families.edgematch.family import FAMILY

    FAMILY.prepare(inst, {"clues": "on"})
    assert inst.fixed == {**official.START, **official.CLUES}
    for name in ("e2_board_blackwood_470.txt", "e2_board_verhaard_467.txt"):
        board = FAMILY.read_solution(read_instance(path), E2_DATA / name)
        assert verify(read_instance(path), board, "matches").ok


def test_clues_on_another_instance_is_an_input_error(cli):
    proc = cli("solve", INSTANCES / "e2_4x4.txt", "--clues", "on")
    assert proc.returncode == 2 and "official" in proc.stderr


@pytest.mark.parametrize("flag", ["--breaks", "--break-from"])
def test_bad_break_options_are_input_errors(cli, flag):
    proc = cli("solve", INSTANCES / "e2_4x4.txt", "-b", "search", "--objective", "matches",
               flag, "-3")
    assert proc.returncode == 2


def test_row_research_repairs_scrambled_rows_with_the_rest_fixed():
    inst, sol = planted("e2_6x6.txt")
    rows = [r * 6 + c for r in (2, 3) for c in range(6)]
    board, bad = scrambled(inst, sol, rows, seed=4)
    assert verify(inst, bad, "matches").score < JOINS_6
    found = breakscan.research_rows(inst, bad, range(2, 4), seed=0, node_limit=1_000_000)
    assert found is not None and found[1] == 0
    assert all(found[0][c] == bad[c] for c in bad if c[0] not in (2, 3))
    assert verify(inst, found[0], "matches").score == JOINS_6


def test_row_search_says_when_no_arrangement_of_the_rows_does_better():
    """Rows 0-1 scrambled, rows 4-5 searched again: their joins are all matched, the breaks
    lie above them, so no arrangement of their pieces lowers the count and the search walks
    its whole tree (exhausted, nothing found); rows 0-1 searched again find the planted rows,
    a board with no break, which ends the search too."""
    inst, sol = planted("e2_6x6.txt")
    board, bad = scrambled(inst, sol, [r * 6 + c for r in (0, 1) for c in range(6)], seed=4)
    assert verify(inst, bad, "matches").score < JOINS_6
    assert breakscan.search_rows(inst, bad, range(4, 6), 0, 10_000_000) == (None, True)
    found, exhausted = breakscan.search_rows(inst, bad, range(0, 2), 0, 10_000_000)
    assert exhausted and found is not None and found[1] == 0
    # a budget too small to finish: neither a board nor a verdict
    assert breakscan.search_rows(inst, bad, range(0, 2), 0, 1) == (None, False)


@pytest.mark.slow  # 24 s on two threads; the review logic itself: test_a_lane_started_...
def test_portfolio_moves_an_idle_lanes_core_to_the_lane_that_raises_the_score(cli):
    # the GA's boards (about 300 of 480) never beat the LNS's (430+) after its first board,
    # so at a review the GA's core goes to a second LNS started from the best board
    proc = cli("solve", INSTANCES / "e2_16x16.txt", "-b", "portfolio", "--objective", "matches",
               "--backends", "lns,ga", "--review", "3", "-t", "24", "--threads", "2",
               "--seed", "3", "--json")
    out = json.loads(proc.stdout)
    assert out["verified"] and out["status"] == "feasible"
    adapt = out["stats"]["adapt"]
    assert adapt["enabled"] and adapt["review"] == 3.0
    changes = adapt["changes"]
    ga = [c for c in changes if c["stopped"] == "ga"]
    assert len(ga) == 1 and ga[0]["credited"].startswith("lns")  # replaced once, by an LNS
    new = ga[0]["started"]
    assert new.startswith("lns+adapt")
    lanes = out["stats"]["backends"]
    assert lanes[new]["backend"] == "lns" and "no gain" in lanes["ga"]["note"]
    assert len({c["stopped"] for c in changes}) == len(changes)  # no lane stopped twice


@pytest.mark.parametrize("adapt, reviews", [("off", 0), ("on", 1)])
def test_adapt_off_never_reviews_the_lanes(monkeypatch, adapt, reviews):
    # the review that stops a lane without gains is the only way a lane is replaced: with
    # --adapt off it never runs, whatever the time (the end-to-end run below is in the slow run)
    from tilesolve.core.family import load_instance
    from tilesolve.hybrid.portfolio import Portfolio

    path = INSTANCES / "e2_7x7.txt"
    family, inst = load_instance(path)
    pf = Portfolio(family, inst, str(path), SolveOptions(
        time_limit=60, threads=2, objective="matches",
        params={"backends": "lns,memetic", "adapt": adapt, "review": "1"}))
    done = []
    monkeypatch.setattr(pf.adapt, "review", lambda: done.append(1))
    pf.adapt.next_review = 0.0  # the review is due
    pf.adapt.tick()
    assert len(done) == reviews and pf.cfg.adapt == (adapt == "on")


def test_a_lane_sent_the_best_board_gets_a_whole_review_window_on_it():
    # the review stops a lane only after a whole window without a gain: counted from its
    # start, or from the last board it was sent (it works from that board)
    import time

    from tilesolve.core.family import load_instance
    from tilesolve.hybrid.portfolio import Portfolio

    path = INSTANCES / "e2_7x7.txt"
    family, inst = load_instance(path)
    pf = Portfolio(family, inst, str(path), SolveOptions(
        time_limit=60, threads=2, objective="matches",
        params={"backends": "lns,memetic", "review": "30"}))
    rec = {"started": 0.0}
    later = pf.t0 + 40.0
    assert pf.adapt.had_a_window("lns", rec, later)  # 40 s since its start
    pf.adapt.boards["lns"] = pf.t0 + 20.0  # sent a board at 20 s
    assert not pf.adapt.had_a_window("lns", rec, later)
    # 51, not 50: (t0 + 50) - (t0 + 20) rounds below 30 for some clock values (CI: t0 16351.22)
    assert pf.adapt.had_a_window("lns", rec, pf.t0 + 51.0)
    assert pf.adapt.had_a_window("memetic", rec, later)  # another lane's board is not its own
    before = time.perf_counter()
    pf.adapt.handed("memetic")
    assert pf.adapt.boards["memetic"] >= before


# 11 CPU s (6 s on two cores); the default run: test_adapt_off_never_reviews_the_lanes (the
# review), test_a_lane_started_during_the_run_gets_the_runs_best_score_at_once (a shared board)
@pytest.mark.slow
def test_portfolio_lanes_share_their_best_boards_when_asked_and_adapt_off_keeps_them(cli):
    """One run for two options: --share on makes the LNS and the memetic pool (which do not
    share by default) hand each other their best boards, and --adapt off keeps both lanes
    though a review every second would stop the memetic lane (with --adapt on it was replaced
    by a second LNS at 3.4 s)."""
    proc = cli("solve", INSTANCES / "e2_7x7.txt", "-b", "portfolio", "--objective", "matches",
               "--backends", "lns,memetic", "--share", "on", "--adapt", "off", "--review", "1",
               "-t", "6", "--threads", "2", "--seed", "1", "--json")
    # -t counts Python's start-up and the lanes' too
    out = json.loads(proc.stdout)
    assert out["verified"] and out["status"] in ("feasible", "solved")  # 7x7 may reach all joins
    assert out["stats"]["adapt"] == {"enabled": False, "review": 1.0, "changes": []}
    assert set(out["stats"]["backends"]) == {"lns", "memetic"}
    assert out["stats"]["share"] is True  # asked for: both lanes take boards
    assert out["stats"]["shared"] >= 1  # each lane's first board raised the best once at least
    lns_stats = out["stats"]["backends"]["lns"].get("stats", {})
    assert lns_stats.get("received", 0) <= out["stats"]["shared"]


@pytest.mark.slow  # 48 CPU s; the 7x7 run: test_portfolio_lanes_share_..._adapt_off_keeps_them
def test_portfolio_lanes_share_their_best_boards_on_a_large_board(cli):
    proc = cli("solve", INSTANCES / "e2_16x16.txt", "-b", "portfolio", "--objective", "matches",
               "--backends", "lns,memetic", "--share", "on", "--adapt", "off", "-t", "24",
               "--threads", "2", "--seed", "1", "--json")
    out = json.loads(proc.stdout)
    assert out["verified"] and out["status"] in ("feasible", "solved")
    assert out["stats"]["share"] is True and out["stats"]["shared"] >= 1
    lns_stats = out["stats"]["backends"]["lns"].get("stats", {})
    assert lns_stats.get("received", 0) <= out["stats"]["shared"]


def test_the_memetic_loop_puts_the_repaired_elite_in_the_worst_members_place():
    """attach (the memetic backend with --pool 0): every 2nd generation the GA's best member,
    a solved 6x6 with a 3x3 window scrambled, goes to the exact repair of that window; the
    repaired board takes the worst member's place and counts as a gain; the rest stay."""
    from tilesolve.backends import ga as engine
    from tilesolve.backends import memetic
    from tilesolve.families.edgematch import ga

    inst, sol = generate(6, 6, seed=2)
    problem = ga.ga_problem(inst, SolveOptions(objective="matches"), "tuned")
    enc, cfg = problem.encoding, problem.config
    window = np.array([r * 6 + c for r in range(1, 4) for c in range(1, 4)])
    board, elite = scrambled(inst, sol, window.tolist(), seed=3)
    others = [scrambled(inst, sol, list(range(36)), seed=k)[1] for k in range(4)]
    rng = np.random.default_rng(0)
    pop = np.stack([enc.encode(b, rng) for b in (others[0], elite, *others[1:])])
    fit = enc.fitness(pop)
    assert int(np.argmax(fit)) == 1 and fit[1] < JOINS_6
    worst = int(np.argmin(fit))
    assert worst != 1 and list(fit).count(fit[worst]) == 1

    def repair(s, _fit):
        pcs, rts = board.arrays(s)
        lns.repair_region(board, pcs, rts, window, seed=0, time_limit=30)
        return board.solution(pcs, rts), float(board.score(pcs, rts))

    log, better = memetic.MemeticLog(), []
    hook = memetic.attach(enc, cfg, repair, every=2, log=log,
                          on_better=lambda s, f: better.append((s, f))).on_generation
    before = pop.copy()

    def state(generation):
        return engine.GAState(pop, fit, generation, 0, float(fit.max()), 0.0, {})

    hook(state(1))  # not a repair generation
    assert log.calls == 0 and (pop == before).all()
    hook(state(2))
    assert log.calls == 1 and log.gains == 1
    repaired = enc.decode(pop[worst])
    assert better == [(repaired, float(JOINS_6))] and fit[worst] == JOINS_6
    assert verify(inst, repaired, "matches").score == JOINS_6
    kept = [k for k in range(len(pop)) if k != worst]
    assert (pop[kept] == before[kept]).all()  # the elite itself stays, beside its repair
    hook(state(4))  # the best is now the solved board: the repair cannot raise it
    assert log.calls == 2 and log.gains == 1 and len(better) == 1


@pytest.fixture(scope="module")
def ga_elite():
    """A generated 6x6, a planted solution, and the tuned GA's best board after 2 generations
    (57 of 60 joins; 0.9 CPU s)."""
    from tilesolve.families.edgematch import ga

    inst, sol = generate(6, 6, seed=2)
    out = ga.solve(inst, SolveOptions(objective="matches", seed=0,
                                      params={"preset": "tuned", "generations": "2"}))
    return inst, sol, out.solution


def neighbourhood(kind, board, pcs, rts, rng):
    """The cells one move of the LNS with --anneal off frees: about 9 for a CP-SAT kind, up to
    8 scattered inner cells for the assignment."""
    if kind == "scattered":
        return lns.scattered(board, pcs, rts, rng, 8, klass=2)
    return lns.NEIGHBOURHOODS[kind](board, pcs, rts, rng, 9)


def exact_repair(kind, board, pcs, rts, cells):
    """Re-place the pieces of `cells` optimally, as the LNS does for `kind`. Edits pcs/rts."""
    if kind == "scattered":
        lns.assign(board, pcs, rts, cells, np.random.default_rng(0))
    else:
        lns.repair_region(board, pcs, rts, cells, seed=0, time_limit=30)


@pytest.mark.parametrize("kind", ["window", "band", "mismatch", "scattered"])
def test_each_exact_repair_keeps_a_ga_elite_and_fixes_a_turned_piece(kind, ga_elite):
    inst, sol, elite = ga_elite
    board = lns.Board(inst)
    start = verify(inst, elite, "matches")
    assert start.ok and start.score < JOINS_6
    pcs, rts = board.arrays(elite)
    exact_repair(kind, board, pcs, rts, neighbourhood(kind, board, pcs, rts,
                                                      np.random.default_rng(0)))
    rep = verify(inst, board.solution(pcs, rts), "matches")
    assert rep.ok and rep.score >= start.score
    # a solved board with one inner piece turned twice: mismatched joins (2 of 60) that any
    # region holding that cell can mend (the planted board is one of its re-placements)
    turned = 14  # row 2, column 2
    pcs, rts = board.arrays(sol)
    rts[turned] = (rts[turned] + 2) % 4
    before = board.score(pcs, rts)
    assert before < JOINS_6
    # the first region (over seeds) that holds the turned cell
    cells = next(c for c in (neighbourhood(kind, board, pcs, rts, np.random.default_rng(s))
                             for s in range(100)) if turned in c)
    exact_repair(kind, board, pcs, rts, cells)
    rep = verify(inst, board.solution(pcs, rts), "matches")
    assert rep.ok and rep.score == JOINS_6 > before


def hints():
    """e2_hints.txt: piece row col rot, the four colours N E S W after the turn, # note."""
    rows = []
    for line in (E2_DATA / "e2_hints.txt").read_text().splitlines():
        fields = line.split("#", 1)[0].split()
        if fields:
            piece, row, col, rot, *colours = map(int, fields)
            rows.append(((row, col), (piece, rot), tuple(colours)))
    return rows


@needs_e2_data()
def test_the_start_piece_and_the_clues_are_the_published_ones():
    from tilesolve.families.edgematch.family import FAMILY

    (start, piece, _), *clues = hints()
    assert "mandatory start piece" in (E2_DATA / "e2_hints.txt").read_text().splitlines()[4]
    assert official.START == {start: piece} == {(8, 7): (139, 2)}  # I8
    assert official.CLUES == {cell: p for cell, p, _ in clues} and len(clues) == 4
    inst = FAMILY.prepare(read_instance(E2_DATA / "e2_256.txt"), {"clues": "on"})
    assert inst.fixed == {cell: p for cell, p, _ in hints()}
    for _cell, (p, r), colours in hints():  # the same turn convention as the file's colours
        assert tuple(inst.edges(p, r)) == colours


@needs_e2_data()
def test_verify_checks_the_clue_pieces_when_asked(cli, tmp_path):
    """The hour board keeps the start piece but none of the clues (as the record boards):
    valid with --clues off, four moved clues with --clues on; the same board with the clue
    pieces swapped into their cells passes with --clues on."""
    path = E2_DATA / "e2_256.txt"
    board = INSTANCES.parent / "lab" / "results" / "e2_official_eii_hour_seed5.txt"
    ok = cli("verify", path, board, "--objective", "matches", "--clues", "off")
    assert ok.returncode == 0 and "valid; score 461/480" in ok.stdout
    bad = cli("verify", path, board, "--objective", "matches", "--clues", "on")
    assert bad.returncode == 1
    moved = [x.strip() for x in bad.stdout.splitlines() if x.strip().startswith("moved-hint")]
    assert moved == [f"moved-hint: fixed piece {p}/{r} must be at {cell}, found {got}"
                     for (cell, (p, r)), got in zip(official.CLUES.items(),
                                                    ("64/3", "144/2", "243/2", "112/3"),
                                                    strict=True)]
    grid = [line.split() for line in board.read_text().splitlines() if line.strip()]
    for (row, col), (p, r) in official.CLUES.items():  # all inner cells and inner pieces
        at = next((i, j) for i, line in enumerate(grid) for j, x in enumerate(line)
                  if x.split("/")[0] == str(p))
        grid[at[0]][at[1]] = grid[row][col]
        grid[row][col] = f"{p}/{r}"
    keeps = tmp_path / "keeps_clues.txt"
    keeps.write_text("\n".join(" ".join(line) for line in grid) + "\n")
    proc = cli("verify", path, keeps, "--objective", "matches", "--clues", "on")
    assert proc.returncode == 0 and proc.stdout.startswith("valid")
    typo = cli("verify", INSTANCES / "e2_4x4.txt", keeps, "--clue", "on")
    assert typo.returncode == 2 and "unknown option(s) --clue" in typo.stderr


def test_a_lane_started_during_the_run_gets_the_runs_best_score_at_once():
    # the adaptive review starts lanes late; a break search among them must not spend its
    # first minutes on boards worse than the run's best, so it gets the best on starting
    from tilesolve.core.family import load_instance
    from tilesolve.core.result import Outcome, Status
    from tilesolve.core.solve import solve_backend
    from tilesolve.hybrid.portfolio import Portfolio

    path = INSTANCES / "e2_16x16.txt"
    family, inst = load_instance(path)
    opts = SolveOptions(time_limit=60, threads=2, objective="matches",
                        params={"backends": "search,lns"})
    pf = Portfolio(family, inst, str(path), opts)
    assert pf.cfg.share  # on by default for these lanes
    first = solve_backend(family, inst, str(path), "lns", SolveOptions(
        time_limit=2, threads=1, objective="matches"))  # a board from another lane
    assert first.verified
    pf.standings.offer("lns", Outcome(Status.FEASIBLE, first.board, first.objective), 0.0)
    assert pf.standings.best is not None and pf.standings.best[1].verified
    try:
        # 6 s: with 1.5 s a slow machine spent the lane's limit starting its process and
        # building its tables, and the search loop that reads the bound never ran (bounded 0)
        pf.start_lane("search+adapt1", "search", "race", 1, 6.0)
        assert pf.shared == 1
        msg = pf.race.get(30.0)
        while msg is not None and msg[0] != "done":
            msg = pf.race.get(30.0)
    finally:
        pf.race.kill_all()
    assert msg is not None and msg[1] == "search+adapt1"
    assert msg[2].stats["bounded"] >= 1  # it took the run's best as its bound
