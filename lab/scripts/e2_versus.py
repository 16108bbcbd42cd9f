"""Score against CPU time on the official Eternity II: the default hybrid beside libblackwood.

For each seed, `tilesolve solve BOARD --objective matches --threads 1 --seed S` runs pinned to
one core and libblackwood (jfbucas/libblackwood, Blackwood's method, its default jb470
scenario) pinned to the other, at the same time, for the same CPU seconds. Ours
logs every better verified board (`--log-jsonl`); its CPU seconds at a line are its wall
seconds times the run's CPU over wall (one thread on a core of its own: within a few percent of
1). libblackwood is asked for its deepest board every few seconds (its `b` command) and the
CPU seconds of its process are read at the answer, counted from the start of its search (its
Python start and C build left out). Its boards stop short of 256 pieces (10 breaks used up),
so each is scored twice: `raw`, the matching joins between the pieces it placed, and `score`,
after the empty cells are filled exactly: CP-SAT maximises the matched joins on the puzzle
with every piece it placed fixed (the public API's `tilesolve.edgematch(..., fixed=...)`),
and the filled board is checked by `tilesolve verify`. The score is the one to compare: a
board of ours is complete.

libblackwood is built outside this repository from a fetched copy (`python3 libblackwood.py`
builds and runs it). Its generated C keeps its deepest board only from depth 252 on (its
`depth_first_notification`); for this measurement one line of its generator is changed so
that the board is also kept from depth 246 on, as its debug builds do (a copy of 256 cells
at each new deepest depth; nothing else in its search changes). Its boards use the "jef"
colour order: the colours are mapped to ours through its piece list (data/tomy_EternityII.py,
the official pieces in the same order and orientation as ours).

Ours is stopped by Ctrl-C when its CPU seconds (its process tree) reach the budget, so a
machine with other work gives both the same CPU; `--boards DIR` keeps each run's best board.

Rows go to --csv when a seed ends (solver, seed, cpu_seconds, score, raw, pieces: libblackwood's
boards are filled and scored then, not during the race, where the fills would take CPU from
both); seeds already there are skipped, so a stopped measurement resumes at the seed it was
in (that seed's boards stay in --boards). --plot draws both curves, --table
prints the median score of each at a few CPU times.

    python lab/scripts/e2_versus.py ../shared/e2_data/e2_256.txt --peer PEER_DIR \\
        --seconds 600 --seeds 0,1,2 --csv lab/results/e2_versus_600s.csv \\
        --plot lab/pages/e2_versus_600s.png
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import pty
import re
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from e2_rate import cpu_of, quit_peer

import tilesolve

URL = re.compile(rb"https://e2\.bucas\.name/#[^\s\x1b]*board_edges=[^\s\x1b&]*")
COLUMNS = ("solver", "seed", "cpu_seconds", "score", "raw", "pieces")
Edges = tuple[int, int, int, int]


# --- the boards: colours, pieces, holes -------------------------------------------------------
def our_pieces(path: str) -> tuple[int, int, list[Edges]]:
    """(W, H, the pieces as N E S W) of a native edge-matching file."""
    lines = [ln.split() for ln in Path(path).read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    w, h = int(lines[0][0]), int(lines[0][1])
    return w, h, [tuple(int(x) for x in ln[:4]) for ln in lines[1:1 + w * h]]


def jef_colours(peer: str, pieces: list[Edges]) -> dict[int, int]:
    """libblackwood's colour -> ours, from its piece list (up right down left) beside ours."""
    text = (Path(peer) / "data" / "tomy_EternityII.py").read_text()
    body = text[text.index("self.pieces = ["):]
    theirs = [tuple(int(x) for x in m) for m in
              re.findall(r"\[\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\]", body)]
    theirs = theirs[:len(pieces)]
    colours: dict[int, int] = {}
    for a, b in zip(theirs, pieces, strict=True):
        for x, y in zip(a, b, strict=True):
            if colours.setdefault(x, y) != y:
                raise SystemExit(f"{peer}: its pieces are not ours in the same order")
    return colours


def turned(e: Edges, rot: int) -> Edges:
    """A piece's N E S W after `rot` clockwise quarter turns."""
    return tuple(e[(i - rot) % 4] for i in range(4))  # type: ignore[return-value]


def decode(url: str, colours: dict[int, int], pieces: list[Edges]) -> dict[int, tuple[int, int]]:
    """cell index -> (piece, rot) of the pieces a libblackwood URL shows."""
    field = dict(kv.split("=", 1) for kv in url.split("#", 1)[1].split("&") if "=" in kv)
    numbers, letters = field["board_pieces"], field["board_edges"]
    board = {}
    for cell in range(len(numbers) // 3):
        p = int(numbers[3 * cell:3 * cell + 3])
        if p == 0:
            continue
        seen = tuple(colours[ord(ch) - ord("a")] for ch in letters[4 * cell:4 * cell + 4])
        rot = next((r for r in range(4) if turned(pieces[p - 1], r) == seen), None)
        if rot is None:
            raise ValueError(f"cell {cell}: piece {p} does not show {seen}")
        board[cell] = (p, rot)
    return board


def joins(w: int, h: int):
    for r in range(h):
        for c in range(w):
            if c + 1 < w:
                yield r * w + c, 1, r * w + c + 1, 3  # my east against its west
            if r + 1 < h:
                yield r * w + c, 2, (r + 1) * w + c, 0  # my south against its north


def raw_score(w: int, h: int, pieces: list[Edges], board: dict) -> int:
    def side(cell, s):
        p, rot = board[cell]
        return turned(pieces[p - 1], rot)[s]
    return sum(1 for a, sa, b, sb in joins(w, h)
               if a in board and b in board and side(a, sa) == side(b, sb))


def fill(w: int, h: int, pieces: list[Edges], board: dict, seconds: float = 60.0) -> dict:
    """The board with its empty cells filled by the placements of the unplaced pieces that
    match the most joins: CP-SAT on the puzzle with every placed piece fixed (exact within
    `seconds`; 0.1-0.5 s for 10-30 holes of a deep official board)."""
    fixed = {divmod(cell, w): pr for cell, pr in board.items()}
    res = tilesolve.edgematch(pieces, w, h, fixed=fixed).solve(
        "cpsat", objective="matches", time_limit=seconds, threads=1)
    if res.solution is None:
        raise ValueError(f"no placement of the free pieces fits the holes ({res.status})")
    return {r * w + c: pr for (r, c), pr in res.solution.items()}


def checked_score(instance: str, w: int, board: dict) -> int:
    """The full board's score, by the family's checker (an invalid board raises)."""
    rows = [[list(board[r * w + c]) for c in range(w)] for r in range(len(board) // w)]
    report = tilesolve.load(instance).verify({"board": rows}, objective="matches")
    if not report.ok:
        raise ValueError(f"the filled board breaks a rule: {report.summary()}")
    return int(report.score)


# --- the runs ---------------------------------------------------------------------------------
class Peer:
    """libblackwood on `core`: (CPU seconds of its search, URL) on each ask. `python3
    libblackwood.py` makes one run and exits when the run's time is up (its heartbeat limit,
    about 15 minutes, extended at new depths); its own runner (main.py) then starts another,
    so `keep_going` does the same while the budget lasts: the CPU seconds add up over the
    runs, each counted from its search's start. Its seed is drawn at random in every run
    (the SEED variable is read by none of its code), so `seed` only names the run here."""

    def __init__(self, folder: str, core: int, seed: int, python: str):
        self.folder, self.core, self.python = folder, core, python
        self.boards, self.runs, self.before, self.last = [], 0, 0.0, 0.0
        self._launch()

    def _launch(self) -> None:
        master, slave = pty.openpty()  # its command reader wants a terminal
        env = dict(os.environ, QUIET="1", NICE="0")  # it lowers itself to nice 19 by default
        env.pop("PERF", None)
        self.proc = subprocess.Popen(["taskset", "-c", str(self.core), self.python,
                                      "libblackwood.py"], cwd=self.folder,
                                     stdin=subprocess.PIPE, stdout=slave, stderr=slave, env=env)
        os.close(slave)
        self.master, self.start, self.done, self.buf = master, None, False, b""
        self.runs += 1
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def cpu(self) -> float:
        """CPU seconds of its searches so far (a run that ended keeps its last reading)."""
        if self.start is not None:
            try:
                self.last = cpu_of(self.proc.pid) - self.start  # a zombie still reads
            except OSError:
                pass
        return self.before + self.last

    def _read(self) -> None:
        while not self.done:
            if not select.select([self.master], [], [], 0.2)[0]:
                continue
            try:
                self.buf += os.read(self.master, 1 << 16)
            except OSError:
                return
            if self.start is None and b"URL_HOOK" in self.buf:  # printed as its search starts
                self.start = cpu_of(self.proc.pid)
            for m in URL.finditer(self.buf):
                self.boards.append((self.cpu(), m.group(0).replace(b"\x00", b"a").decode()))
            self.buf = self.buf[-4096:] if not URL.search(self.buf) else b""

    def ask(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                self.proc.stdin.write(b"b\n")
                self.proc.stdin.flush()

    def keep_going(self, seconds: float) -> None:
        """A new run when the last one ended and the budget is not spent."""
        total = self.cpu()
        if self.proc.poll() is not None and total < seconds:
            self._close()
            self.before, self.last = total, 0.0
            self._launch()

    def _close(self) -> None:
        self.done = True
        self.reader.join()
        os.close(self.master)

    def stop(self) -> None:
        quit_peer(self.proc)
        self._close()


def run_ours(instance: str, seed: int, seconds: float, core: int, log: str,
             board: str | None) -> subprocess.Popen:
    """Our default on `core`. Its wall limit is generous: the run is stopped by Ctrl-C when its
    CPU seconds reach `seconds` (on a machine with other work a wall limit would give it less
    CPU than the peer), and it keeps its best board (`-o`) as any interrupted run does."""
    out = ["-o", board] if board else []
    return subprocess.Popen(
        ["taskset", "-c", str(core), sys.executable, "-m", "tilesolve", "solve", instance,
         "--objective", "matches", "--threads", "1", "--seed", str(seed),
         "-t", str(4 * seconds + 60), "--log-jsonl", log, "--json", *out],
        stdout=subprocess.PIPE, text=True)


class TreeClock:
    """CPU seconds of a process and all its descendants (a portfolio's lanes run in forked
    processes that the command does not wait for), sampled from /proc: each process's last
    reading is kept after it ends, so a process that ends between samples loses at most the
    time since the last one. `series` maps wall seconds since the start to CPU seconds."""

    def __init__(self, root: int):
        self.root, self.t0, self.last, self.series = root, time.monotonic(), {}, [(0.0, 0.0)]

    def sample(self) -> float:
        parent, cpu = {}, {}
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parent[int(pid)] = int(fields[1])
            cpu[int(pid)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        for pid in cpu:
            p = pid
            while p in parent and p != self.root and p > 1:
                p = parent[p]
            if p == self.root:
                self.last[pid] = cpu[pid]
        total = sum(self.last.values())
        self.series.append((time.monotonic() - self.t0, total))
        return total

    def at(self, wall: float) -> float:
        """CPU seconds at `wall` seconds, interpolated between samples."""
        pts = self.series
        for (w0, c0), (w1, c1) in zip(pts, pts[1:], strict=False):
            if w0 <= wall <= w1:
                return c0 + (c1 - c0) * ((wall - w0) / (w1 - w0) if w1 > w0 else 0.0)
        return pts[-1][1]


def one_seed(args, seed: int, out: csv.DictWriter) -> None:
    mine, theirs = (int(c) for c in args.cores.split(","))
    peer = Peer(args.peer, theirs, seed, args.peer_python)
    end = time.monotonic() + 600
    while peer.start is None and time.monotonic() < end and peer.proc.poll() is None:
        time.sleep(0.5)
    if peer.start is None:
        peer.stop()
        raise SystemExit("libblackwood did not start its search (is it built?)")
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "ours.jsonl")
        t0 = time.monotonic()
        ours = run_ours(args.board, seed, args.seconds, mine, log,
                        args.boards and os.path.join(args.boards, f"tilesolve_seed{seed}.txt"))
        clock, stopped = TreeClock(ours.pid), False
        while ours.poll() is None or peer.cpu() < args.seconds:
            if time.monotonic() - t0 > 4 * args.seconds + 60 + args.peer_wait:
                break
            if ours.poll() is None and clock.sample() >= args.seconds and not stopped:
                ours.send_signal(signal.SIGINT)
                stopped = True
            if peer.cpu() < args.seconds:
                peer.keep_going(args.seconds)
                peer.ask()
            time.sleep(args.every)
        ours.communicate()
        wall, cpu, peer_cpu = time.monotonic() - t0, clock.series[-1][1], peer.cpu()
        peer.stop()
        lines = [json.loads(ln) for ln in Path(log).read_text().splitlines() if ln.strip()]
    w, h, pieces = our_pieces(args.board)
    for ln in lines:
        out.writerow({"solver": "tilesolve", "seed": seed, "pieces": w * h,
                      "cpu_seconds": round(clock.at(ln["t"]), 2), "score": ln["score"],
                      "raw": ln["score"]})
    colours = jef_colours(args.peer, pieces)
    last, best = None, -1
    for at, url in peer.boards:
        if url == last:
            continue
        last = url
        board = decode(url, colours, pieces)
        filled = fill(w, h, pieces, board)
        score = checked_score(args.board, w, filled)
        if args.boards and score > best:
            best = score
            rows = [[list(filled[r * w + c]) for c in range(w)] for r in range(h)]
            Path(args.boards, f"libblackwood_seed{seed}.json").write_text(
                json.dumps({"board": rows}) + "\n")
        out.writerow({"solver": "libblackwood", "seed": seed, "cpu_seconds": round(at, 2),
                      "score": score, "raw": raw_score(w, h, pieces, board),
                      "pieces": len(board)})
    print(f"seed {seed}: ours {cpu:.0f} CPU s in {wall:.0f} s wall, {len(lines)} boards; "
          f"libblackwood {peer_cpu:.0f} CPU s in {peer.runs} runs, "
          f"{len(set(u for _a, u in peer.boards))} boards; "
          f"load {os.getloadavg()[0]:.2f}", flush=True)


# --- reading the results ----------------------------------------------------------------------
def read_rows(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return [{**r, "seed": int(r["seed"]), "cpu_seconds": float(r["cpu_seconds"]),
                 "score": int(r["score"]), "raw": int(r["raw"])} for r in csv.DictReader(f)]


def best_at(rows: list[dict], solver: str, seed: int, cpu: float) -> int | None:
    got = [r["score"] for r in rows if r["solver"] == solver and r["seed"] == seed
           and r["cpu_seconds"] <= cpu]
    return max(got) if got else None


def table(rows: list[dict], marks: list[float]) -> str:
    seeds = sorted({r["seed"] for r in rows})
    out = ["| CPU s | tilesolve: median (seeds) | libblackwood: median (seeds) |",
           "|---|---|---|"]
    for t in marks:
        cells = []
        for solver in ("tilesolve", "libblackwood"):
            got = [best_at(rows, solver, s, t) for s in seeds]
            have = [g for g in got if g is not None]
            cells.append("-" if not have else f"{statistics.median(have):g} "
                         f"({', '.join('-' if g is None else str(g) for g in got)})")
        out.append(f"| {t:g} | {cells[0]} | {cells[1]} |")
    return "\n".join(out)


def plot(rows: list[dict], path: str, seconds: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for solver, colour in (("tilesolve", "tab:blue"), ("libblackwood", "tab:red")):
        for i, seed in enumerate(sorted({r["seed"] for r in rows})):
            pts = sorted((r["cpu_seconds"], r["score"]) for r in rows
                         if r["solver"] == solver and r["seed"] == seed)
            if not pts:
                continue
            xs, ys, best = [], [], None
            for x, y in pts:
                best = y if best is None else max(best, y)
                xs.append(x)
                ys.append(best)
            xs.append(seconds)
            ys.append(best)
            ax.step(xs, ys, where="post", color=colour, alpha=0.8,
                    label=solver if i == 0 else None)
    ax.set_xlabel("CPU seconds (one core each)")
    ax.set_ylabel("matching joins of the best board (of 480)")
    ax.set_title("Official Eternity II: best board against CPU time")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("board")
    ap.add_argument("--peer", help="a libblackwood folder (built, its generator patched: above)")
    ap.add_argument("--peer-python", default="python3")
    ap.add_argument("--seconds", type=float, default=600.0, help="CPU seconds of each run")
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--cores", default="0,1", help="ours, the peer's")
    ap.add_argument("--every", type=float, default=2.0, help="wall seconds between asks")
    ap.add_argument("--peer-wait", type=float, default=120.0,
                    help="wall seconds the peer may go on after ours to reach its CPU seconds")
    ap.add_argument("--csv", required=True)
    ap.add_argument("--boards", help="a folder for each run's best board (ours: `-o`; "
                    "libblackwood's: its best board with the holes filled, as scored)")
    ap.add_argument("--plot")
    ap.add_argument("--table", default="10,30,60,120,300,600,1800,3600",
                    help="CPU seconds at which --table prints the medians")
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    if args.boards:
        os.makedirs(args.boards, exist_ok=True)
    have = {r["seed"] for r in read_rows(args.csv)}
    todo = [s for s in seeds if s not in have]
    if todo and not args.peer:
        raise SystemExit("--peer is needed to run seeds " + ",".join(map(str, todo)))
    for seed in todo:
        fresh = not os.path.exists(args.csv)
        with open(args.csv, "a", newline="") as f:
            out = csv.DictWriter(f, COLUMNS)
            if fresh:
                out.writeheader()
            print(f"seed {seed}: load {os.getloadavg()[0]:.2f}", flush=True)
            one_seed(args, seed, out)
    rows = [r for r in read_rows(args.csv) if r["seed"] in seeds]
    marks = [float(t) for t in args.table.split(",") if float(t) <= args.seconds]
    print(table(rows, marks))
    if args.plot:
        plot(rows, args.plot, args.seconds)


if __name__ == "__main__":
    main()
