"""Placements per CPU second of the break search, and of libblackwood beside it.

Ours runs in this process, pinned to one core, for the CPU seconds given (tables, piece
groups and restarts counted: the whole `breakscan.search`), placements counted as the engine
counts them (a piece put on a cell). With `--peer DIR` (a checkout of jfbucas/libblackwood,
built outside this repository: `python3 libblackwood.py` once, with PERF=1 in the
environment and its scenario's `PERF = os.environ.get("PERF") is not None`, so that the
generated C counts its nodes), libblackwood's one-thread run goes on the other core at the
same time; it prints its node count every heartbeat (one a second), and its rate is the
change of that count over the change of its process's CPU time from the start of our run
until it has had as many CPU seconds as ours (or `--peer-wait` more wall seconds passed). The load
average is printed before and after: on a busy machine both rates drop.

With `--matrix CSV` it measures the Blackwood rule's options instead: the combinations
default (`--break-rule blackwood`), +colour (`--colour-rule blackwood`), +restarts
(`--restart-nodes N`) and both, each seed of `--seeds` for `--seconds` CPU seconds, one
single-core process per run pinned with taskset to one of `--cores` (as many runs at a time
as cores given). Each run appends a row to the CSV (best score, placements per CPU second,
restarts, deepest depth, the load average at its start); runs already in the CSV are
skipped, so a stopped measurement resumes.

    python lab/scripts/e2_rate.py ../shared/e2_data/e2_256.txt --seconds 20
    python lab/scripts/e2_rate.py ../shared/e2_data/e2_256.txt --seconds 20 \
        --option break_rule=blackwood --peer PEER_DIR
    python lab/scripts/e2_rate.py ../shared/e2_data/e2_256.txt --seconds 30 \
        --peer PEER_DIR --pairs 5       # seeds 0-4, cores both ways, the median ratio
    python lab/scripts/e2_rate.py ../shared/e2_data/e2_256.txt --matrix blackwood.csv \
        --seeds 5 --seconds 600 --cores 0,1,2,3
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import pty
import queue
import re
import select
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from experiment import append_row

from tilesolve import InputError
from tilesolve.families.edgematch import breakscan
from tilesolve.families.edgematch.official import apply_rules
from tilesolve.families.edgematch.parse import read_instance

TOTAL = re.compile(rb"Total stats_nodes_count = (\d+)")


def cpu_of(pid: int) -> float:
    """User + system CPU seconds of a process (all its threads)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def quit_peer(proc: subprocess.Popen) -> None:
    """Ask libblackwood to quit (its `q` command); killed when it has not within 20 s."""
    try:
        proc.stdin.write(b"q\n")
        proc.stdin.flush()
        proc.wait(20)
    except (OSError, subprocess.TimeoutExpired):
        proc.kill()
        proc.wait()


class Peer:
    """libblackwood's one-thread run on `core`: (CPU seconds, nodes) at each heartbeat."""

    def __init__(self, folder: str, core: int, python: str):
        master, slave = pty.openpty()  # its command reader wants a terminal on stdout
        env = dict(os.environ, PERF="1", QUIET="1", NICE="0")  # it lowers itself to 19 else
        self.proc = subprocess.Popen(
            ["taskset", "-c", str(core), python, "libblackwood.py"], cwd=folder,
            stdin=subprocess.PIPE, stdout=slave, stderr=slave, env=env)
        os.close(slave)
        self.master, self.samples, self.done, self.ready = master, [], False, False
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while not self.done:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 1 << 16)
            except OSError:
                return
            self.ready = self.ready or b"URL_HOOK" in chunk  # printed as its search starts
            for m in TOTAL.finditer(chunk):
                try:
                    self.samples.append((cpu_of(self.proc.pid), int(m.group(1))))
                except OSError:
                    return

    def wait_started(self, limit: float = 300.0) -> None:
        """Until its search runs (its Python start and C build are not counted)."""
        end, asked = time.monotonic() + limit, 0.0
        while len(self.samples) < 2 and time.monotonic() < end and self.proc.poll() is None:
            # print the count every heartbeat: a toggle that the solver's start clears, so
            # asked once its last line before the search is out, again after 30 s without
            # counts (a second ask in flight would undo the first)
            if self.ready and not self.samples and time.monotonic() - asked > 30:
                self.proc.stdin.write(b"SHOW_STATS_NODES_COUNT\n")
                self.proc.stdin.flush()
                asked = time.monotonic()
            time.sleep(0.2)
        if len(self.samples) < 2:
            self.stop()
            raise SystemExit("libblackwood printed no node counts: is it built with PERF=1, "
                             "and does --peer-python run it (it imports requests)?")

    def rate(self, since: int) -> tuple[float, float, int]:
        """(nodes per CPU second, CPU seconds, nodes) between sample `since` and the last."""
        (c0, n0), (c1, n1) = self.samples[since], self.samples[-1]
        return ((n1 - n0) / (c1 - c0) if c1 > c0 else 0.0), c1 - c0, n1 - n0

    def stop(self) -> None:
        if self.done:
            return
        quit_peer(self.proc)
        self.done = True
        self.reader.join()
        os.close(self.master)


def measure(path: str, seconds: float, seed: int, params: dict) -> dict:
    """The break search on this thread for `seconds` CPU seconds: best score (None without a
    board), placements, CPU seconds, placements per CPU second, restarts, deepest depth."""
    from tilesolve.core import squaregrid as sq

    inst = apply_rules(read_instance(path))
    sched = breakscan.schedule_of(inst, params)
    c0 = time.thread_time()
    res = breakscan.search(inst, sched, seed, stop=lambda: time.thread_time() - c0 >= seconds)
    cpu = time.thread_time() - c0
    score = None if res.breaks is None else sq.join_count(inst.width, inst.height) - res.breaks
    return {"best_score": score, "placements": res.nodes, "cpu_seconds": round(cpu, 3),
            "placements_per_cpu_s": round(res.nodes / cpu), "restarts": res.restarts,
            "max_depth": res.max_depth}


def ours(path: str, seconds: float, seed: int, params: dict) -> tuple[float, float, int, str]:
    """(placements per CPU second, CPU seconds, placements, best score and deepest depth) of
    the break search on this thread for `seconds` CPU seconds."""
    m = measure(path, seconds, seed, params)
    return (m["placements_per_cpu_s"], m["cpu_seconds"], m["placements"],
            f"best score {m['best_score'] or 'none'}, deepest {m['max_depth']}")


# --- the Blackwood rule's options, run by run (--matrix) --------------------------------------
COLUMNS = ("combination", "seed", "seconds", "restart_nodes", "best_score", "placements",
           "cpu_seconds", "placements_per_cpu_s", "restarts", "max_depth", "core", "load_average")


def combinations(restart_nodes: int) -> dict[str, dict]:
    """The options of each combination measured."""
    base = {"break_rule": "blackwood"}
    colour = {"colour_rule": "blackwood"}
    restarts = {"restart_nodes": str(restart_nodes)}
    return {"default": base, "colour": {**base, **colour}, "restarts": {**base, **restarts},
            "both": {**base, **colour, **restarts}}


def done_runs(path: str) -> set[tuple[str, int, float, int]]:
    """(combination, seed, seconds, restart nodes) of the rows the CSV holds already."""
    if not os.path.exists(path):
        return set()
    with open(path, newline="") as f:
        return {(r["combination"], int(r["seed"]), float(r["seconds"]),
                 int(r["restart_nodes"])) for r in csv.DictReader(f)}


def one_run(board: str, name: str, params: dict, seed: int, seconds: float, core: int,
            restart_nodes: int) -> dict:
    """One run in a child process pinned to `core`, as a CSV row."""
    options = [a for k, v in params.items() for a in ("--option", f"{k}={v}")]
    load = os.getloadavg()[0]
    out = subprocess.run(["taskset", "-c", str(core), sys.executable, __file__, board,
                          "--seconds", str(seconds), "--seed", str(seed), "--row", *options],
                         capture_output=True, text=True, check=True)
    row = json.loads(out.stdout.strip().splitlines()[-1])
    return {"combination": name, "seed": seed, "seconds": seconds,
            "restart_nodes": restart_nodes, **row, "core": core, "load_average": round(load, 2)}


def matrix(args: argparse.Namespace) -> None:
    """Every combination and seed not in the CSV yet, as many at a time as cores."""
    cores: queue.Queue[int] = queue.Queue()
    for c in args.cores.split(","):
        cores.put(int(c))
    have = done_runs(args.matrix)
    todo = [(name, params, seed) for seed in range(args.seed, args.seed + args.seeds)
            for name, params in combinations(args.restart_nodes).items()
            if (name, seed, args.seconds, args.restart_nodes) not in have]
    print(f"{len(todo)} runs to do, {len(have)} in {args.matrix}; load {os.getloadavg()}")
    lock = threading.Lock()

    def go(name: str, params: dict, seed: int) -> None:
        core = cores.get()
        try:
            row = one_run(args.board, name, params, seed, args.seconds, core,
                          args.restart_nodes)
        finally:
            cores.put(core)
        with lock:
            append_row(args.matrix, COLUMNS, row)

    with ThreadPoolExecutor(cores.qsize()) as pool:
        for f in [pool.submit(go, *job) for job in todo]:
            f.result()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("board")
    ap.add_argument("--seconds", type=float, default=20.0, help="CPU seconds of ours")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a break-search option (breaks, break_from, break_rule, ...)")
    ap.add_argument("--peer", help="a built libblackwood folder, run on the other core")
    ap.add_argument("--peer-python", default="python3",
                    help="the Python that runs libblackwood (default: python3 on the PATH)")
    ap.add_argument("--peer-wait", type=float, default=120.0,
                    help="wall seconds the peer may go on after ours to reach its CPU seconds")
    ap.add_argument("--cores", default="0,1",
                    help="our core, the peer's core (with --matrix: the cores runs go on)")
    ap.add_argument("--matrix", metavar="CSV", help="measure the Blackwood rule's options, "
                    "one row per run in this CSV (resumed where it stopped)")
    ap.add_argument("--seeds", type=int, default=3, help="with --matrix: seeds from --seed")
    ap.add_argument("--restart-nodes", type=int, default=500_000_000,
                    help="with --matrix: the +restarts combinations' placements per run")
    ap.add_argument("--pairs", type=int, default=0, metavar="K",
                    help="with --peer: seeds --seed .. --seed+K-1, each with the cores both "
                    "ways, then a table and the median ratio")
    ap.add_argument("--row", action="store_true", help=argparse.SUPPRESS)  # a matrix child
    args = ap.parse_args()
    params = dict(o.split("=", 1) for o in args.option)
    if args.matrix:
        return matrix(args)
    if args.row:
        print(json.dumps(measure(args.board, args.seconds, args.seed, params)))
        return
    mine, theirs = (int(c) for c in args.cores.split(","))
    try:  # bad options end here, before the peer starts
        breakscan.schedule_of(apply_rules(read_instance(args.board)), params)
    except InputError as e:
        raise SystemExit(f"e2_rate: {e}") from None
    if args.pairs:
        return pairs(args, params, mine, theirs)
    beside(args, params, mine, theirs)


def beside(args: argparse.Namespace, params: dict, mine: int,
            theirs: int) -> tuple[float, float | None]:
    """One side-by-side run (the peer started and stopped for it): (ours, the peer's rate)."""
    print(f"load average before: {os.getloadavg()}")
    peer = Peer(args.peer, theirs, args.peer_python) if args.peer else None
    try:
        rates = side_by_side(args, params, mine, theirs, peer)
    finally:  # never a peer left running on its core
        if peer:
            peer.stop()
    print(f"load average after: {os.getloadavg()}")
    return rates


def pairs(args: argparse.Namespace, params: dict, mine: int, theirs: int) -> None:
    """`--pairs K`: seeds from --seed, each with the cores one way and then swapped (the two
    cores of a machine differ), a row per run and the median ratio (libblackwood's rate
    moves by a third from run to run, each run a new tree, so one pair tells little)."""
    if not args.peer:
        raise SystemExit("e2_rate: --pairs compares with libblackwood: give --peer")
    rows = []
    for seed in range(args.seed, args.seed + args.pairs):
        for a, b in ((mine, theirs), (theirs, mine)):
            run = argparse.Namespace(**{**vars(args), "seed": seed})
            ours_rate, peer_rate = beside(run, params, a, b)
            rows.append((seed, a, b, ours_rate / 1e6, peer_rate / 1e6, ours_rate / peer_rate))
    print("\n| seed | cores (ours, libblackwood) | tilesolve M/CPU s | libblackwood M/CPU s "
          "| ratio |\n|---|---|---|---|---|")
    for seed, a, b, o, t, r in rows:
        print(f"| {seed} | {a}, {b} | {o:.1f} | {t:.1f} | {r:.3f} |")
    ratios = [r[-1] for r in rows]
    print(f"median ratio {statistics.median(ratios):.3f}, ahead in "
          f"{sum(r >= 1 for r in ratios)} of {len(ratios)} runs")


def side_by_side(args: argparse.Namespace, params: dict, mine: int, theirs: int,
                 peer: Peer | None) -> tuple[float, float | None]:
    """Ours on core `mine` for `--seconds` CPU seconds, the peer's rate over as many of its
    own, both printed with the ratio and returned (the peer's None without one)."""
    if peer:
        peer.wait_started()
    os.sched_setaffinity(0, {mine})
    since = len(peer.samples) - 1 if peer else 0
    rate, cpu, nodes, score = ours(args.board, args.seconds, args.seed, params)
    print(f"tilesolve break search ({params or 'defaults'}, seed {args.seed}, core {mine}): "
          f"{nodes} placements in {cpu:.2f} CPU s = {rate / 1e6:.2f} M/CPU s "
          f"({score})")
    if peer:
        # the same CPU seconds for both where the load allows: the peer goes on after ours
        # until it has had as many in the window (at most `--peer-wait` more wall seconds)
        end = time.monotonic() + args.peer_wait
        while peer.rate(since)[1] < cpu and time.monotonic() < end:
            time.sleep(0.5)
        prate, pcpu, pnodes = peer.rate(since)
        print(f"libblackwood jb470 (core {theirs}, {len(peer.samples) - 1 - since} heartbeats): "
              f"{pnodes} placements in {pcpu:.2f} CPU s "
              f"= {prate / 1e6:.2f} M/CPU s")
        print(f"ratio tilesolve / libblackwood: {rate / prate:.3f}")
        return rate, prate
    return rate, None


if __name__ == "__main__":
    main()
