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


@pytest.fixture(scope="module")
def bom_run(tmp_path_factory):
    """One plain --json solve, of the 4x4 behind a byte order mark with the largest seed,
    shared by the tests of each (a CP-SAT command costs 0.35 CPU s)."""
    path = tmp_path_factory.mktemp("bom") / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + (INSTANCES / "e2_4x4.txt").read_bytes())
    return run_cli("solve", path, "--seed", "2147483647", "--json", "--threads", "1")


def test_largest_seed_is_accepted(bom_run):
    assert bom_run.returncode == 0 and _one_object(bom_run.stdout)["seed"] == 2147483647


ODD_INPUTS = {
    # name: (file text, words of the one-line error)
    "colour beyond 64 bits": ("edgematch 2 2\n0 1 9223372036854775808 0\n0 0 1 1\n1 0 0 1\n"
                              "1 1 0 0\n", "at most 1,000,000,000"),
    "fullwidth digit": ("edgematch 2 2\n0 1 ３ 0\n0 0 1 1\n1 0 0 1\n1 1 0 0\n", "'３'"),
    "arabic digit": ("hidato hex 2\n  ٣  .\n.  .  .\n  .  .\n", "'٣'"),
    "plus sign": ("magichex +3\n", "'+3'"),
    "huge hidato": ("hidato hex 1000000\n", "expected at most 10,000"),
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


def test_byte_order_mark_is_not_content(bom_run):
    assert bom_run.returncode == 0 and _one_object(bom_run.stdout)["status"] == "solved"


def test_deeply_nested_json_solution(cli, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"board": ' + "[" * 100_000 + "]" * 100_000 + "}")
    r = cli("verify", E2_4, path, "--json")
    assert r.returncode == 2 and "nested too deeply" in _one_object(r.stdout)["error"]


@pytest.mark.parametrize(("family", "args", "words"), [
    ("edgematch", ["--size", "100000"], "expected sides 2..64"),
    ("hidato", ["--cells", "10000000"], "at most 10,000 cells"),
])
def test_generate_refuses_sizes_beyond_memory(cli, tmp_path, family, args, words):
    r = cli("generate", family, *args, "-o", tmp_path / "g.txt", timeout=30)
    assert r.returncode == 2 and words in r.stderr and not (tmp_path / "g.txt").exists()


def test_out_and_render_write_solutions_only_unless_asked(cli, tmp_path):
    big = INSTANCES / "e2_16x16.txt"
    out, png = tmp_path / "best.txt", tmp_path / "best.png"
    # a GA run of two generations (not a short -t: Python's start-up counts against -t and
    # alone can use a second on a busy machine) ends on its budget (exit 5) with a best board
    args = ["solve", big, "--backend", "ga", "--generations", "2", "--population", "20",
            "-o", out, "--render", png]
    r = cli(*args)
    assert r.returncode == 5 and not out.exists() and not png.exists()
    r = cli(*args, "--write-best")
    assert r.returncode == 5 and png.stat().st_size > 0
    first = out.read_text().splitlines()[0]
    assert first.startswith("# not a solution: the best board of a budget run (")
    assert cli("verify", big, out).returncode == 1  # readable, and shown to be no solution
    assert set(tmp_path.iterdir()) == {out, png}  # no temporary file left beside them


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """One solve that writes its board (-o) and draws it (--render), for the tests of each."""
    d = tmp_path_factory.mktemp("written")
    out, svg = d / "s.json", d / "b.svg"
    return run_cli("solve", E2_4, "--threads", "1", "-o", out, "--render", svg), out, svg


def test_out_writes_a_verified_solution_whole(cli, written):
    r, out, _svg = written
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


# --- results that explain themselves --------------------------------------------------------
HIDATO = str(INSTANCES / "hidato_19_01.txt")


@pytest.mark.parametrize(("instance", "objective", "counts", "best"), [
    (E2_4, "matches", "matched joins", 24),  # 2 x 4 x 3 inner joins, all matched (planted)
    (str(INSTANCES / "tantrix_discovery_05.txt"), "longest",
     "tiles on each goal's longest loop or line", 5),  # the red loop through all 5 tiles
])
def test_objective_is_score_over_max_with_what_it_counts(cli, instance, objective, counts, best):
    args = ["solve", instance, "--objective", objective, "--backend", "cpsat", "--threads", "1"]
    r = cli(*args)
    assert r.returncode == 0, r.stderr
    assert f"{counts} {best}/{best}" in r.stdout.splitlines()[0]
    obj = _one_object(cli(*args, "--json").stdout)
    assert (obj["objective"], obj["objective_max"], obj["objective_counts"]) == (best, best, counts)


def test_json_has_objective_max_also_without_an_objective(bom_run):
    obj = _one_object(bom_run.stdout)
    assert obj["status"] == "solved" and obj["objective_max"] is None
    assert {"objective", "objective_counts", "stats", "solution"} <= set(obj)


@pytest.mark.parametrize(("instance", "budget"), [
    (str(INSTANCES / "e2_16x16.txt"), ["--generations", "2", "--population", "20"]),
    (str(INSTANCES / "magichex_5_15.txt"), ["--generations", "3"]),
    (str(INSTANCES / "hidato_37_01.txt"), ["--generations", "2", "--population", "10"]),
    (str(INSTANCES / "tantrix_discovery_10.txt"), ["--generations", "1", "--population", "10"]),
])
def test_ga_best_board_is_described_by_the_checkers_count(cli, tmp_path, instance, budget):
    """Whatever a family's GA fitness means, the text output gives the checker's count of the
    rules its best board breaks, never the fitness."""
    best = tmp_path / "best.txt"
    r = cli("solve", instance, "--backend", "ga", *budget, "-o", best, "--write-best")
    assert r.returncode == 5, r.stderr
    head = r.stdout.splitlines()[0]
    assert "objective" not in r.stdout and "fitness" not in head
    broken = int(head.split("best board breaks ")[1].split(" rule(s)")[0])
    check = json.loads(cli("verify", instance, best, "--json").stdout)
    assert broken == len(check["violations"]) > 0


@pytest.mark.parametrize(("instance", "columns", "legend", "rows"), [
    (E2_4, "19", "legend: piece/rot: piece number (file order, from 1) / clockwise quarter turns",
     4),  # 19 columns: the board's exact width still fits
    (HIDATO, "200", "legend: numbers 1..19 run along a path, each touching the next; # a hole",
     5),
])
def test_text_output_explains_the_board_notation(cli, instance, columns, legend, rows):
    r = cli("solve", instance, "--threads", "1", env={"COLUMNS": columns})
    assert r.returncode == 0 and r.stdout.splitlines()[1] == legend
    assert len(r.stdout.splitlines()) == 2 + rows  # headline, legend, the board


def test_board_wider_than_the_terminal_is_summarised(cli):
    narrow = cli("solve", E2_4, "--threads", "1", env={"COLUMNS": "12"})
    assert narrow.returncode == 0
    lines = narrow.stdout.splitlines()
    assert len(lines) == 2 and "/" not in lines[1]  # no board row, no legend
    assert lines[1] == ("board: 4 rows up to 19 columns wide, more than the terminal's 12; "
                        "--render FILE.svg draws it, -o FILE writes it")


def test_render_and_generate_say_on_stderr_what_they_wrote(cli, tmp_path, written):
    r, _out, svg = written
    assert r.returncode == 0 and f"wrote {svg}" in r.stderr and "wrote" not in r.stdout
    assert svg.read_text().lstrip().startswith("<?xml")
    inst, sol, png = tmp_path / "g.txt", tmp_path / "g.sol", tmp_path / "g.png"
    r = cli("generate", "edgematch", "--size", "3", "-o", inst, "--solution", sol)
    assert r.returncode == 0 and r.stdout == ""
    assert r.stderr.splitlines() == [f"wrote {inst}", f"wrote {sol}"]
    r = cli("render", inst, sol, "-o", png)
    assert r.returncode == 0 and r.stdout == "" and r.stderr.strip() == f"wrote {png}"
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_infeasible_says_why_when_a_count_shows_it(cli, tmp_path):
    path = tmp_path / "apart.txt"
    path.write_text("hidato hex 3\n1 . 2\n. . . .\n. . . . .\n. . . .\n. . .\n")
    r = cli("solve", path)
    assert r.returncode == 3 and r.stdout.splitlines()[1] == (
        "why: givens 1 and 2 lie 2 moves apart, but a path gets only 1 moves between them "
        "(a count made before any solver ran)")
