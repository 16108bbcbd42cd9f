"""Kino & Uno, "An Integer Programming Approach to Solving Tantrix on Fixed Boards" (Algorithms
5, 2012): Tables 1-5 by formulation, on our MILP with CBC and with HiGHS, beside the paper's
figures (CPLEX 12.2, Pentium E2200), and our exact backends on the same boards; on our compact
boards and on boards shaped like the paper's (`--boards paper`), and `tilesolve solve` at
equal cost on the latter (`--cost`). The page: `--out-dir lab/reproductions --report-only`.

    .venv/bin/python lab/scripts/reproduce_kino_uno.py [--time-limit 300] [--exact-time-limit 300]
        [--sizes 5,10,...,100] [--jobs 1] [--load "1.0"] [--report-only]
        [--boards compact|paper] [--cost] [--cost-time-limit 120] [--paper-load "..."]

Formulations (`--model kino-uno`, see src/tilesolve/families/tantrix/milp_kino_uno.py):
Tables 1-2 C1-C4 with C2 (+ C5 lazily; Table 1 is its first round and loop count), Table 3
C1, C2', C3, C4 (+ C5), Table 4 the same with C6, and with C6-C9, Table 5 with C6-C9. Each
runs on the compact boards instances/tantrix_challenge_n.txt, sizes ascending; a formulation
and solver stop at the first size they do not solve in the time limit. The exact backends
(CP-SAT, CNF, our MILP) run every size up to 100. One run per cell, as in the paper; single
thread. Runs are kept in kino_uno.csv (resumable), into --out-dir: out/reproductions by
default, which git ignores; the published page: --out-dir lab/reproductions.
"""

from __future__ import annotations

import sys
from pathlib import Path

import kino_uno_paper as shaped
from experiment import Run, load_rows, main_guard, markdown_table, parser, run_all

ROOT = Path(__file__).resolve().parents[2]
SIZES = (5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60)
LARGE = (70, 80, 90, 100)
SOLVERS = ("cbc", "highs")
FORMULATIONS = {  # name -> (paper's tables, constraints, backend options)
    "C1-C4 + C5": ("1, 2", "C1, C2, C3, C4; C5 lazily", "c2=c2:c6=off:c7_c9=off"),
    "C2'": ("3", "C1, C2', C3, C4; C5 lazily", "c2=c2prime:c6=off:c7_c9=off"),
    "C2' + C6": ("4", "C1, C2', C3, C4, C6; C5 lazily", "c2=c2prime:c6=on:c7_c9=off"),
    "C2' + C6-C9": ("4, 5", "C1, C2', C3, C4, C6, C7, C8, C9; C5 lazily",
                    "c2=c2prime:c6=on:c7_c9=on"),
}
EXACT = {"CP-SAT": "cpsat", "CNF (CaDiCaL)": "sat", "CNF without C7-C9": "sat:c7_c9=off",
         "MILP ours (HiGHS)": "milp"}
# The paper's figures: challenge -> (total seconds, iterations = rounds, loops in round 0)
PAPER = {
    "C1-C4 + C5": {5: (0.02, 1, 1), 10: (0.06, 1, 1), 15: (0.27, 1, 1), 20: (2.84, 2, 2),
                   25: (4.52, 3, 2), 30: (98.88, 1, 1), 35: (13684.78, 2, 2)},
    "C2'": {25: (0.86, 2, None), 30: (9.67, 1, None), 35: (1448.99, 7, None)},
    "C2' + C6": {30: (1.86, 1, None), 35: (182.11, 4, None), 40: (1161.43, 15, None)},
    "C2' + C6-C9": {40: (39.08, 2, None), 45: (8945.70, 1, None), 50: (1820.90, 6, None),
                    55: (23785.33, 1, None), 60: (6713.25, 5, None)},
}
PAPER_ROUND0 = {"C1-C4 + C5": {20: 2.23, 25: 2.28, 35: 12944.06}}


def board(n: int, kind: str = "compact") -> str:
    return str(shaped.board(n, kind))


def formulation_run(name: str, solver: str, n: int, limit: float, kind: str = "compact"
                    ) -> Run:
    spec = f"milp:model=kino-uno:{FORMULATIONS[name][2]}:solver={solver}"
    return Run("formulations", name, f"{solver} {n}", board(n, kind), spec, 0,
               time_limit=limit)


def exact_run(label: str, n: int, limit: float, kind: str = "compact") -> Run:
    return Run("exact", label, str(n), board(n, kind), EXACT[label], 0, time_limit=limit)


GOALS = ((60, 30), (100, 300))  # challenge, seconds: the targets for the best backend
GOAL_BACKENDS = {"CP-SAT": "cpsat", "CNF (CaDiCaL)": "sat"}


def goal_run(label: str, n: int) -> Run:
    """The goal sizes on both cores (CP-SAT: two workers; CNF: the lazy loop as always)."""
    return Run("goals", label, str(n), board(n), GOAL_BACKENDS[label], 0, time_limit=300,
               threads=2)


def run_ladders(args, csv: Path) -> None:
    """Sizes ascending; a (formulation, solver) pair drops out after its first unsolved size."""
    alive = {(f, s) for f in FORMULATIONS for s in SOLVERS}
    exact_alive = set(EXACT)
    kind = args.boards
    sizes = [int(v) for v in args.sizes.split(",") if v and Path(board(int(v), kind)).exists()]
    for n in sizes:
        runs = [formulation_run(f, s, n, args.time_limit, kind) for f, s in sorted(alive)]
        runs += [exact_run(e, n, args.exact_time_limit, kind) for e in sorted(exact_alive)]
        rows = run_all(runs, csv, jobs=args.jobs, retry_timeouts=args.retry_timeouts)
        by_key = {r["key"]: r for r in rows}
        alive = {(f, s) for f, s in alive if by_key[formulation_run(f, s, n, 0).key]["solved"]}
        exact_alive = {e for e in exact_alive if by_key[exact_run(e, n, 0).key]["solved"]}
        write_page(args)
    if kind == "compact":
        run_all([goal_run(b, n) for n, _ in GOALS for b in GOAL_BACKENDS], csv, jobs=1)
        write_page(args)


def _cell(row: dict | None) -> str:
    if row is None:
        return ""
    st = row["stats"]
    if not row["solved"]:
        limit = row["stats"].get("time_limit")
        return (f"{row['status']} ({limit:.0f} s limit)" if limit else
                f"{row['status']} ({row['seconds']:.0f} s wall)")
    rounds = st.get("rounds", "")
    text = f"{row['cpu_seconds'] or 0:.2f} / {row['seconds']:.2f}"
    return f"{text} ({rounds})" if rounds else text


def _round0(row: dict | None) -> str:
    if row is None or not row["stats"].get("round_seconds"):
        return ""
    st = row["stats"]
    loops = st.get("loops") or [""]
    return f"{st['round_seconds'][0]:.2f} / {loops[0]}"


def _paper(name: str, n: int) -> str:
    fig = PAPER.get(name, {}).get(n)
    return "" if fig is None else f"{fig[0]:,.2f} ({fig[1]})"


def formulation_table(name: str, rows: dict, sizes: list[int]) -> str:
    heads = ["n", "paper (CPLEX): s (solves)", "CBC: CPU / wall s (solves)", "CBC cuts",
             "HiGHS: CPU / wall s (solves)", "HiGHS cuts", "HiGHS wall s per solve"]
    if name == "C1-C4 + C5":
        heads[2:2] = ["paper solve 1: s / loops", "CBC solve 1: wall s / loops"]
    body = []
    for n in sizes:
        cbc = rows.get(formulation_run(name, "cbc", n, 0).key)
        hig = rows.get(formulation_run(name, "highs", n, 0).key)
        if cbc is None and hig is None and n not in PAPER.get(name, {}):
            continue
        per_round = ", ".join(f"{s:.1f}" for s in (hig or {}).get("stats", {}).get(
            "round_seconds", [])[:12]) if hig else ""
        line = [str(n), _paper(name, n), _cell(cbc), _cuts(cbc), _cell(hig), _cuts(hig),
                per_round]
        if name == "C1-C4 + C5":
            p0 = PAPER_ROUND0[name].get(n) or PAPER[name].get(n, (None,))[0]
            loops = PAPER[name].get(n, (None, None, None))[2]
            line[2:2] = ["" if p0 is None else f"{p0:,.2f} / {loops}", _round0(cbc)]
        body.append(line)
    return markdown_table(heads, body)


def _cuts(row: dict | None) -> str:
    return "" if row is None else str(row["stats"].get("cuts", ""))


def exact_table(rows: dict, sizes: list[int]) -> str:
    heads = ["n", *(f"{e}: CPU / wall s" for e in EXACT)]
    body = [[str(n), *(_cell(rows.get(exact_run(e, n, 0).key)) for e in EXACT)]
            for n in sizes]
    return markdown_table(heads, body)


def csv_path(out_dir: str, kind: str) -> Path:
    return Path(out_dir) / ("kino_uno.csv" if kind == "compact" else "kino_uno_paper.csv")


def _sizes(rows: list[dict]) -> list[int]:
    return sorted({int(Path(r["instance"]).stem.rsplit("_", 1)[1]) for r in rows})


def write_page(args) -> None:
    rows = load_rows(csv_path(args.out_dir, "compact"))
    by_key = {r["key"]: r for r in rows}
    sizes = sorted(set(_sizes(rows)) | set(SIZES))
    cpu = sum(r["cpu_seconds"] or 0 for r in rows)
    parts = [HEADER.format(runs=len(rows), cpu=cpu / 3600, load=args.load,
                           limits=limits_text(rows))]
    parts += ladder_sections(by_key, sizes, "")
    parts.append(reach_text(by_key, sizes))
    out = Path(args.out_dir) / "kino_uno.md"
    out.write_text("\n".join(parts) + NOTES + paper_section(args))


def ladder_sections(by_key: dict, sizes: list[int], where: str) -> list[str]:
    """The four formulation tables and the exact backends' table (`where`: a heading tail)."""
    parts = []
    for name, (tables, cons, _spec) in FORMULATIONS.items():
        word = "Tables" if "," in tables else "Table"
        parts.append(f"## {word} {tables}{where}: {cons}\n\n`--model kino-uno "
                     f"--{_flags(name)}`\n\n" + formulation_table(name, by_key, sizes) + "\n")
    parts.append(EXACT_TEXT.replace("same boards", f"same boards{where}")
                 + exact_table(by_key, sizes) + "\n")
    return parts


def reach_text(rows: dict, sizes: list[int], goals: bool = True) -> str:
    """The largest challenge each formulation and solver solved, and the goals at 60 and 100."""
    lines = ["## How far each goes" + ("" if goals else " (paper-shaped boards)") + "\n"]
    for name in FORMULATIONS:
        for solver in SOLVERS:
            ran = [(n, r) for n in sizes if (r := rows.get(formulation_run(name, solver, n,
                                                                            0).key))]
            done = [n for n, r in ran if r["solved"]]
            end = ""
            if ran and ran[-1][1]["solved"] and ran[-1][0] < max(sizes):
                end = " (larger sizes not run: the ladder was stopped there)"
            elif ran and ran[-1][1]["solved"]:
                end = " (the largest board)"
            elif ran and not ran[-1][1]["solved"]:
                end = f" (n = {ran[-1][0]}: {_cell(ran[-1][1])})"
            lines.append(f"- {name}, {solver}: largest solved n = {max(done, default='-')}{end}")
    for n, goal in GOALS if goals else ():
        best = [(r["seconds"], r["cpu_seconds"], b) for b in GOAL_BACKENDS
                if (r := rows.get(goal_run(b, n).key)) and r["solved"]]
        if best:
            wall, cpu, b = min(best)
            verdict = "met" if wall < goal else "not met"
            lines.append(f"- challenge {n} (goal: under {goal} s), two threads: best {b}, "
                         f"{wall:.1f} s wall, {cpu:.1f} s CPU ({verdict})")
        else:
            lines.append(f"- challenge {n} (goal: under {goal} s): not solved in 300 s")
    return "\n".join(lines) + "\n"


def paper_section(args) -> str:
    """The ladder on the paper-shaped boards, what the shape changes, and the equal-cost
    table."""
    rows = load_rows(csv_path(args.out_dir, "paper"))
    by_key = {r["key"]: r for r in rows}
    compact = {r["key"]: r for r in load_rows(csv_path(args.out_dir, "compact"))}
    sizes = shaped.paper_sizes()
    cpu = sum(r["cpu_seconds"] or 0 for r in rows)
    cost = shaped.load_cost(shaped.cost_csv(args.out_dir))
    cost_cpu = sum(float(r["cpu_seconds"]) for r in cost.values())
    parts = [PAPER_TEXT.format(runs=len(rows), cpu=cpu / 60, load=args.paper_load,
                               limits=limits_text(rows), shapes=shaped.shape_table(sizes))]
    parts += ladder_sections(by_key, sizes, " (paper-shaped boards)")
    parts.append(reach_text(by_key, sizes, goals=False))
    parts.append(C6_TEXT + shaped.c6_table(
        compact, by_key, sizes, lambda f, n: formulation_run(f, "highs", n, 0).key) + "\n")
    parts.append(COST_TEXT.format(runs=len(cost), cpu=cost_cpu / 60)
                 + shaped.cost_table(cost) + "\n")
    return "\n".join(parts)


def _flags(name: str) -> str:
    return " --".join(o.replace("=", " ").replace("c7_c9", "c7-c9")
                      for o in FORMULATIONS[name][2].split(":"))


HEADER = """# Kino & Uno: Tantrix on fixed boards, Tables 1-5

Written by `lab/scripts/reproduce_kino_uno.py` from `kino_uno.csv` ({runs} runs, {cpu:.1f} CPU
hours), `kino_uno_paper.csv` and `kino_uno_cost.csv`; `.venv/bin/python
lab/scripts/reproduce_kino_uno.py --out-dir lab/reproductions --report-only` writes it
again. Challenge n: the 10 Discovery tiles, tile i used ceil((n + 1 - i) / 10) times, one
loop in the colour of the lowest digit of n on the Discovery box (challenge 20 is blue); the
boards are `instances/tantrix_challenge_n.txt`, compact shapes (`scripts/make_tantrix_
instances.py`), exactly one place per tile, as in the paper. The paper's boards are not
published, so ours differ in shape (boards shaped like the paper's: the second part of this
page); its figures are CPLEX 12.2 on a 2.2 GHz Pentium E2200.

Each cell: CPU / wall seconds (solves, counting the first; the paper numbers its iterations
from 0) of one run, single thread. Time limits are wall-clock seconds per run:
`--time-limit` for a paper formulation, `--exact-time-limit` for our default models (300 s
each by default); the goal runs (challenges 60 and 100, two threads) get 300 s; a timeout
cell gives the limit it ran under.
{limits}
Load average of the machine (2 cores): {load}; where other work shared it, wall seconds are
several times the CPU seconds, so compare CPU seconds.
A (formulation, solver) pair is not run at sizes after the first it did not solve
(`--retry-timeouts` runs a timeout again when the limit given is larger). Every solution is
verified by the Tantrix checker.
"""


def limits_text(rows: list[dict]) -> str:
    """The limits the timeouts of the CSV ran under (rows from before the CSV recorded
    limits: the wall seconds at which they ended)."""
    parts = []
    for table, what in (("formulations", "paper formulations"), ("exact", "default models")):
        outs = [r for r in rows if r["table"] == table and r["status"] == "timeout"]
        limits = sorted({round(r["stats"]["time_limit"]) for r in outs
                         if r["stats"].get("time_limit")})
        walls = sorted(round(r["seconds"]) for r in outs if not r["stats"].get("time_limit"))
        got = ([f"{', '.join(map(str, limits))} s limits"] if limits else []) + (
            [f"{walls[0]}-{walls[-1]} s wall (runs from before limits were recorded)"]
            if walls else [])
        if got:
            parts.append(f"{what} {' and '.join(got)}")
    return f"Timeouts in this CSV: {'; '.join(parts)}." if parts else ""

EXACT_TEXT = """## Our exact backends on the same boards

The default models: CP-SAT (`add_circuit`, no lazy rounds), CNF with lazy subloop clauses,
our MILP (C3 and C6 folded into the placements, C7-C9 as short-cycle rows, restarts; HiGHS).
(The search backend places tiles on free shapes only.) Seconds (lazy rounds).

"""

PAPER_TEXT = """
# The same ladder on paper-shaped boards

The paper's boards are shapes people had cleared, not published; its text fixes three things
about them: no hole; places with only two neighbours, which touch each other (Figure 11:
only a tile with a 120-degree designated line fits there, which is C6); and, for official
records, the condition of its footnote (along the two axes other than the longest row's,
more than 75% of the rows hold more than 30% of that row's tiles). The paper-shaped boards
`instances/tantrix_challenge_paper_n.txt` (`scripts/make_tantrix_instances.py --paper-shape`)
are solutions CP-SAT found (one worker, seed 1 + n, a deterministic budget) on a region of
2 n cells (the compact boards: 4 n / 3) with at least ceil(n / 5) two-neighbour places, all
of Figure 11's kind: about the most a red challenge allows, as only tiles 2 and 3, a fifth of
the tiles, have a 120-degree red line. CP-SAT on the whole region found no loop at 35 and 40
in its budget, so 35 and 40-60 grew from the board of n - 10: the tiles within three cells
of a place next to its loop freed and refilled with ten more, the shape rule holding on the
whole board. Their shape beside the compact boards':

{shapes}

{runs} runs ({cpu:.1f} CPU minutes), `kino_uno_paper.csv`; load average during them: {load}.
Run with `--boards paper`, as the compact set: same formulations, solvers and drop-out rule,
the limits below.
{limits}
"""

C6_TEXT = """## What the shape changes: C6 and C7-C9 with HiGHS

HiGHS CPU seconds (solves) of C2', C2' + C6 and C2' + C6-C9 on each board set; in the paper
C6 cut challenge 30 from 9.67 to 1.86 s and 35 from 1,449 to 182 s (Tables 3 and 4), and
C7-C9 cut 40 from 1,161 to 39 s.

"""

COST_TEXT = """## At equal cost: `tilesolve solve` against the paper's CPLEX seconds

`tilesolve solve instances/tantrix_challenge_paper_n.txt --threads 1 -t LIMIT --json` (the
default backend, CP-SAT, one thread), one run per board, timed as a whole process: the CPU
seconds are the ended child's user + system time (Python start-up, reading, model, solve and
the check all count). The paper's column is its fastest total for that challenge number over
Tables 1-5 (CPLEX 12.2, 2.2 GHz Pentium E2200, its own boards). {runs} runs, {cpu:.1f} CPU
minutes, `kino_uno_cost.csv`; run with `--cost`.

"""

NOTES = """
## Reading the tables

- Solves count every MILP solve: the paper's iterations 0..k are k + 1 solves.
- Table 1 is the first round of the C2 formulation: its time and the number of designated
  loops on that first board (more than 1: subloops, which C5 then cuts).

## Why our figures differ from the paper's

- The solver and the machine: CPLEX 12.2 on a 2.2 GHz Pentium E2200 against CBC and HiGHS
  on one core of this machine. HiGHS goes further than CBC on every formulation (see "How
  far each goes"); with C2' it solves challenge 60 in about 3 CPU minutes where the paper
  reports 6,713 s for C6-C9 and no C2' run past 35. Boards and solvers both differ, so
  which of the two makes HiGHS faster here cannot be told apart.
- The boards: the paper's are shapes people had solved, not published; ours are compact
  shapes found by CP-SAT. A compact board has few places with only two neighbours, so C6
  fixes little on it (it mattered on the paper's boards: Table 4 against Table 3); here
  C2' with and without C6 take about the same time at n = 50-60.
- The rows are the paper's: C5 for every cut a round's subloops leave uncrossed, and the
  paper's placeholder objective x[1, 1, 1].
- C2 (one variable per tile copy) has 6 n^2 placements and interchangeable copies of each
  tile; it is the slowest form here too, as in the paper (Table 1 against Table 3).
- A pair is not run past the first size it does not solve within its limit. The paper ran
  each formulation until it grew too slow (C2 and C2' to 35, C2' + C6 to 40, C6-C9 to 60);
  its times from n = 45 on (1,821-23,785 s a cell) are 3-40 times our 600 s limit.
- Where the machine was shared (the first pass), wall times are several times the CPU
  times; CPU seconds are the fairer comparison.
- HiGHS does not look at its time limit, nor call back, while it separates cuts at the root
  node: our MILP ran 683 s under a 600 s limit at n = 90, and at n = 100 it was still in the
  root's mod-k separation after 20 minutes and was stopped by hand (no row; the cell is
  empty).
"""


# the load the committed kino_uno.csv ran under, so that --report-only writes the page again
COMPACT_LOAD = ("4-20 during the first pass (120 s limits; 300 s from n = 60 for the default "
                "models); 1.2-2.8 during the retries at 600 s (two at a time, other work only "
                "in a background CPU group that gets the idle cycles)")


# the load the committed kino_uno_paper.csv ran under (1-minute averages of `uptime` every 30 s)
PAPER_LOAD = ("not recorded for 5-35 (30 and 35 rerun on a quiet machine); 1.0-2.0 for 40-60 "
              "(a shared machine: other work ran beside them at the start; these runs in a "
              "background CPU group, CPU seconds 82-100% of wall)")


def main() -> None:
    ap = parser(__doc__.splitlines()[0], runs=1)
    ap.add_argument("--time-limit", type=float, default=300.0, help="seconds per run")
    ap.add_argument("--sizes", default=",".join(map(str, (*SIZES, *LARGE))))
    ap.add_argument("--exact-time-limit", type=float, default=300.0,
                    help="seconds per run of the exact backends' default models")
    ap.add_argument("--retry-timeouts", action="store_true",
                    help="run again every timeout of the CSV that had a smaller limit than "
                         "the one now given (its new row replaces the old)")
    ap.add_argument("--load", default=COMPACT_LOAD,
                    help="the machine's load average during the runs, for the page")
    ap.add_argument("--boards", choices=("compact", "paper"), default="compact",
                    help="compact: tantrix_challenge_n.txt (kino_uno.csv); paper: the "
                         "paper-shaped tantrix_challenge_paper_n.txt (kino_uno_paper.csv)")
    ap.add_argument("--cost", action="store_true",
                    help="only the equal-cost runs: one whole `tilesolve solve` process per "
                         "paper-shaped board (kino_uno_cost.csv)")
    ap.add_argument("--cost-time-limit", type=float, default=120.0)
    ap.add_argument("--paper-load", default=PAPER_LOAD,
                    help="the load average during the paper-shaped boards' runs")
    args = ap.parse_args()
    Path(args.out_dir).mkdir(parents=True, exist_ok=True)
    if args.cost:
        shaped.run_cost(shaped.paper_sizes(), args.cost_time_limit,
                        shaped.cost_csv(args.out_dir))
    elif not args.report_only:
        run_ladders(args, csv_path(args.out_dir, args.boards))
    write_page(args)
    print(f"wrote {Path(args.out_dir) / 'kino_uno.md'}", file=sys.stderr)


if __name__ == "__main__":
    main_guard(main)
