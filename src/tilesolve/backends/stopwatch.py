"""Turning a cooperative stop flag or a deadline into a solver's own stop call."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class Watcher:
    """Polls a stop flag (never blocks on it) and calls `on_stop` once when it is set.

    Blocking `Event.wait()` in a daemon thread can deadlock the parent's `set()` when the
    child exits (python/cpython#75158), hence the 50 ms poll.
    """

    def __init__(self, stop, on_stop: Callable[[], None], deadline: float | None = None):
        self._stop = stop
        self._on_stop = on_stop
        self._deadline = deadline
        self._done = threading.Event()
        self.fired = False
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        while not self._done.is_set():
            external = self._stop is not None and self._stop.is_set()
            late = self._deadline is not None and time.monotonic() >= self._deadline
            if external or late:
                # told again until the solve ends: a stop told before the solver's own loop
                # begins is lost (CP-SAT ignores StopSearch() before Solve(); a flag set before
                # a 16x16 solve ran it to its 60 s limit)
                self.fired = True
                self._on_stop()
            time.sleep(0.05)

    def __enter__(self) -> Watcher:
        if self._stop is not None or self._deadline is not None:
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()


def deadline_of(time_limit: float | None) -> float | None:
    return None if time_limit is None else time.monotonic() + time_limit
