"""Shared drawing plumbing: a headless matplotlib figure saved as SVG or PNG by suffix."""

from __future__ import annotations

from pathlib import Path

from .errors import InputError


def figure(width_in: float, height_in: float):
    import matplotlib

    matplotlib.use("Agg")  # no screen needed
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width_in, height_in))
    ax.set_aspect("equal")
    ax.axis("off")
    return fig, ax


def save(fig, path: str | Path) -> None:
    import matplotlib.pyplot as plt

    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".png"):
        plt.close(fig)
        raise InputError(f"cannot draw to {suffix or 'a file without extension'}; "
                         "expected .svg or .png", path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format=suffix[1:], bbox_inches="tight", dpi=150 if suffix == ".png" else None)
    plt.close(fig)


def palette(n: int) -> list[str]:
    """n distinguishable colours (hex strings)."""
    import matplotlib

    maps = [matplotlib.colormaps["tab20"], matplotlib.colormaps["tab20b"],
            matplotlib.colormaps["Set3"]]
    cols = [matplotlib.colors.to_hex(m(i)) for m in maps for i in range(m.N)]
    return [cols[i % len(cols)] for i in range(n)]
