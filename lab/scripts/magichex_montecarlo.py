"""The magic-hexagon post's Monte Carlo section: the mean cost of a random starting board
(the post: about 425) and the probability that one random swap lowers it (the post: 0.38),
estimated with a stated sample and seed, and the readings of the post's cost tried for 425.

    python lab/scripts/magichex_montecarlo.py --boards 2000000 --seed 0 \\
        --csv lab/reproductions/magichex_montecarlo.csv

reproduce_magichex.py runs the same (its table `montecarlo`) and puts the CSV on its page.
The cost is the post's own code, transcribed: its ROW_MAP (15 lines of the order-3 hexagon,
cells 1..19 in reading order, 0 pads short lines with the board's constant column 0) and its
get_cost, sum over lines of |M - line sum| with M = 38. Boards are the post's start
distribution, uniform permutations of 1..19 (`np.random.permutation(19) + 1`).
"""

from __future__ import annotations

import argparse
import csv
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import experiment as rp
import numpy as np

M = 38
CELLS = 19
ROW_MAP = np.array([  # the post's, in its order: rows, then top -> bottom left, bottom right
    [1, 2, 3, 0, 0], [4, 5, 6, 7, 0], [8, 9, 10, 11, 12], [13, 14, 15, 16, 0], [17, 18, 19, 0, 0],
    [1, 4, 8, 0, 0], [2, 5, 9, 13, 0], [3, 6, 10, 14, 17], [7, 11, 15, 18, 0], [12, 16, 19, 0, 0],
    [3, 7, 12, 0, 0], [2, 6, 11, 16, 0], [1, 5, 10, 15, 19], [4, 9, 14, 18, 0], [8, 13, 17, 0, 0],
])
POST = {"mean start cost": 425.0, "improvement probability": 0.38}
CHUNK = 100_000  # boards per numpy call: (CHUNK, 15, 5) int64 line cells are 60 MB


def post_boards(rs: np.random.RandomState, n: int, first: int = 1) -> np.ndarray:
    """n boards of the post's layout: column 0 holds 0, columns 1..19 a uniform permutation
    of first..first+18 (argsort of uniforms: the same distribution as np.random.permutation)."""
    cells = rs.random_sample((n, CELLS)).argsort(axis=1) + first
    return np.hstack([np.zeros((n, 1), dtype=np.int64), cells])


def free_pad_boards(rs: np.random.RandomState, n: int) -> np.ndarray:
    """permutation(20): the numbers 0..19 over all 20 columns, so column 0 (the pads) is a
    random number too."""
    return rs.random_sample((n, CELLS + 1)).argsort(axis=1)


def deviations(boards: np.ndarray) -> np.ndarray:
    """M - line sum, per board and line (the post's ROW_MAP indexing)."""
    return M - boards[:, ROW_MAP].sum(axis=2)


def post_cost(boards: np.ndarray) -> np.ndarray:
    """The post's get_cost."""
    return np.abs(deviations(boards)).sum(axis=1)


@dataclass(frozen=True)
class Reading:
    name: str
    boards: Callable[[np.random.RandomState, int], np.ndarray]
    cost: Callable[[np.ndarray], np.ndarray]


def _direction_totals(d: np.ndarray) -> np.ndarray:
    """|5M - sum of a direction's five lines|, summed over the three directions."""
    return np.abs(d.reshape(len(d), 3, 5).sum(axis=2)).sum(axis=1)


READINGS = (
    Reading("the post's code: sum over 15 lines of |M - sum|", post_boards, post_cost),
    Reading("squared: sum over 15 lines of (M - sum)^2", post_boards,
            lambda b: (deviations(b) ** 2).sum(axis=1)),
    Reading("root of the squared sum", post_boards,
            lambda b: np.sqrt((deviations(b) ** 2).sum(axis=1))),
    Reading("mean square per line", post_boards, lambda b: (deviations(b) ** 2).mean(axis=1)),
    Reading("each line counted in three directions: 3 x the post's", post_boards,
            lambda b: 3 * post_cost(b)),
    Reading("one direction only (the 5 rows)", post_boards,
            lambda b: np.abs(deviations(b)[:, :5]).sum(axis=1)),
    Reading("per direction: |5M - direction total|", post_boards,
            lambda b: _direction_totals(deviations(b))),
    Reading("numbers 0..18 (permutation(19) without + 1)",
            lambda rs, n: post_boards(rs, n, first=0), post_cost),
    Reading("numbers 0..19 over 20 columns (permutation(20): pads read a random number)",
            free_pad_boards, post_cost),
)


def swap(boards: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = boards.copy()
    rows = np.arange(len(boards))
    out[rows, a], out[rows, b] = boards[rows, b], boards[rows, a]
    return out


def swap_cells(rs: np.random.RandomState, n: int, distinct: bool) -> tuple[np.ndarray, ...]:
    """The post's code draws two cells independently (randint(1, 20)); its text draws the
    second among the 18 others (P(t2) = 1/18)."""
    a = rs.randint(1, CELLS + 1, size=n)
    if not distinct:
        return a, rs.randint(1, CELLS + 1, size=n)
    return a, 1 + (a - 1 + rs.randint(1, CELLS, size=n)) % CELLS


def improvements(n: int, seed: int, distinct: bool) -> int:
    """How many of n random starting boards one random swap makes cheaper."""
    rs = np.random.RandomState(seed)
    k = 0
    for lo in range(0, n, CHUNK):
        boards = post_boards(rs, min(CHUNK, n - lo))
        a, b = swap_cells(rs, len(boards), distinct)
        k += int((post_cost(swap(boards, a, b)) < post_cost(boards)).sum())
    return k


def mean_cost(reading: Reading, n: int, seed: int) -> tuple[float, float, float]:
    """Mean cost over n boards and its 95% interval (normal: n is large)."""
    rs = np.random.RandomState(seed)
    total = total_sq = 0.0
    for lo in range(0, n, CHUNK):
        c = reading.cost(reading.boards(rs, min(CHUNK, n - lo))).astype(float)
        total, total_sq = total + c.sum(), total_sq + (c * c).sum()
    mean = total / n
    half = 1.96 * math.sqrt(max(0.0, total_sq / n - mean * mean) / (n - 1))
    return mean, mean - half, mean + half


COLUMNS = ("quantity", "reading", "boards", "seed", "estimate", "low", "high", "post")


def estimate(n: int, seed: int) -> list[dict]:
    """The CSV rows: the improvement probability under both swap draws, then every reading's
    mean start cost."""
    rows = []
    for distinct, name in ((False, "the post's code: two independent cells"),
                           (True, "the post's text: two different cells")):
        k = improvements(n, seed, distinct)
        lo, hi = rp.wilson(k, n)
        rows.append({"quantity": "improvement probability", "reading": name, "boards": n,
                     "seed": seed, "estimate": k / n, "low": lo, "high": hi,
                     "post": POST["improvement probability"]})
    for r in READINGS:
        mean, lo, hi = mean_cost(r, n, seed)
        rows.append({"quantity": "mean start cost", "reading": r.name, "boards": n,
                     "seed": seed, "estimate": mean, "low": lo, "high": hi,
                     "post": POST["mean start cost"]})
    return rows


def write_csv(rows: list[dict], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(rows)


def read_csv(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=2_000_000, help="sample size (default 2e6)")
    ap.add_argument("--seed", type=int, default=0, help="numpy RandomState seed (default 0)")
    ap.add_argument("--csv", default="out/reproductions/magichex_montecarlo.csv")
    args = ap.parse_args()
    rows = estimate(args.boards, args.seed)
    write_csv(rows, Path(args.csv))
    for r in rows:
        print(f"{r['quantity']:24} {r['estimate']:12.4f}  [{r['low']:.4f}, {r['high']:.4f}]"
              f"  post {r['post']}  {r['reading']}")


if __name__ == "__main__":
    rp.main_guard(main)
