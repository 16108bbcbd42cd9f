"""Set-up of the worker processes of our own local Dask cluster (a Dask preload module).

A terminal's Ctrl-C reaches every process of the foreground group: the workers ignore it, as
the portfolio's lanes do, so that the client alone handles it (it stops the tasks and closes
the cluster) and no worker prints a KeyboardInterrupt traceback on the way out. A worker
dies with the process that started it (the kernel's parent-death signal): after a kill -9 of
the command, a worker left to notice on its own printed a Dask traceback (1 run of 2).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import sys
import threading

PR_SET_PDEATHSIG = 1  # linux/prctl.h


def dask_setup(worker) -> None:  # noqa: ARG001 - the preload hook's signature
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    sys.unraisablehook = quiet_closed_loop(sys.unraisablehook)
    quiet_workspace_logs()


def quiet_workspace_logs() -> None:
    """Our local cluster's scratch folder is ours to remove (core/scratch.py); when a run is
    stopped, Dask's own removal of its subfolders as its processes exit can come after ours,
    and the scheduler and each worker logged "Failed to remove ... No such file or directory"
    (SIGTERM 1.5-2.5 s into `--islands 2`: every run)."""
    logging.getLogger("distributed.diskutils").setLevel(logging.CRITICAL)


def quiet_closed_loop(hook):
    """The unraisable-exception hook of a worker process, less one message: its tasks'
    clients (the islands' `get_client`) are closed with the worker, and when the command is
    stopped while its cluster closes, that close can be cut short; the client's finaliser then
    tries again on the closed event loop and printed a RuntimeError traceback per worker
    (SIGTERM 2.5 s into `--islands 2` on e2_8x8: 2 runs of 6). Nothing is left to close then:
    the scheduler is going too. Every other unraisable exception goes to `hook`."""

    def quiet(unraisable) -> None:
        obj = getattr(unraisable.object, "__qualname__", "")
        if obj == "Client.__del__" and isinstance(unraisable.exc_value, RuntimeError) and \
                str(unraisable.exc_value) == "IOLoop is closed":
            return
        hook(unraisable)

    return quiet


def die_with_parent() -> None:
    """SIGKILL this process when its parent ends (Linux; elsewhere Dask's own watch of the
    parent stays)."""
    import ctypes

    parent = multiprocessing.parent_process()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent.pid:  # it ended before the prctl
        os._exit(1)
