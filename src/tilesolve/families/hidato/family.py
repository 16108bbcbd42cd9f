"""The Hidato family as the program sees it (core.family.Family)."""

from __future__ import annotations

from collections import Counter

from ...core.family import Family
from ...core.result import Solution
from ...core.textfile import read_text
from .parse import grid_records, parse_solution


class HidatoFamily(Family):
    name = "hidato"

    def legend(self, instance) -> str:
        return f"numbers 1..{instance.n} run along a path, each touching the next; # a hole"

    def read_solution(self, instance, path, fmt=None) -> Solution:
        text = read_text(path)
        if text.lstrip().startswith("{"):
            return super().read_solution(instance, path, fmt)
        recs = grid_records(str(path), text, header=text.lstrip().lower().startswith("hidato"))
        return parse_solution(instance, recs, str(path))

    def model_units(self, instance, growing: bool = False) -> tuple[int, str] | None:
        return instance.n, f"{instance.n:,} cells"

    def info(self, instance) -> dict:
        dims = instance.dims
        return {
            "family": self.name,
            "shape": instance.shape,
            "size": f"side {dims[0]}" if instance.shape == "hex" else f"{dims[0]}x{dims[1]}",
            "cells": instance.n,
            "holes": len(instance.holes),
            "givens": len(instance.givens),
            "given_fraction": round(len(instance.givens) / instance.n, 3),
            "degree": dict(sorted(Counter(len(a) for a in instance.neighbours).items())),
            # the free numbers permuted over the free cells
            "search_space": instance.search_space(),
            "search_space_log10": round(instance.search_space_log10(), 3),
        }


FAMILY = HidatoFamily()
