"""Reproduce Niang's thesis (Concordia, 2010): Table 9 (time to a solution on 4x4 and 5x5
boards with 5 patterns and a 6x6 with 7, 10 runs each) and the parameter studies of Tables
1-8 (fitness curves on a 7x7 board), with our paper preset as written (no repair), the paper
preset with the thesis's repair (`--repair thesis`), our tuned preset and the exact backends
on the same boards. Writes niang.md, its plots and its CSV
(into --out-dir: out/reproductions by default, which git
ignores; the published page: --out-dir lab/reproductions).

    .venv/bin/python lab/scripts/reproduce_niang.py [--runs 10] [--study-runs 3] [--jobs 1]

The boards are ours (the thesis's are not published), made by `tilesolve generate edgematch
--size N --patterns P --seed 1`: one palette of P patterns on every join, as on the thesis's
boards. Finished runs are kept in the CSV: Ctrl-C and a rerun resume.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import experiment as rp

import tilesolve

BOARDS = {  # Table 9 row -> (instance, Niang's average time, evaluations, mutations, crossovers)
    "4x4 (5)": ("instances/e2_niang_4x4_p5.txt", "27 s", 92_700, 9_284, 41_480),
    "5x5 (5)": ("instances/e2_niang_5x5_p5.txt", "30 s", 212_140, 20_333, 95_286),
    "6x6 (7)": ("instances/e2_niang_6x6_p7.txt", "195 s", 267_800, 26_805, 120_500),
    # the thesis's own boards, as its screenshots print them solved (Figs. 44, 45, 43)
    "4x4 thesis (5)": ("instances/e2_niang_fig44_4x4.txt", "27 s", 92_700, 9_284, 41_480),
    "5x5 thesis (5)": ("instances/e2_niang_fig45_5x5.txt", "30 s", 212_140, 20_333, 95_286),
    "6x6 thesis (7)": ("instances/e2_niang_fig43_6x6.txt", "195 s", 267_800, 26_805, 120_500),
}
NOTES = Path(__file__).resolve().parents[2] / "lab" / "reproductions" / "niang_notes.md"
STUDY_BOARD = "instances/e2_niang_7x7_p7.txt"  # "All experiments were conducted using a 7x7"
GA_LIMIT = 3600.0  # wall seconds: a safety net; the paper preset stops at 10,000
# generations (about 100 CPU s on the 4x4; at a load of 10 a 600 s net cut runs at 3,200-4,300)
TUNED_LIMIT = 120.0  # the tuned preset has no generation limit
EXACT_LIMIT = 120.0
EXACT = ("cpsat", "sat", "search")
EQUAL = "search, whole process"  # the best method's column in the equal-cost table
# Table 9 GA columns: CSV column -> (bench spec, time limit, heading). "paper" and
# "paper+repair" were measured with the frame kept (the earlier reading, `--layout frame`);
# "paper-free" is the preset's default, any piece anywhere in any turn.
GA_COLUMNS = {
    "paper+repair": ("ga:preset=paper:repair=thesis:layout=frame", GA_LIMIT,
                     "ours, paper + repair, frame kept"),
    "paper": ("ga:preset=paper:repair=off:layout=frame", GA_LIMIT,
              "ours, paper, frame kept, no repair"),
    "paper-free": ("ga:preset=paper:repair=off:layout=free", GA_LIMIT,
                   "ours, paper as default (free layout), no repair"),
    "tuned": ("ga:preset=tuned", TUNED_LIMIT, "ours, tuned"),
    # the third repair, "to remove the deadlocks" (4.9), read as a Scramble of the stuck
    # population after 100 generations without a better best (niang_repair.py)
    "paper+deadlock": ("ga:preset=paper:repair=thesis:deadlock=100:layout=frame", GA_LIMIT,
                       "ours, paper + deadlock repair, frame kept"),
    "paper+deadlock-free": ("ga:preset=paper:repair=thesis:deadlock=100:layout=free", GA_LIMIT,
                            "ours, paper + deadlock repair, free layout"),
}

# Tables 1-8: the thesis's settings (all: tournament, region rotation/swap mutation) and what
# its figure shows; "Repair: Selection" (Tables 5-6) is --repair thesis.
STUDIES = {
    "Table 1": ("generations=100:elitism=0", "100 generations, no elitism",
                "Fig. 31: no improvement after about generation 40; stagnates"),
    "Figs. 32-33": ("generations=100:repair=thesis", "Table 1 with elitism 1 and repair",
                    "Figs. 32-33: the fitness converges towards the solution"),
    "Fig. 34": ("generations=100", "Table 1 with elitism 1, no repair",
                "Fig. 34: suggests repair should run after a certain number of generations"),
    "Table 2": ("generations=100:mutation_rate=0.8", "mutation 0.8",
                "Fig. 35: the best gets worse from about generation 60"),
    "Table 3": ("generations=100:mutation_rate=0", "no mutation",
                "Fig. 36: stops improving after a while"),
    "Table 4": ("generations=1000:mutation_rate=1.0:crossover_rate=0",
                "mutation 1.0, no crossover", "Fig. 37: lower fitness than with crossover"),
    # the thesis's "Elitism Rate 1": one elite at any population (the preset's rule now)
    "Table 5": ("generations=1000:population=1000:repair=thesis",
                "population 1000, repair (1 elite)",
                "Fig. 38: repair helps; fitness drops right after each repair"),
    "Table 6": ("generations=1000:population=500:repair=thesis",
                "population 500, repair (1 elite)",
                "Fig. 39: higher fitness than Table 5's population of 1000"),
    # the same two studies as first run, when the preset's elitism was a share of the
    # population (1/200): 5 and 2 elites; kept so the elites' effect shows
    "Table 5, 5 elites": ("generations=1000:population=1000:elitism=0.005:repair=thesis",
                          "population 1000, repair (5 elites, the earlier setting)",
                          "Fig. 38 (the earlier run)"),
    "Table 6, 2 elites": ("generations=1000:population=500:elitism=0.004:repair=thesis",
                          "population 500, repair (2 elites, the earlier setting)",
                          "Fig. 39 (the earlier run)"),
    "Table 7": ("generations=1000:crossover=uniform", "uniform crossover",
                "Fig. 40: slower than region exchange; stops improving at some point"),
    "Table 8": ("generations=1000", "region exchange (the paper preset, 1000 generations)",
                "Fig. 41: like Fig. 40, higher fitness"),
}


def table9_runs(runs: int, columns: set[str] | None = None,
                rows: set[str] | None = None) -> list[rp.Run]:
    """Column by column (the thesis's algorithm first), so a stopped run has whole columns;
    `columns` and `rows` (None: all) pick some of them."""
    out = []
    boards = {r: v for r, v in BOARDS.items() if rows is None or r in rows}
    for column, (spec, limit, _head) in GA_COLUMNS.items():
        if columns is not None and column not in columns:
            continue
        for row, (inst, *_rest) in boards.items():
            out += [rp.Run("table9", row, column, inst, spec, seed, limit) for seed in range(runs)]
    for row, (inst, *_rest) in boards.items():
        out += [rp.Run("table9", row, b, inst, b, 0, EXACT_LIMIT) for b in EXACT
                if columns is None or b in columns]
    return out


def equal_runs(runs: int, rows: set[str] | None = None) -> list[rp.Run]:
    """The search on every Table 9 board as a user runs it: whole processes, seeds 0..runs-1."""
    return [rp.Run("equal", row, EQUAL, inst, "search", seed, EXACT_LIMIT, process=True)
            for row, (inst, *_rest) in BOARDS.items() if rows is None or row in rows
            for seed in range(runs)]


def study_runs(runs: int) -> list[rp.Run]:
    out = []
    for table, (params, _what, _fig) in STUDIES.items():
        column = "paper+repair" if "repair=thesis" in params else "paper"
        # measured with the frame kept, the preset's reading when they ran
        spec = f"ga:preset=paper:layout=frame:{params}" + \
            ("" if "repair=" in params else ":repair=off")
        out += [rp.Run("studies", table, column, STUDY_BOARD, spec, seed, GA_LIMIT)
                for seed in range(runs)]
    for seed in range(runs):
        out.append(rp.Run("studies", "7x7 reference", "tuned", STUDY_BOARD, "ga:preset=tuned",
                          seed, TUNED_LIMIT))
    out += [rp.Run("studies", "7x7 reference", b, STUDY_BOARD, b, 0, EXACT_LIMIT) for b in EXACT]
    return out


# --- the page ------------------------------------------------------------------------------
def _mean(xs):
    return statistics.fmean(xs) if xs else None


def _cpu(row: dict) -> float:
    """CPU seconds of the run (wall seconds for rows that lack them)."""
    return row["cpu_seconds"] if row.get("cpu_seconds") is not None else row["seconds"]


def _span(xs, fmt: str = ",.0f") -> str:
    lo, hi = min(xs), max(xs)
    return f"{lo:{fmt}}" if lo == hi else f"{lo:{fmt}}-{hi:{fmt}}"


def _ga_cell(rows: list[dict]) -> str:
    if not rows:
        return "-"
    ok = [r for r in rows if r["solved"]]
    cell = f"{len(ok)}/{len(rows)} solved"
    if ok:
        evals = [r["evaluations"] for r in ok]
        cell += (f"; mean {_mean([_cpu(r) for r in ok]):.1f} CPU s, {_mean(evals):,.0f} "
                 f"evaluations ({_span(evals)})")
    failed = [r for r in rows if not r["solved"] and r.get("best_fitness") is not None]
    if failed:
        best = [r["best_fitness"] for r in failed]
        unit = "" if max(best) <= 1 else " joins"
        cell += f"; the others end at {_span(best, '.3g')}{unit}"
        cut = [r for r in failed if r.get("stop_reason") == "time" and r.get("generations")
               and r["column"].startswith("paper")]
        if cut:
            gens = [int(r["generations"]) for r in cut]
            cell += (f" ({len(cut)} cut by the {GA_LIMIT:.0f} s wall-clock net at "
                     f"{_span(gens)} generations)")
    return cell


def _exact_cell(rows: list[dict]) -> str:
    if not rows:
        return "-"
    r = rows[0]
    return f"{r['status']} in {_cpu(r):.1f} CPU s" if r["status"] != "error" else \
        f"error: {r.get('error')}"


def _pick(rows, table, row, column):
    return [r for r in rows if (r["table"], r["row"], r["column"]) == (table, row, column)]


def _study(rows, table):
    column = "paper+repair" if "repair=thesis" in STUDIES[table][0] else "paper"
    return _pick(rows, "studies", table, column)


def _row_name(row: str) -> str:
    """The --rows name of a Table 9 row: "4x4 (5)" -> 4x4, "4x4 thesis (5)" -> 4x4-thesis."""
    return row.split(" (")[0].replace(" ", "-")


def _slug(table: str) -> str:
    return "".join(ch for ch in table.lower() if ch.isalnum() or ch == "-")


def budget_cpu(rows: list[dict], row: str, evaluations: int) -> float | None:
    """The thesis's evaluations in our CPU seconds: the paper preset's CPU seconds per
    evaluation over our runs of the board (every paper column), times its count."""
    rs = [r for r in rows if r["table"] == "table9" and r["row"] == row
          and r["column"].startswith("paper") and r.get("evaluations")]
    evals = sum(r["evaluations"] for r in rs)
    return sum(_cpu(r) for r in rs) / evals * evaluations if evals else None


def equal_page(rows: list[dict]) -> list[str]:
    lines = ["## At the thesis's cost: the toolkit's best methods, every cost counted", "",
             "Each board at the thesis's cost of a solution (Table 9's mean evaluations and "
             "seconds): that many evaluations in our CPU seconds (the paper preset's CPU "
             "seconds per evaluation over our runs of the board, times the count); the tuned "
             "GA (Table 9's column: solved of its runs, mean evaluations of a solution, every "
             "evaluation counted); and the exact search run as a user runs it, a whole "
             "`tilesolve solve BOARD --backend search --json` process, one thread, seeds "
             "0-9, its CPU seconds those of the whole process (interpreter start and imports "
             "included). The last column is the search's median CPU over "
             "the thesis's evaluations' CPU.", ""]
    body = []
    for row, (_inst, secs, evals, _mut, _xo) in BOARDS.items():
        budget = budget_cpu(rows, row, evals)
        tuned = _pick(rows, "table9", row, "tuned")
        ok = [r for r in tuned if r["solved"]]
        search = _pick(rows, "equal", row, EQUAL)
        cpu = [r["cpu_seconds"] for r in search]
        med = statistics.median(cpu) if cpu else None
        body.append([
            row, f"{evals:,} evaluations, {secs}",
            "-" if budget is None else f"{budget:.1f}",
            "-" if not tuned else f"{len(ok)}/{len(tuned)}" + (
                f", {_mean([r['evaluations'] for r in ok]):,.0f} evaluations" if ok else ""),
            "-" if not search else f"{sum(r['solved'] for r in search)}/{len(search)}, "
            f"{med:.2f} CPU s (max {max(cpu):.2f})",
            "-" if med is None or not budget else f"{med / budget:.4f}"])
    lines.append(rp.markdown_table(
        ["board", "Niang: a solution's cost", "that in our CPU s (paper preset)",
         "tuned GA", "search, whole process: solved, median CPU s", "search / thesis"], body))
    return lines


def table9_page(rows: list[dict], out: Path) -> list[str]:
    lines = ["## Table 9: time to a solution by board size", "",
             "Niang: averages over 10 runs per board; the thesis gives no success count (a "
             "mean of 464 generations on the 4x4, or 184 at the population of 500 its counts "
             "fit, means that every run solved or that failed runs were left out). Ours: runs "
             "solved within the paper's 10,000 generations (paper "
             f"preset) or {TUNED_LIMIT:.0f} s (tuned preset); means over the solved runs "
             "(evaluations include the boards the repair re-evaluates); exact backends one run "
             f"each, {EXACT_LIMIT:.0f} s limit. Seconds are CPU seconds (one core) on a shared "
             "2-core machine; the thesis's are wall seconds on a 2.4 GHz dual-core PC.", ""]
    body = []
    for row, (inst, secs, evals, _mut, _xo) in BOARDS.items():
        body.append([f"{row} `{Path(inst).name}`", f"{secs}, {evals:,} evaluations",
                     *[_ga_cell(_pick(rows, "table9", row, c)) for c in GA_COLUMNS],
                     *[_exact_cell(_pick(rows, "table9", row, b)) for b in EXACT]])
    lines.append(rp.markdown_table(["board (patterns)", "Niang",
                                    *[head for _s, _l, head in GA_COLUMNS.values()], *EXACT],
                                   body))
    ga_rows = [r for r in rows if r["table"] == "table9" and r["column"].startswith("paper")]
    if ga_rows:
        rp.plot_curves(ga_rows, out / "niang_table9_curves.png",
                       "Table 9 boards, paper preset: best and mean fitness", target=1.0)
        rp.plot_success_vs_budget(ga_rows, out / "niang_table9_success.png",
                                  "Table 9 boards, paper preset: solved by budget")
        lines += ["", "![curves](niang_table9_curves.png)", "",
                  "![success](niang_table9_success.png)"]
    return lines


def studies_page(rows: list[dict], out: Path) -> list[str]:
    lines = ["## Tables 1-8: parameter studies on a 7x7 board with 7 patterns", "",
             "The thesis shows these as fitness plots only (no numbers); its observation is "
             "quoted. Ours: the paper preset, frame kept, with the table's settings (with "
             "`--repair thesis` where the thesis lists repair), best fitness at the end "
             "(mean ± sd over the runs) and mean of the population's mean fitness at the end.",
             ""]
    body = []
    for table, (_params, what, fig) in STUDIES.items():
        rs = _study(rows, table)
        best = [r["best_fitness"] for r in rs if r.get("best_fitness") is not None]
        means = [r["curve"][-1][3] for r in rs if r.get("curve")]
        best_cell = rp.pm(_mean(best), statistics.stdev(best) if len(best) > 1 else 0.0, 3) \
            if best else "-"
        body.append([table, what, fig, f"{len(rs)}", best_cell,
                     f"{_mean(means):.3f}" if means else "-"])
    lines.append(rp.markdown_table(["table", "setting", "Niang (figure)", "runs",
                                    "ours: best at end", "ours: population mean at end"], body))
    ref = [_ga_cell(_pick(rows, "studies", "7x7 reference", "tuned")),
           *[_exact_cell(_pick(rows, "studies", "7x7 reference", b)) for b in EXACT]]
    lines += ["", "The same 7x7 board (the thesis found no solution on its 7x7):", "",
              rp.markdown_table(["tuned preset", *EXACT], [ref])]
    for table in STUDIES:
        rs = _study(rows, table)
        if rs:
            name = f"niang_{_slug(table)}_curves.png"
            rp.plot_curves(rs, out / name, f"{table}: {STUDIES[table][1]}")
            lines += ["", f"![{table}]({name})"]
    return lines


def write_page(rows: list[dict], out: Path, runs: int, study_runs: int) -> None:
    done9 = max((len(_pick(rows, "table9", r, c)) for r in BOARDS for c in GA_COLUMNS),
                default=0)
    text = [
        "# Niang 2010: a genetic algorithm for Eternity II, reproduced", "",
        "Generated by `lab/scripts/reproduce_niang.py` from `niang.csv` (the runs actually "
        f"finished: up to {done9} of {runs} runs per Table 9 board and column, "
        f"{study_runs} per parameter study). Boards: ours, made with `tilesolve generate "
        "edgematch --size N --patterns P --seed 1` (one palette of P patterns on every join, "
        "as on the thesis's boards), and the thesis's own (rows \"thesis\"): the solved "
        "boards its screenshots print (Figs. 44, 45, 43), shipped as "
        "`instances/e2_niang_fig44_4x4.txt`, `..._fig45_5x5.txt`, `..._fig43_6x6.txt`; the "
        "thesis does not say that Table 9 ran on these boards, only that they are its 4x4, "
        "5x5 and 6x6 runs. Every row of `niang.csv` names its whole setting in `backend` "
        "(`tilesolve solve INSTANCE --backend ga --seed SEED` with each `name=value` as "
        "`--name value` replays it).", "",
        "The paper preset (`tilesolve solve BOARD --backend ga --preset paper`) is the "
        "thesis's algorithm, any piece on any cell in any turn; the columns and studies "
        "marked \"frame kept\" ran with `--layout frame`, the reading before the "
        "screenshots' last status lines showed frame pieces turning (see the notes); "
        "`--repair thesis` adds its deadlock tagging and repairs (sections 4.8-4.9, stated "
        "in words only: our reading is in the notes below), and `--deadlock 100` its third "
        "repair, \"to remove the deadlocks\", read as the Scramble (4.5.8) of a population "
        "stuck for 100 generations (columns \"paper + deadlock repair\"); `--preset tuned` "
        "(the GA's default) lists its "
        "differences from the paper under \"The presets\" below.",
        "",
    ]
    text += table9_page(rows, out) + [""] + equal_page(rows) + [""] + studies_page(rows, out)
    text += ["", "## The presets", "", "As `tilesolve solve --help` lists them:", "", "```",
             rp.describe_presets(tilesolve.presets("edgematch")), "```"]
    notes = NOTES
    if notes.exists():
        text += ["", notes.read_text().strip()]
    (out / "niang.md").write_text("\n".join(text) + "\n")


def main() -> None:
    ap = rp.parser(__doc__.split("\n\n")[0], runs=10)
    ap.add_argument("--study-runs", type=int, default=3, help="runs per parameter study")
    ap.add_argument("--columns", default=None, help="Table 9: comma list of columns to run ("
                    + ", ".join([*GA_COLUMNS, *EXACT]) + "; default all)")
    ap.add_argument("--rows", default=None, help="Table 9: comma list of boards to run ("
                    + ", ".join(_row_name(b) for b in BOARDS) + "; default all)")
    a = ap.parse_args()
    out = Path(a.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    csv_path = out / "niang.csv"
    tables = set(a.tables.split(",")) if a.tables else {"table9", "equal", "studies"}
    columns = set(a.columns.split(",")) if a.columns else None
    rows = {r for r in BOARDS if _row_name(r) in a.rows.split(",")} if a.rows else None
    runs = (table9_runs(a.runs, columns, rows) if "table9" in tables else []) + \
        (equal_runs(a.runs, rows) if "equal" in tables else []) + \
        (study_runs(a.study_runs) if "studies" in tables else [])
    if not a.report_only:
        todo = rp.pending(runs, csv_path)
        rp.announce(todo, csv_path, a.jobs)
        rp.run_all(runs, csv_path, a.jobs)
    write_page(rp.load_rows(csv_path), out, a.runs, a.study_runs)
    print(f"wrote {out / 'niang.md'}")


if __name__ == "__main__":
    rp.main_guard(main)
