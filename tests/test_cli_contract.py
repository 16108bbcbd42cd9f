"""The command line's contract: with --json stdout holds exactly one object, whatever happens;
solver logs go to stderr; bad numbers are refused with one line and exit 2."""

from __future__ import annotations

import json

import pytest
from conftest import INSTANCES, run_cli

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


ODD_INPUTS = {
    # name: (file text, words of the one-line error)
    "colour beyond 64 bits": ("edgematch 2 2\n0 1 9223372036854775808 0\n0 0 1 1\n1 0 0 1\n"
                              "1 1 0 0\n", "at most 1,000,000,000"),
    "fullwidth digit": ("edgematch 2 2\n0 1 ３ 0\n0 0 1 1\n1 0 0 1\n1 1 0 0\n", "'３'"),
    "arabic digit": ("hidato hex 2\n  ٣  .\n.  .  .\n  .  .\n", "'٣'"),
    "plus sign": ("magichex +3\n", "'+3'"),
    "huge hidato": ("hidato hex 1000000\n", "expected at most 100,000"),
    "huge magic hexagon": ("magichex 100000\n", "expected 1..60"),
    "huge tile range": ("tantrix\ntiles 1-1000000000000\ngoal loop red\n", "1..56"),
}


@pytest.mark.parametrize("name", sorted(ODD_INPUTS))
@pytest.mark.parametrize("command", ["solve", "info"])
def test_odd_numbers_are_refused_at_once(cli, tmp_path, name, command):
    text, words = ODD_INPUTS[name]
    path = tmp_path / "odd.txt"
    path.write_text(text, encoding="utf-8")
    r = cli(command, path, "--json", timeout=30)
    assert r.returncode == 2, r.stderr
    obj = _one_object(r.stdout)
    assert words in obj["error"] and obj["file"] == str(path) and obj["line"] is not None


def test_byte_order_mark_is_not_content(cli, tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + (INSTANCES / "e2_4x4.txt").read_bytes())
    r = cli("solve", path, "--json", "--threads", "1")
    assert r.returncode == 0 and _one_object(r.stdout)["status"] == "solved"


def test_deeply_nested_json_solution(cli, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"board": ' + "[" * 100_000 + "]" * 100_000 + "}")
    r = cli("verify", E2_4, path, "--json")
    assert r.returncode == 2 and "nested too deeply" in _one_object(r.stdout)["error"]


@pytest.mark.parametrize(("family", "args", "words"), [
    ("edgematch", ["--size", "100000"], "expected sides 2..64"),
    ("hidato", ["--cells", "10000000"], "at most 100,000 cells"),
])
def test_generate_refuses_sizes_beyond_memory(cli, tmp_path, family, args, words):
    r = cli("generate", family, *args, "-o", tmp_path / "g.txt", timeout=30)
    assert r.returncode == 2 and words in r.stderr and not (tmp_path / "g.txt").exists()


def test_out_and_render_write_solutions_only_unless_asked(cli, tmp_path):
    big = INSTANCES / "e2_16x16.txt"
    out, png = tmp_path / "best.txt", tmp_path / "best.png"
    # a GA run of two generations (not a short -t: Python's start-up counts against -t and
    # alone can use a second on a busy machine) ends as a timeout with a best board
    args = ["solve", big, "--backend", "ga", "--generations", "2", "--population", "20",
            "-o", out, "--render", png]
    r = cli(*args)
    assert r.returncode == 4 and not out.exists() and not png.exists()
    r = cli(*args, "--write-best")
    assert r.returncode == 4 and png.stat().st_size > 0
    first = out.read_text().splitlines()[0]
    assert first.startswith("# not a solution: the best board of a timeout run (")
    assert cli("verify", big, out).returncode == 1  # readable, and shown to be no solution
    assert set(tmp_path.iterdir()) == {out, png}  # no temporary file left beside them


def test_out_writes_a_verified_solution_whole(cli, tmp_path):
    out = tmp_path / "s.json"
    r = cli("solve", E2_4, "-o", out, "--threads", "1")
    assert r.returncode == 0 and f"wrote {out}" in r.stderr
    assert cli("verify", E2_4, out).returncode == 0
    assert oct(out.stat().st_mode & 0o777) != oct(0o600)


def test_version_is_the_package_version():
    import tilesolve

    proc = run_cli("--version")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"tilesolve {tilesolve.__version__}"


def test_shell_completion_script_is_offered():
    """The installed command offers its bash completion script (typer's)."""
    import subprocess
    import sys
    from pathlib import Path

    command = Path(sys.executable).with_name("tilesolve")
    proc = subprocess.run([command, "--show-completion", "bash"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0
    assert "COMPREPLY" in proc.stdout and "_TILESOLVE_COMPLETE=complete_bash" in proc.stdout
