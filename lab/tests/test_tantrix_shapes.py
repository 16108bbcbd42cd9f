"""lab/scripts/tantrix_shapes.py: the shapes listed by the arcs their outline cuts."""

from __future__ import annotations

import csv
import functools
import itertools
import json
from collections import Counter

import pytest
import tantrix_shapes as ts

import tilesolve

ROOT = ts.Path(__file__).parents[2]


@functools.cache
def every_shape(n: int, radius: int) -> dict:
    """Every shape of n cells inside a hexagon of the given radius, by key: its loss (found
    once per run of the tests; read, never changed)."""
    window = [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
              if abs(q + r) <= radius]
    out = {}
    for cells in itertools.combinations(window, n):
        if ts.whole(set(cells)):
            out.setdefault(ts.key(cells), ts.loss(set(cells)))
    return out


def test_every_five_cell_shape_is_found_once_with_its_loss():
    """The 33 pentahexes up to rotation and translation (mirror images apart)."""
    every = every_shape(5, 2)
    assert len(every) == 33
    assert sorted(Counter(every.values()).items()) == [(9, 2), (10, 1), (11, 8), (12, 19), (13, 3)]


@pytest.mark.parametrize("loss_max", [9, 10, 11, 13])
def test_the_moves_reach_every_shape_within_the_loss(loss_max):
    listed = ts.shapes_within(5, loss_max)
    assert sorted(ts.key(c) for _, c in listed) == \
        sorted(k for k, v in every_shape(5, 2).items() if v <= loss_max)
    assert all(lost <= loss_max for lost, _ in listed)


def test_a_ring_with_a_hole_is_not_a_shape_and_the_loss_is_the_checkers():
    assert not ts.whole(set(ts.around((0, 0))))  # six cells round an empty one
    assert ts.whole(set(ts.around((0, 0))) | {(0, 0)})
    puzzle = tilesolve.load(ROOT / "instances" / "tantrix_loop56.txt")
    board = json.loads((ROOT / "lab" / "results" / "tantrix_loop56_best.json").read_text())
    cells = {(p["q"], p["r"]) for p in board["solution"]["placements"]}
    assert puzzle.verify(board["solution"], "longest").shape_bound == 168 - ts.loss(cells)


def test_moves_through_larger_outlines_list_only_shapes_within_the_loss(tmp_path):
    """--through K: the moves may pass shapes cutting up to K arcs; only those within the
    loss are listed, and --except leaves out the shapes of an earlier listing."""
    listed = ts.shapes_within(5, 10, through=13)
    assert sorted(ts.key(c) for _, c in listed) == \
        sorted(k for k, v in every_shape(5, 2).items() if v <= 10)
    earlier = tmp_path / "earlier.csv"
    with earlier.open("w", newline="") as f:
        rows = csv.writer(f)
        rows.writerow(["loss", "cells"])
        rows.writerows([lost, " ".join(f"{q},{r}" for q, r in ts.key(c))] for lost, c in listed[:2])
    assert [ts.key(c) for _, c in ts.read_listing(earlier)] == [ts.key(c) for _, c in listed[:2]]


@pytest.mark.parametrize("loss_max", [9, 10, 11, 12, 13])
def test_the_complete_list_is_every_shape_within_the_loss(loss_max):
    listed = ts.shapes_complete(5, loss_max)
    assert sorted(ts.key(c) for _, c in listed) == \
        sorted(k for k, v in every_shape(5, 2).items() if v <= loss_max)
    assert all(lost == ts.loss(set(c)) <= loss_max for lost, c in listed)


def test_the_complete_list_of_one_to_four_cells():
    """1, 1, 3 and 10 shapes up to rotation and translation (one cell, one row, no row under
    it, included)."""
    assert [len(ts.shapes_complete(n, 3 * n)) for n in (1, 2, 3, 4)] == [1, 1, 3, 10]


def test_the_complete_list_and_the_moves_agree_on_nineteen_cells():
    """The hexagon of 19 cuts 18 arcs; moves within 18 reach it alone, moves through 19 seven
    more shapes cutting 18, which the walk over rows finds too."""
    complete = ts.shapes_complete(19, 18)
    assert len(complete) == 8 and {lost for lost, _ in complete} == {18}
    assert sorted(ts.key(c) for _, c in complete) == \
        sorted(ts.key(c) for _, c in ts.shapes_within(19, 18, through=19))
    assert len(ts.shapes_within(19, 18)) == 1


def test_one_segment_on_top_loses_no_shape():
    """Turned so that its top row has the fewest segments, every shape within the loss has
    one there when one_top_segment says so: the walk over every top row finds the same."""
    assert ts.one_top_segment(7, 14)
    assert ts.shapes_complete(7, 14) == ts.shapes_complete(7, 14, several_on_top=True)
    # 56 cells within 32: 26 lines met hold at most 56 cells (a hexagon of side 5 less a
    # row), 27 start 33 runs with six split outer lines
    assert (ts._most_cells(25), ts._most_cells(26), ts._most_cells(27)) == (52, 56, 61)
    assert ts.one_top_segment(56, 32)
    assert not ts.one_top_segment(5, 20)  # a loose loss leaves room for split outer lines


def test_the_runs_a_row_starts_are_bounded_and_the_bound_is_met():
    """Over every five-cell shape, turned every way: the runs each row starts (a run per
    segment, and one per cell for each of its q- and s-lines not going on from the row
    above) are never fewer than _row_runs says, and equal to it for a shorter, an equally
    long and a longer row; the fewest runs of five cells are those of the most compact."""
    met = set()
    for cells in every_shape(5, 2):
        for k in range(6):
            shape = set(cells)
            for _ in range(k):
                shape = {(-r, q + r) for q, r in shape}  # a sixth of a turn
            rows = [frozenset(q for q, r in shape if r == y)
                    for y in range(min(r for _, r in shape), max(r for _, r in shape) + 1)]
            above = frozenset()
            for row in rows:
                segs = sum(q - 1 not in row for q in row)
                started = segs + sum((q not in above) + (q + 1 not in above) for q in row) \
                    if above else segs + 2 * len(row)
                bound = ts._row_runs(len(above), len(row))
                assert started >= bound
                if started == bound and above:
                    met.add((len(row) > len(above)) - (len(row) < len(above)))
                above = row
    assert met == {-1, 0, 1}
    runs = [sum(nb not in c for cell in c for nb in ts.around(cell)) // 2
            for c in every_shape(5, 2)]
    assert ts._fewest_runs(5, 0) == min(runs) == 8


def test_the_parts_of_the_complete_list_make_the_whole():
    whole_list = sorted(ts.key(c) for _, c in ts.shapes_complete(19, 19))
    parts = [{ts.key(c) for _, c in ts.shapes_complete(19, 19, part=f"{i}/3")} for i in range(3)]
    assert sorted(set().union(*parts)) == whole_list and len(whole_list) == 67
    assert all(len(p) < len(whole_list) for p in parts)
