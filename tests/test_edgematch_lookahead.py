"""The rowscan's lookahead (`--lookahead bottom|below`): it cuts nodes and never a solution.

Counting walks the whole tree, so a count with the lookahead equal to the count without it
(the same boards, not only as many) shows that the cut is exact on that board; the compiled
core and the Python loop walk the same pruned tree.
"""

from __future__ import annotations

import pytest
from conftest import run_cli, walk

from tilesolve.core.errors import InputError
from tilesolve.core.result import SolveOptions, Status
from tilesolve.families.edgematch import search
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.generate import generate, generate_text

MODES = ("none", "bottom", "below")
needs_c = pytest.mark.skipif(search._rowscan is None, reason="the compiled core is not built")


def _count(inst, mode: str, engine: str = "auto", fix=None):
    out = search.count(inst, SolveOptions(count=True, fix=fix,
                                          params={"lookahead": mode, "engine": engine}))
    assert out.stats["complete"]
    return {frozenset(sol.items()) for sol in out.solutions}, out.stats["nodes"]


@pytest.mark.parametrize(("width", "height", "seed"),
                         [(4, 4, 1), (4, 4, 2), (5, 5, 3), (5, 5, 4), (3, 5, 5)])
def test_lookahead_keeps_every_solution_and_cuts_nodes(width, height, seed):
    inst, _ = generate(width, height, seed=seed)
    found = {mode: _count(inst, mode) for mode in MODES}
    boards = found["none"][0]
    assert boards and all(verify(inst, dict(board)).ok for board in boards)
    for mode in MODES:
        assert found[mode][0] == boards, mode
    nodes = [found[mode][1] for mode in MODES]
    # each level counts more kinds of cell, so it can only cut more
    assert nodes[0] >= nodes[1] >= nodes[2]


def test_lookahead_cuts_a_real_share_of_a_5x5_tree():
    inst, _ = generate(5, 5, seed=3)
    nodes = {mode: _count(inst, mode)[1] for mode in MODES}
    # measured: 1,235,618 nodes without, 947,098 counting the last row, 831,995 every row
    assert nodes["bottom"] < 0.9 * nodes["none"]
    assert nodes["below"] < nodes["bottom"]


def test_lookahead_counts_the_same_boards_around_a_fixed_piece():
    inst, planted = generate(5, 5, seed=4)
    fix = {(2, 3): planted[2, 3]}
    plain = _count(inst, "none", fix=fix)
    assert _count(inst, "below", fix=fix)[0] == plain[0]
    assert all(sol[2, 3] == planted[2, 3] for sol in map(dict, plain[0]))


@needs_c
@pytest.mark.parametrize("mode", ["bottom", "below"])
def test_c_and_python_walk_the_same_pruned_tree(mode):
    inst, _ = generate(5, 5, seed=3)
    tables = search.RowscanTables(inst, lookahead=mode)
    # resumed in small steps: the counts must survive each return
    walks = [walk(kind(tables, 77)) for kind in (search.CSearcher, search.PySearcher)]
    assert walks[0] == walks[1] and walks[0][-1][1] > 0
    small, _ = generate(4, 4, seed=2)
    assert _count(small, mode, "c") == _count(small, mode, "python")


@pytest.mark.parametrize("mode", ["bottom", "below"])
def test_search_with_lookahead_solves_verified(mode):
    inst, _ = generate(6, 6, seed=11)
    out = search.solve(inst, SolveOptions(time_limit=120, seed=2, threads=1,
                                          params={"lookahead": mode}))
    assert out.status is Status.SOLVED
    assert verify(inst, out.solution).ok


def test_lookahead_option_refuses_an_unknown_mode(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(generate_text(seed=1, size="4"))
    proc = run_cli("solve", path, "--backend", "search", "--lookahead", "sideways")
    assert proc.returncode == 2 and "--lookahead" in proc.stderr
    assert "Traceback" not in proc.stderr
    with pytest.raises(InputError):
        search.LOOKAHEAD.convert("sideways")
