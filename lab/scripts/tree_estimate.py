"""The rowscan search's tree, estimated (Knuth's random probes) and, when small, walked.

For each board, cell order and lookahead: the estimated nodes of the whole tree the search
walks (anchor corner kept top left, as `tilesolve solve --backend search` does) with the
standard error of the mean, the estimated boards in it, and the nodes to a first board a
search in random value order would need if the boards lay at random among the leaves
(nodes / (boards + 1)), in CPU s at a given rate. `--exact-from D` walks the subtree under
each probe's first D cells whole (the boards, which plain probes seldom reach, are then
counted). It prints the first-moment count of boards of a random set too
(`treesize.random_boards`). `--walk` also counts the tree exactly (the
search's own loop), to check the estimate against. The probes are split into batches
printed as they finish, so a heavy tail shows as a batch far from the others.

    python lab/scripts/tree_estimate.py ../shared/e2_data/brendan/pieces_06x06.txt --walk
    python lab/scripts/tree_estimate.py ../shared/e2_data/brendan/pieces_08x08.txt \
        --orders rows,diagonal,pairs --lookahead none,below --probes 1000000
    python lab/scripts/tree_estimate.py ../shared/e2_data/brendan/pieces_07x07.txt \
        --probes 100000 --exact-from 14
    python lab/scripts/tree_estimate.py ../shared/e2_data/brendan/pieces_08x08.txt gen:8:7001 \
        --orders rows,columns --anchors all --probes 32000000 --batches 4

`--anchors all` estimates the tree with each corner piece kept top left (the search's
`--orient auto` chooses among rows and columns with each: edgematch/orient.py). A board is a
file, gen:SIZE:SEED (the generator's board at the hardest colour counts) or shuffled:SEED:FILE
(rowscan_seeds.board).
"""

from __future__ import annotations

import argparse
import math
import os
import time

from rowscan_seeds import board

from tilesolve.families.edgematch import search, treesize


def batches(t, probes: int, nbatch: int, seed: int, exact: int | None) -> treesize.TreeEstimate:
    """The estimate from `nbatch` batches of probes (seeds seed, seed + 1, ...), pooled."""
    size = max(probes // nbatch, 1)
    runs = []
    for k in range(nbatch):
        cpu = time.process_time()
        e = treesize.estimate(t, size, seed + k, exact)
        runs.append(e)
        print(f"    batch {k}: {e.nodes:.4g} nodes, {e.boards:.3g} boards "
              f"({e.full} probes met one), {time.process_time() - cpu:.1f} CPU s",
              flush=True)
    n = size * nbatch
    nodes = sum(e.nodes for e in runs) / nbatch
    boards = sum(e.boards for e in runs) / nbatch
    # pooled variance of the mean: each batch's (se^2 * size) is its variance
    var = sum((e.nodes_se ** 2 * size + e.nodes ** 2) * size for e in runs) / n - nodes ** 2
    bvar = sum((e.boards_se ** 2 * size + e.boards ** 2) * size for e in runs) / n - boards ** 2
    depth = [sum(e.at_depth[d] for e in runs) / nbatch for d in range(t.ncells)]
    return treesize.TreeEstimate(n, nodes, math.sqrt(max(var, 0) / (n - 1)), boards,
                                 math.sqrt(max(bvar, 0) / (n - 1)), sum(e.full for e in runs),
                                 depth)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("boards", nargs="+")
    ap.add_argument("--orders", default="rows", help=f"comma-separated: {', '.join(search.ORDERS)}")
    ap.add_argument("--lookahead", default="none", help="comma-separated: none, bottom, below")
    ap.add_argument("--anchors", default="first", choices=("first", "all"),
                    help="the corner piece kept top left: the first (the search's default "
                         "tree) or each in turn")
    ap.add_argument("--probes", type=int, default=100_000)
    ap.add_argument("--batches", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rate", type=float, default=33e6, help="nodes per CPU s (default 33e6)")
    ap.add_argument("--exact-from", type=int, default=None,
                    help="walk each probe's whole subtree from this depth (default: none)")
    ap.add_argument("--walk", action="store_true", help="also walk the whole tree")
    args = ap.parse_args()
    print(f"load {os.getloadavg()[0]:.2f}")
    for path in args.boards:
        inst = board(path)
        square = inst.width == inst.height
        anchors = inst.corner_pieces() if args.anchors == "all" and square else [None]
        if inst.width == inst.height and not inst.fixed:
            print(f"{path}: a random set with these colour frequencies holds "
                  f"{treesize.random_boards(inst):.3g} boards (first moment)")
        for order, look, anchor in ((o, k, a) for o in args.orders.split(",")
                                for k in args.lookahead.split(",") for a in anchors):
            t = search.RowscanTables(inst, lookahead=look, order=order, anchor=anchor)
            print(f"{path} order={order} lookahead={look} anchor={t.anchor}:", flush=True)
            cpu = time.process_time()
            e = batches(t, args.probes, args.batches, args.seed, args.exact_from)
            took = time.process_time() - cpu
            first = e.nodes / (e.boards + 1)
            widest = max(range(t.ncells), key=lambda d: e.at_depth[d])
            print(f"== {os.path.basename(path)} {order} {look} anchor {t.anchor}: "
                  f"{e.probes:,} probes in "
                  f"{took:.1f} CPU s; nodes {e.nodes:.4g} +- {e.nodes_se:.2g} (se); "
                  f"boards {e.boards:.3g} +- {e.boards_se:.2g} ({e.full} probes met one); "
                  f"widest depth {widest + 1} ({e.at_depth[widest]:.3g} nodes); "
                  f"nodes / (boards + 1) {first:.3g} = {first / args.rate:.3g} CPU s at "
                  f"{args.rate:.3g}/s; whole tree {e.nodes / args.rate:.3g} CPU s",
                  flush=True)
            if args.walk:
                cpu = time.process_time()
                nodes, boards = treesize.walk(t)
                print(f"== walked: {nodes:,} nodes, {boards} boards, "
                      f"{time.process_time() - cpu:.1f} CPU s; estimate / walked "
                      f"{e.nodes / nodes:.3f}, off by {(e.nodes - nodes) / e.nodes_se:+.2f} se",
                      flush=True)
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
