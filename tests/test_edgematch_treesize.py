"""The size of the rowscan search's tree: Knuth's random-probe estimate against the whole
tree walked by the search, for each cell order the tables can be built in (rows, diagonal,
pairs of rows) and with the lookahead; the compiled estimator and the Python one draw the
same paths."""

from __future__ import annotations

import pytest
from conftest import E2_DATA, needs_e2_data

from tilesolve.families.edgematch import search, treesize
from tilesolve.families.edgematch.check import verify
from tilesolve.families.edgematch.generate import generate
from tilesolve.families.edgematch.parse import read_instance

needs_c = pytest.mark.skipif(search._rowscan is None, reason="the compiled core is not built")


def _boards(t: search.RowscanTables, kind) -> set:
    """Every board of the tree, as the search finds them"""
    searcher, found = kind(t, None), set()
    while (code := searcher.step(10**6)[0]) != -1:
        if code == 1:
            found.add(frozenset(searcher.solution().items()))
    return found


@pytest.mark.parametrize(("width", "height", "seed"), [(4, 4, 1), (4, 4, 2), (5, 3, 5)])
def test_every_cell_order_walks_to_the_same_boards(width, height, seed):
    inst, _ = generate(width, height, seed=seed)
    boards = _boards(search.RowscanTables(inst), search.PySearcher)
    assert boards and all(verify(inst, dict(board)).ok for board in boards)
    for order in search.ORDERS:
        t = search.RowscanTables(inst, order=order)
        assert all(t.left[d] < d and t.up[d] < d for d in range(t.ncells)), order
        assert t.cells[0] == (0, 0) and sorted(t.cells) == sorted(inst.cells())
        assert _boards(t, search.PySearcher) == boards, order
        nodes, found = treesize.walk(t, "python")
        assert found == len(boards)
    assert search.cell_order(width, height, "diagonal")[:3] == [(0, 0), (0, 1), (1, 0)]
    assert search.cell_order(width, height, "pairs")[:3] == [(0, 0), (1, 0), (0, 1)]
    assert search.cell_order(width, height, "rows")[:3] == [(0, 0), (0, 1), (0, 2)]


@needs_c
@pytest.mark.parametrize("order", search.ORDERS)
def test_the_compiled_core_walks_each_order_like_the_python_loop(order):
    inst, _ = generate(5, 5, seed=3)
    t = search.RowscanTables(inst, order=order)
    assert _boards(t, search.CSearcher) == _boards(t, search.PySearcher)
    assert treesize.walk(t) == treesize.walk(t, "python")


@pytest.mark.parametrize("order", search.ORDERS)
@pytest.mark.parametrize("lookahead", ["none", "below"])
def test_probes_from_the_root_count_the_tree_exactly(order, lookahead):
    """exact=0: every probe walks the whole tree, so the estimate is the tree itself"""
    inst, _ = generate(4, 4, seed=2)
    t = search.RowscanTables(inst, lookahead=lookahead, order=order)
    nodes, boards = treesize.walk(t, "python")
    e = treesize.estimate(t, 2, seed=1, exact=0, engine="python")
    assert (e.nodes, e.boards, e.nodes_se, e.full) == (nodes, boards, 0.0, 2)


@needs_c
@pytest.mark.parametrize("order", search.ORDERS)
@pytest.mark.parametrize("lookahead", ["none", "bottom", "below"])
def test_the_estimate_agrees_with_the_walked_tree(order, lookahead):
    inst, _ = generate(5, 5, seed=3)
    t = search.RowscanTables(inst, lookahead=lookahead, order=order)
    nodes, boards = treesize.walk(t)
    e = treesize.estimate(t, 40_000, seed=7)
    assert 0 < e.nodes_se < 0.05 * nodes
    assert abs(e.nodes - nodes) < 4 * e.nodes_se
    assert abs(e.boards - boards) < 4 * e.boards_se
    # the nodes per depth add up to the whole estimate
    assert sum(e.at_depth) == pytest.approx(e.nodes)
    deep = treesize.estimate(t, 4_000, seed=7, exact=10)
    assert abs(deep.nodes - nodes) < 4 * deep.nodes_se
    assert abs(deep.boards - boards) < 4 * deep.boards_se and deep.full > e.full / 10


@needs_c
@pytest.mark.parametrize(("lookahead", "exact"), [("none", None), ("none", 9), ("below", 12)])
def test_the_compiled_estimate_draws_the_python_paths(lookahead, exact):
    inst, _ = generate(5, 5, seed=4)
    t = search.RowscanTables(inst, lookahead=lookahead, order="diagonal")
    c = treesize.estimate(t, 300, seed=11, exact=exact)
    assert c == treesize.estimate(t, 300, seed=11, exact=exact, engine="python")
    assert c != treesize.estimate(t, 300, seed=12, exact=exact)


@needs_e2_data()
def test_first_moment_counts_of_brendans_sets():
    """The random-set counts the frontier notes compare with the boards found (4 and 65 on
    the 5x5 and 6x6, walked; about 7,000 on the 7x7, estimated)"""
    counts = [treesize.random_boards(read_instance(E2_DATA / "brendan" / f"pieces_0{n}x0{n}.txt"))
              for n in range(5, 10)]
    assert counts == pytest.approx([0.0256, 0.393, 18.5, 0.0513, 0.000305], rel=0.01)
    with pytest.raises(ValueError):
        treesize.random_boards(generate(5, 4, seed=1)[0])
