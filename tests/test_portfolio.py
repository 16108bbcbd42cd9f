"""The portfolio: a verified race, no process left behind, hint and CBGI lanes."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import signal
import uuid
from pathlib import Path

import pytest
from conftest import INSTANCES, popen_cli, run_cli, tagged_processes, wait_for, wait_gone

from tilesolve.bench import size_of
from tilesolve.core.errors import InputError
from tilesolve.core.family import families, load_instance
from tilesolve.core.result import SolveOptions, Status, StopFlag
from tilesolve.hybrid import budget, lanes, race
from tilesolve.hybrid.lanes import LaneSpec
from tilesolve.hybrid.portfolio import Portfolio, solve_portfolio

# one small shipped instance per family; families not built yet are skipped
SMALL = {
    "edgematch": "e2_4x4.txt",
    "magichex": "magichex_3.txt",
    "hidato": "hidato_hex3.txt",
    "tantrix": "tantrix_discovery3.txt",
}


def _cells(path: Path) -> float:
    try:
        return size_of(*load_instance(path))[1] or float("inf")
    except Exception:  # noqa: BLE001 - a family still being built: try it last
        return float("inf")


def _small_instances():
    out = []
    for fam, name in SMALL.items():
        path = INSTANCES / name
        if not path.exists():  # fall back to the family's smallest shipped instance
            found = sorted(INSTANCES.glob(f"{fam}_*.txt"))
            path = min(found, key=_cells, default=path)
        out.append(pytest.param(path, id=fam))
    return out


@pytest.mark.parametrize("path", _small_instances())
def test_portfolio_solves_a_shipped_instance_of_each_family(path):
    if not path.exists():
        pytest.skip(f"{path.name} not shipped")
    try:
        load_instance(path)
    except InputError as exc:
        pytest.skip(f"family not ready: {exc}")
    res = run_cli("solve", path, "--backend", "portfolio", "--time-limit", "60", "--json",
                  timeout=120)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["status"] == "solved" and data["verified"] is True
    assert data["backend"] == "portfolio"
    winner = data["stats"]["winner"]
    assert winner in data["stats"]["backends"]
    assert data["stats"]["backends"][winner]["status"] == "solved"


def test_in_process_race_leaves_no_children():
    family, inst = load_instance(INSTANCES / "e2_4x4.txt")
    opts = SolveOptions(time_limit=30, threads=2, params={"backends": "cpsat,sat"})
    res = solve_portfolio(family, inst, str(INSTANCES / "e2_4x4.txt"), opts)
    assert res.status == Status.SOLVED and res.verified
    assert res.stats["winner"] in ("cpsat", "sat")
    assert set(res.stats["backends"]) == {"cpsat", "sat"}
    assert res.stats["threads"] == {"cpsat": 1, "sat": 1}
    assert mp.active_children() == []


def test_short_time_limit_ends_with_no_process_left_behind():
    tag = uuid.uuid4().hex
    proc = popen_cli("solve", "instances/e2_8x8.txt", "--backend", "portfolio",
                      "--backends", "cpsat,sat,milp", "--time-limit", "2", "--json", tag=tag)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 4, err  # timeout
    data = json.loads(out)
    assert data["status"] == "timeout" and data["stats"].get("winner") is None
    if "backends" in data["stats"]:  # else the limit's watchdog answered (a loaded machine)
        assert set(data["stats"]["backends"]) == {"cpsat", "sat", "milp"}
    assert wait_gone(tag) == []


def test_ctrl_c_stops_every_process():
    tag = uuid.uuid4().hex
    proc = popen_cli("solve", "instances/e2_8x8.txt", "--backend", "portfolio",
                      "--backends", "cpsat,sat", "--time-limit", "60", "--json", tag=tag)
    # wait until the lanes run (the CLI plus at least two children), then Ctrl-C the group
    assert wait_for(lambda: len(tagged_processes(tag)) >= 3)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err  # 128 + SIGINT, as a shell reports it
    assert json.loads(out)["status"] == "interrupted"
    assert wait_gone(tag) == []


def test_a_ctrl_c_held_during_a_lane_start_outlives_the_start_failing():
    # Ctrl-C to the group stops the forkserver too, and the lane being started then fails
    # to connect: the held Ctrl-C must come out, not the refused connection
    # Python's own Ctrl-C handler, as the command line has it (a test run started in the
    # background of a shell inherits SIGINT ignored, and an ignored signal is not passed on)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt), race.deferred_signals():
            signal.raise_signal(signal.SIGINT)  # held until the start is over
            raise ConnectionRefusedError(111, "Connection refused")
    finally:
        signal.signal(signal.SIGINT, before)


class _StopAfterRelease(Portfolio):
    """Ends the race once the GA has acknowledged a release (the test needs nothing more)."""

    def finished(self) -> bool:
        acked = self.cbgi.released and all(r["acknowledged"] for r in self.cbgi.released)
        return bool(acked) or super().finished()


def test_inconsistent_cbgi_genes_are_released_and_reported():
    path = INSTANCES / "e2_7x7.txt"
    family, inst = load_instance(path)
    corner = next(p for p in range(1, inst.n + 1) if inst.kind(p) == "corner")
    inner = next(p for p in range(1, inst.n + 1) if inst.kind(p) == "inner")
    # genes a population might converge on: an inner piece in a corner can never fit
    wrong = {(0, 0): (inner, 0), (3, 3): (corner, 0)}
    opts = SolveOptions(time_limit=60, threads=1, seed=1,
                        params={"backends": "cpsat,ga", "hints": "off"})
    pf = _StopAfterRelease(family, inst, str(path), opts)
    pf.cbgi.on_fixed(wrong)
    res = pf.run()
    cbgi = res.stats["cbgi"]
    assert len(cbgi["runs"]) == 1 and cbgi["runs"][0]["result"] == "infeasible"
    assert cbgi["runs"][0]["genes"] == 2
    (rel,) = cbgi["released"]
    assert sorted(map(tuple, rel["cells"])) == [(0, 0), (3, 3)]
    assert rel["proved_by"] == cbgi["runs"][0]["lane"]
    assert rel["acknowledged"] is True  # the GA lane received the release
    # fixed genes proven wrong say nothing about the puzzle: it is not reported infeasible
    assert res.status != Status.INFEASIBLE
    assert mp.active_children() == []


def test_thread_budgets_fit_the_cores():
    assert budget.threads(["cpsat", "ga", "sat"], 2) == {"cpsat": 1, "ga": 1, "sat": 1}
    assert budget.threads(["cpsat", "ga"], 8) == {"cpsat": 7, "ga": 1}
    fam = families()["edgematch"]
    assert budget.choose(fam, None, 2)[:1] == ["cpsat"]
    assert len(budget.choose(fam, None, 2)) == 3


def test_bad_portfolio_options_are_input_errors():
    res = run_cli("solve", "instances/e2_4x4.txt", "--backend", "portfolio", "--backends",
                  "cpsat,nope")
    assert res.returncode == 2 and "nope" in res.stderr and "Traceback" not in res.stderr
    res = run_cli("solve", "instances/e2_4x4.txt", "--backend", "portfolio", "--epoch", "-1")
    assert res.returncode == 2 and "--epoch" in res.stderr
    res = run_cli("solve", "instances/e2_4x4.txt", "--backend", "portfolio", "--backends",
                  "lns,cpsat,lns", "--json")
    assert res.returncode == 2 and "names lns more than once" in res.stderr
    assert json.loads(res.stdout)["status"] == "bad-input"


def test_ga_alone_in_the_portfolio_wins_with_a_verified_board():
    res = run_cli("solve", "instances/e2_4x4.txt", "--backend", "portfolio", "--backends", "ga",
                  "--time-limit", "60", "--seed", "3", "--json", timeout=120)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["stats"]["winner"] == "ga" and data["verified"] is True
    assert data["stats"]["backends"]["ga"]["stats"]["evaluations"] > 0


def test_a_ga_lane_whose_genome_shows_no_cells_races_on_without_cbgi():
    # Downing's genome (the Tantrix GA under --objective) is developmental: its lane used to
    # end in an error when CBGI first looked at the population (here at once: --cbgi-start 0)
    res = run_cli("solve", "instances/tantrix_discovery_20.txt", "--objective", "longest",
                  "--backends", "cpsat,ga", "--cbgi-start", "0", "-t", "10", "--seed", "1",
                  "--json", timeout=120)
    assert res.returncode == 0, res.stderr
    stats = json.loads(res.stdout)["stats"]
    assert stats["backends"]["ga"]["status"] != "error"
    assert stats["backends"]["ga"]["stats"]["generations"] >= 1
    assert stats["cbgi"]["enabled"] is False
    assert stats["cbgi"]["off"] == "no gene of this genome fixes a cell (DowningEncoding)"


def _lane(path, **kw) -> LaneSpec:
    base = dict(name="t", backend="cpsat", path=str(path), fmt=None, family="edgematch",
                time_limit=30, seed=0, threads=1, objective=None)
    return LaneSpec(**{**base, **kw})


def test_a_lane_passes_hints_to_the_exact_solver_and_completes_partial_ones():
    path = INSTANCES / "e2_5x5.txt"
    stop = StopFlag()
    first = lanes.run(_lane(path), stop, None, None)
    assert first.status == Status.SOLVED
    full = first.solution
    hinted = lanes.run(_lane(path, hint=full), stop, None, None)
    assert hinted.status == Status.SOLVED
    assert "hint" in hinted.stats["solution_info"]  # CP-SAT found it through the hint
    half = dict(list(full.items())[: len(full) // 2])
    completed = lanes.run(_lane(path, hint=half, complete_hint=True), stop, None, None)
    assert completed.status == Status.SOLVED
    assert completed.stats["hint_completed"] is True
    assert "hint" in completed.stats["solution_info"]


def test_the_standings_keep_the_best_board_and_stop_at_a_verified_solution():
    from tilesolve.core.progress import Progress
    from tilesolve.core.result import Outcome
    from tilesolve.core.solve import run_backend
    from tilesolve.hybrid.standings import Standings

    path = INSTANCES / "e2_4x4.txt"
    family, inst = load_instance(path)
    opts = SolveOptions(threads=1)
    solution = run_backend(family, inst, "cpsat", opts).solution
    a, b = sorted(solution)[:2]
    broken = {**solution, a: solution[b], b: solution[a]}  # two pieces swapped
    books = Standings(family, inst, str(path), opts, Progress(scored=False))
    gains: list[str] = []
    books.on_gain = gains.append
    books.started("ga", "ga", "race", 1, 0.0)
    books.offer("ga", Outcome(Status.TIMEOUT, broken), 0.1)
    assert books.winner is None and books.best[0] == "ga" and not books.best[1].verified
    assert gains == []  # an unverified board earns no credit
    books.offer("cpsat", Outcome(Status.SOLVED, solution), 0.2)
    assert books.winner[0] == "cpsat" and books.winner[1].verified
    books.offer("ga", Outcome(Status.SOLVED, solution), 0.3)  # the race is over
    name, res = books.settle(0.4)
    assert (name, res.status, res.backend) == ("cpsat", Status.SOLVED, "cpsat")
    assert books.records["ga"]["status"] == "stopped"


def test_a_lanes_inbox_holds_the_newest_board_the_parent_sent():
    import queue

    ctrl: queue.Queue = queue.Queue()
    stop = StopFlag()
    opts = SolveOptions(objective="matches", stop=stop, params={})
    lanes._connect_inbox(opts, ctrl, "inbox")
    inbox = opts.params["inbox"]
    assert inbox.take() is None
    ctrl.put(("release", {(0, 0): (1, 0)}))  # not a board: left alone
    ctrl.put(("board", {(0, 0): (1, 0)}, 3.0))
    ctrl.put(("board", {(0, 0): (2, 1)}, 5.0))
    assert wait_for(lambda: inbox.received == 2, 10.0)
    assert inbox.take() == ({(0, 0): (2, 1)}, 5.0)  # the newest only, once
    assert inbox.take() is None
    stop.set()  # the pump thread ends with the lane
