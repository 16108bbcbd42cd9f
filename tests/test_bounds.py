"""Bounded by design: every reader refuses what it cannot hold before it allocates (FIFOs,
devices, sizes, counts, colours), a model that would not fit in memory is refused from its
estimate before it is built, OS and output errors are bad input in one line, `-` reads
standard input. Every run here is a real subprocess under a timeout, most under a 2 GB
address-space limit (RLIMIT_AS), so a reader that allocated first would fail them."""

from __future__ import annotations

import json
import os
import resource
import signal

import pytest
from conftest import INSTANCES
from fuzzing import one_line_error, run, under_2gb

from tilesolve.core.bounds import MAX_BYTES, MAX_COLOUR


# --------------------------------------------------------------------------- file kinds
@pytest.mark.parametrize("command", [["solve", "-t", "5"], ["info"], ["render", "-o", "x.svg"]])
def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path, command):
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    # the old code blocked in open() for ever, the watchdog included
    r = run(command[0], fifo, *command[1:], timeout=60)
    assert "is a FIFO" in one_line_error(r)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_is_refused(device):
    r = run("solve", device, "-t", "5", "--json", timeout=60)
    assert "is a character device" in one_line_error(r)
    assert json.loads(r.stdout)["status"] == "bad-input"


def test_a_file_over_the_byte_limit_is_refused_unread(tmp_path):
    big = tmp_path / "big.txt"
    with open(big, "wb") as fh:
        fh.truncate(50 * MAX_BYTES)  # sparse: 200 MB of zeros, no disk used
    assert f"more than {MAX_BYTES:,} bytes" in one_line_error(run("info", big))


@pytest.mark.parametrize("path", ["/proc/self/mem", "x" * 300, "no_such_dir/x.txt"])
def test_os_errors_are_bad_input_in_one_line(path):
    line = one_line_error(run("info", path))
    assert any(w in line for w in ("Input/output error", "File name too long", "no such file"))


# --------------------------------------------------------------------------- counts
@pytest.mark.parametrize(("text", "words"), [
    ("tantrix\ntiles 1-1000000000\n", "unknown tile 1000000000"),
    ("tantrix\n" + "tiles 1-56\n" * 20, "expected at most 1,000"),
    ("edgematch 2 2\n0 0 1000000000 1\n0 0 1 1\n1 0 0 1\n1 1 0 0\n", f"0..{MAX_COLOUR}"),
    ("hidato square 300 300\n", "expected at most 10,000"),
])
def test_huge_counts_are_refused_before_any_list_is_made(tmp_path, text, words):
    path = tmp_path / "huge.txt"
    path.write_text(text)
    for command in (["solve", "-t", "5"], ["info"]):
        assert words in one_line_error(run(command[0], path, *command[1:]))


def test_a_huge_triangle_is_infeasible_by_counting(tmp_path):
    path = tmp_path / "tri.txt"
    path.write_text("tantrix\ntiles 1-10\nshape triangle 1000000000\n")
    r = run("solve", path, "-t", "5", "--json")  # the old code: 2-3 GB, then a timeout
    assert r.returncode == 3, r.stderr
    obj = json.loads(r.stdout)
    assert obj["status"] == "infeasible" and "500,000,000,500,000,000 cells" in \
        obj["stats"]["reason"]
    sol = tmp_path / "sol.txt"
    sol.write_text("1 0 0 5\n")
    r = run("verify", path, sol)  # the old code: MemoryError listing the triangle
    assert r.returncode == 1 and "do not form a triangle" in r.stdout
    assert run("render", path, "-o", tmp_path / "t.svg").returncode == 0


# --------------------------------------------------------------------------- models
def test_export_of_the_56_tile_loop_is_refused_at_once_with_its_estimate(tmp_path):
    # the old code: std::bad_alloc after 58 s at 6.2 GB
    r = run("export", INSTANCES / "tantrix_loop56.txt", "--to", "cnf", "-o", tmp_path / "m.cnf",
            timeout=60)
    line = one_line_error(r)
    assert "the cnf model would take about" in line and "9,241 cells x 56 tiles" in line
    assert "over the budget of 2.0 GB" in line and not (tmp_path / "m.cnf").exists()


def test_memory_budget_is_the_users_to_raise(tmp_path):
    # a 5-tile puzzle's CNF (3 MB estimated, 0.2 CPU s to write) keeps this test quick
    args = ("export", INSTANCES / "tantrix_discovery_05.txt", "--to", "cnf")
    refused = run(*args, "-o", tmp_path / "a.cnf", "--memory", "0.001")
    assert "over the budget of 1 MB" in one_line_error(refused)
    assert run(*args, "-o", tmp_path / "b.cnf").returncode == 0


def test_solve_and_the_api_refuse_a_model_over_budget():
    r = run("solve", INSTANCES / "magichex_6_21.txt", "-b", "sat", "--memory", "0.1", "-t", "30")
    assert "the cnf model would take about" in one_line_error(r)
    import tilesolve
    from tilesolve.core.errors import InputError

    with pytest.raises(InputError, match="cnf model would take about"):
        tilesolve.load(INSTANCES / "tantrix_loop56.txt").export("/tmp/never.cnf", to="cnf")


@pytest.mark.slow  # 9 exports, 150 s of wall at load 9: the loop56 refusal stays in the default
@pytest.mark.parametrize("name", sorted(p.name for p in INSTANCES.glob("tantrix_*.txt"))[::6])
def test_shipped_instances_export_or_are_refused_cleanly(tmp_path, name):
    r = run("export", INSTANCES / name, "--to", "cnf", "-o", tmp_path / "m.cnf", timeout=300)
    if r.returncode != 0:
        assert "model would take about" in one_line_error(r)


# --------------------------------------------------------------------------- outputs
@pytest.mark.parametrize(("option", "target", "words"), [
    ("-o", ".", "is a directory"),
    ("-o", "y" * 300 + ".txt", "file name too long"),
    ("-o", "/dev/full", "is a character device"),
    ("--render", "/proc/self/mem/x.svg", "Not a directory"),
    ("--log-jsonl", ".", "is a directory"),
])
def test_unwritable_outputs_are_refused_before_the_solve(option, target, words):
    r = run("solve", INSTANCES / "e2_4x4.txt", option, target)
    assert words in one_line_error(r) and "solved" not in r.stdout


def _small_files() -> None:
    """A disk that fills at the first byte: writes fail with EFBIG (SIGXFSZ ignored)."""
    under_2gb()
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def test_a_failed_write_after_the_solve_still_prints_the_answer(tmp_path):
    r = run("solve", INSTANCES / "e2_4x4.txt", "-o", tmp_path / "out.txt", "--json",
            preexec=_small_files)
    assert r.returncode == 2 and "cannot write: File too large" in r.stderr
    assert json.loads(r.stdout)["status"] == "solved"
    assert not list(tmp_path.iterdir())  # no partial file either


# --------------------------------------------------------------------------- stdin
def test_standard_input_is_read_by_solve_info_and_verify(tmp_path):
    text = (INSTANCES / "hidato_19_01.txt").read_text()
    r = run("solve", "-", "--json", "-o", tmp_path / "s.txt", stdin=text)
    obj = json.loads(r.stdout)
    assert r.returncode == 0 and obj["status"] == "solved" and obj["instance"] == "-"
    assert json.loads(run("info", "-", "--json", stdin=text).stdout)["family"] == "hidato"
    r = run("verify", INSTANCES / "hidato_19_01.txt", "-", stdin=(tmp_path / "s.txt").read_text())
    assert r.returncode == 0, r.stderr
    r = run("solve", "-", "-b", "portfolio", "-t", "20", stdin=text)  # lanes read a copy
    assert r.returncode == 0 and r.stdout.startswith("solved"), r.stderr


def test_standard_input_is_bounded_too():
    r = run("info", "-", stdin="x" * (MAX_BYTES + 10))
    assert f"more than {MAX_BYTES:,} bytes" in one_line_error(r)
