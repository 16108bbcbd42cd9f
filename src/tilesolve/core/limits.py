"""Time limits that cover model building.

A model of the 16x16 edge-matching board takes 3-5 CPU seconds to build in Python (MILP 3.1 s,
CNF 4.9 s), longer than a short `-t`. `building(opts)` interrupts the build when the limit
runs out (SIGALRM, so only in a process's main thread; elsewhere the build runs to its end
and the solver's own limit applies after it), raising OutOfTime, which the solve reports as
a timeout. Only model building goes inside it: never a solver call, whose cleanup (a child
process, temporary files) must not be cut short.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from .result import Outcome, SolveOptions, Status

T = TypeVar("T")


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

    def on_alarm(_signum, _frame) -> None:
        raise OutOfTime

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, left)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def out_of_time() -> Outcome:
    return Outcome(Status.TIMEOUT, stats={"stopped": "the time limit ran out while the model "
                                                     "was being built"})


def built(opts: SolveOptions, make: Callable[[], T]) -> T:
    """make() (a model's constructor) under building(opts)."""
    with building(opts):
        return make()
