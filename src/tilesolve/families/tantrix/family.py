"""The Tantrix family as the program sees it (core.family.Family)."""

from __future__ import annotations

from collections.abc import Hashable

from ...core.family import Family
from .check import LONGEST, canonical
from .format import draw_text


def free_goals(instance) -> bool:
    """A free shape whose goals all name their colour (the 56-tile Loop and Curve)."""
    return bool(instance.shape == "free" and instance.goals
                and all(g.colour != "any" for g in instance.goals))


class TantrixFamily(Family):
    name = "tantrix"
    objective_counts = {LONGEST: "tiles on each goal's longest loop or line"}

    def legend(self, instance) -> str:
        return "tile/rot: tile number (1-56, as on its back) / clockwise sixth turns"

    def objective_backends(self, instance) -> tuple[str, ...]:
        """--objective longest: the backends a portfolio (and islands) race. MILP and SAT
        score too (-b milp, -b sat), but on the 56-tile puzzles they stay below CP-SAT within
        60 CPU s (lab/pages/tantrix_56.md), so they do not take a core from it. On a free
        shape with goals of given colours the free-shape lns races CP-SAT and takes its boards
        (the portfolio shares by default: the lns takes boards, CP-SAT does not)."""
        return ("cpsat", "lns") if free_goals(instance) else ("search", "cpsat")

    def objective_default(self, instance) -> str:
        """Without -b, a free shape with goals of given colours is CP-SAT's alone, on every
        thread: on the Loop puzzle, 180 s on two cores, seeds 0-3, it reached 98, 107, 99 and
        96 where the cpsat + lns portfolio reached 87, 92, 87 and 41 (CP-SAT on one thread
        found no board at all in 180 s on seed 3; lab/pages/tantrix_56.md). The lns goes on
        from its board (`-b lns --hint FILE`)."""
        return "cpsat" if free_goals(instance) else super().objective_default(instance)

    def draw_text(self, instance, solution) -> str:
        return draw_text(instance, solution)

    def canonical(self, instance, solution) -> Hashable:
        return canonical(instance, solution)

    def model_units(self, instance, growing: bool = False) -> tuple[int, str] | None:
        """Cells x tile kinds of the layout a model is built on: a fixed shape's cells, or the
        hexagon around the pinned tile that holds any solution (a solve starts on a smaller
        one and grows it: `first_radius`)."""
        from .region import first_radius, free_radius_limit

        cells = instance.place_count()
        if cells is None:
            radius = first_radius(instance) if growing else free_radius_limit(instance)
            cells = 3 * radius * (radius + 1) + 1
        kinds = len(set(instance.tiles))
        return cells * kinds, f"{cells:,} cells x {kinds} tiles"

    def info(self, instance) -> dict:
        out = {
            "family": self.name,
            "tiles": instance.n,
            "tile_types": len(instance.types()),
            "goals": [str(g) for g in instance.goals],
            "shape": instance.shape + (f" {instance.size}" if instance.size else ""),
        }
        if instance.shape == "board":
            out["board_cells"] = len(instance.board)
        return out


FAMILY = TantrixFamily()
