"""Verification reports: every violation a checker finds, never just the first."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Violation:
    kind: str  # a stable machine-readable key, e.g. "mismatch", "missing-piece"
    message: str  # human-readable, names the place

    def to_json(self) -> dict:
        return {"kind": self.kind, "message": self.message}


@dataclass
class Report:
    """What a checker found. `score`/`max_score` are set for families with an optimisation mode."""

    violations: list[Violation] = field(default_factory=list)
    score: int | None = None
    max_score: int | None = None

    def add(self, kind: str, message: str) -> None:
        self.violations.append(Violation(kind, message))

    @property
    def ok(self) -> bool:
        return not self.violations

    def kinds(self) -> Counter:
        return Counter(v.kind for v in self.violations)

    def to_json(self) -> dict:
        out: dict = {"valid": self.ok, "violations": [v.to_json() for v in self.violations]}
        if self.score is not None:
            out["score"] = self.score
            out["max_score"] = self.max_score
        return out

    def summary(self) -> str:
        if self.ok:
            text = "valid"
        else:
            counts = ", ".join(f"{n} {k}" for k, n in sorted(self.kinds().items()))
            text = f"invalid: {len(self.violations)} violation(s) ({counts})"
        if self.score is not None:
            text += f"; score {self.score}/{self.max_score}"
        return text
