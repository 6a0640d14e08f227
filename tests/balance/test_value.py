"""``balance value``: interval maths on known values, pairing beats independent samples, a planted effect is found,
sequential stopping, determinism across workers, outputs and errors."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner
from scipy import stats as sp

import balance.pairs
import sims
from balance import stats
from balance.cardfile import edit_cards
from balance.cli import cli
from balance.pairs import check_value_support, make_setup, play, pool_names
from balance.spec import SpecError
from balance.value import (
    SUMS,
    CardTally,
    S,
    ValueOptions,
    arms,
    card_values,
    dealt_cards,
    paired_interval,
    rank_correlation,
    value_batch,
    values_frame,
)

CARDINGER = make_setup("cardinger")
NAMES = pool_names(CARDINGER)


def sums_of(d: np.ndarray) -> np.ndarray:
    """Return batch sums for per-pair differences ``d`` in {-1, 0, 1} (wins_without = #(d == -1))."""
    out = np.zeros(len(SUMS), np.int64)
    out[S["n"]] = len(d)
    out[S["wins_with"]] = int((d == 1).sum())
    out[S["wins_without"]] = int((d == -1).sum())
    out[S["discordant"]] = int((d != 0).sum())
    return out


def test_paired_interval_equals_the_t_interval_of_the_differences():
    d = np.array([1] * 37 + [-1] * 21 + [0] * 142)
    delta, lo, hi, half = paired_interval(sums_of(d))
    mean, se = d.mean(), d.std(ddof=1) / np.sqrt(len(d))
    t = sp.t.ppf(0.975, len(d) - 1)
    assert delta == pytest.approx(16 / 200)
    assert (lo, hi) == pytest.approx((mean - t * se, mean + t * se), abs=1e-12)
    assert half == pytest.approx(t * se)


def test_paired_interval_known_value_and_edge_cases():
    s = np.zeros(len(SUMS), np.int64)
    s[[S["n"], S["wins_with"], S["wins_without"], S["discordant"]]] = 100, 60, 50, 30
    delta, lo, hi, half = paired_interval(s)
    # var = (30 - 100 * 0.01) / 99; t(99) = 1.98422
    assert half == pytest.approx(1.9842169515 * np.sqrt(29 / 99 / 100), rel=1e-9)
    assert delta == pytest.approx(0.1)
    assert (lo, hi) == pytest.approx((0.1 - half, 0.1 + half))
    none = paired_interval(np.zeros(len(SUMS), np.int64))
    assert np.isnan(none[0])
    assert none[3] == float("inf")
    same = paired_interval(sums_of(np.zeros(50, int)))
    assert same[:3] == (0.0, 0.0, 0.0)  # identical arms: an interval of zero width


def test_rank_correlation_matches_scipy_and_its_interval_contains_it():
    rng = np.random.default_rng(3)
    x = rng.normal(size=60)
    y = x + rng.normal(size=60)
    rho, lo, hi, n = rank_correlation(x, y)
    assert rho == pytest.approx(sp.spearmanr(x, y).statistic)
    assert lo < rho < hi
    assert n == 60
    assert np.isnan(rank_correlation([1, 2, 3], [3, 2, 1])[0])  # too few cards
    assert rank_correlation([1, 2, np.nan, 4, 5], [1, 2, 3, 4, 5])[3] == 4  # missing values dropped


def test_a_card_stops_at_the_first_batch_boundary_inside_the_target():
    tally = CardTally(0, "x")
    wide = sums_of(np.array([1, -1] * 50))  # half-width ~0.2
    narrow = sums_of(np.array([0] * 98 + [1, -1]))
    tally.add(1, narrow, half_width=0.08, min_pairs=150)  # out of order: waits for batch 0
    assert tally.used == 0
    tally.add(0, wide, half_width=0.08, min_pairs=150)
    assert tally.used == 2
    assert not tally.resolved  # 200 pairs, half-width ~0.10
    tally.add(2, narrow, half_width=0.08, min_pairs=150)
    assert tally.resolved
    assert tally.pairs == 300
    tally.add(3, wide, half_width=0.08, min_pairs=150)  # a batch already in flight: not used
    assert tally.pairs == 300


def test_paired_delta_has_lower_variance_than_unpaired_on_the_same_budget():
    """12 estimates of one card's Δ from 1 000 games per arm each: paired (same seeds) vs unpaired (other seeds)."""
    card = NAMES.index("Blood Knight")
    with_card, without = arms(CARDINGER, card, "same_cost")
    paired, unpaired = [], []
    for k in range(12):
        first = 1000 * k
        a = play(with_card, 5, first, 1000)["games"]
        b = play(without, 5, first, 1000)["games"]
        c = play(without, 6, first, 1000)["games"]  # independent games: another root seed
        won = [(g["winner"] == g["game"] % 2).mean() for g in (a, b, c)]
        paired.append(won[0] - won[1])
        unpaired.append(won[0] - won[2])
    assert np.var(paired, ddof=1) < 0.5 * np.var(unpaired, ddof=1)
    sums = value_batch(CARDINGER, card, "same_cost", 5, 0, 4000)
    half = paired_interval(sums)[3]
    k_with, k_without = int(sums[S["wins_with"]]), int(sums[S["wins_without"]])
    newcombe = stats.newcombe(k_with, 4000, k_without, 4000)
    assert half < 0.6 * (float(newcombe.hi) - float(newcombe.lo)) / 2


def test_a_card_made_much_stronger_gets_a_significantly_positive_delta(tmp_path):
    """Planted effect: Bumblebee (a weak 0-cost card, 1 HP, SCORE 1) given 5 HP, DEF 3 and SCORE 3.

    (Raising only its SCORE changes nothing against greedy: a 1-HP card with DEF 0 is destroyed
    before it can act, which the value of a SCORE 6 Bumblebee, equal to a SCORE 3 one, shows.)
    """
    path = tmp_path / "cards.csv"
    edits = {("Bumblebee", "hp"): "5", ("Bumblebee", "def"): "3", ("Bumblebee", "score"): "3"}
    edit_cards("cardinger", sims.load("cardinger").cards_path, edits, path)
    strong = make_setup("cardinger", cards_file=path)
    options = ValueOptions(cards=("Bumblebee",), workers=1, batch=1000, min_pairs=2000, half_width=0.02)
    planted, _ = card_values(strong, options)
    shipped, _ = card_values(CARDINGER, options)
    assert planted["ci_low"][0] > 0.2
    assert shipped["ci_high"][0] < planted["ci_low"][0]


def test_results_do_not_depend_on_the_number_of_workers():
    options = ValueOptions(cards=("Shark", "Pick Boy"), batch=800, min_pairs=1600, half_width=0.03, budget=300)
    one, _ = card_values(CARDINGER, replace(options, workers=1))
    two, summary = card_values(CARDINGER, replace(options, workers=2))
    assert one.equals(two)
    assert summary["workers"] == 2


def test_values_frame_schema_starts_as_the_issue_says():
    frame = values_frame([CardTally(3, "x", total=sums_of(np.array([1, 0, 0, -1, 1])))])
    assert frame.columns[:6] == ["card", "name", "delta", "ci_low", "ci_high", "n_pairs"]
    for column in ("gih_wr", "gih_wr_n", "gih_wr_lo", "gih_wr_hi", "iwd", "iwd_lo", "iwd_hi", "gp_wr", "played_wr"):
        assert column in frame.columns


def test_observational_metrics_come_from_the_holders_copy_in_the_same_games():
    card = NAMES.index("Shark")
    sums = value_batch(CARDINGER, card, "same_cost", 9, 0, 500)
    assert sums[S["gp_n"]] == 500  # the card is in the holder's deck in every arm-0 game
    assert sums[S["gp_k"]] == sums[S["wins_with"]]
    assert sums[S["gih_n"]] + sums[S["gns_n"]] == 500
    assert sums[S["oh_n"]] + sums[S["gd_n"]] == sums[S["gih_n"]]


def test_a_game_without_value_support_is_refused_plainly(monkeypatch):
    blessings = sims.load("blessings")
    monkeypatch.setattr(balance.pairs.sims, "load", lambda name: replace(blessings, value_baselines={}))
    with pytest.raises(SpecError, match="blessings does not support counterfactual card value yet"):
        check_value_support(make_setup("blessings"), None)


def test_unknown_card_and_baseline_are_one_line_errors():
    with pytest.raises(SpecError, match="card 'Nope' is not in the cardinger pool"):
        card_values(CARDINGER, ValueOptions(cards=("Nope",), workers=1))
    with pytest.raises(SpecError, match="--baseline 'average': cardinger offers same_cost, blank"):
        card_values(CARDINGER, ValueOptions(baseline="average", workers=1))


def test_value_command_writes_parquet_json_and_report_and_prints_each_card(tmp_path):
    out = tmp_path / "v"
    result = CliRunner().invoke(
        cli,
        ["value", "-g", "cardinger", "--card", "Shark", "--card", "Idealogue", "--half-width", "0.05",
         "--batch", "500", "--min-pairs", "1000", "-w", "1", "--out", str(out), "-q"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Shark" in result.output
    assert "2/2 cards within ±5.00 pp" in result.output
    values = pl.read_parquet(out / "values.parquet")
    assert values["name"].to_list() == ["Shark", "Idealogue"]
    assert (values["half_width"] <= 0.05).all()
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "Spearman" in html
    assert (out / "value_forest.png").is_file()
    assert (out / "value.json").is_file()


def test_value_report_escapes_card_names(tmp_path):
    path = tmp_path / "cards.csv"
    text = sims.load("cardinger").cards_path.read_text(encoding="utf-8").replace(",Shark,", ",<b>Shark</b>,")
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "v"
    result = CliRunner().invoke(
        cli,
        ["value", "-g", "cardinger", "--cards", str(path), "--card", "<b>Shark</b>", "--half-width", "0.2",
         "--batch", "200", "--min-pairs", "200", "-w", "1", "--out", str(out), "-q"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "&lt;b&gt;Shark&lt;/b&gt;" in html
    assert "<b>Shark</b>" not in html


def test_the_run_report_reads_the_values_balance_value_writes(tmp_path):
    """The report of a run made with the same pool flags cards by these Δ (balance report --values DIR)."""
    runner = CliRunner()
    made = runner.invoke(cli, ["run", "-g", "cardinger", "-n", "400", "--out", str(tmp_path), "--name", "r", "-q"])
    assert made.exit_code == 0, made.output
    valued = runner.invoke(
        cli,
        ["value", "-g", "cardinger", "--card", "Furry Thief", "--card", "Demon Whiptail", "--half-width", "0.05",
         "--batch", "500", "--min-pairs", "1000", "-w", "1", "--out", str(tmp_path / "v"), "-q"],
    )  # fmt: skip
    assert valued.exit_code == 0, valued.output
    report = runner.invoke(
        cli, ["report", str(tmp_path / "r"), "--values", str(tmp_path / "v"), "--out", str(tmp_path / "rep")]
    )
    assert report.exit_code == 0, report.output
    html = (tmp_path / "rep" / "index.html").read_text(encoding="utf-8")
    assert "counterfactual value" in html
    assert "Furry Thief" in html


def test_the_engine_values_blessings_cards_through_its_own_baselines(tmp_path):
    """Any game with the value interface works: Blessings (split decks) with either of its baselines.

    Planted effect: spade:2 (Attack 2, Impact 1) given Attack 40 and Impact 9 is worth clearly more than the shipped
    card.
    """
    setup = make_setup("blessings", variant="split_deck")
    assert check_value_support(setup, None)[1] == "blank"
    path = tmp_path / "cards.csv"
    edits = {("spade:2", "attack"): "40", ("spade:2", "impact"): "9"}
    edit_cards("blessings", sims.load("blessings").cards_path, edits, path)
    strong = make_setup("blessings", variant="split_deck", cards_file=path)
    for baseline in ("blank", "next_suit"):
        options = ValueOptions(baseline=baseline, cards=("spade:2",), workers=1, batch=1000, min_pairs=2000,
                               half_width=0.03, budget=1e6)  # fmt: skip
        shipped, summary = card_values(setup, options)
        planted, _ = card_values(strong, options)
        assert summary["baseline"] == baseline
        assert shipped["n_pairs"][0] >= 2000
        assert shipped["ci_low"][0] <= shipped["delta"][0] <= shipped["ci_high"][0]
        assert shipped["ci_high"][0] < planted["ci_low"][0]
        assert planted["ci_low"][0] > 0


def test_a_card_file_rewritten_in_place_is_played_as_rewritten(tmp_path):
    """The per-process cache of prepared setups is keyed by the card file's content, not only its path."""
    path = tmp_path / "cards.csv"
    source = sims.load("cardinger").cards_path
    edit_cards("cardinger", source, {("Bumblebee", "score"): "1"}, path)
    setup = make_setup("cardinger", cards_file=path)
    card = NAMES.index("Bumblebee")
    assert int(balance.pairs.resolved(setup).pool.table["score"][card]) == 1
    edit_cards("cardinger", source, {("Bumblebee", "score"): "5"}, path)
    assert int(balance.pairs.resolved(setup).pool.table["score"][card]) == 5


def test_every_card_means_every_card_the_decks_deal():
    """Cardia's pool holds decks I and II; under deck I only deck I's 16 cards can be valued, deck II's are listed."""
    setup = make_setup("cardia")
    names = pool_names(setup)
    dealt, left = dealt_cards(setup, names, "blank")
    assert len(names) == 32
    assert len(dealt) == 16
    assert len(left) == 16
    assert "Djinn" in dealt
    assert "Mechanical Djinn" in left
    dealt_ii, left_ii = dealt_cards(setup.with_params(deck=1), names, "blank")
    assert set(dealt_ii) == set(left)
    assert set(left_ii) == set(dealt)
    with pytest.raises(SpecError, match="needs one deck"):
        dealt_cards(setup.with_params(deck=3), names, "blank")  # deck = sweep: no card can be valued


def test_a_card_that_changes_no_paired_result_is_named_as_playing_like_its_baseline(tmp_path):
    """Δ = 0 with a zero-width interval (every pair the same result) is said plainly, not shown as a measured 0."""
    from balance.report.value import unchanged, value_summary, write_value_report

    same = np.zeros(5000, np.int64)  # every pair the same result
    balanced = np.r_[np.ones(40, np.int64), -np.ones(40, np.int64), np.zeros(4920, np.int64)]
    weaker = np.r_[-np.ones(180, np.int64), np.zeros(8820, np.int64)]
    tallies = [CardTally(0, "Drooling Dude", total=sums_of(same))]
    tallies.append(CardTally(1, "Husker Knight", total=sums_of(balanced)))
    for t in tallies:
        t.resolved = True
    values = values_frame([*tallies, CardTally(2, "Cool Dog", total=sums_of(weaker))])
    assert unchanged(values)["name"].to_list() == ["Drooling Dude"]  # Husker Knight: Δ 0 but pairs differed
    summary = {"half_width": 0.005, "elapsed_s": 1.0, "workers": 1, "pairs_used": 19000, "baseline": "vanilla"}
    lines = value_summary(values, summary)
    named = [s for s in lines if "changed no result" in s]
    assert len(named) == 1
    assert "Drooling Dude" in named[0]
    assert "Husker Knight" not in named[0]
    summary |= {"baseline_note": "a vanilla Creature", "game": "cardwars", "variant": "default", "bots": ["greedy"]}
    html = write_value_report(values, summary, tmp_path).read_text(encoding="utf-8")
    assert html.count(">yes: no result changed<") == 1  # Drooling Dude only
