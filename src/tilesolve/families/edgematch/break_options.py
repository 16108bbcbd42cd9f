"""The options of the break search (`--breaks N --break-from ROW`), apart from its NumPy code:
the exact search's option table names them, and importing NumPy cost that search 0.2 CPU s of
every start."""

from __future__ import annotations

from ...core.options import Option, Options, count, parse_switch

BREAK_OPTIONS = Options(
    Option("breaks", count, None, "mismatched joins allowed at first (default: by board size)"),
    Option("break_from", count, None, "first row where a mismatch may fall (default: by board "
           "size)"),
    Option("keep_last", parse_switch, False, "place last a group of pieces that tile well "
           "together (eii's good group)"),
    Option("break_rule", str, None, "where breaks may fall and which pieces may go where: "
           "ramp (--breaks rising linearly from --break-from, the bound lowered after each "
           "board) or eii (Verhaard's eii: its break table, no break between frame pieces, "
           "60 piece groups gating good pieces late and bad ones early, restarts of runs "
           "that stop getting deeper) or blackwood (Blackwood's schedule: breaks from depths "
           "197, 203, ... 238 of 256 and --breaks beyond them spread over the last cells, at "
           "most one per placement, none between frame pieces; a faster loop); default: eii "
           "on boards of 16x16 cells and more, ramp below", choices=("ramp", "eii",
                                                                    "blackwood")))
