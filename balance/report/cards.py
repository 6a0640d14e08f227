"""Report sections on cards: value per card, effect counters, and value by card attribute."""

from __future__ import annotations

from concurrent.futures import Future

import polars as pl

from balance import charts
from balance import metrics as m
from balance.io import Run
from balance.report.html import Cell, Charts, esc, estimate, note, number, points, section, table, text
from balance.report.tables import wide_counters

Pending = Future[m.CardTables] | None
CARD_COLUMNS = {k: v for k, v in m.CARD_RATES.items() if k not in ("played_wr", "play_rate")}
CARD_COLUMNS |= {"iwd": "IWD", "played_wr": m.CARD_RATES["played_wr"], "play_rate": m.CARD_RATES["play_rate"]}
PROVENANCE = ("source", "confidence")


def cards_section(run: Run, out: Charts, tables: Pending) -> str:
    """Return the per-card section: value table with intervals, two charts, effect counters."""
    if tables is None:
        return section(
            "cards", "Card values", note("This run did not record the cards table; card metrics are skipped.")
        )
    values, counters = tables.result()[:2]
    if "gp_wr" not in values.columns:
        return _counters_only(run, out, values, counters)
    info = [c for c in m.info_columns(run.card_dim) if c in values.columns]
    headers = ["card", *info, *CARD_COLUMNS.values(), "avg turn first played"]
    rows = []
    for r in values.iter_rows(named=True):
        cells = [text(r["name"]), *(text(r[c]) for c in info)]
        for key in CARD_COLUMNS:
            if key == "iwd":
                cells.append(points(r["iwd"], r["iwd_lo"], r["iwd_hi"]))
            else:
                cells.append(estimate(r[key], r[f"{key}_lo"], r[f"{key}_hi"], r[f"{key}_n"]))
        cells.append(
            estimate(r["turn_played"], r["turn_played_lo"], r["turn_played_hi"], r["turn_played_n"], percent=False)
        )
        rows.append(cells)
    parts = []
    provenance = [c for c in info if c in PROVENANCE]
    if provenance:
        parts.append(
            note(
                f"Card stats are partly reconstructed: check the {', '.join(provenance)} column(s) "
                "beside each card before acting on its figures."
            )
        )
    parts.append(
        table(headers, rows, caption="Each figure: estimate, [95 % CI], n = games counted. Click a header to sort.")
    )
    parts.append(
        out.add(
            "card_gih_wr",
            charts.plot_card_values(values, metric="gih_wr").figure,
            "GIH WR per card with 95 % intervals",
        )
    )
    parts.append(
        out.add("card_iwd", charts.plot_card_values(values, metric="iwd").figure, "IWD per card with 95 % intervals")
    )
    if counters.height:
        parts.append("<h3>Card effect counters (mean per game in deck)</h3>")
        parts.append(wide_counters(counters, "name", "card"))
    return section("cards", "Card values", *parts)


def _counters_only(run: Run, out: Charts, incidence: pl.DataFrame, counters: pl.DataFrame) -> str:
    """Return the card section of a run whose cards table has no results (a one-seat game)."""
    parts = [note("No winner in this game, so card win rates (GP WR, GIH WR, IWD ...) do not apply.")]
    info = [c for c in m.info_columns(run.card_dim) if c in incidence.columns]
    names = counters["counter"].unique(maintain_order=True).to_list() if counters.height else []
    means = {(r["card"], r["counter"]): r for r in counters.iter_rows(named=True)}
    rows = []
    for r in incidence.iter_rows(named=True):
        cells: list[Cell] = [text(r["name"]), *(text(r[c]) for c in info)]
        cells.append(estimate(r["rate"], r["lo"], r["hi"], r["count"]))
        for c in names:
            x = means.get((r["card"], c))
            cells.append(estimate(x["mean"], x["lo"], x["hi"], percent=False) if x else text(""))
        rows.append(cells)
    headers = ["card", *info, "games with a row [95 % CI]", *names]
    shown = incidence.rename({"rate": "incidence", "lo": "incidence_lo", "hi": "incidence_hi", "n": "incidence_n"})
    parts += [
        out.add(
            "card_incidence",
            charts.plot_card_values(shown, metric="incidence").figure,
            "Share of games in which each card has a row, with 95 % intervals",
        ),
        table(
            headers,
            rows,
            caption="Games with a row: share of all games in which the card came into play (Wilson 95 %), n = such "
            "games; counters: mean [95 % CI] over those games.",
        ),
    ]
    return section("cards", "Cards", *parts)


def _counter_names(df: pl.DataFrame) -> list[str]:
    return [c[:-3] for c in df.columns if c.endswith("_sd") and c[:-3] in df.columns]


def _attribute_table(df: pl.DataFrame, attribute: str, counters: list[str], with_wr: bool) -> str:
    rows = []
    for r in df.filter(pl.col("attribute") == attribute).iter_rows(named=True):
        cells: list[Cell] = [text(r["value"]), number(r["cards"]), number(r["n"])]
        if with_wr:
            cells.append(estimate(r["gp_wr"], r["gp_wr_lo"], r["gp_wr_hi"], r["n_eff"]))  # the interval's n
        cells += [estimate(r[c], r[f"{c}_lo"], r[f"{c}_hi"], percent=False) for c in counters]
        rows.append(cells)
    headers = [attribute, "cards", "card-games", *(["GP WR [95 % CI]"] if with_wr else []), *counters]
    caption = "Counters: mean [95 % CI] per card-game (one card in one seat's deck). " + _INTERVALS
    return table(headers, rows, caption=caption)


def attributes_section(run: Run, out: Charts, tables: Pending) -> str | None:
    """Return the card-attribute section (None when the run has no cards table)."""
    if tables is None:
        return None
    df = tables.result().by_attribute
    title = "Card value by attribute"
    if df.height == 0:
        return section(
            "card-attributes",
            title,
            note("The card table has no attribute with 2 to 20 distinct values (other than name and provenance)."),
        )
    attributes = df["attribute"].unique(maintain_order=True).to_list()
    counters = _counter_names(df)
    mirror = bool(df["mirror_decks"][0])
    rates = bool(df["gp_wr"].is_not_null().any())  # no results in the cards table: counters only
    parts = [
        f"<p>{esc(_ATTRIBUTE_TEXT)} Attributes: {esc(', '.join(attributes))}.</p>",
    ]
    if mirror:
        parts.append(note(_MIRROR_TEXT))
    metric = "gp_wr" if rates and not mirror else (counters[0] if counters else None)
    if metric is not None:
        fig = charts.plot_attribute_values(df, attribute=attributes[0], metric=metric).figure
        label = "GP WR" if metric == "gp_wr" else metric.replace("_", " ")
        parts.append(out.add("card_attributes", fig, f"{label} by card {attributes[0]} with 95 % intervals"))
    for a in attributes:
        parts += [f"<h3>By {esc(a)}</h3>", _attribute_table(df, a, counters, with_wr=rates and not mirror)]
    return section("card-attributes", title, *parts)


_ATTRIBUTE_TEXT = (
    "Card-level results pooled over every card sharing a value of a card-table attribute (any column "
    "with 2 to 20 distinct values): GP WR is the win rate of the seats whose deck held such a card, "
    "counted once per card (card-games); the counters are means per card-game."
)
_INTERVALS = (
    "A hand holding several cards of a value counts once per card, so intervals use n = the most-held "
    "card's card-games (as if every such hand held them all): conservative."
)
_MIRROR_TEXT = (
    "Every seat holds the same set of cards in every game (mirror decks), so GP WR is the same for every "
    "card by construction (the seats' own win rate) and is left out: only the counters are informative here."
)
