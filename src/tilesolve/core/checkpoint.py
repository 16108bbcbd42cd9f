"""A long run's ledger: its statistics, carried from run to run by its checkpoint.

`solve --checkpoint FILE` (and `-o` of an `--objective` run) rewrites the file with each
better verified board; the ledger's figures travel in the same file, so that board and
statistics are written together, whole or not at all: in the family's text format as one
comment line at the top (`# tilesolve checkpoint {...}`), in a `.json` file beside the
solution (`{"solution": ..., "checkpoint": {...}}`). `verify` and `--resume` read both.

`solve --resume FILE` reads the ledger back (`resume`): the instance must be the one it was
written for (its canonical text's SHA-256), the board is verified and is the new run's first
best, and the figures (wall and CPU seconds, runs, the lanes' restarts, nodes...) go on from
where they stopped.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .errors import InputError
from .family import Family
from .result import Outcome, SolveOptions, SolveResult, Status

MARK = "# tilesolve checkpoint "
# the counters the backends report that add up over runs (the break search's restarts and
# nodes, the LNS's starts, a GA's generations and evaluations, a MILP's nodes...)
COUNTERS = ("restarts", "starts", "nodes", "placements", "generations", "evaluations")


def instance_hash(family: Family, instance) -> str:
    """The instance's identity: the SHA-256 of its canonical text (its file's layout and
    comments aside)."""
    return hashlib.sha256(family.format_instance(instance).encode()).hexdigest()


def cpu_seconds() -> float:
    """CPU seconds of this process and its ended children (CBC...); a portfolio's lanes are
    the forkserver's children, and count by what they report (`lane_cpu`)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _stat(pid: int | str) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name (None where it cannot be read)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def process_cpu(pid: int) -> float | None:
    """CPU seconds of process `pid`, its threads and its waited-for children (/proc; None
    where it cannot be read)."""
    fields = _stat(pid)
    try:
        return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK") if fields else None
    except (ValueError, IndexError):
        return None


def process_tree() -> dict[int, list[int]]:
    """Each live process's children, from the parent field of every /proc/PID/stat (1.7 ms
    for 65 processes): the `task/*/children` files are a kernel option, and through them
    one machine's walk never found a grandchild that had burnt a CPU second."""
    kids: dict[int, list[int]] = {}
    try:
        pids = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return kids
    for pid in pids:
        fields = _stat(pid)
        if fields and len(fields) > 1 and fields[1].isdigit():
            kids.setdefault(int(fields[1]), []).append(int(pid))
    return kids


def descendants_cpu(root: int | None = None) -> float:
    """CPU seconds of the live descendants of this process (or of `root`): a portfolio's
    forkserver and lanes, Dask workers, CBC, each with its ended children; what
    `cpu_seconds` does not count yet. 0 where /proc cannot tell."""
    tree = process_tree()
    total, todo = 0.0, list(tree.get(os.getpid() if root is None else root, []))
    while todo:
        pid = todo.pop()
        total += process_cpu(pid) or 0.0
        todo.extend(tree.get(pid, []))
    return total


def _lanes(stats: dict) -> list[dict]:
    """The stats of a portfolio's lanes (none for one backend)."""
    return [rec.get("stats") or {} for rec in (stats.get("backends") or {}).values()
            if isinstance(rec, dict)]


def lane_cpu(stats: dict) -> float:
    """The CPU seconds a portfolio's lanes report (each lane its own process's)."""
    return sum(float(s.get("cpu_seconds") or 0.0) for s in _lanes(stats))


def counters_of(fields: dict) -> dict[str, int]:
    """The COUNTERS among one solver's stats (or its last progress report)."""
    return {k: int(v) for k in COUNTERS if isinstance(v := fields.get(k), int | float)
            and not isinstance(v, bool)}


def counters(stats: dict) -> dict[str, int]:
    """The COUNTERS in a result's stats, summed over a portfolio's lanes."""
    found: dict[str, int] = {}
    for part in [stats, *_lanes(stats)]:
        for key, value in counters_of(part).items():
            found[key] = found.get(key, 0) + value
    return found


@dataclass
class Ledger:
    """The figures of a run and of the runs it resumes (`before`: the checkpoint's)."""

    family: Family
    instance: Any
    objective: str | None
    resumed_from: str | None = None
    before: dict = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)  # this run's clock (monotonic)
    cpu_started: float = field(default_factory=cpu_seconds)
    found_at: float | None = None  # total wall seconds when this run raised the best
    totals: dict[str, int] = field(default_factory=dict)  # this run's counters, at its end
    lanes_cpu: float = 0.0  # the CPU seconds its lanes reported, at its end
    ended: tuple[float, float, float] | None = None  # wall and CPU clocks and the descendants'
    # CPU at its answer: the figures the answer prints and its files' last are then the same

    def __post_init__(self) -> None:
        self.hash = instance_hash(self.family, self.instance)

    def improved(self) -> None:
        self.found_at = self.total_seconds()

    def total_seconds(self) -> float:
        now = self.ended[0] if self.ended is not None else time.monotonic()
        return float(self.before.get("total_seconds", 0.0)) + now - self.started

    def cpu_now(self) -> float:
        return self.ended[1] if self.ended is not None else cpu_seconds()

    def children_cpu(self) -> float:
        """The CPU of the processes the run started and has not waited for: while it runs,
        its live descendants' (a checkpoint written during a portfolio counted the parent's
        CPU alone, 2.3 CPU s for a 920 s run on two lanes); at its answer the larger of that
        and what its lanes reported (a lane's report and its reaped process, counted by the
        forkserver, are the same seconds)."""
        if self.ended is None:
            return descendants_cpu()
        return max(self.ended[2], self.lanes_cpu)

    def figures(self, res: SolveResult) -> dict[str, Any]:
        """The cumulative figures of the run so far, with the best board's score."""
        totals = dict(self.before.get("totals") or {})
        for key, value in self.totals.items():
            totals[key] = totals.get(key, 0) + value
        found = self.found_at if self.found_at is not None else self.before.get("best_found_at")
        return {
            "runs": int(self.before.get("runs", 0)) + 1,
            "total_seconds": round(self.total_seconds(), 3),
            "total_cpu_seconds": round(float(self.before.get("total_cpu_seconds", 0.0))
                                       + self.cpu_now() - self.cpu_started
                                       + self.children_cpu(), 3),
            "best_score": res.objective,
            "best_found_at": None if found is None else round(found, 3),
            "totals": totals,
        }

    def header(self, res: SolveResult) -> dict[str, Any]:
        """What a checkpoint file holds beside its board."""
        name = getattr(self.instance, "name", "") or ""
        return {"family": self.family.name, "instance": name, "instance_sha256": self.hash,
                "objective": self.objective, **self.figures(res)}

    def finish(self, res: SolveResult, ran: dict | None = None) -> None:
        """The run's answer: its counters (or those of the stats `ran`) join the figures,
        which go into its stats."""
        self.ended = (time.monotonic(), cpu_seconds(), descendants_cpu())
        self.totals = counters(res.stats if ran is None else ran)
        self.lanes_cpu = lane_cpu(res.stats if ran is None else ran)
        res.stats.update(self.figures(res))
        if self.resumed_from is not None:
            res.stats["resumed_from"] = self.resumed_from


def header_text(meta: dict) -> str:
    return MARK + json.dumps(meta, separators=(",", ":")) + "\n"


def read_header(path: Path, text: str) -> dict | None:
    """The ledger a checkpoint file holds, or None (a solution file without one)."""
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return None  # read_solution names the fault
        meta = data.get("checkpoint") if isinstance(data, dict) else None
    else:
        line = next((ln for ln in text.splitlines() if ln.startswith(MARK)), None)
        try:
            meta = None if line is None else json.loads(line[len(MARK):])
        except json.JSONDecodeError:
            raise InputError("the checkpoint line is not valid JSON", path, 1) from None
    if meta is not None and not isinstance(meta, dict):
        raise InputError("expected a checkpoint object", path, 1)
    return meta


def resume(path: Path, family: Family, instance, opts: SolveOptions) -> tuple[Ledger,
                                                                               SolveResult]:
    """`--resume FILE`: the ledger to go on with and the checkpoint's board as a verified
    result. A checkpoint of another instance or objective, or a board the checker does not
    accept, is refused in one line."""
    from .textfile import read_text
    from .verdict import finish

    if not opts.objective:
        raise InputError("--resume continues an --objective run; add --objective")
    meta = read_header(path, read_text(path)) or {}
    ledger = Ledger(family, instance, opts.objective, str(path), meta,
                    opts.started or time.monotonic())
    theirs = meta.get("instance_sha256")
    if theirs is not None and theirs != ledger.hash:
        raise InputError(f"a checkpoint of another instance ({meta.get('instance') or '?'}, "
                         f"sha256 {str(theirs)[:12]}), not of this one "
                         f"(sha256 {ledger.hash[:12]})", path)
    if meta.get("objective") not in (None, opts.objective):
        raise InputError(f"a checkpoint of --objective {meta['objective']}, not "
                         f"{opts.objective}", path)
    board = family.read_solution(instance, path)
    res = finish(family, instance, str(path), "resume", Outcome(Status.FEASIBLE, board),
                 replace(opts, on_solution=None), 0.0)
    if not res.verified or res.board is None:
        raise InputError("the board is not a verified board of this instance: "
                         f"{res.stats.get('error') or 'the checker rejects it'}", path)
    return ledger, res
