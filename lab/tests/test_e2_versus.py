"""The hole fill of lab/scripts/e2_versus.py, which scores libblackwood's partial boards."""

from __future__ import annotations

from pathlib import Path

import e2_versus
import pytest

import tilesolve

E2 = Path(__file__).resolve().parents[3] / "shared" / "e2_data"
pytestmark = pytest.mark.skipif(not (E2 / "e2_256.txt").exists(), reason="needs ../shared")


def test_a_record_board_short_of_its_last_cells_fills_back_to_its_score():
    official, record = str(E2 / "e2_256.txt"), E2 / "e2_board_verhaard_467.txt"
    w, h, pieces = e2_versus.our_pieces(official)
    rows = tilesolve.load(official).board_json(record)["board"]
    full = {r * w + c: tuple(rows[r][c]) for r in range(h) for c in range(w)}
    partial = {cell: pr for cell, pr in full.items() if cell < w * h - 12}  # 12 holes
    assert e2_versus.raw_score(w, h, pieces, partial) < 467
    filled = e2_versus.fill(w, h, pieces, partial)
    assert {cell: filled[cell] for cell in partial} == partial  # placed pieces stay
    assert sorted(p for p, _ in filled.values()) == list(range(1, w * h + 1))
    # exact: at least the record's own completion
    assert e2_versus.checked_score(official, w, filled) >= 467
