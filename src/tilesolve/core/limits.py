"""Time limits that cover model building.

A model of the 16x16 edge-matching board takes 3-5 CPU seconds to build in Python (MILP 3.1 s,
CNF 4.9 s), longer than a short `-t`. `building(opts)` interrupts the build when the limit
runs out (SIGALRM, so only in a process's main thread; elsewhere the build runs to its end
and the solver's own limit applies after it), raising OutOfTime, which the solve reports as
a timeout. Only model building goes inside it: never a solver call, whose cleanup (a child
process, temporary files) must not be cut short.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from .result import Outcome, SolveOptions, Status

try:  # the last resort: a thread outside Python's lock (_deadline.c)
    from . import _deadline
except ImportError:  # built without a C compiler: the watchdog thread alone keeps the limit
    _deadline = None

T = TypeVar("T")


def process_start() -> float:
    """When this process started, on the time.monotonic() clock (now where unknown).

    `-t` counts from the process's start: Python's start-up and the imports before the solve
    begins took 0.6-1.3 s at a load of 2-7 on 2 cores, a fifth of `-t 5`. Linux gives the
    start in clock ticks since boot (/proc/self/stat, field 22), the clock CLOCK_BOOTTIME
    counts in; monotonic differs from it only by time spent suspended.
    """
    now = time.monotonic()
    try:
        with open("/proc/self/stat") as fh:
            stat = fh.read()
        ticks = int(stat[stat.rfind(")") + 2 :].split()[19])
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - age if 0.0 <= age < 60.0 else now  # older: not a command line's start


class OutOfTime(Exception):
    """The time limit ran out while a model was being built."""


@contextmanager
def building(opts: SolveOptions) -> Iterator[None]:
    left = opts.remaining()
    if left is not None and left <= 0:
        raise OutOfTime
    usable = left is not None and hasattr(signal, "setitimer") and \
        threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    fired = []

    def on_alarm(_signum, frame) -> None:
        fired.append(True)
        if frame is not None and (frame.f_code.co_filename == weakref.__file__
                                  or frame.f_code.co_name == "__del__"):
            # raised in a weakref callback or a finaliser, the exception would be printed
            # and dropped ("Exception ignored in: ... remove" in a SAT test's build, "...
            # _ConnectionBase.__del__" in a CaDiCaL one): again in 1 ms
            signal.setitimer(signal.ITIMER_REAL, 0.001)
            return
        raise OutOfTime

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, left)
    try:
        yield
        if fired:  # the alarm's exception was caught and dropped inside the build
            raise OutOfTime
    except Exception as exc:
        # the alarm inside a compiled module's import (OR-Tools' protobuf) comes out as
        # "ImportError: initialization failed" (exit 1 in 1 of 3 runs of `-t 0.5` at load 4)
        if fired and not isinstance(exc, OutOfTime):
            raise OutOfTime from exc
        raise
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def out_of_time() -> Outcome:
    return Outcome(Status.TIMEOUT, stats={"stopped": "the time limit ran out while the solver "
                                                     "was loaded or the model built"})


FINISH_CPU = 0.15  # CPU seconds from a solver's stop to the process's exit (JSON, stop latency)


def finish_reserve(since: float, time_limit: float) -> float:
    """Seconds to keep back from the limit for finishing, on a machine this busy.

    `since` is when the process started (time.monotonic()). Wall per CPU second so far
    measures the share of a core the process gets: at a load of 17 with `nice -n 10`, 12-19 s
    of wall for 1.0-1.6 CPU s, so finishing alone took 2 s past `-t 5`. At most a third of
    the limit is kept back.
    """
    cpu = time.process_time()
    wall = time.monotonic() - since
    slowdown = max(1.0, wall / cpu) if cpu > 0.05 else 1.0
    return min(FINISH_CPU * slowdown, time_limit / 3)


def built(opts: SolveOptions, make: Callable[[], T]) -> T:
    """make() (a model's constructor) under building(opts)."""
    with building(opts):
        return make()


def allowance(time_limit: float) -> float:
    """How far past the limit a run may end: a tenth of it, at least 1 s."""
    return max(1.0, 0.1 * time_limit)


def watchdog(at: float, expire: Callable[[], None]) -> None:
    """Call `expire()` from a daemon thread at time.monotonic() `at`: the last resort of a
    process that must end by a wall-clock time whatever its CPU share. Under `nice -n 10` at
    a load of 26 a run got 1-2% of a core (0.7-1.8 CPU s in 18-64 s of wall): no stop by the
    solvers themselves could end it in time. A thread, not SIGALRM, because a handler would
    wait for a native solver call of the main thread to return."""

    def wait() -> None:
        while (left := at - time.monotonic()) > 0:
            time.sleep(min(left, 0.5))
        expire()

    threading.Thread(target=wait, daemon=True, name="limit-watchdog").start()


def last_resort(at: float, answer: bytes, code: int) -> bool:
    """From time.monotonic() `at`, end the process with `answer` on stdout and exit `code`
    even while a native call keeps Python's lock, which the watchdog thread must wait for
    (`ctypes.PyDLL(None).sleep(3)` held a 0.5 s watchdog to 3.0 s). Unless the process
    `claim`s the answer first; then it ends, with the code given to `answered`, once that
    answer is out. False where the compiled thread is missing (nothing armed)."""
    if _deadline is None:
        return False
    _deadline.answer(answer, code)
    _deadline.arm(at, 1)  # stdout
    return True


def last_answer(answer: bytes, code: int) -> None:
    """A better answer for the last resort to give (a better verified board)."""
    if _deadline is not None:
        _deadline.answer(answer, code)


def claim() -> bool:
    """The process is about to print its answer: the last resort will not print one. False
    when it already has (the process is ending)."""
    return _deadline is None or _deadline.claim()


def answered(code: int) -> None:
    """The process's answer is out (flushed): past its time the last resort ends the process
    with `code` instead of waiting for the clean-up."""
    if _deadline is not None:
        _deadline.answered(code)
