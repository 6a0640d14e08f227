"""Counterfactual card value (``balance value``): each card's paired Δ win rate over a baseline card.

For card ``c`` game ``g`` is played twice on the same seed (``value_card = c``): arm 0 with
``c`` in the holder's deck (seat ``g % 2``), arm 1 with the holder's copy replaced by the
baseline card (``value_swap = 1``); the game's own value interface guarantees the two arms
are paired games (``sims.core.spec.GameSpec``). Per pair ``d = won_0 − won_1`` for the
holder; Δ is the mean of ``d`` with a t interval. Games are allocated adaptively in
batches: every card gets ``min_pairs`` first, then the batches go to the cards whose
interval is furthest from ``half_width``; a card stops at the first batch boundary where
its 95 % half-width is at most ``half_width`` (sequential stopping), or when the ``budget``
in seconds of play runs out (worker start-up and kernel compilation are not counted). A
card's result uses its batches in order up to where it stopped, so it does not depend on
the number of workers (unless the budget cut it short).

Cards whose arm-0 games are the very same games share them (``balance.value_schedule``):
a batch plays arm 0 once and arm 1 per card, giving every card exactly the sums of its own
two-arm batch for about half the games (Card Wars' cards of one starter deck).

The observational card metrics (GP/OH/GD/GIH/GNS/played WR, IWD) come from the same
games: the holder's row of the card in arm 0, where the card is always in the deck.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from balance import stats
from balance.pairs import Batch, Pool, Setup, check_value_support, pool_names, resolved
from balance.spec import SpecError, default_workers
from balance.value_batch import (  # noqa: F401  (re-exported: sweep, tune and tests use them from here)
    CHECK,
    OBSERVED,
    OBSERVED_COLUMNS,
    SUMS,
    S,
    arms,
    group_batch,
    pair_sums,
    paired_interval,
    value_batch,
)
from balance.value_schedule import CardTally, Scheduler, ValueOptions, arm_digest, group_key


def dealt_cards(setup: Setup, names: Sequence[str], baseline: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Split the pool's card names into those the set-up can value and those it never deals.

    A game refuses a ``value_card`` its decks do not hold (Cardia's deck II cards under deck I,
    Card Wars' cards of other starter decks); those are left out rather than failing the run.
    When the game refuses every card, its first reason is the error.
    """
    keep: list[str] = []
    left: list[str] = []
    reason: SpecError | None = None
    for card, name in enumerate(names):
        try:
            resolved(arms(setup, card, baseline)[0])
        except SpecError as exc:
            left.append(name)
            reason = reason or exc
        else:
            keep.append(name)
    if not keep and reason is not None:
        raise reason
    return tuple(keep), tuple(left)


class ValueProgress:
    """A one-line progress bar on stderr: cards resolved, pairs played, pairs/s and ETA."""

    def __init__(self, n_cards: int, *, enabled: bool = True, write: Callable[[str], Any] | None = None) -> None:
        """Show progress over ``n_cards`` cards."""
        self.n_cards, self.enabled = n_cards, enabled
        self.write = write or sys.stderr.write
        self.t0 = time.perf_counter()

    def update(self, resolved: int, pairs: int, eta: float) -> None:
        """Redraw the bar."""
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.t0
        filled = int(30 * resolved / max(self.n_cards, 1))
        rate = pairs / max(elapsed, 1e-9)
        self.write(
            f"\r[{'#' * filled}{'.' * (30 - filled)}] {resolved}/{self.n_cards} cards resolved  "
            f"{pairs:,} pairs  {rate:,.0f} pairs/s  ETA {eta:,.0f} s   "
        )

    def close(self) -> None:
        """Finish the line."""
        if self.enabled:
            self.write("\n")


def card_values(
    setup: Setup, options: ValueOptions | None = None, *, progress: bool = False, pool: Pool | None = None
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """Return the counterfactual value of every card of ``setup``'s pool and a summary of the run.

    The frame has one row per card (columns: :func:`values_frame`); the summary holds the
    options, the baseline, elapsed seconds, pairs played and the machine's load average.
    ``pool`` lends running workers (``balance tune``); by default the call starts its own.

    Examples
    --------
    >>> from balance.pairs import make_setup
    >>> setup = make_setup("cardinger")
    >>> opts = ValueOptions(cards=("Blood Knight",), workers=1, batch=500, min_pairs=500, half_width=0.5)
    >>> frame, summary = card_values(setup, opts)
    >>> frame.select("name", "n_pairs").row(0)
    ('Blood Knight', 500)
    """
    options = options or ValueOptions()
    game, baseline = check_value_support(setup, options.baseline)
    names = pool_names(setup.with_params(value_card=-1))
    wanted, not_dealt = (options.cards, ()) if options.cards else dealt_cards(setup, names, baseline)
    unknown = [c for c in wanted if c not in names]
    if unknown:
        raise SpecError(f"card {unknown[0]!r} is not in the {setup.game} pool; e.g. {', '.join(names[:3])}")
    if options.half_width <= 0 or options.budget <= 0 or options.batch < 2 or options.min_pairs < 2:
        raise SpecError("--half-width, --budget, batch and min_pairs must be positive")
    tallies = [CardTally(names.index(c), c) for c in wanted]
    by_card = {t.card: t for t in tallies}
    start = time.perf_counter()
    bar = ValueProgress(len(tallies), enabled=progress)
    scheduler = Scheduler(tallies, setup, baseline, options)
    played, games, batch_cpu, batch_wall = 0, 0, 0.0, 0.0
    startup: float | None = None

    def account(batch: Batch, n_games: int) -> None:
        nonlocal startup, games, batch_cpu, batch_wall
        scheduler.started(batch.seconds)
        if startup is None:
            startup = time.perf_counter() - start - batch.seconds
        games, batch_cpu, batch_wall = games + n_games, batch_cpu + batch.cpu, batch_wall + batch.seconds

    with nullcontext(pool) if pool is not None else Pool(options.workers) as workers:
        if options.share_arms and len(tallies) > 1:
            probe = min(options.probe, options.batch)
            digests = {}
            for batch in workers.run(
                Batch(t.card, arm_digest, (setup, t.card, baseline, options.seed, probe)) for t in tallies
            ):
                account(batch, probe)
                digests[batch.key] = batch.result
            scheduler.groups = group_key(digests)
        for batch in workers.run(scheduler.batches()):
            index, cards = batch.key
            for card, sums in zip(cards, batch.result, strict=True):
                by_card[card].add(index, sums, options.half_width, options.min_pairs)
                played += int(sums[S["n"]])
            n = int(batch.result[0][S["n"]])
            account(batch, n * (len(cards) + 1) + (min(n, CHECK) if len(cards) > 1 else 0))
            rate = played / max(time.perf_counter() - start, 1e-9)
            bar.update(sum(t.resolved for t in tallies), played, scheduler.remaining() / max(rate, 1e-9))
    bar.close()
    elapsed = time.perf_counter() - start
    summary = {
        "game": setup.game,
        "rules_version": game.rules_version,
        "variant": setup.variant or game.default_variant,
        "bots": list(setup.bots),
        "params": dict(setup.params),
        "bot_weights": {b: dict(w) for b, w in setup.bot_weights},
        "cards_file": setup.cards_file or str(game.cards_path),
        "baseline": baseline,
        "baseline_note": game.value_baselines[baseline],
        "half_width": options.half_width,
        "budget_s": options.budget,
        "seed": options.seed,
        "workers": pool.workers if pool is not None else options.workers or default_workers(),
        "batch": options.batch,
        "min_pairs": options.min_pairs,
        "elapsed_s": round(elapsed, 2),
        "startup_s": round(startup or 0.0, 2),  # before the first batch ran: worker start-up, kernel loading
        "playing_s": round(scheduler.elapsed, 2),  # what the budget counts
        "batch_cpu_s": round(batch_cpu, 2),  # CPU seconds inside the batches (set-up, kernel, sums), all workers
        "batch_wall_s": round(batch_wall, 2),  # the same in wall-clock seconds
        "pairs_played": played,
        "games_played": games,  # arm-0 games shared by a group count once; the probe and checks included
        "arm_groups": len(set(scheduler.groups.values())),  # cards sharing arm-0 games form one group
        "pairs_used": sum(t.pairs for t in tallies),
        "resolved": sum(t.resolved for t in tallies),
        "n_cards": len(tallies),
        "not_dealt": list(not_dealt),  # pool cards the set-up never deals (e.g. another deck): not valued
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }
    return values_frame(tallies), summary


def values_frame(tallies: Sequence[CardTally]) -> pl.DataFrame:
    """Return one row per card: ``card, name, delta, ci_low, ci_high, n_pairs``, then the observational metrics.

    After ``n_pairs``: ``half_width``, ``resolved``, ``wr_with``/``wr_without`` (the holder's
    win rate in each arm), and from arm 0's games ``gp_wr``, ``oh_wr``, ``gd_wr``,
    ``gih_wr``, ``gns_wr``, ``played_wr`` (each with ``_n``, ``_lo``, ``_hi``, Wilson) and
    ``iwd`` = GIH WR − GNS WR (``iwd_lo``/``iwd_hi``, Newcombe).
    """
    rows: dict[str, list[Any]] = {k: [] for k in ("card", "name", "delta", "ci_low", "ci_high", "n_pairs")}
    rows |= {"half_width": [], "resolved": [], "wr_with": [], "wr_without": []}
    totals = np.stack([t.total for t in tallies]) if tallies else np.zeros((0, len(SUMS)), np.int64)
    for t in tallies:
        delta, lo, hi, half = paired_interval(t.total)
        n = max(t.pairs, 1)
        values = (t.card, t.name, delta, lo, hi, t.pairs, half, t.resolved)
        values += (t.total[S["wins_with"]] / n, t.total[S["wins_without"]] / n)
        for key, value in zip(rows, values, strict=True):
            rows[key].append(value)
    frame = pl.DataFrame(rows, schema_overrides={"card": pl.Int16, "n_pairs": pl.Int64})
    for column, key in OBSERVED.items():
        k, n = totals[:, S[f"{key}_k"]], totals[:, S[f"{key}_n"]]
        est = stats.wilson(k, n)
        frame = frame.with_columns(
            pl.Series(column, est.estimate, nan_to_null=True),
            pl.Series(f"{column}_n", n, dtype=pl.Int64),
            pl.Series(f"{column}_lo", est.lo, nan_to_null=True),
            pl.Series(f"{column}_hi", est.hi, nan_to_null=True),
        )
    iwd = stats.newcombe(totals[:, S["gih_k"]], totals[:, S["gih_n"]], totals[:, S["gns_k"]], totals[:, S["gns_n"]])
    frame = frame.with_columns(
        pl.Series("iwd", iwd.estimate, nan_to_null=True),
        pl.Series("iwd_lo", iwd.lo, nan_to_null=True),
        pl.Series("iwd_hi", iwd.hi, nan_to_null=True),
    )
    return frame.fill_nan(None)


def write_values(frame: pl.DataFrame, summary: dict[str, Any], out: Path | str) -> Path:
    """Write ``values.parquet`` and ``value.json`` (the summary) under ``out``; return ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    frame.write_parquet(out / "values.parquet")
    (out / "value.json").write_text(json.dumps(summary, indent=2, default=str) + "\n", encoding="utf-8")
    return out


def rank_correlation(x: Any, y: Any) -> tuple[float, float, float, int]:
    """Return Spearman's ρ between ``x`` and ``y`` (pairs with a missing value dropped), its 95 % interval and n.

    The interval is :func:`balance.stats.spearman`'s (Fisher's z); fewer than 4 pairs give NaNs.

    Examples
    --------
    >>> rho, lo, hi, n = rank_correlation([1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 6, 5])
    >>> round(rho, 3), n
    (0.829, 6)
    """
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = np.isfinite(a) & np.isfinite(b)
    n = int(keep.sum())
    if n < 4:
        return float("nan"), float("nan"), float("nan"), n
    rho, lo, hi = (float(v) for v in stats.spearman(a[keep], b[keep]))
    return rho, lo, hi, n


def rank_correlations(values: pl.DataFrame) -> pl.DataFrame:
    """Return Spearman's ρ between Δ and each observational metric: ``metric, label, rho, lo, hi, n``."""
    rows = []
    for metric, label in (("gih_wr", "GIH WR"), ("iwd", "IWD"), ("gp_wr", "GP WR"), ("played_wr", "Played WR")):
        if metric in values.columns:
            rows.append((metric, label, *rank_correlation(values["delta"].to_numpy(), values[metric].to_numpy())))
    schema = {"metric": pl.String, "label": pl.String, "rho": pl.Float64, "lo": pl.Float64, "hi": pl.Float64}
    return pl.DataFrame(rows, schema={**schema, "n": pl.Int64}, orient="row")


def verdict_differences(values: pl.DataFrame, metric: str = "gih_wr", k: int = 8) -> pl.DataFrame:
    """Return the ``k`` cards whose rank by Δ and by ``metric`` differ most (rank 1 = strongest).

    Columns ``name, delta, rank_delta, <metric>, rank_<metric>, shift`` (``shift`` = rank by
    the metric − rank by Δ: positive means the observational metric undersells the card).
    """
    rows = values.filter(pl.col("delta").is_not_null() & pl.col(metric).is_not_null())
    ranked = rows.with_columns(
        pl.col("delta").rank("ordinal", descending=True).cast(pl.Int64).alias("rank_delta"),
        pl.col(metric).rank("ordinal", descending=True).cast(pl.Int64).alias(f"rank_{metric}"),
    ).with_columns((pl.col(f"rank_{metric}") - pl.col("rank_delta")).alias("shift"))
    keep = ["name", "delta", "ci_low", "ci_high", "rank_delta", metric, f"rank_{metric}", "shift"]
    return ranked.sort(pl.col("shift").abs(), "name", descending=[True, False]).head(k).select(keep)
