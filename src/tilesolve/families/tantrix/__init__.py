"""Tantrix: hexagonal tiles with coloured lines; goal loops and lines, no holes."""

from .family import FAMILY
from .instance import Goal, TantrixInstance

__all__ = ["FAMILY", "Goal", "TantrixInstance"]
