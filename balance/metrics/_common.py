"""Helpers shared by the metric modules: interval columns, generic counters, summaries."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from balance import stats
from balance.aggregates import KEYS
from sims.core import CORE_COLUMNS


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

    ``lo``/``hi`` bound the mean (95 %, Student t). An integer column's mean and sd come
    from its exact integer sums (:func:`moment_aggs`), so they do not depend on how polars
    splits the column between threads.
    """
    keys = as_list(by)
    frame = lf.lazy()
    integer = frame.collect_schema()[column].is_integer()
    x = pl.col(column).drop_nulls().cast(pl.Float64)
    moments = (
        moment_aggs(pl.col(column), column, integer=True) if integer else [x.mean().alias("mean"), x.std().alias("sd")]
    )
    aggs = [
        x.len().alias("n"),
        *moments,
        x.min().alias("min"),
        x.quantile(0.1, "lower").alias("p10"),
        x.median().alias("median"),
        x.quantile(0.9, "higher").alias("p90"),
        x.max().alias("max"),
    ]
    out = (frame.group_by(keys).agg(aggs).sort(keys) if keys else frame.select(aggs)).collect()
    if integer:
        _, mean, sd = mean_sd(out, column)
        out = out.with_columns(mean=mean, sd=sd)
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


def moment_aggs(x: pl.Expr, name: str, integer: bool) -> list[pl.Expr]:
    """Return count, sum and sum of squares of ``x`` (nulls ignored), exact for integers.

    Named ``name`` + NUL + ``n``/``s``/``ss`` (a NUL cannot clash with a column name).
    """
    x = x.cast(pl.Int64 if integer else pl.Float64)
    return [
        x.count().cast(pl.Int64).alias(f"{name}\0n"),
        x.sum().alias(f"{name}\0s"),
        (x * x).sum().alias(f"{name}\0ss"),
    ]


def mean_sd(agg: pl.DataFrame, name: str) -> tuple[pl.Series, pl.Series, pl.Series]:
    """Return ``n, mean, sd`` from :func:`moment_aggs` columns (exact integer arithmetic)."""
    n, s, ss = (agg[f"{name}\0{k}"].to_list() for k in ("n", "s", "ss"))
    mean = [si / ni if ni else None for ni, si in zip(n, s, strict=True)]
    var = [(ni * ssi - si * si) / (ni * (ni - 1)) if ni > 1 else None for ni, si, ssi in zip(n, s, ss, strict=True)]
    sd = [max(v, 0.0) ** 0.5 if v is not None else None for v in var]
    return pl.Series(n, dtype=pl.Int64), pl.Series(mean, dtype=pl.Float64), pl.Series(sd, dtype=pl.Float64)


def from_sums(sums: pl.DataFrame, name: str, n: str = "rows") -> list[pl.Expr]:
    """Return the :func:`moment_aggs` columns of counter ``name`` from stored sums (``<name>_sum``/``_sumsq``).

    Every row counts (kernel counters have no nulls), so the count is the ``n`` column.
    """
    return [
        pl.col(n).cast(pl.Int64).alias(f"{name}\0n"),
        pl.col(f"{name}_sum").alias(f"{name}\0s"),
        pl.col(f"{name}_sumsq").alias(f"{name}\0ss"),
    ]


def summed_counters(sums: pl.DataFrame, suffix: str = "_sum") -> list[str]:
    """Return the counters whose sums a stored aggregate carries (``<c>_sum`` beside ``<c>_sumsq``), in order."""
    names = sums.columns
    return [c[: -len(suffix)] for c in names if c.endswith(suffix) and f"{c[: -len(suffix)]}_sumsq" in names]


def counter_means(lf: pl.LazyFrame, counters: Sequence[str], keys: Sequence[str] = ()) -> pl.DataFrame:
    """Return mean, sd and t interval of each of ``counters`` per ``keys`` group, long format.

    Columns ``*keys, counter, n, mean, sd, lo, hi`` (``n`` counts rows, ``lo``/``hi`` bound
    the mean, 95 %); counters keep the given order within each group. Means and standard
    deviations come from exact integer sums (:func:`moment_aggs`), the same arithmetic as
    from a run's stored sums (:func:`counters_from_moments`).
    """
    keys = list(keys)
    if not counters:
        return pl.DataFrame(schema={**{k: pl.String for k in keys}, "counter": pl.String, "n": pl.UInt32})
    schema = lf.collect_schema()
    aggs = [pl.len().alias("n")]
    for c in counters:
        aggs += moment_aggs(pl.col(c), c, integer=schema[c].is_integer())
    if keys and _one_group(lf, keys):  # e.g. one bot in every seat: the same row, without grouping
        wide = lf.select(*(pl.col(k).first() for k in keys), *aggs).collect()
    else:
        wide = (lf.group_by(keys).agg(aggs).sort(keys) if keys else lf.select(aggs)).collect()
    return counters_from_moments(wide, counters, keys)


def _one_group(lf: pl.LazyFrame, keys: Sequence[str]) -> bool:
    """Return whether every row of ``lf`` has the same ``keys`` (and there is a row).

    Grouping 2 M seats by their one bot to sum a dozen counters took twice as long as
    summing them over all rows; the row is the same.

    Examples
    --------
    >>> _one_group(pl.LazyFrame({"bot": ["a", "a"], "seat": [0, 1]}), ["bot"])
    True
    >>> _one_group(pl.LazyFrame({"bot": ["a", "a"], "seat": [0, 1]}), ["bot", "seat"])
    False
    >>> _one_group(pl.LazyFrame({"bot": []}, schema={"bot": pl.String}), ["bot"])
    False
    """
    counts = lf.select(pl.len().alias("\0rows"), *(pl.col(k).n_unique() for k in keys)).collect().row(0)
    return counts[0] > 0 and all(n == 1 for n in counts[1:])


def counters_from_moments(wide: pl.DataFrame, counters: Sequence[str], keys: Sequence[str] = ()) -> pl.DataFrame:
    """Return :func:`counter_means`' long frame from one row per group with ``n`` and each counter's moments."""
    keys = list(keys)
    if not counters:
        return pl.DataFrame(schema={**{k: pl.String for k in keys}, "counter": pl.String, "n": pl.UInt32})
    parts = []
    for c in counters:
        _, mean, sd = mean_sd(wide, c)
        parts.append(wide.select(*keys, pl.lit(c).alias("counter"), "n").with_columns(mean=mean, sd=sd))
    long = pl.concat(parts)
    order = {c: i for i, c in enumerate(counters)}
    long = long.sort([*keys, pl.col("counter").replace_strict(order, return_dtype=pl.Int32)])
    return with_mean_ci(long, "mean", "sd", "n")
