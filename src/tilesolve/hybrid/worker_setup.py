"""Set-up of the worker processes of our own local Dask cluster (a Dask preload module).

A terminal's Ctrl-C reaches every process of the foreground group: the workers ignore it, as
the portfolio's lanes do, so that the client alone handles it (it stops the tasks and closes
the cluster) and no worker prints a KeyboardInterrupt traceback on the way out.
"""

from __future__ import annotations

import signal
import threading


def dask_setup(worker) -> None:  # noqa: ARG001 - the preload hook's signature
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
