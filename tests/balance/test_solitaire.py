"""One-seat (solitaire) runs: metrics with hand-counted answers, the report and the comparison.

The ``solo_run`` fixture (conftest ``SESSIONS`` and ``INVENTORY``, CardRPG record dtypes)
documents every answer asserted here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from balance import metrics, stats
from balance.io import Run
from balance.report import write_compare_report, write_report

T2 = 4.302652729911275  # two-sided 95 % Student t quantile, 2 degrees of freedom


def _row(df: pl.DataFrame, **where: Any) -> dict[str, Any]:
    rows = df.filter(*(pl.col(k) == v for k, v in where.items()))
    assert rows.height == 1, where
    return rows.row(0, named=True)


def _wilson(k: int, n: int) -> tuple[float, float, float]:
    est, lo, hi = stats.wilson(k, n)
    return float(est), float(lo), float(hi)


# -- what makes a run solitaire ------------------------------------------------------------------
def test_run_is_solitaire_from_the_manifest_or_else_from_its_seats(
    solo_run: Run, small_run: Run, battle_run: Run, make_solo_run: Callable[..., Run]
) -> None:
    assert solo_run.manifest["seats"] == 1
    assert (solo_run.n_seats, solo_run.solitaire) == (1, True)
    unrecorded = make_solo_run("old", seats_in_manifest=False)
    assert "seats" not in unrecorded.manifest
    assert (unrecorded.n_seats, unrecorded.solitaire) == (1, True)
    assert (small_run.n_seats, small_run.solitaire) == (2, False)
    assert battle_run.n_seats == 2


def test_outcome_group_and_descriptor_columns_of_a_session_table(solo_run: Run) -> None:
    outcomes = metrics.outcome_columns(solo_run.games)
    assert "character_id" not in outcomes  # keys, not measures
    assert "session_index" not in outcomes
    for c in ("level_end", "kills", "deaths", "jokers_killed", "battles", "xp_end"):
        assert c in outcomes
    assert metrics.group_columns(solo_run.games) == ["class_card"]
    fixed = metrics.descriptor_columns(solo_run.games, "class_card")
    assert {"class_rank", "class_suit", "level_start"} <= set(fixed)
    assert not {"kills", "deaths", "level_end", "xp_end", "battles"} & set(fixed)


# -- session outcomes ------------------------------------------------------------------------------
def test_outcomes_of_a_game_without_winner_are_its_end_reasons(solo_run: Run) -> None:
    out = metrics.outcomes(solo_run.games)
    assert out["kind"].unique().to_list() == ["end_reason"]
    counts = dict(zip(out["value"], out["count"], strict=True))
    assert counts == {"draw_failed_attack_pile": 1, "draw_failed_hand": 2, "draw_failed_monster": 3}
    assert out["n"].unique().to_list() == [6]


def test_group_outcomes_by_class_match_hand_counts(solo_run: Run) -> None:
    out = metrics.group_outcomes(solo_run.games, columns=["kills", "deaths", "level_end", "battles"])
    assert out.columns[:2] == ["class_card", "counter"]
    kills = _row(out, class_card="spade_king", counter="kills")
    assert (kills["n"], kills["mean"], kills["sd"]) == (3, 2.0, 1.0)
    assert kills["lo"] == pytest.approx(2 - T2 / math.sqrt(3))
    assert kills["hi"] == pytest.approx(2 + T2 / math.sqrt(3))
    assert _row(out, class_card="heart_jack", counter="kills")["mean"] == 1.0
    assert _row(out, class_card="heart_jack", counter="deaths")["mean"] == pytest.approx(4 / 3)
    assert _row(out, class_card="spade_king", counter="level_end")["mean"] == pytest.approx(8 / 3)
    assert _row(out, class_card="heart_jack", counter="battles")["mean"] == 3.0


def test_level_reached_counts_games_ending_at_or_above_each_level(solo_run: Run) -> None:
    overall = metrics.level_reached(solo_run.games)
    assert overall.select("level", "n", "count").rows() == [(2, 6, 5), (3, 6, 2)]
    assert overall.select("rate", "lo", "hi").row(0) == pytest.approx(_wilson(5, 6))
    by_class = metrics.level_reached(solo_run.games, by="class_card")
    assert by_class.select("class_card", "level", "count").rows() == [
        ("heart_jack", 2, 2),
        ("heart_jack", 3, 0),
        ("spade_king", 2, 3),
        ("spade_king", 3, 2),
    ]
    assert _row(by_class, class_card="heart_jack", level=3)["hi"] == pytest.approx(_wilson(0, 3)[2])


def test_level_progression_is_the_first_battle_at_or_above_each_level(solo_run: Run) -> None:
    out = metrics.level_progression(solo_run.turns)
    assert out.select("level", "n", "mean", "median", "min", "max").rows() == [
        (1, 6, 1.0, 1.0, 1.0, 1.0),
        (2, 4, 2.5, 2.5, 2.0, 3.0),  # sessions 0, 2, 3, 5 at battles 3, 2, 3, 2 (session 2 jumps to 3)
        (3, 1, 2.0, 2.0, 2.0, 2.0),  # session 0 ends at level 3 but never fights there
    ]
    assert _row(out, level=2)["sd"] == pytest.approx(math.sqrt(1 / 3))


def test_level_progression_does_not_depend_on_row_order(solo_run: Run) -> None:
    turns = solo_run.turns.collect()
    shuffled = turns.sample(fraction=1.0, shuffle=True, seed=7)
    assert not shuffled["game"].is_sorted()
    assert metrics.level_progression(shuffled.lazy()).equals(metrics.level_progression(turns.lazy()))


def test_step_outcomes_give_the_death_rate_by_level_and_by_monster_kind(solo_run: Run) -> None:
    total = metrics.step_outcomes(solo_run.turns)
    assert dict(zip(total["outcome"], total["count"], strict=True)) == {
        "abandoned": 1,
        "died": 5,
        "forfeit": 1,
        "won": 9,
    }
    by_level = metrics.step_outcomes(solo_run.turns, by="level").filter(pl.col("outcome") == "died")
    assert by_level.select("level", "count", "n").rows() == [(1, 2, 9), (2, 3, 6), (3, 0, 1)]
    assert by_level.select("rate", "lo", "hi").row(1) == pytest.approx(_wilson(3, 6))
    by_kind = metrics.step_outcomes(solo_run.turns, by="monster_kind").filter(pl.col("outcome") == "died")
    assert by_kind.select("monster_kind", "count", "n").rows() == [
        ("ace", 1, 1),
        ("face", 1, 4),
        ("joker", 1, 2),
        ("number", 2, 9),
    ]
    cross = metrics.step_outcomes(solo_run.turns, by=["level", "monster_kind"])
    died = _row(cross, level=2, monster_kind="number", outcome="died")
    assert (died["count"], died["n"]) == (1, 3)
    direct = metrics.step_outcomes(solo_run.turns, by="monster_kind")
    assert metrics.rollup_outcomes(cross, "monster_kind").equals(direct)


def test_solitaire_metrics_name_the_column_a_duel_run_lacks(small_run: Run) -> None:
    with pytest.raises(ValueError, match=r"games column\(s\) \['level_end'\]"):
        metrics.level_reached(small_run.games)
    with pytest.raises(ValueError, match=r"turns column\(s\) \['level'\]"):
        metrics.level_progression(small_run.turns)
    with pytest.raises(ValueError, match=r"turns column\(s\) \['outcome'\]"):
        metrics.step_outcomes(small_run.turns)


# -- cards: no results, only what came into play --------------------------------------------------
def test_card_summary_without_results_gives_incidence_and_counter_means(solo_run: Run) -> None:
    assert not metrics.has_card_values(solo_run.cards)
    values, counters, by_attribute = metrics.card_summary(solo_run.cards, solo_run.card_dim, solo_run.seats)
    assert values.select("name", "count", "n").rows() == [("spade:ace", 2, 6), ("heart:5", 2, 6), ("club:king", 1, 6)]
    assert values.select("rate", "lo", "hi").row(2) == pytest.approx(_wilson(1, 6))
    assert _row(counters, name="spade:ace", counter="damage")["mean"] == 3.5
    assert _row(counters, name="spade:ace", counter="times_used")["mean"] == 0.5
    assert _row(counters, name="heart:5", counter="hp_restored")["mean"] == 6.5
    assert _row(counters, name="club:king", counter="extra_attacks")["n"] == 1
    suit = by_attribute.filter(pl.col("attribute") == "suit")
    assert suit["value"].to_list() == ["spade", "heart", "club"]
    assert suit["gp_wr"].is_null().all()
    assert not by_attribute["mirror_decks"].any()
    heart = _row(by_attribute, attribute="kind", value="number")
    assert (heart["n"], heart["hp_restored"]) == (2, 6.5)
    assert metrics.card_incidence(solo_run.cards, 6, solo_run.card_dim).equals(values)


# -- the report ---------------------------------------------------------------------------------------
SOLO_SECTIONS = ("overview", "win-rates", "first-seat", "outcomes", "game-length", "groups", "levels")
SOLO_SECTIONS += ("step-outcomes", "cards", "card-attributes", "tempo", "seat-counters", "methods")
SOLO_CHARTS = ("game_length", "group_0_kills", "level_progression", "step_outcomes_0", "step_outcomes_1")
SOLO_CHARTS += ("card_incidence", "card_attributes")


@pytest.fixture(scope="module")
def solo_report(solo_run: Run, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("solo-report")
    return out, write_report(solo_run, out).read_text(encoding="utf-8")


def test_solo_report_has_the_solitaire_sections_and_charts(solo_report: tuple[Path, str]) -> None:
    out, html = solo_report
    for anchor in SOLO_SECTIONS:
        assert f'<section id="{anchor}">' in html, anchor
    order = [html.index(f'<section id="{a}">') for a in ("game-length", "groups", "levels", "step-outcomes", "cards")]
    assert order == sorted(order)
    for chart in SOLO_CHARTS:
        assert (out / f"{chart}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", chart
    assert html.count('src="data:image/png;base64,') == len(SOLO_CHARTS)
    for text in ("<h3>By class card</h3>", "spade_king", "heart_jack", "level ≥ 3", "Battles to reach each level"):
        assert text in html, text
    assert "How battles end" in html
    assert "<h3>By level × monster kind</h3>" in html
    assert "End reasons, by class card" in html
    assert "Fixed by the class card" in html
    assert "Game length in battles" in html or "battles per game" in html
    assert "One-seat game" in html  # the methods say which definitions apply
    counters = html[html.index('<section id="seat-counters">') : html.index('<section id="methods">')]
    assert "<th>kills</th>" in counters
    assert "<th>class_rank</th>" not in counters  # fixed by the class: a group fact, not a counter
    assert "<th>class_card</th>" not in counters  # the seats table's class code is a label


def test_solo_report_skips_duel_sections_with_a_note(solo_report: tuple[Path, str]) -> None:
    out, html = solo_report
    notes = re.findall(r'<p class="note">(.*?)</p>', html)
    assert any("no win rates" in n for n in notes)
    assert any("Single-seat game" in n for n in notes)
    assert any("tempo needs two seats" in n for n in notes)
    assert any("card win rates (GP WR, GIH WR, IWD ...) do not apply" in n for n in notes)
    for chart in ("win_rates", "first_seat_advantage", "tempo", "lead_changes", "card_gih_wr", "card_iwd"):
        assert not (out / f"{chart}.png").exists(), chart
    assert "GIH WR per card" not in html
    assert "Outcomes: end reasons" in html  # no decided / no-winner rows
    assert "End reason × class card" not in html  # shown by class in the groups section instead


def test_solo_report_without_cards_and_turns_keeps_the_games_sections(
    make_solo_run: Callable[..., Run], tmp_path: Path
) -> None:
    run = make_solo_run("lean", tables=("games", "seats"))
    out = tmp_path / "lean-report"
    html = write_report(run, out).read_text(encoding="utf-8")
    assert "did not record the cards table" in html
    assert "turns.outcome column; battle outcomes skipped" in html
    assert "<h3>Levels reached</h3>" in html  # from games.level_end alone
    assert (out / "group_0_kills.png").exists()
    assert not (out / "level_progression.png").exists()


# -- comparing two one-seat runs ----------------------------------------------------------------------
@pytest.fixture
def solo_pair(solo_run: Run, solo_run_b: Run) -> tuple[Run, Run]:
    """Runs A and B of conftest ``KILLS_B``: kill differences 1, 0, 0, 0, 1, 1 per session."""
    return solo_run, solo_run_b


def test_compare_runs_of_one_seat_games_pairs_the_session_outcomes(solo_pair: tuple[Run, Run]) -> None:
    out = metrics.compare_runs(*solo_pair)
    keys = out["metric"].to_list()
    assert not [k for k in keys if "win_rate" in k or k == "no_winner_rate"]
    assert not [k for k in keys if k in ("mean[character_id]", "mean[session_index]", "mean[class_rank]")]
    kills = _row(out, metric="mean[kills]")
    assert (kills["n"], kills["value_a"], kills["value_b"], kills["delta"]) == (6, 1.5, 1.0, 0.5)
    half = 2.570581835636314 * math.sqrt(0.3 / 6)  # t(5) * sd / sqrt(n); differences 1, 0, 0, 0, 1, 1
    assert (kills["lo"], kills["hi"]) == pytest.approx((0.5 - half, 0.5 + half))
    assert kills["label"] == "Mean kills per game"
    deaths = _row(out, metric="mean[deaths]")
    assert (deaths["delta"], deaths["significant"]) == (0.0, False)
    length = _row(out, metric="game_length")
    assert (length["unit"], length["delta"]) == ("battles", 0.0)
    assert _row(out, metric="end_reason[draw_failed_monster]")["value_a"] == 0.5


def test_compare_groups_gives_the_paired_difference_per_class(solo_pair: tuple[Run, Run]) -> None:
    a, b = solo_pair
    assert "class_rank" in metrics.fixed_columns(a, b)["class_card"]
    out = metrics.compare_groups(a, b)
    assert set(out["column"]) == {"class_card"}
    assert "class_rank" not in out["metric"].to_list()
    spade = _row(out, group="spade_king", metric="kills")  # differences 1, 0, 1
    assert (spade["n"], spade["delta"]) == (3, pytest.approx(2 / 3))
    assert spade["hi"] - spade["delta"] == pytest.approx(T2 * math.sqrt(1 / 3) / math.sqrt(3))
    heart = _row(out, group="heart_jack", metric="kills")  # differences 0, 0, 1
    assert (heart["value_a"], heart["value_b"], heart["delta"]) == (1.0, pytest.approx(2 / 3), pytest.approx(1 / 3))
    same = _row(out, group="heart_jack", metric="deaths")
    assert (same["delta"], same["significant"]) == (0.0, False)


def test_compare_report_of_one_seat_runs_shows_deltas_by_class(solo_pair: tuple[Run, Run], tmp_path: Path) -> None:
    out = tmp_path / "solo-cmp"
    html = write_compare_report(*solo_pair, out).read_text(encoding="utf-8")
    for anchor in ("overview", "summary", "headline", "groups", "cards"):
        assert f'<section id="{anchor}">' in html, anchor
    assert "Mean kills per game" in html
    assert "Seat 0 win rate" not in html
    assert "<h3>By class card</h3>" in html
    assert (out / "comparison.png").exists()
    assert (out / "group_delta_0_kills.png").exists()
    assert "card comparison needs" in html
    assert not (out / "card_gih_wr_delta.png").exists()
