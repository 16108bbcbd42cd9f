"""The Python API: load or build a puzzle, solve it, and read a verified result.

A thin layer over the pipeline the command line runs (`dispatch`): the same backends, the
same options, and the same gate, so every solution a `Result` holds has passed the family's
checker. Solver libraries are imported only when a solve needs them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .core.errors import InputError
from .core.family import Family, get_family, load_instance, load_text
from .core.report import Report
from .core.result import Solution, SolveOptions, SolveResult, Status


class Puzzle:
    """One puzzle instance, ready to solve, check, draw and export.

    Made by `load` (a file), `parse` (its text) or a family's builder (`edgematch`,
    `tantrix`, `hidato`, `magichex`); not meant to be constructed directly."""

    def __init__(self, family: Family, instance: Any, name: str, path: Path | None = None,
                 fmt: str | None = None) -> None:
        self._family = family
        self._path = path
        self._fmt = fmt
        self.instance = instance
        """The family's own instance object (`EdgeInstance`, `TantrixInstance`,
        `HidatoInstance` or `MagicHexInstance`)."""
        self.name = name
        """What results and errors call the puzzle: its file, or `<family>` when built."""

    def __repr__(self) -> str:
        return f"<tilesolve.Puzzle {self.family} {self.name}>"

    @property
    def family(self) -> str:
        """The family's name: `edgematch`, `tantrix`, `hidato` or `magichex`."""
        return self._family.name

    @property
    def text(self) -> str:
        """The instance in its family's text format (what `load` reads back)."""
        return self._family.format_instance(self.instance)

    def info(self) -> dict[str, Any]:
        """Sizes, counts and a search-space estimate, as `tilesolve info` prints them."""
        return self._family.info(self.instance)

    def solve(self, backend: str | None = None, *, time_limit: float | None = None,
              seed: int = 0, threads: int = 0, objective: str | None = None,
              count: bool = False, count_limit: int | None = None, verbose: bool = False,
              **backend_options: Any) -> Result:
        """Solve the puzzle and return its verified `Result`.

        - `backend`: `cpsat`, `milp`, `sat`, `ga`, `search`, `lns`, `memetic` or `portfolio`
          (the families that have it); default CP-SAT, or the portfolio for an objective
          where the family races its own optimisers.
        - `time_limit`: seconds of wall time (None: no limit); `seed`; `threads` (0 = every
          core).
        - `objective`: None to satisfy every rule, or the family's score to maximise
          (`"matches"` for edge matching, `"longest"` for Tantrix).
        - `count`, `count_limit`: enumerate the solutions (see `count`).
        - `verbose`: the solver's log on stderr.
        - `backend_options`: the backend's own options, the command line's `--name value`
          with underscores (`population=200`, `preset="tuned"`, `solver="highs"`).

        Bad options raise `InputError`, as the command line reports them."""
        opts = SolveOptions(time_limit=time_limit, seed=seed, threads=threads,
                            objective=objective, count=count, count_limit=count_limit,
                            params={k: _option_text(v) for k, v in backend_options.items()},
                            verbose=verbose)
        opts.check()
        opts.start_clock()
        from .dispatch import default_backend, solve_instance

        backend = backend or default_backend(self._family, self.instance, opts)
        # options that reshape the instance (edge matching's clues) work on a copy
        changes = set(self._family.options.names()) & set(opts.params)
        instance = _copy(self.instance) if changes else self.instance
        with self._file(backend) as path:
            res = solve_instance(self._family, instance, path, backend, opts, self._fmt)
        res.instance = self.name
        return Result(self, res, objective)

    def count(self, backend: str | None = None, *, limit: int | None = None,
              **options: Any) -> Result:
        """Enumerate the solutions: `Result.count` is the number distinct up to the puzzle's
        symmetries, `Result.count_raw` the number the solver found; `limit` stops the
        enumeration after that many. Other options as for `solve`."""
        return self.solve(backend, count=True, count_limit=limit, **options)

    def verify(self, solution: Mapping | str | Path, objective: str | None = None) -> Report:
        """Check a solution with the family's checker and list every violation.

        `solution` is a solution mapping (as `Result.solution`), its JSON form (as
        `Result.to_json()["solution"]`), or a solution file. With `objective` the report
        also holds the score and its maximum (`Report.score`, `Report.max_score`)."""
        self._family.check_objective(objective)
        return self._family.verify(self.instance, self._solution(solution), objective)

    def render(self, path: str | Path, solution: Mapping | str | Path | None = None) -> Path:
        """Draw the board as SVG or PNG (by `path`'s suffix), the pieces alone without a
        solution; returns the path."""
        from .core.outputs import draw

        sol = None if solution is None else self._solution(solution)
        return draw(self._family, self.instance, sol, path)

    def export(self, path: str | Path, to: str = "cnf", objective: str | None = None,
               **model_options: Any) -> str:
        """Write the model as `tilesolve export` does: DIMACS CNF (`cnf`), `lp` or `mps` (the
        MILP), `cpsat` (a CpModelProto) or `mzn` (MiniZinc model and data), with its variable
        map in `PATH.map.json`; `model_options` shape the model as the command line's
        `--name value` do. Returns a one-line description of what was written."""
        from .backends.export import export as write_model

        self._family.check_objective(objective)
        params = {k: _option_text(v) for k, v in model_options.items()}
        return write_model(self._family, self.instance, to, path, objective, params)

    def _solution(self, solution: Mapping | str | Path) -> Solution:
        if isinstance(solution, str | Path):
            return self._family.read_solution(self.instance, solution)
        if any(isinstance(key, str) for key in solution):  # the JSON form
            return self._family.solution_from_json(self.instance, dict(solution), "<solution>")
        return dict(solution)

    @contextmanager
    def _file(self, backend: str) -> Iterator[str]:
        """The path a solve names; the portfolio's lanes read the instance from it, so a
        puzzle built in memory is written to a temporary file for them."""
        if self._path is not None or backend != "portfolio":
            yield str(self._path or self.name)
            return
        import tempfile

        with tempfile.TemporaryDirectory(prefix="tilesolve-") as tmp:
            path = Path(tmp) / f"{self.family}.txt"
            path.write_text(self.text)
            yield str(path)


class Result:
    """What a solve found; `solution` is set only when the family's checker accepted it."""

    def __init__(self, puzzle: Puzzle, result: SolveResult, objective: str | None = None):
        self.puzzle = puzzle
        """The puzzle that was solved."""
        self.run_objective = objective
        """The objective the run maximised (None: every rule must hold)."""
        self.raw = result
        """The pipeline's `SolveResult`: its `board` is the solver's solution object, its
        `to_json()` what `tilesolve solve --json` prints."""

    def __repr__(self) -> str:
        return f"<tilesolve.Result {self.summary()}>"

    @property
    def status(self) -> Status:
        """`solved` (for an objective: proven optimal), `feasible` (verified, not proven
        optimal), `infeasible` (proven), `timeout`, `budget` (a GA's evaluations or
        generations spent first) or `error`."""
        return self.raw.status

    @property
    def verified(self) -> bool:
        """True when the family's checker accepted the board."""
        return self.raw.verified

    @property
    def solved(self) -> bool:
        """A verified solution was found (status `solved` or `feasible`)."""
        return self.verified and self.status in (Status.SOLVED, Status.FEASIBLE)

    @property
    def solution(self) -> Solution | None:
        """The verified solution, cell -> placed value (`(piece, rot)`, `(tile, rot)` or a
        number); None when the checker accepted no board."""
        return self.best if self.verified else None

    @property
    def best(self) -> Solution | None:
        """The board the run ended with, verified or not (a GA's best board on a timeout)."""
        return None if self.raw.board is None else dict(self.raw.board)

    @property
    def objective(self) -> float | None:
        """With an objective: the checker's score of the board (see `objective_max`)."""
        return self.raw.objective

    @property
    def objective_max(self) -> float | None:
        """With an objective: the best score the checker can give."""
        return self.raw.objective_max

    @property
    def objective_counts(self) -> str | None:
        """With an objective: what the score counts (`"matched joins"`)."""
        return self.raw.objective_counts

    @property
    def seconds(self) -> float:
        """Wall time of the solve."""
        return self.raw.seconds

    @property
    def backend(self) -> str:
        """The backend that ran."""
        return self.raw.backend

    @property
    def stats(self) -> dict[str, Any]:
        """The backend's statistics (conflicts, generations, the portfolio's lanes...)."""
        return self.raw.stats

    @property
    def count(self) -> int | None:
        """After `Puzzle.count`: solutions distinct up to the puzzle's symmetries."""
        return self.raw.count

    @property
    def count_raw(self) -> int | None:
        """After `Puzzle.count`: solutions as the solver enumerated them."""
        return self.raw.count_raw

    @property
    def violations(self) -> list[dict] | None:
        """For an `error`: what the checker found wrong with a solver's answer."""
        return self.raw.violations

    @property
    def text(self) -> str | None:
        """The board drawn as text (see `legend`)."""
        return self.raw.text

    @property
    def legend(self) -> str | None:
        """How to read `text`, in one line."""
        return self.raw.legend

    def summary(self) -> str:
        """The line `tilesolve solve` prints first (`solved (verified) by cpsat in 0.61 s`)."""
        return self.raw.headline()

    def to_json(self) -> dict:
        """The object `tilesolve solve --json` prints."""
        return self.raw.to_json()

    def verify(self) -> Report:
        """Check the board again with the family's checker (under the run's objective)."""
        board = self.best
        if board is None:
            raise InputError(f"the {self.status.value} run left no board to check")
        return self.puzzle.verify(board, self.run_objective)

    def render(self, path: str | Path, best: bool = False) -> Path:
        """Draw the verified solution as SVG or PNG; `best=True` also draws the best board of
        a run that found none. Returns the path."""
        return self.puzzle.render(path, self._board(best))

    def write(self, path: str | Path, best: bool = False) -> Path:
        """Write the verified solution as `tilesolve solve -o` does (`.json`: JSON, else the
        family's text format); `best=True` also writes the best board of a run that found
        none, marked so in the file. Returns the path."""
        from .core.outputs import write_solution

        return write_solution(self.puzzle._family, self.puzzle.instance, self._board(best),
                              path, self.raw)

    def _board(self, best: bool) -> Solution:
        board = self.best if best else self.solution
        if board is None:
            raise InputError(f"the {self.status.value} run has no verified solution"
                             + ("" if best or self.best is None else "; best=True takes its "
                                "best board"))
        return board


def _copy(instance: Any) -> Any:
    import copy

    return copy.deepcopy(instance)


def _option_text(value: Any) -> str:
    """A backend option as the command line passes it (the backends parse text)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    return str(value)


# --------------------------------------------------------------------------- reading
def load(path: str | Path, format: str | None = None, family: str | None = None) -> Puzzle:
    """Read a puzzle file; its first line names the family (or `family` does).

    `format` picks an edge-matching format (`native`, `bare`, `heule`, `url`) where the
    first line does not tell. A malformed file raises `InputError` naming the file and line."""
    fam, instance = load_instance(path, format, family)
    return Puzzle(fam, instance, str(path), Path(path), format)


def parse(text: str, family: str | None = None, format: str | None = None,
          name: str = "<text>") -> Puzzle:
    """Read a puzzle from the text of an instance file; errors name `name` and the line."""
    fam, instance = load_text(text, name, format, family)
    return Puzzle(fam, instance, name)


def solve(puzzle: Puzzle | str | Path, backend: str | None = None, **options: Any) -> Result:
    """Solve a `Puzzle` or a puzzle file: `load(path).solve(backend, **options)`."""
    if not isinstance(puzzle, Puzzle):
        puzzle = load(puzzle)
    return puzzle.solve(backend, **options)


# --------------------------------------------------------------------------- building
def _build(family: str, lines: Iterable[str]) -> Puzzle:
    """A puzzle from the lines of its family's text format, read by the family's parser (so
    a built puzzle is checked exactly as a file is; errors name `<family>` and the line)."""
    text = "\n".join(lines) + "\n"
    fam = get_family(family)
    return Puzzle(fam, fam.read_instance(f"<{family}>", None, text), f"<{family}>")


def edgematch(pieces: Sequence[Sequence[int]], width: int | None = None,
              height: int | None = None,
              fixed: Mapping[tuple[int, int], tuple[int, int]] | None = None) -> Puzzle:
    """An edge-matching puzzle from its pieces.

    `pieces[k - 1]` is piece k as its colours (north, east, south, west), 0 the grey of the
    frame. The board is `width` x `height` (default: square). `fixed` maps a cell
    (row, col), row 0 at the top, to the (piece, clockwise quarter turns) it must hold.
    Errors name line k + 1 for piece k."""
    if width is None:
        from math import isqrt

        width = isqrt(len(pieces))
    height = width if height is None else height
    head = [f"edgematch {width} {height}"]
    body = [" ".join(map(str, piece)) for piece in pieces]
    hints = [f"fixed {r} {c} {p} {rot}" for (r, c), (p, rot) in (fixed or {}).items()]
    return _build("edgematch", head + body + hints)


def tantrix(tiles: Iterable[int] | str, goals: Iterable[str], shape: str = "free",
            cells: Iterable[tuple[int, int]] | None = None) -> Puzzle:
    """A Tantrix puzzle: its tiles (numbers 1..56, repeats allowed, or ranges as text such
    as `"1-10"`), its goals (`"loop red"`, `"line blue"`, `"loop any"`...) and its shape:
    `"free"`, `"triangle N"`, or the `cells` (q, r) of a fixed board (axial coordinates,
    r downwards)."""
    if cells is not None:
        shape = "board"
    tile_text = tiles if isinstance(tiles, str) else " ".join(map(str, tiles))
    lines = ["tantrix", f"tiles {tile_text}", *(f"goal {g}" for g in goals), f"shape {shape}"]
    lines += [f"cell {q} {r}" for q, r in cells or ()]
    return _build("tantrix", lines)


def hidato(rows: Sequence[Sequence[int | str | None]], shape: str = "hex") -> Puzzle:
    """A Hidato puzzle from its rows: a number where one is given, None for an empty cell,
    `"#"` for a hole.

    `shape="hex"`: a hexagon whose rows hold side, side + 1, ..., 2 side - 1, ..., side
    cells (Beehive Hidato); `shape="square"`: equal rows, neighbours including diagonals.
    Errors name line k + 1 for row k."""
    if not rows:
        raise InputError("a Hidato puzzle needs at least one row", "<hidato>")
    dims = f"{len(rows[0])}" if shape == "hex" else f"{len(rows[0])} {len(rows)}"
    body = [" ".join("." if v is None else str(v) for v in row) for row in rows]
    return _build("hidato", [f"hidato {shape} {dims}", *body])


def magichex(order: int, first: int = 1,
             rows: Sequence[Sequence[int | None]] | None = None) -> Puzzle:
    """A magic hexagon of `order` cells a side holding first, first + 1, ...; `rows` gives
    numbers already placed, row by row (order, order + 1, ..., order cells), None for an
    empty cell. Errors name line k + 1 for row k."""
    head = f"magichex {order}" + (f" first {first}" if first != 1 else "")
    body = [" ".join("." if v is None else str(v) for v in row) for row in rows or ()]
    return _build("magichex", [head, *body])
