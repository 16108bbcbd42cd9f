"""numpy's argsort as it was when the magic-hexagon post was written (numpy 1.17 to 1.24).

The post selects its candidates with ``costs.argsort()``: numpy's default "quicksort", an
introsort that is not stable. Among boards of equal cost, which ones it puts first decides
which boards survive and which clones get mutated, so the EA's course depends on it. From
numpy 1.25 on, argsort of 64-bit numbers runs a vectorised sort on AVX-512 machines, which
orders ties differently, so the post's order is reproduced here instead of asking numpy.

It is numpy's ``aquicksort_`` and ``aheapsort_`` step for step: median-of-three partitions
while a part holds more than 16 entries, insertion sort below, heapsort once a part is
partitioned deeper than twice log2 of the length. On 25 equal costs it returns index 0
first, then 22, 21, 20..., not 0, 1, 2... as a stable sort would.
"""

from __future__ import annotations

from collections.abc import Sequence

SMALL = 15  # numpy's SMALL_QUICKSORT: parts of at most 16 entries are insertion-sorted


def legacy_argsort(v: Sequence) -> list[int]:
    """The indices that sort `v` ascending, ties ordered as numpy 1.17-1.24 orders them."""
    n = len(v)
    idx = list(range(n))
    stack: list[tuple[int, int, int]] = []
    pl, pr, depth = 0, n - 1, 2 * (n.bit_length() - 1) if n else 0
    while True:
        if depth < 0:
            _heapsort(v, idx, pl, pr)
        else:
            while pr - pl > SMALL:
                pi = _partition(v, idx, pl, pr)
                depth -= 1
                if pi - pl < pr - pi:  # the larger part waits on the stack
                    stack.append((pi + 1, pr, depth))
                    pr = pi - 1
                else:
                    stack.append((pl, pi - 1, depth))
                    pl = pi + 1
            _insertion_sort(v, idx, pl, pr)
        if not stack:
            return idx
        pl, pr, depth = stack.pop()


def _partition(v: Sequence, idx: list[int], pl: int, pr: int) -> int:
    pm = pl + ((pr - pl) >> 1)
    if v[idx[pm]] < v[idx[pl]]:
        idx[pm], idx[pl] = idx[pl], idx[pm]
    if v[idx[pr]] < v[idx[pm]]:
        idx[pr], idx[pm] = idx[pm], idx[pr]
    if v[idx[pm]] < v[idx[pl]]:
        idx[pm], idx[pl] = idx[pl], idx[pm]
    vp = v[idx[pm]]
    pi, pj = pl, pr - 1
    idx[pm], idx[pj] = idx[pj], idx[pm]
    while True:
        pi += 1
        while v[idx[pi]] < vp:
            pi += 1
        pj -= 1
        while vp < v[idx[pj]]:
            pj -= 1
        if pi >= pj:
            break
        idx[pi], idx[pj] = idx[pj], idx[pi]
    idx[pi], idx[pr - 1] = idx[pr - 1], idx[pi]
    return pi


def _insertion_sort(v: Sequence, idx: list[int], pl: int, pr: int) -> None:
    for i in range(pl + 1, pr + 1):
        vi = idx[i]
        key = v[vi]
        j = i
        while j > pl and key < v[idx[j - 1]]:
            idx[j] = idx[j - 1]
            j -= 1
        idx[j] = vi


def _heapsort(v: Sequence, idx: list[int], pl: int, pr: int) -> None:
    """numpy's aheapsort_ on idx[pl..pr] (its 1-based heap: a[k] is idx[pl + k - 1])."""
    n = pr - pl + 1
    base = pl - 1

    def sift(i: int, top: int, size: int) -> None:
        j = 2 * i
        while j <= size:
            if j < size and v[idx[base + j]] < v[idx[base + j + 1]]:
                j += 1
            if v[top] < v[idx[base + j]]:
                idx[base + i] = idx[base + j]
                i, j = j, 2 * j
            else:
                break
        idx[base + i] = top

    for k in range(n >> 1, 0, -1):
        sift(k, idx[base + k], n)
    while n > 1:
        top = idx[base + n]
        idx[base + n] = idx[base + 1]
        n -= 1
        sift(1, top, n)
