"""The MILP and SAT backends of Tantrix on the fixed-board Kino & Uno challenges."""

import json

import pytest
from conftest import run_cli


def solve(backend: str, path: str, *extra: str) -> tuple[int, dict | None, str]:
    proc = run_cli("solve", "--backend", backend, path, "--json", "--threads", "1",
                   "--time-limit", "120", *extra)
    data = json.loads(proc.stdout) if proc.stdout.strip() else None
    return proc.returncode, data, proc.stderr


@pytest.mark.parametrize("n", [10, 20, 30, 40])
def test_sat_solves_challenge(n):
    code, data, err = solve("sat", f"instances/tantrix_challenge_{n}.txt")
    assert code == 0, err
    assert data["status"] == "solved" and data["verified"] is True
    assert len(data["solution"]["placements"]) == n


def test_milp_solves_challenge_10():
    code, data, err = solve("milp", "instances/tantrix_challenge_10.txt")
    assert code == 0, err
    assert data["status"] == "solved" and data["verified"] is True
    assert len(data["solution"]["placements"]) == 10
    assert data["stats"]["rounds"] >= 1


@pytest.mark.parametrize("backend", ["milp", "sat"])
def test_free_shape_is_refused(backend):
    code, _data, err = solve(backend, "instances/tantrix_discovery_10.txt")
    assert code == 2
    assert "fixed boards only" in err and "Traceback" not in err
