"""Metrics over a results dataset: polars in, tidy ``pl.DataFrame`` out, with intervals.

Every function reads lazily (``Run.games``/``seats``/``cards``/``turns`` are scans),
aggregates before collecting, and knows only the core columns of ``sims.core.records``
(plus ``seats.bot``); extra numeric columns are summarised generically. Rates come with
``n``, ``rate``, ``lo``, ``hi`` (Wilson 95 %); wide per-card frames prefix those names
(``gih_wr``, ``gih_wr_n``, ``gih_wr_lo``, ``gih_wr_hi``).

``METRICS`` maps a name to its function for listing; :func:`compute` calls one on a run,
feeding each parameter named after a table (``games``, ``seats``, ``cards``, ``turns``,
``card_dim``) from the run.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import polars as pl

from balance.io import Run
from balance.metrics._common import counter_means, distribution, info_columns, summarize
from balance.metrics.cards import (
    CARD_RATES,
    CARD_VALUE_COLUMNS,
    CardTables,
    card_attribute_values,
    card_attributes,
    card_counters,
    card_incidence,
    card_summary,
    card_summary_from,
    card_tables,
    card_values,
    card_values_from,
    has_card_values,
)
from balance.metrics.compare import (
    CARD_DELTA_METHOD,
    CARD_DELTAS,
    compare_cards,
    compare_groups,
    compare_runs,
    fixed_columns,
    pairing,
    summarize_comparison,
)
from balance.metrics.games import (
    descriptor_columns,
    enum_columns,
    first_seat_advantage,
    game_counters,
    game_length,
    game_length_summary,
    group_columns,
    is_key,
    outcome_columns,
    outcome_details,
    outcomes,
    seat_counters,
    win_rates,
    win_rates_over,
)
from balance.metrics.solitaire import (
    LEVEL,
    LEVEL_REACHED,
    OUTCOME,
    group_outcomes,
    has_columns,
    level_progression,
    level_reached,
    progression_from,
    rollup_outcomes,
    step_outcomes,
    step_outcomes_from,
)
from balance.metrics.steps import (
    STEP_COLUMNS,
    has_steps,
    step_counter_columns,
    step_counters,
    step_counters_from,
    step_endings,
    step_endings_from,
    step_openers,
    step_openers_from,
    steps_per_game,
)
from balance.metrics.tiers import Agreement, agreement, card_ranks, tier_counts, tier_counts_from, tier_names
from balance.metrics.turns import (
    PERSPECTIVES,
    TEMPO_COLUMNS,
    alternates,
    alternates_from,
    lead_changes,
    lead_for_good,
    lead_per_game,
    lead_per_game_from,
    rounds,
    tempo,
    tempo_from,
)
from balance.metrics.verdicts import BAND, flag_cards, iwd_biased, seen_unseen, seen_unseen_from

METRICS: dict[str, Callable[..., pl.DataFrame]] = {
    f.__name__: f
    for f in (
        win_rates,
        first_seat_advantage,
        outcomes,
        outcome_details,
        game_length,
        game_length_summary,
        seat_counters,
        game_counters,
        card_values,
        card_counters,
        card_attribute_values,
        tempo,
        seen_unseen,
        lead_per_game,
        lead_changes,
        lead_for_good,
        steps_per_game,
        step_endings,
        step_openers,
        step_counters,
        group_outcomes,
        level_reached,
        level_progression,
        step_outcomes,
    )
}

_TABLES = ("games", "seats", "cards", "turns", "card_dim")


def compute(name: str, run: Run, **options: Any) -> pl.DataFrame:
    """Compute metric ``name`` of ``run``, passing the tables its parameters name.

    Raise ``KeyError`` for an unknown name and ``ValueError`` when the run lacks a table
    the metric needs (e.g. ``turns`` switched off).

    Examples
    --------
    >>> sorted(METRICS)[:3]
    ['card_attribute_values', 'card_counters', 'card_values']
    """
    if name not in METRICS:
        raise KeyError(f"unknown metric {name!r}; known: {', '.join(sorted(METRICS))}")
    func = METRICS[name]
    args: dict[str, Any] = {}
    for param in inspect.signature(func).parameters.values():
        if param.name in _TABLES:
            table = getattr(run, param.name)
            if table is None and param.default is inspect.Parameter.empty:
                raise ValueError(f"metric {name!r} needs the {param.name} table, which run {run.name} did not record")
            args[param.name] = table
    return func(**args, **options)


__all__ = [
    "BAND",
    "CARD_DELTAS",
    "CARD_DELTA_METHOD",
    "CARD_RATES",
    "CARD_VALUE_COLUMNS",
    "LEVEL",
    "LEVEL_REACHED",
    "METRICS",
    "OUTCOME",
    "PERSPECTIVES",
    "STEP_COLUMNS",
    "TEMPO_COLUMNS",
    "Agreement",
    "CardTables",
    "agreement",
    "alternates",
    "alternates_from",
    "card_attribute_values",
    "card_attributes",
    "card_counters",
    "card_incidence",
    "card_ranks",
    "card_summary",
    "card_summary_from",
    "card_tables",
    "card_values",
    "card_values_from",
    "compare_cards",
    "compare_groups",
    "compare_runs",
    "compute",
    "counter_means",
    "descriptor_columns",
    "distribution",
    "enum_columns",
    "first_seat_advantage",
    "fixed_columns",
    "flag_cards",
    "game_counters",
    "game_length",
    "game_length_summary",
    "group_columns",
    "group_outcomes",
    "has_card_values",
    "has_columns",
    "has_steps",
    "info_columns",
    "is_key",
    "iwd_biased",
    "lead_changes",
    "lead_for_good",
    "lead_per_game",
    "lead_per_game_from",
    "level_progression",
    "level_reached",
    "outcome_columns",
    "outcome_details",
    "outcomes",
    "pairing",
    "progression_from",
    "rollup_outcomes",
    "rounds",
    "seat_counters",
    "seen_unseen",
    "seen_unseen_from",
    "step_counter_columns",
    "step_counters",
    "step_counters_from",
    "step_endings",
    "step_endings_from",
    "step_openers",
    "step_openers_from",
    "step_outcomes",
    "step_outcomes_from",
    "steps_per_game",
    "summarize",
    "summarize_comparison",
    "tempo",
    "tempo_from",
    "tier_counts",
    "tier_counts_from",
    "tier_names",
    "win_rates",
    "win_rates_over",
]
