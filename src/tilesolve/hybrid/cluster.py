"""Dask clusters for runs that spread over processes or machines (`bench --scheduler`,
`solve --islands`): a client of an existing scheduler, or a local cluster of our own.

Dask is optional (`pip install 'tilesolve[dask]'`); it is imported only here, and only when a
run asks for it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from ..core import scratch
from ..core.errors import InputError
from .race import deferred_signals, quiet_tracker, sigint_blocked
from .worker_setup import quiet_workspace_logs


def require():
    """The `distributed` module (its import takes 1-2 s: do it before a run's clock starts)."""
    try:
        import distributed
    except ImportError:
        raise InputError("this needs Dask: pip install 'tilesolve[dask]'") from None
    return distributed


@contextmanager
def client(address: str | None = None, workers: int = 1) -> Iterator:
    """A Dask client of the scheduler at `address`, else of a local cluster of `workers`
    processes with one thread each (closed, with its processes, when the block ends)."""
    distributed = require()
    if address:
        try:
            cl = distributed.Client(address, timeout="10s")
        except OSError as exc:
            raise InputError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        try:
            yield cl
        finally:
            cl.close()
        return
    quiet_tracker()
    quiet_workspace_logs()
    # processes, not threads: the solvers hold the GIL in their Python parts. Dask's scratch
    # space (the scheduler's and the workers' locks and spill files) goes into a folder
    # that a watcher removes should this process be killed (a kill -9 left
    # dask-scratch-space behind in 2 runs of 2)
    import dask

    with scratch.scratch_folder("tilesolve-dask-") as folder, \
            dask.config.set({"temporary-directory": folder}):
        # a signal while the cluster starts is held until it has (a Ctrl-C 2-3 s into a run
        # left it half made, and Dask's tracebacks, in 3 runs of 4); its workers start with
        # Ctrl-C blocked until they ignore it themselves (worker_setup)
        with deferred_signals(), sigint_blocked():
            lc = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                          processes=True, dashboard_address=None,
                                          silence_logs=logging.ERROR, local_directory=folder,
                                          preload=["tilesolve.hybrid.worker_setup"])
        with lc, distributed.Client(lc) as cl:
            yield cl
