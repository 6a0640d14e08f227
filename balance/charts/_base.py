"""The shared pieces of the charts: style, palette, axes sizing, forest rows, histograms, titles."""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import polars as pl

from balance.metrics.cards import CARD_RATES

if TYPE_CHECKING:
    from matplotlib.axes import Axes

# matplotlib is imported on the first chart drawn, not with this package (about 0.35 s):
# a report's sections start their polars queries meanwhile, on other threads.
STYLE = Path(__file__).parent.parent / "balance.mplstyle"


def _style_colours(path: Path) -> tuple[str, ...]:
    """Return the colour cycle of the style file (``axes.prop_cycle``) as matplotlib reads it: ``#`` + hex.

    Examples
    --------
    >>> _style_colours(STYLE)[:2]
    ('#0072B2', '#D55E00')
    """
    for line in path.read_text().splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "axes.prop_cycle":
            hexes = re.findall(r"['\"]#?([0-9A-Fa-f]{6})['\"]", value)
            return tuple(f"#{h}" for h in hexes)
    raise ValueError(f"{path}: no axes.prop_cycle")


PALETTE: tuple[str, ...] = _style_colours(STYLE)


GREY = "#8c8c8c"


RATE_LABELS = {**CARD_RATES, "iwd": "IWD", "delta": "Counterfactual Δ", "incidence": "Games with the card"}


PERSPECTIVE_LABELS = {"first_minus_second": "first seat − second seat", "winner_minus_loser": "winner − loser"}


F = TypeVar("F", bound=Callable[..., Any])


def palette(keys: Iterable[Any]) -> dict[Any, str]:
    """Return the colour of each key (seat number, bot name, ...): sorted keys take the style's colours in order.

    Examples
    --------
    >>> palette(["greedy", "random"]) == {"greedy": PALETTE[0], "random": PALETTE[1]}
    True
    """
    ordered = sorted(set(keys), key=lambda k: (str(type(k)), k))
    return {k: PALETTE[i % len(PALETTE)] for i, k in enumerate(ordered)}


# matplotlib's rcParams are global: a style context entered on one thread restyles figures
# drawn on another. Every chart is drawn (and rendered, balance.report.html.png) holding this
# lock, so report sections built on several threads draw one chart at a time, as on one thread.
DRAWING = threading.RLock()


def style() -> AbstractContextManager[Any]:
    """Return matplotlib's context manager of the lab's chart style (importing matplotlib on first use)."""
    import matplotlib.style

    return matplotlib.style.context(STYLE)


def _integer_ticks() -> Any:
    """Return a tick locator that puts ticks on whole numbers only (turns, rounds, levels)."""
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(integer=True)


def _styled(func: F) -> F:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with DRAWING, style():
            return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


# Fixed margins in inches (two-line title on top, axis label below). A layout engine
# (constrained/tight) would cost a second full draw on every savefig.
_TOP, _BOTTOM, _LEFT, _RIGHT, _GAP = 0.62, 0.5, 0.8, 0.25, 1.05


_CHAR = 0.065  # inches per character of an 8 pt tick label, to size the left margin


@_styled
def new_axes(width: float = 7.5, height: float = 4.0, *, nrows: int = 1, ncols: int = 1) -> list[Axes]:
    """Return ``nrows x ncols`` axes (row by row) on a new Agg-backed figure in the report style.

    Examples
    --------
    >>> [type(ax).__name__ for ax in new_axes(nrows=2)]
    ['Axes', 'Axes']
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    axes = list(np.atleast_1d(fig.subplots(nrows, ncols)).ravel())
    panel = max((height - _TOP - _BOTTOM - _GAP * (nrows - 1)) / nrows, 0.3)
    fig.subplots_adjust(
        left=_LEFT / width,
        right=1 - _RIGHT / width,
        top=1 - _TOP / height,
        bottom=_BOTTOM / height,
        hspace=_GAP / panel,
    )
    return axes


def _fit_labels(ax: Axes, labels: Sequence[str]) -> None:
    """Widen the figure's left margin for long y tick labels (figures without a layout engine)."""
    fig = ax.figure
    if fig.get_layout_engine() is not None or not labels:
        return
    width = fig.get_size_inches()[0]
    needed = (0.3 + _CHAR * max(len(label) for label in labels)) / width
    if needed > fig.subplotpars.left:
        fig.subplots_adjust(left=min(needed, 0.6))


def _axes(ax: Axes | None, rows: int | None = None) -> Axes:
    """Return ``ax``, or new axes sized for a chart of ``rows`` labelled rows (None: 7.5 x 4 in)."""
    if ax is not None:
        return ax
    return new_axes(7.5, 4.0 if rows is None else max(2.2, 1.3 + (0.3 if rows < 8 else 0.17) * rows))[0]


def _text(value: Any) -> str:
    """Return ``value`` as a label that matplotlib prints literally (no mathtext)."""
    return str(value).replace("$", r"\$")


def _num(n: Any) -> str:
    return f"{int(n):,}".replace(",", " ")


def _n_range(n: pl.Series | None) -> str:
    """Return ``n = lo–hi`` for a title from the per-row sample sizes (``n = 0–0`` when there are none)."""
    if n is None or n.len() == 0:
        return "n = 0–0"
    return f"n = {_num(n.min() or 0)}–{_num(n.max() or 0)}"


def _forest(
    ax: Axes, labels: Sequence[Any], est: Any, lo: Any, hi: Any, colours: Sequence[str], *, ref: float | None
) -> None:
    """Draw one row per label: a point at ``est`` with a bar from ``lo`` to ``hi`` (top row first)."""
    y = np.arange(len(labels))[::-1]
    est, lo, hi = (np.asarray(v, dtype=float) for v in (est, lo, hi))
    colours = list(colours)
    ax.hlines(y, lo, hi, colors=colours, linewidth=1.2)
    ax.scatter(np.concatenate([lo, hi]), np.concatenate([y, y]), marker="|", s=30, c=colours + colours, linewidths=1.2)
    ax.scatter(est, y, s=24, c=colours, zorder=3)
    if ref is not None:
        ax.axvline(ref, color=GREY, linewidth=0.9, linestyle="--", zorder=0)
    ax.set_yticks(y, [_text(v) for v in labels])
    _fit_labels(ax, [str(v) for v in labels])
    ax.set_ylim(-0.7, len(labels) - 0.3)
    ax.grid(axis="y", visible=False)


def _finite(*values: Any) -> bool:
    """Return whether every value is a finite number (not None, NaN or infinite)."""
    return all(v is not None and np.isfinite(v) for v in values)


def _summary_title(what: str, summary: pl.DataFrame | None, unit: str, n_label: str) -> str:
    if summary is None or summary.height == 0 or summary["n"][0] == 0:
        return what
    s = summary.row(0, named=True)
    ci = f" (95 % CI {s['lo']:.2f}–{s['hi']:.2f})" if _finite(s["lo"], s["hi"]) else ""
    return f"{what}\nmean {s['mean']:.2f} {unit}{ci}, n = {_num(s['n'])} {n_label}"


def _histogram(ax: Axes, df: pl.DataFrame, column: str, split: str | None) -> None:
    groups = df[split].unique(maintain_order=True).sort().to_list() if split else [None]
    colours = palette(groups)
    bottom: dict[Any, float] = {}
    for g in groups:
        part = df.filter(pl.col(split) == g) if split else df
        x = part[column].to_numpy()
        base = np.array([bottom.get(v, 0.0) for v in x])
        ax.bar(x, part["count"].to_numpy(), bottom=base, width=0.9, color=colours[g], label=_text(g) if split else None)
        for v, c in zip(x, part["count"].to_numpy(), strict=True):
            bottom[v] = bottom.get(v, 0.0) + c
    if split and len(groups) > 1:
        ax.legend(title=split.replace("_", " "))
    ax.grid(axis="x", visible=False)


def _mean_marker(ax: Axes, summary: pl.DataFrame | None) -> None:
    if summary is not None and summary.height and summary["n"][0]:
        s = summary.row(0, named=True)
        if _finite(s["lo"], s["hi"]):  # a single value has no (finite) interval
            ax.axvspan(s["lo"], s["hi"], color=GREY, alpha=0.35, zorder=0)
        ax.axvline(s["mean"], color="black", linewidth=0.9, linestyle="--", label="mean")
