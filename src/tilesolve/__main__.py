"""`python -m tilesolve` and the `tilesolve` command.

A Ctrl-C while the command loads (Python's imports take 0.3-1.3 s) is noted, not raised in
the middle of an import as a traceback; the command then answers `interrupted`.
"""

from .core import interrupt


def main() -> None:
    interrupt.hold()
    from .cli import main as run

    run()


if __name__ == "__main__":
    main()
