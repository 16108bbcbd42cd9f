"""The Tantrix family as the program sees it (core.family.Family)."""

from __future__ import annotations

from collections.abc import Hashable

from ...core.family import Family
from ...core.report import Report
from ...core.result import Solution
from .check import LONGEST, OBJECTIVES, canonical, verify
from .format import draw_text, format_instance, format_solution, solution_json
from .instance import TantrixInstance
from .parse import parse_solution, read_instance, solution_from_json


class TantrixFamily(Family):
    name = "tantrix"
    objectives = OBJECTIVES
    objective_counts = {LONGEST: "tiles on each goal's longest loop or line"}

    def legend(self, instance) -> str:
        return "tile/rot: tile number (1-56, as on its back) / clockwise sixth turns"

    def objective_backends(self, instance) -> tuple[str, ...]:
        """--objective longest without -b: the backends that score (MILP and SAT refuse)."""
        return ("search", "cpsat")

    def read_instance(self, path, fmt=None, text=None) -> TantrixInstance:
        return read_instance(path, fmt, text)

    def parse_solution_text(self, instance, recs, path) -> Solution:
        return parse_solution(instance, recs, path)

    def solution_from_json(self, instance, data, path) -> Solution:
        return solution_from_json(instance, data, path)

    def format_instance(self, instance, comment="") -> str:
        return format_instance(instance, comment)

    def format_solution(self, instance, solution) -> str:
        return format_solution(instance, solution)

    def solution_json(self, instance, solution) -> dict:
        return solution_json(instance, solution)

    def draw_text(self, instance, solution) -> str:
        return draw_text(instance, solution)

    def verify(self, instance, solution, objective=None) -> Report:
        return verify(instance, solution, objective)

    def canonical(self, instance, solution) -> Hashable:
        return canonical(instance, solution)

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
