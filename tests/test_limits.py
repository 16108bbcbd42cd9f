"""The pieces that make `-t` hold from process start to exit (timings:
lab/scripts/bench_limits.py)."""

from __future__ import annotations

import threading
import time

from tilesolve.core.limits import allowance, finish_reserve, process_start, watchdog


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
