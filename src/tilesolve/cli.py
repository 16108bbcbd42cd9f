"""The command line: parse arguments, call the library, print. Nothing else lives here."""

from __future__ import annotations

import contextlib
import functools
import json
import sys
import threading
import time
from dataclasses import replace
from enum import Enum
from pathlib import Path

import typer

from .core.errors import InputError
from .core.family import get_family, load_instance
from .core.registry import BACKENDS, RACES, export_sources, objectives
from .core.result import SolveOptions, SolveResult, Status, interrupted, within_cores

app = typer.Typer(
    add_completion=True,  # --install-completion / --show-completion for bash, zsh, fish
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Exact and hybrid solvers for tile and hex puzzles.",
)


@functools.cache
def console(stderr: bool = False):
    """The terminal writer on stdout or stderr (soft wrap: one-line errors stay one line).
    Rich is imported at the first print through it: a --json solve never prints through it,
    and the import cost 0.1 CPU s of every start."""
    return console_class()(stderr=stderr, soft_wrap=True)


class PipeClosed(Exception):
    """The reader of our output has gone (`tilesolve solve ... | head -1`). Not an OSError,
    which click would turn into exit 1 before main() sees it."""


PIPE_CLOSED = 141  # the shell's code for a process ended by SIGPIPE, as `yes | head -1` gives


@functools.cache
def console_class():
    """Rich's Console, but a closed pipe raises PipeClosed (rich's own answer is exit 1)."""
    from rich.console import Console

    class PipeConsole(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise PipeClosed

    return PipeConsole


def _stdout_closed() -> bool:
    """Whether standard output is a pipe whose reader has gone (poll says POLLERR)."""
    import select

    try:
        poll = select.poll()
        poll.register(sys.stdout.fileno(), select.POLLOUT)
        return any(ev & (select.POLLERR | select.POLLHUP) for _, ev in poll.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


OPTION_COMMANDS = ("solve", "verify", "generate", "export", "bench")


class Command(typer.core.TyperCommand):
    """A command of ours. Those in OPTION_COMMANDS take the declared options of backends,
    races and generators (core.options.split_options) anywhere on their line, in
    `ctx.meta["options"]`. A closed standard output ends any command quietly (PipeClosed)."""

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        if self.name in OPTION_COMMANDS and not ctx.resilient_parsing:
            from .core.options import split_options
            from .option_pages import command_options

            own = {flag: not (p.is_flag or p.count) for p in self.get_params(ctx)
                   if p.param_type_name == "option" for flag in (*p.opts, *p.secondary_opts)}
            backend = _named_backend(args)
            owner = f"{self.name} --backend {backend}" if backend else self.name
            counts = [p.nargs for p in self.params if p.param_type_name == "argument"]
            args, ctx.meta["options"] = split_options(
                args, own, lambda: command_options(self.name, backend), owner,
                None if min(counts, default=0) < 0 else sum(counts))
        return super().parse_args(ctx, args)

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            if _stdout_closed():
                raise PipeClosed from None
            raise


def _named_backend(args: list[str]) -> str | None:
    """The backend a line names (--backend X, -b X, --backend=X): its options are the ones
    to read, not every backend's."""
    for i, arg in enumerate(args):
        if arg.startswith("--backend="):
            return arg.split("=", 1)[1]
        if arg in ("--backend", "-b") and i + 1 < len(args):
            return args[i + 1]
    return None


def _options(ctx: typer.Context) -> dict[str, str]:
    """The declared options a command's line carried (Command.parse_args)."""
    return dict(ctx.meta.get("options", {}))


def _print_version(value: bool) -> None:
    if value:
        from . import __version__

        print(f"tilesolve {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """Exact and hybrid solvers for tile and hex puzzles."""


def ga_presets_help() -> str:
    """Each family's GA presets with their differences from the paper (for `solve --help`)."""
    from .backends.ga import describe_presets
    from .core.registry import families_with

    lines = []
    for name in families_with("ga"):
        presets = get_family(name).backend("ga").presets
        if presets:
            lines += [f"{name} --backend ga:", *describe_presets(presets).splitlines()]
    return "\n".join(lines)


class SolveCommand(Command):
    """`solve --help` ends with where the options are listed, the backends and the GA presets,
    imported only when help is asked for."""

    def format_help(self, ctx, formatter):
        from .option_pages import solve_help

        self.epilog = solve_help() + "\n" + ga_presets_help()
        return super().format_help(ctx, formatter)


MEMORY_HELP = ("gigabytes a model may take (default 2, or TILESOLVE_MEMORY); a larger one is "
               "refused, with its estimate, before it is built")


def _choices(name: str, values) -> type[Enum]:
    """A typer choice made from core.registry (read without importing any family)."""
    return Enum(name, {v: v for v in values}, type=str)  # type: ignore[return-value]


Backend = _choices("Backend", (*BACKENDS, *RACES))
Objective = _choices("Objective", objectives())
ExportKind = _choices("ExportKind", export_sources())


@app.command(cls=SolveCommand)
def solve(
    ctx: typer.Context,
    instance: Path = typer.Argument(..., help="instance file"),
    backend: Backend | None = typer.Option(
        None, "--backend", "-b",
        help="default: cpsat; the portfolio for --objective where the family races its own "
        "optimisers (edge matching: break search + lns; cpsat + lns up to 8x8)",
    ),
    time_limit: float | None = typer.Option(None, "--time-limit", "-t", help="seconds"),
    seed: int = typer.Option(0, "--seed"),
    threads: int = typer.Option(
        0, "--threads", help="0 = all cores; more than the cores counts as all of them"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    out_file: Path | None = typer.Option(None, "--out", "-o", help="write the solution here"),
    render: Path | None = typer.Option(
        None, "--render", help="draw the solution (.svg/.png/.pdf)"),
    count: bool = typer.Option(False, "--count", help="count every solution (any exact backend)"),
    count_limit: int | None = typer.Option(
        None, "--count-limit", help="stop counting at N solutions (2: is the puzzle unique?)"),
    objective: Objective | None = typer.Option(None, "--objective"),
    fmt: str | None = typer.Option(None, "--format", help="instance format (auto-detected)"),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="solver logs on stderr"),
    quiet: bool = typer.Option(
        False, "--quiet", "-q",
        help="no live progress on stderr (shown on a terminal for solves over a second)"),
    write_best: bool = typer.Option(
        False, "--write-best",
        help="with -o/--render, also write a best board that is not a solution (marked so)",
    ),
    progress_jsonl: Path | None = typer.Option(
        None, "--log-jsonl", "--progress-jsonl",
        help="append every better score as a JSON line (--progress-jsonl: the same)"),
    log_boards: bool = typer.Option(
        False, "--log-boards",
        help="with --log-jsonl: each verified line holds its board (`verify` reads a line)"),
    checkpoint: Path | None = typer.Option(
        None, "--checkpoint",
        help="rewrite this file with each better verified board as the run finds it "
        "(--objective; -o is rewritten so too), the run's figures beside it"),
    resume: Path | None = typer.Option(
        None, "--resume",
        help="go on from a checkpoint (or -o) of an earlier --objective run of this "
        "instance: its board is the first best, its figures add up"),
    solver: str | None = typer.Option(
        None, "--solver", help="backend's solver: cbc|highs (milp), cadical195|glucose4|... (sat)"
    ),
    islands: int | None = typer.Option(
        None, "--islands",
        help="with --objective and -t: N islands on Dask exchanging their best boards "
        "(options --epoch S, --migration ring|best|none, --island-methods lns,memetic; "
        "none: independent seeded streams)",
    ),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="with --islands: the Dask scheduler (default: a local cluster)"
    ),
    memory: float | None = typer.Option(None, "--memory", help=MEMORY_HELP),
) -> None:
    """Solve a puzzle; every reported solution is verified first.

    Backend options (`--name value`, e.g. --population 500) may stand anywhere on the line;
    `tilesolve options BACKEND` lists them.
    """
    opts = _solve_options(ctx, time_limit, seed, threads, objective, count, count_limit,
                          verbose, progress_jsonl, log_boards, quiet, memory, solver)
    _check_outputs(out_file, render, progress_jsonl, checkpoint)
    named = str(instance)
    if named == "-":  # standard input: the portfolio's lanes read the instance from a file
        from .core.textfile import stdin_file

        instance = stdin_file()
    best = _best_board(opts, checkpoint or resume, out_file if objective else None)
    if time_limit is not None and islands is None:
        _guard_limit(instance, backend.value if backend else None, opts, as_json, best)
    _check_islands(islands, scheduler, backend, resume)
    outputs = (out_file, render, write_best)
    result, family, inst = _dispatch(instance, fmt, backend, islands, scheduler, opts, best,
                                     outputs, as_json, resume)
    _answer(result, named, family, inst, best, outputs, as_json)


def _solve_options(ctx: typer.Context, time_limit: float | None, seed: int, threads: int,
                   objective: Objective | None, count: bool, count_limit: int | None,
                   verbose: bool, progress_jsonl: Path | None, log_boards: bool, quiet: bool,
                   memory: float | None, solver: str | None) -> SolveOptions:
    """`solve`'s options, checked (a bad one is an InputError)."""
    from .core import interrupt
    from .core.limits import process_start

    opts = SolveOptions(
        time_limit=time_limit,
        seed=seed,
        threads=threads,
        objective=objective.value if objective else None,
        count=count,
        count_limit=count_limit,
        params=_options(ctx),
        verbose=verbose,
        progress_jsonl=str(progress_jsonl) if progress_jsonl else None,
        log_boards=log_boards,
        progress=False if quiet else None,
        clock_from=process_start(),
        stop=interrupt.STOP,
        memory=memory,
    )
    opts.check()
    if log_boards and progress_jsonl is None:
        raise InputError("--log-boards adds boards to --log-jsonl; add --log-jsonl FILE")
    if solver is not None:
        opts.params["solver"] = solver
    return opts



def _best_board(opts: SolveOptions, *paths: Path | None):
    """The best verified board, on disk at each improvement (`paths`: the checkpoint, or the
    one a run resumes, and -o); an interrupt answers with it."""
    from .core.outputs import BestBoard

    best = BestBoard(list(dict.fromkeys(p for p in paths if p)))
    opts.on_verified = best.keep
    return best


def _check_islands(islands: int | None, scheduler: str | None, backend: Backend | None,
                   resume: Path | None) -> None:
    if islands is None and scheduler is not None:
        raise InputError("--scheduler runs islands; add --islands N")
    if islands is not None and backend is not None:
        raise InputError("--islands chooses its own methods; drop --backend "
                         "(--island-methods names them)")
    if islands is not None and resume is not None:
        raise InputError("--resume goes on with one backend or the portfolio, not --islands")


def _dispatch(instance: Path, fmt: str | None, backend: Backend | None, islands: int | None,
              scheduler: str | None, opts: SolveOptions, best, outputs: tuple,
              as_json: bool, resume: Path | None = None) -> tuple:
    """Run the solve: (result, family, instance). On a signal, answer with the best verified
    board (`_answer_interrupt` exits)."""
    from .core import interrupt
    from .dispatch import read, solve_instance, solve_islands

    result = None
    reported = _hear_counters(opts)
    try:
        if islands is not None:
            family, inst = load_instance(instance, fmt)
            best.attach(family, inst)
            result = solve_islands(family, inst, str(instance), opts, islands, scheduler)
        else:
            family, inst, opts = read(instance, opts, fmt)
            best.attach(family, inst)
            start = _start_from(resume, best, family, inst, opts)
            result = solve_instance(family, inst, str(instance),
                                    backend.value if backend else None, opts, fmt)
            result = _not_worse(result, start)
    except KeyboardInterrupt as stop:
        _answer_interrupt(best, None, opts, outputs, as_json,
                          getattr(stop, "stats", None) or reported)
        raise  # no verified board: main() answers `interrupted` alone
    if interrupt.received:  # the solvers stopped at the signal and answered
        _answer_interrupt(best, result, opts, outputs, as_json)
    return result, family, inst


def _hear_counters(opts: SolveOptions) -> dict:
    """The counters (nodes, restarts...) a single backend last reported, kept for the totals
    of a run a signal stops before the backend answers."""
    from .core.checkpoint import counters_of

    heard: dict = {}
    listener = opts.on_report

    def hear(fields: dict) -> None:
        heard.update(counters_of(fields))
        if listener is not None:
            listener(fields)

    opts.on_report = hear
    return heard


def _answer(result, named: str, family, inst, best, outputs: tuple, as_json: bool) -> None:
    """Write the outputs and print the answer; exit with its status's code (2 when an
    output could not be written)."""
    _claim()  # from here the answer is ours to give, not the watchdog's
    best.keep(result)  # the checkpoint ends on the answer's board when that is better
    best.settle(result)
    result.instance = named
    failed = None
    out_file, render, write_best = outputs
    if out_file or render:
        try:
            _write_outputs(result, family, inst, out_file, render, write_best, best.header())
        except OSError as exc:  # a full disk after an hour's solve: the answer still prints
            failed = InputError(f"cannot write: {exc.strerror or exc}", exc.filename)
    if as_json:
        print(json.dumps(result.to_json()))
    else:
        _print_result(result)
    if failed is not None:
        console(stderr=True).print(f"error: {failed}", highlight=False, markup=False)
        raise typer.Exit(2)
    raise typer.Exit(result.status.exit_code)


def _start_from(resume: Path | None, best, family, inst,
                opts: SolveOptions) -> SolveResult | None:
    """A run that writes its best board (--checkpoint, -o) keeps its figures beside it (a
    ledger); --resume reads an earlier run's, whose verified board is the first best and
    the solvers' start (their hint; the portfolio hands it to its lanes)."""
    if resume is None and not best.paths:
        return None
    from .core.checkpoint import Ledger
    from .core.checkpoint import resume as read_checkpoint

    if resume is None:
        best.ledger = Ledger(family, inst, opts.objective, started=opts.started or time.monotonic())
        return None
    best.ledger, start = read_checkpoint(resume, family, inst, opts)
    best.begin(start)
    opts.hint = dict(start.board)
    return start


def _not_worse(result: SolveResult, start: SolveResult | None) -> SolveResult:
    """A resumed run answers with the checkpoint's board when it found no better one."""
    if start is None:
        return result
    from .core.solve import best_answer

    return best_answer(result, [replace(start, backend=result.backend,
                                        instance=result.instance)])


def _check_outputs(out_file: Path | None, render: Path | None, log: Path | None,
                   checkpoint: Path | None = None) -> None:
    """The files a solve will write, checked before it starts (one line, exit 2)."""
    from .core.outputs import check_drawing_path
    from .core.textfile import check_writable

    for path in filter(None, (out_file, render, checkpoint)):
        check_writable(path)
    if render is not None:
        check_drawing_path(render)
    if log is not None:
        check_writable(log, append=True)


# held by whoever prints the answer: the main thread (re-entrant: an error while it writes
# the answer is reported by it too) or the watchdog; never both, so one JSON object
ANSWERING = threading.RLock()


def _answer_interrupt(best, result: SolveResult | None, opts: SolveOptions,
                      outputs: tuple[Path | None, Path | None, bool], as_json: bool,
                      ran: dict | None = None) -> None:
    """Ctrl-C, SIGTERM or SIGHUP: answer with the best verified board, else the result the
    stopped solve gave (status interrupted, exit 128 + the signal), write it to -o and
    --render as a result is written, and end; return when there is neither. `ran`: the
    stats a solve stopped without a result left (a portfolio's lanes, as last reported)."""
    from .core import interrupt

    if result is not None:
        best.keep(result)
    kept = best.close() or result
    if kept is None:
        return
    interrupt.hold()  # a second Ctrl-C while the answer is written would tear it
    _claim()
    res = interrupted(kept, time.monotonic() - (opts.clock_from or opts.started or 0.0),
                      interrupt.signal_name())
    best.settle(res, ran if result is None else result.stats)
    if outputs[0] or outputs[1]:
        _write_outputs(res, best.family, best.instance, *outputs, best.header())
    if as_json:
        print(json.dumps(res.to_json()))
    else:
        _print_result(res)
    _leave(interrupt.exit_code())


def _guard_limit(instance: Path, backend: str | None, opts: SolveOptions, as_json: bool,
                 best) -> None:
    """A quarter of the limit's allowance after it, a run that has not begun to answer is
    ended with a timeout by a watchdog (core.limits.watchdog); the rest is for ending the
    process (lanes killed, CBC and its files removed by their watchers): half of the 1 s of
    `-t 5` was not enough at 1-2% of a core (6.1-6.2 s in 2 of 26 runs)."""
    from .core.limits import allowance, last_answer, last_resort, watchdog

    limit = opts.time_limit
    start = opts.clock_from
    last = start + limit + allowance(limit) * 3 / 4
    seen: dict = {}  # an exact solver's last reported fields: its bound for the answer
    if backend in ("cpsat", "milp"):
        opts.on_report = seen.update

    def keep(res: SolveResult) -> None:  # the last resort answers with the best board too
        last_answer(*_plain_answer(watchdog_answer(instance, backend, opts.seed,
                                                   last - start, res, seen), as_json))

    best.listeners.append(keep)

    def expire() -> None:
        if not _claim(blocking=False):
            return  # the solve is printing its answer
        res = watchdog_answer(instance, backend, opts.seed, time.monotonic() - start,
                              best.close(), seen)
        if as_json:
            print(json.dumps(res.to_json()))
        else:
            _print_result(res)
        _leave(res.status.exit_code)

    watchdog(start + limit + allowance(limit) / 4, expire)
    # past the watchdog, for when a native call keeps Python's lock and no thread can run
    last_resort(last, *_plain_answer(watchdog_answer(instance, backend, opts.seed,
                                                     last - start, None), as_json))


def _plain_answer(res: SolveResult, as_json: bool) -> tuple[bytes, int]:
    """The answer as the last resort writes it (no Python runs then): the JSON object, or
    the headline and the board; with its exit code."""
    text = json.dumps(res.to_json()) if as_json else "\n".join(
        filter(None, (res.headline(), (res.text or "").rstrip("\n"))))
    return (text + "\n").encode(), res.status.exit_code


def _claim(blocking: bool = True) -> bool:
    """Take the right to print the answer (the solve, the watchdog or a failure; never two),
    or False when not `blocking` and another has it. Once the last resort has printed its
    answer, the process is ending: wait for it."""
    from .core.limits import claim

    if not ANSWERING.acquire(blocking=blocking):
        return False
    if not claim():
        threading.Event().wait()
    return True


def watchdog_answer(instance: Path, backend: str | None, seed: int, seconds: float,
                    best: SolveResult | None, seen: dict | None = None):
    """The watchdog's answer: the best verified board the run found, as a run stopped at the
    limit answers with it (feasible, verified), else a timeout; with the bound the solver
    last reported (`seen`), as a run stopped at the limit gives it."""
    from .core.result import bound_and_gap
    from .core.verdict import score_gap

    stopped = {"stopped": "the time limit ran out before the solver stopped",
               **bound_and_gap(None, (seen or {}).get("bound"))}
    if best is not None:
        res = replace(best, seconds=seconds, stats={**best.stats, **stopped})
        score_gap(res, True)
        return res
    return SolveResult(str(instance), _family_named(instance), backend or "cpsat",
                       Status.TIMEOUT, False, seconds, seed=seed, stats=stopped)


def _family_named(instance: Path) -> str:
    """The family an instance file names in its header (edgematch for a bare `W H` one).
    Never waits: a FIFO or a device is not opened for reading (read_bytes refuses it)."""
    from .core.registry import FAMILIES
    from .core.textfile import STDIN, read_bytes, read_stdin

    try:
        data = read_stdin() if str(instance) == STDIN else read_bytes(instance, 1 << 16).decode(
            "utf-8-sig", errors="replace")
    except InputError:
        return "edgematch"
    for line in data.splitlines():
        words = line.split("#")[0].split()
        if words:
            return words[0].lower() if words[0].lower() in FAMILIES else "edgematch"
    return "edgematch"


def _write_outputs(result, family, inst, out_file: Path | None, render: Path | None,
                   write_best: bool, checkpoint: dict | None = None) -> None:
    """-o and --render: verified solutions only, unless --write-best asks for the best board
    of a run that found none (then the file says so). Files appear whole or not at all; -o
    holds the run's `checkpoint` figures (core.checkpoint) when it keeps them."""
    from .core.outputs import draw, write_solution

    sol = result.board
    if sol is None or not (result.verified or write_best):
        return
    if out_file:
        _wrote(write_solution(family, inst, sol, out_file, result, checkpoint))
    if render:
        _wrote(draw(family, inst, sol, render))


def _wrote(*paths: Path | str) -> None:
    """Say on stderr which files a command wrote (stdout stays the result's)."""
    for path in paths:
        console(stderr=True).print(f"wrote {path}", highlight=False, markup=False)


def _print_result(result) -> None:
    colour = {"solved": "green", "feasible": "yellow", "interrupted": "yellow",
              "infeasible": "red"}.get(
        result.status.value, "red"
    )
    console().print(f"[{colour}]{result.status.value}[/{colour}]", end="")
    console().print(result.headline()[len(result.status.value):], highlight=False, markup=False)
    if result.stats.get("reason"):  # a proof of infeasibility anyone can check
        before = " (a count made before any solver ran)" if result.stats.get("proved_by") \
            == "precheck" else ""
        console().print(f"why: {result.stats['reason']}{before}", highlight=False, markup=False)
    if result.stats.get("winner"):
        console().print(f"winner: {result.stats['winner']}")
    where = result.stats.get("best_from")
    if isinstance(where, dict):  # islands
        console().print(f"best from island {where['island']} ({where['method']}, found by "
                  f"{where['source']}) in epoch {where['epoch']}")
    if result.text:
        _print_board(result.text, result.legend)
    for v in result.violations or []:
        console().print(f"  {v['kind']}: {v['message']}", highlight=False, markup=False)
    if result.stats.get("error"):
        console(stderr=True).print(f"error: {result.stats['error']}", highlight=False, markup=False)


def _print_board(text: str, legend: str | None) -> None:
    """The board under a one-line legend; a board wider than the terminal is summarised."""
    from .core.board_text import board_summary, terminal_columns

    summary = board_summary(text, terminal_columns())
    if summary is not None:
        console().print(summary, highlight=False, markup=False)
        return
    if legend:
        console().print(f"legend: {legend}", highlight=False, markup=False, style="dim")
    console().print(text.rstrip("\n"), highlight=False, markup=False)


@app.command(cls=Command)
def verify(
    ctx: typer.Context,
    instance: Path = typer.Argument(..., help="instance file"),
    solution: str = typer.Argument(
        ..., help="solution file, JSON result, an exported model's answer (with --map) or URL"),
    map_file: Path | None = typer.Option(
        None, "--map", help="the .map.json of an export: SOLUTION is then that model's answer"),
    objective: Objective | None = typer.Option(None, "--objective"),
    fmt: str | None = typer.Option(None, "--format", help="instance format"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Check a solution: exit 0 valid, 1 invalid (every violation listed), 2 bad input.

    The family's own options shape the instance as they do for solve (edge matching:
    `--clues on` checks the official set's four clue pieces as well as its start piece)."""
    family, inst = load_instance(instance, fmt)
    family.check_objective(objective.value if objective else None)
    params = family.options.validate(_options(ctx), f"verify of {family.name}")
    inst = family.prepare(inst, params)
    if map_file is not None:
        from .backends.answers import read_answer

        sol = read_answer(family, inst, solution, map_file)
    else:
        sol = family.read_solution(inst, solution)
    report = family.verify(inst, sol, objective.value if objective else None)
    if as_json:
        print(json.dumps({"status": "valid" if report.ok else "invalid",
                          "instance": str(instance), "family": family.name, **report.to_json()}))
    else:
        console().print(report.summary(), highlight=False)
        for v in report.violations:
            console().print(f"  {v.kind}: {v.message}", highlight=False, markup=False)
    raise typer.Exit(0 if report.ok else 1)


@app.command(cls=Command)
def info(
    instance: Path = typer.Argument(...),
    fmt: str | None = typer.Option(None, "--format"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Size, counts and a search-space estimate of an instance."""
    family, inst = load_instance(instance, fmt)
    data = family.info(inst)
    if as_json:
        print(json.dumps({"status": "ok", "instance": str(instance), **data}))
        return
    from rich.table import Table

    table = Table(show_header=False, title=str(instance))
    for k, v in data.items():
        if k == "search_space" and "search_space_log10" in data:  # as long as its exponent
            v = f"10^{data['search_space_log10']:.1f}"
        if k != "search_space_log10":
            table.add_row(k, str(v))
    console().print(table)


class GenerateCommand(Command):
    """`generate --help` names the families that generate (option_pages.generators)."""

    def format_help(self, ctx, formatter):
        from .option_pages import generators

        for param in self.params:
            if param.name == "family":
                param.help = " | ".join(generators())
        return super().format_help(ctx, formatter)


@app.command(cls=GenerateCommand)
def generate(
    ctx: typer.Context,
    family: str = typer.Argument(..., help="a family that generates (see --help)"),
    output: Path = typer.Option(..., "-o", "--output", help="instance file to write"),
    seed: int = typer.Option(0, "--seed"),
) -> None:
    """Generate an instance with a planted solution. Family options follow as --name value
    (`tilesolve options generate FAMILY` lists them)."""
    from .option_pages import generators

    fam = get_family(family)
    if fam.name not in generators():
        raise InputError(f"the {fam.name} family cannot generate instances; families that do: "
                         f"{', '.join(generators())}")
    options = _options(ctx)
    solution = options.get("solution")  # the planted solution's file, when asked for
    text = fam.module("generate").generate_text(seed=seed, **options)
    from .core.textfile import write_text_atomic

    _wrote(write_text_atomic(output, text), *([solution] if solution else []))


EXPORT_HELP = (
    "Write a puzzle's model for another solver, with FILE.map.json naming every variable."
    "\n\nEvery family exports its SAT, MILP and CP-SAT models: cnf (DIMACS; a MaxSAT WCNF "
    "with --objective), lp and mps (the MILP), cpsat (a CpModelProto: text for .txt, .pbtxt "
    "or .textproto, else binary), mzn (the MILP as a MiniZinc model FILE.mzn with its data "
    "FILE.dzn, for any MiniZinc solver). Extra --name value options shape the model as they "
    "do for solve (--model bool, --radius 3)."
    "\n\nCheck another solver's answer with: tilesolve verify INSTANCE ANSWER --map "
    "FILE.map.json (SAT solver output, a CBC or HiGHS solution file, a CpSolverResponse, or "
    "MiniZinc's output). tilesolve run-model FILE -o ANSWER solves a cnf, lp, mps or cpsat "
    "export with a solver that ships with tilesolve and writes such an answer."
    "\n\nTantrix loop models, which tilesolve completes with lazy subloop cuts while solving, "
    "are written without those cuts and say so in the file and the map: an answer with "
    "subloops is then rejected by verify."
)


@app.command(cls=Command, help=EXPORT_HELP)
def export(
    ctx: typer.Context,
    instance: Path = typer.Argument(..., help="instance file or URL"),
    to: ExportKind = typer.Option(..., "--to", help="model format (see above)"),
    output: Path = typer.Option(..., "-o", "--output", help="model file to write"),
    objective: Objective | None = typer.Option(None, "--objective"),
    fmt: str | None = typer.Option(None, "--format"),
    memory: float | None = typer.Option(None, "--memory", help=MEMORY_HELP),
) -> None:
    from .backends.export import export as write_model
    from .core.textfile import check_writable

    check_writable(output)  # before the model is built
    family, inst = load_instance(instance, fmt)
    params = _options(ctx)
    text = write_model(family, inst, to.value, output, objective.value if objective else None,
                       params, memory)
    console().print(text, highlight=False)


@app.command("run-model")
def run_model_cmd(
    model: Path = typer.Argument(..., help="a model written by export (.cnf, .wcnf, .lp, .mps, "
                                 ".pb, .pbtxt)"),
    output: Path | None = typer.Option(None, "-o", "--output",
                                       help="answer file (default: standard output)"),
    solver: str | None = typer.Option(None, "--solver", help="cnf/wcnf: a PySAT solver "
                                      "(default cadical195); lp/mps: highs (default) or cbc"),
    time_limit: float | None = typer.Option(None, "-t", "--time-limit", help="seconds"),
    threads: int = typer.Option(1, "--threads"),
    as_json: bool = typer.Option(False, "--json"),
) -> None:
    """Solve an exported model with a solver that ships with tilesolve and write its answer
    for `tilesolve verify INSTANCE ANSWER --map MODEL.map.json`: exit 0 solved or feasible,
    3 infeasible, 4 no answer within the time limit, 2 bad input."""
    from .backends.external import run_model
    from .core.textfile import write_text_atomic

    run = run_model(model, solver, time_limit, threads)
    if output is not None:
        write_text_atomic(output, run.answer)
    if as_json:
        print(json.dumps(run.to_json(model, output)))
    else:
        if output is None:
            sys.stdout.write(run.answer)
        console(stderr=True).print(run.summary(), highlight=False, markup=False)
    raise typer.Exit(run.exit_code)


@app.command("render", cls=Command)
def render_cmd(
    instance: Path = typer.Argument(..., help="instance file or URL"),
    solution: str | None = typer.Argument(
        None, help="solution file or URL (omit to draw the pieces)"),
    output: Path | None = typer.Option(None, "-o", "--output", help=".svg, .png or .pdf"),
    url: bool = typer.Option(
        False, "--url", help="print the board's e2.bucas.name viewer URL (edge matching)"),
    fmt: str | None = typer.Option(None, "--format"),
) -> None:
    """Draw a board as SVG, PNG or PDF under a title with its score (broken rules marked), or
    give its viewer URL (--url)."""
    from .core.outputs import check_drawing_path, draw

    if output is None and not url:
        raise InputError("render needs -o FILE.svg|FILE.png|FILE.pdf or --url")
    if output is not None:
        check_drawing_path(output)  # before reading the instance
    family, inst = load_instance(instance, fmt)
    sol = family.read_solution(inst, solution) if solution else None
    drawing = family.module("render")
    if url and not hasattr(drawing, "viewer_url"):
        raise InputError(f"--url: e2.bucas.name shows edge-matching boards; the {family.name} "
                         "family has no viewer")
    if output is not None:
        _wrote(draw(family, inst, sol, output))
    if url:
        print(drawing.viewer_url(inst, sol))


@app.command("options", cls=Command)
def options_cmd(
    name: str = typer.Argument(..., help="a backend (cpsat, ga...), portfolio, islands, or "
                               "generate"),
    generator: str | None = typer.Argument(None, help="with generate: the family"),
    family: str | None = typer.Option(None, "--family", help="only this family's backend"),
) -> None:
    """List the options of a backend, the portfolio, the islands or a generator: type,
    default and meaning (`-` as default: the backend decides, as the meaning says)."""
    from rich.table import Table

    from .option_pages import note, pages

    for title, table in pages(name, generator or family):
        grid = Table(title=title, title_justify="left", caption=note(name),
                     caption_justify="left")
        for column in ("option", "type", "default", "meaning"):
            grid.add_column(column, overflow="fold")
        for row in table.rows():
            grid.add_row(*row)
        console().print(grid if table.public() else f"{title}: no options", highlight=False)


@app.command(cls=Command)
def bench(
    ctx: typer.Context,
    instances: list[Path] = typer.Argument(..., help="instance files"),
    backends: str = typer.Option(
        "cpsat,ga", "--backends", help="comma list; per-backend options as ga:cbgi=off"
    ),
    seeds: int = typer.Option(1, "--seeds", help="runs per instance and backend"),
    time_limit: float | None = typer.Option(10.0, "--time-limit", "-t", help="seconds per run"),
    max_evaluations: int | None = typer.Option(None, "--max-evaluations", help="GA budget"),
    threads: int = typer.Option(
        1, "--threads", help="threads per run (more than the cores counts as all of them)"),
    jobs: int = typer.Option(0, "--jobs", help="parallel runs (0 = cores / threads)"),
    objective: Objective | None = typer.Option(None, "--objective"),
    out_csv: Path | None = typer.Option(None, "--out", "-o", help="one CSV row per run"),
    out_json: Path | None = typer.Option(None, "--json", help="runs and summary as JSON"),
    plot: Path | None = typer.Option(
        None, "--plot", help="time vs size, success vs budget, GA fitness per generation"),
    scheduler: str | None = typer.Option(None, "--scheduler", help="Dask scheduler address"),
) -> None:
    """GA versus exact: instances x backends x seeds -> a table, CSV, JSON and plots.

    Extra `--name value` options go to every backend that takes them (e.g. --population 200).
    """
    from .bench import Budget, run_bench, table

    _at_least("--threads", threads, 1)
    _at_least("--jobs", jobs, 0)
    budget = Budget(
        time_limit=time_limit,
        max_evaluations=max_evaluations,
        threads=within_cores(threads),
        objective=objective.value if objective else None,
        params=_options(ctx),
    )
    names = [b.strip() for b in backends.split(",") if b.strip()]
    _, summary = run_bench(
        [str(i) for i in instances], names, seeds, budget, out_csv, out_json, plot, scheduler,
        jobs,
    )
    # piped: keep rows whole (print(width=) cannot exceed the console's own 80 columns)
    (console() if console().is_terminal else console_class()(width=160)).print(table(summary))
    for path in (out_csv, out_json, plot):
        if path:
            console().print(f"wrote {path}")


def _at_least(flag: str, value: int, low: int) -> None:
    if value < low:
        raise InputError(f"{flag} must be at least {low}, got {value}")


# commands whose --json is a flag, not a file
JSON_COMMANDS = ("solve", "verify", "info", "run-model")


def _json_requested(argv: list[str]) -> bool:
    command = next((a for a in argv if not a.startswith("-")), None)
    return command in JSON_COMMANDS and "--json" in argv


def _fail(code: int, status: str, message: str, as_json: bool, exc: InputError | None = None):
    """One line on stderr; with --json also the one JSON object on stdout, then exit."""
    _claim()
    prefix = {"bad-input": "error: ", "error": "internal error: "}.get(status, "")
    console(stderr=True).print(prefix + message, highlight=False, markup=False)
    if as_json:
        obj = {"status": status, "error": message, "exit_code": code}
        if exc is not None:
            obj.update(error=exc.message, file=exc.path, line=exc.line)
        print(json.dumps(obj))
    _leave(code)


def main() -> None:
    from .core import interrupt

    as_json = _json_requested(sys.argv[1:])
    try:
        interrupt.install()  # a Ctrl-C from here on is answered `interrupted`
        if interrupt.received:  # noted while the command loaded (tilesolve.__main__)
            raise KeyboardInterrupt
        code = app(standalone_mode=False)
    except InputError as exc:
        _fail(2, "bad-input", str(exc), as_json, exc)
    except PipeClosed:
        _pipe_closed()
    except (typer.Abort, KeyboardInterrupt):
        _fail(interrupt.exit_code(), "interrupted", "interrupted", as_json)
    except Exception as exc:  # noqa: BLE001 - users get one line, never a traceback
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):  # usage errors
            if not as_json:
                exc.show()
                _leave(2)
            _fail(2, "bad-input", exc.format_message(), as_json)
        import os

        if os.environ.get("TILESOLVE_DEBUG"):
            raise
        if interrupt.received:  # the fault came of the interrupt: Ctrl-C to the process
            # group also stops multiprocessing's forkserver, and a lane started a moment
            # later meets a refused connection (hybrid.race.deferred_signals)
            _fail(interrupt.exit_code(), "interrupted", "interrupted", as_json)
        _fail(1, "error", f"{type(exc).__name__}: {exc}", as_json)
    if interrupt.received:  # typer turns the KeyboardInterrupt into a bare exit 130
        _fail(interrupt.exit_code(), "interrupted", "interrupted", as_json)
    _leave(code if isinstance(code, int) else 0)


def _pipe_closed() -> None:
    """The reader has gone: end quietly with PIPE_CLOSED, as a Unix tool killed by SIGPIPE
    would, but with the clean-up of _leave (lanes, solver files)."""
    import os

    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # later writes vanish
    _leave(PIPE_CLOSED)


def _leave(code: int) -> None:
    """End the process now: the atexit hooks run (lanes, CBC's watchers, multiprocessing's
    folder), the interpreter's teardown of OR-Tools, NumPy and PuLP does not: it took 2 s of
    wall past the printed result under `-t 5` at a load of 19. main() is the entry point of
    the process; nothing after it would run anyway."""
    import atexit
    import os

    from .core.limits import answered

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # the reader has gone before the answer was whole
            code = PIPE_CLOSED if stream is sys.stdout else code
        except (OSError, ValueError):  # nothing more can be said
            pass
    answered(code)  # the answer is out: the last resort may end the clean-up at its time
    atexit._run_exitfuncs()
    os._exit(code)
