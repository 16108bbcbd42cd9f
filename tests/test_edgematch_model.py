"""Edge-matching formats, the checker and bad input, through the real command line."""

from __future__ import annotations

import json

import pytest
from conftest import E2_DATA, INSTANCES, needs_e2_data, run_cli

from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.family import FAMILY
from tilesolve.families.edgematch.format import board_url
from tilesolve.families.edgematch.generate import generate
from tilesolve.families.edgematch.parse import read_instance


@pytest.fixture
def planted(tmp_path):
    inst, sol = generate(4, 4, seed=3)
    inst_path = tmp_path / "p.txt"
    from tilesolve.families.edgematch.format import format_instance

    inst_path.write_text(format_instance(inst))
    return inst, sol, inst_path


def _write_board(tmp_path, inst, sol, name="s.txt"):
    p = tmp_path / name
    p.write_text(FAMILY.format_solution(inst, sol))
    return p


def test_planted_solution_verifies(planted, tmp_path):
    inst, sol, inst_path = planted
    assert verify(inst, sol).ok
    res = run_cli("verify", inst_path, _write_board(tmp_path, inst, sol))
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.startswith("valid")


def test_verify_names_each_violation(planted, tmp_path):
    inst, sol, inst_path = planted
    bad = dict(sol)
    (c1, (p1, r1)), (c2, (p2, r2)) = [(c, bad[c]) for c in [(1, 1), (1, 2)]]
    bad[c1] = (p1, (r1 + 1) % 4)  # a turned inner piece: mismatched joins
    bad[c2] = (p1, r2)  # piece p1 doubled, p2 missing
    bad.pop((0, 0))  # an empty cell
    kinds = verify(inst, bad).kinds()
    assert kinds["mismatch"] >= 2
    assert kinds["doubled-piece"] == 1
    assert kinds["missing-piece"] >= 2  # p2 and the piece that was at (0, 0)
    assert kinds["empty-cell"] == 1
    res = run_cli("verify", inst_path, _write_board(tmp_path, inst, bad), "--json")
    assert res.returncode == 1
    data = json.loads(res.stdout)
    assert not data["valid"]
    assert {v["kind"] for v in data["violations"]} >= {
        "mismatch",
        "doubled-piece",
        "missing-piece",
        "empty-cell",
    }


def test_frame_violation_and_moved_hint(planted, tmp_path):
    inst, sol, _ = planted
    corner = sol[(0, 0)]
    bad = dict(sol)
    bad[(0, 0)] = (corner[0], (corner[1] + 1) % 4)
    assert verify(inst, bad).kinds()["frame"] >= 1
    inst.fixed[(0, 0)] = corner
    moved = dict(sol)
    moved[(0, 0)], moved[(0, 3)] = sol[(0, 3)], sol[(0, 0)]
    assert verify(inst, moved).kinds()["moved-hint"] == 1


def test_url_round_trip(planted, tmp_path):
    inst, sol, inst_path = planted
    url = board_url(inst, sol)
    res = run_cli("verify", inst_path, url)
    assert res.returncode == 0, res.stderr
    # the URL is also an instance: its cells are the pieces
    (tmp_path / "u.txt").write_text(url + "\n")
    back = read_instance(tmp_path / "u.txt")
    assert (back.width, back.height, back.n) == (4, 4, 16)


def test_heule_hint_first_format(tmp_path):
    inst, sol = generate(5, 4, seed=2)
    cell, (p, r) = next(iter(sorted(sol.items())))
    lines = ["1", f"{cell[0] + 1} {cell[1] + 1} {p} {r}"] + [
        " ".join(map(str, e)) for e in inst.pieces
    ]
    path = tmp_path / "heule.txt"
    path.write_text("\n".join(lines) + "\n")
    got = read_instance(path)
    assert (got.width, got.height) == (5, 4)
    assert got.fixed == {cell: (p, r)}


@needs_e2_data()
@pytest.mark.parametrize(
    "board,score",
    [
        ("e2_board_verhaard_467.txt", 467),
        ("e2_board_blackwood_468.txt", 468),
        ("e2_board_blackwood_mcgavin_469.txt", 469),
        ("e2_board_blackwood_470.txt", 470),
    ],
)
def test_record_boards_score(board, score):
    res = run_cli(
        "verify", E2_DATA / "e2_256.txt", E2_DATA / board, "--objective", "matches", "--json"
    )
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert (data["score"], data["max_score"]) == (score, 480)
    strict = run_cli("verify", E2_DATA / "e2_256.txt", E2_DATA / board)
    assert strict.returncode == 1
    assert strict.stdout.count("mismatch:") == 480 - score


@needs_e2_data()
def test_brendan_solutions_verify():
    for n in range(4, 17):
        res = run_cli(
            "verify",
            E2_DATA / "brendan" / f"pieces_{n:02d}x{n:02d}.txt",
            E2_DATA / "brendan" / f"solution_{n:02d}x{n:02d}.txt",
        )
        assert res.returncode == 0, (n, res.stdout)


def test_generated_instance_counts():
    for n, (f, i) in {4: (2, 3), 5: (3, 4), 7: (3, 6), 8: (3, 8)}.items():
        info = json.loads(run_cli("info", INSTANCES / f"e2_{n}x{n}.txt", "--json").stdout)
        assert (info["frame_colours"], info["inner_colours"]) == (f, i)
    info = json.loads(run_cli("info", INSTANCES / "e2_16x16.txt", "--json").stdout)
    assert (info["pieces"], info["frame_colours"], info["inner_colours"]) == (256, 5, 17)
    info = json.loads(run_cli("info", INSTANCES / "e2_6x6.txt", "--json").stdout)
    assert info["frame_colours"] + info["inner_colours"] == 7


BAD_INSTANCES = {
    "wrong piece count": ("edgematch 2 2\n0 1 1 0\n0 0 1 1\n", "wrong piece count", 3),
    "bad token": ("edgematch 2 2\n0 1 1 0\n0 0 1 1\n1 0 0 x\n1 1 0 0\n", "'x'", 4),
    "unknown header": ("edgematching 2 2\n0 1 1 0\n", "unknown header", 1),
    "bad fixed": (
        "edgematch 2 2\n0 1 1 0\n0 0 1 1\n1 0 0 1\n1 1 0 0\nfixed 5 0 1 0\n",
        "outside",
        6,
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_INSTANCES))
def test_malformed_instance(tmp_path, name):
    text, needle, line = BAD_INSTANCES[name]
    path = tmp_path / "bad.txt"
    path.write_text(text)
    res = run_cli("solve", path)
    assert res.returncode == 2
    err = res.stderr.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert needle in err and str(path) in err
    if line is not None:
        assert f"{path}:{line}:" in err


def test_missing_file_and_bad_flag(tmp_path):
    res = run_cli("solve", tmp_path / "nope.txt")
    assert res.returncode == 2 and "no such file" in res.stderr and "Traceback" not in res.stderr
    res = run_cli("solve", INSTANCES / "e2_4x4.txt", "--backend", "quantum")
    assert res.returncode == 2 and "Traceback" not in res.stderr
    res = run_cli("solve", INSTANCES / "e2_4x4.txt", "--time-limit", "-1")
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1


def test_malformed_solution(planted, tmp_path):
    _, _, inst_path = planted
    sol = tmp_path / "s.txt"
    sol.write_text("1/0 2/0 3/0 4/0\n5/0 6/0 7/0 99/0\n9/0 10/0 11/0 12/0\n13/0 14/0 15/0 16/0\n")
    res = run_cli("verify", inst_path, sol)
    assert res.returncode == 2
    assert f"{sol}:2:" in res.stderr and "unknown piece 99" in res.stderr


def test_cpsat_solves_shipped_6x6():
    res = run_cli("solve", "--backend", "cpsat", INSTANCES / "e2_6x6.txt", "--json")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["status"] == "solved" and data["verified"] is True
    board = data["solution"]["board"]
    assert sorted(p for row in board for p, _ in row) == list(range(1, 37))


def test_cpsat_optimisation_scores(tmp_path):
    res = run_cli("solve", INSTANCES / "e2_5x5.txt", "--objective", "matches", "--json")
    data = json.loads(res.stdout)
    assert res.returncode == 0 and data["status"] == "solved" and data["objective"] == 40


def test_render_png(planted, tmp_path):
    inst, sol, inst_path = planted
    out = tmp_path / "b.png"
    res = run_cli("render", inst_path, _write_board(tmp_path, inst, sol), "-o", out)
    assert res.returncode == 0, res.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = tmp_path / "b.svg"
    assert (
        run_cli("render", inst_path, _write_board(tmp_path, inst, sol), "-o", svg).returncode == 0
    )
    assert "<svg" in svg.read_text()
