"""Helpers shared by the metric modules: interval columns, generic counters, summaries."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from balance import stats
from sims.core import CORE_COLUMNS

# columns of ``seats``/``cards`` that are keys or outcomes, not counters to average
KEYS = {"game", "seed", "seat", "card", "won", "bot", "run_id", "variant", "chunk"}


def as_list(by: str | Sequence[str] | None) -> list[str]:
    """Return ``by`` as a list of column names (``None`` -> ``[]``)."""
    if by is None:
        return []
    return [by] if isinstance(by, str) else list(by)


def columns(lf: pl.LazyFrame | pl.DataFrame) -> list[str]:
    """Return the column names of a lazy or eager frame."""
    return lf.collect_schema().names()


def extra_counters(lf: pl.LazyFrame | pl.DataFrame, table: str) -> list[str]:
    """Return the numeric columns of ``table`` beyond the core schema, in file order."""
    core = set(CORE_COLUMNS.get(table, ())) | KEYS
    schema = lf.collect_schema()
    return [name for name, dtype in schema.items() if name not in core and dtype.is_numeric()]


def with_wilson(df: pl.DataFrame, k: str, n: str, names: Sequence[str] = ("rate", "lo", "hi")) -> pl.DataFrame:
    """Add Wilson 95 % estimate and interval columns for ``k`` of ``n`` (null if n = 0)."""
    return df.with_columns(stats.wilson_exprs(k, n, names=names))


def with_mean_ci(df: pl.DataFrame, mean: str, sd: str, n: str, names: Sequence[str] = ("lo", "hi")) -> pl.DataFrame:
    """Add t-interval columns for the mean ``mean`` with standard deviation ``sd`` over ``n``."""
    if df.height == 0:
        return df.with_columns(pl.lit(None, pl.Float64).alias(names[0]), pl.lit(None, pl.Float64).alias(names[1]))
    _, lo, hi = stats.mean_ci_stats(
        df[mean].fill_null(np.nan).to_numpy(), df[sd].fill_null(np.nan).to_numpy(), df[n].to_numpy()
    )
    return df.with_columns(pl.Series(names[0], lo, nan_to_null=True), pl.Series(names[1], hi, nan_to_null=True))


def summarize(lf: pl.LazyFrame | pl.DataFrame, column: str, *, by: str | Sequence[str] | None = None) -> pl.DataFrame:
    """Return ``n, mean, sd, lo, hi, min, p10, median, p90, max`` of ``column`` (nulls dropped).

    ``lo``/``hi`` bound the mean (95 %, Student t).
    """
    keys = as_list(by)
    x = pl.col(column).drop_nulls().cast(pl.Float64)
    aggs = [
        x.len().alias("n"),
        x.mean().alias("mean"),
        x.std().alias("sd"),
        x.min().alias("min"),
        x.quantile(0.1, "lower").alias("p10"),
        x.median().alias("median"),
        x.quantile(0.9, "higher").alias("p90"),
        x.max().alias("max"),
    ]
    frame = lf.lazy()
    out = (frame.group_by(keys).agg(aggs).sort(keys) if keys else frame.select(aggs)).collect()
    out = with_mean_ci(out, "mean", "sd", "n")
    return out.select(*keys, "n", "mean", "sd", "lo", "hi", "min", "p10", "median", "p90", "max")


def distribution(
    lf: pl.LazyFrame | pl.DataFrame, column: str, *, by: str | Sequence[str] | None = None
) -> pl.DataFrame:
    """Return how often each value of ``column`` occurs: ``column, count, share`` (per ``by``)."""
    keys = as_list(by)
    out = lf.lazy().filter(pl.col(column).is_not_null()).group_by([*keys, column]).agg(pl.len().alias("count"))
    total = pl.col("count").sum().over(keys) if keys else pl.col("count").sum()
    return out.with_columns((pl.col("count") / total).alias("share")).sort([*keys, column]).collect()


def info_columns(card_dim: pl.DataFrame) -> list[str]:
    """Return the card dimension's non-numeric columns other than ``name`` (provenance).

    ``source`` and ``confidence`` come first when present.
    """
    text = [c for c, t in card_dim.schema.items() if c not in ("card", "name") and not t.is_numeric()]
    first = [c for c in ("source", "confidence") if c in text]
    return first + [c for c in text if c not in first]


def join_card_dim(df: pl.DataFrame, card_dim: pl.DataFrame | None, *, all_columns: bool = True) -> pl.DataFrame:
    """Put the card dimension (name first, then its other columns) in front of ``df``.

    Cards missing from the dimension get the name ``card <id>``.
    """
    if card_dim is None or "card" not in card_dim.columns:
        return df.with_columns(pl.format("card {}", pl.col("card")).alias("name")).select(
            "card", "name", pl.exclude("card", "name")
        )
    keep = (
        [c for c in card_dim.columns if c != "card"]
        if all_columns
        else [c for c in ("name", *info_columns(card_dim)) if c in card_dim.columns]
    )
    dim = card_dim.select(pl.col("card").cast(df.schema["card"]), *keep)
    out = df.join(dim, on="card", how="left")
    name = (
        pl.coalesce(pl.col("name").cast(pl.String), pl.format("card {}", pl.col("card")))
        if "name" in keep
        else pl.format("card {}", pl.col("card"))
    )
    out = out.with_columns(name.alias("name"))
    lead = ["card", "name", *[c for c in keep if c != "name"]]
    return out.select(*lead, pl.exclude(lead))


def counter_means(lf: pl.LazyFrame, counters: Sequence[str], keys: Sequence[str] = ()) -> pl.DataFrame:
    """Return mean, sd and t interval of each of ``counters`` per ``keys`` group, long format.

    Columns ``*keys, counter, n, mean, sd, lo, hi`` (``n`` counts rows, ``lo``/``hi`` bound
    the mean, 95 %); counters keep the given order within each group.
    """
    keys = list(keys)
    if not counters:
        return pl.DataFrame(schema={**{k: pl.String for k in keys}, "counter": pl.String, "n": pl.UInt32})
    aggs = [pl.len().alias("n")]
    for c in counters:
        x = pl.col(c).cast(pl.Float64)
        aggs += [x.mean().alias(f"{c}\0mean"), x.std().alias(f"{c}\0sd")]
    wide = (lf.group_by(keys).agg(aggs).sort(keys) if keys else lf.select(aggs)).collect()
    parts = [
        wide.select(
            *keys, pl.lit(c).alias("counter"), "n", pl.col(f"{c}\0mean").alias("mean"), pl.col(f"{c}\0sd").alias("sd")
        )
        for c in counters
    ]
    long = pl.concat(parts)
    order = {c: i for i, c in enumerate(counters)}
    long = long.sort([*keys, pl.col("counter").replace_strict(order, return_dtype=pl.Int32)])
    return with_mean_ci(long, "mean", "sd", "n")
