"""Tantrix: formats, the verifier's named violations, CP-SAT on small shipped puzzles, counts."""

from __future__ import annotations

import json

import pytest
from conftest import INSTANCES, run_cli
from hypothesis import given
from hypothesis import strategies as st

from tilesolve.core.errors import InputError
from tilesolve.core.result import SolveOptions
from tilesolve.families.tantrix import catalogue as cat
from tilesolve.families.tantrix import cpsat
from tilesolve.families.tantrix.check import verify
from tilesolve.families.tantrix.instance import Goal, TantrixInstance
from tilesolve.families.tantrix.parse import read_instance

# a yellow loop of tiles 1..3 (Discovery 3), found by hand and checked by brute force
D3 = {(0, 0): (1, 1), (1, 0): (2, 3), (0, 1): (3, 5)}
D3_INST = TantrixInstance([1, 2, 3], [Goal("loop", "yellow")])


def kinds(inst, sol) -> set[str]:
    return {v.kind for v in verify(inst, sol).violations}


def test_catalogue_facts():
    assert len(cat.TILES) == 56
    assert cat.edges(1, 1) == ("red", "yellow", "yellow", "blue", "red", "blue")
    assert all(len(cat.colours(t)) == 3 for t in cat.TILES)
    assert [cat.back(k)[0] for k in range(3, 11)] == list("yrrbbbyr")


def test_valid_solution_accepted():
    assert verify(D3_INST, D3).ok


def test_wrong_rotation_rejected():
    bad = {**D3, (0, 0): (1, 2)}
    assert "mismatch" in kinds(D3_INST, bad)


def test_missing_tile_rejected():
    bad = {c: v for c, v in D3.items() if v[0] != 3}
    assert "missing-tile" in kinds(D3_INST, bad)


def test_split_cluster_rejected():
    bad = {**{c: v for c, v in D3.items() if c != (0, 1)}, (5, 5): (3, 5)}
    assert "disconnected" in kinds(D3_INST, bad)


def test_subloop_rejected():
    inst = TantrixInstance([1, 2, 3, 1, 2, 3], [Goal("loop", "yellow")])
    far = {(q + 6, r): v for (q, r), v in D3.items()}
    rep = verify(inst, {**D3, **far})
    msgs = [v.message for v in rep.violations if v.kind == "goal"]
    assert msgs and "2 separate lines" in msgs[0]


def test_hole_rejected():
    inst = TantrixInstance(list(range(1, 7)), [])
    ring = {(1, -1): (1, 0), (1, 0): (2, 0), (0, 1): (3, 0), (-1, 1): (4, 0), (-1, 0): (5, 0),
            (0, -1): (6, 0)}
    rep = verify(inst, ring)
    assert "hole" in {v.kind for v in rep.violations}
    assert "[(0, 0)]" in next(v.message for v in rep.violations if v.kind == "hole")


def test_cli_verify_names_violation(tmp_path):
    sol = tmp_path / "d3.txt"
    sol.write_text("1 0 0 2\n2 1 0 3\n3 0 1 5\n")
    res = run_cli("verify", INSTANCES / "tantrix_discovery_03.txt", sol)
    assert res.returncode == 1
    assert "mismatch" in res.stdout


@pytest.mark.parametrize("body, needle", [
    ("tiles 1-x\n", "tile range"),
    ("tiles 0 3\n", "unknown tile 0"),
    ("tiles 1-3\ngoal loop purple\n", "unknown colour"),
    ("tiles 5-2\n", "backwards"),
])
def test_bad_input_exit_2(tmp_path, body, needle):
    path = tmp_path / "bad.txt"
    path.write_text("tantrix\n" + body)
    with pytest.raises(InputError, match=needle):
        read_instance(path)
    res = run_cli("info", path)
    assert res.returncode == 2
    assert needle in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize("k", [3, 6, 9])
def test_cpsat_small_discovery(k):
    inst = read_instance(INSTANCES / f"tantrix_discovery_{k:02d}.txt")
    out = cpsat.solve(inst, SolveOptions(time_limit=60, threads=1))
    assert out.solution is not None and verify(inst, out.solution).ok


@pytest.mark.parametrize("n", [10, 20])
def test_cli_challenge_boards(n):
    res = run_cli("solve", INSTANCES / f"tantrix_challenge_{n}.txt", "--json", "--threads", "1",
                  "--time-limit", "120")
    data = json.loads(res.stdout)
    assert res.returncode == 0 and data["status"] == "solved" and data["verified"]
    assert len(data["solution"]["placements"]) == n


def test_count_discovery_3_up_to_symmetry():
    res = run_cli("solve", INSTANCES / "tantrix_discovery_03.txt", "--count", "--json",
                  "--threads", "1")
    data = json.loads(res.stdout)
    # the two cyclic orders of tiles 1, 2, 3 around their meeting point
    assert data["count"] == 2


def test_render_png(tmp_path):
    sol = tmp_path / "d3.txt"
    sol.write_text("1 0 0 1\n2 1 0 3\n3 0 1 5\n")
    out = tmp_path / "d3.png"
    res = run_cli("render", INSTANCES / "tantrix_discovery_03.txt", sol, "-o", out)
    assert res.returncode == 0 and out.stat().st_size > 1000


def _holes_by_box(cells):
    """The reference: empty cells of the cluster's box (plus a margin) not connected to its
    rim."""
    from tilesolve.families.tantrix.check import components

    qs, rs = [c[0] for c in cells], [c[1] for c in cells]
    box = {(q, r) for q in range(min(qs) - 1, max(qs) + 2) for r in range(min(rs) - 1, max(rs) + 2)}
    empty = box - set(cells)
    rim = {c for c in empty
           if c[0] in (min(qs) - 1, max(qs) + 1) or c[1] in (min(rs) - 1, max(rs) + 1)}
    return sorted((g for g in components(empty) if not g & rim), key=lambda c: (-len(c), min(c)))


@given(st.sets(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=1, max_size=30))
def test_holes_match_the_bounding_box_flood(cells):
    from tilesolve.families.tantrix.check import holes

    assert holes(cells) == _holes_by_box(cells)


def test_holes_of_a_cluster_with_a_far_tile_are_found_without_its_box():
    from tilesolve.core import hexgrid as hx
    from tilesolve.families.tantrix.check import holes

    ring = list(hx.neighbours((0, 0)))
    assert holes([*ring, (10**9, -(10**9))]) == [{(0, 0)}]
