"""The magic hexagon EA (the "Sudoku on steroids" blog: numpy EA with cloning and swaps,
order 3 in about 0.2 s) against the exact solvers, on the order-3 hexagon and the abnormal
orders 4..8.

    python scripts/reproduce_magichex.py --seeds 10 --out-dir results/magichex
"""

from tesserae.bench import experiment

if __name__ == "__main__":
    experiment(
        "Magic hexagon: EA versus exact",
        {"orders": ["magichex_*.txt"]},
        ["ga", "cpsat", "sat", "milp"],
        __file__,
        seeds=10,
        time_limit=60.0,
    )
