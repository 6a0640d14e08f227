"""Charts return Axes, draw something, state n and the interval level, and write no files."""

from __future__ import annotations

import io
import warnings
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


@pytest.mark.parametrize("name", ["win_rates", "card_gih", "tempo"])
def test_a_report_png_is_the_bytes_savefig_writes(name: str, plots: dict[str, Callable[..., Axes]]) -> None:
    """``html.png`` draws under the lock and encodes after it: the file is savefig's, byte for byte."""
    from balance.report.html import PNG_OPTIONS, png

    fig = plots[name](None).figure
    direct = io.BytesIO()
    fig.savefig(direct, format="png", pil_kwargs=PNG_OPTIONS)
    assert png(fig) == direct.getvalue()
    assert png(fig) == direct.getvalue()  # drawn twice: the same again


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


def _battle_plots(run: Run) -> dict[str, Callable[[], Axes]]:
    lp = metrics.lead_per_game(run.turns, run.games)
    per_game = metrics.steps_per_game(run.turns, run.games)
    by_attribute = metrics.card_attribute_values(run.cards, run.card_dim, run.seats)
    return {
        "tempo": lambda: charts.plot_tempo(metrics.tempo(run.turns, run.games), min_share=0.0, unit="battle"),
        "lead_for_good": lambda: charts.plot_lead_for_good(
            metrics.distribution(lp, "lead_for_good"), summary=metrics.summarize(lp, "lead_for_good"), unit="battle"
        ),
        "steps_per_game": lambda: charts.plot_steps_per_game(
            metrics.distribution(per_game, "steps"), summary=metrics.summarize(per_game, "steps"), unit="battle"
        ),
        "attribute_gp_wr": lambda: charts.plot_attribute_values(by_attribute, attribute="rank"),
        "attribute_counter": lambda: charts.plot_attribute_values(by_attribute, metric="times_played"),
    }


@pytest.mark.parametrize("name", ["tempo", "lead_for_good", "steps_per_game", "attribute_gp_wr", "attribute_counter"])
def test_battle_plots_name_the_unit_and_state_n_and_ci(name: str, battle_run: Run) -> None:
    ax = _battle_plots(battle_run)[name]()
    assert len(ax.lines) + len(ax.collections) + len(ax.patches) > 0
    title = ax.get_title(loc="left")
    assert "n = " in title  # lead for good: one decided game, so a mean without an interval
    if name.startswith("attribute"):
        assert "95 % CI" in title
        assert ax.get_xlabel().startswith("GP WR" if name == "attribute_gp_wr" else "times played")
    else:
        assert "battle" in ax.get_xlabel()
        assert "turn" not in ax.get_xlabel()
    ax.figure.savefig(io.BytesIO(), format="png")


def test_attribute_plot_orders_values_like_the_metric(battle_run: Run) -> None:
    by_attribute = metrics.card_attribute_values(battle_run.cards, battle_run.card_dim, battle_run.seats)
    ax = charts.plot_attribute_values(by_attribute, attribute="rank")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["2", "7", "jack"]


def _solo_plots(run: Run, other: Run) -> dict[str, Callable[[], Axes]]:
    groups = metrics.group_outcomes(run.games, by="class_card")
    outcomes = metrics.step_outcomes(run.turns, by=["level", "monster_kind"])
    return {
        "group_means": lambda: charts.plot_group_means(groups, metric="kills", by="class_card"),
        "level_progression": lambda: charts.plot_level_progression(metrics.level_progression(run.turns)),
        "step_outcomes_level": lambda: charts.plot_step_outcomes(
            metrics.rollup_outcomes(outcomes, "level"), by="level"
        ),
        "step_outcomes_kind": lambda: charts.plot_step_outcomes(
            metrics.rollup_outcomes(outcomes, "monster_kind"), by="monster_kind"
        ),
        "group_deltas": lambda: charts.plot_group_deltas(metrics.compare_groups(run, other), metric="kills"),
        "comparison_relative": lambda: charts.plot_comparison(metrics.compare_runs(run, other), relative=True),
    }


SOLO_PLOTS = (
    "group_means",
    "level_progression",
    "step_outcomes_level",
    "step_outcomes_kind",
    "group_deltas",
    "comparison_relative",
)


@pytest.mark.parametrize("name", SOLO_PLOTS)
def test_solitaire_plots_draw_and_state_n_and_ci(name: str, solo_run: Run, solo_run_b: Run) -> None:
    ax = _solo_plots(solo_run, solo_run_b)[name]()
    assert len(ax.lines) + len(ax.collections) + len(ax.patches) > 0
    title = ax.get_title(loc="left")
    assert "n = " in title
    assert "95 % CI" in title
    assert ax.get_xlabel()
    ax.figure.savefig(io.BytesIO(), format="png")


def test_solitaire_plots_order_groups_and_outcomes(solo_run: Run, solo_run_b: Run) -> None:
    plots = _solo_plots(solo_run, solo_run_b)
    assert [t.get_text() for t in plots["group_means"]().get_yticklabels()] == ["spade_king", "heart_jack"]
    ax = plots["step_outcomes_level"]()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["level 1", "level 2", "level 3"]
    # every outcome but the most common one (won: 9 of 16 battles), most frequent first
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["died", "abandoned", "forfeit"]
    deltas = plots["group_deltas"]()  # spade_king +2/3, heart_jack +1/3
    assert [t.get_text() for t in deltas.get_yticklabels()] == ["spade_king", "heart_jack"]


def test_card_plot_without_a_valued_card_draws_no_legend_and_no_warning() -> None:
    """A run too small for any card's rate (every value null) gives an empty plot, not matplotlib's legend warning."""
    null = pl.Series([None], dtype=pl.Float64)
    df = pl.DataFrame({"name": ["Bee"], "gih_wr": null, "gih_wr_lo": null, "gih_wr_hi": null, "gih_wr_n": [0]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ax = charts.plot_card_values(df.with_columns(confidence=pl.lit("low")))
    assert ax.get_legend() is None


def test_palette_is_the_style_files_colour_cycle_as_matplotlib_reads_it():
    import matplotlib as mpl

    from balance.charts import PALETTE, STYLE

    cycle = mpl.rc_params_from_file(STYLE, use_default_template=False)["axes.prop_cycle"]
    assert tuple(cycle.by_key()["color"]) == PALETTE


def test_importing_the_report_does_not_import_matplotlib_until_a_chart_is_drawn():
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import balance.cli, balance.report, balance.charts\n"
        "print('matplotlib' in sys.modules)\n"
        "balance.charts.new_axes()\n"
        "print('matplotlib' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]
