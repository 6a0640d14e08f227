"""Charts return Axes, draw something, state n and the interval level, and write no files."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest
from matplotlib.axes import Axes

from balance import charts, metrics
from balance.io import Run


def _plots(run: Run, other: Run) -> dict[str, Callable[..., Axes]]:
    lp = metrics.lead_per_game(run.turns, run.games)
    cv = metrics.card_values(run.cards, run.card_dim)
    return {
        "win_rates": lambda ax: charts.plot_win_rates(metrics.win_rates(run.seats), ax=ax),
        "win_rates_seat": lambda ax: charts.plot_win_rates(metrics.win_rates(run.seats, by="seat"), by="seat", ax=ax),
        "first_seat": lambda ax: charts.plot_first_seat_advantage(metrics.first_seat_advantage(run.games), ax=ax),
        "game_length": lambda ax: charts.plot_game_length(
            metrics.game_length(run.games), summary=metrics.game_length_summary(run.games), ax=ax
        ),
        "card_gih": lambda ax: charts.plot_card_values(cv, metric="gih_wr", ax=ax),
        "card_iwd": lambda ax: charts.plot_card_values(cv, metric="iwd", ax=ax),
        "tempo": lambda ax: charts.plot_tempo(metrics.tempo(run.turns, run.games), min_share=0.0, ax=ax),
        "lead_changes": lambda ax: charts.plot_lead_changes(
            metrics.distribution(lp, "lead_changes"), summary=metrics.summarize(lp, "lead_changes"), ax=ax
        ),
        "lead_for_good": lambda ax: charts.plot_lead_for_good(
            metrics.distribution(lp, "lead_for_good"), summary=metrics.summarize(lp, "lead_for_good"), ax=ax
        ),
        "comparison": lambda ax: charts.plot_comparison(
            metrics.compare_runs(run, other), label_a="a", label_b="b", ax=ax
        ),
        "card_deltas": lambda ax: charts.plot_card_deltas(metrics.compare_cards(run, other), ax=ax),
    }


@pytest.fixture
def plots(shared_run: Run) -> dict[str, Callable[..., Axes]]:
    return _plots(shared_run, shared_run)


@pytest.mark.parametrize(
    "name",
    [
        "win_rates",
        "win_rates_seat",
        "first_seat",
        "game_length",
        "card_gih",
        "card_iwd",
        "tempo",
        "lead_changes",
        "lead_for_good",
        "comparison",
        "card_deltas",
    ],
)
def test_plot_returns_axes_draws_and_titles_n_and_ci(
    name: str, plots: dict[str, Callable[..., Axes]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    ax = plots[name](None)
    assert isinstance(ax, Axes)
    assert len(ax.lines) + len(ax.collections) + len(ax.patches) > 0
    title = ax.get_title(loc="left")
    assert "n = " in title
    assert "95 % CI" in title
    assert ax.get_xlabel()
    ax.figure.savefig(io.BytesIO(), format="png")  # renders without a display
    assert list(work.iterdir()) == []


def test_plot_draws_on_the_given_axes(plots: dict[str, Callable[..., Axes]]) -> None:
    (ax,) = charts.new_axes()
    assert plots["win_rates"](ax) is ax
    assert len(ax.collections) > 0


def test_card_names_with_dollar_signs_are_printed_literally() -> None:
    df = pl.DataFrame(
        {
            "name": ["$5 Deal", "Plain"],
            "gih_wr": [0.5, 0.6],
            "gih_wr_lo": [0.4, 0.5],
            "gih_wr_hi": [0.6, 0.7],
            "gih_wr_n": [10, 10],
        }
    )
    ax = charts.plot_card_values(df)
    ax.figure.savefig(io.BytesIO(), format="png")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Plain", r"\$5 Deal"]


def test_palette_gives_each_key_one_stable_colour() -> None:
    first = charts.palette(["random", "greedy", "planner"])
    assert first == charts.palette(["planner", "greedy", "random", "greedy"])
    assert len(set(first.values())) == 3
    assert charts.palette([0, 1])[0] == charts.PALETTE[0]
