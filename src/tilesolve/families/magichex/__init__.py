"""Magic hexagons: consecutive integers in a hexagon, every straight line the same sum."""

from .model import FAMILY, MagicHexInstance

__all__ = ["FAMILY", "MagicHexInstance"]
