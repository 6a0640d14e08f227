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

The observational card metrics (GP/OH/GD/GIH/GNS/played WR, IWD) come from the same
games: the holder's row of the card in arm 0, where the card is always in the deck.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

import sims
from balance import stats
from balance.pairs import Batch, Pool, Setup, check_value_support, play, pool_names, resolved
from balance.spec import SpecError, default_workers

# the sums a batch returns, in this order (int64 array)
SUMS = (
    "n", "wins_with", "wins_without", "discordant",
    "gp_n", "gp_k", "oh_n", "oh_k", "gd_n", "gd_k", "gih_n", "gih_k", "gns_n", "gns_k", "played_n", "played_k",
)  # fmt: skip
S = {name: i for i, name in enumerate(SUMS)}
OBSERVED = {"gp_wr": "gp", "oh_wr": "oh", "gd_wr": "gd", "gih_wr": "gih", "gns_wr": "gns", "played_wr": "played"}
OBSERVED_COLUMNS = {"game", "seat", "card", "won", "in_opening_hand", "first_drawn_turn", "times_played"}


def arms(setup: Setup, card: int, baseline: str) -> tuple[Setup, Setup]:
    """Return the two arms of ``card``: with it in the holder's deck, and with the baseline in its place."""
    base = setup.with_params(value_card=card, value_baseline=baseline)
    return base.with_params(value_swap=0), base.with_params(value_swap=1)


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


def value_batch(setup: Setup, card: int, baseline: str, seed: int, first: int, n: int) -> np.ndarray:
    """Play games ``[first, first + n)`` in both arms of ``card``; return the batch's sums (``SUMS``).

    Only the ``games`` table is recorded, plus arm 0's ``cards`` rows for the observational
    metrics of the holder's copy (when the game's cards table has the columns they need).
    """
    with_card, without = arms(setup, card, baseline)
    observe = set(sims.load(setup.game).tables["cards"].names or ()) >= OBSERVED_COLUMNS
    a = play(with_card, seed, first, n, ("games", "cards") if observe else ("games",))
    b = play(without, seed, first, n, ("games",))
    holder = a["games"]["game"] % 2
    won_0 = (a["games"]["winner"] == holder).astype(np.int64)
    won_1 = (b["games"]["winner"] == holder).astype(np.int64)
    out = np.zeros(len(SUMS), np.int64)
    out[: S["gp_n"]] = n, won_0.sum(), won_1.sum(), int((won_0 != won_1).sum())
    if not observe:  # a cards table without these columns: no observational metrics (null in values.parquet)
        return out
    rows = a["cards"]
    mine = rows[(rows["card"] == card) & (rows["seat"] == rows["game"] % 2)]
    won, drawn = mine["won"] == 1, mine["first_drawn_turn"]
    subsets = {
        "gp": np.ones(len(mine), bool),
        "oh": mine["in_opening_hand"] == 1,
        "gd": drawn > 0,
        "gih": drawn >= 0,
        "gns": drawn == -1,
        "played": mine["times_played"] > 0,
    }
    for key, mask in subsets.items():
        out[S[f"{key}_n"]], out[S[f"{key}_k"]] = int(mask.sum()), int((mask & won).sum())
    return out


def paired_interval(sums: np.ndarray) -> tuple[float, float, float, float]:
    """Return ``(delta, lo, hi, half_width)`` of the mean paired difference from a batch's sums.

    ``d`` is −1, 0 or 1, so its sum of squares is the number of discordant pairs; the
    interval is the t interval of the mean of ``d`` (95 %).

    Examples
    --------
    >>> s = np.zeros(len(SUMS), np.int64)
    >>> s[[S["n"], S["wins_with"], S["wins_without"], S["discordant"]]] = 100, 60, 50, 30
    >>> [round(x, 4) for x in paired_interval(s)]
    [0.1, -0.0061, 0.2061, 0.1061]
    """
    n = int(sums[S["n"]])
    if n < 2:
        return float("nan"), float("nan"), float("nan"), float("inf")
    total = int(sums[S["wins_with"]] - sums[S["wins_without"]])
    mean = total / n
    var = (int(sums[S["discordant"]]) - n * mean * mean) / (n - 1)
    est = stats.mean_ci_stats(np.array([mean]), np.array([np.sqrt(max(var, 0.0))]), np.array([n]))
    lo, hi = float(est.lo[0]), float(est.hi[0])
    return mean, lo, hi, (hi - lo) / 2


@dataclass
class CardTally:
    """One card's batches: results by batch index, the prefix used so far, and whether it is resolved."""

    card: int
    name: str
    results: dict[int, np.ndarray] = field(default_factory=dict)
    submitted: int = 0  # batches handed to workers
    used: int = 0  # batches 0 .. used-1 make up ``total``
    total: np.ndarray = field(default_factory=lambda: np.zeros(len(SUMS), np.int64))
    resolved: bool = False

    @property
    def pairs(self) -> int:
        """Return the pairs in the result (its batches in order)."""
        return int(self.total[S["n"]])

    def add(self, index: int, sums: np.ndarray, half_width: float, min_pairs: int) -> None:
        """Record batch ``index``; extend the prefix in order and stop at the first resolved boundary."""
        self.results[index] = sums
        while not self.resolved and self.used in self.results:
            self.total = self.total + self.results[self.used]
            self.used += 1
            if self.pairs >= min_pairs and paired_interval(self.total)[3] <= half_width:
                self.resolved = True


@dataclass(frozen=True)
class ValueOptions:
    """How hard to try: target half-width, time budget, batch sizes, seed and workers."""

    baseline: str | None = None  # default: the game's first value baseline
    half_width: float = 0.005  # stop a card once its 95 % half-width is at most this (a fraction)
    budget: float = 120.0  # seconds of play, from the first batch's start (worker start-up not counted)
    seed: int = 1
    workers: int = 0  # 0 = one per CPU
    batch: int = 2500  # pairs per batch
    min_pairs: int = 5000  # pairs every card gets before it may stop
    cards: tuple[str, ...] = ()  # card names to value; empty = every card of the prepared pool


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


def _need(tally: CardTally, options: ValueOptions, default_sd: float) -> float:
    """Return the pairs ``tally``'s card is predicted to need for the target half-width."""
    n = tally.pairs
    sd = default_sd
    if n >= 2:
        half = paired_interval(tally.total)[3]
        sd = half * np.sqrt(n) / 1.96 if np.isfinite(half) else default_sd
    return max(float(options.min_pairs), (1.96 * sd / options.half_width) ** 2)


class Scheduler:
    """Hand out value batches: the minimum to every card first, then to the cards furthest from the target."""

    def __init__(self, tallies: list[CardTally], setup: Setup, baseline: str, options: ValueOptions) -> None:
        """Schedule ``tallies``' cards under ``options`` (``baseline`` already checked)."""
        self.tallies, self.setup, self.baseline, self.options = tallies, setup, baseline, options
        self.t0: float | None = None  # when the first batch started (set when its result arrives)

    def started(self, seconds: float) -> None:
        """Start the budget's clock at the first batch's start (``seconds`` ago), once.

        Worker start-up (spawning, loading or compiling the kernels after a code change) is
        not charged to the budget: a first run after an update would otherwise spend it there.
        """
        if self.t0 is None:
            self.t0 = time.perf_counter() - seconds

    @property
    def elapsed(self) -> float:
        """Return seconds since the first batch started (0 before any result)."""
        return 0.0 if self.t0 is None else time.perf_counter() - self.t0

    def default_sd(self) -> float:
        """Return the typical per-pair standard deviation seen so far (0.35 before any result)."""
        sds = [paired_interval(t.total)[3] * np.sqrt(t.pairs) / 1.96 for t in self.tallies if t.pairs >= 2]
        sds = [s for s in sds if np.isfinite(s)]
        return float(np.median(sds)) if sds else 0.35

    def remaining(self) -> float:
        """Return the pairs still predicted to be needed over all unresolved cards."""
        sd = self.default_sd()
        return sum(max(0.0, _need(t, self.options, sd) - t.pairs) for t in self.tallies if not t.resolved)

    def _pick(self) -> CardTally | None:
        batch, pilot = self.options.batch, -(-self.options.min_pairs // self.options.batch)
        open_ = [t for t in self.tallies if not t.resolved]
        if not open_:
            return None
        short = [t for t in open_ if t.submitted < pilot]
        if short:
            return min(short, key=lambda t: (t.submitted, t.card))
        sd = self.default_sd()
        ahead = [(_need(t, self.options, sd) - t.submitted * batch, t) for t in open_]
        gap, tally = max(ahead, key=lambda x: (x[0], -x[1].card))
        if gap > 0:
            return tally
        # every open card has enough in flight: add to the one whose interval is widest
        return max(open_, key=lambda t: (paired_interval(t.total)[3], -t.card))

    def batches(self) -> Iterator[Batch]:
        """Yield batches until every card is resolved or the budget is spent."""
        while self.elapsed < self.options.budget:
            tally = self._pick()
            if tally is None:
                return
            index = tally.submitted
            tally.submitted += 1
            first = index * self.options.batch
            args = (self.setup, tally.card, self.baseline, self.options.seed, first, self.options.batch)
            yield Batch(key=(tally.card, index), func=value_batch, args=args)


def card_values(
    setup: Setup, options: ValueOptions = ValueOptions(), *, progress: bool = False, pool: Pool | None = None
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
    played = 0
    startup: float | None = None
    with nullcontext(pool) if pool is not None else Pool(options.workers) as workers:
        for batch in workers.run(scheduler.batches()):
            scheduler.started(batch.seconds)
            if startup is None:
                startup = time.perf_counter() - start - batch.seconds
            card, index = batch.key
            by_card[card].add(index, batch.result, options.half_width, options.min_pairs)
            played += int(batch.result[S["n"]])
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
        "pairs_played": played,
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
