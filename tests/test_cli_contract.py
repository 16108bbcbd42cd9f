"""The command line's contract: with --json stdout holds exactly one object, whatever happens;
solver logs go to stderr; bad numbers are refused with one line and exit 2."""

from __future__ import annotations

import json

import pytest
from conftest import INSTANCES

E2_4 = str(INSTANCES / "e2_4x4.txt")


def _one_object(stdout: str) -> dict:
    lines = [ln for ln in stdout.splitlines() if ln.strip()]
    assert len(lines) == 1, stdout
    return json.loads(lines[0])


@pytest.mark.parametrize(
    ("args", "file", "line", "words"),
    [
        (["solve", "no_such.txt"], "no_such.txt", None, "no such file"),
        (["verify", E2_4, str(INSTANCES / "e2_5x5.txt")], "e2_5x5.txt", 27, "expected 4 rows"),
        (["info", "no_such.txt"], "no_such.txt", None, "no such file"),
        (["solve", E2_4, "--backend", "ga", "--population", "x"], None, None, "--population"),
        (["solve", E2_4, "--backend", "nope"], None, None, "'nope' is not one of"),
        (["solve", E2_4, "-t", "nan"], None, None, "--time-limit must be a positive"),
        (["solve", E2_4, "-t", "inf"], None, None, "--time-limit must be a positive"),
        (["solve", E2_4, "--seed", "2147483648"], None, None, "--seed must be in 0..2147483647"),
    ],
)
def test_json_errors_are_one_object(cli, args, file, line, words):
    r = cli(*args, "--json")
    assert r.returncode == 2
    obj = _one_object(r.stdout)
    assert obj["status"] == "bad-input" and obj["exit_code"] == 2
    assert words in obj["error"]
    assert (obj.get("file") or "").endswith(file or "") and obj.get("line") == line
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_verbose_log_goes_to_stderr_and_json_stays_one_object(cli):
    r = cli("solve", E2_4, "-v", "--json", "--threads", "1")
    assert r.returncode == 0
    assert _one_object(r.stdout)["status"] == "solved"
    assert "CP-SAT" in r.stderr


def test_largest_seed_is_accepted(cli):
    r = cli("solve", E2_4, "--seed", "2147483647", "--json", "--threads", "1")
    assert r.returncode == 0 and _one_object(r.stdout)["seed"] == 2147483647
