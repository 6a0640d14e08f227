"""Charts of cards: a metric per card, per card attribute, and per-card changes between runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

import polars as pl

from balance.charts._base import (
    GREY,
    PALETTE,
    RATE_LABELS,
    _axes,
    _forest,
    _n_range,
    _styled,
    _text,
    new_axes,
    palette,
)

POINT_METRICS = ("iwd", "delta")  # differences of win rates, drawn in percentage points around 0

if TYPE_CHECKING:
    from matplotlib.axes import Axes


@_styled
def plot_card_values(
    df: pl.DataFrame, *, metric: str = "gih_wr", colour_by: str | None = None, ax: Axes | None = None
) -> Axes:
    """Plot one ``card_values`` metric per card, sorted, with 95 % intervals.

    ``metric`` is a win rate (drawn in %, dashed line at 50 %), ``iwd`` or ``delta`` (the
    counterfactual value, ``delta_lo``/``delta_hi``/``delta_n``; both in percentage points,
    dashed line at 0) or another share such as ``incidence``.

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
    points = metric in POINT_METRICS
    ref = 0.0 if points else 50.0 if metric.endswith("_wr") else None
    if colour_by is None:
        colour_by = next((c for c in ("confidence", "source") if c in rows.columns), None)
    groups = rows[colour_by].cast(pl.String).fill_null("?").to_list() if colour_by else [""] * rows.height
    colours = palette(groups)
    est, lo, hi = (rows[c].reverse() * 100 for c in (metric, f"{metric}_lo", f"{metric}_hi"))
    _forest(ax, rows["name"].to_list()[::-1], est, lo, hi, [colours[g] for g in groups[::-1]], ref=ref)
    if colour_by and colours:  # no rows: no legend (matplotlib warns on an empty one)
        for g, c in colours.items():
            ax.plot([], [], "o", color=c, label=_text(g))
        ax.legend(title=colour_by, loc="lower right")
    label = RATE_LABELS.get(metric, metric)
    n_col = "gih_wr_n" if metric == "iwd" else f"{metric}_n"
    n = rows[n_col] if n_col in rows.columns else None
    ax.set_xlabel(f"{label} ({'percentage points' if points else '%'})")
    games = "paired games" if metric == "delta" else "games"
    # y=1.0: where matplotlib's automatic title placement puts it above a categorical y axis (no
    # offset text, no top ticks), without measuring every card name's tick label again at each draw
    ax.set_title(f"{label} by card\n{rows.height} cards, {_n_range(n)} {games} per card, 95 % CI", y=1.0)
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
    n = rows["n_eff"] if "n_eff" in rows.columns else None
    ax.set_title(
        f"{'GP WR' if rate else _text(metric).replace('_', ' ').capitalize()} by card {_text(attribute)}\n"
        f"{_n_range(n)} hands per value, conservative 95 % CI"
    )
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
    n = pl.concat([rows[f"{n_key}_n_a"], rows[f"{n_key}_n_b"]])
    ax.set_title(f"{label} change by card\n{rows.height} cards, {_n_range(n)} games per card and run, unpaired 95 % CI")
    return ax


@_styled
def plot_rank_shift(
    df: pl.DataFrame,
    *,
    label_a: str = "A",
    label_b: str = "B",
    metric: str = "GIH WR",
    label: int = 8,
    ax: Axes | None = None,
) -> Axes:
    """Plot ``card_ranks``: each card's rank under tier A against its rank under tier B.

    Cards on the diagonal rank alike under both; orange cards' values relative to the
    median card differ beyond their 95 % interval (``moved``); the ``label`` cards whose
    rank moves most are named.

    Examples
    --------
    >>> df = pl.DataFrame({"name": ["a", "b", "c"], "rank_a": [1.0, 2.0, 3.0], "rank_b": [3.0, 2.0, 1.0],
    ...     "shift": [2.0, 0.0, -2.0], "moved": [True, False, True]})
    >>> len(plot_rank_shift(df).texts)
    2
    """
    if ax is None:
        ax = new_axes(6.4, 6.0)[0]
    n = df.height
    colours = [PALETTE[1] if moved else GREY for moved in df["moved"].to_list()]
    ax.plot([1, max(n, 1)], [1, max(n, 1)], color=GREY, linewidth=0.9, linestyle="--", zorder=0)
    ax.scatter(df["rank_a"].to_numpy(), df["rank_b"].to_numpy(), s=18, c=colours, zorder=3)
    named = df.filter(pl.col("shift") != 0).sort(pl.col("shift").abs(), descending=True).head(label)
    for r in named.iter_rows(named=True):
        ax.annotate(
            _text(r["name"]), (r["rank_a"], r["rank_b"]), xytext=(4, 3), textcoords="offset points", fontsize=7.5
        )
    ax.set_xlabel(f"rank under {_text(label_a)} (1 = highest {metric})")
    ax.set_ylabel(f"rank under {_text(label_b)}")
    ax.set_title(f"Card rank by {metric} under two tiers\n{n} cards; orange = moves beyond its 95 % CI")
    return ax
