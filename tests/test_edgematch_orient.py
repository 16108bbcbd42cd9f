"""The exact search's choice of tree (orient.py): rows or columns, each with one of the four
corner pieces kept top left, hold the same boards (turned); the choice takes the smallest
estimate; the command line reports the tree it walked."""

from __future__ import annotations

import json
import threading

import pytest
from conftest import run_cli

from tilesolve.families.edgematch import orient, search
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.generate import generate, planted_file

needs_c = pytest.mark.skipif(search._rowscan is None, reason="the compiled core is not built")


def _turned(board: dict, n: int) -> dict:
    """The board turned a quarter clockwise: (r, c) -> (c, n - 1 - r), each piece turned too"""
    return {(c, n - 1 - r): (p, (rot + 1) % 4) for (r, c), (p, rot) in board.items()}


def _canonical(inst, board: dict) -> tuple:
    """The same key for a board and its three turns; a piece by the colours it shows (a
    piece whose half-turn looks the same is placed in one turn of the two)"""
    turns = [board]
    for _ in range(3):
        turns.append(_turned(turns[-1], inst.width))
    return min(tuple(sorted((c, p, inst.edges(p, r)) for c, (p, r) in t.items()))
               for t in turns)


def _boards(t: search.RowscanTables) -> list[dict]:
    searcher, found = search.PySearcher(t, None), []
    while (code := searcher.step(10**6)[0]) != -1:
        if code == 1:
            found.append(searcher.solution())
    return found


def _make(inst):
    return lambda order, anchor: search.RowscanTables(inst, order=order, anchor=anchor)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_eight_trees_hold_the_same_boards_turned(seed):
    inst, planted = generate(4, 4, seed=seed)
    corners = inst.corner_pieces()
    want = {_canonical(inst, planted)}
    every = None
    for order in ("rows", "columns"):
        for piece in corners:
            t = search.RowscanTables(inst, order=order, anchor=piece)
            assert t.anchor == piece and t.order == order
            boards = _boards(t)
            assert all(verify(inst, b).ok and b[(0, 0)][0] == piece for b in boards)
            keys = {_canonical(inst, b) for b in boards}
            assert len(keys) == len(boards)  # each board once, in one turn
            every = keys if every is None else every
            assert keys == every and want <= keys, (order, piece)


@needs_c
def test_the_choice_takes_the_smallest_estimated_tree(monkeypatch):
    monkeypatch.setattr(orient, "PROBES", 20_000)
    monkeypatch.setattr(orient, "LEAST", 1_000)
    inst, _ = generate(6, 6, seed=4)
    tables, seen = orient.choose(inst, _make(inst), 0, None, threading.Event())
    trees = seen["tree_estimates"]
    assert len(trees) == 8 and seen["tree_estimate"] == min(trees)
    k = trees.index(min(trees))
    corners = inst.corner_pieces()
    assert (tables.order, tables.anchor) == (("rows", "columns")[k // 4], corners[k % 4])
    assert len(set(trees)) > 1  # the trees differ in size
    # the same seed, the same estimates
    assert orient.choose(inst, _make(inst), 0, None, threading.Event())[1]["tree_estimates"] \
        == trees


@needs_c
def test_no_choice_without_time_for_it_or_once_stopped():
    inst, _ = generate(6, 6, seed=4)
    assert orient.choose(inst, _make(inst), 0, 0.01, threading.Event()) is None
    stop = threading.Event()
    stop.set()
    assert orient.choose(inst, _make(inst), 0, None, stop) is None


@needs_c
def test_the_chooser_hands_the_workers_the_chosen_tables(monkeypatch):
    monkeypatch.setattr(orient, "DELAY", 0.0)
    monkeypatch.setattr(orient, "PROBES", 20_000)
    monkeypatch.setattr(orient, "LEAST", 1_000)
    inst, _ = generate(6, 6, seed=4)
    with orient.Chooser(inst, _make(inst), 0, lambda: None) as chooser:
        assert chooser.settled(60)
        seen = chooser.seen
    assert seen["tree_estimate"] == min(seen["tree_estimates"])
    assert (chooser.tables.order, chooser.tables.anchor) == (seen["orient"], seen["anchor"])
    assert seen["orient_at_seconds"] >= 0


def test_the_solve_reports_the_tree_it_walked(tmp_path):
    board = planted_file(tmp_path, 6, 11)
    for flag, order in (([], "rows"), (["--orient", "columns"], "columns")):
        out = run_cli("solve", str(board), "--backend", "search", "--seed", "1", "--json", *flag)
        answer = json.loads(out.stdout)
        assert answer["status"] == "solved" and answer["verified"] is True
        # solved before the choice's delay: auto walks the first tree
        assert answer["stats"]["orient"] == order and answer["stats"]["anchor"] >= 1
