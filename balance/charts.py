"""Charts of already-aggregated metric frames: ``plot_<thing>(df, *, ax=None) -> Axes``.

Each function draws one tidy frame from :mod:`balance.metrics` onto ``ax`` (or onto a
new figure sized for the data) and returns the axes; nothing is computed beyond
scaling and sorting, and nothing is shown or saved. Figures are plain
``matplotlib.figure.Figure`` objects (Agg canvas, no pyplot state, no display needed),
drawn in the style of ``balance.mplstyle``. Titles state ``n`` and the interval level.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import matplotlib as mpl
import matplotlib.style
import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from balance.metrics.cards import CARD_RATES

STYLE = Path(__file__).with_name("balance.mplstyle")
PALETTE: tuple[str, ...] = tuple(
    mpl.rc_params_from_file(STYLE, use_default_template=False)["axes.prop_cycle"].by_key()["color"]
)
GREY = "#8c8c8c"
RATE_LABELS = {**CARD_RATES, "iwd": "IWD", "incidence": "Games with the card"}
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


def _styled(func: F) -> F:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with mpl.style.context(STYLE):
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


@_styled
def plot_win_rates(df: pl.DataFrame, *, by: str = "bot", ax: Axes | None = None) -> Axes:
    """Plot ``win_rates(..., by=by)``: win rate per group with its 95 % interval.

    Examples
    --------
    >>> df = pl.DataFrame({"bot": ["greedy", "random"], "n": [100, 100], "wins": [60, 38],
    ...                    "rate": [0.6, 0.38], "lo": [0.50, 0.29], "hi": [0.69, 0.48]})
    >>> plot_win_rates(df).get_title(loc="left").splitlines()
    ['Win rate by bot', 'n = 200 seats, 95 % CI']
    """
    ax = _axes(ax, df.height)
    labels = [f"{by} {v}" if by in ("seat", "position") else v for v in df[by].to_list()]
    colours = [palette(df[by].to_list())[v] for v in df[by].to_list()]
    _forest(ax, labels, df["rate"] * 100, df["lo"] * 100, df["hi"] * 100, colours, ref=50.0)
    ax.set_xlabel("win rate (% of seats; timeouts count as not won)")
    ax.set_title(f"Win rate by {by}\nn = {_num(df['n'].sum())} seats, 95 % CI")
    return ax


@_styled
def plot_first_seat_advantage(df: pl.DataFrame, *, ax: Axes | None = None) -> Axes:
    """Plot ``first_seat_advantage``: the first mover's share of decided games vs fair."""
    ax = _axes(ax, df.height)
    keys = [c for c in df.columns if c not in _FSA_COLUMNS]
    labels = [" / ".join(str(r[k]) for k in keys) for r in df.iter_rows(named=True)] if keys else ["all games"]
    _forest(
        ax,
        labels,
        df["rate"] * 100,
        df["lo"] * 100,
        df["hi"] * 100,
        [PALETTE[0]] * df.height,
        ref=float(df["fair"][0]) * 100,
    )
    ax.set_xlabel("games won by the seat that moved first (% of decided games)")
    ax.set_title(f"First-seat advantage\nn = {_num(df['n'].sum())} decided games, 95 % CI; dashed line = no advantage")
    return ax


_FSA_COLUMNS = {
    "n_games",
    "n",
    "first_wins",
    "rate",
    "lo",
    "hi",
    "fair",
    "advantage",
    "advantage_lo",
    "advantage_hi",
    "significant",
}


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


@_styled
def plot_game_length(
    df: pl.DataFrame, *, summary: pl.DataFrame | None = None, unit: str = "turn", ax: Axes | None = None
) -> Axes:
    """Plot ``game_length`` as a histogram (stacked by end reason) with the mean and its 95 % CI.

    ``unit`` names what the ``turns`` column counts: turns of both seats (default), or
    e.g. ``battle`` when a one-seat game's length is its number of battles.

    Examples
    --------
    >>> df = pl.DataFrame({"turns": [3, 4], "count": [2, 1]})
    >>> plot_game_length(df, unit="battle").get_xlabel()
    'battles per game'
    """
    ax = _axes(ax)
    _histogram(ax, df, "turns", "end_reason" if "end_reason" in df.columns else None)
    _mean_marker(ax, summary)
    label = _text(unit)
    ax.set_xlabel("game length (turns, both seats counted)" if unit == "turn" else f"{label}s per game")
    ax.set_ylabel("games")
    what = "Game length" if unit == "turn" else f"Game length in {label}s"
    ax.set_title(_summary_title(what, summary, f"{label}s", "games"))
    return ax


@_styled
def plot_lead_for_good(
    df: pl.DataFrame, *, summary: pl.DataFrame | None = None, unit: str = "turn", ax: Axes | None = None
) -> Axes:
    """Plot the ``lead_for_good`` distribution: the turn the eventual winner takes the lead for good.

    ``unit`` names one row of the turns table (``GameSpec.turn_unit``: ``turn``, ``battle``, ...).
    """
    ax = _axes(ax)
    _histogram(ax, df, "lead_for_good", None)
    _mean_marker(ax, summary)
    ax.set_xlabel(f"{_text(unit)} after which the winner stays strictly ahead")
    ax.set_ylabel("decided games")
    what = f"{_text(unit).capitalize()} the winner takes the lead for good"
    ax.set_title(_summary_title(what, summary, "", "decided games").replace("  ", " "))
    return ax


@_styled
def plot_lead_changes(df: pl.DataFrame, *, summary: pl.DataFrame | None = None, ax: Axes | None = None) -> Axes:
    """Plot the ``lead_changes`` distribution: lead changes per game."""
    ax = _axes(ax)
    _histogram(ax, df, "lead_changes", None)
    _mean_marker(ax, summary)
    ax.set_xlabel("lead changes per game (ties ignored)")
    ax.set_ylabel("games")
    ax.set_title(_summary_title("Lead changes", summary, "per game", "games"))
    return ax


@_styled
def plot_card_values(
    df: pl.DataFrame, *, metric: str = "gih_wr", colour_by: str | None = None, ax: Axes | None = None
) -> Axes:
    """Plot one ``card_values`` metric per card, sorted, with 95 % intervals.

    Points are coloured by ``colour_by`` (default: the card table's ``confidence`` or
    else ``source`` column, when present), so reconstructed card stats stand out.

    Examples
    --------
    >>> df = pl.DataFrame({"name": ["Bee", "Imp"], "source": ["rulebook", "inferred"], "gih_wr": [0.55, 0.48],
    ...                    "gih_wr_lo": [0.52, 0.45], "gih_wr_hi": [0.58, 0.51], "gih_wr_n": [900, 1100]})
    >>> [t.get_text() for t in plot_card_values(df).get_yticklabels()]
    ['Bee', 'Imp']
    """
    rows = df.filter(pl.col(metric).is_not_null()).sort(metric)
    ax = _axes(ax, rows.height)
    ref = 0.0 if metric == "iwd" else 50.0 if metric.endswith("_wr") else None
    if colour_by is None:
        colour_by = next((c for c in ("confidence", "source") if c in rows.columns), None)
    groups = rows[colour_by].cast(pl.String).fill_null("?").to_list() if colour_by else [""] * rows.height
    colours = palette(groups)
    est, lo, hi = (rows[c].reverse() * 100 for c in (metric, f"{metric}_lo", f"{metric}_hi"))
    _forest(ax, rows["name"].to_list()[::-1], est, lo, hi, [colours[g] for g in groups[::-1]], ref=ref)
    if colour_by:
        for g, c in colours.items():
            ax.plot([], [], "o", color=c, label=_text(g))
        ax.legend(title=colour_by, loc="lower right")
    label = RATE_LABELS.get(metric, metric)
    n_col = "gih_wr_n" if metric == "iwd" else f"{metric}_n"
    n = rows[n_col] if n_col in rows.columns and rows.height else pl.Series([0])
    ax.set_xlabel(f"{label} ({'percentage points' if metric == 'iwd' else '%'})")
    ax.set_title(
        f"{label} by card\n{rows.height} cards, n = {_num(n.min() or 0)}–{_num(n.max() or 0)} games per card, 95 % CI"
    )
    return ax


@_styled
def plot_attribute_values(
    df: pl.DataFrame, *, attribute: str | None = None, metric: str = "gp_wr", ax: Axes | None = None
) -> Axes:
    """Plot ``card_attribute_values`` of one attribute: ``metric`` per value with 95 % intervals.

    ``attribute`` defaults to the frame's first; ``metric`` is ``gp_wr`` (drawn in %, dashed
    line at 50 %) or a counter column (mean per card-game).

    Examples
    --------
    >>> df = pl.DataFrame({"attribute": ["suit", "suit"], "value": ["heart", "spade"], "cards": [13, 13],
    ...     "n": [2600, 2600], "n_eff": [200, 200], "gp_wr": [0.52, 0.48], "gp_wr_lo": [0.45, 0.41],
    ...     "gp_wr_hi": [0.59, 0.55]})
    >>> [t.get_text() for t in plot_attribute_values(df).get_yticklabels()]
    ['heart', 'spade']
    """
    attribute = attribute or (str(df["attribute"][0]) if df.height else "")
    rows = df.filter((pl.col("attribute") == attribute) & pl.col(metric).is_not_null())
    ax = _axes(ax, rows.height)
    rate = metric == "gp_wr"
    scale = 100.0 if rate else 1.0
    est, lo, hi = (rows[c].to_numpy() * scale for c in (metric, f"{metric}_lo", f"{metric}_hi"))
    labels = rows["value"].fill_null("?").to_list()
    _forest(ax, labels, est, lo, hi, [PALETTE[0]] * rows.height, ref=50.0 if rate else None)
    what = "GP WR (% of card-games won)" if rate else f"{_text(metric).replace('_', ' ')} (mean per card-game)"
    ax.set_xlabel(what)
    n = rows["n_eff"] if rows.height and "n_eff" in rows.columns else pl.Series([0])
    ax.set_title(
        f"{'GP WR' if rate else _text(metric).replace('_', ' ').capitalize()} by card {_text(attribute)}\n"
        f"n = {_num(n.min() or 0)}–{_num(n.max() or 0)} hands per value, conservative 95 % CI"
    )
    return ax


@_styled
def plot_tempo(df: pl.DataFrame, *, min_share: float = 0.01, unit: str = "turn", ax: Axes | None = None) -> Axes:
    """Plot ``tempo``: mean score difference by turn, 95 % CI band and 10–90 % band of games.

    Turns reached by fewer than ``min_share`` of the games (and fewer than 30 games) are
    left out: their bands say little and would squash the rest. ``unit`` names one row of
    the turns table (``GameSpec.turn_unit``), e.g. ``battle`` when scores are battles won.

    Examples
    --------
    >>> df = pl.DataFrame({"perspective": ["first_minus_second"] * 2, "turn": [1, 2], "n": [50, 40],
    ...     "mean": [0.1, 0.2], "lo": [0.0, 0.1], "hi": [0.2, 0.3], "q10": [-1.0, -1.0], "q90": [1.0, 1.0]})
    >>> plot_tempo(df, unit="battle").get_xlabel()
    'battle'
    """
    ax = _axes(ax)
    perspectives = df["perspective"].unique(maintain_order=True).to_list()
    n_games = int(df.filter(pl.col("perspective") == perspectives[0])["n"].max() or 0) if perspectives else 0
    shown = df.filter(pl.col("n") >= max(30, min_share * n_games))
    for i, p in enumerate(perspectives):
        part = shown.filter(pl.col("perspective") == p).sort("turn")
        colour = PALETTE[2 * i % len(PALETTE)]
        turn = part["turn"].to_numpy()
        ax.fill_between(turn, part["q10"].to_numpy(), part["q90"].to_numpy(), color=colour, alpha=0.12, linewidth=0)
        ax.fill_between(turn, part["lo"].to_numpy(), part["hi"].to_numpy(), color=colour, alpha=0.45, linewidth=0)
        marker = "o" if len(turn) <= 20 else None  # a short curve (a few battles) shows its points
        legend = PERSPECTIVE_LABELS.get(p, _text(p))
        ax.plot(turn, part["mean"].to_numpy(), color=colour, marker=marker, markersize=4, label=legend)
    ax.axhline(0, color=GREY, linewidth=0.9, linestyle="--", zorder=0)
    if perspectives:
        ax.legend(loc="upper left")
    label = _text(unit)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("turn (both seats counted)" if unit == "turn" else label)
    ax.set_ylabel(
        "score difference at end of turn (points)" if unit == "turn" else f"score difference after each {label}"
    )
    bands = "dark band: 95 % CI of the mean; light: 10–90 % of games"
    ax.set_title(f"Score difference by {label}\nn = {_num(n_games)} games; {bands}")
    return ax


@_styled
def plot_steps_per_game(
    df: pl.DataFrame, *, summary: pl.DataFrame | None = None, unit: str = "battle", ax: Axes | None = None
) -> Axes:
    """Plot the distribution of steps per game (``distribution(steps_per_game(...), "steps")``).

    Examples
    --------
    >>> plot_steps_per_game(pl.DataFrame({"steps": [1, 2], "count": [5, 3]})).get_xlabel()
    'battles per game'
    """
    ax = _axes(ax)
    _histogram(ax, df, "steps", None)
    _mean_marker(ax, summary)
    label = _text(unit)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(f"{label}s per game")
    ax.set_ylabel("games")
    ax.set_title(_summary_title(f"{label.capitalize()}s per game", summary, f"{label}s", "games"))
    return ax


@_styled
def plot_comparison(
    df: pl.DataFrame, *, label_a: str = "A", label_b: str = "B", relative: bool = False, ax: Axes | None = None
) -> Axes:
    """Plot ``compare_runs`` rows as a forest plot of paired differences A − B with 95 % CIs.

    Rates are drawn in percentage points; pass rows of one unit per axes, or rows of
    several units with ``relative=True``: each Δ and interval is then drawn as a percentage
    of B's mean (rows where B's mean is 0 are left out).

    Examples
    --------
    >>> df = pl.DataFrame({"label": ["Mean kills", "Mean xp"], "unit": ["kills", "xp"], "n": [9, 9],
    ...     "value_a": [2.0, 30.0], "value_b": [1.6, 30.0], "delta": [0.4, 0.0], "lo": [0.2, -3.0],
    ...     "hi": [0.6, 3.0], "significant": [True, False]})
    >>> ax = plot_comparison(df, relative=True)
    >>> [round(float(x), 1) for x in ax.collections[-1].get_offsets()[:, 0]]
    [25.0, 0.0]
    """
    if relative:
        df = df.filter(pl.col("value_b").is_not_null() & (pl.col("value_b") != 0))
    ax = _axes(ax, df.height)
    if relative:
        scale = 100.0 / np.abs(df["value_b"].to_numpy().astype(float))
    else:
        scale = np.where(df["unit"].to_numpy() == "rate", 100.0, 1.0)
    colours = [PALETTE[1] if s else GREY for s in df["significant"].to_list()]
    _forest(
        ax,
        df["label"].to_list(),
        df["delta"].to_numpy() * scale,
        df["lo"].to_numpy() * scale,
        df["hi"].to_numpy() * scale,
        colours,
        ref=0.0,
    )
    units = {"rate": "percentage points"}
    if relative:
        ax.set_xlabel(f"{_text(label_a)} − {_text(label_b)} as % of {_text(label_b)} (orange = significant)")
    else:
        kinds = sorted({units.get(u, u) for u in df["unit"].to_list()})
        ax.set_xlabel(f"{_text(label_a)} − {_text(label_b)} ({', '.join(kinds)}; orange = significant)")
    ax.set_title(f"Paired difference\nn = {_num(df['n'].max() or 0)} games, 95 % CI")
    return ax


@_styled
def plot_card_deltas(
    df: pl.DataFrame, *, metric: str = "gih_wr", label_a: str = "A", label_b: str = "B", ax: Axes | None = None
) -> Axes:
    """Plot ``compare_cards`` deltas of one metric per card, sorted, with (unpaired) 95 % CIs."""
    rows = df.filter(pl.col(f"{metric}_delta").is_not_null()).sort(f"{metric}_delta")
    ax = _axes(ax, rows.height)
    colours = [PALETTE[1] if s else GREY for s in rows[f"{metric}_significant"].to_list()[::-1]]
    est, lo, hi = (rows[f"{metric}_delta{s}"].reverse() * 100 for s in ("", "_lo", "_hi"))
    _forest(ax, rows["name"].to_list()[::-1], est, lo, hi, colours, ref=0.0)
    label = RATE_LABELS.get(metric, metric)
    ax.set_xlabel(f"{label}: {_text(label_a)} − {_text(label_b)} (percentage points; orange = significant)")
    n_key = "gih_wr" if metric == "iwd" else metric
    n = pl.concat([rows[f"{n_key}_n_a"], rows[f"{n_key}_n_b"]]) if rows.height else pl.Series([0])
    ax.set_title(
        f"{label} change by card\n{rows.height} cards, "
        f"n = {_num(n.min() or 0)}–{_num(n.max() or 0)} games per card and run, unpaired 95 % CI"
    )
    return ax


@_styled
def plot_group_means(df: pl.DataFrame, *, metric: str, by: str = "group", ax: Axes | None = None) -> Axes:
    """Plot the mean of ``metric`` per group with 95 % intervals, sorted (``group_outcomes`` rows).

    ``df`` has ``by, counter, n, mean, lo, hi``; rows of other counters are ignored.

    Examples
    --------
    >>> df = pl.DataFrame({"cls": ["a", "b"], "counter": ["kills", "kills"], "n": [10, 12],
    ...     "mean": [2.0, 3.5], "lo": [1.5, 3.0], "hi": [2.5, 4.0]})
    >>> [t.get_text() for t in plot_group_means(df, metric="kills", by="cls").get_yticklabels()]
    ['b', 'a']
    """
    rows = df.filter((pl.col("counter") == metric) & pl.col("mean").is_not_null()).sort("mean", descending=True)
    ax = _axes(ax, rows.height)
    lo = rows["lo"].to_numpy().astype(float)
    hi = rows["hi"].to_numpy().astype(float)
    est = rows["mean"].to_numpy().astype(float)
    lo, hi = np.where(np.isfinite(lo), lo, est), np.where(np.isfinite(hi), hi, est)
    _forest(ax, rows[by].cast(pl.String).to_list(), est, lo, hi, [PALETTE[0]] * rows.height, ref=None)
    name = _text(metric).replace("_", " ")
    ax.set_xlabel(f"{name} (mean per game)")
    n = rows["n"] if rows.height else pl.Series([0])
    ax.set_title(
        f"Mean {name} by {_text(by).replace('_', ' ')}\n"
        f"n = {_num(n.min() or 0)}–{_num(n.max() or 0)} games per group, 95 % CI"
    )
    return ax


@_styled
def plot_level_progression(df: pl.DataFrame, *, unit: str = "battle", ax: Axes | None = None) -> Axes:
    """Plot ``level_progression``: the first step at each level, mean with 95 % CI and 10–90 % band.

    Examples
    --------
    >>> df = pl.DataFrame({"level": [1, 2], "n": [10, 6], "mean": [1.0, 4.5], "lo": [1.0, 3.9], "hi": [1.0, 5.1],
    ...     "p10": [1.0, 2.0], "p90": [1.0, 7.0]})
    >>> plot_level_progression(df).get_xlabel()
    'level'
    """
    ax = _axes(ax)
    rows = df.filter(pl.col("n") > 0).sort("level")
    x = rows["level"].to_numpy()
    mean = rows["mean"].to_numpy().astype(float)
    lo, hi = (np.where(np.isfinite(v), v, mean) for v in (rows[c].to_numpy().astype(float) for c in ("lo", "hi")))
    ax.fill_between(x, rows["p10"].to_numpy(), rows["p90"].to_numpy(), color=PALETTE[0], alpha=0.15, linewidth=0)
    ax.errorbar(x, mean, yerr=[mean - lo, hi - mean], color=PALETTE[0], marker="o", markersize=4, capsize=3)
    for xi, yi, ni in zip(x, mean, rows["n"].to_list(), strict=True):
        ax.annotate(f"n={_num(ni)}", (xi, yi), textcoords="offset points", xytext=(4, -11), fontsize=7, color=GREY)
    label = _text(unit)
    if len(x):
        ax.set_xlim(float(x.min()) - 0.4, float(x.max()) + 0.8)  # room for the last n label
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("level")
    ax.set_ylabel(f"first {label} played at the level ({label} number)")
    n = rows["n"] if rows.height else pl.Series([0])
    ax.set_title(
        f"{label.capitalize()}s to reach each level\n"
        f"n = {_num(n.min() or 0)}–{_num(n.max() or 0)} games per level; mean, 95 % CI; band: 10–90 % of games"
    )
    return ax


@_styled
def plot_step_outcomes(
    df: pl.DataFrame, *, by: str, values: Sequence[str] | None = None, unit: str = "battle", ax: Axes | None = None
) -> Axes:
    """Plot ``step_outcomes(..., by=by)``: the share of steps ending each way per group, 95 % CIs.

    ``values`` picks the outcome values drawn (default: all but the most common overall,
    e.g. every way of losing a battle when most are won); each gets a colour.

    Examples
    --------
    >>> df = pl.DataFrame({"level": [1, 1, 2, 2], "outcome": ["died", "won", "died", "won"], "count": [1, 9, 3, 7],
    ...     "n": [10] * 4, "rate": [0.1, 0.9, 0.3, 0.7], "lo": [0.02, 0.6, 0.1, 0.4], "hi": [0.4, 0.98, 0.6, 0.9]})
    >>> [t.get_text() for t in plot_step_outcomes(df, by="level").get_yticklabels()]
    ['level 1', 'level 2']
    """
    if values is None:
        totals = df.group_by("outcome").agg(pl.col("count").sum()).sort("count", "outcome", descending=[True, False])
        values = totals["outcome"].to_list()[1:] or totals["outcome"].to_list()
    groups = df[by].unique(maintain_order=True).sort().to_list()
    ax = _axes(ax, len(groups) * max(1, len(values)) // 2 + len(groups))
    colours = palette(values)
    y0 = np.arange(len(groups))[::-1].astype(float)
    step = 0.7 / max(len(values), 1)
    for i, v in enumerate(values):
        part = df.filter(pl.col("outcome") == v)
        rates = {r[by]: r for r in part.iter_rows(named=True)}
        y = y0 + 0.35 - step * (i + 0.5)
        est = np.array([rates[g]["rate"] if g in rates and rates[g]["rate"] is not None else np.nan for g in groups])
        lo = np.array([rates[g]["lo"] if g in rates else np.nan for g in groups], dtype=float)
        hi = np.array([rates[g]["hi"] if g in rates else np.nan for g in groups], dtype=float)
        ax.hlines(y, lo * 100, hi * 100, colors=colours[v], linewidth=1.2)
        ax.scatter(est * 100, y, s=20, color=colours[v], zorder=3, label=_text(v))
    numeric = df.schema[by].is_numeric()
    labels = [f"{_text(by).replace('_', ' ')} {g}" if numeric else _text(g) for g in groups]
    ax.set_yticks(y0, labels)
    _fit_labels(ax, labels)
    ax.set_ylim(-0.7, len(groups) - 0.3)
    ax.grid(axis="y", visible=False)
    if values:
        ax.legend(title="outcome", loc="best")
    label = _text(unit)
    n = df.group_by(by).agg(pl.col("n").first())["n"] if df.height else pl.Series([0])
    ax.set_xlabel(f"share of {label}s (%)")
    ax.set_title(
        f"How {label}s end, by {_text(by).replace('_', ' ')}\n"
        f"n = {_num(n.min() or 0)}–{_num(n.max() or 0)} {label}s per group, 95 % CI"
    )
    return ax


@_styled
def plot_group_deltas(
    df: pl.DataFrame, *, metric: str, label_a: str = "A", label_b: str = "B", ax: Axes | None = None
) -> Axes:
    """Plot ``compare_groups`` rows of one metric: paired Δ = A − B per group with 95 % CIs, sorted.

    Examples
    --------
    >>> df = pl.DataFrame({"column": ["cls"] * 2, "group": ["a", "b"], "metric": ["kills"] * 2, "n": [50, 50],
    ...     "delta": [0.5, -0.2], "lo": [0.1, -0.6], "hi": [0.9, 0.2], "significant": [True, False]})
    >>> [t.get_text() for t in plot_group_deltas(df, metric="kills").get_yticklabels()]
    ['a', 'b']
    """
    rows = df.filter((pl.col("metric") == metric) & pl.col("delta").is_not_null()).sort("delta", descending=True)
    ax = _axes(ax, rows.height)
    est = rows["delta"].to_numpy().astype(float)
    lo, hi = (np.where(np.isfinite(v), v, est) for v in (rows[c].to_numpy().astype(float) for c in ("lo", "hi")))
    colours = [PALETTE[1] if s else GREY for s in rows["significant"].to_list()]
    _forest(ax, rows["group"].to_list(), est, lo, hi, colours, ref=0.0)
    name = _text(metric).replace("_", " ")
    column = _text(rows["column"][0]).replace("_", " ") if rows.height else "group"
    ax.set_xlabel(f"{name} per game: {_text(label_a)} − {_text(label_b)} (orange = significant)")
    n = rows["n"] if rows.height else pl.Series([0])
    ax.set_title(
        f"Paired difference in {name} by {column}\n"
        f"n = {_num(n.min() or 0)}–{_num(n.max() or 0)} paired games per group, 95 % CI"
    )
    return ax
