"""The magic hexagon family as the program sees it (core.family.Family)."""

from __future__ import annotations

from ...core.family import Family
from .check import canonical


class MagicHexFamily(Family):
    name = "magichex"

    def legend(self, instance) -> str:
        return (f"numbers {instance.first}..{instance.last}; every straight line of cells sums "
                f"to {instance.magic_text}")

    def canonical(self, instance, solution):
        return canonical(instance, solution)

    def model_units(self, instance, growing: bool = False) -> tuple[int, str] | None:
        return instance.n_cells, f"{instance.n_cells:,} cells"

    def info(self, instance) -> dict:
        return {
            "family": self.name,
            "order": instance.order,
            "cells": instance.n_cells,
            "numbers": f"{instance.first}..{instance.last}",
            "magic_sum": instance.magic_text if instance.magic_exact.denominator != 1
            else instance.magic,
            "lines": len(instance.lines),
            "givens": len(instance.givens),
            "symmetries": 12,
        }


FAMILY = MagicHexFamily()
