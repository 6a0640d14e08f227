"""Deck prints instead of deck lists (balance.fingerprints): a default run keeps 16-bit prints and block
digests for every game and the lists of its first games; pool compares count changed decks as from the lists."""

from __future__ import annotations

import importlib
from dataclasses import replace
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from balance import fingerprints
from balance.io import load_run
from balance.metrics.pools import aligned_decks, compare_pools, deck_changes, print_changes
from balance.run import run
from balance.spec import RunSpec
from sims.core import TABLES
from tests.balance.run_tables import assert_same_tables, run_tables
from tests.balance.test_pools import copy_alone

run_module = importlib.import_module("balance.run")
manifest_module = importlib.import_module("balance.manifest")
COST_EDIT = ("Booster 3,Blood Knight,2,", "Booster 3,Blood Knight,3,")  # changes what the deck builder draws
STAT_EDIT = ("Booster 3,Blood Knight,2,2,2,1,0,0,DEVOUR|STEAL|DECAY,", "Booster 3,Blood Knight,2,2,0,0,0,0,,")


def _play(tmp_path: Path, name: str, cards: Path, **kw) -> Path:
    spec = RunSpec(game="cardinger", n_games=700, seed=4, out=str(tmp_path), chunk_size=300, workers=1)
    return run(replace(spec, name=name, cards_file=str(cards), **kw))


def _copy(root: Path, sub: str, edit: tuple[str, str] | None = None) -> Path:
    (root / sub).mkdir(parents=True, exist_ok=True)
    return copy_alone("cardinger", root / sub, edit)


@pytest.fixture(scope="module")
def cost_edit(tmp_path_factory):
    """Original and cost-edited pools, each played lean (lists of the first 250 games) and with every list."""
    tmp = tmp_path_factory.mktemp("decks")
    original, edited = _copy(tmp, "o"), _copy(tmp, "e", COST_EDIT)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(manifest_module, "DECK_LISTS", 250)
        lean = [load_run(_play(tmp, f"lean-{k}", c)) for k, c in (("a", original), ("b", edited))]
    full = [load_run(_play(tmp, f"full-{k}", c, tables=TABLES)) for k, c in (("a", original), ("b", edited))]
    return lean, full


def test_a_default_run_keeps_prints_for_every_game_and_lists_for_the_first(cost_edit):
    (a, _), (full, _) = cost_edit
    assert a.manifest["deck_lists"] == 250
    assert full.manifest["deck_lists"] is None  # raw card rows asked for: every list kept
    seats = a.seats.select("game", "deck", "deck_fp").collect()
    lengths = seats["deck"].list.len()
    assert (lengths.filter(seats["game"] < 250) == 20).all()
    assert (lengths.filter(seats["game"] >= 250) == 0).all()
    assert seats["deck_fp"].dtype == pl.UInt16
    reference = full.seats.select("game", "seat", "deck_fp").collect().sort("game", "seat")
    assert a.seats.select("game", "seat", "deck_fp").collect().sort("game", "seat").equals(reference)
    digests = a.sums.frame("agg_decks")
    assert digests["n"].to_list() == [1400]  # one block: 700 games x 2 seats, merged over 3 chunks by XOR


def test_print_changes_equal_the_changes_counted_from_every_deck_list(cost_edit):
    (a, b), (fa, fb) = cost_edit
    from_lists = deck_changes(aligned_decks(fa, fb))
    assert 0 < from_lists["games_changed"] < 700
    assert print_changes(a, b) == from_lists
    assert compare_pools(a, b).decks == from_lists


def test_unchanged_decks_are_proved_by_the_block_digests(tmp_path, monkeypatch):
    """A stat edit leaves every deck alone: the digests agree, so 0 of 700 without comparing one print."""
    monkeypatch.setattr(manifest_module, "DECK_LISTS", 100)
    a = load_run(_play(tmp_path, "a", _copy(tmp_path, "o")))
    b = load_run(_play(tmp_path, "b", _copy(tmp_path, "e", STAT_EDIT), chunk_size=128))
    found = compare_pools(a, b)
    assert found.decks == {
        "n_games": 700, "games_changed": 0, "n_seats": 1400, "seats_changed": 0, "examples": [], "what": "deck lists"
    }  # fmt: skip
    assert found.edited["n"][0] > 0  # the paired deltas come from the games that kept their lists
    assert int(found.edited["n"][0]) < 100


def test_deck_prints_hash_names_in_build_order():
    hashes = fingerprints.name_hashes(["x", "y", "z"])
    decks = np.array([[0, 1, 2, -1], [2, 1, 0, -1], [0, 1, 2, -1], [0, 1, -1, -1]], np.int16)
    lanes = fingerprints.deck_lanes(decks, hashes)
    assert (lanes[0] == lanes[2]).all()
    assert len({tuple(r) for r in lanes.tolist()}) == 3  # order and length count
    renamed = fingerprints.deck_lanes(np.array([[1, 2, 0, -1]], np.int16), hashes[[2, 0, 1, 3]])
    assert (renamed[0] == lanes[0]).all()  # the same names at other ids: the same print


def test_block_digests_merge_by_xor_whatever_the_chunking():
    rng = np.random.default_rng(1)
    game = np.repeat(np.arange(200_000), 2)
    seat = np.tile([0, 1], 200_000)
    lanes = rng.integers(0, 2**63, size=(len(game), 2), dtype=np.int64).astype(np.uint64)
    whole = fingerprints.block_digests(game, seat, lanes)
    parts = [fingerprints.block_digests(game[s], seat[s], lanes[s]) for s in np.array_split(np.arange(len(game)), 7)]
    merged = (
        pl.concat([pl.DataFrame(p) for p in parts])
        .group_by("block")
        .agg(pl.col("n").sum(), pl.col("x0").bitwise_xor(), pl.col("x1").bitwise_xor())
    )
    assert merged.sort("block").equals(pl.DataFrame(whole))
    assert whole["block"].tolist() == [0, 1, 2, 3]


def test_prints_and_kept_lists_do_not_depend_on_chunks(tmp_path, monkeypatch):
    monkeypatch.setattr(manifest_module, "DECK_LISTS", 50)
    spec = RunSpec(game="cardinger", n_games=400, seed=9, out=str(tmp_path), workers=1)
    one = run_tables(run(replace(spec, chunk_size=400, name="one")))
    two = run_tables(run(replace(spec, chunk_size=61, name="two")))  # workers: test_aggregates
    assert "agg_decks" in one
    assert_same_tables(one, two)
