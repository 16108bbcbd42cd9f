"""Files made from a result: solution files and drawings, each written whole or not at all.

The command line (`-o`, `--render`, `render`) and the Python API write through these, so a
best board that is not a solution is marked as such the same way everywhere.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from . import draw as drawing
from .family import Family
from .result import Solution, SolveResult
from .textfile import write_atomic, write_text_atomic

DRAWING_SUFFIXES = drawing.FORMATS


def solution_text(family: Family, instance, solution: Solution, path: Path,
                  result: SolveResult | None = None, checkpoint: dict | None = None) -> str:
    """The solution file's text: JSON for `.json`, else the family's own format. With the
    `result` of a run that verified no solution, the text says it is the best board only;
    a `checkpoint` (core.checkpoint) travels in the same file."""
    not_solution = result is not None and not result.verified
    if path.suffix == ".json":
        body = family.solution_json(instance, solution)
        if not_solution or checkpoint is not None:
            body = {"status": result.status.value if result else None, "solution": body}
            if checkpoint is not None:
                body["checkpoint"] = checkpoint
        return json.dumps(body) + "\n"
    text = family.format_solution(instance, solution)
    if not_solution:
        broken = result.stats.get("broken_rules", "?")
        text = (f"# not a solution: the best board of a {result.status.value} run "
                f"({broken} rule(s) broken)\n" + text)
    if checkpoint is not None:
        from .checkpoint import header_text

        text = header_text(checkpoint) + text
    return text


def write_solution(family: Family, instance, solution: Solution, path: str | Path,
                   result: SolveResult | None = None, checkpoint: dict | None = None) -> Path:
    """Write a solution file (see `solution_text`); returns its path."""
    path = Path(path)
    text = solution_text(family, instance, solution, path, result, checkpoint)
    write_text_atomic(path, text)
    return path


class BestBoard:
    """The best verified board of a run as it improves (`keep`, fed by
    `SolveOptions.on_verified` from any thread), written at each improvement to its `paths`
    (--checkpoint, -o), whole or not at all: a kill -9 loses at most the last improvement.
    `close` hands over the best and ends the writing, so that a board a solver reports while
    the run's answer is being given cannot replace the answer's file. With a `ledger`
    (core.checkpoint.Ledger), each file holds the run's figures beside its board, and
    `settle` puts the final ones into the answer and the files."""

    def __init__(self, paths: list[Path] | tuple = ()) -> None:
        self.paths = [Path(p) for p in paths]
        self.result: SolveResult | None = None
        self.family: Family | None = None
        self.instance = None
        self.listeners: list = []  # told of each new best after it is written
        self.lock = threading.Lock()
        self.closed = False
        self.ledger = None  # core.checkpoint.Ledger: the figures written beside the board

    def attach(self, family: Family, instance) -> None:
        """The instance the boards are written for (boards before it are kept, not written)."""
        self.family, self.instance = family, instance

    def keep(self, res: SolveResult) -> None:
        with self.lock:
            if self.closed or not res.verified or res.board is None:
                return
            if self.result is not None and _score(res) <= _score(self.result):
                return
            self.result = res
            if self.ledger is not None:
                self.ledger.improved()
            self._write()
            for listener in self.listeners:
                listener(res)

    def begin(self, res: SolveResult) -> None:
        """The run's first best, a resumed checkpoint's board (verified by the caller): kept
        and written with the figures, not counted as found by this run."""
        with self.lock:
            self.result = res
            self._write()

    def _write(self) -> None:
        res = self.result
        if self.family is None or res is None:
            return
        header = self.header()
        for path in self.paths:
            write_solution(self.family, self.instance, res.board, path, res, header)

    def header(self) -> dict | None:
        """The checkpoint's figures for the best board (None without a ledger or a board)."""
        if self.ledger is None or self.result is None:
            return None
        return self.ledger.header(self.result)

    def settle(self, answer: SolveResult, ran: dict | None = None) -> None:
        """The run's answer: the ledger's final figures go into its stats, and the files are
        written once more with them (the lanes' counters are known only now: in `ran`, the
        stats of the run's own answer when it answers with an earlier board)."""
        if self.ledger is None:
            return
        with self.lock:
            self.ledger.finish(answer, ran)
            self._write()

    def close(self) -> SolveResult | None:
        """The best verified result kept; no file is written after this."""
        with self.lock:
            self.closed = True
            return self.result


def _score(res: SolveResult) -> float:
    return float("-inf") if res.objective is None else res.objective


def check_drawing_path(path: str | Path) -> Path:
    """A drawing's file name must say SVG, PNG or PDF."""
    return drawing.check_format(path)


def drawing_title(family: Family, instance, solution: Solution | None) -> str:
    """The drawing's title, one line each: the puzzle's name, the checker's score for each
    objective the family scores, and its verdict ("solved", or the broken rules by kind)."""
    name = getattr(instance, "name", "") or f"{family.name} puzzle"
    if solution is None:
        return f"{name}\nthe puzzle, no solution given"
    lines = [name]
    for objective in family.objectives:
        scored = family.verify(instance, solution, objective)
        if scored.max_score:  # 0: nothing to score (a puzzle without goals)
            what = family.objective_counts.get(objective, objective)
            lines.append(f"{what} {scored.score}/{scored.max_score}")
    kinds = family.verify(instance, solution).kinds()
    broken = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
    lines.append(f"not solved, broken rules: {broken}" if kinds else "solved")
    return "\n".join(lines)


def draw(family: Family, instance, solution: Solution | None, path: str | Path) -> Path:
    """Draw the board (or, without a solution, the pieces) as SVG, PNG or PDF under a title
    with its score and verdict; returns the path."""
    path = check_drawing_path(path)
    renderer = family.module("render")
    title = drawing_title(family, instance, solution)
    write_atomic(path, lambda tmp: renderer.render(instance, solution, tmp, title))
    return path
