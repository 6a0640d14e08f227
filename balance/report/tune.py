"""The ``balance tune`` report: verified proposals (before and after on fresh seeds, side by side) and the search."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from balance.report.html import Cell, esc, estimate, flag, key_values, note, number, page, points, section, table, text
from balance.tune import TuneResult


def _pp(r: dict[str, Any], key: str) -> Cell:
    return points(r[key], r.get(f"{key}_lo"), r.get(f"{key}_hi"))


def tune_sentences(result: TuneResult) -> list[str]:
    """Return one plain sentence per verified proposal, and what the search tried."""
    s, v = result.summary, result.verified
    objective, band = s["objective"], s["band"] * 100
    target = f"at least {band:.1f} %" if objective == "gradient" and "outcome" in s else f"band ±{band:.1f} pp"
    lines = [f"Objective {objective}: {s['metric']}, target {target}."]
    if objective == "gradient":
        met = "already meet" if s["current_in_band"] else "do not meet"
        lines.append(
            f"The current rules {met} it: smallest margin {s['current_margin'] * 100:+.1f} "
            f"{'%' if 'outcome' in s else 'pp'} "
            f"({s['current_worst_pair']}, search seed); the proposals below widen it."
        )
    if not v.height:
        lines.append("No edit improved the objective in the search; nothing to propose.")
    for r in v.iter_rows(named=True):
        if objective == "gradient" and "outcome" in s:
            unit = s["outcome"]
            lines.append(
                f"{r['edit']}: {r['match_up']} mean {unit} margin {r['before']:.3f} → {r['after']:.3f} per game "
                f"(paired Δ {r['change']:+.3f}, 95 % CI {r['change_lo']:+.3f} to {r['change_hi']:+.3f}; "
                f"{r['n']:,} games per tier)."
            )
            continue
        if objective == "gradient":
            lines.append(
                f"{r['edit']}: {r['match_up']} win rate {r['before'] * 100:.1f} % → {r['after'] * 100:.1f} % "
                f"(paired Δ {r['change'] * 100:+.2f} pp, 95 % CI {r['change_lo'] * 100:+.2f} to "
                f"{r['change_hi'] * 100:+.2f}; {r['n']:,} games each)."
            )
            continue
        verdict = "improved beyond its interval" if r["improved"] else "not a significant improvement"
        band_text = "inside" if r["in_band"] else "outside"
        lines.append(
            f"{r['edit']}: {r['before'] * 100:+.2f} pp → {r['after'] * 100:+.2f} pp on fresh seeds (paired change "
            f"{r['change'] * 100:+.2f} pp, 95 % CI {r['change_lo'] * 100:+.2f} to {r['change_hi'] * 100:+.2f}; "
            f"{r['n']:,} games per arm): {verdict}, {band_text} the band."
        )
    if s.get("proposed_file"):
        lines.append(f"Proposed card file (a copy; the original is unchanged): {s['proposed_file']}")
    return lines


def _verified_table(result: TuneResult) -> str:
    v, s = result.verified, result.summary
    objective = s["objective"]
    if not v.height:
        return note("No proposal to verify.")
    if objective == "gradient":
        solo = "outcome" in s
        rows = [
            [text(r["edit"]), text(r["match_up"]), number(r["n"]),
             *((number(r["before"], 3), number(r["after"], 3),
                estimate(r["change"], r["change_lo"], r["change_hi"], percent=False, signed=True)) if solo else
               (points(r["before"], None, None), points(r["after"], None, None), _pp(r, "change")))]
            for r in v.iter_rows(named=True)
        ]  # fmt: skip
        headers = ["edit", "match-up", "games", "before", "after", "paired Δ [95 % CI]"]
        what = f"mean {s['outcome']} margin per game (higher − lower tier)" if "outcome" in s else "win rate"
        return table(headers, rows, caption=f"The higher tier's {what}, the same fresh games before and after.")
    what = "advantage" if objective == "first_seat" else "card Δ"
    rows = [
        [text(r["edit"]), number(r["n"]), _pp(r, "before"), _pp(r, "after"), _pp(r, "change"),
         flag(r["in_band"]), flag(r["improved"])]
        for r in v.iter_rows(named=True)
    ]  # fmt: skip
    headers = ["edit", "games per arm", f"before: {what}", f"after: {what}", "paired change [95 % CI]"]
    caption = "Fresh seeds never used by the search; before and after play the same games."
    return table([*headers, "in band", "improved beyond CI"], rows, caption=caption)


def _search_table(result: TuneResult, limit: int = 25) -> str:
    search = result.search
    if not search.height:
        return note("The search found no candidate edit.")
    shown = search.head(limit)
    keep = [c for c in shown.columns if not c.endswith("_lo") and not c.endswith("_hi")]
    rows = []
    for r in shown.select(keep).iter_rows(named=True):
        cells: list[Cell] = []
        for c in keep:
            value = r[c]
            cells.append(
                number(value, 4)
                if isinstance(value, float)
                else flag(value)
                if isinstance(value, bool)
                else text(value)
            )
        rows.append(cells)
    return table(keep, rows, caption=f"The {shown.height} best of {search.height} candidates on the search seed.")


def write_tune_report(result: TuneResult, out_dir: Path | str) -> Path:
    """Write ``out_dir/index.html`` for a ``balance tune`` result; return its path."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    s = result.summary
    body = [
        section(
            "summary",
            "Proposals",
            '<ul class="summary">' + "".join(f"<li>{esc(x)}</li>" for x in tune_sentences(result)) + "</ul>",
        ),
        section("verified", "Before and after (fresh seeds)", _verified_table(result)),
        section("search", "Search", _search_table(result)),
        section("method", "Method", key_values(s)),
    ]
    nav = [("summary", "Proposals"), ("verified", "Verified"), ("search", "Search"), ("method", "Method")]
    title = f"Tune {s['objective']}: {s['game']} ({s['variant']})"
    subtitle = f"{', '.join(s['bots'])} · generated {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    footer = "Generated by balance.report.tune. Proposals are verified on seeds the search never used."
    path = out_dir / "index.html"
    path.write_text(page(title, title, subtitle, nav, body, footer), encoding="utf-8")
    return path


def proposals(result: TuneResult) -> pl.DataFrame:
    """Return the verified proposals that improved the objective beyond their interval."""
    v = result.verified
    return v.filter(pl.col("improved")) if "improved" in v.columns else v.head(0)
