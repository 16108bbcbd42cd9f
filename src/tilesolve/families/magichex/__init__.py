"""Magic hexagons: consecutive integers in a hexagon, every straight line the same sum."""

from .family import FAMILY
from .instance import MagicHexInstance

__all__ = ["FAMILY", "MagicHexInstance"]
