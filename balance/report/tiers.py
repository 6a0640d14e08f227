"""Report section: how much do card values depend on the bot? (one card metric ranked under two tiers)

In a single run the tiers are its bots (each bot's figures from the seats it played);
in a comparison they are the two runs. See :mod:`balance.metrics.tiers` for the method.
"""

from __future__ import annotations

import polars as pl

from balance import charts
from balance.metrics.tiers import Agreement, agreement, card_ranks, metric_label
from balance.report.html import (
    Cell,
    Charts,
    esc,
    estimate,
    filter_box,
    flag,
    note,
    number,
    points,
    section,
    table,
    text,
)
from balance.report.summary import tier_sentence

ANCHOR, TITLE = "bot-dependence", "How much do card values depend on the bot?"


class TierResult:
    """The rank comparison of two tiers: agreement figures and the per-card ranks."""

    def __init__(self, counts: pl.DataFrame, tier_a: str, tier_b: str, card_dim: pl.DataFrame | None) -> None:
        """Rank the cards of ``counts`` (:func:`~balance.metrics.tiers.tier_counts`) under both tiers."""
        self.agreement: Agreement = agreement(counts, tier_a, tier_b)
        self.ranks: pl.DataFrame = card_ranks(counts, tier_a, tier_b, card_dim)


def _figures(a: Agreement) -> str:
    def rel(x: float) -> Cell:
        return number(x) if x == x else text("–")

    rows = [
        [
            text(f"{a.tier_a} vs {a.tier_b}"),
            number(a.cards),
            estimate(a.rho, a.lo, a.hi, percent=False),
            rel(a.reliability_a),
            rel(a.reliability_b),
            rel(a.ceiling),
            number(a.moved),
        ]
    ]
    headers = ["tiers", "cards ranked", "Spearman ρ [95 % CI]", "reliability A", "reliability B", "ceiling", "moved"]
    caption = (
        "Reliability: the rank correlation between the two halves of a tier's games (even and odd game ids), "
        "stepped up to all games (Spearman-Brown). Ceiling = √(reliability A × reliability B): the correlation "
        "expected if both tiers ranked the cards alike and only sampling noise moved them. ρ well below the "
        "ceiling means the ranking is a property of the bot."
    )
    return table(headers, rows, caption=caption, sortable=False)


def _rank_table(ranks: pl.DataFrame, a: Agreement, label: str) -> str:
    rows = []
    for r in ranks.iter_rows(named=True):
        rows.append(
            [
                text(r["name"]),
                Cell(f"{r['rank_a']:g}", r["rank_a"]),
                Cell(f"{r['rank_b']:g}", r["rank_b"]),
                Cell(f"{r['shift']:+g}", r["shift"]),
                estimate(r["value_a"], r["lo_a"], r["hi_a"], r["n_a"]),
                estimate(r["value_b"], r["lo_b"], r["hi_b"], r["n_b"]),
                points(r["relative"], r["relative_lo"], r["relative_hi"]),
                flag(r["moved"]),
            ]
        )
    headers = [
        "card",
        f"rank under {a.tier_a}",
        f"rank under {a.tier_b}",
        "rank shift",
        f"{label} {a.tier_a}",
        f"{label} {a.tier_b}",
        "relative Δ (A − B)",
        "moved",
    ]
    caption = (
        f"Rank 1 = highest {label}; shift = rank under {a.tier_b} − rank under {a.tier_a}. Relative Δ: the card's "
        f"{label} minus the tier's median card, A − B, Newcombe 95 % interval; moved = that interval excludes 0. "
        f"Sorted by the size of the shift; cards counted fewer than 30 times under either tier are left out."
    )
    return table(headers, rows, caption=caption, table_id="rank-table", compact=True)


def tiers_section(
    result: TierResult | None, out: Charts, *, why: str = "", within_run: bool = True, title: str = TITLE
) -> str:
    """Return the section, or a one-line note saying why there is nothing to rank (``why``)."""
    if result is None:
        return section(ANCHOR, title, note(why))
    a, ranks = result.agreement, result.ranks
    if a.cards < 4:
        return section(
            ANCHOR, title, note(f"Only {a.cards} card(s) counted 30 times under both tiers: too few to rank.")
        )
    label = metric_label(a.metric)
    parts = [f"<p>{esc(tier_sentence(a, ranks)[1])}</p>", _figures(a)]
    if within_run:
        parts.append(
            note(
                "Each bot's figures come from the seats it played, against the other bot: a card's rank under one "
                "bot is measured against the other bot's play."
            )
        )
    fig = charts.plot_rank_shift(ranks, label_a=a.tier_a, label_b=a.tier_b, metric=label).figure
    parts.append(out.add("card_rank_shift", fig, f"Card rank by {label} under {a.tier_a} and {a.tier_b}"))
    parts += [filter_box("rank-table", "cards"), _rank_table(ranks, a, label)]
    return section(ANCHOR, title, *parts)
