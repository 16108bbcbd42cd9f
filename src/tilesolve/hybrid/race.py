"""Starting, watching and stopping lane processes so that none outlives its parent.

Stopping escalates: the lane's stop flag (each backend turns it into its solver's own stop:
CP-SAT stop_search, SAT interrupt, HiGHS cancel, the GA's flag), a grace period, SIGTERM to
the lane's process group, then SIGKILL. The parent keeps draining the message queue while it
waits, because a child cannot exit while its queued messages are unread.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing as mp
import os
import queue
import signal
import sys
import time
import types
import weakref
from dataclasses import dataclass
from multiprocessing import forkserver
from multiprocessing import util as mp_util
from typing import Any

from ..core import scratch
from ..core.checkpoint import process_cpu
from ..core.interrupt import SIGNALS
from . import lanes

_LIVE: weakref.WeakSet = weakref.WeakSet()  # every race not yet shut down, for atexit


_TEMP_WATCH: list = []  # [True] once multiprocessing's temporary folder has its watcher


def _context():
    # never fork: CP-SAT and queue feeder threads may already run in this process
    if "forkserver" not in mp.get_all_start_methods():
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["tilesolve.hybrid.lanes"])  # lanes fork with it imported
    _watch_temp_folder()
    with deferred_signals():
        # the tracker first, outside the block: multiprocessing starts it with SIGINT and
        # SIGTERM blocked and then unblocks them, whatever the mask was before, so inside
        # the block it undid the block, and the forkserver started after it took a Ctrl-C
        # while importing its preload: a KeyboardInterrupt traceback (4 runs of 30 with
        # Ctrl-C 0.8-1.8 s into a portfolio). Running, the tracker is not started again.
        quiet_tracker()
        with sigint_blocked():
            forkserver.ensure_running()
    return ctx


@contextlib.contextmanager
def sigint_blocked():
    """Start helper processes (the forkserver, Dask's workers) with Ctrl-C blocked, which
    they keep through exec, as lanes forked by the forkserver do (the resource tracker
    blocks it while it starts, then unblocks it, ending this block: start it first): a
    Ctrl-C to the process group while the forkserver imported its preload, or a lane
    started, printed their KeyboardInterrupt tracebacks (2 runs of 6 in the first second of
    a portfolio). Blocked here in the main thread only: another thread takes the signal and
    its handler runs as ever (held by `deferred_signals` around the start), nothing lost."""
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    except (AttributeError, ValueError, OSError):  # no POSIX threads' masks here
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def quiet_tracker() -> None:
    """Start multiprocessing's resource tracker with its stderr on /dev/null.

    The tracker outlives a killed parent to unlink the semaphores of its queues and events,
    and says so: every kill -9 of a portfolio or an islands run printed "There appear to be
    12 leaked semaphore objects to clean up at shutdown" on the terminal after the shell's
    prompt. The clean-up is the tracker's job and still done; only the words go. It inherits
    the stderr of the moment it starts, so that moment's stderr is /dev/null (a lane or a
    worker, started later, keeps ours)."""
    from multiprocessing import resource_tracker

    with contextlib.suppress(OSError, ValueError):
        sys.stderr.flush()
        saved, devnull = os.dup(2), os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 2)
            resource_tracker.ensure_running()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            os.close(devnull)


def _watch_temp_folder() -> None:
    """multiprocessing removes its folder (the forkserver's socket) at our exit, not after
    a kill -9: then a watcher process does (core.scratch)."""
    if not _TEMP_WATCH:
        scratch.watch_until_exit(mp_util.get_temp_dir())
        _TEMP_WATCH.append(True)


@dataclass
class Lane:
    spec: lanes.LaneSpec
    process: Any
    stop: Any
    ctrl: Any
    started: float
    done: bool = False
    message: tuple | None = None  # the final "done"/"error" message
    stopped_at: float | None = None
    cpu: float | None = None  # its process's CPU seconds when `kill_all` killed it


def _runs(lane: Lane) -> bool:
    """Whether a lane's process runs. multiprocessing reads a lane's end from the forkserver,
    so once the forkserver has died (a signal to the process group, an OOM kill) every lane
    reads as ended with code 255; a lane not done whose process /proc still shows running is
    running all the same (reap reported such lanes lost while they ran their last seconds)."""
    return lane.process.is_alive() or (not lane.done and lanes.alive(lane.process.pid))


class Race:
    """A set of lane processes sharing one result queue."""

    def __init__(self) -> None:
        self.ctx = _context()
        self.out = self.ctx.Queue()
        self.lanes: dict[str, Lane] = {}  # every lane ever started, by its unique name
        self.closed = False
        _LIVE.add(self)

    def start(self, spec: lanes.LaneSpec) -> Lane:
        if spec.name in self.lanes:
            raise ValueError(f"lane {spec.name!r} already started")
        stop, ctrl = self.ctx.Event(), self.ctx.Queue()
        proc = self.ctx.Process(
            target=lanes.main, args=(spec, stop, self.out, ctrl), name=f"tilesolve-{spec.name}"
        )
        # a half-started child must not be left unaccounted for: the lane is on the books
        # before a signal held during its start is passed on. Booked after it, a SIGTERM in
        # that moment left the lane out of the kill; the parent's exit then removed the
        # queues' semaphores while the lane still loaded them, and the lane printed a
        # FileNotFoundError traceback (4 runs of 12 with SIGTERM 0.8-1.8 s into a portfolio)
        with deferred_signals():
            with _main_kept_home():
                proc.start()
            lane = Lane(spec, proc, stop, ctrl, time.perf_counter())
            self.lanes[spec.name] = lane
        return lane

    def running(self) -> list[Lane]:
        return [ln for ln in self.lanes.values() if not ln.done]

    def get(self, timeout: float) -> tuple | None:
        try:
            msg = self.out.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if msg[0] in ("done", "error"):
            lane = self.lanes.get(msg[1])
            if lane is not None:
                lane.done = True
                lane.message = msg
        return msg

    def reap(self) -> list[tuple]:
        """Lanes whose process died without a word (a crash in native code): an error each.

        Call it only after `get` found the queue empty: a child flushes its messages before
        it exits, so a dead lane with no final message really did die.
        """
        lost = []
        for lane in self.running():
            if not _runs(lane):
                code = lane.process.exitcode
                msg = ("error", lane.spec.name, f"process exited with code {code}",
                       time.perf_counter() - lane.started)
                lane.done, lane.message = True, msg
                lost.append(msg)
        return lost

    def send(self, name: str, message: tuple) -> None:
        lane = self.lanes.get(name)
        if lane is not None and not lane.done:
            lane.ctrl.put(message)

    def stop(self, name: str) -> None:
        lane = self.lanes.get(name)
        if lane is not None and not lane.done:
            lane.stop.set()
            lane.stopped_at = lane.stopped_at or time.perf_counter()

    def shutdown(self, grace: float = 3.0, on_message=None) -> None:
        """Stop every lane, wait `grace` seconds for the cooperative stop, then terminate, kill."""
        if self.closed:
            return
        everyone = list(self.lanes.values())
        for lane in everyone:
            lane.stop.set()
        end = time.monotonic() + grace
        while time.monotonic() < end and any(_runs(ln) for ln in everyone):
            msg = self.get(0.05)
            if msg is not None and on_message is not None:
                on_message(msg)
        for sig, wait in ((signal.SIGTERM, 1.0), (signal.SIGKILL, 1.0)):
            alive = [ln for ln in everyone if _runs(ln)]
            if not alive:
                break
            for ln in alive:
                _signal_group(ln.process.pid, sig)
            end = time.monotonic() + wait
            while time.monotonic() < end and any(_runs(ln) for ln in alive):
                self.get(0.05)  # unread messages would keep a child from exiting
        for ln in everyone:
            ln.process.join(0.5)
        self._close()

    def kill_all(self) -> None:
        """Last resort (atexit, second Ctrl-C): no waiting, no messages."""
        if self.closed:
            return
        # a lane's end is read from the forkserver, whose death reads as every lane's (exit
        # code 255): the lanes it hid were not killed, and one still loading its arguments
        # printed a FileNotFoundError when our exit removed the queues' semaphores (1 run of
        # 57 SIGTERMs 0.7-2 s into a portfolio on a loaded machine). So the lanes alive are
        # read before the forkserver goes, and a lane whose process still runs is alive even
        # if the forkserver went first (a SIGTERM to the whole process group): _runs
        alive = [ln for ln in self.lanes.values() if _runs(ln)]
        _stop_forking()
        for ln in self.lanes.values():
            with contextlib.suppress(Exception):
                ln.stop.set()
        for ln in alive:
            ln.cpu = process_cpu(ln.process.pid)  # its work, for the run's figures
            _signal_group(ln.process.pid, signal.SIGKILL)
        end = time.monotonic() + 0.5  # reaping only: a killed lane cannot answer any more
        for ln in alive:  # (a second each overran -t 5 by 1-2 s under load)
            ln.process.join(max(0.0, end - time.monotonic()))
        self._close()

    def _close(self) -> None:
        self.closed = True
        for ln in self.lanes.values():
            with contextlib.suppress(Exception):
                ln.ctrl.cancel_join_thread()
                ln.ctrl.close()
        with contextlib.suppress(Exception):
            self.out.cancel_join_thread()
            self.out.close()
        _LIVE.discard(self)


@contextlib.contextmanager
def deferred_signals():
    """Hold a Ctrl-C (or SIGTERM, SIGHUP) that arrives while a child starts; pass it on to
    the handler it was meant for once the start is done, or failed: Ctrl-C to the process
    group also stops multiprocessing's forkserver, and the start then fails with a refused
    connection, an error the held signal has to replace (it was lost, and the command
    answered `internal error: ConnectionRefusedError` instead of `interrupted`)."""
    caught: list[int] = []
    old: dict[int, Any] = {}
    try:
        for sig in SIGNALS:
            old[sig] = signal.signal(sig, lambda signum, _f: caught.append(signum))
    except ValueError:  # not the main thread: nothing to defer
        yield
        return
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        if caught and old[caught[0]] != signal.SIG_IGN:
            signal.raise_signal(caught[0])  # now to the handler it was meant for


@contextlib.contextmanager
def _main_kept_home():
    """Start a lane without the caller's `__main__`: multiprocessing would have the lane run
    the caller's script again (as `__mp_main__`), and a script that solves at its top level,
    with no `if __name__ == "__main__":` guard, then started a race in every lane, whose
    lanes died ("before the current process has finished its bootstrapping phase") and the
    portfolio answered `error`. A lane needs nothing of the caller's: its target and
    arguments are tilesolve's own, so a bare stand-in serves while the lane starts."""
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if main is None:
            del sys.modules["__main__"]
        else:
            sys.modules["__main__"] = main


def _stop_forking() -> None:
    """Kill the forkserver, so that no lane starts after this: a lane forked while the
    process ended found the race's semaphores gone and printed a traceback."""
    pid = getattr(getattr(forkserver, "_forkserver", None), "_forkserver_pid", None)
    if pid:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _signal_group(pid: int | None, sig: int) -> None:
    """Signal the lane's process group (it leads one), or the lane alone if that fails."""
    if pid is None:
        return
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError, OSError):
        with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
            os.kill(pid, sig)


@atexit.register
def _kill_leftovers() -> None:
    for race in list(_LIVE):
        race.kill_all()
