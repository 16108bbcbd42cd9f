"""`python -m tilesolve` and the `tilesolve` command.

A Ctrl-C while the command loads (Python's imports take 0.3-1.3 s) is noted, not raised in
the middle of an import as a traceback; the command then answers `interrupted`.
"""

import _signal  # built in: taking the signals costs no import (`signal` loads enum, 3 ms)

_EARLY: list[int] = []  # signals noted before core.interrupt is loaded


def _early(signum: int, _frame) -> None:
    _EARLY.append(signum)


for _name in ("SIGINT", "SIGTERM", "SIGHUP"):
    if hasattr(_signal, _name):
        _signal.signal(getattr(_signal, _name), _early)

from .core import interrupt  # noqa: E402  (after the signals are taken)


def main() -> None:
    interrupt.hold()
    interrupt.received[:0] = _EARLY  # the first signal names the run's end
    from .cli import main as run

    run()


if __name__ == "__main__":
    main()
