"""Build the wheel from a clean copy of the repository, once with the machine's C compiler and
once with none, install each into a fresh virtual environment and solve a shipped puzzle with
the search backend; prints which compiled cores each wheel carries and which engine ran.

    python scripts/check_wheel.py            # about 3-6 minutes (two venvs, two installs)

Exits 0 when the compiled wheel carries all six cores, the compiler-less wheel carries none,
and both installs solve and verify the puzzle; 1 otherwise. Works in a temporary directory
that is removed at the end (also on Ctrl-C).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORES = ("_rowscan", "_breakscan", "_anneal", "_loopscan", "_linewalk", "_postea")
FAILING_COMPILERS = ("cc", "gcc", "c++", "g++", "x86_64-linux-gnu-gcc", "aarch64-linux-gnu-gcc")


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def no_compiler_env(tmp: Path) -> dict[str, str]:
    """PATH with every usual C compiler name answering 'exit 1' first."""
    shims = tmp / "no-cc"
    shims.mkdir()
    for name in FAILING_COMPILERS:
        (shims / name).write_text("#!/bin/sh\nexit 1\n")
        (shims / name).chmod(0o755)
    return {**os.environ, "PATH": f"{shims}:{os.environ['PATH']}", "CC": "cc", "CXX": "c++"}


def build(src: Path, out: Path, env: dict[str, str] | None = None) -> Path:
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-cache-dir", "-w",
         str(out), str(src)], env=env)
    return next(out.glob("tilesolve-*.whl"))


def cores_in(wheel: Path) -> list[str]:
    names = zipfile.ZipFile(wheel).namelist()
    return sorted(c for c in CORES if any(f"/{c}." in n and n.endswith(".so") for n in names))


def install_and_solve(wheel: Path, venv: Path) -> dict:
    run([sys.executable, "-m", "venv", str(venv)])
    run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)])
    proc = subprocess.run([str(venv / "bin" / "tilesolve"), "solve",
                           str(ROOT / "instances" / "e2_5x5.txt"), "--backend", "search",
                           "--json", "--threads", "1"], capture_output=True, text=True)
    return json.loads(proc.stdout)


def main() -> int:
    print("building two wheels and two virtual environments: about 3-6 minutes",
          file=sys.stderr)
    ok = True
    with tempfile.TemporaryDirectory(prefix="tilesolve-wheel-") as tmp_name:
        tmp = Path(tmp_name)
        for label, env, want in (("with a C compiler", None, list(CORES)),
                                 ("without a C compiler", no_compiler_env(tmp), [])):
            slug = label.replace(" ", "-")
            src = tmp / f"src-{slug}"  # a fresh clone: no in-place .so, no build/ of the other
            run(["git", "clone", "-q", str(ROOT), str(src)])
            wheel = build(src, tmp / slug, env)
            cores = cores_in(wheel)
            result = install_and_solve(wheel, tmp / f"venv-{slug}")
            engine = result.get("stats", {}).get("engine")
            good = (sorted(cores) == sorted(want) and result.get("status") == "solved"
                    and result.get("verified") is True
                    and engine == ("c" if want else "python"))
            ok &= good
            print(f"{label}: {wheel.name}, cores {cores or 'none'}; e2_5x5 by search: "
                  f"{result.get('status')}, verified {result.get('verified')}, engine "
                  f"{engine} -> {'ok' if good else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
