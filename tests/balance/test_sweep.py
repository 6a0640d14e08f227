"""``balance sweep``: value parsing, targets, paired points, card-file copies, outputs, errors."""

from __future__ import annotations

import hashlib
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

import sims
from balance.cli import cli
from balance.cli.lab import sweep_target
from balance.pairs import make_setup
from balance.spec import SpecError
from balance.sweep import SweepOptions, Target, parse_target, parse_values, plan_sweep, run_sweep, write_sweep

SMALL = SweepOptions(n_games=600, value_pairs=600, workers=1, batch=300)


def test_parse_values_grid_list_and_random():
    assert parse_values("15:25:5", integer=True) == [15, 20, 25]
    assert parse_values("2:4", integer=True) == [2, 3, 4]
    assert parse_values("0.5:1.5:0.5", integer=False) == [0.5, 1.0, 1.5]
    assert parse_values("3,1,2", integer=True) == [3, 1, 2]
    drawn = parse_values("0:100", integer=True, random=5, seed=3)
    assert len(drawn) == len(set(drawn)) == 5
    assert drawn == sorted(drawn)
    assert all(0 <= v <= 100 for v in drawn)
    assert drawn == parse_values("0:100", integer=True, random=5, seed=3)  # seeded
    floats = parse_values("0:1", integer=False, random=4, seed=1)
    assert all(0 <= v <= 1 for v in floats)


@pytest.mark.parametrize("text", ["a:b", "5:1", "1:2:0", "1:2:3:4", "", "x,y"])
def test_parse_values_errors_are_one_line(text):
    with pytest.raises(SpecError, match="sweep values"):
        parse_values(text, integer=True)


def test_parse_target_kinds():
    assert parse_target("param", "target_score=15:25") == (Target("param", "target_score"), "15:25")
    assert parse_target("weight", "greedy.score=0:2:1") == (Target("weight", "score", "greedy"), "0:2:1")
    target, values = parse_target("card", "Sea Dragon.cost=2:6")
    assert (target.owner, target.key, target.label, values) == ("Sea Dragon", "cost", "Sea Dragon.cost", "2:6")
    with pytest.raises(SpecError, match="must name its card"):
        parse_target("card", "cost=2:6")


def test_the_swept_flag_is_the_one_with_a_range():
    flags = {"params": ("card_sets=starter,booster1", "target_score=15:25", "max_turns=300"), "weights": ()}
    assert sweep_target(flags, None) == ("param", "target_score=15:25")
    assert flags["params"] == ("card_sets=starter,booster1", "max_turns=300")  # fixed overrides stay
    with pytest.raises(SpecError, match="exactly one range"):
        sweep_target({"params": ("a=1:2",), "weights": ("greedy.score=1,2",)}, None)
    with pytest.raises(SpecError, match="exactly one range"):
        sweep_target({"params": ("max_turns=300",), "weights": ()}, None)


def test_rule_parameter_sweep_is_paired_and_shows_its_effect(tmp_path):
    setup = make_setup("cardinger")
    plan = plan_sweep(setup, Target("param", "target_score"), [12, 20, 28], tmp_path)
    assert plan.reference == 1  # the current value
    result = run_sweep(plan, SMALL)
    points = result["points"]
    length = points.filter(pl.col("metric") == "game_length").sort("value")
    assert length["estimate"].is_sorted()
    assert length["delta"][1] == 0.0  # the reference against itself
    assert length["delta_hi"][0] < 0 < length["delta_lo"][2]  # shorter and longer games, paired intervals
    games = result["games"]
    assert games.height == 3 * 600
    seeds = games.group_by("point").agg(pl.col("seed").sort()).sort("point")["seed"].to_list()
    assert seeds[0] == seeds[1] == seeds[2]  # every point plays the same seeded games
    write_sweep(result, tmp_path / "out")
    assert pl.read_parquet(tmp_path / "out" / "points.parquet").height == points.height


def test_card_sweep_writes_copies_adds_the_cards_delta_and_never_edits_the_original(tmp_path):
    original = sims.load("cardinger").cards_path
    before = hashlib.sha256(original.read_bytes()).hexdigest()
    setup = make_setup("cardinger")
    plan = plan_sweep(setup, Target("card", "hp", "Bumblebee"), [1, 5], tmp_path)
    result = run_sweep(plan, SMALL)
    assert hashlib.sha256(original.read_bytes()).hexdigest() == before
    copies = sorted((tmp_path / "cards").glob("*.csv"))
    assert len(copies) == 2
    assert ",Bumblebee,0,5," in copies[1].read_text(encoding="utf-8")
    delta = result["points"].filter(pl.col("metric") == "card_delta").sort("value")
    assert delta.height == 2
    assert delta["estimate"][1] > delta["estimate"][0]  # a sturdier Bumblebee is worth more


def test_weight_sweep_and_a_blessings_rule_sweep_run(tmp_path):
    weight = plan_sweep(make_setup("cardinger"), Target("weight", "score", "greedy"), [0.5, 2.0], tmp_path)
    assert run_sweep(weight, SMALL)["points"].height
    blessings = plan_sweep(make_setup("blessings"), Target("param", "face_bonus"), [0, 5, 10], tmp_path)
    points = run_sweep(blessings, SMALL)["points"]
    assert set(points["point"].to_list()) == {0, 1, 2}
    assert "first_seat_win_rate" in points["metric"].to_list()


def test_card_sweep_of_a_game_without_value_support_skips_the_cards_delta_and_says_so(tmp_path, monkeypatch):
    from dataclasses import replace

    import balance.sweep

    blessings = sims.load("blessings")
    monkeypatch.setattr(balance.sweep.sims, "load", lambda name: replace(blessings, value_baselines={}))
    plan = plan_sweep(make_setup("blessings"), Target("card", "attack", "heart:2"), [2, 9], tmp_path)
    result = run_sweep(plan, SMALL)
    assert "card_delta" not in result["points"]["metric"].to_list()
    assert any("no value baseline" in n for n in result["summary"]["notes"])


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (Target("param", "warp"), "unknown parameter 'warp'"),
        (Target("param", "value_card"), "set by balance value"),
        (Target("weight", "score", "tuned"), "bot 'tuned' plays no seat"),
        (Target("weight", "nope", "greedy"), "has no weight 'nope'"),
        (Target("card", "cost", "Nobody"), "no card named 'Nobody'"),
        (Target("card", "speed", "Shark"), "no column 'speed'"),
    ],
)
def test_bad_targets_are_one_line_errors(tmp_path, target, message):
    with pytest.raises(SpecError, match=message):
        plan_sweep(make_setup("cardinger"), target, [1, 2], tmp_path)


def test_card_value_the_game_refuses_names_the_copy_line_and_column(tmp_path):
    with pytest.raises(SpecError, match=r"point-001-cards\.csv:\d+: column 'hp': 0 is outside 1\.\.9"):
        plan_sweep(make_setup("cardinger"), Target("card", "hp", "Shark"), [1, 0], tmp_path)


def test_sweep_command_writes_dataset_and_report(tmp_path: Path):
    out = tmp_path / "s"
    result = CliRunner().invoke(
        cli,
        ["sweep", "-g", "cardinger", "--param", "opening_hand=3:5", "-n", "400", "-w", "1", "--out", str(out), "-q"],
    )
    assert result.exit_code == 0, result.output
    assert (out / "index.html").is_file()
    assert pl.read_parquet(out / "games.parquet").height == 1200
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "opening_hand" in html
    assert "95 %" in html
