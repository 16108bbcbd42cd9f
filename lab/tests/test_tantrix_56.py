"""lab/scripts/tantrix_56.py --on-its-shape: the puzzle on a board's own cells is the same
puzzle with `shape board`, and the board itself is one of its placements with the same score."""

from __future__ import annotations

import json

import tantrix_56

import tilesolve


def test_the_shape_instance_holds_the_boards_cells_and_takes_the_board(tmp_path, monkeypatch):
    monkeypatch.setattr(tantrix_56, "OUT", tmp_path)
    best = tantrix_56.ROOT / "lab" / "results" / "tantrix_loop56_best.json"
    saved = json.loads(best.read_text())
    path = tantrix_56.shape_instance("loop56", best)
    game = tilesolve.load(path)
    cells = {(p["q"], p["r"]) for p in saved["solution"]["placements"]}
    assert "shape board" in game.text and game.text.count("\ncell ") == len(cells) == 56
    report = game.verify(saved["solution"], "longest")
    assert report.ok and report.score == saved["objective"] >= 104
    free = tilesolve.load(tantrix_56.ROOT / "instances" / "tantrix_loop56.txt")
    assert free.verify(saved["solution"], "longest").score == report.score


def test_the_best_board_kept_is_replaced_only_by_a_higher_verified_run(tmp_path, monkeypatch):
    """A board kept from another script's runs (the islands', CP-SAT's eight workers') stayed
    only until this script wrote the best of its own runs over it, lower or not."""
    out = tmp_path / "runs"
    out.mkdir()
    monkeypatch.setattr(tantrix_56, "OUT", out)
    monkeypatch.setattr(tantrix_56, "best_path", lambda p: tmp_path / f"tantrix_{p}_best.json")
    kept = tmp_path / "tantrix_loop56_best.json"
    kept.write_text(json.dumps({"verified": True, "objective": 111, "from": "kept"}))
    (out / "loop56_cpsat_cpu600_s0.json").write_text(json.dumps({"verified": True,
                                                                 "objective": 104}))
    (out / "loop56_lns_cpu600_s0.json").write_text(json.dumps({"verified": False,
                                                              "objective": 140}))
    assert tantrix_56.best_boards()["loop56"]["objective"] == 111
    assert json.loads(kept.read_text())["from"] == "kept"
    (out / "loop56_cpsat_cpu600_s1.json").write_text(json.dumps({"verified": True,
                                                                 "objective": 112}))
    assert tantrix_56.best_boards()["loop56"]["objective"] == 112
    assert json.loads(kept.read_text())["objective"] == 112
