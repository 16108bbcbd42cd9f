"""The pieces that make `-t` hold from process start to exit (timings: scripts/bench_limits.py)."""

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
