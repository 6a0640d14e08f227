"""Where a run's figures come from: its stored sums, else its raw rows.

A run made with aggregates (the default) keeps sufficient statistics per chunk
(``balance.aggregates``) and, unless asked, no per-card or per-turn rows; an older run,
or one made with ``--no-aggregates``, has only raw rows (all of them, or a sample of the
first games). These functions return the same frames either way, preferring the sums:
they cover every game, while raw rows may be a sample (:attr:`balance.io.Run.raw_sample`).

The game- and seat-level figures (win rates, deck pairings, outcomes, length, results by
setting, seat counters) come from the run's ``agg_games``/``agg_seats`` counts when it has
them (runs of two-seat games made since they exist), else from its ``games`` and ``seats``
rows, which every run has: the same frames either way (:mod:`balance.metrics.game_sums`).
"""

from __future__ import annotations

import polars as pl

import sims
from balance.aggregates import CARDS, GAMES, HANDS, LEADS, ORDER, PER_GAME, SEATS, TEMPO, TEMPO_COLUMNS, seat_key
from balance.io import Run
from balance.metrics import game_sums as gs
from balance.metrics import games as g
from balance.metrics import groups, matchups
from balance.metrics._common import columns, extra_counters
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
    seat_sums = sums(run, SEATS)
    if seat_sums is not None:
        return int(seat_sums["rows"].sum())
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


def lead_counts_of(run: Run) -> pl.DataFrame | None:
    """Return the games counted by ``lead_changes, lead_for_good`` (``count``), or None without tempo figures."""
    counted = sums(run, LEADS)
    if counted is not None:
        return counted
    leads = leads_of(run)
    return gs.lead_counts(leads) if leads is not None else None


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


# -- game- and seat-level figures: from agg_games / agg_seats, else the games and seats rows -----------------


def game_counts(run: Run, *needed: str) -> pl.DataFrame | None:
    """Return the run's ``agg_games`` when it has the games columns ``needed`` (and seat 0's for ``seat:<c>``)."""
    cube = sums(run, GAMES)
    if cube is None:
        return None
    have = set(cube.columns)
    ok = all((seat_key(0, c[5:]) if c.startswith("seat:") else c) in have for c in needed)
    return cube if ok else None


def has_first_seat_of(run: Run) -> bool:
    """Return :func:`~balance.metrics.groups.has_first_seat` of the run."""
    cube = game_counts(run, "first_seat")
    return gs.has_first_seat_from(cube) if cube is not None else groups.has_first_seat(run.games)


def win_rates_of(run: Run, by: str | list[str]) -> pl.DataFrame:
    """Return :func:`~balance.metrics.games.win_rates` of the run's seats by ``by`` (``position`` with the games)."""
    keys = [by] if isinstance(by, str) else list(by)
    needed = [f"seat:{k}" for k in keys if k not in ("seat", "position")] + ["seat:won"]
    cube = game_counts(run, *needed, *(["first_seat"] if "position" in keys else []))
    if cube is not None:
        return gs.win_rates_from(cube, run.n_seats, by)
    return g.win_rates(run.seats, by=by, games=run.games if "position" in keys else None)


def first_seat_advantage_of(run: Run) -> pl.DataFrame:
    """Return :func:`~balance.metrics.games.first_seat_advantage` of the run's games."""
    cube = game_counts(run, "first_seat", "winner")
    if cube is not None:
        return gs.first_seat_advantage_from(cube, run.n_seats)
    return g.first_seat_advantage(run.games, n_seats=run.n_seats)


def outcomes_of(run: Run) -> pl.DataFrame:
    """Return :func:`~balance.metrics.games.outcomes` of the run's games (all games, no grouping)."""
    have = columns(run.games)
    cube = game_counts(run, *(c for c in ("winner", "end_reason") if c in have))
    return g.outcomes_of_counts(gs.outcome_parts_from(cube)) if cube is not None else g.outcomes(run.games)


def outcome_details_of(run: Run, enums: list[str]) -> pl.DataFrame:
    """Return :func:`~balance.metrics.games.outcome_details` of the run's games by the enum columns ``enums``."""
    cube = game_counts(run, "end_reason", *enums)
    if cube is not None and enums:
        return g.details_of_counts(gs.outcome_detail_parts_from(cube, enums), enums)
    return g.outcome_details(run.games, enums=enums)


def no_winner_reasons_of(run: Run) -> pl.DataFrame:
    """Return ``end_reason, k``: how the games without a winner ended, most first (then by name)."""
    cube = game_counts(run, "winner", "end_reason")
    counts = (
        cube.lazy().filter(pl.col("winner") < 0).group_by(pl.col("end_reason").cast(pl.String)).agg(gs.COUNT.alias("k"))
        if cube is not None
        else run.games.filter(pl.col("winner") < 0)
        .group_by(pl.col("end_reason").cast(pl.String))
        .agg(pl.len().alias("k"))
    )
    return counts.sort("k", "end_reason", descending=[True, False]).collect()


def game_length_of(run: Run) -> pl.DataFrame:
    """Return :func:`~balance.metrics.games.game_length` of the run's games."""
    cube = game_counts(run, "turns", *(["end_reason"] if "end_reason" in columns(run.games) else []))
    return gs.game_length_from(cube) if cube is not None else g.game_length(run.games)


def turns_summary_of(run: Run, *, rounds: bool = False) -> pl.DataFrame:
    """Return ``summarize`` of the games' length in turns (``rounds``: in rounds of both seats, ``(turns+1) // 2``)."""
    value = (pl.col("turns") + 1) // 2 if rounds else pl.col("turns")
    name = "r" if rounds else "turns"
    cube = game_counts(run, "turns")
    if cube is not None:
        return gs.summarize_from(cube, value, name)
    return g.summarize(run.games.select(value.alias(name)), name)


def group_columns_of(run: Run, *, max_values: int = 50) -> list[str]:
    """Return :func:`~balance.metrics.games.group_columns` of the run's games."""
    names = g.enum_columns(run.games)
    cube = game_counts(run, *names)
    return (
        gs.group_columns_from(cube, names, max_values=max_values)
        if cube is not None
        else g.group_columns(run.games, max_values=max_values)
    )


def group_results_of(run: Run, names: list[str]) -> dict[str, pl.DataFrame]:
    """Return :func:`~balance.metrics.groups.group_results_by` of the run's games and seats."""
    has_bot = "bot" in columns(run.seats)
    cube = game_counts(run, "winner", "turns", "seat:won", *(["seat:bot"] if has_bot else []), *names)
    if cube is not None:
        return gs.group_results_from(cube, run.n_seats, names)
    return groups.group_results_by(run.games, run.seats, names)


def pairing_counts_of(run: Run, *, first_seat: bool) -> pl.DataFrame:
    """Return :func:`~balance.metrics.matchups.pairing_counts` of the run (with the games' first movers)."""
    cube = game_counts(run, "seat:deck", "seat:won", *(["first_seat", "winner"] if first_seat else []))
    if cube is not None and run.n_seats == 2:
        return gs.pairing_counts_from(cube, first_seat=first_seat)
    return matchups.pairing_counts(run.seats, run.games if first_seat else None)


def seat_counters_of(run: Run, by: str) -> pl.DataFrame:
    """Return :func:`~balance.metrics.games.seat_counters` of the run's seats by ``by``.

    From ``agg_seats`` when it sums exactly the counters the seats table has (a run that adds
    columns of its own to the seats, e.g. deck prints, reads them from the rows).
    """
    counters = [c for c in ("score",) if c in columns(run.seats)] + extra_counters(run.seats, "seats")
    seat_sums = sums(run, SEATS)
    if seat_sums is not None and by in seat_sums.columns and gs.summed_seat_counters(seat_sums) == counters:
        return gs.seat_counters_from(seat_sums, counters, by)
    return g.seat_counters(run.seats, by=by)


def n_games_of(run: Run) -> int:
    """Return how many games the run has."""
    cube = game_counts(run)
    return int(cube["count"].sum()) if cube is not None else int(run.games.select(pl.len()).collect().item())


def bots_of(run: Run) -> list[str] | None:
    """Return the bots of the run's seats, distinct and sorted (None without a ``seats.bot`` column)."""
    if "bot" not in columns(run.seats):
        return None
    cube = game_counts(run, "seat:bot")
    if cube is None:
        return run.seats.select(pl.col("bot").unique().sort()).collect()["bot"].to_list()
    bots = pl.concat([cube.select(pl.col(seat_key(s, "bot")).alias("bot")) for s in range(run.n_seats)])
    return bots.select(pl.col("bot").unique().sort())["bot"].to_list()


def tier_names_of(run: Run) -> list[str]:
    """Return :func:`~balance.metrics.tiers.tier_names` of the run's seats."""
    return sorted(str(b) for b in bots_of(run) or [] if b is not None)


def first_bot_of(run: Run) -> str | None:
    """Return the bot of seat 0 in the run's first game."""
    cube = game_counts(run, "seat:bot")
    if cube is not None and cube[seat_key(0, "bot")].n_unique() == 1:
        return str(cube[seat_key(0, "bot")][0])
    first = run.seats.filter(pl.col("seat") == 0).select(pl.col("bot").cast(pl.String).first()).collect().item()
    return None if first is None else str(first)
