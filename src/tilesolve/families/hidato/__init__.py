"""Hidato: number a beehive (hex) or square board with holes along a Hamiltonian path."""

from .family import FAMILY
from .instance import HidatoInstance

__all__ = ["FAMILY", "HidatoInstance"]
