"""The pieces that make `-t` hold from process start to exit (timings:
lab/scripts/bench_limits.py)."""

from __future__ import annotations

import signal
import sys
import threading
import time
import weakref

import pytest

from tilesolve.core.limits import (
    OutOfTime,
    allowance,
    building,
    finish_reserve,
    process_start,
    watchdog,
)
from tilesolve.core.result import SolveOptions


def test_the_process_started_before_now_and_within_the_last_minute():
    start = process_start()
    now = time.monotonic()
    assert now - 60 < start < now


def test_the_finish_reserve_grows_with_the_slowdown_but_keeps_two_thirds_of_the_limit():
    spent = time.process_time()
    lazy = finish_reserve(time.monotonic() - spent, 60.0)  # wall as long as CPU: no slowdown
    starved = finish_reserve(time.monotonic() - 1000 * max(spent, 0.1), 60.0)
    assert 0.0 < lazy <= 0.2
    assert starved == 20.0  # a third of the limit at most
    assert finish_reserve(time.monotonic() - 1000 * max(spent, 0.1), 3.0) == 1.0


def test_the_allowance_is_a_tenth_of_the_limit_or_one_second():
    assert allowance(5) == 1.0
    assert allowance(60) == 6.0


def test_the_watchdog_calls_back_once_its_time_has_come():
    fired = threading.Event()
    watchdog(time.monotonic() + 0.05, fired.set)
    assert fired.wait(30)


def test_every_verified_improvement_reaches_the_watchdogs_answer():
    """One backend and the portfolio tell `on_verified` of each better verified board; the
    watchdog answers with the last one (feasible, verified, its score), not a bare timeout."""
    from conftest import INSTANCES

    from tilesolve.cli import watchdog_answer
    from tilesolve.core.result import SolveOptions, Status
    from tilesolve.dispatch import solve_file

    e2 = INSTANCES / "e2_6x6.txt"
    for backend, extra in (("lns", {}), ("portfolio", {"backends": "lns,cpsat"})):
        told = []
        res = solve_file(e2, backend, SolveOptions(time_limit=30, objective="matches",
                                                   threads=2, params=extra,
                                                   on_verified=told.append))
        assert told, backend
        scores = [r.objective for r in told]
        assert scores == sorted(set(scores)), backend  # strict improvements only
        assert all(r.verified and r.board is not None for r in told), backend
        assert scores[-1] == res.objective == 60, backend  # all 60 inner joins of the 6x6
        answer = watchdog_answer(e2, backend, 0, 31.5, told[-1]).to_json()
        assert told[-1].status == Status.FEASIBLE and answer["status"] == "feasible"
        assert answer["verified"] and answer["objective"] == 60
        assert answer["solution"] == told[-1].to_json()["solution"] is not None
        assert answer["seconds"] == 31.5 and "time limit" in answer["stats"]["stopped"]
    bare = watchdog_answer(e2, "cpsat", 3, 31.5, None).to_json()
    assert (bare["status"], bare["solution"], bare["family"], bare["seed"]) == (
        "timeout", None, "edgematch", 3)


LAST_RESORT = """
import ctypes, sys, time
from tilesolve.core import limits
t0 = time.monotonic()
assert limits.last_resort(t0 + 0.5, b'{"status": "timeout"}\\n', 4)
limits.last_answer(b'{"status": "feasible"}\\n', 0)  # a better board came in
if sys.argv[1] == "answered":  # the process printed its own answer, then cleans up
    assert limits.claim()
    print("mine", flush=True)
    limits.answered(3)
ctypes.PyDLL(None).sleep(20)  # keeps Python's lock: no Python thread can run for 20 s
print("not reached")
"""


def test_the_last_resort_ends_the_process_while_a_native_call_keeps_the_lock():
    import subprocess
    import sys

    import pytest

    from tilesolve.core import limits

    if limits._deadline is None:
        pytest.skip("built without a C compiler: the watchdog thread alone")
    for case, out, code in (("silent", '{"status": "feasible"}\n', 0), ("answered", "mine\n", 3)):
        t0 = time.monotonic()
        proc = subprocess.run([sys.executable, "-c", LAST_RESORT, case], capture_output=True,
                              text=True, timeout=60)
        assert (proc.stdout, proc.returncode) == (out, code), (case, proc.stderr)
        assert time.monotonic() - t0 < 15, case  # not the 20 s of the native call


def test_the_api_keeps_its_time_limit_on_the_largest_magic_hexagons():
    """Order 60 (10,621 cells): the tabu search that seeds CP-SAT multiplied a dense 10,621 x
    10,621 matrix before its first step (over 120 s, past any limit, while the command line's
    watchdog ended the same run at 5.25 s). `solve(time_limit=3)` from a script now ends as a
    timeout; the subprocess's 120 s is a hang's bound, not a timing."""
    import subprocess
    import sys

    script = ("import tilesolve; r = tilesolve.parse('magichex 60 first 45\\n')"
              ".solve(time_limit=3, threads=1); print(r.status.value)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["timeout"]


def test_the_tabu_swap_weights_count_the_lines_two_cells_share():
    """6 - 2 S_ij, S = A^T A, from the line numbers direction by direction: kept whole for a
    small board, row by row for a large one, equal to the product either way."""
    import numpy as np

    import tilesolve
    from tilesolve.families.magichex.tabu import LineAlgebra

    for text, rows in (("magichex 8 first -84\n", None), ("magichex 40\n", np.arange(0, 4681, 97))):
        la = LineAlgebra(tilesolve.parse(text).instance)
        a = la.a.astype(np.float64)
        picked = np.arange(la.n) if rows is None else rows
        assert (la.pair_weight is None) == (rows is not None)
        assert np.array_equal(la.weights(picked), 6 - 2 * (a[:, picked].T @ a))


def test_a_limit_spent_before_the_tabu_search_ends_the_run_at_its_limit():
    # the magic hexagon's tabu search gets 0.8 of what is left: when the reading and the
    # solver's import spent it all (a loaded machine), the run raised "tabu_seconds must be
    # positive, got 0.0" instead of answering at its limit
    import tilesolve

    result = tilesolve.parse("magichex 60 first 45\n").solve(time_limit=0.05, threads=1)
    assert result.status == tilesolve.Status.TIMEOUT and result.solution is None


def fresh(limit: float) -> SolveOptions:
    opts = SolveOptions(time_limit=limit)
    opts.start_clock()
    return opts


def test_a_build_that_swallows_the_alarm_still_ends_out_of_time():
    """The alarm's exception can land where it is caught and dropped (a weakref callback
    printed "Exception ignored" in a SAT build and the build went on): the build then ends
    with OutOfTime all the same once it returns."""
    def deaf_build() -> None:
        try:
            time.sleep(1)
        except OutOfTime:
            pass  # as an "Exception ignored in" would

    with pytest.raises(OutOfTime), building(fresh(0.05)):
        deaf_build()
    with building(fresh(30)):
        pass  # a build within its limit ends as it was


def test_an_alarm_in_a_weakref_callback_is_put_off_not_dropped():
    """Raised in a weakref callback the exception would be printed and dropped; the handler
    returns there and the alarm comes again a moment later, outside it."""
    class Thing:
        pass

    returned = []
    with pytest.raises(OutOfTime), building(fresh(30)):
        handler = signal.getsignal(signal.SIGALRM)

        def callback() -> None:  # weakref.finalize calls it from weakref.py
            handler(signal.SIGALRM, sys._getframe(1))
            returned.append(True)

        weakref.finalize(Thing(), callback)()
        time.sleep(1)  # the alarm again, 1 ms later, here
    assert returned == [True]


def test_an_alarm_in_a_finaliser_is_put_off_not_dropped(monkeypatch):
    """Raised in a __del__ (multiprocessing's connections have one) the exception would be
    printed as "Exception ignored" and dropped; the alarm comes again outside it."""
    dropped = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: dropped.append(u.exc_type))

    class Slow:
        def __del__(self) -> None:
            end = time.monotonic() + 0.3  # the alarm (at 0.05 s) comes in here
            while time.monotonic() < end:
                pass

    with pytest.raises(OutOfTime), building(fresh(0.05)):
        Slow()  # dropped at once: its __del__ runs here
        time.sleep(1)  # the alarm again, 1 ms after the finaliser, here
    assert dropped == []
