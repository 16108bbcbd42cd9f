"""Tantrix: hexagonal tiles with coloured lines; goal loops and lines, no holes."""

from .model import FAMILY, Goal, TantrixInstance

__all__ = ["FAMILY", "Goal", "TantrixInstance"]
