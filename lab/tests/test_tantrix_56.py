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
