"""Report sections on cards: value per card, effect counters, and value by card attribute."""

from __future__ import annotations

from concurrent.futures import Future
from typing import NamedTuple

import polars as pl

from balance import charts
from balance import metrics as m
from balance.io import Run
from balance.metrics import verdicts
from balance.metrics.matchups import deck_members, members_from_dim
from balance.report.counterfactual import CardValues
from balance.report.games import sample_note
from balance.report.html import Cell, Charts, esc, estimate, filter_box, note, number, points, section, table, text
from balance.report.summary import BIAS_WARNING, DECK_CARDS, iwd_sentence
from balance.report.tables import wide_counters

Pending = Future[m.CardTables] | None
CARD_COLUMNS = {k: v for k, v in m.CARD_RATES.items() if k not in ("played_wr", "play_rate")}
CARD_COLUMNS |= {"iwd": "IWD", "played_wr": m.CARD_RATES["played_wr"], "play_rate": m.CARD_RATES["play_rate"]}
PROVENANCE = ("source", "confidence")
TIPS = {
    "verdict": "Too strong / too weak: more than 2 pp from the median card (of the card's own deck when the seats "
    "play fixed named decks), 95 % interval beyond that median.",
    "delta": "Counterfactual value: Δ win rate of the seat holding the card against the same seeds with the card "
    "replaced by the baseline (balance value), paired 95 % interval, n = paired games.",
    "gp_wr": "Win rate of the seats whose deck held the card.",
    "oh_wr": "Win rate when the card was in the opening hand.",
    "gd_wr": "Win rate when the card was drawn after the opening hand.",
    "gih_wr": "Win rate when the card was in hand at some point (opening hand or drawn).",
    "gns_wr": "Win rate when the card was in the deck but never seen.",
    "iwd": "Improvement when drawn: GIH WR − GNS WR (Newcombe interval). See the note above the table.",
    "played_wr": "Win rate when the card was played at least once.",
    "play_rate": "Share of the games with the card in the deck in which it was played.",
    "turn_played": "Mean global turn (both seats counted) on which the card was first played.",
}


class CardFacts(NamedTuple):
    """The per-card figures of a run, shared by the card section and the summary."""

    values: pl.DataFrame  # card_values (+ delta, delta_lo, delta_hi, delta_n), reference, verdict
    counterfactual: CardValues | None  # the values file the Δ columns came from
    basis: str | None  # the column verdicts rest on: "delta", "gih_wr", or None (no verdicts)
    mirror: bool  # every seat holds every card: card win rates equal by construction
    seen: pl.DataFrame | None  # seen_unseen, for the IWD explanation
    by_deck: bool = False  # GIH WR verdicts against the median card of the card's own deck (fixed named decks)


def _with_counterfactual(values: pl.DataFrame, cv: CardValues | None, card_dim: pl.DataFrame) -> pl.DataFrame:
    """Join the Δ columns to the observational table; a card with a Δ but no card rows gets a row of its own."""
    if cv is None:
        return values
    delta = cv.frame.select(
        pl.col("card").cast(values.schema["card"]),
        pl.col("delta"),
        pl.col("ci_low").alias("delta_lo"),
        pl.col("ci_high").alias("delta_hi"),
        pl.col("n_pairs").alias("delta_n"),
    )
    out = values.join(delta, on="card", how="full", coalesce=True)
    known = set(values["card"].to_list())
    missing = [c for c in delta["card"].to_list() if c not in known]
    if missing and "name" in out.columns:  # named (and described) from the card dimension
        dim = card_dim.filter(pl.col("card").is_in(missing)).with_columns(pl.col("card").cast(out.schema["card"]))
        fill = [c for c in dim.columns if c in out.columns and c != "card"]
        out = out.update(dim.select("card", *fill), on="card")
    return out.sort("card")


def card_facts(
    run: Run,
    tables: Pending,
    cv: CardValues | None,
    seen: Future[pl.DataFrame] | None,
    decks: list[str] | None = None,
) -> CardFacts | None:
    """Return the card figures of a run with verdicts (by Δ when ``cv`` is given, else by GIH WR), or None.

    ``decks`` names the fixed decks the seats played (the deck section's list), if any:
    GIH WR verdicts are then taken within each card's own deck.
    """
    if tables is None:
        return None
    values = tables.result().values
    if "gp_wr" not in values.columns:  # no winner (a one-seat game): incidence and counters only
        if cv is None:
            return CardFacts(values, None, None, False, None)
        values = _with_counterfactual(values, cv, run.card_dim)
        return CardFacts(verdicts.flag_cards(values, "delta"), cv, "delta", False, None)
    hands = int(run.seats.select(pl.len()).collect().item())
    n = values["gp_wr_n"]
    mirror = values.height > 0 and hands > 0 and bool((n == hands).all())
    values = _with_counterfactual(values, cv, run.card_dim)
    basis = "delta" if cv is not None else (None if mirror else "gih_wr")
    members = _deck_members(run, decks) if basis == "gih_wr" and decks else None
    if members is not None:
        held = members.group_by("card").agg(pl.col("deck").sort().str.join(", ").alias("decks"))
        values = values.join(held.with_columns(pl.col("card").cast(values.schema["card"])), on="card", how="left")
    if basis is not None:
        values = verdicts.flag_cards(values, basis, members=members)
    return CardFacts(values, cv, basis, mirror, seen.result() if seen is not None else None, members is not None)


def _deck_members(run: Run, decks: list[str]) -> pl.DataFrame | None:
    """Return ``card, deck`` for the named ``decks`` (two or more hold cards), else None.

    The card dimension's ``in_<deck>`` copy counts say which decks hold a card (Card Wars'
    starter decks); without them, the first games of a raw ``cards`` table do.
    """
    members = members_from_dim(run.card_dim, decks)
    if members is None and run.cards is not None and "card" in run.cards.collect_schema().names():
        members = deck_members(run.cards, run.seats)
    return members if members is not None and members["deck"].n_unique() >= 2 else None


def _verdict(value: str | None) -> Cell:
    if not value:
        return Cell("", "")
    cls = "strong" if value == verdicts.STRONG else "weak"
    return Cell(f'<span class="{cls}">{esc(value)}</span>', value)


def cards_section(run: Run, out: Charts, tables: Pending, facts: CardFacts | None = None) -> str:
    """Return the per-card section: value table with intervals (sortable, filterable), charts, effect counters."""
    if tables is None:
        return section(
            "cards", "Card values", note("This run did not record the cards table; card metrics are skipped.")
        )
    counters = tables.result().counters
    values = facts.values if facts is not None else tables.result().values
    sample = sample_note(run)
    if "gp_wr" not in values.columns:
        return _counters_only(run, out, values, counters, facts, sample)
    info = [c for c in m.info_columns(run.card_dim) if c in values.columns]
    has_delta = "delta" in values.columns
    has_verdict = "verdict" in values.columns
    keys = [*(["verdict"] if has_verdict else []), *(["delta"] if has_delta else []), *CARD_COLUMNS, "turn_played"]
    labels = {"verdict": "verdict", "delta": "counterfactual Δ", **CARD_COLUMNS, "turn_played": "turn first played"}
    headers = ["card", *info, *(labels[k] for k in keys)]
    titles = ["", *([""] * len(info)), *(TIPS.get(k, "") for k in keys)]
    rows = []
    for r in values.iter_rows(named=True):
        cells = [text(r["name"]), *(text(r[c]) for c in info)]
        for key in keys:
            if key == "verdict":
                cells.append(_verdict(r["verdict"]))
            elif key == "delta":
                cells.append(points(r["delta"], r["delta_lo"], r["delta_hi"], r["delta_n"]))
            elif key == "iwd":
                cells.append(points(r["iwd"], r["iwd_lo"], r["iwd_hi"]))
            elif key == "turn_played":
                cells.append(estimate(r[key], r[f"{key}_lo"], r[f"{key}_hi"], r[f"{key}_n"], percent=False))
            else:
                cells.append(estimate(r[key], r[f"{key}_lo"], r[f"{key}_hi"], r[f"{key}_n"]))
        rows.append(cells)
    parts = [sample] if sample else []
    provenance = [c for c in info if c in PROVENANCE]
    if provenance:
        parts.append(
            note(
                f"Card stats are partly reconstructed: check the {', '.join(provenance)} column(s) "
                "beside each card before acting on its figures."
            )
        )
    if facts is not None:
        parts += _explanations(facts)
    caption = (
        "Each figure: estimate, [95 % CI], n = games counted (Δ: paired games). Click a header to sort "
        "(again to reverse); hover a header for its definition; type in the box to filter."
    )
    parts.append(filter_box("card-table", "cards"))
    parts.append(table(headers, rows, caption=caption, table_id="card-table", compact=True, titles=titles))
    if has_delta:
        parts.append(
            out.add(
                "card_delta",
                charts.plot_card_values(values, metric="delta").figure,
                "Counterfactual value Δ per card with 95 % intervals",
            )
        )
    parts.append(
        out.add(
            "card_gih_wr",
            charts.plot_card_values(values, metric="gih_wr").figure,
            "GIH WR per card with 95 % intervals",
        )
    )
    iwd_caption = iwd_sentence(facts.seen) if facts is not None and facts.seen is not None else ""
    parts.append(
        out.add(
            "card_iwd",
            charts.plot_card_values(values, metric="iwd").figure,
            "IWD per card with 95 % intervals",
            iwd_caption,
        )
    )
    if counters.height:
        parts.append("<h3>Card effect counters (mean per game in deck)</h3>")
        parts.append(wide_counters(counters, "name", "card"))
    return section("cards", "Card values", *parts)


def _explanations(facts: CardFacts) -> list[str]:
    """Return the one-line notes above the card table: where Δ comes from, what verdicts and IWD mean."""
    parts = []
    if facts.counterfactual is not None:
        cv = facts.counterfactual
        meta = "; ".join(f"{k} {v}" for k, v in cv.meta.items())
        parts.append(
            f'<p class="explain">Δ: counterfactual values from {esc(cv.path)}{esc(" (" + meta + ")" if meta else "")}: '
            "the same seeds played with the card and with it replaced by the baseline.</p>"
        )
        parts += [note(f"Careful: {c}.") for c in cv.caveats]
    if facts.basis == "gih_wr":
        parts.append(f'<p class="explain">Verdicts by GIH WR. {esc(BIAS_WARNING)}</p>')
        if facts.by_deck:
            parts.append(f'<p class="explain">{esc(DECK_CARDS)}</p>')
    elif facts.basis == "delta":
        parts.append('<p class="explain">Verdicts by counterfactual Δ (observational columns for reference).</p>')
    if facts.mirror:
        parts.append(note(MIRROR_CARDS))
    if facts.seen is not None:
        parts.append(f'<p class="explain">{esc(iwd_sentence(facts.seen))}</p>')
    return parts


MIRROR_CARDS = (
    "Every seat holds every card in every game (mirror decks): GP WR is the seats' own win rate for every card "
    "by construction, and the other win rates separate cards only by when they were drawn. No card is flagged; "
    "measure card values with balance value (or a variant with split decks)."
)


def _counters_only(
    run: Run,
    out: Charts,
    incidence: pl.DataFrame,
    counters: pl.DataFrame,
    facts: CardFacts | None = None,
    sample: str = "",
) -> str:
    """Return the card section of a run whose cards table has no results (a one-seat game)."""
    parts = [*([sample] if sample else [])]
    parts.append(note("No winner in this game, so card win rates (GP WR, GIH WR, IWD ...) do not apply."))
    if facts is not None:
        parts += _explanations(facts)
    info = [c for c in m.info_columns(run.card_dim) if c in incidence.columns]
    names = counters["counter"].unique(maintain_order=True).to_list() if counters.height else []
    means = {(r["card"], r["counter"]): r for r in counters.iter_rows(named=True)}
    has_delta = "delta" in incidence.columns
    rows = []
    for r in incidence.iter_rows(named=True):
        cells: list[Cell] = [text(r["name"]), *(text(r[c]) for c in info)]
        if has_delta:
            cells += [_verdict(r.get("verdict")), points(r["delta"], r["delta_lo"], r["delta_hi"], r["delta_n"])]
        cells.append(estimate(r["rate"], r["lo"], r["hi"], r["count"]))
        for c in names:
            x = means.get((r["card"], c))
            cells.append(estimate(x["mean"], x["lo"], x["hi"], percent=False) if x else text(""))
        rows.append(cells)
    value_headers = ["verdict", "counterfactual Δ"] if has_delta else []
    headers = ["card", *info, *value_headers, "games with a row [95 % CI]", *(c.replace("_", " ") for c in names)]
    shown = incidence.rename({"rate": "incidence", "lo": "incidence_lo", "hi": "incidence_hi", "n": "incidence_n"})
    parts += [
        out.add(
            "card_incidence",
            charts.plot_card_values(shown, metric="incidence").figure,
            "Share of games in which each card has a row, with 95 % intervals",
        ),
        filter_box("card-table", "cards"),
        table(
            headers,
            rows,
            caption="Games with a row: share of all games in which the card came into play (Wilson 95 %), n = such "
            "games; counters: mean [95 % CI] over those games.",
            table_id="card-table",
            compact=True,
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
