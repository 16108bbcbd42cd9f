"""The command line for the tests, started by fork from a process that has its imports done.

`conftest.run_cli` runs `tilesolve ARGS...` as a process of its own, as a user would; starting
Python and importing OR-Tools, PuLP and NumPy took 0.35 of the 0.45 CPU s of a small solve,
over about 300 runs per suite. This server imports them once; each command is a fork of it
that takes the caller's environment, folder and arguments, runs the real entry point
(`tilesolve.__main__.main`) and ends with its own exit code. Output goes to files the caller
reads. Tests of the start itself (signals while Python loads, the installed script) start a
fresh interpreter with `popen_cli` or `subprocess`, as before.

Protocol (one JSON line each way on the server's stdin/stdout): a request
{"args", "env", "cwd", "out", "err"} is answered {"pid": N} at the fork and {"rc": CODE} when
the command has ended (CODE as `subprocess` gives it: negative for a signal).
"""

from __future__ import annotations

import json
import os
import sys


def _child(req: dict) -> None:
    """In the fork: become `tilesolve ARGS` in the caller's world, then end."""
    code = 1
    try:
        os.chdir(req["cwd"])
        os.environ.clear()
        os.environ.update(req["env"])
        null = os.open(os.devnull, os.O_RDONLY)
        out = os.open(req["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        err = os.open(req["err"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        for fd, target in ((null, 0), (out, 1), (err, 2)):
            os.dup2(fd, target)
            os.close(fd)
        _fresh_process_state()
        sys.argv = ["tilesolve", *req["args"]]
        from tilesolve.__main__ import main

        main()  # ends the process itself (cli._leave), as the command does
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001 - as an uncaught exception would end Python
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001, S110 - nothing more can be said
                pass
        os._exit(code)


def _fresh_process_state() -> None:
    """What a new interpreter would have: its own streams, random seeds and temp folder."""
    import io
    import random
    import tempfile

    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - the process's own
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)),
                                  encoding="utf-8")
    sys.stderr = io.TextIOWrapper(io.BufferedWriter(io.FileIO(2, "w", closefd=False)),
                                  encoding="utf-8", errors="backslashreplace",
                                  line_buffering=True)
    random.seed()
    tempfile.tempdir = None  # TMPDIR as the caller set it
    if "numpy" in sys.modules:
        sys.modules["numpy"].random.seed()


def serve() -> None:
    # the imports every command pays: done once here (tilesolve.__main__ is not imported,
    # as it takes the signals: each fork does that itself)
    import numpy  # noqa: F401
    import ortools.sat.python.cp_model  # noqa: F401
    import pulp  # noqa: F401

    import tilesolve.api  # noqa: F401
    import tilesolve.cli  # noqa: F401

    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    while line := requests.readline():
        req = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(req)
        replies.write(json.dumps({"pid": pid}).encode() + b"\n")
        replies.flush()
        _, status = os.waitpid(pid, 0)
        replies.write(json.dumps({"rc": os.waitstatus_to_exitcode(status)}).encode() + b"\n")
        replies.flush()


if __name__ == "__main__":
    serve()
