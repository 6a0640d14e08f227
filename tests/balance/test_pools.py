"""Issue 14: copy a game's card file anywhere, edit one card, compare — a truly paired comparison.

For each game with a card pool: the copy loads the same pool without its neighbours; a
stat edit keeps every deck identical on the same seeds; the games that differ all hold the
edited card; ``balance compare`` shows the card-level diff and the edited card's paired Δ.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

import sims
from balance.cli import cli
from balance.io import load_run
from balance.metrics.pools import aligned_decks, compare_pools, pool_diff
from balance.run import run
from balance.spec import RunSpec
from sims.core import TABLES

CARDINGER = sims.load("cardinger")
BLOOD_KNIGHT = ("Booster 3,Blood Knight,2,2,2,1,0,0,DEVOUR|STEAL|DECAY,", "Booster 3,Blood Knight,2,2,0,0,0,0,,")


def copy_alone(game: str, tmp_path: Path, edit: tuple[str, str] | None = None) -> Path:
    """Copy ``game``'s card file into an empty folder (no neighbours), with one text ``edit``; return its path."""
    source = sims.load(game).cards_path
    folder = tmp_path / f"{game}-{'edited' if edit else 'copy'}"
    folder.mkdir()
    path = folder / source.name
    text = source.read_text(encoding="utf-8")
    if edit:
        assert edit[0] in text
        text = text.replace(edit[0], edit[1])
    path.write_text(text, encoding="utf-8")
    return path


def play(game: str, cards: Path | None, out: Path, name: str, n: int, **extra) -> Path:
    """Run ``n`` games of ``game`` on seed 4 with the card file ``cards``; return the run directory.

    The card rows are kept (opening hands: the deck check of games without deck lists)."""
    bots = ("greedy",) * sims.load(game).seats
    card_file = str(cards) if cards else None
    spec = RunSpec(game=game, n_games=n, seed=4, bots=bots, cards_file=card_file, out=str(out), tables=TABLES)
    return run(RunSpec(**{**spec.__dict__, "name": name, **extra}))


@pytest.mark.parametrize("game", sims.available())
def test_a_copied_card_file_without_its_neighbours_loads_the_same_pool(game, tmp_path):
    spec = sims.load(game)
    copy = copy_alone(game, tmp_path)
    a, b = spec.load_pool(spec.cards_path), spec.load_pool(copy)
    assert a.names == b.names
    assert all(np.array_equal(a.table[f], b.table[f]) for f in a.table.dtype.names)
    assert a.text == b.text
    params = spec.make_params()
    assert spec.prepare_pool(a, params).names == spec.prepare_pool(b, params).names


@pytest.mark.parametrize("game", sims.available())
def test_a_copied_card_file_plays_the_very_same_games(game, tmp_path):
    n = 150
    shipped = play(game, None, tmp_path, "shipped", n)
    copied = play(game, copy_alone(game, tmp_path), tmp_path, "copied", n)
    a, b = load_run(shipped), load_run(copied)
    keep = [c for c in a.games.collect_schema().names() if c not in ("run_id", "chunk")]
    assert a.games.select(keep).collect().equals(b.games.select(keep).collect())
    assert a.manifest["pool"]["sha256"] == b.manifest["pool"]["sha256"]
    assert compare_pools(a, b) is None  # nothing to show: the pools are the same


@pytest.fixture(scope="module")
def blood_knight(tmp_path_factory):
    """Return (original run, Blood Knight blanked run) of 3 000 greedy games on seed 4, from copies of cards.csv."""
    tmp = tmp_path_factory.mktemp("bk")
    original = play("cardinger", copy_alone("cardinger", tmp), tmp, "original", 3000)
    edited = play("cardinger", copy_alone("cardinger", tmp, BLOOD_KNIGHT), tmp, "edited", 3000)
    return load_run(original), load_run(edited)


def test_stat_edit_lists_the_card_level_diff(blood_knight):
    diff = pool_diff(*blood_knight)
    assert diff["text"].to_list() == ["Blood Knight: ATK 2→0, DEF 1→0, keywords STEAL|DECAY|DEVOUR→none"]
    assert diff["change"].to_list() == ["edited"]


def test_stat_edit_keeps_every_deck_identical(blood_knight):
    found = compare_pools(*blood_knight)
    assert found.decks["what"] == "deck lists"
    assert found.decks["n_games"] == 3000
    assert found.decks["games_changed"] == 0
    a, b = blood_knight
    deck_a = a.seats.sort("game", "seat").select("deck").collect()
    deck_b = b.seats.sort("game", "seat").select("deck").collect()
    assert deck_a.equals(deck_b)  # the same ids too: the edit moved no card


def test_games_that_differ_all_hold_the_edited_card(blood_knight):
    a, b = blood_knight
    keep = ["game", "winner", "turns", "score_0", "score_1", "first_seat"]
    ga, gb = (r.games.select(keep).sort("game").collect() for r in (a, b))
    differs = ga["game"].filter((ga.drop("game") != gb.drop("game")).select(pl.any_horizontal(pl.all())).to_series())
    assert 30 < differs.len() < 3000  # the edit matters in some games, not all
    knight = int(a.card_dim.filter(pl.col("name") == "Blood Knight")["card"][0])
    holders = a.seats.filter(pl.col("deck").list.contains(knight)).select("game").unique().collect()["game"]
    assert set(differs.to_list()) <= set(holders.to_list())


def test_edited_card_gets_a_paired_delta_narrower_than_unpaired(blood_knight):
    edited = compare_pools(*blood_knight).edited.row(0, named=True)
    assert edited["name"] == "Blood Knight"
    assert edited["n"] > 500
    assert edited["lo"] <= edited["delta"] <= edited["hi"]
    assert edited["delta"] == pytest.approx(edited["win_a"] - edited["win_b"])
    assert (edited["hi"] - edited["lo"]) < 0.7 * (edited["unpaired_hi"] - edited["unpaired_lo"])


def test_a_planted_effect_gets_a_significant_paired_delta(blood_knight, tmp_path):
    # Blood Knight scoring 4 points a score action: its holder must win clearly more (Δ = A − B < 0)
    planted = (BLOOD_KNIGHT[0], "Booster 3,Blood Knight,2,2,2,1,0,4,DEVOUR|STEAL|DECAY,")
    original = blood_knight[0]
    edited = load_run(play("cardinger", copy_alone("cardinger", tmp_path, planted), tmp_path, "planted", 3000))
    found = compare_pools(original, edited)
    assert found.decks["games_changed"] == 0
    row = found.edited.row(0, named=True)
    assert row["name"] == "Blood Knight"
    assert row["hi"] < 0
    assert row["unpaired_lo"] < row["lo"]
    assert row["hi"] < row["unpaired_hi"]


def test_cost_edit_changes_decks_and_the_comparison_says_how_many(tmp_path):
    edit = ("Booster 3,Blood Knight,2,", "Booster 3,Blood Knight,3,")
    a = load_run(play("cardinger", copy_alone("cardinger", tmp_path), tmp_path, "a", 400))
    b = load_run(play("cardinger", copy_alone("cardinger", tmp_path, edit), tmp_path, "b", 400))
    found = compare_pools(a, b)
    assert found.diff["text"].to_list() == ["Blood Knight: COST 2→3"]
    assert 0 < found.decks["games_changed"] <= 400
    assert len(found.decks["examples"]) == min(10, found.decks["games_changed"])


def test_an_added_card_is_listed_and_decks_are_compared_by_name(tmp_path):
    extra = "Booster 3,Zz Test Card,0,1,1,0,0,0,,inferred,low,no\n"
    path = copy_alone("cardinger", tmp_path)
    path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")
    a = load_run(play("cardinger", None, tmp_path, "a", 200))
    b = load_run(play("cardinger", path, tmp_path, "b", 200))
    found = compare_pools(a, b)
    assert found.diff["text"].to_list() == ["Zz Test Card: only in B"]
    decks = aligned_decks(a, b)
    assert decks.a.shape == decks.b.shape
    assert found.decks["games_changed"] > 0  # a new cost-0 card changes the 0-cost pile


def test_compare_command_on_two_card_files_shows_the_diff_and_the_paired_delta(tmp_path):
    original, edited = copy_alone("cardinger", tmp_path), copy_alone("cardinger", tmp_path, BLOOD_KNIGHT)
    result = CliRunner().invoke(
        cli,
        ["compare", "-g", "cardinger", "--variants", "modern,modern", "--cards", f"{original},{edited}",
         "-n", "1500", "--seed", "2", "--out", str(tmp_path / "runs"), "--report-dir", str(tmp_path / "rep"), "-q"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    html = (tmp_path / "rep" / "index.html").read_text(encoding="utf-8")
    assert html.index('id="summary"') < html.index('id="pools"') < html.index('id="overview"')  # right at the top
    assert "<b>Card pools.</b> 1 card(s) differ between the pools." in html
    assert "Blood Knight: ATK 2→0, DEF 1→0, keywords STEAL|DECAY|DEVOUR→none" in html
    assert "identical in all 1,500 paired games" in html
    assert "Δ = A − B [95 % CI]" in html


def test_blessings_attack_edit_keeps_every_opening_hand_and_pairs_the_holder(tmp_path):
    edit = ("heart:2,heart,2,2,3,blessing", "heart:2,heart,2,9,3,blessing")  # attack 2 -> 9
    a = load_run(play("blessings", copy_alone("blessings", tmp_path), tmp_path, "a", 300, variant="split_deck"))
    b = load_run(play("blessings", copy_alone("blessings", tmp_path, edit), tmp_path, "b", 300, variant="split_deck"))
    found = compare_pools(a, b)
    assert found.diff["text"].to_list() == ["heart:2: attack 2→9"]
    assert found.decks["what"] == "opening hands"
    assert found.decks["games_changed"] == 0
    holder = found.edited.row(0, named=True)
    assert holder["n"] == 300  # split decks: exactly one seat holds it in every game
    assert holder["both_hold"] == 0


def test_cardrpg_removed_card_is_listed_and_decks_are_not_claimed(tmp_path):
    path = copy_alone("cardrpg", tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(line for line in lines if not line.startswith("joker:2")) + "\n", encoding="utf-8")
    a = load_run(play("cardrpg", None, tmp_path, "a", 40))
    b = load_run(play("cardrpg", path, tmp_path, "b", 40))
    found = compare_pools(a, b)
    assert found is not None
    assert found.diff["text"].to_list() == ["joker:2: only in A"]
    assert found.decks["what"] == ""  # one seat, no deck lists, no winner: nothing is claimed
