"""Report sections for settings that vary by game, and for card events (generic, column-driven).

- "Results by game setting": one table per ``games`` enum column with 2-50 values
  (``metrics.group_columns``; Cardia's ``deck`` and ``location`` in a grid run), with each
  seat's win rate, draws and length per value.
- "Card events": ``metrics.card_events`` — per card, the win rate of its played games
  with and without each counted event (Cardia's ability activations: does losing on
  purpose pay?).
"""

from __future__ import annotations

import polars as pl

import sims
from balance.io import Run
from balance.metrics import sources
from balance.metrics.sources import card_events_of
from balance.report.html import esc, estimate, note, number, points, section, table, text

MAX_GROUP_VALUES = 50


def groups_by_setting_section(run: Run) -> str | None:
    """Return the "Results by game setting" section, or None when no games column varies by game."""
    if run.n_seats < 2 or "winner" not in run.games.collect_schema().names():
        return None
    names = sources.group_columns_of(run, max_values=MAX_GROUP_VALUES)
    if not names:
        return None
    parts = []
    for by, df in sources.group_results_of(run, names).items():
        seats = sorted(df["seat"].drop_nulls().unique().to_list())
        rows = []
        for (value,), part in df.group_by(by, maintain_order=True):
            r0 = part.row(0, named=True)
            cells = [text(value), number(r0["n_games"])]
            for p in seats:
                r = part.filter(pl.col("seat") == p).row(0, named=True)
                cells.append(estimate(r["rate"], r["lo"], r["hi"]))
            cells.append(estimate(r0["draw_rate"], r0["draw_lo"], r0["draw_hi"]))
            cells.append(estimate(r0["turns_mean"], r0["turns_lo"], r0["turns_hi"], percent=False))
            rows.append(cells)
        bots = df.select("seat", "bot").unique().sort("seat").iter_rows()
        labels = {p: f"seat {p} ({b}) wins [95 % CI]" if b else f"seat {p} wins [95 % CI]" for p, b in bots}
        headers = [by.replace("_", " "), "games", *[labels[p] for p in seats], "draws [95 % CI]", "length [95 % CI]"]
        parts.append(f"<h3>By {esc(by.replace('_', ' '))}</h3>")
        parts.append(table(headers, rows, caption=f"Per value of games.{by}; n = games with that value."))
    return section("settings", "Results by game setting", *parts)


def declared_events(run: Run) -> tuple[str, ...]:
    """Return the ``cards`` counters the run's game declares as events (``GameInfo.card_events``).

    A game that declares none gets no "Card events" section: its extra counters are tallies
    (attacks, damage), not events whose happening a designer would weigh.
    """
    try:
        return sims.info(str(run.manifest.get("game"))).card_events
    except (KeyError, ImportError, AttributeError):
        return ()


def card_events_section(run: Run) -> str | None:
    """Return the "Card events" section, or None when the cards table has no event counters."""
    df = card_events_of(run, declared_events(run))
    if df is None:
        return None
    if df.height == 0:
        return section("card-events", "Card events", note("No counted event both happens and fails to happen."))
    parts = []
    for (counter,), part in df.group_by("counter", maintain_order=True):
        rows = [
            [
                text(r["name"]),
                number(r["played"]),
                estimate(r["share"], r["share_lo"], r["share_hi"]),
                estimate(r["with_wr"], r["with_lo"], r["with_hi"], r["with_n"]),
                estimate(r["without_wr"], r["without_lo"], r["without_hi"], r["without_n"]),
                points(r["diff"], r["diff_lo"], r["diff_hi"]),
            ]
            for r in part.iter_rows(named=True)
        ]
        label = str(counter).replace("_", " ")
        parts.append(f"<h3>{esc(label)}</h3>")
        parts.append(
            table(
                ["card", "games played", f"share with {label}", "win rate with", "win rate without", "difference"],
                rows,
                caption=f"Games in which the card was played; 'with' = {label} > 0. Wilson 95 % intervals; "
                "the difference with Newcombe's interval (not paired: the games differ).",
            )
        )
    return section("card-events", "Card events: win rate with and without each event", *parts)
