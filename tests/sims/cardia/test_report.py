"""Cardia's run through the generic report: settings, card events, no first mover, length in rounds."""

from __future__ import annotations

import html as htmllib
import re
from pathlib import Path

import polars as pl
import pytest

from balance.io import Run, load_run
from balance.metrics import compare_runs
from balance.metrics.card_events import card_events, event_counters
from balance.metrics.groups import group_results, has_first_seat
from balance.report import write_compare_report, write_report
from balance.run import run
from balance.spec import RunSpec
from sims.core import TABLES

pytestmark = pytest.mark.slow  # runs through the runner: minutes with NUMBA_DISABLE_JIT

LOCATIONS = 9  # none + the 8 locations


@pytest.fixture(scope="module")
def grid_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    out = tmp_path_factory.mktemp("cardia_report")
    spec = RunSpec(
        game="cardia", variant="grid", n_games=1800, seed=5, out=str(out), name="grid", workers=1, tables=TABLES
    )
    return load_run(run(spec))


@pytest.fixture(scope="module")
def page(grid_run: Run, tmp_path_factory: pytest.TempPathFactory) -> str:
    return write_report(grid_run, tmp_path_factory.mktemp("cardia_html")).read_text(encoding="utf-8")


def _text(html: str, anchor: str) -> str:
    start = html.index(f'<section id="{anchor}">')
    return htmllib.unescape(re.sub(r"<[^>]+>", " ", html[start : html.index("</section>", start)]))


def test_a_grid_run_reports_win_rates_by_deck_and_by_location(grid_run: Run, page: str) -> None:
    by_location = group_results(grid_run.games, grid_run.seats, "location")
    assert by_location["location"].n_unique() == LOCATIONS
    assert by_location.filter(pl.col("seat") == 0)["n_games"].sum() == 1800
    wins = grid_run.seats.filter(pl.col("won") == 1).select(pl.len()).collect().item()
    assert by_location["wins"].sum() == wins
    settings = _text(page, "settings")
    for part in ("By deck", "By location", "foggy_swamp"):
        assert part in settings


def test_no_first_mover_no_first_seat_figures(grid_run: Run, page: str) -> None:
    assert not has_first_seat(grid_run.games)
    assert "choices are simultaneous" in _text(page, "first-seat")
    assert "turn order" not in _text(page, "win-rates")
    summary = _text(page, "summary")
    assert "Seat advantage" not in summary
    assert "rounds on average" in summary
    assert "rounds of both seats" not in summary


def test_card_events_split_each_cards_games_by_its_activations(grid_run: Run, page: str) -> None:
    assert grid_run.cards is not None
    assert "activations" in event_counters(grid_run.cards)
    df = card_events(grid_run.cards, grid_run.card_dim).filter(pl.col("counter") == "activations")
    cards = grid_run.cards.filter(pl.col("times_played") > 0).collect()
    for r in df.iter_rows(named=True):
        mine = cards.filter(pl.col("card") == r["card"])
        hit = mine.filter(pl.col("activations") > 0)
        assert (r["played"], r["with_n"]) == (mine.height, hit.height)
        assert r["with_wr"] == pytest.approx((hit["won"] == 1).mean())
    events = _text(page, "card-events")
    assert "activations" in events  # Cardia declares its events: activations and flips, not end-state counters
    assert "flips" in events
    assert "signets end" not in events


def test_card_events_by_hand() -> None:
    cards = pl.LazyFrame(
        {
            "game": [0, 1, 2, 3, 4],
            "seat": [0, 0, 0, 0, 1],
            "card": [5, 5, 5, 5, 5],
            "won": [1, 0, 1, 0, 1],
            "in_opening_hand": [1] * 5,
            "first_drawn_turn": [0] * 5,
            "first_played_turn": [1, 1, 1, 1, -1],
            "times_played": [1, 1, 1, 1, 0],  # game 4: not played, left out
            "activations": [2, 0, 1, 0, 1],
            "match_game": [0] * 5,  # numbers the game, not an event
        }
    )
    assert event_counters(cards) == ["activations"]
    assert event_counters(cards, only=("flips",)) == []
    assert card_events(cards, only=("flips",)).height == 0
    r = card_events(cards).row(0, named=True)
    assert (r["played"], r["with_n"], r["without_n"]) == (4, 2, 2)
    assert (r["with_wr"], r["without_wr"], r["diff"]) == (1.0, 0.0, 1.0)
    assert 0.0 < r["diff_lo"] < 1.0
    assert r["diff_hi"] == pytest.approx(1.0)


def test_first_seat_is_known_when_any_game_records_one() -> None:
    assert has_first_seat(pl.LazyFrame({"first_seat": [-1, 0]}))
    assert not has_first_seat(pl.LazyFrame({"winner": [0]}))


def test_compare_deck_i_with_deck_ii_has_no_first_mover_and_counts_rounds(tmp_path: Path) -> None:
    runs = [
        load_run(run(RunSpec(game="cardia", variant=v, n_games=400, seed=2, out=str(tmp_path), name=v, workers=1)))
        for v in ("first_games", "deck_ii")
    ]
    labels = compare_runs(*runs)["label"].to_list()
    assert "Seat 0 win rate" in labels
    assert "First-seat win rate" not in labels
    page = write_compare_report(*runs, tmp_path / "html").read_text(encoding="utf-8")
    summary = _text(page, "summary")
    assert "Seat advantage" not in summary
    assert "rounds on average" in summary
