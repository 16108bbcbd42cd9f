"""Downing's two unsolved 56-tile puzzles (Loop, Curve): the best verified score per backend.

Each run solves instances/tantrix_<puzzle>.txt with `--objective longest`, one thread, in a
child process of its own at `nice` 15, one run at a time. The budget is CPU seconds
(`--cpu-budget`): the child's own CPU clock stops the solver through the cooperative stop flag
every backend polls, so a loaded machine does not shrink the search (a wall limit of 300 s gave
18 CPU seconds at load 9 on two cores); `--time-limit` caps the wall time as well. Each result
(the `solve --json` object with the board, the checker's score, wall and CPU seconds) is saved
as lab/results/tantrix_56/<puzzle>_<backend>_cpu<S>_s<seed>.json when the run ends; runs whose file
exists are skipped, so a stopped measurement resumes. While a run goes, every better verified
board it streams is written to <same name>.best-so-far.json, so a long run stopped early keeps
its best board, and a line (score, CPU and wall seconds) is added to
<same name>.best-so-far.log.jsonl. Then the best verified board of each
puzzle over every saved run is written to lab/results/tantrix_<puzzle>_best.json (`tilesolve verify
INSTANCE FILE --objective longest` reproduces its score) and a markdown table is printed.

    python lab/scripts/tantrix_56.py --cpu-budget 300 --backends search,ga,cpsat
    python lab/scripts/tantrix_56.py --cpu-budget 60 --backends milp:highs,milp:cbc,sat
    python lab/scripts/tantrix_56.py --cpu-budget 300 --backends milp:highs,sat,cpsat --from-best
    taskset -c 1 python lab/scripts/tantrix_56.py --cpu-budget 600 --backends lns --from-best
    python lab/scripts/tantrix_56.py --cpu-budget 600 --backends cpsat --from-best --on-its-shape

`--on-its-shape` solves the puzzle on the start board's own cells (the instance with `shape
board` and a `cell` line per tile of the board, written to lab/results/tantrix_56/shapes/):
CP-SAT's whole model on the free shape the lns has grown, with the board as its hint. The
result file's name ends in `_shape`; its board is checked again against the free puzzle.

A backend may name its solver after a colon (`milp:cbc`: the milp backend, `--solver cbc`) and
set options the same way (`lns:window=22:window_max=22`: `--window 22 --window-max 22`).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "lab" / "results" / "tantrix_56"
PUZZLES = ("loop56", "curve56")
DOWNING = {"loop56": "136 reached (Kuiper, 2003); maximum 136",
           "curve56": "best recorded 140; maximum 146"}


class CpuBudget:
    """A stop flag that is set once this process has used `seconds` of CPU time, or when the
    process that started it is gone (a SIGTERM to the script left its run solving on)."""

    def __init__(self, seconds: float) -> None:
        self.until = _cpu() + seconds
        self.parent = os.getppid()

    def is_set(self) -> bool:
        return _cpu() >= self.until or os.getppid() != self.parent


def _cpu() -> float:
    """This process's CPU seconds and those of its finished children (CBC runs as a child:
    its time counts once its round ends, so a CBC run is held to the budget by -t)."""
    return sum(use.ru_utime + use.ru_stime for use in (
        resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)))


def keep_improvements(game, instance: str, partial: Path, t0: float, c0: float):
    """An `on_solution` callback that writes each better verified board the backend streams
    to `partial` at once (whole or not at all): a long run stopped early keeps its best."""

    def note(found) -> None:
        body = {"instance": instance, "status": "feasible",
                "verified": True, "objective": found.objective, "source": found.source,
                "wall_seconds": round(time.perf_counter() - t0, 1),
                "cpu_seconds": round(_cpu() - c0, 1),
                "solution": game.board_json(found.board)}
        tmp = partial.with_suffix(".tmp")
        tmp.write_text(json.dumps(body) + "\n")
        tmp.replace(partial)
        with partial.with_suffix(".log.jsonl").open("a") as log:  # score against CPU s
            log.write(json.dumps({k: body[k] for k in (
                "objective", "cpu_seconds", "wall_seconds", "source")}) + "\n")

    return note


def best_path(puzzle: str) -> Path:
    return ROOT / "lab" / "results" / f"tantrix_{puzzle}_best.json"


def shape_instance(puzzle: str, start: Path) -> Path:
    """The puzzle on the start board's cells: its instance with `shape board` and a `cell`
    line per placed tile, written under OUT/shapes/ (named by the board's file)."""
    text = (ROOT / f"instances/tantrix_{puzzle}.txt").read_text()
    cells = [(p["q"], p["r"]) for p in json.loads(start.read_text())["solution"]["placements"]]
    board = "shape board\n" + "".join(f"cell {q} {r}\n" for q, r in cells)
    if "shape free\n" not in text:
        raise SystemExit(f"{puzzle}: --on-its-shape needs the free-shape instance")
    path = OUT / "shapes" / f"{puzzle}_cells_of_{start.stem}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.replace("shape free\n", board))
    return path


def _child(puzzle: str, backend: str, budget: float, wall: float, seed: int, niceness: int,
           partial: Path, queue, start: Path | None, on_shape: bool = False) -> None:
    os.nice(niceness)
    import tilesolve

    backend, *extra = backend.split(":")
    options = dict(e.split("=", 1) if "=" in e else ("solver", e) for e in extra)
    instance = f"instances/tantrix_{puzzle}.txt"
    if on_shape:
        assert start is not None
        instance = str(shape_instance(puzzle, start).relative_to(ROOT))
    t0, c0 = time.perf_counter(), _cpu()
    try:
        game = tilesolve.load(ROOT / instance)
        res = game.solve(backend, time_limit=wall, seed=seed, threads=1, objective="longest",
                         stop=CpuBudget(budget), on_solution=keep_improvements(
                             game, instance, partial, t0, c0),
                         hint=start,  # CP-SAT's hint, the MILP's start, the SAT solver's phases
                         **options).to_json()
        if on_shape and res.get("verified"):  # the board is one of the free puzzle's
            free = tilesolve.load(ROOT / f"instances/tantrix_{puzzle}.txt")
            report = free.verify(res["solution"], "longest")
            res["verified"] = report.ok and report.score == res["objective"]
    except Exception as exc:  # noqa: BLE001 - recorded in the run's file
        res = {"status": "error", "error": str(exc)}
    res["instance"] = instance
    res["wall_seconds"] = round(time.perf_counter() - t0, 1)
    res["cpu_seconds"] = round(_cpu() - c0, 1)
    queue.put(res)


def run_one(puzzle: str, backend: str, budget: float, wall: float, seed: int,
            niceness: int, from_best: bool | Path = False, on_shape: bool = False) -> dict:
    """One run; `from_best`: started from the puzzle's best saved board (its score in the
    file name: `_from<score>`), to see whether the backend improves on it."""
    start = from_best if isinstance(from_best, Path) else best_path(puzzle) if from_best else None
    if start is not None and not start.exists():
        raise SystemExit(f"{start}: no best board saved yet for --from-best")
    start_score = None if start is None else json.loads(start.read_text())["objective"]
    if on_shape and start is None:
        raise SystemExit("--on-its-shape needs a start board (--from or --from-best)")
    tail = ("" if start is None else f"_from{start_score}") + ("_shape" if on_shape else "")
    path = OUT / f"{puzzle}_{backend.replace(':', '-')}_cpu{budget:g}_s{seed}{tail}.json"
    if path.exists():
        return json.loads(path.read_text())
    OUT.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".best-so-far.json")
    queue = mp.get_context("fork").Queue()
    proc = mp.get_context("fork").Process(
        target=_child,
        args=(puzzle, backend, budget, wall, seed, niceness, partial, queue, start, on_shape))
    proc.start()
    res = queue.get()
    proc.join()
    res["cpu_budget"], res["seed"] = budget, seed
    if start is not None:
        res["start_score"] = start_score
    path.write_text(json.dumps(res) + "\n")
    return res


def best_boards() -> dict[str, dict]:
    """The highest verified score of each puzzle over every saved run and the best board
    already kept (which may come from another script's runs), written out."""
    best: dict[str, dict] = {}
    kept = [(puzzle, best_path(puzzle)) for puzzle in PUZZLES if best_path(puzzle).exists()]
    runs = [(path.name.split("_")[0], path) for path in sorted(OUT.glob("*.json"))]
    for puzzle, path in kept + runs:
        res = json.loads(path.read_text())
        if res.get("verified") and (puzzle not in best
                                    or res["objective"] > best[puzzle]["objective"]):
            best[puzzle] = res
    for puzzle, res in best.items():
        best_path(puzzle).write_text(json.dumps(res) + "\n")
    return best


def table(rows: list[tuple[str, str, dict]]) -> str:
    out = ["| puzzle | backend | CPU budget (s) | score | status | CPU s | wall s | Downing |",
           "|---|---|---:|---:|---|---:|---:|---|"]
    for puzzle, backend, res in rows:
        score = res.get("objective") if res.get("verified") else "-"
        if "start_score" in res:
            backend = f"{backend} from {res['start_score']}"
        out.append(f"| {puzzle} | {backend} | {res.get('cpu_budget', 0):g} | {score} | "
                   f"{res.get('status')} | {res.get('cpu_seconds')} | "
                   f"{res.get('wall_seconds')} | {DOWNING[puzzle]} |")
    return "\n".join(out)


def run_log(puzzle: str, backend: str, budget: float, seed: int, start: int | None) -> Path:
    tail = "" if start is None else f"_from{start}"
    return OUT / (f"{puzzle}_{backend.replace(':', '-')}_cpu{budget:g}_s{seed}{tail}"
                  ".best-so-far.log.jsonl")


def plot(rows: list[tuple[str, str, dict]], path: str) -> None:
    """Each run's best score against its CPU seconds (its best-so-far log), a panel a puzzle."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    puzzles = sorted({p for p, _b, _r in rows})
    fig, axes = plt.subplots(1, len(puzzles), figsize=(6.5 * len(puzzles), 4.2), squeeze=False)
    for ax, puzzle in zip(axes[0], puzzles, strict=True):
        for _p, backend, res in (r for r in rows if r[0] == puzzle):
            log = run_log(puzzle, backend, res.get("cpu_budget", 0), res.get("seed", 0),
                          res.get("start_score"))
            if not log.exists():
                continue
            pts = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
            xs = [p["cpu_seconds"] for p in pts] + [res.get("cpu_seconds", pts[-1]["cpu_seconds"])]
            ys = [p["objective"] for p in pts] + [pts[-1]["objective"]]
            name = backend + ("" if "start_score" not in res else f" from {res['start_score']}")
            ax.step(xs, ys, where="post", label=name)
        ax.set_title(f"{puzzle}: best verified score against CPU time")
        ax.set_xlabel("CPU seconds (one thread)")
        ax.set_ylabel("score (of 168)")
        ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpu-budget", type=float, default=300, help="CPU seconds per run")
    ap.add_argument("--time-limit", "-t", type=float, default=3600, help="wall cap per run")
    ap.add_argument("--backends", default="search,ga,cpsat")
    ap.add_argument("--puzzles", default=",".join(PUZZLES))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--nice", type=int, default=15)
    ap.add_argument("--from-best", action="store_true",
                    help="start each run from the puzzle's best saved board (CP-SAT's hint, "
                         "the MILP's start, SAT phases): does the backend improve on it?")
    ap.add_argument("--from", dest="from_file", type=Path,
                    help="start from this board (a saved run's JSON) instead of the best one")
    ap.add_argument("--on-its-shape", action="store_true",
                    help="solve on the start board's own cells (shape board) from it")
    ap.add_argument("--plot", help="a PNG of each run's best score against its CPU seconds")
    args = ap.parse_args()
    rows = []
    for puzzle in args.puzzles.split(","):
        for backend in args.backends.split(","):
            res = run_one(puzzle, backend, args.cpu_budget, args.time_limit, args.seed,
                          args.nice, args.from_file or args.from_best, args.on_its_shape)
            rows.append((puzzle, backend, res))
            print(f"{puzzle} {backend}: {res.get('status')} score {res.get('objective')} "
                  f"({res.get('cpu_seconds')} CPU s)", file=sys.stderr, flush=True)
    best_boards()
    print(table(rows))
    if args.plot:
        plot(rows, args.plot)


if __name__ == "__main__":
    main()
