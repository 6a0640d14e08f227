"""The comparison report of two runs: paired headline deltas, unpaired card deltas, summary."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from balance import charts
from balance import metrics as m
from balance.io import Run
from balance.metrics import sources
from balance.metrics.tiers import tier_names
from balance.report.html import (
    Cell,
    Charts,
    bullets,
    esc,
    estimate,
    flag,
    note,
    number,
    page,
    points,
    section,
    table,
    text,
)
from balance.report.matchups import compare_decks_section
from balance.report.pools import pool_section
from balance.report.single import run_info, variant_info
from balance.report.solitaire import headline
from balance.report.summary import compare_sentences, tier_sentence
from balance.report.tiers import TITLE, TierResult, tiers_section

UNIT_ORDER = {"rate": 0, "turns": 1, "turn": 2, "changes": 3, "points": 4}  # others (battles, kills ...) last
MAX_UNIT_PANELS = 4  # beyond this many units besides rates, draw them in one relative panel


def _labels(a: Run, b: Run, label_a: str | None, label_b: str | None) -> tuple[str, str]:
    la = label_a or str(run_info(a)["variant"] or a.name)
    lb = label_b or str(run_info(b)["variant"] or b.name)
    return (f"{la} (A)", f"{lb} (B)") if la == lb else (la, lb)


def _value(x: float | None, unit: str) -> Cell:
    if unit == "rate":
        return estimate(x, None, None)
    return number(x)


def _delta(r: dict, unit: str) -> Cell:
    if unit == "rate":
        return points(r["delta"], r["lo"], r["hi"])
    return estimate(r["delta"], r["lo"], r["hi"], percent=False, signed=True, unit=f" {unit}")


def _headline(runs: pl.DataFrame, la: str, lb: str, out: Charts) -> list[str]:
    rows = [
        [
            text(r["label"]),
            number(r["n"]),
            _value(r["value_a"], r["unit"]),
            _value(r["value_b"], r["unit"]),
            _delta(r, r["unit"]),
            number(r["p_value"], 4),
            flag(r["significant"]),
        ]
        for r in runs.iter_rows(named=True)
    ]
    headers = ["metric", "paired games", la, lb, "Δ = A − B [95 % CI]", "p", "significant"]
    parts = [
        table(
            headers,
            rows,
            caption="Δ: mean over paired games of the per-game difference; t interval. "
            "Not corrected for multiple comparisons.",
        )
    ]
    units = sorted(runs["unit"].unique().to_list(), key=lambda u: UNIT_ORDER.get(u, 9))
    # many units (a solitaire game's outcome columns): rates in one panel, the rest in one
    # panel relative to B's mean, instead of a panel per unit
    panels = [(u, runs.filter(pl.col("unit") == u), False) for u in units]
    if sum(u != "rate" for u in units) > MAX_UNIT_PANELS:
        panels = [p for p in panels if p[0] == "rate"]
        panels.append(("relative", runs.filter(pl.col("unit") != "rate"), True))
    if panels:
        heights = [frame.height for _, frame, _ in panels]
        axes = charts.new_axes(7.5, 1.2 + sum(1.25 + 0.28 * h for h in heights), nrows=len(panels))
        for i, (ax, (_, frame, relative)) in enumerate(zip(axes, panels, strict=True)):
            charts.plot_comparison(frame, label_a=la, label_b=lb, relative=relative, ax=ax)
            if i:  # the first panel's title states n and the interval for all
                ax.set_title("")
        what = "one panel per unit" if len(panels) == len(units) else f"rates, then the rest relative to {lb}"
        parts.insert(0, out.add("comparison", axes[0].figure, f"Paired differences with 95 % intervals, {what}"))
    return parts


def _cards(a: Run, b: Run, la: str, lb: str, out: Charts) -> tuple[str, pl.DataFrame | None]:
    if not (sources.has_cards(a) and sources.has_cards(b)):
        return section(
            "cards", "Cards", note("At least one run did not record the cards table; card comparison skipped.")
        ), None
    if not (sources.has_card_values(a) and sources.has_card_values(b)):
        why = "no winner in this game (the cards table has no won column)"
        return section("cards", "Cards", note(f"The card comparison needs card win rates: {why}.")), None
    cards = m.compare_cards(a, b)
    info = [c for c in m.info_columns(a.card_dim) if c in cards.columns]
    headers = ["card", *info]
    for name in m.CARD_DELTAS.values():
        headers += [f"{name} {la}", f"{name} {lb}", f"{name} Δ [95 % CI]", f"{name} flag"]
    rows = []
    for r in cards.iter_rows(named=True):
        cells = [text(r["name"]), *(text(r[c]) for c in info)]
        for key in m.CARD_DELTAS:
            n_key = "gih_wr" if key == "iwd" else key
            side = points if key == "iwd" else estimate
            cells += [
                side(r[f"{key}_a"], None, None, r[f"{n_key}_n_a"]),
                side(r[f"{key}_b"], None, None, r[f"{n_key}_n_b"]),
                points(r[f"{key}_delta"], r[f"{key}_delta_lo"], r[f"{key}_delta_hi"]),
                flag(r[f"{key}_significant"]),
            ]
        rows.append(cells)
    parts = [
        note(f"Card deltas are unpaired ({m.CARD_DELTA_METHOD}); cards are matched by name across the two pools."),
        out.add(
            "card_gih_wr_delta",
            charts.plot_card_deltas(cards, metric="gih_wr", label_a=la, label_b=lb).figure,
            "GIH WR change per card",
        ),
        table(headers, rows, caption="About 5 % of cards are flagged by chance alone at 95 %."),
    ]
    return section("cards", "Cards", *parts), cards


def _groups(a: Run, b: Run, la: str, lb: str, out: Charts) -> str | None:
    """Return the paired differences per group of games (a class), or None when the games have no groups."""
    groups = m.compare_groups(a, b)
    if groups.height == 0:
        return None
    parts = [
        note(
            "Paired games split by the group of game A (an enum column of the games table: a class, ...): "
            "the mean per game of A − B within each group, t interval. Columns fixed by the group are left out."
        )
    ]
    for i, ((column,), part) in enumerate(groups.group_by("column", maintain_order=True)):
        names = part["metric"].unique(maintain_order=True).to_list()
        metric = headline(names)
        parts.append(f"<h3>By {esc(str(column).replace('_', ' '))}</h3>")
        if metric is not None:
            fig = charts.plot_group_deltas(part, metric=metric, label_a=la, label_b=lb).figure
            parts.append(out.add(f"group_delta_{i}_{metric}", fig, f"Paired difference in {metric} by {column}"))
        rows = []
        for (group,), cells in part.group_by("group", maintain_order=True):
            r = {x["metric"]: x for x in cells.iter_rows(named=True)}
            row: list[Cell] = [text(group), number(cells["n"][0])]
            row += [
                estimate(r[c]["delta"], r[c]["lo"], r[c]["hi"], percent=False, signed=True) if c in r else text("")
                for c in names
            ]
            rows.append(row)
        caption = f"Δ = {la} − {lb}, mean per paired game [95 % CI]. Not corrected for multiple comparisons."
        parts.append(table([str(column).replace("_", " "), "paired games", *names], rows, caption=caption))
    return section("groups", "Differences by group (paired)", *parts)


def _topic(sentence: str) -> str:
    """Return the summary topic of a :func:`~balance.metrics.summarize_comparison` sentence."""
    if sentence.startswith("No significant difference in"):
        return "Unchanged"
    if sentence.startswith("GIH WR differs"):
        return "Cards"
    return "Difference" if not sentence.startswith("No headline") else "Differences"


def _tiers(a: Run, b: Run, la: str, lb: str, out: Charts) -> tuple[str, TierResult | None]:
    """Return the section ranking the cards under run A and run B (matched by card name), and its result."""
    bots_a, bots_b = tier_names(a.seats), tier_names(b.seats)
    title = TITLE if bots_a != bots_b else f"Card ranking under {la} and {lb}"
    if not (sources.has_card_values(a) and sources.has_card_values(b)):
        return tiers_section(None, out, why="Card ranks need card win rates in both runs.", title=title), None
    frames, names = [], []
    for run, label in ((a, la), (b, lb)):
        counts = sources.tier_counts_of(run, tier=label)
        assert counts is not None
        named = run.card_dim.select(pl.col("card").cast(counts.schema["card"]), pl.col("name").cast(pl.String))
        frames.append(counts.join(named, on="card", how="left"))
        names += named["name"].to_list()
    ids = {name: i for i, name in enumerate(sorted(set(names)))}
    counts = pl.concat(frames).with_columns(pl.col("name").replace_strict(ids, return_dtype=pl.Int32).alias("card"))
    dim = pl.DataFrame({"card": pl.Series(list(ids.values()), dtype=pl.Int32), "name": list(ids)})
    result = TierResult(counts.drop("name"), la, lb, dim)
    return tiers_section(result, out, within_run=False, title=title), result


def write_compare_report(
    a: Run, b: Run, out_dir: Path | str, *, label_a: str | None = None, label_b: str | None = None
) -> Path:
    """Write the comparison of runs ``a`` and ``b`` to ``out_dir/index.html`` plus PNGs; return the HTML path.

    ``label_a``/``label_b`` name the runs in the text (default: their variants). The runs
    should share game and root seed so games pair by index (checked and reported). The
    page opens with a summary: both runs' headline numbers with their intervals, then
    every significant paired difference as one sentence.
    """
    out = Charts(Path(out_dir))
    la, lb = _labels(a, b, label_a, label_b)
    info_a, info_b = run_info(a), run_info(b)
    var_a, var_b = variant_info(a), variant_info(b)
    rows = [[text(k), text(info_a[k]), text(info_b[k])] for k in info_a]
    rows.append([text("variant note"), text(var_a.note or var_a.caveat), text(var_b.note or var_b.caveat)])
    header = table(["", la, lb], rows, sortable=False)
    pairs = m.pairing(a, b).row(0, named=True)
    notes = [note(f"Paired on {pairs['n_paired']:,} games ({pairs['same_seed']:,} with identical per-game seeds).")]
    if pairs["same_seed"] < pairs["n_paired"]:
        notes.append(
            note(
                "Some paired games have different seeds: the runs are not seed-matched, "
                "so intervals are wider than a true pairing gives."
            )
        )
    if info_a["game"] != info_b["game"] or info_a["rules version"] != info_b["rules version"]:
        notes.append(note("The runs differ in game or rules version: make sure the comparison means what you want."))
    pools = pool_section(a, b, la, lb)  # card-pool diff first: what was edited, and whether decks stayed paired
    runs = m.compare_runs(a, b)
    cards_html, cards = _cards(a, b, la, lb, out)
    groups_html = _groups(a, b, la, lb, out)
    tiers_html, tier_result = _tiers(a, b, la, lb, out) if not (a.solitaire and b.solitaire) else ("", None)
    changes = m.summarize_comparison(runs, label_a=la, label_b=lb, cards=cards)
    items = compare_sentences(a, b, la, lb)
    items = [("Card pools", pools[1]), *items] if pools else items  # what was edited, first
    items += [(_topic(s), s) for s in changes]
    decks = compare_decks_section(a, b, la, lb)
    if decks is not None:
        items.append(decks[1])
    if tier_result is not None and tier_result.agreement.cards >= 4:
        items.append(tier_sentence(tier_result.agreement, tier_result.ranks, what=_what_differs(info_a, info_b)))
    rules = f"A = {la}: {var_a.note or var_a.name or '?'}; B = {lb}: {var_b.note or var_b.name or '?'}"
    items.append(("Rules", rules.rstrip(".") + "."))
    summary = section(
        "summary",
        "Summary",
        bullets(items),
        '<p class="muted">Differences: paired by game, 95 % t intervals; figures and definitions below.</p>',
    )
    body = [
        summary,
        *([pools[0]] if pools else []),  # the card-level diff of two pools, at the top
        section("overview", "Runs", header, *notes),
        section("headline", "Headline metrics (paired)", *_headline(runs, la, lb, out)),
        *([groups_html] if groups_html else []),
        *([decks[0]] if decks is not None else []),
        cards_html,
        *([tiers_html] if tiers_html else []),
    ]
    nav = [("summary", "Summary"), *([("pools", "Card pools")] if pools else []), ("overview", "Runs")]
    nav += [("headline", "Headline")]
    nav += [
        *([("groups", "Groups")] if groups_html else []),
        *([("decks", "Decks")] if decks else []),
        ("cards", "Cards"),
    ]
    nav += [("bot-dependence", "Card ranks")] if tiers_html else []
    title = f"{la} vs {lb}"
    subtitle = f"{info_a['game'] or ''} · A = {a.name}, B = {b.name} · generated {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    footer = (
        "Generated by balance.report. Headline Δ: paired by game index, t interval on per-game differences; card Δ: "
        + m.CARD_DELTA_METHOD
    )
    path = out.out_dir / "index.html"
    path.write_text(page(f"Balance comparison: {title}", title, subtitle, nav, body, footer), encoding="utf-8")
    return path


def _what_differs(info_a: dict[str, Any], info_b: dict[str, Any]) -> str:
    """Return what a card ranking's change between two runs is down to: the rules, the card pool, or the run."""
    if info_a["bots"] != info_b["bots"]:
        return "the run"
    return "the rules" if info_a["variant"] != info_b["variant"] else "the card pool"
