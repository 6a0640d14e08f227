"""Charts of whole games: win rates, first-seat advantage, game length, leads and tempo."""

from __future__ import annotations

from typing import TYPE_CHECKING

import polars as pl

from balance.charts._base import (
    GREY,
    PALETTE,
    PERSPECTIVE_LABELS,
    _axes,
    _forest,
    _histogram,
    _integer_ticks,
    _mean_marker,
    _num,
    _styled,
    _summary_title,
    _text,
    palette,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes


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
def plot_tempo(df: pl.DataFrame, *, min_share: float = 0.01, unit: str = "turn", ax: Axes | None = None) -> Axes:
    """Plot ``tempo``: mean score difference by turn, 95 % CI band and 10–90 % band of games.

    Turns reached by fewer than ``min_share`` of the games (and fewer than 30 games) are
    left out: their bands say little and would squash the rest. ``unit`` names one row of
    the turns table (``GameSpec.turn_unit``), e.g. ``battle`` when scores are battles won,
    or ``round`` for a frame built from :func:`balance.metrics.rounds` (both seats' turns).

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
    ax.xaxis.set_major_locator(_integer_ticks())
    xlabels = {"turn": "turn (both seats counted)", "round": "round (the first seat's turn, then the second's)"}
    ax.set_xlabel(xlabels.get(unit, label))
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
    ax.xaxis.set_major_locator(_integer_ticks())
    ax.set_xlabel(f"{label}s per game")
    ax.set_ylabel("games")
    ax.set_title(_summary_title(f"{label.capitalize()}s per game", summary, f"{label}s", "games"))
    return ax
