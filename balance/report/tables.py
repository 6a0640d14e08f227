"""Table builders shared by the report sections: summaries and counters in wide form."""

from __future__ import annotations

import polars as pl

from balance.report.html import estimate, number, table, text


def summary_table(items: list[tuple[str, pl.DataFrame, str]]) -> str:
    """Return a table of :func:`balance.metrics.summarize` rows: (label, one-row frame, unit)."""
    rows = []
    for label, df, unit in items:
        r = df.row(0, named=True)
        rows.append(
            [
                text(label),
                number(r["n"]),
                estimate(r["mean"], r["lo"], r["hi"], percent=False, unit=unit),
                number(r["sd"]),
                number(r["p10"]),
                number(r["median"]),
                number(r["p90"]),
                number(r["min"]),
                number(r["max"]),
            ]
        )
    return table(["", "n", "mean [95 % CI]", "sd", "p10", "median", "p90", "min", "max"], rows, sortable=False)


def wide_counters(long: pl.DataFrame, key: str, label: str, *, caption: str = "Mean [95 % CI] per game.") -> str:
    """Return long ``key, counter, n, mean, lo, hi`` rows as one table row per ``key`` value."""
    names = long["counter"].unique(maintain_order=True).to_list()
    rows = []
    for (group,), part in long.group_by(key, maintain_order=True):
        by_counter = {r["counter"]: r for r in part.iter_rows(named=True)}
        cells = [text(group), number(part["n"][0])]
        cells += [
            estimate(by_counter[c]["mean"], by_counter[c]["lo"], by_counter[c]["hi"], percent=False)
            if c in by_counter
            else text("")
            for c in names
        ]
        rows.append(cells)
    return table([label, "n", *names], rows, caption=caption)
