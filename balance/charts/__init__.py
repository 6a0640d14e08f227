"""Charts of already-aggregated metric frames: ``plot_<thing>(df, *, ax=None) -> Axes``.

Each function draws one tidy frame from :mod:`balance.metrics` onto ``ax`` (or onto a
new figure sized for the data) and returns the axes; nothing is computed beyond
scaling and sorting, and nothing is shown or saved. Figures are plain
``matplotlib.figure.Figure`` objects (Agg canvas, no pyplot state, no display needed),
drawn in the style of ``balance.mplstyle``. Titles state ``n`` and the interval level.

Split by concept: :mod:`._base` (style, palette, axes, forest rows), :mod:`.games`
(win rates, seat advantage, length, leads, tempo), :mod:`.cards`, :mod:`.compare`,
:mod:`.matchups`, :mod:`.solitaire` and :mod:`.lab` (card values, sweeps); everything
public is re-exported here, so callers use ``balance.charts.plot_x``.
"""

from balance.charts._base import DRAWING, GREY, PALETTE, PERSPECTIVE_LABELS, RATE_LABELS, STYLE, new_axes, palette
from balance.charts.cards import plot_attribute_values, plot_card_deltas, plot_card_values, plot_rank_shift
from balance.charts.compare import plot_comparison, plot_group_deltas
from balance.charts.games import (
    plot_first_seat_advantage,
    plot_game_length,
    plot_lead_changes,
    plot_lead_for_good,
    plot_steps_per_game,
    plot_tempo,
    plot_win_rates,
)
from balance.charts.lab import plot_sweep_curve, plot_value_forest
from balance.charts.matchups import plot_matchup_matrix
from balance.charts.solitaire import plot_group_means, plot_level_progression, plot_step_outcomes

__all__ = [
    "DRAWING",
    "GREY",
    "PALETTE",
    "PERSPECTIVE_LABELS",
    "RATE_LABELS",
    "STYLE",
    "new_axes",
    "palette",
    "plot_attribute_values",
    "plot_card_deltas",
    "plot_card_values",
    "plot_comparison",
    "plot_first_seat_advantage",
    "plot_game_length",
    "plot_group_deltas",
    "plot_group_means",
    "plot_lead_changes",
    "plot_lead_for_good",
    "plot_level_progression",
    "plot_matchup_matrix",
    "plot_rank_shift",
    "plot_step_outcomes",
    "plot_steps_per_game",
    "plot_sweep_curve",
    "plot_tempo",
    "plot_value_forest",
    "plot_win_rates",
]
