"""Where a run's card and turn figures come from: its stored sums, else its raw rows.

A run made with aggregates (the default) keeps sufficient statistics per chunk
(``balance.aggregates``) and, unless asked, no per-card or per-turn rows; an older run,
or one made with ``--no-aggregates``, has only raw rows (all of them, or a sample of the
first games). These functions return the same frames either way, preferring the sums:
they cover every game, while raw rows may be a sample (:attr:`balance.io.Run.raw_sample`).
"""

from __future__ import annotations

import polars as pl

import sims
from balance.aggregates import CARDS, HANDS, ORDER, PER_GAME, TEMPO, TEMPO_COLUMNS
from balance.io import Run
from balance.metrics._common import columns
from balance.metrics.card_events import card_events, card_events_from, event_counters, event_counters_from
from balance.metrics.cards import CardTables, card_summary, card_summary_from, card_values, card_values_from
from balance.metrics.cards import has_card_values as _raw_card_values
from balance.metrics.tiers import tier_counts, tier_counts_from
from balance.metrics.turns import alternates, alternates_from, lead_per_game, lead_per_game_from
from balance.metrics.verdicts import has_seen_columns, seen_unseen, seen_unseen_from


def sums(run: Run, name: str) -> pl.DataFrame | None:
    """Return the run's merged aggregate ``name`` (see ``balance.aggregates``), or None."""
    return run.sums.frame(name) if run.sums is not None and name in run.sums else None


def from_sums(run: Run) -> bool:
    """Return whether the run's card and turn figures come from stored sums (else from raw rows)."""
    return run.sums is not None


def has_cards(run: Run) -> bool:
    """Return whether the run has card figures (stored sums or a raw cards table)."""
    return sums(run, CARDS) is not None if from_sums(run) else run.cards is not None


def has_card_values(run: Run) -> bool:
    """Return whether the run has card win rates (its cards carry results: not a one-seat game)."""
    if from_sums(run):
        card_sums = sums(run, CARDS)
        return card_sums is not None and "gp_wr_n" in card_sums.columns
    return _raw_card_values(run.cards)


def hands(run: Run) -> int:
    """Return the run's seats rows (hands: game × seat)."""
    return int(run.seats.select(pl.len()).collect().item())


def card_tables(run: Run) -> CardTables | None:
    """Return the run's card tables (values, counters, by attribute), or None without card figures."""
    card_sums = sums(run, CARDS) if from_sums(run) else None
    if card_sums is not None:
        return card_summary_from(card_sums, run.card_dim, hands(run))
    if from_sums(run) or run.cards is None:
        return None
    return card_summary(run.cards, run.card_dim, run.seats)


def card_values_of(run: Run) -> pl.DataFrame | None:
    """Return the run's per-card values (:func:`~balance.metrics.cards.card_values`), or None."""
    if not has_card_values(run):
        return None
    card_sums = sums(run, CARDS)
    if card_sums is not None:
        return card_values_from(card_sums, run.card_dim)
    assert run.cards is not None
    return card_values(run.cards, run.card_dim)


def tier_counts_of(run: Run, *, metric: str = "gih_wr", tier: str | None = None) -> pl.DataFrame | None:
    """Return :func:`~balance.metrics.tiers.tier_counts` of the run, or None without card win rates."""
    if not has_card_values(run):
        return None
    card_sums = sums(run, CARDS)
    if card_sums is not None:
        return tier_counts_from(card_sums, run.seats, metric=metric, tier=tier)
    assert run.cards is not None
    return tier_counts(run.cards, run.seats, metric=metric, tier=tier)


def has_seen(run: Run) -> bool:
    """Return whether the run has the seen / not-seen card-games (the IWD note)."""
    if from_sums(run):
        return sums(run, HANDS) is not None
    return run.n_seats >= 2 and _raw_card_values(run.cards) and has_seen_columns(run.cards, run.games)


def seen_unseen_of(run: Run, *, max_games: int | None = None) -> pl.DataFrame | None:
    """Return :func:`~balance.metrics.verdicts.seen_unseen` of the run, or None without it.

    From stored sums every game is pooled; from raw rows the first ``max_games`` games.
    """
    if not has_seen(run):
        return None
    hand_sums = sums(run, HANDS)
    if hand_sums is not None:
        return seen_unseen_from(hand_sums)
    assert run.cards is not None
    return seen_unseen(run.cards, run.games, max_games=max_games)


def turn_columns(run: Run) -> list[str]:
    """Return the columns of the run's turns rows, from its game's record dtype (a run with sums stores none).

    Empty when the game is no longer registered.
    """
    try:
        game = sims.load(str(run.manifest.get("game")))
    except (KeyError, ImportError, AttributeError):
        return []
    return list(game.tables["turns"].names or ())


def has_tempo(run: Run) -> bool:
    """Return whether the run has tempo figures (two seats' scores per turn and a winner per game)."""
    if from_sums(run):
        return sums(run, TEMPO) is not None
    return (
        run.turns is not None
        and all(c in columns(run.turns) for c in TEMPO_COLUMNS)
        and ("winner" in columns(run.games))
    )


def leads_of(run: Run) -> pl.DataFrame | None:
    """Return ``game, lead_changes, lead_for_good`` for every game, or None without tempo figures."""
    if not has_tempo(run):
        return None
    per_game = run.sums.per_game if run.sums is not None and PER_GAME in run.sums else None
    if per_game is not None:
        return lead_per_game_from(per_game, run.games)
    assert run.turns is not None
    return lead_per_game(run.turns, run.games)


def alternates_of(run: Run) -> bool:
    """Return whether the run's seats take turns strictly in turn (:func:`~balance.metrics.turns.alternates`)."""
    if from_sums(run):
        return alternates_from(sums(run, ORDER))
    return run.turns is not None and alternates(run.turns, run.games)


def card_events_of(run: Run, only: tuple[str, ...]) -> pl.DataFrame | None:
    """Return :func:`~balance.metrics.card_events.card_events` of the run's ``only`` events, or None without them.

    From stored sums when the run has them (every game), else from its raw card rows.
    """
    if from_sums(run):
        card_sums = sums(run, CARDS)
        return card_events_from(card_sums, run.card_dim, only) if event_counters_from(card_sums, only) else None
    if not event_counters(run.cards, only):
        return None
    assert run.cards is not None
    return card_events(run.cards, run.card_dim, only)
