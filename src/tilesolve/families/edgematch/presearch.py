"""A short rowscan search ahead of an exact model: its board becomes the model's hint.

On Brendan's hardest 7x7 the rowscan finds a board in 0.7-2 CPU s while CP-SAT alone finds
none in 600 s and CaDiCaL needs about 30 CPU s; handed the board as hint (CP-SAT) or phases
(SAT), the model confirms it at once. `--presearch S` (seconds, 0 = off) sets it for the
cpsat and sat backends; a search that exhausts its tree is already a proof. Left unset, it
is on for satisfaction boards at least AUTO_SIDE cells wide and tall, for half the time
limit (AUTO_SECONDS without one); below that size CP-SAT and CaDiCaL find boards themselves
within seconds and the search first cost them 0.1-0.4 CPU s (lab/pages/edgematch_frontier.md).
"""

from __future__ import annotations

from dataclasses import replace

from ...core.options import Option, non_negative
from ...core.result import Outcome, SolveOptions, Status
from .instance import EdgeInstance

AUTO_SIDE = 7
AUTO_SHARE = 0.5  # of the time limit: the rest is the model's, to confirm or go on alone
AUTO_SECONDS = 60.0  # with no time limit
PRESEARCH = Option("presearch", non_negative, None,
                   "seconds of rowscan search first, its board handed over as the model's "
                   f"hint (0: off; default: half the time limit, {AUTO_SECONDS:g} s without "
                   f"one, on boards from {AUTO_SIDE}x{AUTO_SIDE}); a search that exhausts "
                   "its tree is a proof")


def seconds(inst: EdgeInstance, opts: SolveOptions) -> float:
    """`--presearch S`, else the size rule; 0 when the run optimises or the caller gave its
    own hint."""
    if opts.objective or opts.hint:
        return 0.0
    given = PRESEARCH.convert(opts.params.get("presearch"))
    if given is not None:
        return given
    if min(inst.width, inst.height) < AUTO_SIDE:
        return 0.0
    left = opts.remaining()
    return AUTO_SECONDS if left is None else AUTO_SHARE * left


def run(inst: EdgeInstance, opts: SolveOptions, budget: float) -> Outcome | None:
    """The rowscan search's result within `budget` seconds on one thread (fixed pieces
    honoured), or None when it found nothing."""
    from . import search

    left = opts.remaining()
    limit = budget if left is None else min(budget, left)
    params = {k: v for k, v in opts.params.items() if k in search.OPTIONS}
    sub = replace(opts, time_limit=limit, threads=1, on_solution=None, params=params)
    out = search.solve(inst, sub)
    return out if out.status in (Status.SOLVED, Status.INFEASIBLE) else None


def hinted(inst: EdgeInstance, opts: SolveOptions) -> tuple[SolveOptions, Outcome | None, str]:
    """(options carrying the search's board as hint, an infeasibility proof or None, what the
    presearch gave: '' when off, 'board' or 'nothing')."""
    budget = seconds(inst, opts)
    if budget <= 0:
        return opts, None, ""
    found = run(inst, opts, budget)
    if found is None:
        return opts, None, "nothing"
    if found.status == Status.INFEASIBLE:
        proof = Outcome(Status.INFEASIBLE, None, None, None, {"presearch": "proof"})
        return opts, proof, "proof"
    started, out = opts.started, replace(opts, hint=found.solution)
    out.started = started  # the time limit keeps counting from the start of the solve
    return out, None, "board"
