"""Benchmark the edge-matching GA: instances x seeds -> success rate, median/mean time,
evaluations, repairs. Every run goes through the verified solve pipeline.

    .venv/bin/python lab/scripts/bench_edgematch_ga.py instances/e2_6x6.txt --seeds 10 \
        --time-limit 60 [--csv out.csv] [--param population=80 --param stall=3]
"""

from __future__ import annotations

import argparse
import statistics
import sys

from tilesolve.bench import Budget, backend_spec, run_each, write_csv


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("instances", nargs="+")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="GA parameter, as on the command line without the dashes")
    ap.add_argument("--csv", help="write one row per run")
    a = ap.parse_args(argv)
    params = dict(p.replace("-", "_").split("=", 1) for p in a.param)
    spec = backend_spec("ga", params)
    work = [(inst, spec, seed) for inst in a.instances
            for seed in range(a.first_seed, a.first_seed + a.seeds)]
    rows = []
    for run in run_each(work, Budget(time_limit=a.time_limit, threads=1)):
        st = run["stats"]
        rows.append({"instance": run["instance"], "seed": run["seed"],
                     "status": run["status"], "verified": run["verified"],
                     "seconds": round(run["seconds"], 3),
                     "best": st.get("best_fitness"), "max": st.get("max_fitness"),
                     "generations": st.get("generations"),
                     "evaluations": st.get("evaluations"), "repairs": st.get("repairs"),
                     "local_moves": st.get("tabu_iterations")})
        print(" ".join(f"{k}={v}" for k, v in rows[-1].items()), file=sys.stderr, flush=True)
    print(f"{'instance':34} {'solved':>7} {'median s':>9} {'mean s':>8} {'mean evals':>11} "
          f"{'mean best':>10}")
    for inst in a.instances:
        rs = [r for r in rows if r["instance"] == inst]
        ok = [r for r in rs if r["status"] == "solved" and r["verified"]]
        times = [r["seconds"] for r in rs]  # unsolved runs count with their full time
        print(f"{inst:34} {len(ok):>3}/{len(rs):<3} {statistics.median(times):>9.2f} "
              f"{statistics.mean(times):>8.2f} "
              f"{statistics.mean(r['evaluations'] or 0 for r in rs):>11.0f} "
              f"{statistics.mean(r['best'] or 0 for r in rs):>10.1f}")
    if a.csv:
        write_csv(rows, a.csv, list(rows[0]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
