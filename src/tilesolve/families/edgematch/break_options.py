"""The options of the break search (`--breaks N --break-from ROW`), apart from its NumPy code:
the exact search's option table names them, and importing NumPy cost that search 0.2 CPU s of
every start."""

from __future__ import annotations

from ...core.options import Option, Options, count, parse_switch


def colour_choice(value: object) -> str | tuple[int, ...]:
    """off, blackwood, or colours like 5,7,20"""
    text = str(value).strip().lower()
    if text in ("blackwood", "off"):
        return text
    colours = tuple(int(c) for c in text.replace(" ", "").split(","))
    if min(colours) < 1 or len(set(colours)) != len(colours):
        raise ValueError(value)
    return colours


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
           "most one per placement, none between frame pieces; a faster loop); default: on "
           "the official Eternity II blackwood with his colours, 10 breaks and --fill-holes "
           "24, eii on other boards of 16x16 cells and more, ramp below",
           choices=("ramp", "eii", "blackwood")),
    Option("colour_rule", colour_choice, None, "with --break-rule blackwood, Blackwood's "
           "colour exhaustion: up to each depth the pieces placed carry at least a floor of "
           "sides in the chosen colours (rising piecewise linearly to 119 of their 122 sides "
           "by depth 160 of 256, scaled on other boards), candidates with more of them tried "
           "first; blackwood: his three colours on the official set (5, 7, 20 here, his 12, "
           "15, 9: one frame and two inner colours), or the colours given (e.g. 1,7,9); "
           "default off"),
    Option("restart_nodes", count, None, "with --break-rule blackwood or ramp, a new run (a "
           "new seeded shuffle of every cell's candidates) after this many placements "
           "without a better board, 0 for one run; default: Luby restarts of 2 million "
           "placements a unit"),
    Option("fill_holes", count, None, "with --break-rule blackwood, complete the deepest "
           "partial board of each run when it is at most this many cells short: the free "
           "pieces placed on its holes to match the most joins (exact, CP-SAT), as the record "
           "searches score their boards; 0 off (the default but on the official "
           "Eternity II: 24)"),
    Option("scan_order", str, None, "with --break-rule blackwood, the order cells are "
           "filled in: rows (row by row), or blackwood (libblackwood's: rows down to the last "
           "five, there a 5x5 block, then columns top to bottom, the last corner closed by "
           "turns; boards from 10x6); default rows", choices=("rows", "blackwood")),
    Option("fill_slack", count, None, "with --fill-holes, also complete a run's deepest "
           "partial board when it is up to this many cells shallower than the deepest "
           "completed before (more boards tried, each asked only to beat the best); default "
           "0: only as deep or deeper"))
