"""The reproduction harness: resumable runs, the papers' summary columns, plots, Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import experiment as reproduce
import numpy as np
import pytest

import tilesolve
from tilesolve import InputError, bench

ROOT = Path(__file__).resolve().parents[2]
LAB_SCRIPTS = ROOT / "lab" / "scripts"
HIDATO = str(ROOT / "instances" / "hidato_19_01.txt")


def _runs(seeds: int) -> list[reproduce.Run]:
    ga = [reproduce.Run("t1", "hidato 19", "ga", HIDATO, "ga", s, time_limit=30,
                        max_evaluations=20_000) for s in range(seeds)]
    return [*ga, reproduce.Run("t1", "hidato 19", "cpsat", HIDATO, "cpsat", 0, time_limit=30)]


def test_run_all_writes_rows_and_resumes(tmp_path):
    out = tmp_path / "t.csv"
    rows = reproduce.run_all(_runs(2), out, jobs=2, progress=False)
    assert len(rows) == 3
    by_column = {(r["column"], r["seed"]): r for r in rows}
    cpsat = by_column[("cpsat", 0)]
    assert cpsat["solved"] and cpsat["verified"] and cpsat["cpu_seconds"] > 0
    ga = by_column[("ga", 0)]
    assert ga["evaluations"] > 0 and ga["best_fitness"] > 0
    assert ga["curve"][0][0] == 0 and len(ga["curve"][0]) == 4  # (generation, evals, best, mean)
    assert ga["evaluations_to_best"] <= ga["evaluations"]
    # a second call runs nothing new; more seeds run only the missing ones
    assert reproduce.pending(_runs(2), out) == []
    assert [r.seed for r in reproduce.pending(_runs(3), out)] == [2]
    again = reproduce.run_all(_runs(2), out, jobs=1, progress=False)
    assert [r["key"] for r in again] == [r["key"] for r in rows]


def test_truncated_last_line_is_dropped_and_next_row_starts_clean(tmp_path):
    out = tmp_path / "t.csv"
    reproduce.run_all(_runs(1)[1:], out, jobs=1, progress=False)  # the cpsat run
    text = out.read_text()
    out.write_text(text + text.splitlines()[1][:25])  # half a row, as after a crash
    assert len(reproduce.load_rows(out)) == 1
    rows = reproduce.run_all(_runs(1)[:1], out, jobs=1, progress=False)
    assert sorted(r["column"] for r in rows) == ["cpsat", "ga"]


def test_foreign_csv_is_refused(tmp_path):
    out = tmp_path / "t.csv"
    out.write_text("a,b\n1,2\n")
    with pytest.raises(InputError, match="columns differ"):
        reproduce.load_rows(out)


def _row(column: str, solved: bool, best: float, to_best: int, seconds: float) -> dict:
    return {"table": "t", "row": "r", "column": column, "solved": solved, "status":
            "solved" if solved else "timeout", "best_fitness": best,
            "evaluations_to_best": to_best, "seconds": seconds, "cpu_seconds": seconds,
            "objective": None, "evaluations": to_best,
            "curve": [[0, 10, best - 2, best - 4], [4, 50, best, best - 1]]}


def test_summary_has_the_papers_columns():
    rows = [_row("ga", True, 72, 1000, 1.0), _row("ga", False, 70, 3000, 5.0),
            _row("ga", True, 72, 2000, 3.0)]
    (s,) = reproduce.summary(rows)
    assert (s["runs"], s["solved"], s["best"]) == (3, 2, 72)
    assert s["rate"] == pytest.approx(2 / 3)
    assert s["mean_best"] == pytest.approx(214 / 3)
    assert s["sd_best"] == pytest.approx(np.std([72, 70, 72], ddof=1))
    assert s["mean_evaluations_to_best"] == 2000
    assert s["sd_evaluations_to_best"] == 1000
    assert s["median_seconds"] == 2.0  # of the solved runs only
    table = reproduce.markdown_table(["row", "rate", "best"], [["r", "67%", 72.0]])
    assert table.splitlines() == ["| row | rate | best |", "|---|---|---|", "| r | 67% | 72 |"]
    assert reproduce.pm(71.33, 1.15) == "71.3 ± 1.1"


def test_plots_are_written(tmp_path):
    rows = [_row("ga", True, 72, 1000, 1.0), _row("tuned", False, 70, 3000, 5.0)]
    reproduce.plot_curves(rows, tmp_path / "c.png", "curves", target=72)
    reproduce.plot_success_vs_budget(rows, tmp_path / "s.png", "success")
    assert (tmp_path / "c.png").stat().st_size > 1000
    assert (tmp_path / "s.png").stat().st_size > 1000
    grid, best, mean = bench.mean_curve(rows)
    assert grid[-1] == 4 and best[-1] == 71 and mean[0] == pytest.approx(67)


def test_presets_are_described_from_the_public_api():
    """The pages' preset lists: `tilesolve.presets` in `solve --help`'s words."""
    text = reproduce.describe_presets(tilesolve.presets("magichex"))
    lines = text.splitlines()
    assert lines[0].startswith("--preset paper (default): ")
    assert [line.split(":")[0] for line in lines if line.startswith("--preset")] == [
        "--preset paper (default)", "--preset tuned"]
    assert sum(line.startswith("    - ") for line in lines) == len(
        tilesolve.presets("magichex")["tuned"].differences) > 0


def test_a_planted_board_is_written_once_and_read_back(tmp_path):
    path = reproduce.planted_file(tmp_path, 4, 7001)
    assert path.name == "gen_04x04_s7001.txt"
    puzzle, planted = tilesolve.generate("edgematch", seed=7001, size=4)
    assert tilesolve.load(path).verify(planted).ok
    path.write_text(path.read_text() + "# kept\n")
    assert reproduce.planted_file(tmp_path, 4, 7001).read_text().endswith("# kept\n")


_SCRIPT = textwrap.dedent("""
    import sys

    import experiment as reproduce

    if __name__ == "__main__":  # the workers are spawned: they import this file
        # a quick exact run, then GA runs that cannot finish before the interrupt
        runs = [reproduce.Run("t", "r", "ga", sys.argv[3], "ga", s, time_limit=120)
                for s in range(8)]
        runs.insert(0, reproduce.Run("t", "r", "cpsat", sys.argv[2], "cpsat", 0, time_limit=30))
        reproduce.main_guard(lambda: reproduce.run_all(runs, sys.argv[1], jobs=2,
                                                       progress=False))
""")


def _processes_with(marker: str) -> list[int]:
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            env = Path(f"/proc/{pid}/environ").read_bytes()
        except OSError:
            continue
        if marker.encode() in env:
            found.append(int(pid))
    return found


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_keeps_finished_rows_and_leaves_no_process(tmp_path, sig, code):
    script, out = tmp_path / "run.py", tmp_path / "t.csv"
    script.write_text(_SCRIPT)
    marker = f"TILESOLVE_TEST_{os.getpid()}_{time.time_ns()}"
    env = {**os.environ, marker: "1", "PYTHONFAULTHANDLER": "1",
           "PYTHONPATH": os.pathsep.join([str(LAB_SCRIPTS), os.environ.get("PYTHONPATH", "")])}
    # started with SIGINT ignored, as a shell starts a background job (`cmd &` in a script)
    proc = subprocess.Popen([sys.executable, str(script), str(out), HIDATO,
                             str(ROOT / "instances" / "e2_16x16.txt")],
                            env=env, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    deadline = time.time() + 120
    while time.time() < deadline and len(reproduce.load_rows(out)) < 1:
        time.sleep(0.2)
    assert reproduce.load_rows(out), "the first run should have finished"
    proc.send_signal(sig)  # Ctrl-C, or `kill`
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:  # say where it hangs: every thread's stack, then fail
        proc.send_signal(signal.SIGABRT)
        _, err = proc.communicate(timeout=30)
        pytest.fail(f"no exit within 60 s of {sig.name}; its stderr:\n{err}")
    assert proc.returncode == code
    assert "finished runs are kept" in err and "Traceback" not in err
    kept = reproduce.load_rows(out)
    assert [r["column"] for r in kept] == ["cpsat"] and kept[0]["solved"]
    time.sleep(0.5)
    assert _processes_with(marker) == []


def test_a_timeout_is_retried_only_under_a_larger_limit(tmp_path):
    out = tmp_path / "t.csv"
    e2 = str(ROOT / "instances" / "e2_16x16.txt")  # no GA solves it in seconds
    short = reproduce.Run("t", "e2 16x16", "ga", e2, "ga", 0, time_limit=0.5,
                          max_evaluations=10**9)
    (row,) = reproduce.run_all([short], out, jobs=1, progress=False)
    assert row["status"] == "timeout" and row["stats"]["time_limit"] == 0.5
    # the same limit, or no retry asked: nothing to run
    assert reproduce.pending([short], out, retry_timeouts=True) == []
    longer = reproduce.Run(*list(short.__dict__.values())[:6], time_limit=1.0,
                           max_evaluations=10**9)  # any larger limit: each costs its seconds
    assert reproduce.pending([longer], out) == []
    assert reproduce.pending([longer], out, retry_timeouts=True) == [longer]
    (again,) = reproduce.run_all([longer], out, jobs=1, progress=False, retry_timeouts=True)
    assert again["stats"]["time_limit"] == 1.0  # the new row replaced the old one
    assert len(out.read_text().splitlines()) == 3  # header, first row, its retry


def test_the_pooled_comparison_is_stratified_by_row():
    from reproduce_downing import mantel_haenszel

    # equal rates in every row: odds ratio 1, nothing to tell apart
    assert mantel_haenszel([(10, 10, 10, 10), (5, 45, 2, 18)]) == (1.0, 1.0)
    # 2/20 against 15/20: chi-square (|2 - 8.5| - 0.5)^2 / 2.5064 = 14.36, p 1.5e-4
    ratio, p = mantel_haenszel([(2, 18, 15, 5)])
    assert abs(ratio - 2 * 5 / (18 * 15)) < 1e-12 and 1.4e-4 < p < 1.6e-4
    # a row where ours is better and one where it is worse by as much cancel out
    ratio, p = mantel_haenszel([(15, 5, 5, 15), (5, 15, 15, 5)])
    assert ratio == 1.0 and p == 1.0


def test_a_process_run_is_a_whole_tilesolve_solve_and_counts_its_cpu():
    """`process=True` runs the command a user runs and counts the whole process's CPU."""
    argv = reproduce.solve_argv("m.txt", "ga:preset=tuned:polish=5", 3,
                         {"time_limit": 2.0, "threads": 1, "max_evaluations": 900})
    assert argv[2:] == ["tilesolve", "solve", "m.txt", "--backend", "ga", "--seed", "3",
                        "--threads", "1", "--json", "-t", "2.0", "--preset", "tuned",
                        "--polish", "5", "--evaluations", "900"]
    inst = str(ROOT / "instances" / "magichex_3.txt")
    row = reproduce.run_process(inst, "search", 0, {"time_limit": 20.0, "threads": 1})
    assert row["solved"] and row["verified"] and row["stats"]["exit_code"] == 0
    # the interpreter's start and imports are in it: more than the solver's own seconds
    assert row["cpu_seconds"] > row["stats"]["cpu_seconds"] > 0
