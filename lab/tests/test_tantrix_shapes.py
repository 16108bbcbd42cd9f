"""lab/scripts/tantrix_shapes.py: the shapes listed by the arcs their outline cuts."""

from __future__ import annotations

import csv
import itertools
import json
from collections import Counter

import pytest
import tantrix_shapes as ts

import tilesolve

ROOT = ts.Path(__file__).parents[2]


def every_shape(n: int, radius: int) -> dict:
    """Every shape of n cells inside a hexagon of the given radius, by key: its loss."""
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
