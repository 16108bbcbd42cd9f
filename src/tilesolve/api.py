"""The Python API: load or build a puzzle, solve it, and read a verified result.

A thin layer over the pipeline the command line runs (`dispatch`): the same backends, the
same options, and the same gate, so every solution a `Result` holds has passed the family's
checker. Solver libraries are imported only when a solve needs them.
"""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .core.errors import InputError
from .core.family import EXACT_BACKENDS, Family, family_names, get_family, load_instance, load_text
from .core.options import UnknownOptions
from .core.report import Report
from .core.result import Solution, SolveOptions, SolveResult, Status, interrupted


@dataclass(frozen=True)
class Improvement:
    """A verified board found during a solve, as `Puzzle.solve`'s `on_solution` receives
    it: with an objective, each board that beats the best so far; without one, the
    solution."""

    board: Solution
    """The board, cell -> placed value (as `Result.solution`); the family's checker
    accepted it."""
    objective: int | None
    """With an objective: the checker's score of the board (matched joins, the longest
    line's length); None without one."""
    objective_max: int | None
    """With an objective: the best score the checker can give."""
    seconds: float
    """Seconds since the solve began."""
    source: str
    """The backend that found it, or the portfolio's lane (`cpsat`, `ga-1`...)."""


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
        self._clock: float | None = None  # when `solve(path)` began reading it

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

    @property
    def backends(self) -> tuple[str, ...]:
        """The backends `solve` takes for this puzzle's family, besides `portfolio`."""
        return self._family.backends

    def info(self) -> dict[str, Any]:
        """Sizes, counts and a search-space estimate, as `tilesolve info` prints them."""
        return self._family.info(self.instance)

    def solve(self, backend: str | None = None, *, time_limit: float | None = None,
              seed: int = 0, threads: int = 0, objective: str | None = None,
              count: bool = False, count_limit: int | None = None, verbose: bool = False,
              on_solution: Callable[[Improvement], Any] | None = None,
              solver_params: Mapping[str, Any] | None = None, stop: Any = None,
              hint: Mapping | str | Path | None = None, **backend_options: Any) -> Result:
        """Solve the puzzle and return its verified `Result`.

        - `backend`: `cpsat`, `milp`, `sat`, `ga`, `search`, `lns`, `memetic` or `portfolio`
          (the families that have it); default CP-SAT, or the portfolio for an objective
          where the family races its own optimisers. The portfolio runs from a plain script
          or a notebook cell: no `if __name__ == "__main__":` guard is needed.
        - `time_limit`: seconds of wall time (None: no limit); `seed`; `threads` (0 = every
          core).
        - `objective`: None to satisfy every rule, or the family's score to maximise
          (`"matches"` for edge matching, `"longest"` for Tantrix).
        - `count`, `count_limit`: enumerate the solutions (see `count`).
        - `verbose`: the solver's log on stderr.
        - `on_solution`: called with an `Improvement` for each verified board that beats the
          best so far (without an objective: once, with the solution), in this process,
          possibly from a solver's thread; what it raises ends the solve.
        - `solver_params`: the solver's own parameters, by its names: CP-SAT's for `cpsat`
          (`{"num_workers": 4, "linearization_level": 2}`, any `SatParameters` field), HiGHS's
          or CBC's options for `milp` (by its `solver`), CaDiCaL's (or Glucose 4.2's random)
          options for `sat`. A name the solver does not declare raises `ValueError`.
        - `stop`: a cooperative stop request, anything with `is_set()` (a `threading.Event`,
          set from another thread or a callback): the solve ends at its next check and
          returns what it has, as on reaching `time_limit`.
        - `hint`: a board suggested to the solver (a solution mapping, its JSON form or a
          solution file, complete or partial): CP-SAT's hint, the MILP's start, the SAT
          solver's phases, the searches' and GA's starting board.
        - `backend_options`: the backend's own options, the command line's `--name value`
          with underscores (`population=200`, `preset="tuned"`, `solver="highs"`).

        An argument of the wrong type raises `TypeError`, an unknown keyword `TypeError`
        (naming the closest one), a bad value `ValueError`; each is also an `InputError`."""
        _check_arguments(self._family, backend, time_limit, seed, threads, objective,
                         count_limit, on_solution, solver_params)
        _check_stop(stop)
        try:
            return self._solve(backend, objective, on_solution, solver_params, SolveOptions(
                time_limit=time_limit, seed=seed, threads=threads, objective=objective,
                count=count, count_limit=count_limit, verbose=verbose, stop=stop,
                hint=None if hint is None else self._solution(hint),
                params={k: _option_text(v) for k, v in backend_options.items()}))
        except UnknownOptions as exc:
            raise _unexpected(exc) from None
        except InputError as exc:
            if exc.path is not None or isinstance(exc, ValueError):
                raise
            raise ArgumentValueError(_python_words(exc.message)) from None

    def _solve(self, backend: str | None, objective: str | None,
               on_solution: Callable[[Improvement], Any] | None,
               solver_params: Mapping[str, Any] | None, opts: SolveOptions) -> Result:
        opts.check()
        opts.start_clock()
        if self._clock is not None:  # read by `solve(path)`: the limit counts the reading
            opts.started, self._clock = self._clock, None
        from .core.outputs import BestBoard
        from .dispatch import default_backend, solve_instance

        backend = backend or default_backend(self._family, self.instance, opts)
        if solver_params is not None:
            opts.params[backend] = _native(backend, solver_params)
        tell = _Teller(on_solution, opts) if on_solution is not None else None
        best = BestBoard()  # what a Ctrl-C returns
        opts.on_verified = best.keep if tell is None else _both(best.keep, tell.hear)
        # options that reshape the instance (edge matching's clues) work on a copy
        changes = set(self._family.options.names()) & set(opts.params)
        instance = _copy(self.instance) if changes else self.instance
        try:
            with self._file(backend) as path:
                res = solve_instance(self._family, instance, path, backend, opts, self._fmt)
        except KeyboardInterrupt:
            kept = best.close()
            if kept is None:
                raise  # nothing verified yet: the interrupt is the caller's
            res = interrupted(kept, time.monotonic() - (opts.started or time.monotonic()),
                              "KeyboardInterrupt")
        res.instance = self.name
        if tell is not None:
            tell.hear(res)  # the final board, when no improvement told of it
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

    def board_json(self, board: Mapping | str | Path) -> dict[str, Any]:
        """A board in its family's JSON form (as `Result.to_json()["solution"]`, what
        `verify` and `hint` read back), checked or not: an `Improvement.board` to save as
        it streams, say. `board` is taken as by `verify`."""
        return self._family.solution_json(self.instance, self._solution(board))

    def render(self, path: str | Path, solution: Mapping | str | Path | None = None) -> Path:
        """Draw the board as SVG, PNG or PDF (by `path`'s suffix), the pieces alone without a
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
        self._raw = result  # the pipeline's SolveResult

    def __repr__(self) -> str:
        return f"<tilesolve.Result {self.summary()}>"

    @property
    def raw(self) -> SolveResult:
        """The pipeline's own result object (its fields may change between releases).

        @private"""
        return self._raw

    @property
    def status(self) -> Status:
        """`solved` (for an objective: proven optimal), `feasible` (verified, not proven
        optimal), `infeasible` (proven), `timeout`, `budget` (a GA's evaluations or
        generations spent first) or `error`."""
        return self._raw.status

    @property
    def verified(self) -> bool:
        """True when the family's checker accepted the board."""
        return self._raw.verified

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
        return None if self._raw.board is None else dict(self._raw.board)

    @property
    def objective(self) -> int | None:
        """With an objective: the checker's score of the board, a count (see
        `objective_counts` and `objective_max`); None without an objective (a backend's own
        figure, such as a GA's fitness, is in `to_json()`)."""
        return _score(self._raw.objective) if self.run_objective else None

    @property
    def objective_max(self) -> int | None:
        """With an objective: the best score the checker can give."""
        return _score(self._raw.objective_max) if self.run_objective else None

    @property
    def objective_counts(self) -> str | None:
        """With an objective: what the score counts (`"matched joins"`)."""
        return self._raw.objective_counts

    @property
    def seconds(self) -> float:
        """Wall time of the solve."""
        return self._raw.seconds

    @property
    def backend(self) -> str:
        """The backend that ran."""
        return self._raw.backend

    @property
    def stats(self) -> dict[str, Any]:
        """The backend's statistics (conflicts, generations, the portfolio's lanes...)."""
        return self._raw.stats

    @property
    def count(self) -> int | None:
        """After `Puzzle.count`: solutions distinct up to the puzzle's symmetries."""
        return self._raw.count

    @property
    def count_raw(self) -> int | None:
        """After `Puzzle.count`: solutions as the solver enumerated them."""
        return self._raw.count_raw

    @property
    def violations(self) -> list[dict] | None:
        """For an `error`: what the checker found wrong with a solver's answer."""
        return self._raw.violations

    @property
    def text(self) -> str | None:
        """The board drawn as text (see `legend`)."""
        return self._raw.text

    @property
    def legend(self) -> str | None:
        """How to read `text`, in one line."""
        return self._raw.legend

    def summary(self) -> str:
        """The line `tilesolve solve` prints first (`solved (verified) by cpsat in 0.61 s`)."""
        return self._raw.headline()

    def to_json(self) -> dict:
        """The object `tilesolve solve --json` prints."""
        return self._raw.to_json()

    def verify(self) -> Report:
        """Check the board again with the family's checker (under the run's objective)."""
        board = self.best
        if board is None:
            raise InputError(f"the {self.status.value} run left no board to check")
        return self.puzzle.verify(board, self.run_objective)

    def render(self, path: str | Path, best: bool = False) -> Path:
        """Draw the verified solution as SVG, PNG or PDF; `best=True` also draws the best board of
        a run that found none. Returns the path."""
        return self.puzzle.render(path, self._board(best))

    def write(self, path: str | Path, best: bool = False) -> Path:
        """Write the verified solution as `tilesolve solve -o` does (`.json`: JSON, else the
        family's text format); `best=True` also writes the best board of a run that found
        none, marked so in the file. Returns the path."""
        from .core.outputs import write_solution

        return write_solution(self.puzzle._family, self.puzzle.instance, self._board(best),
                              path, self._raw)

    def _board(self, best: bool) -> Solution:
        board = self.best if best else self.solution
        if board is None:
            raise InputError(f"the {self.status.value} run has no verified solution"
                             + ("" if best or self.best is None else "; best=True takes its "
                                "best board"))
        return board


class ArgumentValueError(InputError, ValueError):
    """A bad argument value, in Python's words (still an `InputError`)."""


class ArgumentTypeError(InputError, TypeError):
    """An argument of the wrong type or an unknown keyword (still an `InputError`)."""


# solve()'s own arguments, beside the backends' options (for the closest-name hint)
SOLVE_ARGUMENTS = ("backend", "time_limit", "seed", "threads", "objective", "count",
                   "count_limit", "verbose", "on_solution", "solver_params", "stop", "hint")


def _unexpected(exc: UnknownOptions) -> ArgumentTypeError:
    """`solve() got an unexpected keyword argument 'timelimit' (did you mean 'time_limit'?)`"""
    import difflib

    words = []
    for name in exc.names:
        close = difflib.get_close_matches(name, [*SOLVE_ARGUMENTS, *exc.expected], n=1)
        words.append(repr(name) + (f" (did you mean {close[0]!r}?)" if close else ""))
    what = "an unexpected keyword argument" if len(words) == 1 else \
        "unexpected keyword arguments"
    return ArgumentTypeError(f"solve() got {what} {', '.join(words)}")


def _python_words(message: str) -> str:
    """A command-line message in Python's words: `--time-limit` -> `'time_limit'`, and a
    message about one argument says so (`solve() argument 'seed' must be ...`)."""
    text = re.sub(r"--([a-z][a-z0-9-]*)", lambda m: repr(m.group(1).replace("-", "_")),
                  message)
    return f"solve() argument {text}" if text.startswith("'") else text


def _expect(name: str, value: Any, kinds: tuple[type, ...], what: str) -> None:
    """TypeError naming the argument, when `value` (not None) is none of `kinds` (a bool is
    not taken for a number)."""
    if value is None or (isinstance(value, kinds) and not (
            isinstance(value, bool) and bool not in kinds)):
        return
    raise ArgumentTypeError(f"solve() argument {name!r} must be {what}, "
                              f"not {type(value).__name__}")


def _check_arguments(family: Family, backend, time_limit, seed, threads, objective,
                     count_limit, on_solution, solver_params) -> None:
    """solve()'s own arguments have the types they need (their values are checked by the
    pipeline, and worded by `_python_words`)."""
    _expect("backend", backend, (str,), "a backend's name or None")
    _expect("time_limit", time_limit, (int, float), "a number of seconds or None")
    _expect("seed", seed, (int,), "an int")
    _expect("threads", threads, (int,), "an int")
    _expect("objective", objective, (str,), "an objective's name or None")
    _expect("count_limit", count_limit, (int,), "an int or None")
    _expect("solver_params", solver_params, (Mapping,), "a dict of parameters or None")
    if seed is None or threads is None:
        raise ArgumentTypeError(f"solve() argument {'seed' if seed is None else 'threads'!r}"
                                  " must be an int, not None")
    if objective is not None and objective not in family.objectives:
        raise ArgumentValueError(
            "solve() argument 'objective' must be " + (
                f"one of {', '.join(map(repr, family.objectives))}" if family.objectives
                else "None") + f" for the {family.name} family, got {objective!r}")
    if on_solution is not None and not callable(on_solution):
        raise ArgumentTypeError("solve() argument 'on_solution' must be callable, not "
                                  f"{type(on_solution).__name__}")


def _check_stop(stop: Any) -> None:
    """`stop` is polled, never waited on: it needs an `is_set()` to call."""
    if stop is not None and not callable(getattr(stop, "is_set", None)):
        raise ArgumentTypeError("solve() argument 'stop' must have an is_set() method (a "
                                f"threading.Event), not {type(stop).__name__}")


def _native(backend: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """`solver_params` for the backend's solver (CP-SAT's checked here; HiGHS's, CBC's and
    python-sat's once the backend knows which solver it runs)."""
    if backend not in EXACT_BACKENDS:
        raise ArgumentValueError(f"solve() argument 'solver_params': the {backend} backend runs no "
                        f"solver of its own to pass them to; they go with backend "
                        f"{', '.join(map(repr, EXACT_BACKENDS))}")
    bad = [key for key in params if not isinstance(key, str)]
    if bad:
        raise ArgumentTypeError(f"solve() argument 'solver_params': names are str, not "
                                  f"{type(bad[0]).__name__} ({bad[0]!r})")
    if backend == "cpsat":
        from .backends import native

        return native.cpsat(params)
    return dict(params)


class _Teller:
    """Hands `on_solution` each verified board that beats the last it was given."""

    def __init__(self, callback: Callable[[Improvement], Any], opts: SolveOptions) -> None:
        self.callback, self.opts = callback, opts
        self.told = False
        self.best: int | None = None

    def hear(self, res: SolveResult) -> None:
        if not res.verified or res.board is None:
            return
        score = _score(res.objective) if self.opts.objective else None
        if self.told and (score is None or (self.best is not None and score <= self.best)):
            return
        self.told, self.best = True, score
        start = self.opts.started if self.opts.started is not None else time.monotonic()
        self.callback(Improvement(dict(res.board), score, _score(res.objective_max),
                                  round(time.monotonic() - start, 4), res.backend))


def _both(*hooks: Callable[[SolveResult], Any]) -> Callable[[SolveResult], None]:
    def hear(res: SolveResult) -> None:
        for hook in hooks:
            hook(res)

    return hear


def _score(value: float | None) -> int | None:
    """A checker's score (a count the pipeline carries as a number) as the int it is."""
    return None if value is None else int(value)


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
def load(path: str | Path, family: str | None = None, format: str | None = None) -> Puzzle:
    """Read a puzzle file; its first line names the family (or `family` does).

    `format` picks an edge-matching format (`native`, `bare`, `heule`, `url`) where the
    first line does not tell. The arguments come in `parse`'s order; a format given second,
    as `load(path, "bare")` once took it, is still read as the format (with a
    DeprecationWarning). A malformed file raises `InputError` naming the file and line."""
    if family is not None and family not in family_names() and format is None:
        warnings.warn("load(path, format) is now load(path, family, format); pass "
                      f"format={family!r}", DeprecationWarning, stacklevel=2)
        family, format = None, family
    fam, instance = load_instance(path, format, family)
    return Puzzle(fam, instance, str(path), Path(path), format)


def parse(text: str, family: str | None = None, format: str | None = None,
          name: str = "<text>") -> Puzzle:
    """Read a puzzle from the text of an instance file (arguments as for `load`); errors
    name `name` and the line."""
    fam, instance = load_text(text, name, format, family)
    return Puzzle(fam, instance, name)


def solve(puzzle: Puzzle | str | Path, backend: str | None = None, **options: Any) -> Result:
    """Solve a `Puzzle` or a puzzle file: `load(path).solve(backend, **options)`."""
    if not isinstance(puzzle, Puzzle):
        began = time.monotonic()
        puzzle = load(puzzle)
        puzzle._clock = began  # the time limit counts from the first byte read
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


# --------------------------------------------------------------------------- generating
def generate(family: str, seed: int = 0, **options: Any) -> tuple[Puzzle, Solution]:
    """A random puzzle with a planted solution, as `tilesolve generate FAMILY --seed SEED`
    writes it: the same seed and options give the same puzzle. Returns the puzzle and its
    planted solution (cell -> placed value, as `Result.solution`).

    `options` are the generator's, the command line's `--name value` with underscores
    (`tilesolve options generate FAMILY` lists them): edge matching's `size` (or `width`
    and `height`), `frame_colours`, `inner_colours`, `patterns`, `fixed`; Hidato's `cells`,
    `shape`, `side`, `givens`... A family without a generator raises `InputError`."""
    import tempfile

    fam = get_family(family)
    if not fam.entry.generates:
        raise ArgumentValueError(f"the {fam.name} family has no generator")
    if "solution" in options:
        raise ArgumentTypeError("generate() returns the planted solution; it takes no "
                                "'solution' file")
    params = {k: _option_text(v) for k, v in options.items()}
    with tempfile.TemporaryDirectory(prefix="tilesolve-") as tmp:
        planted = Path(tmp) / "planted.txt"  # the generator writes it as the command does
        text = fam.module("generate").generate_text(seed=seed, solution=str(planted), **params)
        puzzle = parse(text, fam.name, name=f"<{fam.name} seed {seed}>")
        return puzzle, fam.read_solution(puzzle.instance, planted)


# --------------------------------------------------------------------------- describing
@dataclass(frozen=True)
class Preset:
    """A named setting of a backend, as its `preset` option picks it (`preset="paper"`)."""

    name: str
    """The name `preset=` takes."""
    summary: str
    """What the setting is, in one line (`paper`: the source paper's algorithm as
    published)."""
    differences: tuple[str, ...]
    """Each way the setting departs from the paper (empty for `paper` itself)."""
    default: bool = False
    """Whether the backend runs this setting when no preset is named."""


def presets(family: str, backend: str = "ga") -> dict[str, Preset]:
    """The named settings of a family's backend (its GA's `paper` and `tuned`...), in the
    order `solve --help` describes them; empty for a backend that has none."""
    declared = get_family(family).backend(backend).presets or {}
    if not declared:
        return {}
    from .backends.ga import default_preset  # the family's GA, just loaded, imports it too

    first = default_preset(declared)
    return {name: Preset(name, p.summary, tuple(p.differences), name == first)
            for name, p in declared.items()}
