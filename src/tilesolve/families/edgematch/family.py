"""The edge-matching family as the program sees it (core.family.Family)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ...core import squaregrid as sq
from ...core.errors import InputError
from ...core.family import Family
from ...core.options import Option, Options
from ...core.result import Solution
from ...core.textfile import read_text
from .instance import EdgeInstance
from .official import apply_rules, is_official
from .parse import detect_format, looks_like_url, solution_from_cells, url_board

SMALL_BOARD = 64  # cells: up to 8x8 the matches portfolio races CP-SAT (it proves optima)


class EdgeMatchFamily(Family):
    name = "edgematch"
    options = Options(Option("clues", bool, False, "official Eternity II set: fix the four clue "
                             "pieces as well as the start piece"))
    objective_counts = {"matches": "matched joins"}

    def legend(self, instance) -> str:
        return "piece/rot: piece number (file order, from 1) / clockwise quarter turns"

    def objective_backends(self, instance) -> tuple[str, ...]:
        """Most matched joins: on small boards CP-SAT proves the optimum within seconds (4x4 to
        6x6), beside the LNS; on large ones it gives no board at all in a minute (16x16), so
        the cores go to the break search, whose boards the LNS anneals (lab/pages/hybrid.md: on
        the official Eternity II at 300 s this pair ended at a median of 460 over six seeds,
        the LNS with the memetic pool at 460 over three, see "Methods side by side")."""
        if instance.width * instance.height <= SMALL_BOARD:
            return ("cpsat", "lns")
        return ("search", "lns")

    def island_backends(self, instance) -> tuple[str, ...]:
        """Islands start each epoch from the migrants' best board, which the break search
        cannot take: its islands would search apart. So on large boards the islands take
        turns between the LNS and the memetic pool, which both start from a board."""
        if instance.width * instance.height <= SMALL_BOARD:
            return self.objective_backends(instance)
        return ("lns", "memetic")

    def prepare(self, instance, params) -> EdgeInstance:
        """`--clues`: on the official set, the four clue pieces are fixed as well."""
        if self.options.value(params, "clues"):
            if not is_official(instance):
                raise InputError("--clues applies to the official Eternity II piece set only")
            apply_rules(instance, clues=True)
        return instance

    def sniff(self, recs, text) -> bool:
        return detect_format(recs, text) is not None

    def read_solution(self, instance, path, fmt=None) -> Solution:
        text = str(path)
        if looks_like_url(text) and not Path(text).exists():
            return solution_from_cells(instance, url_board(text, "<url>")[2], "<url>")
        text = read_text(path)
        if looks_like_url(text):
            w, h, cells = url_board(text, str(path))
            if (w, h) != (instance.width, instance.height):
                raise InputError(
                    f"board is {w}x{h}; expected {instance.width}x{instance.height}", path, 1
                )
            return solution_from_cells(instance, cells, str(path))
        return super().read_solution(instance, path, fmt)

    def model_units(self, instance, growing: bool = False) -> tuple[int, str] | None:
        return instance.n ** 2, f"{instance.n:,} pieces x {instance.n:,} cells"

    def info(self, instance) -> dict:
        kinds = Counter(instance.kind(p) for p in range(1, instance.n + 1))
        return {
            "family": self.name,
            "size": f"{instance.width}x{instance.height}",
            "pieces": instance.n,
            "corner_pieces": kinds["corner"],
            "border_pieces": kinds["border"],
            "inner_pieces": kinds["inner"],
            "frame_colours": len(instance.frame_colours()),
            "inner_colours": len(instance.inner_colours()),
            "fixed_pieces": len(instance.fixed),
            "joins": sq.join_count(instance.width, instance.height),
            "search_space": instance.search_space(),
            "search_space_log10": round(instance.search_space_log10(), 3),
        }


FAMILY = EdgeMatchFamily()
