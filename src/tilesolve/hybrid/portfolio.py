"""The portfolio: backends race in parallel processes, and the GA feeds the exact solvers.

1. Race. One process per backend the family has (or `--backends cpsat,ga`), with thread
   budgets that fit the machine (see hybrid.budget). The first verified `solved` or proven
   `infeasible` answer wins; the other lanes are stopped cooperatively, then terminated.
2. Hint flow. The GA lane streams its elite. At epochs (first after `--epoch` seconds, then
   at doubling intervals) an exact lane (`<backend>+hintK`) is (re)started with the newest
   elite as a hint, when it improved since the last one. A partial hint is completed first by
   a quick solve with it imposed (CP-SAT uses complete hints far better than partial ones).
3. CBGI as constraints. Genes the GA population has converged on arrive as a partial
   assignment; a side exact lane (`<backend>+cbgiK`) solves with them imposed. A solution
   wins; a proof of infeasibility means the GA converged wrongly: the genes are released in
   the GA (through its control queue) and reported in stats["cbgi"]. A timeout decides nothing.

Portfolio options (`solve --backend portfolio --name value`, strings from the command line):
`backends` (comma list), `hints` / `cbgi` (on|off), `epoch` (seconds), `hint_backend`,
`cbgi_backend` (exact backends for the side lanes), `cbgi_time` (seconds per CBGI run),
`adapt` (on|off), `review` (seconds, see 4) and `share` (on|off, see 5). Every other option
is passed on to the lanes (GA parameters...).

4. Cores to what pays (optimisation runs). Every `review` seconds (default: a tenth of the
   time limit, at least 30 s) the lanes that raised the best verified score in the last review
   window are credited. A heuristic lane (not CP-SAT, MILP or SAT, which can prove optimality)
   that ran the whole window without a credit, while another lane earned one, is stopped and
   its core goes to a new lane of the best-credited backend, started from the best board with
   a new seed. On the official Eternity II this moves a core between the break search and
   the LNS, whichever is raising the best score on the run (lab/pages/hybrid.md: the 461 of seed 2
   came from a second break search started at a review); stats["adapt"] lists each change.

5. Lanes that share (optimisation runs, `--share on`; by default on when a lane that
   restarts from boards races beside one that does not, or a lane takes a bound). Each new
   best verified board is sent to the other lanes whose backend takes boards: by an `inbox`
   (edge matching's LNS and memetic lanes) the LNS lane starts its next annealing cycle from
   it when it beats its own best, the memetic pool puts it in place of its worst member; by
   a `bound` (the break search) the lane looks only for boards that beat its score.

Everything reported passes the family's checker (core.verdict.finish) in this process.

`Portfolio` runs the race; `standings.Standings` keeps its books (lanes, winner, best board),
`side_lanes.HintFlow` and `side_lanes.Cbgi` are the policies of 2. and 3., and
`adapt.Reallocation` that of 4.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..core.checkpoint import counters_of
from ..core.errors import InputError
from ..core.family import Family
from ..core.limits import allowance
from ..core.options import Option, Options, seconds
from ..core.progress import Progress, display
from ..core.result import Outcome, Solution, SolveOptions, SolveResult, Status
from ..core.verdict import finish
from . import budget
from .adapt import Reallocation
from .lanes import POLL, LaneSpec, takes_boards
from .race import Race
from .side_lanes import Cbgi, HintFlow
from .standings import Standings

OPTIONS = Options(
    Option("backends", str, None, "comma list of racing backends (default: as many as the "
           "cores allow, in the order cpsat, search, ga, sat, milp)"),
    Option("hints", bool, True, "restart an exact lane from the GA's newest elite at epochs"),
    Option("cbgi", bool, True, "side exact lanes solve with the genes the GA converged on "
           "imposed"),
    Option("epoch", seconds, 2.0, "s before the first hint epoch (then doubling intervals)"),
    Option("hint_backend", str, None, "exact backend of the hint lanes (default: the first "
           "exact one racing)"),
    Option("cbgi_backend", str, None, "exact backend of the CBGI lanes (default: the first "
           "exact one racing)"),
    Option("cbgi_time", seconds, None, "s per CBGI run (default: a quarter of the limit, at "
           "least 2; 10 without -t)"),
    Option("adapt", bool, True, "--objective: a heuristic lane that raised nothing in a review "
           "window gives its core to the best-credited backend"),
    Option("review", seconds, None, "--objective: s between reviews (default: a tenth of the "
           "limit, at least 30; 60 without -t)"),
    Option("solver", str, None, "the MILP lane's solver (cbc, highs) or the SAT lane's"),
    # by default on only where boards flow one way, from a lane that takes none (the break
    # search) to one that restarts from them (the LNS): between two lanes that both take
    # boards (LNS and memetic pool, official Eternity II, 120 s, 3 seeds; lab/pages/hybrid.md)
    # sharing ended at 455 / 455 / 455 and apart at 455 / 457 / 455
    Option("share", bool, None, "--objective: each new best verified board goes to the "
           "other lanes that take boards: edge matching's LNS and memetic restart from it, "
           "its break search then looks only for better boards (default: on when a lane "
           "that restarts from boards races beside one that does not, or beside the break "
           "search)"),
)
ROUTED = ("solver",)  # the portfolio's options that its lanes read too
GRACE = 3.0  # seconds for the cooperative stop before processes are terminated (deadline)
GRACE_WON = 1.0  # the same once a winner is known: the others' answers no longer matter


def grace_for(limit: float | None, won: bool) -> float:
    """The lanes' grace (GRACE, or GRACE_WON with a winner) within half the limit's allowance
    (a tenth of it, at least 1 s)."""
    full = GRACE_WON if won else GRACE
    return full if limit is None else min(full, max(0.5, 0.05 * limit))




def _side_backend(params: dict, key: str, backends: list[str], family: Family) -> str | None:
    """The exact backend for a side lane: the one named, else the first exact one racing."""
    name = params.get(key)
    if name is None:
        exact = budget.exact(backends)
        return exact[0] if exact else None
    exact = [b for b in budget.EXACT_BACKENDS if budget.has_backend(family, b)]
    if name not in exact:
        raise InputError(f"--{key.replace('_', '-')} must name an exact backend of "
                         f"{family.name} ({', '.join(exact)}), got {name!r}")
    return str(name)


def share_by_default(family: Family, backends: list[str]) -> bool:
    """Share by default? When some racing lanes restart from boards (an `inbox`) while
    others do not, or a lane takes the others' scores as its bound (`bound`): sharing then
    costs no lane its own line of search. Lanes that all restart from each other's boards
    converge (lab/pages/hybrid.md, "Lanes that share their best boards")."""
    takes = [takes_boards(family, b) for b in backends]
    inbox = [t == "inbox" for t in takes]
    return len(backends) > 1 and ("bound" in takes or (any(inbox) and not all(inbox)))


@dataclass
class Config:
    backends: list[str]
    threads: dict[str, int]
    hints: bool
    cbgi: bool
    epoch: float
    hint_backend: str | None
    cbgi_backend: str | None
    cbgi_time: float
    adapt: bool
    review: float
    share: bool
    passed: dict[str, Any]  # options for the lanes

    @classmethod
    def of(cls, family: Family, opts: SolveOptions, instance=None) -> Config:
        p = opts.params
        cores = budget.cores(opts.threads)
        backends = budget.choose(family, p.get("backends"), cores, opts.objective, instance)
        has_ga = "ga" in backends
        limit = opts.time_limit
        own = budget.check_params(family, backends, p, OPTIONS)
        return cls(
            backends=backends,
            threads=budget.threads(backends, cores),
            hints=has_ga and own["hints"],
            cbgi=has_ga and own["cbgi"],
            epoch=own["epoch"],
            hint_backend=_side_backend(own, "hint_backend", backends, family),
            cbgi_backend=_side_backend(own, "cbgi_backend", backends, family),
            cbgi_time=own.get("cbgi_time") or (max(2.0, 0.25 * limit) if limit else 10.0),
            adapt=bool(opts.objective) and own["adapt"],
            review=own.get("review") or (max(30.0, 0.1 * limit) if limit else 60.0),
            share=bool(opts.objective) and (share_by_default(family, backends)
                                            if own.get("share") is None else own["share"]),
            passed={k: v for k, v in p.items() if k not in OPTIONS or k in ROUTED},
        )

    def params_for(self, backend: str) -> dict[str, Any]:
        """The lane's options; `solver` goes only to the backend it names a solver of."""
        out = dict(self.passed)
        if backend == "ga" and self.cbgi:
            out["cbgi"] = "on"  # the GA fixes converged genes only when asked to
        solver = out.pop("solver", None)
        if solver is not None:
            owner = "milp" if str(solver).lower() in ("cbc", "highs") else "sat"
            if backend == owner:
                out["solver"] = solver
        if "search" in self.backends and backend != "search":
            # the search races in its own lane: a model would run it again first (a lane
            # takes only the options its backend declares, so the others never see this)
            out.setdefault("presearch", 0)
        return out


class Portfolio:
    """One portfolio solve. `run()` returns the verified SolveResult."""

    def __init__(self, family: Family, instance, path: str, opts: SolveOptions, fmt=None):
        if opts.count:
            raise InputError("--count is not supported by the portfolio; use one backend")
        self.family, self.instance, self.path, self.fmt, self.opts = (
            family, instance, path, fmt, opts)
        self.cfg = Config.of(family, opts, instance)
        self.race = Race()
        self.t0 = time.perf_counter()
        left = opts.remaining()  # reading the instance (and the CLI's start-up) counted
        # the lanes get all that is left: each stops lanes.MARGIN before this deadline to hand
        # its answer back (its last answer came 0.19 s before the race's end at -t 8 and a
        # load of 5), and the command line has kept back what its own end needs
        # (core.limits.finish_reserve). A grace kept back as well stopped the lanes of `-t 8`
        # at 5.2 s; a lane that does not stop by itself now gets its grace after the deadline
        # (`grace`), and the CLI's watchdog answers with the best board if that runs late.
        self.limit = left
        self.deadline = None if left is None else self.t0 + left
        self.counter = 0  # side lanes started, for their names
        self.progress = Progress(opts.progress_jsonl, display(opts), scored=bool(opts.objective),
                                 boards=opts.log_boards)
        self.standings = Standings(family, instance, path, opts, self.progress)
        self.hints = HintFlow(self)
        self.cbgi = Cbgi(self)
        self.adapt = Reallocation(self)
        self.standings.on_gain = self.on_gain
        self.shared = 0  # boards sent to other lanes

    # --- lanes ---------------------------------------------------------------------------
    def now(self) -> float:
        return time.perf_counter() - self.t0

    def remaining(self) -> float | None:
        return None if self.deadline is None else max(0.05, self.deadline - time.perf_counter())

    def start_lane(self, name: str, backend: str, role: str, threads: int,
                   limit: float | None, seed: int | None = None, **extra) -> None:
        spec = LaneSpec(
            name=name,
            backend=backend,
            path=self.path,
            fmt=self.fmt,
            family=self.family.name,
            time_limit=limit,
            seed=self.opts.seed if seed is None else seed,
            threads=threads,
            objective=self.opts.objective,
            params=self.cfg.params_for(backend),
            stream=backend == "ga" or bool(self.opts.objective),
            deadline=None if self.deadline is None
            else time.time() + (self.deadline - time.perf_counter()),
            **extra,
        )
        if role in ("hint", "cbgi"):
            # a symmetry-breaking pin may contradict the GA's board, which can sit in any of
            # the symmetric positions: the wrong genes would then be the pin's, not the GA's
            spec.params["no_symmetry"] = "true"
        self.race.start(spec)
        self.standings.started(name, backend, role, threads, self.now(), limit)
        if self.cfg.share and self.standings.best is not None:
            # a lane started during the run (the adaptive review's) gets the best so far at
            # once, not at the next gain: a break search started without it looked for boards
            # no better than the run's best until then (lab/pages/hybrid.md: `bounded` 0)
            self.hand_best(name, backend)

    def start(self) -> None:
        begun = self.begin_from(self.opts.hint)
        for b in self.cfg.backends:
            self.start_lane(b, b, "race", self.cfg.threads[b], self.remaining(),
                            cbgi=b == "ga" and self.cfg.cbgi, hint=self.opts.hint)
            if begun and not self.cfg.share:  # (sharing lanes were handed it as they started)
                self.hand_best(b, b)

    def begin_from(self, board: Solution | None) -> bool:
        """An optimisation run given a start board (`solve --resume`): a verified one is the
        run's first best; every lane gets it as its hint and, where it takes boards, as the
        run's best (hand_best), as lanes share a best during the run."""
        if not (self.opts.objective and board):
            return False
        res = finish(self.family, self.instance, self.path, "start",
                     Outcome(Status.FEASIBLE, board), self.opts, 0.0)
        if not res.verified:
            return False
        self.standings.best = ("start", res)
        return True

    def side_name(self, backend: str, kind: str) -> str:
        self.counter += 1
        return f"{backend}+{kind}{self.counter}"

    # --- events --------------------------------------------------------------------------
    def handle(self, msg: tuple) -> None:
        kind, name = msg[0], msg[1]
        if kind == "elite":
            self.on_elite(name, msg[2], msg[3], msg[4] if len(msg) > 4 else None)
        elif kind == "fixed":
            self.cbgi.on_fixed(msg[2])
        elif kind == "released":
            self.cbgi.acknowledged(msg[2])
        elif kind == "report":
            self.progress.update(name, msg[2])
        elif kind == "done":
            self.progress.update(name, {"status": msg[2].status.value})
            self.on_done(name, msg[2], msg[3])
        elif kind == "error":
            self.standings.failed(name, msg[2], msg[3])

    def on_elite(self, lane: str, solution: Solution, fitness: float | None,
                 source: str | None = None) -> None:
        if lane not in self.standings.racing("ga"):
            # an exact lane's incumbent (optimisation): keep it in case the lane is killed
            self.standings.offer(lane, Outcome(Status.FEASIBLE, solution, fitness), 0.0, source)
            return
        if self.opts.objective:  # a scored board from the GA counts as it comes
            self.standings.offer(lane, Outcome(Status.FEASIBLE, solution, fitness), 0.0,
                                 source or "ga")
        self.hints.note(solution, fitness)

    def on_done(self, name: str, outcome: Outcome, seconds: float) -> None:
        self.standings.done(name, outcome, seconds)
        role = self.standings.roles[name]
        if role == "cbgi":
            self.cbgi.done(name, outcome, seconds)
            return
        rec = self.standings.records[name]
        if role == "hint" and rec.get("superseded"):
            rec["note"] = "superseded by a newer hint"
        self.standings.offer(name, outcome, seconds)

    def on_gain(self, lane: str) -> None:
        """A lane raised the best verified score: credit it, and hand the board to the other
        lanes that take boards (hybrid.lanes.Inbox), each restarting from it when it next
        restarts: the lanes search apart between restarts and meet at the best board."""
        self.adapt.credit(lane)
        if not self.cfg.share:
            return
        for ln in self.race.running():
            if ln.spec.name != lane:
                self.hand_best(ln.spec.name, ln.spec.backend)

    def hand_best(self, name: str, backend: str) -> None:
        """Send the run's best verified board to a lane whose backend takes boards."""
        best = self.standings.best[1]
        if best.verified and takes_boards(self.family, backend):
            self.race.send(name, ("board", dict(best.board), best.objective))
            self.adapt.handed(name)
            self.shared += 1

    # --- the clock -----------------------------------------------------------------------
    def tick(self) -> None:
        """Start side runs that are due: a hinted exact run at an epoch, a pending CBGI run;
        move cores at a review."""
        if self.standings.winner is not None:
            return
        self.adapt.tick()
        running = {ln.spec.name for ln in self.race.running()}
        self.hints.tick(running)
        self.cbgi.tick(running)

    def finished(self) -> bool:
        if self.standings.winner is not None:
            return True
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            return True
        # nothing running and nothing that could start: every lane has given its answer
        return not self.race.running() and self.cbgi.pending is None

    def grace(self) -> float:
        """Seconds the lanes get to stop by themselves before they are terminated: within
        the limit's allowance (a tenth of it, at least 1 s), half of which is left for the
        rest (3 s of grace overran `-t 5` by 3-14 s at a load of 13); at the deadline, which
        is the limit's end, a quarter of it, the CLI's watchdog's wait past the limit."""
        won = self.standings.winner is not None
        grace = grace_for(self.opts.time_limit, won=won)
        if won or self.opts.time_limit is None:
            return grace
        return min(grace, allowance(self.opts.time_limit) / 4)

    # --- the whole solve -----------------------------------------------------------------
    def run(self) -> SolveResult:
        try:
            self.start()
            while not self.finished():
                wait = POLL * 2
                if self.deadline is not None:
                    wait = min(wait, max(0.0, self.deadline - time.perf_counter()))
                msg = self.race.get(wait)
                if msg is not None:
                    self.handle(msg)
                else:
                    for lost in self.race.reap():
                        self.handle(lost)
                self.tick()
        except KeyboardInterrupt as stop:
            self.race.kill_all()
            # the answer is given from the best board kept (cli, api); the lanes' work so far
            # goes with the interrupt, for the run's totals and its checkpoint
            self.reported_counters()
            stop.stats = {"backends": self.standings.records}
            raise
        finally:
            self.race.shutdown(self.grace(),
                               on_message=self._late)
            self.progress.close()
        return self.result()

    def _late(self, msg: tuple) -> None:
        """Messages during shutdown: final answers still count (best boards, late proofs)."""
        if msg[0] in ("done", "error", "released", "report"):
            self.handle(msg)
        elif msg[0] == "elite":
            self.on_elite(msg[1], msg[2], msg[3], msg[4] if len(msg) > 4 else None)

    def reported_counters(self) -> None:
        """Lanes stopped before they answered (an interrupt, the limit's grace spent): their
        counters (nodes, restarts, generations...) as they last reported them, so that the
        run's totals and its checkpoint keep their work; `reported` marks such stats. A lane
        killed by an interrupt adds the CPU seconds its process had used (a portfolio
        stopped by Ctrl-C after 920 s on two lanes counted 2.3 CPU s, the parent's own)."""
        for name, rec in self.standings.records.items():
            if rec.get("stats"):
                continue
            last: dict = counters_of(self.progress.lanes.get(name) or {})
            lane = self.race.lanes.get(name)
            if lane is not None and lane.cpu is not None:
                last["cpu_seconds"] = round(lane.cpu, 3)
            if last:
                rec["stats"] = {**last, "reported": True}

    def result(self) -> SolveResult:
        seconds = time.perf_counter() - self.t0
        elite = self.hints.elite
        if self.standings.winner is None and elite is not None:
            fitness = elite[1] if self.opts.objective else None
            self.standings.offer("ga", Outcome(Status.TIMEOUT, elite[0], fitness), seconds)
        won = self.standings.winner is not None
        self.reported_counters()
        name, res = self.standings.settle(seconds)
        res.backend = "portfolio"
        res.seconds = seconds
        if res.status == Status.BUDGET and self.deadline is not None \
                and time.perf_counter() >= self.deadline:
            res.status = Status.TIMEOUT  # a lane's budget, but the race ran to its limit
        lane_stats = res.stats
        res.stats = {
            "time_limit": None if self.limit is None else round(self.limit, 4),
            "winner": name if won else None,
            "best_from": name,
            "backends": self.standings.records,
            "threads": self.cfg.threads,
            "hints": self.hints.stats(),
            "cbgi": self.cbgi.stats(),
        }
        if self.opts.objective:
            res.stats["adapt"] = self.adapt.stats()
            res.stats["share"] = self.cfg.share
            res.stats["shared"] = self.shared
        for key in ("error", "broken_rules"):  # why it failed; how far its best board is
            if lane_stats.get(key):
                res.stats[key] = lane_stats[key]
        return res


def solve_portfolio(family: Family, instance, path: str, opts: SolveOptions,
                    fmt: str | None = None) -> SolveResult:
    return Portfolio(family, instance, path, opts, fmt).run()
