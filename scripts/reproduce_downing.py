"""Downing's Tantrix tables: how often the GA solves a puzzle within its budget, next to the
exact solvers, for the Discovery loop puzzles (Table 1), the Rainbow puzzles (Table 2) and
the pyramid/triangle puzzles (Table 3), on our instance files; the Super 5 as a fourth table.

    python scripts/reproduce_downing.py --seeds 10 --out-dir results/downing
    python scripts/reproduce_downing.py --tables discovery --limit 6 --seeds 3 -t 30
"""

from tesserae.bench import experiment

if __name__ == "__main__":
    experiment(
        "Tantrix: GA success versus exact (after Downing, Tables 1-3)",
        {
            "discovery": ["tantrix_discovery*.txt"],
            "rainbow": ["tantrix_rainbow*.txt"],
            "pyramid": ["tantrix_pyramid*.txt", "tantrix_triangle*.txt"],
            "super": ["tantrix_super_*.txt"],
        },
        ["ga", "cpsat", "sat"],
        __file__,
        seeds=10,
        time_limit=60.0,
    )
