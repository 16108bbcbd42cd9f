"""Shared drawing plumbing: a headless matplotlib figure saved as SVG, PNG or PDF by suffix,
the same bytes for the same board, and one mark colour for broken rules that no tile uses."""

from __future__ import annotations

import colorsys
from pathlib import Path

from .errors import InputError

FORMATS = (".svg", ".png", ".pdf")
# Broken rules (mismatched joins, wrong sums, jumps) are drawn in magenta with a black rim:
# `palette` leaves out every colour near it, and no family's tiles use it.
MARK = "#ff00ff"
# matplotlib stamps a date into SVG and PDF and salts SVG ids at random; without them two
# drawings of one board are byte-identical (a PNG carries no date).
_METADATA = {".svg": {"Date": None}, ".pdf": {"CreationDate": None}, ".png": {}}
_SVG_SALT = "tilesolve"


def check_format(path: str | Path) -> Path:
    """A drawing's file name must say SVG, PNG or PDF."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise InputError(f"cannot draw to {path.suffix or 'a file without extension'}; "
                         "expected .svg, .png or .pdf", path)
    return path


def figure(width_in: float, height_in: float):
    import matplotlib

    matplotlib.use("Agg")  # no screen needed
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(width_in, height_in))
    ax.set_aspect("equal")
    ax.axis("off")
    return fig, ax


def save(fig, path: str | Path, title: str = "") -> None:
    """Write the figure in the format its suffix names, with `title` above the board."""
    import matplotlib
    import matplotlib.pyplot as plt

    try:
        path = check_format(path)
    except InputError:
        plt.close(fig)
        raise
    suffix = path.suffix.lower()
    if title:
        fig.axes[0].set_title(title, fontsize=9, loc="left", wrap=True)  # within the board
    path.parent.mkdir(parents=True, exist_ok=True)
    with matplotlib.rc_context({"svg.hashsalt": _SVG_SALT}):
        fig.savefig(path, format=suffix[1:], bbox_inches="tight",
                    metadata={**_METADATA[suffix], "Title": title.replace("\n", ": ")},
                    dpi=150 if suffix == ".png" else None)
    plt.close(fig)


def mark_line(ax, xs, ys, width: float = 2.5, zorder: float = 5) -> None:
    """A broken rule drawn along a line: magenta with a black rim, readable on any tile."""
    import matplotlib.patheffects as pe

    ax.plot(xs, ys, color=MARK, lw=width, solid_capstyle="round", zorder=zorder, path_effects=[
        pe.Stroke(linewidth=width + 2, foreground="black"), pe.Normal()])


def _near_mark(colour: str) -> bool:
    """Greys (the frame's colour) and the pinks and purples a mark could be taken for."""
    import matplotlib

    h, _l, s = colorsys.rgb_to_hls(*matplotlib.colors.to_rgb(colour))
    mark_hue = colorsys.rgb_to_hls(*matplotlib.colors.to_rgb(MARK))[0]
    gap = min(abs(h - mark_hue), 1 - abs(h - mark_hue))
    return s < 0.15 or gap < 40 / 360


def palette(n: int) -> list[str]:
    """n distinguishable colours (hex strings), none grey and none near the mark colour."""
    import matplotlib

    maps = [matplotlib.colormaps["tab20"], matplotlib.colormaps["tab20b"],
            matplotlib.colormaps["Set3"]]
    cols = [matplotlib.colors.to_hex(m(i)) for m in maps for i in range(m.N)]
    cols = [c for c in cols if not _near_mark(c)]
    return [cols[i % len(cols)] for i in range(n)]
