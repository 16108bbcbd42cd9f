"""Set-up of the worker processes of our own local Dask cluster (a Dask preload module).

A terminal's Ctrl-C reaches every process of the foreground group: the workers ignore it, as
the portfolio's lanes do, so that the client alone handles it (it stops the tasks and closes
the cluster) and no worker prints a KeyboardInterrupt traceback on the way out. A worker
dies with the process that started it (the kernel's parent-death signal): after a kill -9 of
the command, a worker left to notice on its own printed a Dask traceback (1 run of 2).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading

PR_SET_PDEATHSIG = 1  # linux/prctl.h


def dask_setup(worker) -> None:  # noqa: ARG001 - the preload hook's signature
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()


def die_with_parent() -> None:
    """SIGKILL this process when its parent ends (Linux; elsewhere Dask's own watch of the
    parent stays)."""
    import ctypes

    parent = multiprocessing.parent_process()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent.pid:  # it ended before the prctl
        os._exit(1)
