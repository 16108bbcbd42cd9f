"""The command line's own parsing: backend options anywhere on the line (read from the declared
option tables, unknown ones refused with the nearest known one), numbers refused in one line,
help that offers only what works, and a closed pipe ending a command quietly."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import INSTANCES, ROOT, run_cli

E2_4 = INSTANCES / "e2_4x4.txt"


def _one_line_refusal(proc, words: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert words in proc.stderr, proc.stderr


@pytest.mark.parametrize("where", ["before", "after"])
def test_backend_options_stand_before_or_after_the_instance(where):
    opts = ["--population", "12", "--generations", "3", "--evaluations", "60"]
    line = [*opts, E2_4] if where == "before" else [E2_4, *opts]
    proc = run_cli("solve", "--backend", "ga", *line, "--objective", "matches", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["backend"] == "ga" and out["verified"] and out["stats"]["population"] == 12


def test_a_switch_alone_before_the_instance_is_on_and_name_value_is_kept():
    alone = run_cli("solve", "--no-symmetry", E2_4, "-b", "cpsat", "--threads", "1", "--json")
    spelt = run_cli("solve", E2_4, "--no-symmetry=on", "-b", "cpsat", "--threads", "1",
                    "--json")
    for proc in (alone, spelt):
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["status"] == "solved"


def test_options_of_generate_verify_and_export_parse_from_their_tables(tmp_path):
    board, solution = tmp_path / "g.txt", tmp_path / "g.sol"
    gen = run_cli("generate", "edgematch", "--size", "3", "--solution", solution, "-o", board,
                  "--inner-colours", "3")
    assert gen.returncode == 0, gen.stderr
    check = run_cli("verify", "--clues", "off", board, solution, "--json")
    assert check.returncode == 0 and json.loads(check.stdout)["valid"] is True
    model = tmp_path / "m.cnf"
    exp = run_cli("export", "--no-symmetry", board, "--to", "cnf", "-o", model)
    assert exp.returncode == 0 and model.read_text().startswith(("c", "p"))


@pytest.mark.parametrize(("args", "words"), [
    (["solve", E2_4, "-b", "ga", "--populaton", "5"],
     "unknown option(s) --populaton for solve --backend ga (did you mean --population?)"),
    (["solve", "--popullation", "5", E2_4],
     "unknown option(s) --popullation for solve (did you mean --population?)"),
    (["solve", E2_4, "-b", "cpsat", "--population", "5"],
     "unknown option(s) --population for solve --backend cpsat"),
    (["solve", E2_4, "-b", "ga", "--population"], "--population needs a value"),
    (["solve", E2_4, "-b", "search", "--keep-last", "maybe", "--objective", "matches"],
     "--keep-last must be on or off, got 'maybe'"),
    (["generate", "hidato", "-o", "x.txt", "--sizee", "3"],
     "unknown option(s) --sizee for generate (did you mean --size?)"),
])
def test_unknown_or_incomplete_options_are_refused_in_one_line(args, words):
    _one_line_refusal(run_cli(*args), words)


@pytest.mark.parametrize(("args", "words"), [
    (["solve", E2_4, "--count", "--count-limit", "0"], "--count-limit must be at least 1"),
    (["solve", E2_4, "--count", "--count-limit", "-1"], "--count-limit must be at least 1"),
    (["solve", E2_4, "-t", "1e12"], "--time-limit must be at most 31,536,000 s"),
    (["solve", E2_4, "-t", "1e308"], "leave it out for no limit"),
    (["bench", E2_4, "--jobs", "-1"], "--jobs must be at least 0, got -1"),
])
def test_numbers_out_of_range_are_refused_in_one_line(args, words):
    _one_line_refusal(run_cli(*args), words)


def test_more_threads_than_cores_count_as_all_cores():
    proc = run_cli("solve", E2_4, "-b", "cpsat", "--threads", "100000", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["status"] == "solved"


def test_generate_help_offers_only_families_that_generate():
    text = run_cli("generate", "--help").stdout
    assert "edgematch | hidato" in text and "tantrix" not in text and "magichex" not in text
    _one_line_refusal(run_cli("generate", "tantrix", "-o", "x.txt"),
                      "the tantrix family cannot generate instances; families that do: "
                      "edgematch, hidato")


@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_a_closed_pipe_ends_the_command_quietly_with_141(extra):
    """`tilesolve solve ... | head -1`: the reader has gone before anything is written."""
    proc = subprocess.Popen([sys.executable, "-m", "tilesolve", "solve", str(E2_4), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=120) == 141 and err == b""
