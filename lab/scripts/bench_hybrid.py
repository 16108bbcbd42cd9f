"""GA alone, CP-SAT alone, the break search alone, LNS and the hybrid portfolio on the same
budget and seeds, for the most matched joins; a table and a score-against-time plot in
lab/pages/hybrid.md.

    python lab/scripts/bench_hybrid.py --seeds 3 -t 600          # official E2 + instances/e2_16x16
    python lab/scripts/bench_hybrid.py --instances brendan_8x8,brendan_9x9,held_out_8x8 -t 60
    python lab/scripts/bench_hybrid.py --report-only             # the page from what has run

The 16x16 boards have no known solution; Brendan Owen's hardest 8x8 and 9x9 and a generated
8x8 at the same colour counts (a seed no method was tuned on) have one, so there a run that
matches every join has solved the puzzle, and the table counts those runs.

Every run is the real command line (`tilesolve solve ... --objective matches
--progress-jsonl`), one after the other, so the scores are the checker's; each run leaves
its progress file and JSON result under lab/results/hybrid/ and a rerun skips finished runs.
CPU seconds are those of the run's whole process tree (its lanes included: this process is
their subreaper, so getrusage's children count every descendant), the machine load is noted
per run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

from experiment import planted_file

import tilesolve
from tilesolve.bench import run_together, solve_command

ROOT = Path(__file__).resolve().parents[2]
E2_DATA = ROOT.parent / "shared" / "e2_data"
HELD_OUT_SEED = 7001  # the generated board: a seed no method was tuned on
INSTANCES = {"official": E2_DATA / "e2_256.txt",
             "e2_16x16": ROOT / "instances" / "e2_16x16.txt",
             "brendan_8x8": E2_DATA / "brendan" / "pieces_08x08.txt",
             "brendan_9x9": E2_DATA / "brendan" / "pieces_09x09.txt",
             "held_out_8x8": None}  # written on first use (held_out)
# method -> (the backend as a bench spec, the cores the method may use)
METHODS = {
    "ga": ("ga", 1),
    "cpsat": ("cpsat", 1),
    "backtracker": ("search", 1),
    "lns": ("lns", 1),
    # the LNS before annealing: exact repairs only (CP-SAT windows, assignments, row search)
    "lns (exact repairs)": ("lns:anneal=off", 1),
    "hybrid (2 cores)": ("portfolio", 2),
    # the portfolio whose lanes send each other their best boards (--share on)
    "hybrid sharing boards (2 cores)": ("portfolio:share=on", 2),
    # the break search and the LNS as the two lanes, the search's boards sent to the LNS
    "hybrid search + lns sharing (2 cores)": ("portfolio:backends=search,lns:share=on", 2),
    # the default portfolio (on large boards the same two lanes, sharing by default), since
    # the break search takes the other lane's score as its bound
    "hybrid default: search bound shared (2 cores)": ("portfolio", 2),
}
# methods of several independent processes at once (process k runs seed + SEED_STEP * k); the
# run's score is the best verified one: the hybrid's two cores given to its best single method
PARALLEL = {"lns x2 (2 cores)": ["lns", "lns"],
            "backtracker x2 (2 cores)": ["backtracker", "backtracker"]}
SEED_STEP = 1000


def slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in text).strip("_")


def held_out(folder: Path) -> Path:
    """An 8x8 with a planted solution at Brendan's colour counts, from a seed not tuned on."""
    return planted_file(folder, 8, HELD_OUT_SEED)


def most_joins(path: Path) -> int:
    """The joins of the board in the file's header: matching all of them solves it."""
    inst = tilesolve.load(path).instance
    return (inst.width - 1) * inst.height + inst.width * (inst.height - 1)


def run_one(inst: str, method: str, seed: int, limit: float, out: Path) -> dict:
    """One run of `method` (all its processes at once); its row, saved for reruns."""
    stem = out / f"{inst}_{slug(method)}_s{seed}"
    done = stem.with_suffix(".json")
    if done.exists():
        return json.loads(done.read_text())
    parts = PARALLEL.get(method, [method])
    names = [stem.name if len(parts) == 1 else f"{stem.name}_p{k}" for k in range(len(parts))]
    progress = [out / f"{name}.jsonl" for name in names]
    boards = [out / f"{name}_board.txt" for name in names]  # `-o`: each process's best board
    for path in progress + boards:
        path.unlink(missing_ok=True)
    load = os.getloadavg()[0]
    ran = run_together([solve_command(INSTANCES[inst], METHODS[part][0], seed + SEED_STEP * k,
                                      limit, METHODS[part][1],
                                      ["--objective", "matches", "--progress-jsonl",
                                       str(progress[k]), "-o", str(boards[k])])
                        for k, part in enumerate(parts)], cwd=ROOT)
    verified = {k: r["result"]["objective"] for k, r in enumerate(ran["runs"])
                if r["result"] and r["result"].get("verified")}
    scores = list(verified.values())
    best = max(verified, key=verified.get) if verified else None
    for k, board in enumerate(boards):  # keep the run's best board only
        if k != best:
            board.unlink(missing_ok=True)
    points = sorted((json.loads(x) for path in progress if path.exists()
                     for x in path.read_text().splitlines()), key=lambda p: p["t"])
    curve = []  # the run's best score against time, over all its processes
    for point in points:
        if not curve or point["score"] > curve[-1]["score"]:
            curve.append(point)
    row = {"instance": inst, "method": method, "seed": seed, "limit": limit,
           "score": max(scores) if scores else None, "verified": bool(scores),
           "joins": most_joins(INSTANCES[inst]),
           "board": boards[best].name if best is not None and boards[best].exists() else None,
           "wall": round(ran["wall"], 1), "cpu": round(ran["cpu"], 1), "load": round(load, 2),
           "lanes": [lanes(r["result"]) for r in ran["runs"]], "curve": curve}
    done.write_text(json.dumps(row) + "\n")
    return row


def lanes(result: dict | None) -> dict:
    """What a portfolio's lanes did (the lane of the best board, boards shared, each lane's
    score and the boards or bounds it took in, the adaptive changes); {} for one backend."""
    stats = (result or {}).get("stats") or {}
    if "backends" not in stats:
        return {}
    keep = ("bounded", "received", "restarts", "starts")
    return {"best_from": stats.get("best_from"), "shared": stats.get("shared"),
            "adapt": (stats.get("adapt") or {}).get("changes"),
            "lanes": {name: {"score": lane.get("objective"),
                             **{k: lane["stats"][k] for k in keep if k in lane.get("stats", {})}}
                      for name, lane in stats["backends"].items()}}


def report(rows: list[dict], out: Path, doc: Path) -> None:
    from experiment import label_axes, pyplot, save

    plt = pyplot()

    lines = ["| instance | method | runs | per seed | best | median | solved | CPU s per run | "
             "load (mean) |", "|---|---|---|---|---|---|---|---|---|"]
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        groups.setdefault((r["instance"], r["method"]), []).append(r)
    for (inst, method), rs in groups.items():
        scores = [r["score"] for r in rs if r["score"] is not None]
        rs.sort(key=lambda r: r["seed"])
        per_seed = " / ".join("-" if r["score"] is None else str(r["score"]) for r in rs)
        cpu = " / ".join(f"{r['cpu']:.0f}" for r in rs)
        solved = sum(1 for r in rs if "joins" in r and r["score"] == r["joins"])
        lines.append(f"| {inst} | {method} | {len(rs)} | {per_seed} | "
                     f"{max(scores) if scores else '-'} | "
                     f"{statistics.median(scores) if scores else '-'} | {solved} | {cpu} | "
                     f"{statistics.mean(r['load'] for r in rs):.1f} |")
    shown = [i for i in INSTANCES if any(r["instance"] == i for r in rows)]
    fig, axes = plt.subplots(1, len(shown), figsize=(6 * len(shown), 4), squeeze=False)
    for ax, inst in zip(axes[0], shown, strict=True):
        for (i, method), rs in groups.items():
            if i != inst:
                continue
            for k, r in enumerate(rs):
                pts = [(p["t"], p["score"]) for p in r["curve"]]
                if pts and r.get("limit", 0) > pts[-1][0]:  # held to the end of the run
                    pts.append((r["limit"], pts[-1][1]))
                if pts:
                    xs, ys = zip(*pts, strict=True)
                    ax.step(xs, ys, where="post", label=method if k == 0 else None,
                            color=f"C{[*METHODS, *PARALLEL].index(method)}")
        ax.set_xscale("log")
        label_axes(ax, inst, "seconds (wall)", "matched joins")
    plot = out / "hybrid_score_time.png"
    save(fig, plot)
    table = "\n".join(lines)
    text = doc.read_text() if doc.exists() else ""
    start, end = "<!-- bench_hybrid table -->", "<!-- /bench_hybrid table -->"
    block = f"{start}\n{table}\n\n![score against time]({os.path.relpath(plot, doc.parent)})\n{end}"
    if start in text and end in text:
        text = text[:text.index(start)] + block + text[text.index(end) + len(end):]
    else:
        text += "\n" + block + "\n"
    doc.write_text(text)
    print(table)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("-t", "--time-limit", type=float, default=600.0)
    ap.add_argument("--methods", default=",".join((*METHODS, *PARALLEL)))
    ap.add_argument("--instances", default="official,e2_16x16",
                    help=f"comma list of {', '.join(INSTANCES)}")
    ap.add_argument("--out-dir", default=str(ROOT / "lab" / "results" / "hybrid"))
    ap.add_argument("--doc", default=str(ROOT / "lab" / "pages" / "hybrid.md"))
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--e2-data", default=None,
                    help="folder of e2_256.txt and brendan/ (default ../shared/e2_data)")
    args = ap.parse_args()
    if args.e2_data:
        data = Path(args.e2_data)
        INSTANCES.update(official=data / "e2_256.txt",
                         brendan_8x8=data / "brendan" / "pieces_08x08.txt",
                         brendan_9x9=data / "brendan" / "pieces_09x09.txt")
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    INSTANCES["held_out_8x8"] = held_out(out)
    wanted = {slug(x) for x in args.methods.split(",")}
    methods = [m for m in (*METHODS, *PARALLEL) if slug(m) in wanted]
    insts = [i for i in args.instances.split(",") if i in INSTANCES and INSTANCES[i].exists()]
    if not insts:
        print("no instance found (the official set needs ../shared/e2_data)", file=sys.stderr)
        raise SystemExit(2)
    rows = []
    # seed by seed, every method per seed: a bench stopped early still compares the methods
    # on the same seeds
    for inst in insts:
        for seed in range(args.seeds):
            for method in methods:
                path = out / f"{inst}_{slug(method)}_s{seed}.json"
                if args.report_only:
                    if path.exists():
                        rows.append(json.loads(path.read_text()))
                    continue
                rows.append(run_one(inst, method, seed, args.time_limit, out))
                print(f"{inst} {method} seed {seed}: {rows[-1]['score']}", file=sys.stderr)
    rows.sort(key=lambda r: (insts.index(r["instance"]), methods.index(r["method"]),
                             r["seed"]))
    report(rows, out, Path(args.doc))


if __name__ == "__main__":
    main()
