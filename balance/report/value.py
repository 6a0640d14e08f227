"""The ``balance value`` report: a forest plot of every card's counterfactual Δ, the observational metrics beside it,
their rank correlations and the cards whose verdict differs most."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from balance.charts import plot_value_forest
from balance.report.html import Charts, esc, estimate, key_values, note, number, page, points, section, table, text
from balance.value import rank_correlations, verdict_differences


def _pp(x: float | None) -> str:
    return "–" if x is None else f"{x * 100:+.2f} pp"


def load_note(summary: dict[str, Any]) -> str:
    """Return " (load average L)" from the run's summary, or "" when it was not recorded."""
    load = summary.get("load_average")
    return f" (load average {load[0]:.1f})" if load else ""


def unchanged(values: pl.DataFrame) -> pl.DataFrame:
    """Return the cards whose every paired game had the same result with the card and with the baseline.

    Δ is exactly 0 with an interval of zero width: a card that plays as its baseline (a vanilla card that is its
    own baseline) or whose difference never reached a result in the games played.
    """
    return values.filter((pl.col("n_pairs") > 0) & (pl.col("delta") == 0) & (pl.col("half_width") == 0))


def value_summary(values: pl.DataFrame, summary: dict[str, Any]) -> list[str]:
    """Return the report's plain-language sentences (plain text)."""
    rows = values.filter(pl.col("delta").is_not_null()).sort("delta", descending=True)
    lines = []
    half = values["half_width"].drop_nulls()
    resolved = int(values["resolved"].sum())
    lines.append(
        f"{resolved} of {values.height} cards reached ±{summary['half_width'] * 100:.2f} pp (95 %) in "
        f"{summary['elapsed_s']:.0f} s on {summary['workers']} worker(s){load_note(summary)}; achieved half-widths "
        f"{half.min() * 100:.2f}–{half.max() * 100:.2f} pp; {summary['pairs_used']:,} paired games used."
        if half.len()
        else "No card was valued."
    )
    same = unchanged(values)
    if same.height:
        names = ", ".join(same["name"].to_list())
        lines.append(
            f"{same.height} card(s) changed no result in any of their paired games (Δ = 0 exactly, an interval of "
            f"zero width): {names}. Such a card plays exactly as its baseline (a vanilla card is its own "
            "baseline): its Δ is the reference point, not a measured strength."
        )
    if rows.height:
        median = float(rows["delta"].median())
        strong = rows.filter(pl.col("ci_low") > median + 0.02)
        weak = rows.filter(pl.col("ci_high") < median - 0.02)
        lines.append(
            f"Median card Δ {_pp(median)} against the {summary['baseline']} baseline; {strong.height} card(s) are "
            f"clearly above median + 2 pp and {weak.height} clearly below median − 2 pp (whole interval outside)."
        )
        top = ", ".join(f"{r['name']} ({_pp(r['delta'])})" for r in rows.head(3).iter_rows(named=True))
        low = ", ".join(f"{r['name']} ({_pp(r['delta'])})" for r in rows.tail(3).reverse().iter_rows(named=True))
        lines.append(f"Strongest: {top}. Weakest: {low}.")
    for r in rank_correlations(values).head(2).iter_rows(named=True):
        lines.append(
            f"Rank correlation of Δ with {r['label']}: ρ = {r['rho']:.2f} (95 % CI {r['lo']:.2f} to {r['hi']:.2f}, "
            f"{r['n']} cards)."
        )
    return lines


def _card_rows(values: pl.DataFrame) -> list[list[Any]]:
    out = []
    same = set(unchanged(values)["card"].to_list())
    for r in values.sort("delta", descending=True, nulls_last=True).iter_rows(named=True):
        resolved = "yes" if r["resolved"] else "no"
        out.append(
            [
                text(r["name"]),
                points(r["delta"], r["ci_low"], r["ci_high"]),
                points(r["half_width"], None, None),
                number(r["n_pairs"]),
                text(f"{resolved}: no result changed" if r["card"] in same else resolved),
                estimate(r["wr_with"], None, None),
                estimate(r["wr_without"], None, None),
                estimate(r["gih_wr"], r["gih_wr_lo"], r["gih_wr_hi"], r["gih_wr_n"]),
                points(r["iwd"], r["iwd_lo"], r["iwd_hi"]),
                estimate(r["gp_wr"], r["gp_wr_lo"], r["gp_wr_hi"], r["gp_wr_n"]),
                estimate(r["played_wr"], r["played_wr_lo"], r["played_wr_hi"], r["played_wr_n"]),
            ]
        )
    return out


def _verdicts(values: pl.DataFrame) -> str:
    parts = []
    for metric, label in (("gih_wr", "GIH WR"), ("iwd", "IWD")):
        diff = verdict_differences(values, metric)
        rows = [
            [
                text(r["name"]),
                points(r["delta"], r["ci_low"], r["ci_high"]),
                number(r["rank_delta"]),
                estimate(r[metric], None, None) if metric == "gih_wr" else points(r[metric], None, None),
                number(r[f"rank_{metric}"]),
                number(r["shift"]),
            ]
            for r in diff.iter_rows(named=True)
        ]
        caption = (
            f"Rank 1 = strongest. Shift = rank by {label} − rank by Δ: positive means {label} undersells the card."
        )
        parts.append(f"<h3>Δ against {esc(label)}</h3>")
        parts.append(
            table(["card", "Δ [95 % CI]", "rank by Δ", label, f"rank by {label}", "shift"], rows, caption=caption)
        )
    return "".join(parts)


def write_value_report(values: pl.DataFrame, summary: dict[str, Any], out_dir: Path | str) -> Path:
    """Write ``out_dir/index.html`` (charts embedded) and its PNGs for a ``balance value`` result; return the path."""
    out = Charts(Path(out_dir))
    sentences = value_summary(values, summary)
    correlations = rank_correlations(values)
    corr_rows = [
        [text(r["label"]), estimate(r["rho"], r["lo"], r["hi"], r["n"], percent=False, signed=True)]
        for r in correlations.iter_rows(named=True)
    ]
    forest = plot_value_forest(values)[0].figure
    headers = ["card", "Δ [95 % CI]", "±", "pairs", "resolved", "WR with", "WR without", "GIH WR", "IWD", "GP WR"]
    body = [
        section(
            "summary",
            "Summary",
            '<ul class="summary">' + "".join(f"<li>{esc(s)}</li>" for s in sentences) + "</ul>",
            note(
                "Δ = the win rate of the seat holding the card minus that of the same seat in the same games with the "
                f"card replaced by the baseline ({summary['baseline']}: {summary['baseline_note']}). GIH WR and IWD "
                "are observational, from the same games (the card is always in the holder's deck there): they mix "
                "the card's effect with how long games last and who draws more, so they can rank cards very "
                "differently."
            ),
        ),
        section(
            "forest",
            "Card values",
            out.add("value_forest", forest, "Counterfactual Δ per card with the observational metrics beside it"),
        ),
        section(
            "correlation",
            "Δ against the observational metrics",
            table(["metric", "Spearman ρ with Δ [95 % CI]"], corr_rows, sortable=False),
            _verdicts(values),
        ),
        section(
            "cards",
            "All cards",
            table([*headers, "Played WR"], _card_rows(values), caption="Sorted by Δ; click a header to sort."),
        ),
        section(
            "method",
            "Method",
            key_values({k: v for k, v in summary.items() if k != "baseline_note"}),
            note(
                "Each card's games run in batches of paired games; a card stops at the first batch boundary where "
                "its 95 % t half-width is at most the target (after a minimum), so its result does not depend on "
                "the number of workers. Stopping on the interval makes the nominal 95 % slightly optimistic."
            ),
        ),
    ]
    nav = [("summary", "Summary"), ("forest", "Card values"), ("correlation", "Correlation"), ("cards", "Cards")]
    nav.append(("method", "Method"))
    title = f"Card values: {summary['game']} ({summary['variant']})"
    subtitle = f"{', '.join(summary['bots'])} · generated {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    footer = "Generated by balance.report.value. Δ: paired t interval over card-in vs baseline games on the same seeds."
    path = out.out_dir / "index.html"
    path.write_text(page(title, title, subtitle, nav, body, footer), encoding="utf-8")
    return path
