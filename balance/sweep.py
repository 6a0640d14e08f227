"""Sweeps (``balance sweep``): one rule parameter, bot weight or card stat over a grid or random values.

Every point plays the same games ``0 .. n-1`` of one root seed (paired seeds), so the
difference between two points is measured game by game. Per point: the headline metrics
of :func:`balance.metrics.compare.per_game_metrics` (seat and first-seat win rates,
draws, game length, end reasons, a solitaire game's outcome columns ...) with 95 %
intervals and their paired Δ against the reference point; for a card stat also the swept
card's counterfactual Δ (``balance value``'s paired arms, same_cost baseline by default).
Writes ``DIR/games.parquet`` (every game of every point, with ``point`` and ``value``),
``DIR/points.parquet`` (one row per point and metric) and ``DIR/sweep.json``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

import sims
from balance import io, stats
from balance.cardfile import card_file, cell, edit_cards
from balance.metrics.compare import end_reasons, per_game_metrics
from balance.pairs import Batch, Pool, Setup, check_value_support, play, pool_names
from balance.parts import records_to_table
from balance.spec import SpecError
from balance.value import S, paired_interval, value_batch

TARGET = re.compile(r"^(?P<key>.+?)=(?P<values>[^=]+)$")


@dataclass(frozen=True)
class Target:
    """What a sweep varies: ``kind`` is ``param``, ``weight`` (``bot.key``) or ``card`` (``name.column``)."""

    kind: str
    key: str  # parameter name, weight name, or card column
    owner: str = ""  # the bot (weights) or the card name (card stats)

    @property
    def label(self) -> str:
        """Return the target as the user wrote it (``target_score``, ``greedy.score``, ``Sea Dragon.cost``)."""
        return f"{self.owner}.{self.key}" if self.owner else self.key


def parse_values(text: str, *, integer: bool, random: int = 0, seed: int = 1) -> list[float]:
    """Return the swept values of ``text``: ``lo:hi[:step]`` (grid, inclusive) or ``a,b,c``.

    With ``random > 0`` a range gives that many values drawn uniformly in ``[lo, hi]``
    (distinct integers when ``integer``), sorted, from a generator seeded by ``seed``.

    Examples
    --------
    >>> parse_values("15:25:5", integer=True)
    [15, 20, 25]
    >>> parse_values("0.5,1,2", integer=False)
    [0.5, 1.0, 2.0]
    """
    cast: Callable[[str], float] = int if integer else float
    try:
        if ":" not in text:
            values = [cast(v) for v in text.split(",") if v.strip()]
        else:
            parts = [p for p in text.split(":")]
            if len(parts) not in (2, 3):
                raise ValueError(text)
            lo, hi = cast(parts[0]), cast(parts[1])
            step = cast(parts[2]) if len(parts) == 3 else (1 if integer else (hi - lo) / 10)
            if random:
                gen = np.random.default_rng(seed)
                if integer:
                    pool = np.arange(lo, hi + 1)
                    values = sorted(int(v) for v in gen.choice(pool, min(random, len(pool)), replace=False))
                else:
                    values = sorted(round(float(v), 6) for v in gen.uniform(lo, hi, random))
            else:
                if step <= 0 or hi < lo:
                    raise ValueError(text)
                count = int(np.floor((hi - lo) / step + 1e-9)) + 1
                values = [cast(round(lo + i * step, 10)) for i in range(count)]
    except ValueError:
        kind = "whole numbers" if integer else "numbers"
        raise SpecError(f"sweep values {text!r}: expected LO:HI[:STEP] or A,B,C of {kind}") from None
    if not values or len(values) > 200:
        raise SpecError(f"sweep values {text!r}: give 1 to 200 values")
    return values


def parse_target(kind: str, text: str) -> tuple[Target, str]:
    """Return the target and its value text from ``KEY=VALUES``, ``BOT.KEY=VALUES`` or ``"CARD.COLUMN=VALUES"``."""
    match = TARGET.match(text.strip())
    if not match:
        raise SpecError(f"--{kind} {text!r} must look like KEY=VALUES, e.g. target_score=15:25:1")
    key, values = match["key"].strip(), match["values"].strip()
    if kind == "param":
        return Target("param", key), values
    owner, dot, column = key.rpartition(".")
    if not dot or not owner or not column:
        example = "greedy.score=0:2:0.5" if kind == "weight" else '"Sea Dragon.cost=2:6"'
        raise SpecError(f"--{kind} {text!r} must name its {'bot' if kind == 'weight' else 'card'}: e.g. {example}")
    return Target(kind, column.strip(), owner.strip()), values


@dataclass
class SweepPlan:
    """A resolved sweep: the base setup, what varies, the values, and each point's setup."""

    base: Setup
    target: Target
    values: list[float]
    setups: list[Setup]
    reference: int  # index of the point the paired Δ are taken against
    card: int = -1  # the swept card's id (card sweeps), for its counterfactual Δ
    notes: list[str] = field(default_factory=list)


def plan_sweep(base: Setup, target: Target, values: Sequence[float], out: Path) -> SweepPlan:
    """Return the setups of every point (card stats: edited copies of the card file under ``out/cards``)."""
    game = sims.load(base.game)
    setups, notes, card = [], [], -1
    if target.kind == "param":
        if target.key.startswith("value_"):
            raise SpecError(f"--param {target.key}: the value_* parameters are set by balance value, not swept")
        current = game.make_params(base.variant, dict(base.params))
        if target.key not in current._fields:
            raise SpecError(f"unknown parameter {target.key!r} for {base.game}; known: {', '.join(current._fields)}")
        setups = [base.with_params(**{target.key: int(v)}) for v in values]
        default = getattr(current, target.key)
    elif target.kind == "weight":
        if target.owner not in base.bots:
            raise SpecError(f"--weight {target.label}: bot {target.owner!r} plays no seat ({', '.join(base.bots)})")
        known = game.bot_params[target.owner]._fields
        if target.key not in known:
            raise SpecError(f"bot {target.owner!r} has no weight {target.key!r}; known: {', '.join(known)}")
        setups = [base.with_weights(target.owner, **{target.key: float(v)}) for v in values]
        default = dict(dict(base.bot_weights).get(target.owner, ())).get(
            target.key, getattr(game.bot_params[target.owner], target.key)
        )
    else:
        source = card_file(base.game, base.cards_file)
        default = cell(base.game, source, target.owner, target.key)
        for i, v in enumerate(values):
            dest = out / "cards" / f"point-{i:03d}-{source.name}"
            edit_cards(base.game, source, {(target.owner, target.key): _text(v)}, dest)
            setups.append(Setup(**{**base.__dict__, "cards_file": str(dest)}))
        names = pool_names(setups[0])
        card = names.index(target.owner) if target.owner in names else -1
        if card < 0:
            notes.append(f"{target.owner} is not in the prepared pool (filtered out by the variant): no card Δ.")
        notes.append("Card-file copies for each point are in cards/; the original file is never edited.")
        notes.append(
            "A column the deck builder reads (Cardinger: cost) changes which decks a seed deals, so its points are "
            "paired by seed only; the card's Δ at each point is against the baseline drawn at that point."
        )
    try:
        default_value = float(default)
    except (TypeError, ValueError):
        default_value = float("nan")
    close = [abs(v - default_value) for v in values]
    reference = int(np.argmin(close)) if np.isfinite(default_value) else 0
    return SweepPlan(base, target, list(values), setups, reference, card, notes)


def _text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def sweep_batch(setup: Setup, seed: int, first: int, n: int) -> dict[str, np.ndarray]:
    """Play games ``[first, first + n)`` of one point; return its ``games`` and ``seats`` records (no deck lists)."""
    out = play(setup, seed, first, n, ("games", "seats"))
    return out


@dataclass(frozen=True)
class SweepOptions:
    """Size of a sweep: games per point, card-Δ pairs per point, seed, workers, batch size."""

    n_games: int = 20_000
    value_pairs: int = 20_000  # card sweeps: paired games per point for the card's Δ (0 = skip)
    baseline: str | None = None
    seed: int = 1
    workers: int = 0
    batch: int = 5_000


def _frames(game: Any, parts: list[dict[str, np.ndarray]]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Return one point's games and seats records as polars frames with enum names (as a run stores them)."""
    tables = {}
    for table in ("games", "seats"):
        recs = np.concatenate([p[table] for p in parts])
        if table == "seats" and "deck" in (recs.dtype.names or ()):
            recs = recs[[n for n in recs.dtype.names if n != "deck"]]
        names = {"bot": game.bots} if table == "seats" else None
        tables[table] = pl.from_arrow(records_to_table(recs, enums=game.enums.get(table), names=names))
    return tables["games"], tables["seats"]


def run_sweep(plan: SweepPlan, options: SweepOptions, *, progress: Callable[[int, int], None] | None = None) -> dict:
    """Play every point of ``plan``; return ``{"games", "points", "summary"}`` (frames and a dict)."""
    game = sims.load(plan.base.game)
    n, batch = options.n_games, options.batch
    jobs: list[Batch] = []
    for i, setup in enumerate(plan.setups):
        jobs += [
            Batch(("games", i, g), sweep_batch, (setup, options.seed, g, min(batch, n - g))) for g in range(0, n, batch)
        ]
    do_value = plan.card >= 0 and options.value_pairs > 0 and bool(game.value_baselines)
    if plan.card >= 0 and not game.value_baselines:
        plan.notes.append(f"{game.name} offers no value baseline yet: no card Δ per point.")
    if do_value:
        _, baseline = check_value_support(plan.base, options.baseline)
        pairs = options.value_pairs
        for i, setup in enumerate(plan.setups):
            jobs += [
                Batch(
                    ("value", i, g), value_batch, (setup, plan.card, baseline, options.seed, g, min(batch, pairs - g))
                )
                for g in range(0, pairs, batch)
            ]
    results: dict[tuple, Any] = {}
    with Pool(options.workers) as pool:
        for done in pool.run(jobs):
            results[done.key] = done.result
            if progress:
                progress(len(results), len(jobs))
    per_point = []
    for i in range(len(plan.setups)):
        parts = [results[k] for k in sorted(k for k in results if k[0] == "games" and k[1] == i)]
        per_point.append(_frames(game, parts))
    games = pl.concat(
        [
            g.with_columns(pl.lit(i).alias("point"), pl.lit(float(plan.values[i])).alias("value"))
            for i, (g, _) in enumerate(per_point)
        ],
        how="vertical_relaxed",
    )
    points = point_metrics(plan, per_point, game)
    if do_value:
        rows = []
        for i, v in enumerate(plan.values):
            total = sum(results[k] for k in results if k[0] == "value" and k[1] == i)
            delta, lo, hi, _ = paired_interval(total)
            rows.append(
                (
                    i,
                    float(v),
                    "card_delta",
                    f"Δ win rate of {plan.target.owner}'s holder",
                    "pp",
                    delta,
                    lo,
                    hi,
                    int(total[S["n"]]),
                )
            )
        points = pl.concat([points, _point_rows(rows)], how="diagonal_relaxed")
    summary = {
        "game": plan.base.game,
        "variant": plan.base.variant or game.default_variant,
        "bots": list(plan.base.bots),
        "target": plan.target.label,
        "kind": plan.target.kind,
        "values": plan.values,
        "reference": plan.values[plan.reference],
        "n_games": n,
        "value_pairs": options.value_pairs if do_value else 0,
        "seed": options.seed,
        "notes": plan.notes,
    }
    return {"games": games, "points": points, "summary": summary}


def _point_rows(rows: list[tuple]) -> pl.DataFrame:
    schema = {"point": pl.Int64, "value": pl.Float64, "metric": pl.String, "label": pl.String, "unit": pl.String}
    schema |= {"estimate": pl.Float64, "lo": pl.Float64, "hi": pl.Float64, "n": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row")


def point_metrics(plan: SweepPlan, per_point: list[tuple[pl.DataFrame, pl.DataFrame]], game: Any) -> pl.DataFrame:
    """Return one row per point and metric: estimate with its 95 % interval, and the paired Δ against the reference.

    Rates use Wilson intervals; other metrics the t interval of the per-game mean. ``delta``
    (with ``delta_lo``/``delta_hi``) is the mean per game of ``point − reference`` over the
    same games (t interval).
    """
    runs = [_as_run(g, s, game) for g, s in per_point]
    reasons = end_reasons(*runs)
    frames = [per_game_metrics(r, reasons) for r in runs]
    ref_frame = frames[plan.reference][0]
    rows = []
    for i, (frame, meta) in enumerate(frames):
        joined = frame.join(ref_frame, on="game", suffix="\0ref")
        for key, (label, unit) in meta.items():
            x = frame[key].drop_nulls().to_numpy().astype(float)
            est = stats.wilson(int(x.sum()), len(x)) if unit == "rate" else stats.mean_ci(x)
            d = stats.paired_difference(
                *(joined[c].fill_null(np.nan).to_numpy().astype(float) for c in (key, f"{key}\0ref"))
            )
            est_v, lo, hi = (float(np.asarray(v).reshape(-1)[0]) for v in est)
            rows.append((i, float(plan.values[i]), key, label, unit, est_v, lo, hi, len(x), d.delta, d.lo, d.hi))
    schema = {"point": pl.Int64, "value": pl.Float64, "metric": pl.String, "label": pl.String, "unit": pl.String}
    schema |= {"estimate": pl.Float64, "lo": pl.Float64, "hi": pl.Float64, "n": pl.Int64}
    schema |= {"delta": pl.Float64, "delta_lo": pl.Float64, "delta_hi": pl.Float64}
    return pl.DataFrame(rows, schema=schema, orient="row").fill_nan(None)


def _as_run(games: pl.DataFrame, seats: pl.DataFrame, game: Any) -> io.Run:
    """Return an in-memory ``Run`` of one sweep point (games and seats only)."""
    manifest = {"game": game.name, "turn_unit": game.turn_unit, "seats": game.seats}
    return io.Run(Path("."), manifest, games.lazy(), seats.lazy(), None, None, pl.DataFrame())


def write_sweep(result: dict, out: Path | str) -> Path:
    """Write ``games.parquet``, ``points.parquet`` and ``sweep.json`` under ``out``; return ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    result["games"].write_parquet(out / "games.parquet")
    result["points"].write_parquet(out / "points.parquet")
    (out / "sweep.json").write_text(json.dumps(result["summary"], indent=2, default=str) + "\n", encoding="utf-8")
    return out
