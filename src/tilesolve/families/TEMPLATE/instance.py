"""The instance type: the square's size and its given cells."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class LatinInstance:
    n: int
    givens: dict[tuple[int, int], int] = field(default_factory=dict)  # (row, col) -> number
    name: str = "latin"

    def cells(self) -> list[tuple[int, int]]:
        return [(r, c) for r in range(self.n) for c in range(self.n)]
