"""Progress of a long optimisation run: every improvement of the best verified score.

Shown on stderr when stderr is a terminal (one rich line per improvement: elapsed time,
score, which method found it and in which lane), and streamed as JSON lines to a file when
asked (`--progress-jsonl FILE`): {"t": seconds, "score": s, "max": m, "source": ..., "lane":
...} and any extra fields of the run (islands: "island", "method", "epoch"). Lines are
flushed at once, so `tail -f` follows a run.
"""

from __future__ import annotations

import json
import sys
import time
from typing import IO

from rich.console import Console


class Progress:
    def __init__(self, jsonl: str | None = None, terminal: bool | None = None,
                 max_score: float | None = None) -> None:
        self.t0 = time.perf_counter()
        self.best: float | None = None
        self.max_score = max_score
        self.file: IO[str] | None = open(jsonl, "a", encoding="utf-8") if jsonl else None
        show = sys.stderr.isatty() if terminal is None else terminal
        self.console = Console(stderr=True, soft_wrap=True) if show else None

    def note(self, score: float | None, source: str | None, lane: str | None = None,
             **extra) -> bool:
        """Record a verified score; True (and shown) when it beats the best so far. `extra`
        fields (an island's number and method, say) go into the JSON line as they are."""
        if score is None or (self.best is not None and score <= self.best):
            return False
        self.best = score
        t = round(time.perf_counter() - self.t0, 3)
        if self.file is not None:
            self.file.write(json.dumps({"t": t, "score": score, "max": self.max_score,
                                        "source": source, "lane": lane, **extra}) + "\n")
            self.file.flush()
        if self.console is not None:
            of = f"/{self.max_score:g}" if self.max_score is not None else ""
            where = f" [dim](lane {lane})[/dim]" if lane and lane != source else ""
            self.console.print(f"[dim]{t:8.1f} s[/dim]  best [bold]{score:g}{of}[/bold]  "
                               f"from {source or lane or '?'}{where}")
        return True

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None
