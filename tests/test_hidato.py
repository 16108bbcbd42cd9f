"""Hidato: formats, the checker, bad input, every backend, counting and the generator."""

from __future__ import annotations

import json

import pytest
from conftest import INSTANCES, run_cli

import tilesolve
from tilesolve.backends.ga import independent_window_ranks
from tilesolve.core.errors import InputError
from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.hidato import cnf, cpsat, ga, milp
from tilesolve.families.hidato.check import verify
from tilesolve.families.hidato.family import FAMILY
from tilesolve.families.hidato.format import format_instance
from tilesolve.families.hidato.generate import generate, other_solution
from tilesolve.families.hidato.parse import read_instance

G19 = INSTANCES / "hidato_19_01.txt"
G37 = INSTANCES / "hidato_37_01.txt"
FAST = SolveOptions(threads=1, time_limit=60)

# The notes' G19 (side 3) and its unique solution, written by hand.
PUZZLE = """hidato hex 3   # a comment after the header
    2  .  .
  .  1  5  .
 . 19  .  9  .
  . 15  .  .
    .  .  .
"""
SOLUTION = """  2  3  4
 18  1  5  6
17 19 10  9  7
 16 15 11  8
  14 13 12
"""


@pytest.fixture
def g19():
    return read_instance("g19.txt", text=PUZZLE)


@pytest.fixture
def g19_solution(g19, tmp_path):
    path = tmp_path / "s.txt"
    path.write_text(SOLUTION)
    return FAMILY.read_solution(g19, path)


def test_parse_layout_and_givens(g19):
    assert g19.n == 19 and len(g19.givens) == 6
    assert [len(r) for r in g19.rows] == [3, 4, 5, 4, 3]
    assert g19.givens[(0, -1)] == 1 and (0, 0) not in g19.givens  # row 2, next to the centre
    assert sorted(len(a) for a in g19.neighbours).count(6) == 7  # inner cells


def test_holes_and_square_king_moves(tmp_path):
    text = "hidato square 3 2\n1 # 4\n2 3 #\n"
    inst = read_instance("sq.txt", text=text)
    assert inst.n == 4 and inst.holes == {(0, 1), (1, 2)}
    assert inst.adjacent((1, 1), (0, 2))  # diagonal step
    sol = {(0, 0): 1, (1, 0): 2, (1, 1): 3, (0, 2): 4}
    assert verify(inst, sol).ok
    path = tmp_path / "s.txt"
    path.write_text("1 4 #\n2 3 #\n")  # 4 in a hole, (0, 2) left empty
    kinds = verify(inst, FAMILY.read_solution(inst, path)).kinds()
    assert kinds["outside"] == 1 and kinds["empty-cell"] == 1 and kinds["not-adjacent"] == 0
    # '#' at the start of a row is a hole, not a comment; a '#' before words is a comment
    inst2 = read_instance("h.txt", text="hidato hex 2\n# 1\n# . # # holes here\n. #\n")
    assert inst2.n == 3 and inst2.givens == {inst2.rows[0][1]: 1}
    assert read_instance("r.txt", text=format_instance(inst2, "round trip")).holes == inst2.holes


def test_solution_verifies_through_cli(g19, g19_solution, tmp_path):
    assert verify(g19, g19_solution).ok
    inst_path = tmp_path / "g19.txt"
    inst_path.write_text(PUZZLE)
    sol_path = tmp_path / "s.json"
    sol_path.write_text(json.dumps(FAMILY.solution_json(g19, g19_solution)))
    res = run_cli("verify", inst_path, sol_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.startswith("valid")


def test_verify_names_every_violation(g19, g19_solution, tmp_path):
    bad = dict(g19_solution)
    cell_of = {k: c for c, k in bad.items()}
    bad[cell_of[2]], bad[cell_of[3]] = 3, 2  # a given moved; 3 no longer touches 4
    bad[cell_of[12]] = 11  # 11 twice, 12 missing
    del bad[cell_of[14]]  # an empty cell, 14 missing
    kinds = verify(g19, bad).kinds()
    assert kinds["changed-given"] == 1
    assert kinds["doubled-number"] == 1
    assert kinds["missing-number"] == 2
    assert kinds["empty-cell"] == 1
    assert kinds["not-adjacent"] == 1
    inst_path = tmp_path / "g19.txt"
    inst_path.write_text(PUZZLE)
    sol_path = tmp_path / "bad.txt"
    sol_path.write_text(FAMILY.format_solution(g19, bad))
    res = run_cli("verify", inst_path, sol_path, "--json")
    assert res.returncode == 1
    data = json.loads(res.stdout)
    assert {v["kind"] for v in data["violations"]} >= {
        "changed-given", "doubled-number", "missing-number", "empty-cell", "not-adjacent"}


@pytest.mark.parametrize(
    "text, message",
    [
        ("hidato hex 3\n1 . .\n. . . .\n. . . . .\n. . .\n. . .\n", "expected 4 tokens"),
        ("hidato hex 3\n1 . .\n. . . .\n. . . . .\n. . . .\n", "expected 5 rows"),
        ("hidato hex 3\n1 . .\n. . . .\n. . 1 . .\n. . . .\n. . .\n", "number 1 given twice"),
        ("hidato hex 3\n1 . .\n. . . .\n. . 20 . .\n. . . .\n. . .\n", "20 out of range"),
        ("hidato hex 3\n0 . .\n. . . .\n. . . . .\n. . . .\n. . .\n", "0 out of range"),
        ("hidato hex 3\nx . .\n. . . .\n. . . . .\n. . . .\n. . .\n", "expected a number"),
        ("hidato square 2 1\n# #\n", "no cells"),
        ("hidato hex 0\n", "side must be at least 1"),
        ("hidato circle 3\n", "expected header"),
        ("", "empty file"),
    ],
)
def test_malformed_grids(tmp_path, text, message):
    with pytest.raises(InputError, match=message):
        read_instance("bad.txt", text=text)
    path = tmp_path / "bad.txt"
    path.write_text(text if text else "# nothing\n")
    res = run_cli("solve", path)
    assert res.returncode == 2, res.stdout + res.stderr
    assert "Traceback" not in res.stderr and res.stderr.startswith("error:")


@pytest.mark.parametrize("backend", [cpsat, cnf, milp])
@pytest.mark.parametrize("path", [G19, G37])
def test_exact_backends_solve_shipped(backend, path):
    inst = FAMILY.read_instance(path)
    out = backend.solve(inst, FAST)
    assert out.status == Status.SOLVED
    assert verify(inst, out.solution).ok


@pytest.mark.parametrize("model", ["position", "circuit"])
def test_other_cpsat_models(model):
    inst = FAMILY.read_instance(G37)
    out = cpsat.solve(inst, SolveOptions(threads=1, params={"model": model}))
    assert out.status == Status.SOLVED and verify(inst, out.solution).ok


def test_ga_solves_19_cells_and_cli_reports_it():
    inst = FAMILY.read_instance(G19)
    for params in ({}, {"rts": "off"}):  # the paper's GA, then its variant without niching
        out = ga.solve(inst, SolveOptions(seed=1, params=params))
        assert out.status == Status.SOLVED, (params, out.stats)
        assert out.objective == 2 * inst.n - 2 and verify(inst, out.solution).ok
        assert 0 < out.stats["evaluations"] <= 200_000
    res = run_cli("solve", G19, "--backend", "ga", "--seed", "1", "--json", "--population", "40")
    data = json.loads(res.stdout)
    assert res.returncode in (0, 4) and data["stats"]["max_fitness"] == 36
    assert data["verified"] == (data["status"] == "solved")
    bad = run_cli("solve", G19, "--backend", "ga", "--rts", "maybe")
    assert bad.returncode == 2 and "--rts" in bad.stderr
    bad = run_cli("solve", G19, "--backend", "ga", "--preset", "fast")
    assert bad.returncode == 2 and "paper" in bad.stderr and "tuned" in bad.stderr


def test_presets_paper_by_default_and_rts_off_is_the_papers_variant():
    inst = FAMILY.read_instance(G19)

    def cfg(preset: str = "paper", **params):
        return ga.ga_problem(inst, SolveOptions(params=params), preset).config

    paper = cfg()
    assert (paper.population, paper.max_evaluations) == (250, 200_000)
    assert (paper.selection, paper.replacement, paper.crossover_rate, paper.mutation_rate) == \
        ("random", "steady_state", 0.9, 0.1)
    assert (paper.rts_start, paper.rts_end) == (1.0, 0.1)
    assert (paper.cbgi, paper.cbgi_start, paper.cbgi_period, paper.cbgi_threshold) == \
        (True, 0.2, 0.05, 0.2)
    plain = cfg(rts="off")  # Section 3.1: binary tournament, the child replaces the worst
    assert (plain.selection, plain.tournament_k, plain.replacement, plain.cbgi) == \
        ("tournament", 2, "replace_worst", True)
    assert plain.mutation_rate == 0.1 and plain.crossover_rate == 0.9
    tuned = cfg(preset="tuned")
    assert (tuned.selection, tuned.mutation_rate) == ("tournament", 0.5)
    assert cfg(preset="tuned", rts="off").replacement == "generational"
    assert len(ga.PRESETS["tuned"].differences) == 3 and not ga.PRESETS["paper"].differences
    assert cfg(rts="off", replacement="steady-state").replacement == "steady_state"  # CLI wins
    shown = run_cli("solve", "--help").stdout  # every difference of the tuned preset is listed
    assert "hidato --backend ga" in shown and "--preset paper (default)" in shown
    assert all(d.split()[0] in shown for d in ga.PRESETS["tuned"].differences)
    assert "swap mutation applied to 50%" in shown


def test_open_readings_are_options_and_the_paper_preset_keeps_the_closer_ones():
    import dataclasses

    from tilesolve.backends import ga as engine

    inst = FAMILY.read_instance(G19)
    paper = ga.ga_problem(inst, SolveOptions(), "paper").config
    assert (paper.rts_window, paper.skip_copy_steps) == ("distinct", False)
    both = {"rts_window": "independent", "skip_copy_steps": "on"}
    chosen = ga.ga_problem(inst, SolveOptions(params=both), "paper").config
    assert (chosen.rts_window, chosen.skip_copy_steps) == ("independent", True)
    # without crossover or mutation a step's two children are its parents, members of the
    # population: skipped, such a step adds no evaluations; a swapped child is evaluated
    enc = ga.HidatoEncoding(inst)
    for skip, mutation, per_step in ((True, 0.0, 0), (False, 0.0, 2), (True, 1.0, 2)):
        cfg = dataclasses.replace(paper, crossover_rate=0.0, mutation_rate=mutation,
                                  skip_copy_steps=skip, cbgi=False, seed=0)
        run = engine._Run(enc, cfg, SolveOptions(), None)
        pop = enc.random(run.rng, 250)
        fit = enc.fitness(pop)
        for _ in range(10):
            run.steady(pop, fit)
        assert run.evaluations == 10 * per_step
    listed = run_cli("options", "ga", "--family", "hidato").stdout
    assert "--rts-window" in listed and "independent" in listed and "--skip-copy-steps" in listed
    bad = run_cli("solve", G19, "--backend", "ga", "--rts-window", "sometimes")
    assert bad.returncode == 2 and "--rts-window" in bad.stderr


def test_paper_fitness_of_a_hand_scored_board(g19, g19_solution):
    import numpy as np

    enc = ga.HidatoEncoding(g19)
    cell_of = {k: c for c, k in g19_solution.items()}
    board = dict(g19_solution)
    board[cell_of[10]], board[cell_of[12]] = 12, 10
    # 10 and 12 exchanged: 9-10 and 12-13 no longer touch, 10-11 and 11-12 still do, so
    # 16 of the 18 pairs are adjacent and each counts once from either end: 32 (optimum 36)
    assert enc.fitness(np.stack([enc.encode(board), enc.encode(g19_solution)])).tolist() == \
        [32.0, 36.0]


def test_pmx_by_hand():
    # cuts 3..6: the child takes 4 5 6 from the first parent; of the second parent's 1 6 8,
    # 6 is already in, 1 goes where 4 was in the second parent (slot 7), and 8 follows
    # 6 -> 5 to slot 2
    p1, p2 = [1, 2, 3, 4, 5, 6, 7, 8], [3, 7, 5, 1, 6, 8, 2, 4]
    assert ga.pmx(p1, p2, 3, 6) == [3, 7, 8, 4, 5, 6, 2, 1]
    assert ga.pmx(p2, p1, 3, 6) == [4, 2, 3, 1, 6, 8, 7, 5]


def test_paper_swap_mutation_rate():
    import numpy as np

    from tilesolve.backends.ga import _Run

    inst = FAMILY.read_instance(G37)
    enc = ga.HidatoEncoding(inst)
    cfg = ga.ga_problem(inst, SolveOptions(params={"crossover_rate": "0"}), "paper").config
    run = _Run(enc, cfg, SolveOptions(seed=5), None)
    pop = enc.random(run.rng, 250)
    fit = enc.fitness(pop)
    kids = np.concatenate([run.children(pop, fit, 2, run.draws) for _ in range(2000)])
    nearest = np.stack([(pop != k).sum(axis=1).min() for k in kids])
    # a child is a copy of its parent, or the parent with two genes swapped
    assert set(nearest.tolist()) == {0, 2}
    assert 0.085 < (nearest == 2).mean() < 0.115  # 10% of 4000 expected, sd 0.5%


def test_ga_encoding_fitness_and_cbgi_fix(g19, g19_solution):
    import numpy as np

    enc = ga.HidatoEncoding(g19)
    best = enc.encode(g19_solution)
    rng = np.random.default_rng(0)
    pop = np.vstack([best, enc.random(rng, 5)])
    fit = enc.fitness(pop)
    assert fit[0] == 36 and (fit[1:] < 36).all()
    fixed = enc.force_genes(pop.copy(), {0: int(best[0]), 3: int(best[3])})
    assert (fixed[:, 0] == best[0]).all() and (fixed[:, 3] == best[3]).all()
    assert all(sorted(row) == sorted(best) for row in fixed)  # still permutations
    kids = enc.crossover(pop[1:3], pop[3:5], rng)
    assert all(sorted(row) == sorted(best) for k in kids for row in k)


def test_ga_operators_against_references():
    import numpy as np

    inst = FAMILY.read_instance(G37)
    enc = ga.HidatoEncoding(inst)
    rng = np.random.default_rng(3)
    where_adjacent = {(a, b) for a, nbrs in enumerate(inst.neighbours) for b in nbrs}

    def reference(genome) -> float:  # two points per adjacent consecutive pair
        cell = {k: c for c, k in enumerate(enc.boards(genome[None, :])[0])}
        return 2.0 * sum((cell[k], cell[k + 1]) in where_adjacent for k in range(1, inst.n))

    for m in (2, 7, 2, 250):  # buffers are reused per batch size
        pop = enc.random(rng, m)
        assert enc.fitness(pop).tolist() == [reference(g) for g in pop]
    pop = enc.random(rng, 50)
    swapped = enc.mutate(pop.copy(), rng)
    assert ((swapped != pop).sum(axis=1) == 2).all()
    assert all(sorted(a) == sorted(b) for a, b in zip(swapped.tolist(), pop.tolist(), strict=True))
    # the textbook PMX example: segment 4 5 6 7 kept, 1 and 8 follow the mapping outwards
    assert ga.pmx([1, 2, 3, 4, 5, 6, 7, 8, 9], [4, 5, 2, 1, 8, 7, 6, 9, 3], 3, 7) == \
        [1, 8, 2, 4, 5, 6, 7, 9, 3]


@pytest.mark.parametrize("backend", ["cpsat", "sat", "milp"])
def test_count_reports_uniqueness(backend, tmp_path):
    # through the API (the command line's --count and --count-limit: test_count.py)
    res = tilesolve.load(G19).count(backend, threads=1)
    assert res.count == 1 and res.stats["unique"] is True
    loose = tmp_path / "loose.txt"
    loose.write_text("hidato hex 3\n1 . .\n. . . .\n. . . . .\n. . . .\n. . 19\n")
    # "is it unique?" needs no more than two solutions
    res = tilesolve.load(loose).count(backend, limit=2, threads=1)
    assert res.count == 2 and res.stats["unique"] is False


def test_generator_is_unique_and_reproducible(tmp_path):
    inst, planted, stats = generate("hex", cells=30, seed=7)
    assert inst.n == 30 and len(inst.holes) == 7  # side 4 minus 7 holes
    assert verify(inst, planted).ok and other_solution(inst, planted) is None
    assert 1 in inst.givens.values() and 30 in inst.givens.values()  # the ends stay
    # irreducible: dropping any given except the ends allows another solution
    given = [c for c, k in inst.givens.items() if k not in (1, 30)]
    for c in given[:3]:
        looser = read_instance("x.txt", text=format_instance(inst))
        del looser.givens[c]
        assert other_solution(looser, planted) is not None
    out = tmp_path / "a.txt"
    res = run_cli("generate", "hidato", "--cells", "20", "--shape", "square", "--seed", "3",
                  "-o", out)
    assert res.returncode == 0, res.stderr
    again = tmp_path / "b.txt"
    run_cli("generate", "hidato", "--cells", "20", "--shape", "square", "--seed", "3", "-o", again)
    assert out.read_text() == again.read_text()
    assert tilesolve.load(out).count().stats["unique"] is True
    bad = run_cli("generate", "hidato", "--cells", "0", "-o", tmp_path / "c.txt")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_render_png_and_svg(tmp_path):
    inst = FAMILY.read_instance(G19)
    sol = cpsat.solve(inst, FAST).solution
    sol_path = tmp_path / "s.txt"
    sol_path.write_text(FAMILY.format_solution(inst, sol))
    for name in ("b.png", "b.svg"):  # through the API: `render` is test_cli_contract.py's
        assert tilesolve.load(G19).render(tmp_path / name, sol_path) == tmp_path / name
        assert (tmp_path / name).stat().st_size > 1000
    assert "<svg" in (tmp_path / "b.svg").read_text()[:500]


def test_reproduction_holds_the_papers_tables_and_pairs_boards_by_givens():
    import importlib.util
    import statistics

    path = INSTANCES.parent / "lab" / "scripts" / "reproduce_dasilva.py"
    spec = importlib.util.spec_from_file_location("reproduce_dasilva", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    # the transcribed rows give back the 'average' lines the paper prints under each table
    printed = {"1": (36.0, 8015.21, 1.00), "2": (70.26, 95623.15, 0.45),
               "3": (36.0, 7580.6, 1.00), "4": (70.45, 90946.56, 0.46),
               "5": (35.11, 3015.55, 0.71), "6": (61.04, 18352.03, 0.0)}
    for table, (best, fes, sr) in printed.items():
        rows = list(script.paper_rows(table).values())
        assert len(rows) == (10 if table in "135" else 11)
        assert statistics.fmean(r[1] for r in rows) == pytest.approx(best, abs=0.01)
        assert statistics.fmean(r[3] for r in rows) == pytest.approx(fes, abs=0.1)
        assert statistics.fmean(r[5] for r in rows) == pytest.approx(sr, abs=0.01)
    pairs = script.pairing()
    assert pairs[4].name == "hidato_19_08.txt"  # the only 6-given board of each
    assert pairs[13].name in {"hidato_37_01.txt", "hidato_37_04.txt", "hidato_37_06.txt"}
    same = sum(len(FAMILY.read_instance(p).givens) == script.GIVENS[k] for k, p in pairs.items())
    assert same == 17  # of 21: the givens our boards happen to have
    # the paper preset's runs come first (an interrupted rerun has the paper's columns), and
    # the tuned preset runs --tuned-runs times
    runs = script.make_runs(3, ["2", "4"], tuned_runs=1)
    extra = script.extra_runs(3, ["2", "4"])
    assert runs[len(runs) - len(extra):] == extra
    columns = [r.column for r in runs[:len(runs) - len(extra)]]
    last_paper = max(i for i, c in enumerate(columns) if c == "paper")
    assert columns.index("tuned") == last_paper + 1 == 3 * 2 * 11
    assert columns.count("tuned") == 2 * 11 and columns[-1] in script.EXACT
    # then the three class 2 boards with the paper's givens (11, 18, 20) in Tables 2 and 4,
    # and both presets on every board, 3 seeds each, to measure their cost alike
    assert [(r.table, r.row, r.seed) for r in extra[:18]] == [
        (t, p, seed) for t in "24" for seed in range(3) for p in ("11g", "18g", "20g")]
    assert {len(FAMILY.read_instance(r.instance).givens) for r in extra[:18]
            if r.row == "18g"} == {script.GIVENS[18]}
    cost = [(r.row, r.column, r.seed) for r in extra[18:]]
    assert cost[:4] == [("1", "paper", 0), ("1", "tuned", 0), ("1", "paper", 1),
                        ("1", "tuned", 1)]  # the presets alternate: measured alike
    assert len(cost) == 2 * 3 * 21 and {r.table for r in extra[18:]} == {"cost"}
    readings = [r for r in script.extra_runs(2, ["1"]) if r.column in script.READINGS]
    assert len(readings) == 3 * 10 * 2 and "rts_window=independent" in readings[0].backend


def _script(name: str):
    import importlib.util

    path = INSTANCES.parent / "lab" / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_run_count_behind_the_papers_averages_is_even():
    """30 runs per row: the mean times 30 is the sum of the runs' evaluations to the best, and
    it is an even whole number in all 63 rows (1 chance in 2**63 if the counts' parity were
    random): the paper counts its children two by two."""
    script = _script("reproduce_dasilva")
    for table in "123456":
        for row in script.paper_rows(table).values():
            total = row[3] * 30
            assert abs(total - round(total)) <= 0.15  # the mean is printed to 0.01
            assert round(total) % 2 == 0


def test_probe_window_drawn_with_replacement_and_memo_counts():
    probe = _script("probe_dasilva_class1")
    # 3 members ranked by distance, a window of 2 independent draws (9 equally likely pairs):
    # the nearest drawn is rank 0 in 5 pairs, rank 1 in 3, rank 2 in 1
    assert independent_window_ranks(3, 2) == pytest.approx([5 / 9, 8 / 9])
    r = probe.run("paper", INSTANCES / "hidato_19_09.txt", 0)
    assert r["solved"]
    # copies of members (every uncrossed, unmutated child is one) are left out of the
    # memo counts; steps whose two children are both copies go two at a time
    assert r["to_best_memo"] < r["to_best_memo_pair"] < r["to_best"]
    assert r["to_best_memo_pair"] % 2 == 0 == r["to_best"] % 2
