"""Verification reports: every violation a checker finds, never just the first."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Violation:
    """One broken rule of a puzzle, found by its checker."""

    kind: str
    """A stable machine-readable key, e.g. `mismatch`, `missing-piece`."""
    message: str
    """For people: what is wrong and where."""

    def to_json(self) -> dict:
        """`{"kind": ..., "message": ...}`."""
        return {"kind": self.kind, "message": self.message}


@dataclass
class Report:
    """What a checker found. `score`/`max_score` are set for families with an optimisation mode."""

    violations: list[Violation] = field(default_factory=list)
    """Every broken rule, not just the first."""
    score: int | None = None
    """With an objective: the board's score (e.g. matched joins)."""
    max_score: int | None = None
    """With an objective: the best score possible on this puzzle."""
    shape_bound: int | None = None
    """With an objective, where the family can say it: the best score any board on this
    board's cells could reach (Tantrix: the arcs its outline leaves, `check.shape_bound`)."""

    def add(self, kind: str, message: str) -> None:
        """Record a broken rule (the checkers' call).

        @private"""
        self.violations.append(Violation(kind, message))

    @property
    def ok(self) -> bool:
        """No rule is broken."""
        return not self.violations

    def kinds(self) -> Counter:
        """How many violations of each kind."""
        return Counter(v.kind for v in self.violations)

    def to_json(self) -> dict:
        """The object `tilesolve verify --json` prints (without the instance's name)."""
        out: dict = {"valid": self.ok, "violations": [v.to_json() for v in self.violations]}
        if self.score is not None:
            out["score"] = self.score
            out["max_score"] = self.max_score
        if self.shape_bound is not None:
            out["shape_bound"] = self.shape_bound
        return out

    def summary(self) -> str:
        """One line: valid or the violations by kind, and the score with its maximum."""
        if self.ok:
            text = "valid"
        else:
            counts = ", ".join(f"{n} {k}" for k, n in sorted(self.kinds().items()))
            text = f"invalid: {len(self.violations)} violation(s) ({counts})"
        if self.score is not None:
            text += f"; score {self.score}/{self.max_score}"
        if self.shape_bound is not None:
            text += f" (at most {self.shape_bound} on its shape)"
        return text
