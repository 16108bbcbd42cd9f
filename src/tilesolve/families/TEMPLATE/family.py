"""The family as the program sees it (core.family.Family): only what differs from the
default, here its name."""

from __future__ import annotations

from ...core.family import Family


class LatinFamily(Family):
    name = "latin"

    def info(self, instance) -> dict:
        return {"family": self.name, "n": instance.n, "givens": len(instance.givens)}


FAMILY = LatinFamily()
