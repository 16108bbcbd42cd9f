"""What experiments take from the public API: `generate`, `presets`, `Puzzle.backends`,
`Puzzle.solve`'s `stop` and `hint`, and the public `tilesolve.bench` module; with the GA
engine's preset and fitness-curve helpers the pages are built from."""

from __future__ import annotations

import subprocess
import sys
import threading

import numpy as np
import pytest
from conftest import INSTANCES

import tilesolve
from tilesolve import InputError, Status
from tilesolve.backends import ga as engine
from tilesolve.families.edgematch.ga import PRESETS as EDGEMATCH_PRESETS


def test_generate_gives_the_commands_puzzle_and_its_planted_solution(tmp_path):
    out = tmp_path / "gen.txt"
    subprocess.run([sys.executable, "-m", "tilesolve", "generate", "edgematch", "-o", str(out),
                    "--seed", "7001", "--size", "5"], check=True, capture_output=True)
    puzzle, planted = tilesolve.generate("edgematch", seed=7001, size=5)
    assert puzzle.text.splitlines() == out.read_text().splitlines()[1:]  # less its comment
    assert len(planted) == 25 and puzzle.verify(planted).ok
    hidato, path = tilesolve.generate("hidato", seed=2, cells=19)
    assert hidato.family == "hidato" and hidato.verify(path).ok
    assert sorted(path.values()) == list(range(1, 20))


def test_generate_refuses_what_it_cannot_do():
    with pytest.raises(InputError, match="the tantrix family has no generator"):
        tilesolve.generate("tantrix")
    with pytest.raises(TypeError, match="returns the planted solution"):
        tilesolve.generate("edgematch", size=4, solution="x.txt")


def test_presets_describe_the_backends_settings():
    presets = tilesolve.presets("edgematch")
    assert list(presets) == list(EDGEMATCH_PRESETS) == ["tuned", "paper"]  # the default first
    assert presets["tuned"].summary == EDGEMATCH_PRESETS["tuned"].summary
    assert presets["tuned"].differences == tuple(EDGEMATCH_PRESETS["tuned"].differences)
    assert presets["paper"].differences == ()
    # which one runs without --preset: tuned on edge matching, the paper's GA elsewhere (a
    # reproduction page once marked paper as edge matching's default)
    assert [n for n, p in presets.items() if p.default] == ["tuned"]
    assert [n for n, p in tilesolve.presets("tantrix").items() if p.default] == ["paper"]
    assert tilesolve.presets("hidato", "cpsat") == {}
    with pytest.raises(InputError, match="the hidato family has no lns backend"):
        tilesolve.presets("hidato", "lns")


def test_a_puzzle_names_its_backends():
    assert tilesolve.load(INSTANCES / "hidato_19_01.txt").backends == (
        "cpsat", "milp", "sat", "ga")


@pytest.mark.parametrize("backend", ["search", "cpsat"])
def test_a_stop_set_before_the_solve_ends_it(backend):
    """CP-SAT ignores a StopSearch() told before Solve(): the flag, set before the model was
    built, once left a 16x16 solve running to its time limit."""
    stop = threading.Event()
    stop.set()
    res = tilesolve.load(INSTANCES / "e2_16x16.txt").solve(backend, stop=stop, threads=1,
                                                           time_limit=600)
    assert res.status == Status.TIMEOUT and res.solution is None


def test_stop_must_be_a_flag():
    with pytest.raises(TypeError, match="'stop' must have an is_set"):
        tilesolve.load(INSTANCES / "e2_4x4.txt").solve(stop=True)


def test_a_hint_is_read_like_a_solution(tmp_path):
    puzzle, planted = tilesolve.generate("edgematch", seed=3, size=5)
    res = puzzle.solve("cpsat", hint=planted, threads=1, time_limit=120)
    assert res.solved and puzzle.verify(res.solution).ok
    bad = tmp_path / "hint.txt"
    bad.write_text("not a board\n")
    with pytest.raises(InputError, match="hint.txt"):
        puzzle.solve("cpsat", hint=bad)


def test_the_bench_module_is_public_and_loaded_on_first_use():
    code = ("import sys, tilesolve; print('tilesolve.bench' in sys.modules); "
            "tilesolve.bench.Budget; print('tilesolve.bench' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.split() == ["False", "True"]
    assert "bench" in tilesolve.__all__
    row = tilesolve.bench.run_one(str(INSTANCES / "hidato_19_01.txt"), "cpsat", 0,
                                  {"time_limit": 60, "threads": 1})
    assert (row["status"], row["verified"], row["family"]) == ("solved", True, "hidato")


# the GA engine's helpers behind the presets' descriptions and the pages' fitness curves
def test_fitness_curve_stays_bounded_and_even():
    curve = engine.FitnessCurve(limit=8)
    for g in range(1001):
        curve.add(g, 10 * g, float(g), np.array([0.0, float(g)]))
    pts = curve.result()
    assert len(pts) <= 9 and pts[0][0] == 0 and pts[-1][0] == 1000
    gens = [p[0] for p in pts[:-1]]
    steps = {b - a for a, b in zip(gens, gens[1:], strict=False)}
    assert len(steps) == 1  # evenly spaced
    assert pts[-1] == (1000, 10000, 1000.0, 500.0)


def test_presets_are_chosen_and_described():
    paper = engine.Preset("paper", engine.GAConfig(population=200), summary="as published")
    tuned = engine.Preset("tuned", engine.GAConfig(population=60), summary="faster",
                          differences=("population 60 (paper: 200)",))
    presets = {"paper": paper, "tuned": tuned}
    assert engine.choose_preset(presets, {}) is paper
    assert engine.choose_preset(presets, {"preset": "Tuned"}) is tuned
    with pytest.raises(InputError, match="--preset; expected paper or tuned"):
        engine.choose_preset(presets, {"preset": "fast"})
    text = engine.describe_presets(presets)
    assert text.splitlines() == ["--preset paper (default): as published",
                                 "--preset tuned: faster", "    - population 60 (paper: 200)"]

