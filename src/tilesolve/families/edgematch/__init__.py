"""Eternity II-style edge matching: square pieces with four coloured edges."""

from .family import FAMILY
from .instance import EdgeInstance

__all__ = ["FAMILY", "EdgeInstance"]
