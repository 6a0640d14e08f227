"""Card Wars through the CLI: run (decks by name, every pairing, custom lists), report, compare, replay, scenario."""

from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from balance.cli import cli

SCENARIOS = Path(__file__).parent / "scenarios"


def invoke(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def every_pairing(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs")
    tables = "games,seats,cards,turns"  # the card rows are opt-in
    path = invoke(
        "run", "--game", "cardwars", "-n", 800, "--seed", 3, "--out", out, "--name", "all", "-q", "--tables", tables
    )
    return Path(path)


def test_a_plain_run_covers_all_16_pairings(every_pairing):
    games = pl.read_parquet(every_pairing / "games")
    pairs = games.select("deck_0", "deck_1").unique()
    assert pairs.height == 16
    assert set(games["end_reason"].unique()) <= {"hp_zero", "mutual_hp_zero", "timeout"}
    cards = pl.read_parquet(every_pairing / "cards")
    assert set(cards["first_lane"].unique()) <= {"none", "lane_1", "lane_2", "lane_3", "lane_4"}


def test_two_starter_decks_by_name(tmp_path):
    path = invoke("run", "--game", "cardwars", "--deck-names", "finn,jake", "-n", 200, "--out", tmp_path, "-q")
    seats = pl.read_parquet(Path(path) / "seats")
    assert seats.filter(pl.col("seat") == 0)["deck"].unique().to_list() == ["finn"]
    assert seats.filter(pl.col("seat") == 1)["deck"].unique().to_list() == ["jake"]


def test_custom_deck_lists_from_a_file(tmp_path):
    names = ("Phyllis", "Evil Eye", "Sand Angel", "The Pig", "Cool Dog", "Dragon Claw", "Fummy", "Shark",
             "Gnome Snot", "Teleport", "Blood Fortress", "Celestial Castle", "Punk Cat")  # fmt: skip
    rows = ["deck,card,copies"] + [f"mine,{n},3" for n in names]
    rows.append("mine,Husker Knight,1")
    decks = tmp_path / "decks.csv"
    decks.write_text("\n".join(rows) + "\n")
    path = invoke("run", "--game", "cardwars", "--decks", decks, "--deck-names", "mine,mine", "-n", 100,
                  "--out", tmp_path, "-q")  # fmt: skip
    assert set(pl.read_parquet(Path(path) / "seats")["deck"].unique()) == {"custom_0"}


def test_a_bad_custom_deck_is_one_line(tmp_path):
    decks = tmp_path / "decks.csv"
    decks.write_text("deck,card,copies\nmine,The Pig,4\n")
    result = CliRunner().invoke(cli, ["run", "--game", "cardwars", "--decks", str(decks), "--out", str(tmp_path)])
    assert result.exit_code != 0
    assert "4 copies of 'The Pig'; the rules allow 3" in result.output
    assert "Traceback" not in result.output


def test_the_report_has_the_matchup_matrix(every_pairing, tmp_path):
    html = Path(invoke("report", every_pairing, "--out", tmp_path / "report")).read_text()
    assert 'id="matchups"' in html
    assert "First mover" in html
    assert (tmp_path / "report" / "deck_matchups.png").exists()
    assert 'id="tempo"' in html


def test_compare_with_and_without_the_first_player_rule(tmp_path):
    out = invoke("compare", "--game", "cardwars", "--variants", "standard,no_first_player_rule", "-n", 300,
                 "--out", tmp_path / "runs", "--report-dir", tmp_path / "cmp", "-q")  # fmt: skip
    assert Path(out).read_text().count("first") > 0


def test_replay_prints_the_game(every_pairing):
    result = CliRunner().invoke(cli, ["replay", str(every_pairing), "5"])
    assert result.exit_code == 0, result.output
    assert "-- turn 1:" in result.output
    assert " deck " in result.output


def test_scenario_command_runs_the_rulebook_example():
    result = CliRunner().invoke(cli, ["scenario", str(SCENARIOS / "e1_husker_knight_and_the_pig.toml")])
    assert result.exit_code == 0, result.output
    assert "1 passed, 0 failed" in result.output
