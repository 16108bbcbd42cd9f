"""da Silva and de Magalhaes's Hidato tables: the GA with and without CBGI and restricted
tournament selection (RTS), against an exact solver, on the 19- and 37-cell beehive instances
(their two size classes; our instances are generated, not theirs) and larger boards.

    python scripts/reproduce_hidato.py --seeds 10 --out-dir results/hidato
    python scripts/reproduce_hidato.py --tables small --seeds 3 --time-limit 20

Columns: `ga` (RTS + CBGI, the paper's full method), `ga:cbgi=off` (RTS only), `ga:rts=off`
(CBGI only, generational), `ga:cbgi=off:rts=off` (the plain GA), and `cpsat`.
"""

from tesserae.bench import experiment

if __name__ == "__main__":
    experiment(
        "Hidato: GA with/without CBGI and RTS versus exact (after da Silva & de Magalhaes)",
        {
            "small": ["hidato_19_*.txt"],
            "medium": ["hidato_37_*.txt"],
            "large": ["hidato_hex_61.txt", "hidato_hex_91.txt"],
        },
        ["ga", "ga:cbgi=off", "ga:rts=off", "ga:cbgi=off:rts=off", "cpsat"],
        __file__,
        seeds=10,
        time_limit=60.0,
    )
