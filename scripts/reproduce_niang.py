"""Niang's comparison (Table 9 of the thesis): GA time per edge-matching board size, against
exact solvers, on our generated boards 4x4..8x8 (Niang reports 4x4 in 27 s, 5x5 in 30 s, 6x6
in 195 s, and no 7x7).

    python scripts/reproduce_niang.py --seeds 5 --time-limit 300 --out-dir results/niang
"""

from tesserae.bench import experiment

if __name__ == "__main__":
    experiment(
        "GA versus exact on edge matching by board size (after Niang, Table 9)",
        {"table9": [f"e2_{n}x{n}.txt" for n in range(4, 9)]},
        ["ga", "cpsat", "sat"],
        __file__,
        seeds=5,
        time_limit=300.0,
    )
