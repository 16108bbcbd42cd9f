"""The template family: a Latin square (each number 1..n once in every row and column, some
cells given), the smallest complete family. Copy this package to start a new one
(README.md here); tests/test_family_contract.py runs it as it runs the others."""

from .family import FAMILY
from .instance import LatinInstance

__all__ = ["FAMILY", "LatinInstance"]
