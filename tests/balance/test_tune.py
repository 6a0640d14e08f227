"""``balance tune``: the paired ratio interval on known values, candidate edits, each objective end to end (small),
proposals verified on fresh seeds, the user's card file never edited."""

from __future__ import annotations

import hashlib

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner
from scipy import stats as sp

import sims
from balance.cli import cli
from balance.pairs import make_setup
from balance.spec import SpecError
from balance.tune import TuneOptions, outcome_codes, param_candidates, ratio_change, tune, write_tune

TINY = TuneOptions(search_games=800, verify_games=1600, workers=1, batch=400, max_proposals=1)


def test_ratio_change_matches_the_delta_method_computed_game_by_game():
    table = np.array([300, 40, 2, 25, 310, 1, 3, 4, 15])  # [before outcome, after outcome]; 0 won, 1 lost, 2 draw
    before = np.repeat(np.repeat([0, 1, 2], 3), table)
    after = np.repeat(np.tile([0, 1, 2], 3), table)
    r = ratio_change(table)
    n = len(before)
    won_b, dec_b, won_a, dec_a = (before == 0), (before < 2), (after == 0), (after < 2)
    r_b, r_a = won_b.sum() / dec_b.sum(), won_a.sum() / dec_a.sum()
    z = (won_a - r_a * dec_a) / dec_a.mean() - (won_b - r_b * dec_b) / dec_b.mean()
    half = sp.t.ppf(0.975, n - 1) * z.std(ddof=1) / np.sqrt(n)
    assert r["before"] == pytest.approx(r_b)
    assert r["after"] == pytest.approx(r_a)
    assert r["change"] == pytest.approx(r_a - r_b)
    assert (r["change_lo"], r["change_hi"]) == pytest.approx((r_a - r_b - half, r_a - r_b + half))
    assert r["n"] == n


def test_ratio_change_of_identical_arms_is_zero_with_no_width():
    r = ratio_change(np.diag([50, 40, 10]).ravel())
    assert (r["change"], r["change_lo"], r["change_hi"]) == (0.0, 0.0, 0.0)


def test_outcome_codes_follow_the_measured_seat():
    games = np.zeros(4, dtype=[("winner", "i1"), ("first_seat", "i1")])
    games["winner"], games["first_seat"] = [0, 1, -1, 1], [0, 0, 1, 1]
    assert outcome_codes(games, "first_win").tolist() == [0, 1, 2, 0]
    assert outcome_codes(games, "seat1_win").tolist() == [1, 0, 2, 0]


def test_param_candidates_are_small_playable_edits():
    labels = [c.label for c in param_candidates(make_setup("cardinger"))]
    assert "target_score = 19 (was 20)" in labels
    assert "target_score = 22 (was 20)" in labels
    assert "play_limit = unlimited (was half_hand_up)" in labels
    assert not [x for x in labels if x.startswith(("value_", "max_turns", "card_sets"))]
    assert not [x for x in labels if "fixed" in x]  # a fixed deck needs a deck file
    only = param_candidates(make_setup("cardinger"), ("opening_hand",))
    assert {c.params[0][0] for c in only} == {"opening_hand"}


def test_first_seat_tune_verifies_its_proposal_on_fresh_seeds(tmp_path):
    # a first-turn draw gives the first seat about +10 pp: undoing it is the obvious proposal
    setup = make_setup("cardinger", params={"first_turn_draw": 1})
    options = TuneOptions(**{**TINY.__dict__, "params": ("opening_hand", "first_turn_draw")})
    result = tune(setup, "first_seat", options, tmp_path)
    assert result.summary["verify_seed"] != result.summary["seed"]
    assert result.search.height >= 3
    assert result.verified.height == 1
    row = result.verified.row(0, named=True)
    assert row["n"] == 1600
    assert row["before_lo"] <= row["before"] <= row["before_hi"]
    assert row["change_lo"] <= row["change"] <= row["change_hi"]
    assert row["edit"] == "first_turn_draw = 0 (was 1)"
    assert row["improved"]  # the verification on fresh seeds: the advantage fell beyond its interval
    assert row["change_hi"] < 0
    assert abs(row["after"]) < abs(row["before"])
    write_tune(result, tmp_path / "out")
    assert pl.read_parquet(tmp_path / "out" / "verified.parquet").height == 1


def test_gradient_tune_reports_the_current_margin_and_each_match_up(tmp_path):
    options = TuneOptions(**{**TINY.__dict__, "params": ("opening_hand",)})
    result = tune(make_setup("cardinger"), "gradient", options, tmp_path)
    assert result.summary["tiers"] == ["random", "greedy", "tuned"]
    assert result.summary["current_margin"] > 0.05  # tuned beats greedy beats random
    if result.verified.height:
        assert set(result.verified["match_up"]) == {"greedy vs random", "tuned vs random", "tuned vs greedy"}


def test_cards_tune_writes_a_proposed_copy_and_never_the_original(tmp_path):
    original = sims.load("cardinger").cards_path
    before = hashlib.sha256(original.read_bytes()).hexdigest()
    options = TuneOptions(**{**TINY.__dict__, "value_half_width": 0.06, "batch": 500})
    result = tune(make_setup("cardinger"), "cards", options, tmp_path)
    assert hashlib.sha256(original.read_bytes()).hexdigest() == before
    assert result.summary["outliers"] >= 1
    assert result.proposed_file is not None
    assert result.proposed_file.parent == tmp_path
    assert result.proposed_file.read_text(encoding="utf-8") != original.read_text(encoding="utf-8")
    row = result.verified.row(0, named=True)
    assert row["edit"].startswith(row["card"] + ": ")
    assert row["change_lo"] <= row["change"] <= row["change_hi"]
    # every searched edit played its own card file (steps -1 and -2 once shared one: hash(-1) == hash(-2))
    assert len(list((tmp_path / "search").glob("*.csv"))) == result.search.height


def test_first_seat_is_refused_for_a_solitaire_game_whose_gradient_compares_an_outcome(tmp_path):
    with pytest.raises(SpecError, match="needs a two-seat game"):
        tune(make_setup("cardrpg"), "first_seat", TINY, tmp_path)
    options = TuneOptions(**{**TINY.__dict__, "params": ("theft_chance_pct",), "max_proposals": 1})
    result = tune(make_setup("cardrpg"), "gradient", options, tmp_path)
    assert result.summary["outcome"] == "kills"
    assert result.summary["current_margin"] > 0.05  # planner kills more than greedy, greedy than random
    if result.verified.height:
        row = result.verified.row(0, named=True)
        assert row["change_lo"] <= row["change"] <= row["change_hi"]
        assert row["n"] == 1600
    with pytest.raises(SpecError, match="--objective 'speed'"):
        tune(make_setup("cardinger"), "speed", TINY, tmp_path)


def test_tune_command_prints_the_proposals_and_writes_the_report(tmp_path):
    out = tmp_path / "t"
    result = CliRunner().invoke(
        cli,
        ["tune", "-g", "blessings", "--objective", "first_seat", "--search", "turn_draw", "--search-games", "600",
         "--verify-games", "1200", "--proposals", "1", "-w", "1", "--out", str(out), "-q"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Objective first_seat" in result.output
    assert "turn_draw" in result.output
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "Before and after (fresh seeds)" in html
