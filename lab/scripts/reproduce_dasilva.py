"""da Silva & de Magalhaes (CBIC 2017), Tables 1-6: the Hidato GA with RTS, with RTS and CBGI,
and with CBGI but no RTS (binary tournament, replace the worst), 30 runs of at most 2e5
evaluations each, beside our GA with the paper preset, our tuned preset and the exact
backends (CP-SAT, SAT; one run each) on the same boards.

The paper's 21 boards are not printed in it (only their sizes and numbers of givens), so each
of its problems is paired with one of our generated boards of the same size: within a class,
both lists are sorted by number of givens (ties: problem number, file name) and matched in
that order.

    python lab/scripts/reproduce_dasilva.py --runs 5 --jobs 2      # a first complete page
    python lab/scripts/reproduce_dasilva.py                        # 30 runs, resumes the CSV
    python lab/scripts/reproduce_dasilva.py --report-only          # rewrite the page from the CSV

Writes dasilva.csv (one row per finished run), dasilva.md (the tables, with the written
analysis of dasilva_notes.md) and the plots (into --out-dir: out/reproductions by default, which git
ignores; the published page: --out-dir lab/reproductions).
"""

from __future__ import annotations

import os
import statistics
import subprocess
from pathlib import Path

import experiment as rp

import tilesolve

ROOT = Path(__file__).resolve().parents[2]
NOTES = ROOT / "lab" / "reproductions" / "dasilva_notes.md"  # the written analysis
BUDGET = 200_000  # fitness evaluations per run (Section 3)
EXACT_SECONDS = 60.0

# givens per problem, and Tables 1-6 of the paper's text (Section 3): table, problem, best
# fitness, average best fitness, sd, average evaluations to the best, sd, success rate
GIVENS = {1: 7, 2: 8, 3: 7, 4: 6, 5: 8, 6: 7, 7: 7, 8: 7, 9: 7, 10: 8,
          11: 12, 12: 11, 13: 13, 14: 11, 15: 9, 16: 9, 17: 10, 18: 11, 19: 9, 20: 12, 21: 10}
PAPER = """
1  1  36  36.00  0.00  6728.07  1600.58  1.00
1  2  36  36.00  0.00  4626.67  1012.95  1.00
1  3  36  36.00  0.00  8990.13  2583.16  1.00
1  4  36  36.00  0.00  19549.20  13161.44  1.00
1  5  36  36.00  0.00  4898.13  1300.68  1.00
1  6  36  36.00  0.00  8771.80  2126.81  1.00
1  7  36  36.00  0.00  6284.13  1842.03  1.00
1  8  36  36.00  0.00  8004.20  1927.22  1.00
1  9  36  36.00  0.00  7841.07  2492.01  1.00
1 10  36  36.00  0.00  4458.73  1679.17  1.00
2 11  72  71.60  0.81  78498.20  23461.47  0.80
2 12  72  70.60  1.83  94339.00  39673.09  0.60
2 13  72  72.00  0.00  48389.20  6871.02  1.00
2 14  72  69.80  1.32  93993.13  31468.55  0.17
2 15  72  68.53  1.66  134916.33  28188.26  0.03
2 16  72  68.67  1.69  140021.33  28992.19  0.03
2 17  72  70.80  1.24  102235.80  30075.19  0.47
2 18  72  70.13  0.51  84031.67  18814.75  0.07
2 19  72  67.33  2.06  150680.13  28936.90  0.03
2 20  72  71.93  0.37  46169.40  9177.76  0.97
2 21  72  71.47  1.04  78580.47  15773.78  0.77
3  1  36  36.00  0.00  6914.60  1637.27  1.00
3  2  36  36.00  0.00  4368.67  1202.92  1.00
3  3  36  36.00  0.00  8176.93  2898.01  1.00
3  4  36  36.00  0.00  16811.07  10453.98  1.00
3  5  36  36.00  0.00  4754.73  1461.79  1.00
3  6  36  36.00  0.00  9156.93  2757.87  1.00
3  7  36  36.00  0.00  6343.33  1550.25  1.00
3  8  36  36.00  0.00  7018.67  2281.46  1.00
3  9  36  36.00  0.00  7864.73  2388.08  1.00
3 10  36  36.00  0.00  4396.40  1355.34  1.00
4 11  72  71.93  0.37  78173.47  23525.59  0.97
4 12  72  70.13  2.03  84586.60  21264.76  0.53
4 13  72  71.93  0.37  47842.33  5929.11  0.97
4 14  72  70.00  1.49  96046.20  32206.56  0.27
4 15  72  69.07  1.55  145073.33  33799.58  0.07
4 16  72  69.27  1.23  124719.00  19956.63  0.03
4 17  72  70.80  1.13  87628.47  13251.76  0.43
4 18  72  70.27  0.69  80048.73  15193.18  0.13
4 19  72  68.53  2.16  138049.33  24089.08  0.13
4 20  72  71.47  0.90  44107.53  9508.78  0.73
4 21  72  71.60  0.97  74137.13  13698.76  0.83
5  1  36  35.07  1.14  1818.47  518.19  0.57
5  2  36  35.80  0.61  1374.27  298.78  0.90
5  3  36  34.60  1.50  7646.53  18150.42  0.47
5  4  36  32.73  2.00  4191.13  7366.29  0.23
5  5  36  35.87  0.51  1394.20  341.57  0.93
5  6  36  35.53  1.14  4421.53  7575.71  0.83
5  7  36  35.53  1.14  1895.13  596.72  0.83
5  8  36  35.40  0.93  2048.67  401.97  0.70
5  9  36  35.00  1.72  3361.20  7127.55  0.73
5 10  36  35.60  1.22  2004.40  3152.68  0.87
6 11  68  62.20  3.65  21983.80  36841.56  0.00
6 12  64  60.93  2.61  15769.87  14025.78  0.00
6 13  70  62.27  3.81  15763.60  24061.69  0.00
6 14  70  62.20  4.08  15180.93  21451.34  0.00
6 15  66  58.13  3.36  12808.20  16630.51  0.00
6 16  64  58.73  2.49  33452.67  49899.87  0.00
6 17  68  61.33  3.46  16482.93  21146.48  0.00
6 18  70  62.27  3.67  16412.40  22317.50  0.00
6 19  62  57.80  2.25  15717.07  17662.78  0.00
6 20  70  64.33  3.33  15056.60  13788.24  0.00
6 21  70  61.20  3.81  23244.27  27569.69  0.00
"""
# table -> (title, class, the variant's backend options)
TABLES = {
    "1": ("Class 1 (19 cells), RTS, no CBGI", 1, "cbgi=off"),
    "2": ("Class 2 (37 cells), RTS, no CBGI", 2, "cbgi=off"),
    "3": ("Class 1 (19 cells), RTS and CBGI", 1, ""),
    "4": ("Class 2 (37 cells), RTS and CBGI", 2, ""),
    "5": ("Class 1 (19 cells), CBGI without RTS (binary tournament, replace the worst)", 1,
          "rts=off"),
    "6": ("Class 2 (37 cells), CBGI without RTS (binary tournament, replace the worst)", 2,
          "rts=off"),
}
PRESETS = ("paper", "tuned")
EXACT = ("cpsat", "sat")
CLASSES = {1: ("hidato_19_*.txt", range(1, 11)), 2: ("hidato_37_*.txt", range(11, 22))}
# the two readings the text leaves open, as the engine's options, run on Table 1's setting
# beside the paper preset (same boards, same seeds): column -> backend options
READINGS = {
    "independent": "rts_window=independent",
    "skip_copies": "skip_copy_steps=on",
    "both": "rts_window=independent:skip_copy_steps=on",
}
READING_NAMES = {"independent": "--rts-window independent",
                 "skip_copies": "--skip-copy-steps on", "both": "both"}
# where our board has one given more than the paper's: a board with the paper's number of
# givens from the same generator (unique, irreducible: no given but 1 and N can go), generator
# seed in the file; rows "9g" etc. in the CSV, the paper preset in every table of the class
PAPER_GIVENS = {9: "hidato_p09_19.txt", 11: "hidato_p11_37.txt", 18: "hidato_p18_37.txt",
                20: "hidato_p20_37.txt"}
# at equal cost: both presets (RTS and CBGI, as Tables 3 and 4) run side by side, alternating,
# EQUAL_COST_RUNS seeds per board, so that their CPU seconds per evaluation are measured with
# the same code, on the same machine, at the same time (the tables' runs are of older commits)
EQUAL_COST_RUNS = 3


def paper_rows(table: str) -> dict[int, list[float]]:
    """Problem -> (best, average best, sd, average evaluations to the best, sd, SR)."""
    rows = [line.split() for line in PAPER.split("\n") if line]
    return {int(r[1]): [float(x) for x in r[2:]] for r in rows if r[0] == table}


def givens(path: Path) -> int:
    """The number of given cells of a board, as `tilesolve info` counts them."""
    return tilesolve.load(path).info()["givens"]


def pairing() -> dict[int, Path]:
    """Paper problem -> our board of its class, matched in order of number of givens."""
    out: dict[int, Path] = {}
    for pattern, problems in CLASSES.values():
        ours = sorted((givens(p), p.name, p)
                      for p in (ROOT / "instances").glob(pattern))
        theirs = sorted((GIVENS[p], p) for p in problems)
        out.update({p: path for (_, p), (_, _, path) in zip(theirs, ours, strict=True)})
    return out


def make_runs(n_runs: int, tables: list[str], tuned_runs: int | None = None) -> list[rp.Run]:
    """The paper preset's runs first, table by table, then the tuned preset's, then the exact
    backends' (an interrupted rerun has then finished the paper's columns first)."""
    pairs = pairing()
    counts = {"paper": n_runs, "tuned": n_runs if tuned_runs is None else tuned_runs}
    runs = []
    for preset in PRESETS:
        for t in tables:
            _, cls, variant = TABLES[t]
            for p in CLASSES[cls][1]:
                spec = ":".join(x for x in ("ga", f"preset={preset}", variant) if x)
                runs += [rp.Run(t, str(p), preset, str(pairs[p]), spec, seed,
                                max_evaluations=BUDGET) for seed in range(counts[preset])]
    for path in sorted(set(pairs.values())):
        runs += [rp.Run("exact", path.stem, b, str(path), b, 0, time_limit=EXACT_SECONDS)
                 for b in EXACT]
    return runs + extra_runs(counts["paper"], tables)


def extra_runs(n_runs: int, tables: list[str]) -> list[rp.Run]:
    """The open readings on Table 1's setting, the boards with the paper's numbers of givens in
    the tables with RTS, the tuned preset at the paper preset's cost, then those boards in
    Tables 5 and 6 (an interrupted run has the most asked-for first)."""
    runs = []
    if "1" in tables:
        pairs = pairing()
        for column, options in READINGS.items():
            runs += [rp.Run("1", str(p), column, str(pairs[p]),
                            f"ga:preset=paper:cbgi=off:{options}", seed, max_evaluations=BUDGET)
                     for p in CLASSES[1][1] for seed in range(n_runs)]
    with_rts = [t for t in tables if t not in "56"]
    runs += given_runs(n_runs, sorted(with_rts, key=lambda t: TABLES[t][1]))
    pairs = pairing()
    runs += [rp.Run("cost", str(p), preset, str(pairs[p]), f"ga:preset={preset}", seed,
                    max_evaluations=BUDGET)
             for cls in (1, 2) for p in CLASSES[cls][1]
             for seed in range(min(n_runs, EQUAL_COST_RUNS)) for preset in PRESETS]
    return runs + given_runs(n_runs, [t for t in tables if t in "56"])


def given_runs(n_runs: int, tables: list[str]) -> list[rp.Run]:
    """The paper preset on the boards with the paper's numbers of givens, in these tables."""
    runs = []
    for t in tables:
        _, cls, variant = TABLES[t]
        spec = ":".join(x for x in ("ga", "preset=paper", variant) if x)
        # seed by seed: a stopped run has the same seeds on every board
        runs += [rp.Run(t, f"{p}g", "paper", str(ROOT / "instances" / board), spec, seed,
                        max_evaluations=BUDGET) for seed in range(n_runs)
                 for p, board in PAPER_GIVENS.items() if p in CLASSES[cls][1]]
    return runs


# --- the page --------------------------------------------------------------------------------
def paper_cell(v: list[float]) -> str:
    best, mean, sd, fes, fes_sd, sr = v
    return f"{rp.fmt(best, 2)} / {mean:.2f} ± {sd:.2f} / {fes:,.0f} ± {fes_sd:,.0f} / {sr:.2f}"


def our_cell(s: dict | None) -> str:
    if s is None:
        return "-"
    return (f"{rp.fmt(s['best'])} / {rp.pm(s['mean_best'], s['sd_best'], 2)} / "
            f"{s['mean_evaluations_to_best']:,.0f} ± {s['sd_evaluations_to_best']:,.0f} / "
            f"{s['rate']:.2f} ({s['solved']}/{s['runs']})")


def exact_cell(s: dict | None) -> str:
    if s is None:
        return "-"
    return f"{'solved' if s['solved'] else 'not solved'}, {rp.fmt(s['max_seconds'], 2)} s"


def average(cells: list[dict]) -> dict | None:
    """The paper's 'average' line: the mean over problems of each column."""
    if not cells:
        return None
    keys = ("mean_best", "sd_best", "mean_evaluations_to_best", "sd_evaluations_to_best",
            "rate")
    out = {k: statistics.fmean(c[k] for c in cells) for k in keys}
    out["best"] = statistics.fmean(c["best"] for c in cells)
    out["solved"] = sum(c["solved"] for c in cells)
    out["runs"] = sum(c["runs"] for c in cells)
    return out


def table_section(t: str, summ: dict, pairs: dict[int, Path]) -> str:
    title, cls, variant = TABLES[t]
    paper = paper_rows(t)
    head = ["problem (givens)", "our board (givens)", "paper", "ours, paper preset",
            "ours, tuned preset", *EXACT]
    lines, ours = [], {pr: [] for pr in PRESETS}
    for p in CLASSES[cls][1]:
        path = pairs[p]
        cells = {pr: summ.get((t, str(p), pr)) for pr in PRESETS}
        for pr, c in cells.items():
            if c is not None:
                ours[pr].append(c)
        lines.append([f"{p} ({GIVENS[p]})", f"{path.stem} ({givens(path)})", paper_cell(paper[p]),
                      our_cell(cells["paper"]), our_cell(cells["tuned"]),
                      *[exact_cell(summ.get(("exact", path.stem, b))) for b in EXACT]])
    avg_paper = [statistics.fmean(v[i] for v in paper.values()) for i in range(6)]
    lines.append(["average", "", paper_cell(avg_paper), our_cell(average(ours["paper"])),
                  our_cell(average(ours["tuned"])), "", ""])
    spec = ":".join(x for x in ("ga", variant) if x)
    return (f"### Table {t}. {title}\n\nBackend `{spec}` (`--preset paper` is the default; "
            f"`:preset=tuned` for the tuned column).\n\n" + rp.markdown_table(head, lines))


def evals_cell(s: dict | None) -> str:
    """Mean evaluations to the best ± sd (solved/runs)."""
    if s is None:
        return "-"
    return (f"{s['mean_evaluations_to_best']:,.0f} ± {s['sd_evaluations_to_best']:,.0f} "
            f"({s['solved']}/{s['runs']})")


def readings_section(summ: dict, pairs: dict[int, Path]) -> str:
    """Table 1's setting with each open reading (engine options) beside the paper preset."""
    paper = paper_rows("1")
    columns = ("paper", *READINGS)
    head = ["problem", "our board", "paper", "ours, paper preset",
            *[f"ours, {READING_NAMES[c]}" for c in READINGS]]
    lines, ours = [], {c: [] for c in columns}
    for p in CLASSES[1][1]:
        cells = {c: summ.get(("1", str(p), c)) for c in columns}
        for c, cell in cells.items():
            if cell is not None:
                ours[c].append(cell)
        lines.append([str(p), pairs[p].stem, f"{paper[p][3]:,.0f} ± {paper[p][4]:,.0f}",
                      *[evals_cell(cells[c]) for c in columns]])
    avg = {c: average(ours[c]) for c in columns}
    theirs = statistics.fmean(v[3] for v in paper.values())
    lines.append(["average", "", f"{theirs:,.0f}", *[evals_cell(avg[c]) for c in columns]])
    if avg["paper"] is not None:
        base = avg["paper"]["mean_evaluations_to_best"]
        lines.append(["ratio to the paper preset", "", f"{theirs / base:.2f}", "1",
                      *[f"{a['mean_evaluations_to_best'] / base:.2f}"
                        if (a := avg[c]) is not None else "-" for c in READINGS]])
    return ("### Table 1 with the open readings\n\nBackend `ga:cbgi=off` plus "
            + ", ".join(f"`{READING_NAMES[c]}`" for c in READINGS if c != "both")
            + " or both; the same seeds (0-29) as the paper preset's runs. Each cell: mean "
            "evaluations to the best ± sd (solved/runs).\n\n" + rp.markdown_table(head, lines))


def givens_section(summ: dict, pairs: dict[int, Path]) -> str:
    """The four problems where our board has a given more, on a board with the paper's
    number of givens, in every table of the class (paper preset)."""
    head = ["table", "problem (givens)", "paper", "our board, one given more",
            "board with the paper's givens", "difference (evaluations, success)"]
    lines = []
    for t, (_, cls, _) in TABLES.items():
        for p, board in PAPER_GIVENS.items():
            if p not in CLASSES[cls][1]:
                continue
            old, new = summ.get((t, str(p), "paper")), summ.get((t, f"{p}g", "paper"))
            diff = "-" if old is None or new is None else (
                f"{new['mean_evaluations_to_best'] - old['mean_evaluations_to_best']:+,.0f}, "
                f"{new['rate'] - old['rate']:+.2f}")
            lines.append([t, f"{p} ({GIVENS[p]})", paper_cell(paper_rows(t)[p]),
                          f"{pairs[p].stem} ({givens(pairs[p])}): {our_cell(old)}",
                          f"{Path(board).stem} ({givens(ROOT / 'instances' / board)}): "
                          f"{our_cell(new)}", diff])
    return ("### The four problems on boards with the paper's numbers of givens\n\n"
            "Paper preset, the table's setting, seeds 0-29 on both boards. Cells as in the "
            "tables; difference: the new board's mean evaluations to the best and success "
            "rate minus our board's.\n\n" + rp.markdown_table(head, lines) + "\n\n"
            + substituted_averages(summ))


def substituted_averages(summ: dict) -> str:
    """Each table's average line as shipped and with the boards of the paper's givens in
    place of ours (every problem then has the paper's number of givens)."""
    head = ["table", "paper", "ours, paper preset", "ours, the paper's givens on every board"]
    lines = []
    for t, (_, cls, _) in TABLES.items():
        rows = [str(p) for p in CLASSES[cls][1]]
        shipped = [summ.get((t, r, "paper")) for r in rows]
        new = {r: summ.get((t, f"{r}g", "paper")) for r in rows if int(r) in PAPER_GIVENS}
        if None in shipped or None in new.values():
            continue
        swapped = [new.get(r) or summ[(t, r, "paper")] for r in rows]
        theirs = [statistics.fmean(v[i] for v in paper_rows(t).values()) for i in range(6)]
        lines.append([t, paper_cell(theirs), our_cell(average(shipped)),
                      our_cell(average(swapped))])
    return ("The average lines (means over the problems, as in the paper), with those four "
            "boards in place of ours:\n\n" + rp.markdown_table(head, lines))


def process_cpu(paths: list[Path], csv_path: Path) -> dict[str, dict]:
    """CP-SAT on each board as one command, `tilesolve solve B --backend cpsat --threads 1
    --json`: the whole process's CPU seconds (interpreter, imports, reading, model, search,
    check), one row per board in csv_path, kept across reruns."""
    import csv
    import json
    import resource
    import sys
    import time

    done = {}
    if csv_path.exists():
        done = {r["board"]: r for r in csv.DictReader(csv_path.open())}
    for path in paths:
        if path.stem in done:
            continue
        before, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "tilesolve", "solve", str(path), "--backend",
                              "cpsat", "--threads", "1", "--json"], capture_output=True,
                             text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        status = json.loads(out.stdout).get("status", "error") if out.stdout else "error"
        done[path.stem] = {"board": path.stem, "status": status, "cpu_seconds": f"{cpu:.3f}",
                           "wall_seconds": f"{time.perf_counter() - t0:.3f}"}
        with csv_path.open("w", newline="") as fh:
            w = csv.DictWriter(fh, ["board", "status", "cpu_seconds", "wall_seconds"])
            w.writeheader()
            w.writerows(done.values())
    return done


def cost_per_budget(rows: list[dict]) -> float:
    """CPU seconds the runs spent per BUDGET evaluations (their totals' ratio)."""
    return BUDGET * sum(r["cpu_seconds"] for r in rows) / sum(r["evaluations"] for r in rows)


def within(rows: list[dict], evaluations: float) -> str:
    """Runs solved within `evaluations` (their evaluations to the optimum; a run unsolved at
    BUDGET is unsolved within a larger budget too only as far as BUDGET goes)."""
    k = sum(r["solved"] and r["evaluations_to_best"] <= evaluations for r in rows)
    more = "at least " if evaluations > BUDGET and not all(r["solved"] for r in rows) else ""
    return f"{more}{k}/{len(rows)} solved ({k / len(rows):.2f})"


def equal_cost_section(rows: list[dict], pairs: dict[int, Path], process: dict) -> str:
    """The paper's budget (2e5 evaluations) in the paper preset's CPU seconds, and what the
    tuned GA and CP-SAT do within it on the same boards (RTS and CBGI: Tables 3 and 4)."""
    head = ["class (boards)", "paper, 2e5 evaluations", "paper preset, 2e5 evaluations",
            "tuned GA, the same CPU seconds", "CP-SAT (one thread)"]
    lines = []
    for t, cls in (("3", 1), ("4", 2)):
        boards = {str(p) for p in CLASSES[cls][1]}
        cost = {pr: [r for r in rows if r["table"] == "cost" and r["column"] == pr
                     and r["row"] in boards] for pr in PRESETS}
        table = {pr: [r for r in rows if r["table"] == t and r["column"] == pr
                      and r["row"].isdigit()] for pr in PRESETS}
        if not all(cost.values()) or not all(table.values()):
            continue
        budget = cost_per_budget(cost["paper"])  # CPU seconds of 2e5 paper evaluations
        same = BUDGET * budget / cost_per_budget(cost["tuned"])  # tuned evaluations in it
        stems = {pairs[int(p)].stem for p in boards}
        exact = [r for r in rows if r["table"] == "exact" and r["column"] == "cpsat"
                 and r["row"] in stems]
        whole = [float(process[s]["cpu_seconds"]) for s in stems if s in process]
        cpsat = (f"{sum(r['solved'] for r in exact)}/{len(exact)} solved, at most "
                 f"{max(r['cpu_seconds'] for r in exact):.2f} CPU s in the run")
        if whole:
            cpsat += f", {max(whole):.1f} s for the whole command"
        rate = statistics.fmean(v[5] for v in paper_rows(t).values())
        lines.append([f"{cls} ({len(boards)})", f"success {rate:.2f}",
                      f"{budget:.1f} CPU s: {within(table['paper'], BUDGET)}",
                      f"{same:,.0f} evaluations: {within(table['tuned'], same)}", cpsat])
    return ("## At equal cost: the paper's budget in our CPU seconds\n\n"
            "The paper's budget, 2e5 evaluations, in CPU seconds of the paper preset (RTS "
            "and CBGI, as in Tables 3 and 4), and what the tuned preset (binary tournaments, "
            "swap rate 0.5, RTS and CBGI) and CP-SAT solve within those seconds on the same "
            "boards. The two presets' CPU seconds per evaluation are measured side by side "
            f"(rows `cost` of the CSV: {EQUAL_COST_RUNS} seeds per board and preset, "
            "alternating, current code); the successes are those of Tables 3 and 4 (30 runs "
            "per board, each run's count of evaluations is fixed by its seed), the tuned runs "
            "counted as solved when their evaluations to the optimum fit the translated "
            "budget. Every evaluation counts (the initial population and CBGI's "
            "re-evaluations included); a run's CPU seconds include reading the board and "
            "checking the answer, CP-SAT's its model building and search threads, and "
            "'whole command' is `tilesolve solve BOARD --backend cpsat --threads 1` measured "
            "as a process, interpreter start and imports included (`dasilva_process.csv`)."
            "\n\n" + rp.markdown_table(head, lines))


def machine() -> str:
    load = os.getloadavg()
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = "?"
    return f"commit {commit}, {os.cpu_count()} cores, load average {load[0]:.1f} when written"


def plots(rows: list[dict], out_dir: Path) -> list[str]:
    """Fitness progression and success against budget, per class and variant (paper preset),
    pooled over the problems of the class."""
    names = []
    for t, (title, _, _) in TABLES.items():
        # the shipped boards only (rows "9g"... are other boards); the readings by their options
        rs = [dict(r, variant=READING_NAMES.get(r["column"], f"{r['column']} preset"))
              for r in rows if r["table"] == t and r["row"].isdigit()]
        if not rs:
            continue
        curves, success = f"dasilva_table{t}_curves.png", f"dasilva_table{t}_success.png"
        target = 36.0 if TABLES[t][1] == 1 else 72.0
        rp.plot_curves(rs, out_dir / curves, f"Table {t}: {title}", by=("variant",),
                       target=target)
        rp.plot_success_vs_budget(rs, out_dir / success, f"Table {t}: {title}",
                                  budget_key="evaluations", by=("variant",))
        names.append(f"Table {t}: ![fitness per generation]({curves}) "
                     f"![success against evaluations]({success})")
    return names


def write_page(rows: list[dict], out_dir: Path, n_runs: int, process: dict) -> Path:
    summ = {(s["table"], s["row"], s["column"]): s for s in rp.summary(rows)}
    pairs = pairing()
    ga_rows = [r for r in rows if r["table"] != "exact"]
    counts = sorted({s["runs"] for k, s in summ.items() if k[0] not in ("exact", "cost")})
    cpu = sum(r.get("cpu_seconds") or 0.0 for r in rows)
    notes = NOTES  # the written analysis, kept in the repository whatever --out-dir is
    parts = [
        "# da Silva & de Magalhaes 2017 (Beehive Hidato GA): Tables 1-6 reproduced",
        "",
        f"Runs per cell: {', '.join(map(str, counts)) or '-'} (the paper: 30; requested "
        f"{n_runs}); budget {BUDGET:,} evaluations per run; {len(ga_rows)} GA runs and "
        f"{len(rows) - len(ga_rows)} exact runs, {cpu / 3600:.2f} CPU hours in all "
        f"({machine()}).",
        "",
        "Written from `dasilva.csv` (and `dasilva_process.csv`) by `python "
        "lab/scripts/reproduce_dasilva.py --out-dir lab/reproductions` (resumes the CSVs; "
        "`--report-only` rewrites the page without running anything).",
        "",
        "Each cell is: best fitness / mean best fitness ± sd / mean evaluations to the best "
        "± sd / success rate (solved/runs), as in the paper's tables. The exact columns give "
        f"one run of CP-SAT and of the SAT backend (one thread, {EXACT_SECONDS:g} s limit): "
        "wall seconds including model building.",
        "",
        equal_cost_section(rows, pairs, process),
        "",
        notes.read_text() if notes.exists() else "",
    ]
    for t in TABLES:
        parts += [table_section(t, summ, pairs), ""]
        if t == "1":
            parts += [readings_section(summ, pairs), ""]
    parts += [givens_section(summ, pairs), ""]
    parts += ["## Plots", "", "Pooled over the problems of each table; solid: best fitness, "
              "dashed: population mean, per generation (250 evaluations).", ""]
    parts += [line + "\n" for line in plots(rows, out_dir)]
    page = out_dir / "dasilva.md"
    page.write_text("\n".join(parts).rstrip() + "\n")
    return page


def main() -> None:
    ap = rp.parser(__doc__.splitlines()[0], runs=30)
    args = ap.parse_args()
    out_dir = ROOT / args.out_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    csv_path = out_dir / "dasilva.csv"
    tables = args.tables.split(",") if args.tables else list(TABLES)
    rows = rp.load_rows(csv_path)
    if not args.report_only:
        runs = make_runs(args.runs, tables, args.tuned_runs)
        rp.announce(rp.pending(runs, csv_path), csv_path, args.jobs)
        rows = rp.run_all(runs, csv_path, args.jobs)
    boards = sorted(set(pairing().values()))
    process_csv = out_dir / "dasilva_process.csv"
    process = process_cpu(boards, process_csv) if not args.report_only else \
        process_cpu([], process_csv)
    print(write_page(rows, out_dir, args.runs, process))


if __name__ == "__main__":
    rp.main_guard(main)
