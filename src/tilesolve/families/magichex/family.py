"""The magic hexagon family as the program sees it (core.family.Family)."""

from __future__ import annotations

from ...core.family import Family
from ...core.report import Report
from ...core.result import Solution
from .check import canonical, verify
from .format import format_instance, format_solution, solution_json
from .instance import MagicHexInstance
from .parse import parse_solution, read_instance, solution_from_json


class MagicHexFamily(Family):
    name = "magichex"

    def legend(self, instance) -> str:
        return (f"numbers {instance.first}..{instance.last}; every straight line of cells sums "
                f"to {instance.magic}")

    def read_instance(self, path, fmt=None, text=None) -> MagicHexInstance:
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

    def verify(self, instance, solution, objective=None) -> Report:
        return verify(instance, solution, objective)

    def canonical(self, instance, solution):
        return canonical(instance, solution)

    def info(self, instance) -> dict:
        return {
            "family": self.name,
            "order": instance.order,
            "cells": instance.n_cells,
            "numbers": f"{instance.first}..{instance.last}",
            "magic_sum": instance.magic,
            "lines": len(instance.lines),
            "givens": len(instance.givens),
            "symmetries": 12,
        }


FAMILY = MagicHexFamily()
