"""Statuses that say what happened: a spent work budget is not a timeout, a precheck's
proof names the precheck, a stopped exact run gives its bound and gap, the portfolio's
lanes get the limit, every command's JSON has a status."""

from __future__ import annotations

import json

import pytest
from conftest import INSTANCES

HIDATO_FAR = "hidato hex 2\n  1  .\n.  .  .\n  .  2\n"  # givens 1 and 2 two moves apart


@pytest.mark.parametrize("instance, budget", [
    ("e2_6x6.txt", ("--evaluations", "2000")),
    ("hidato_37_01.txt", ("--generations", "3")),
    ("magichex_4_3.txt", ("--generations", "3")),
])
def test_a_spent_ga_budget_is_budget_not_timeout(cli, instance, budget):
    r = cli("solve", INSTANCES / instance, "--backend", "ga", *budget, "-t", "300", "--json")
    assert r.returncode == 5, r.stdout + r.stderr
    obj = json.loads(r.stdout)
    assert obj["status"] == "budget" and obj["stats"]["stop_reason"] == budget[0][2:]
    assert obj["solution"] is not None and obj["verified"] is False
    text = cli("solve", INSTANCES / instance, "--backend", "ga", *budget, "-t", "300")
    assert text.returncode == 5
    assert text.stdout.startswith(f"budget ({budget[0][2:]} spent) by ga in ")


def test_a_spent_budget_with_an_objective_is_feasible(cli):
    r = cli("solve", INSTANCES / "e2_6x6.txt", "--backend", "ga", "--evaluations", "2000",
            "--objective", "matches", "-t", "300", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    obj = json.loads(r.stdout)
    assert obj["status"] == "feasible" and obj["verified"] is True
    assert obj["stats"]["stop_reason"] == "evaluations"


def test_a_precheck_proof_is_labelled_precheck(cli, tmp_path):
    path = tmp_path / "far.txt"
    path.write_text(HIDATO_FAR)
    r = cli("solve", path)
    assert r.returncode == 3, r.stdout + r.stderr
    assert r.stdout.startswith("infeasible by precheck (cpsat did not run) in ")
    obj = json.loads(cli("solve", path, "--json").stdout)
    assert obj["status"] == "infeasible" and obj["stats"]["proved_by"] == "precheck"
