"""Eternity II-style edge matching: square pieces with four coloured edges."""

from .model import FAMILY, EdgeInstance

__all__ = ["FAMILY", "EdgeInstance"]
