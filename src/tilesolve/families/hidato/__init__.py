"""Hidato: number a beehive (hex) or square board with holes along a Hamiltonian path."""

from .model import FAMILY, HidatoInstance

__all__ = ["FAMILY", "HidatoInstance"]
