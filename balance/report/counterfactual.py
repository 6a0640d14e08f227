"""Counterfactual card values (``balance value``'s ``values.parquet``) read for a run's report.

``balance value --out DIR`` writes ``DIR/values.parquet``: one row per card with
``card``, ``name``, ``delta`` (Δ win rate of the seat holding the card, paired against
the baseline), ``ci_low``, ``ci_high`` (its 95 % interval) and ``n_pairs``, plus
observational metrics the report does not need. :func:`find_values` locates the file
(``--values DIR`` or a ``values.parquet`` in the run directory) and :func:`read_values`
checks it against the run's card pool: a bad file is a one-line :class:`ValuesError`
naming the file, the row or column, and what is wrong. What the values say about
themselves (game, variant, bots, baseline) comes from the Parquet schema metadata or from
``balance value``'s ``value.json`` beside the file; values of another game are refused,
another variant or other bots are reported beside the figures. The files are data: read
as Parquet columns and JSON, never executed or unpickled.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, NamedTuple

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from balance.io import Run, RunError

VALUES_FILE = "values.parquet"
SUMMARY_FILE = "value.json"  # balance value's summary beside it: game, variant, bots, baseline ...
NUMBERS = ("delta", "ci_low", "ci_high")
REQUIRED = ("card", "name", *NUMBERS, "n_pairs")
META_KEYS = ("game", "variant", "baseline", "bots", "rules_version", "seed")  # shown when the file carries them


class ValuesError(RunError):
    """A ``values.parquet`` cannot be used with this run; the message names the file, row or column."""


class CardValues(NamedTuple):
    """Counterfactual values matched to a run: ``card, delta, ci_low, ci_high, n_pairs`` plus where they came from."""

    frame: pl.DataFrame
    path: Path
    meta: dict[str, str]  # what the file says about itself (game, variant, baseline, bots ...)
    caveats: list[str]  # how the values' set-up differs from the run's (another variant, other bots)


def find_values(run: Run, given: Path | str | None = None) -> Path | None:
    """Return the values file for ``run``: ``given`` (a directory or the file), else the run's own, else None.

    Raise :class:`ValuesError` when ``given`` holds no values file.
    """
    if given is not None:
        path = Path(given)
        path = path / VALUES_FILE if path.is_dir() else path
        if not path.is_file():
            raise ValuesError(f"{path}: no such values file (write one with: balance value --game G --out DIR)")
        return path
    own = run.path / VALUES_FILE
    return own if own.is_file() else None


def _metadata(path: Path, schema: pa.Schema) -> dict[str, str]:
    """Return what the values say about themselves: the Parquet schema metadata, else ``value.json`` beside the file."""
    raw = schema.metadata or {}
    out = {}
    for key in META_KEYS:
        value = raw.get(key.encode())
        if value is not None:
            out[key] = value.decode("utf-8", "replace")
    summary = path.with_name(SUMMARY_FILE)
    if summary.is_file():  # balance value's summary of the run that made the values (JSON: data only)
        try:
            data = json.loads(summary.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            where = f":{exc.lineno}" if isinstance(exc, json.JSONDecodeError) else ""
            raise ValuesError(f"{summary}{where}: not valid JSON ({exc})") from None
        if isinstance(data, dict):
            for key in META_KEYS:
                value = data.get(key)
                if key not in out and value not in (None, ""):
                    out[key] = ",".join(map(str, value)) if isinstance(value, list) else str(value)
    return out


def _caveats(meta: dict[str, str], run: Run) -> list[str]:
    """Return how the values' set-up differs from the run's (variant, bots)."""
    out = []
    variant = run.manifest.get("variant")
    if meta.get("variant") and variant and meta["variant"] != str(variant):
        out.append(f"the values were measured under variant {meta['variant']}, this run is {variant}")
    spec = run.manifest.get("spec")
    bots = spec.get("bots") if isinstance(spec, dict) else None
    if meta.get("bots") and isinstance(bots, list) and meta["bots"] != ",".join(map(str, bots)):
        out.append(f"the values were measured with bots {meta['bots']}, this run has {','.join(map(str, bots))}")
    return out


def _where(path: Path, row: int, card: Any = None, name: Any = None) -> str:
    what = f"card {card}" if name is None else f"card {card} ({name!r})"
    return f"{path} row {row + 1}, {what}" if card is not None else f"{path} row {row + 1}"


def _check_types(path: Path, df: pl.DataFrame) -> None:
    missing = [c for c in REQUIRED if c not in df.columns]
    if missing:
        raise ValuesError(
            f"{path}: missing column(s) {', '.join(missing)} "
            f"(a values file has {', '.join(REQUIRED)}, one row per card)"
        )
    for column in ("card", "n_pairs"):
        if not df.schema[column].is_integer():
            raise ValuesError(f"{path}: column {column} must hold whole numbers, not {df.schema[column]}")
    for column in NUMBERS:
        if not df.schema[column].is_numeric():
            raise ValuesError(f"{path}: column {column} must be numeric, not {df.schema[column]}")
    if df.schema["name"] not in (pl.String, pl.Categorical) and not isinstance(df.schema["name"], pl.Enum):
        raise ValuesError(f"{path}: column name must hold text, not {df.schema['name']}")


def _check_rows(path: Path, df: pl.DataFrame, pool: dict[int, str]) -> None:
    seen: set[int] = set()
    for i, r in enumerate(df.iter_rows(named=True)):
        card, name = r["card"], r["name"]
        if card is None:
            raise ValuesError(f"{_where(path, i)}: column card is empty")
        if card in seen:
            raise ValuesError(f"{_where(path, i, card, name)}: the card appears twice")
        seen.add(card)
        if card not in pool:
            raise ValuesError(f"{_where(path, i, card, name)}: no such card in the run's card pool")
        if name is not None and str(name) != pool[card]:
            raise ValuesError(
                f"{_where(path, i, card, name)}: the run's card {card} is {pool[card]!r}; "
                "these values were measured on another card pool"
            )
        x = [r[c] for c in NUMBERS]
        if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in x):
            if not all(v is None or (isinstance(v, float) and math.isnan(v)) for v in x):
                raise ValuesError(
                    f"{_where(path, i, card, name)}: delta, ci_low and ci_high must be all set or all empty"
                )
            continue
        delta, lo, hi = (float(v) for v in x)
        if not all(-1.0 <= v <= 1.0 for v in x):
            raise ValuesError(
                f"{_where(path, i, card, name)}: delta and its interval must lie in [-1, 1] (a win-rate difference)"
            )
        if not lo <= delta <= hi:
            raise ValuesError(
                f"{_where(path, i, card, name)}: delta {delta:g} lies outside its interval [{lo:g}, {hi:g}]"
            )
        if r["n_pairs"] is None or r["n_pairs"] < 0:
            raise ValuesError(f"{_where(path, i, card, name)}: column n_pairs must be a count >= 0")


def read_values(path: Path | str, run: Run) -> CardValues:
    """Read and check a values file against ``run``'s card pool; raise :class:`ValuesError` if it does not fit."""
    path = Path(path)
    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ValuesError(f"{path}: not a readable Parquet file ({first})") from None
    meta = _metadata(path, table.schema)
    game = run.manifest.get("game")
    if "game" in meta and game and meta["game"] != str(game):
        raise ValuesError(f"{path}: values of game {meta['game']!r}, but run {run.name} is {game!r}")
    df = pl.from_arrow(table)
    assert isinstance(df, pl.DataFrame)
    _check_types(path, df)
    dim = run.card_dim
    pool = {int(c): str(n) for c, n in zip(dim["card"], dim["name"], strict=True)} if "name" in dim.columns else {}
    _check_rows(path, df, pool)
    frame = df.select(
        pl.col("card").cast(dim.schema["card"] if "card" in dim.columns else pl.Int16),
        *(pl.col(c).cast(pl.Float64).fill_nan(None) for c in NUMBERS),
        pl.col("n_pairs").cast(pl.Int64),
    )
    return CardValues(frame, path, meta, _caveats(meta, run))


def load(run: Run, given: Path | str | None = None) -> CardValues | None:
    """Return the checked counterfactual values for ``run`` (:func:`find_values` then :func:`read_values`), or None."""
    path = find_values(run, given)
    return read_values(path, run) if path is not None else None
