"""Drawings a user can read: broken rules in a colour no tile uses, a title with the puzzle's
name, score and verdict, the pieces of a puzzle without a solution, PDF beside SVG and PNG, and
the same bytes for the same board."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import INSTANCES, ROOT, run_cli

import tilesolve
from tilesolve.core import draw
from tilesolve.core.family import load_instance
from tilesolve.families.edgematch import check as e2_check
from tilesolve.families.edgematch.render import laid_out
from tilesolve.families.hidato import render as hidato_render
from tilesolve.families.magichex import render as magichex_render
from tilesolve.families.tantrix import render as tantrix_render

E2_4 = INSTANCES / "e2_4x4.txt"
LOOP56 = INSTANCES / "tantrix_loop56.txt"
DISCOVERY_3 = INSTANCES / "tantrix_discovery_03.txt"
# tile 1 turned once too far: red meets yellow between tiles 1 and 2, yellow no longer closes
D3_TURNED = "1 0 0 2\n2 1 0 3\n3 0 1 5\n"
MAGIC_3_SWAPPED = "12 10 16\n13 4 2 19\n15 8 5 7 3\n14 6 1 17\n9 11 18\n"  # 10, 12 swapped


def _fills(svg: str) -> set[str]:
    return set(re.findall(r"fill: (#[0-9a-f]{6})", svg))


def _drawn_text(svg: str) -> str:
    """The texts drawn, in order, lines joined by spaces (matplotlib writes each as a comment
    beside its glyph paths; a wrapped title line breaks at spaces)."""
    return " ".join(re.findall(r"<!-- (.*?) -->", svg))


def _strokes(svg: str) -> list[str]:
    return re.findall(r"stroke: (#[0-9a-f]{6})", svg)


def _e2_board(tmp_path):
    """The 4x4 pieces in numbering order as a board: every piece placed, joins mismatched."""
    family, inst = load_instance(E2_4)
    sol = laid_out(inst)
    path = tmp_path / "numbering.txt"
    path.write_text(family.format_solution(inst, sol))
    return family, inst, sol, path


def _render(tmp_path, instance, solution=None, name="b.svg") -> str:
    """The drawing made in this process, through the API (each command loads matplotlib
    anew: 0.4 CPU s; `render` as a command: test_pdf_is_drawn_... and test_cli_contract.py)."""
    out = tmp_path / name
    assert tilesolve.load(instance).render(out, solution) == out
    return out.read_text()


def test_no_tile_colour_is_the_mark_or_near_it():
    tiles = set(draw.palette(100)) | set(tantrix_render.INK.values())
    tiles |= {tantrix_render.FACE, tantrix_render.EMPTY, hidato_render.GIVEN,
              hidato_render.FREE, hidato_render.HOLE, magichex_render.GIVEN,
              magichex_render.EMPTY, magichex_render.FILLED}
    assert draw.MARK == "#ff00ff" and draw.MARK not in tiles
    assert not [c for c in draw.palette(100) if draw._near_mark(c)]  # no pink, purple, grey
    assert len(set(draw.palette(39))) == 39  # still enough for Eternity II's 22 colours


def test_edge_matching_marks_each_mismatch_in_the_mark_colour_under_a_scored_title(tmp_path):
    family, inst, sol, board = _e2_board(tmp_path)
    report = family.verify(inst, sol)
    mismatches = report.kinds()["mismatch"]
    assert mismatches > 0
    svg = _render(tmp_path, E2_4, board)
    tile_colours = {c for c in draw.palette(inst.colour_span())[1:]}
    assert draw.MARK not in _fills(svg) and tile_colours & _fills(svg)
    assert _strokes(svg).count(draw.MARK) == mismatches  # one mark per mismatched join
    score, joins = e2_check.score(inst, sol), 24
    assert f"{inst.name} matched joins {score}/{joins} not solved" in _drawn_text(svg)
    frame = report.kinds()["frame"]
    assert f"not solved, broken rules: {frame} frame, {mismatches} mismatch" in _drawn_text(svg)
    assert f"<dc:title>{inst.name}: matched joins {score}/{joins}" in svg


def test_a_solved_board_says_solved_with_its_full_score(tmp_path):
    sol = tilesolve.load(E2_4).solve(threads=1).write(tmp_path / "s.txt")
    svg = _render(tmp_path, E2_4, sol)
    assert "e2_4x4 matched joins 24/24 solved" in _drawn_text(svg)
    assert draw.MARK not in _strokes(svg)


def test_tantrix_marks_the_mismatched_edge_and_titles_the_verdict(tmp_path):
    sol = tmp_path / "d3.txt"
    sol.write_text(D3_TURNED)
    svg = _render(tmp_path, DISCOVERY_3, sol)
    assert _strokes(svg).count(draw.MARK) == 1  # the one edge where red meets yellow
    assert "not solved, broken rules: 1 goal, 1 mismatch" in _drawn_text(svg)


def test_a_tantrix_puzzle_without_a_solution_shows_its_pieces(tmp_path):
    _family, inst = load_instance(LOOP56)
    svg = _render(tmp_path, LOOP56)
    assert set(tantrix_render.INK.values()) <= set(_strokes(svg))  # the bands' colours
    numbers = set(re.findall(r"<!-- (\d+) -->", svg))
    assert numbers == {str(t) for t in inst.tiles}  # every piece, by its number
    assert "the puzzle, no solution given" in _drawn_text(svg)


def test_hidato_and_magic_hexagon_titles_and_marks(tmp_path):
    magic = tmp_path / "m.txt"
    magic.write_text(MAGIC_3_SWAPPED)
    svg = _render(tmp_path, INSTANCES / "magichex_3.txt", magic)
    assert "not solved, broken rules: 4 line-sum" in _drawn_text(svg)
    assert draw.MARK in _strokes(svg) and "red" not in svg
    hidato = tilesolve.load(INSTANCES / "hidato_19_01.txt").solve().write(tmp_path / "h.txt")
    svg = _render(tmp_path, INSTANCES / "hidato_19_01.txt", hidato)
    assert "hidato_19_01 solved" in _drawn_text(svg)


def test_pdf_is_drawn_and_other_suffixes_are_refused(tmp_path):
    _family, _inst, _sol, board = _e2_board(tmp_path)
    out = tmp_path / "b.pdf"
    assert run_cli("render", E2_4, board, "-o", out).returncode == 0
    assert out.read_bytes()[:5] == b"%PDF-"
    res = run_cli("render", E2_4, board, "-o", tmp_path / "b.gif")
    assert res.returncode == 2 and "expected .svg, .png or .pdf" in res.stderr


def test_the_same_board_gives_the_same_bytes_in_every_format(tmp_path):
    """Two separate processes (matplotlib salts SVG ids per process and dates SVG and PDF)."""
    _family, _inst, _sol, board = _e2_board(tmp_path)
    code = ("import sys, tilesolve\n"
            "p = tilesolve.load(sys.argv[1])\n"
            "for ext in ('svg', 'pdf', 'png'):\n"
            "    p.render(f'{sys.argv[3]}/b.{ext}', sys.argv[2])\n")
    runs = []
    for i in (1, 2):
        (tmp_path / str(i)).mkdir()
        subprocess.run([sys.executable, "-c", code, E2_4, board, tmp_path / str(i)], check=True,
                       cwd=ROOT, timeout=120)
        runs.append({ext: (tmp_path / str(i) / f"b.{ext}").read_bytes()
                     for ext in ("svg", "pdf", "png")})
    for ext in ("svg", "pdf", "png"):
        assert runs[0][ext] == runs[1][ext], ext
        assert len(runs[0][ext]) > 1000


@pytest.mark.parametrize("suffix", [".svg", ".png", ".pdf"])
def test_the_api_draws_each_format(tmp_path, suffix):
    import tilesolve

    out = tilesolve.load(E2_4).render(tmp_path / f"pieces{suffix}")
    head = out.read_bytes()[:8]
    assert head.startswith({".svg": b"<?xml", ".png": b"\x89PNG", ".pdf": b"%PDF"}[suffix])
