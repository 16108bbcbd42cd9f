"""CP-SAT's --objective longest: Downing's score maximised on a fixed board.

The tiles fill the board of `region.score_board` (a compact 56-cell shape for the free
56-tile puzzles; a board or triangle with one cell per tile as given), placements and golden
rule as in `cpsat.TantrixCpsat`; a full board is connected and has no holes. Per goal colour
k the model picks one piece of k's lines and counts its tiles:

- on[c, k]: cell c's k-arc belongs to the picked piece (only where the tile carries k);
- an arc literal for each direction of each touching pair showing k (at most one of the
  two); an arc joins two picked cells, and a picked cell whose k-arc crosses a shared edge
  has that edge on the circuit: so the picked cells are a whole piece, never a part of one;
- `add_circuit` over the cells makes the picked cells one piece: a loop goal is a cycle
  (a picked cell's arc may not face off the board); a line goal runs through a dummy node
  joined to the picked cells whose arc faces off the board, so it is one open line;
- maximise the picked cells over the goal colours.

Every model solution is a valid placement whose score is at least the objective (the longest
piece is at least the picked one), and the model can pick the longest pieces, so its optimum
is the best score on this board. That is not a proof for the free puzzle (other shapes), so
an optimum on a chosen board is reported FEASIBLE; on a board the instance fixes, SOLVED.
`--hint FILE` starts from a board (a solution file on the same cells, e.g. the search
backend's best).
"""

from __future__ import annotations

from ...backends import cpsat as runner
from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.limits import built
from ...core.result import Outcome, Solution, SolveOptions
from . import catalogue as cat
from . import cpsat_band
from .cpsat import OPTIONS, TantrixCpsat, _false, _true, workers
from .family import FAMILY
from .instance import TantrixInstance
from .lns import free_shape_options
from .score_pick import on_board, score_layout


class ScoreCpsat(TantrixCpsat):
    objective = True

    def __init__(self, inst: TantrixInstance):
        super().__init__(score_layout(inst, "CP-SAT"))  # the goals are scored, not required
        self.picked = [self._piece(g.colour, g.kind == "line") for g in inst.goals]
        self.model.maximize(sum(sum(p) for p in self.picked))

    def _piece(self, k: str, line: bool) -> list:
        """The on[c, k] literals of one piece of colour k's lines (a loop, or an open line)."""
        lay, m, z = self.layout, self.model, self.z
        node = {c: i for i, c in enumerate(lay.cells)}
        dummy = len(node)
        on = {}
        arcs = []
        for c in lay.cells:
            carriers = [v for (_c, t, _rot), v in self.at[c] if k in cat.colours(t)]
            on[c] = m.new_bool_var(f"on{c}_{k}")
            m.add(sum(carriers) >= on[c])
            arcs.append((node[c], node[c], on[c].Not()))
        for a, d, b in lay.pairs:
            za = z[a, d, k]  # on a full board the golden rule makes b show k back
            if _false(za):
                continue
            fw, bw = m.new_bool_var(f"a{a}{b}_{k}"), m.new_bool_var(f"a{b}{a}_{k}")
            m.add(fw + bw <= 1)
            for arc in (fw, bw):
                m.add_implication(arc, on[a])
                m.add_implication(arc, on[b])
                if not _true(za):
                    m.add_implication(arc, za)
            for c in (a, b):  # a picked cell's arc crosses the shared edge: it is on the circuit
                m.add_bool_or([fw, bw, on[c].Not()] + ([] if _true(za) else [za.Not()]))
            arcs += [(node[a], node[b], fw), (node[b], node[a], bw)]
        any_on = m.new_bool_var(f"any_{k}")
        for c in lay.cells:
            m.add_implication(on[c], any_on)
            outward = [z[c, d, k] for d in range(6)
                       if not lay.inside(hx.neighbour(c, d)) and not _false(z[c, d, k])]
            if not line:
                for zc in outward:
                    self._implies_if(on[c], 1, self._not(zc))
                continue
            if not outward:
                continue
            ends = [self._and([zc, on[c]], f"end{c}_{d}_{k}") for d, zc in enumerate(outward)]
            into, out = m.new_bool_var(f"in{c}_{k}"), m.new_bool_var(f"out{c}_{k}")
            m.add(into + out == sum(ends))
            arcs += [(dummy, node[c], into), (node[c], dummy, out)]
        if line:
            arcs.append((dummy, dummy, any_on.Not()))
        else:
            arcs.append((dummy, dummy, 1))
        m.add_circuit([(u, v, self._lit(lit)) for u, v, lit in arcs])
        return list(on.values())


def hint_board(inst: TantrixInstance, opts: SolveOptions, cells: list) -> Solution | None:
    """`--hint FILE`: a board on the same cells, for the solver's hint."""
    path = opts.params.get("hint")
    if path is None:
        return None
    board = FAMILY.read_solution(inst, path)
    off = sorted(set(board) - set(cells))
    if off:
        raise InputError(f"the hint board has tiles off the scored board, e.g. at {off[0]}; "
                         "expected a board from --objective longest on this instance", path)
    return board


def solve(inst: TantrixInstance, opts: SolveOptions) -> Outcome:
    margin, cap = OPTIONS.value(opts.params, "margin"), OPTIONS.value(opts.params, "cap")
    outline = OPTIONS.value(opts.params, "outline")
    if margin:
        return _in_band(inst, opts, margin, cap, outline)
    for name, value in (("cap", cap), ("outline", outline)):
        if value is not None:
            raise InputError(f"cpsat --{name} steers the shape search: it needs --margin N")
    compiled = built(opts, lambda: ScoreCpsat(inst))
    board = hint_board(inst, opts, compiled.layout.cells)
    if board is not None:
        compiled.suggest(board)
    out = runner.run(compiled, opts, **workers(opts))
    return on_board(out, inst, compiled.layout)


def _in_band(inst: TantrixInstance, opts: SolveOptions, margin: int,
             cap: int | None, outline: int | None) -> Outcome:
    """--margin N: the shape searched inside a band around the start board (`cpsat_band`)."""
    return cpsat_band.solve(inst, free_shape_options(inst, opts, "cpsat --margin"), margin, cap,
                            outline)
