"""Ctrl-C, SIGTERM and SIGHUP end a solve the same way, and at once.

SIGTERM's default action ends Python without running a `finally` or an atexit hook: the
portfolio's lanes, a CBC binary and its files stayed behind. Here all three signals raise
KeyboardInterrupt, which unwinds through the clean-up code.

Python runs a signal handler only between bytecodes of the main thread, so a handler alone
waits until a solver's native call returns (CP-SAT, a C search core): the whole limit, for
ever without one. `signal.set_wakeup_fd` makes the C-level handler write the signal's number
to a socket at once; a thread reading it raises the stop flag that every backend polls
(CP-SAT's stop_search, the SAT interrupt, CBC killed...), the native call returns, and the
handler's KeyboardInterrupt follows.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import threading

SIGNALS = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n))

received: list[int] = []  # the signals that ended the run, first first
_KEEP: list[socket.socket] = []


class SignalStop(threading.Event):
    """A stop flag only a signal sets: a SAT solver that cannot be interrupted may still run
    under it (it then ends at the signal's next look, after its native call)."""


STOP = SignalStop()  # the command line's flag, raised by the three signals


def _raise(signum: int, _frame) -> None:
    received.append(signum)
    raise KeyboardInterrupt


def install(stop: threading.Event = STOP) -> None:
    """From the main thread: the three signals set `stop` and raise KeyboardInterrupt."""
    for sig in SIGNALS:
        signal.signal(sig, _raise)
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    _KEEP[:] = [reader, writer]  # a collected socket would close the fd the handler writes to
    with contextlib.suppress(ValueError):  # not the main thread: the handlers still work
        signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)

        def relay() -> None:
            while data := reader.recv(1):
                if data[0] in SIGNALS:  # not the build guard's SIGALRM (core.limits)
                    stop.set()

        threading.Thread(target=relay, daemon=True, name="signal-relay").start()


def _note(signum: int, _frame) -> None:
    received.append(signum)


def hold() -> None:
    """From the main thread, while the run's answer is given: a further signal is noted and
    raises nothing (the process ends with the answer, at once)."""
    for sig in SIGNALS:
        signal.signal(sig, _note)


def signal_name() -> str:
    """The name of the signal that ended the run (SIGINT when none did)."""
    return signal.Signals(received[0] if received else signal.SIGINT).name


def exit_code() -> int:
    """128 + the signal's number, as a shell reports a process a signal ended (130: Ctrl-C)."""
    return 128 + (received[0] if received else signal.SIGINT)
