"""A signal in the command's first milliseconds: noted, never a traceback.

`import tilesolve` loads none of the package's modules (PEP 562 names), and the command takes
Ctrl-C, SIGTERM and SIGHUP with the built-in `_signal` before anything else of ours loads; a
signal noted then ends the run as `interrupted`. Measured with 60 Ctrl-Cs at random moments in
the first 80 ms of `tilesolve solve`: 29 tracebacks before, 1 after (at 8 ms, inside Python's
own start, before the package is found)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT


def python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_import_tilesolve_loads_no_module_of_the_package():
    r = python("import sys, tilesolve; "
               "print(sorted(m for m in sys.modules if m.startswith('tilesolve')))")
    assert r.stdout.split() == ["['tilesolve']"], r.stdout + r.stderr


def test_public_names_load_on_first_use():
    r = python("import tilesolve; print(tilesolve.Status.SOLVED.value, "
               "tilesolve.InputError.__name__, tilesolve.load.__module__, "
               "tilesolve.bench.__name__, 'Puzzle' in dir(tilesolve))")
    assert r.stdout.split() == ["solved", "InputError", "tilesolve.api", "tilesolve.bench",
                                "True"], r.stderr
    r = python("import tilesolve; tilesolve.nothing")
    assert "AttributeError: module 'tilesolve' has no attribute 'nothing'" in r.stderr


@pytest.mark.parametrize("sig,code", [("SIGINT", 130), ("SIGTERM", 143), ("SIGHUP", 129)])
def test_a_signal_as_the_command_loads_is_noted_and_ends_the_run_interrupted(sig, code):
    # the signal arrives right after the command's first module: the moment that printed a
    # KeyboardInterrupt traceback from inside an import before
    r = python("import os, signal, sys; import tilesolve.__main__ as m; "
               f"os.kill(os.getpid(), signal.{sig}); "
               "sys.argv = ['tilesolve', 'solve', 'instances/e2_6x6.txt', '--json']; m.main()")
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode == code
    assert json.loads(r.stdout) == {"status": "interrupted", "error": "interrupted",
                                    "exit_code": code}
