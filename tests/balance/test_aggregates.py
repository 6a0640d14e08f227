"""Aggregate-first runs: the report from stored sums equals the report from raw rows, for every game;
sums independent of chunking and workers; raw samples; derived seeds; checked runs."""

from __future__ import annotations

import importlib
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

import sims
from balance import io
from balance.cli import cli
from balance.io import load_run, seed_expr
from balance.report import write_report
from balance.run import InvariantError, run
from balance.spec import MAX_SEED, RunSpec
from sims.core import TABLES
from sims.core.batches import game_seeds, play_batches
from tests.balance.run_tables import assert_same_tables, run_tables

run_module = importlib.import_module("balance.run")
single = importlib.import_module("balance.report.single")
GAMES = sims.available()


def _spec(tmp_path: Path, game: str, **kw) -> RunSpec:
    seats = sims.load(game).seats
    base = RunSpec(game=game, n_games=600, seed=3, bots=("greedy",) * seats, out=str(tmp_path), chunk_size=250)
    return replace(base, **{"workers": 1, **kw})


def _report_files(run_obj, out: Path) -> dict[str, bytes]:
    write_report(run_obj, out)
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file()}


class _Frozen(datetime):
    @classmethod
    def now(cls, tz=None):
        return cls(2026, 1, 1, tzinfo=tz)


@pytest.mark.parametrize("game", GAMES)
def test_report_from_sums_equals_report_from_raw_rows(tmp_path, game, monkeypatch):
    """One run keeps every raw row and the sums; its report from the sums alone (as a default run has
    them) equals, byte for byte (HTML and every chart), its report from the raw rows alone."""
    monkeypatch.setattr(single, "datetime", _Frozen)  # the two reports may straddle a minute
    loaded = load_run(run(_spec(tmp_path, game, tables=TABLES, name="both")))
    assert loaded.sums is not None
    assert loaded.cards is not None
    assert loaded.turns is not None
    from_sums = _report_files(replace(loaded, cards=None, turns=None), tmp_path / "sums")
    from_rows = _report_files(replace(loaded, sums=None), tmp_path / "rows")
    assert sorted(from_sums) == sorted(from_rows)
    assert len(from_sums) >= 3  # the page and its charts
    for name, data in from_rows.items():
        assert from_sums[name] == data, name
    if sims.load(game).extra.get("card_events"):  # Cardia: the section comes from the sums too
        assert b"Card events: win rate with and without" in from_sums["index.html"]


@pytest.mark.parametrize("game", GAMES)
def test_sums_do_not_depend_on_workers_or_chunk_size(tmp_path, game):
    one = run_tables(run(_spec(tmp_path, game, chunk_size=600, name="one")))
    two = run_tables(run(_spec(tmp_path, game, chunk_size=97, workers=2, name="two")))
    assert any(t.startswith("agg_") for t in one)
    assert_same_tables(one, two)


def test_default_run_keeps_games_seats_and_sums_and_says_so(tmp_path):
    path = run(_spec(tmp_path, "cardinger", name="lean"))
    manifest = io.json.loads((path / io.MANIFEST).read_text())
    assert manifest["layout"]["games"] == manifest["layout"]["seats"] == "raw"
    assert manifest["layout"]["agg_cards"] == "aggregate"
    assert "cards" not in manifest["layout"]
    assert not (path / "cards").exists()
    assert not (path / "turns").exists()
    assert manifest["derived"] == {"games": ["seed"]}
    loaded = load_run(path)
    assert loaded.cards is None
    assert loaded.turns is None
    assert loaded.raw_sample is None
    cards = loaded.sums.frame("agg_cards")
    assert int(cards["rows"].sum()) == int(loaded.seats.select(pl.col("game")).collect().height) * 20  # 20-card decks
    html = write_report(loaded, tmp_path / "rep").read_text()
    assert "GIH WR" in html
    assert "raw sample" not in html


def test_raw_sample_keeps_the_rows_of_the_first_games_and_the_report_says_so(tmp_path):
    spec = _spec(tmp_path, "cardinger", raw_sample=100, aggregates=False, name="sample")
    loaded = load_run(run(spec))
    assert loaded.sums is None
    assert loaded.raw_sample == 100
    assert loaded.cards.select(pl.col("game").max()).collect().item() == 99
    assert loaded.turns.select(pl.col("game").n_unique()).collect().item() == 100
    html = write_report(loaded, tmp_path / "rep").read_text()
    assert "Computed from the raw sample" in html
    assert "games 0 .. 99" in html


def test_run_without_sums_reads_and_reports_as_before(tmp_path):
    loaded = load_run(run(_spec(tmp_path, "cardinger", tables=TABLES, aggregates=False, name="old")))
    assert loaded.sums is None
    assert loaded.cards is not None
    assert not list(loaded.path.glob("agg_*"))
    html = write_report(loaded, tmp_path / "rep").read_text()
    assert "GIH WR" in html
    assert "Computed from the raw sample" not in html


@pytest.mark.parametrize("root", [0, 1, 12345, MAX_SEED])
def test_derived_seed_column_is_the_kernel_seed(root):
    games = np.array([0, 1, 2, 999, 2**31 - 2], np.int64)
    kernel = np.zeros(len(games), np.uint64)
    game_seeds(np.uint64(root), games, kernel)
    derived = pl.DataFrame({"game": games}).select(seed_expr(root).alias("seed"))["seed"].to_numpy()
    assert derived.tolist() == kernel.tolist()


def test_stored_games_seed_equals_the_kernel_seed(tmp_path):
    loaded = load_run(run(_spec(tmp_path, "cardinger", n_games=50, name="s")))
    r = run_module.resolve(_spec(tmp_path, "cardinger"))
    records = r.game.play_chunk(r.params, r.pool, r.decks, r.bot_ids, r.weights, 3, 0, 50, tables=("games", "seats"))
    assert loaded.games.select("seed").collect()["seed"].to_list() == records["games"]["seed"].tolist()


def test_batches_give_the_same_rows_whatever_the_batch_size():
    r = run_module.resolve(RunSpec(game="cardinger", seed=8))
    args = (r.game, r.params, r.pool, r.decks, r.bot_ids, r.weights, 8, 10, 300)
    small = [{t: v.copy() for t, v in b.items()} for b in play_batches(*args, batch=7)]
    whole = r.game.play_chunk(r.params, r.pool, r.decks, r.bot_ids, r.weights, 8, 10, 300)
    for table in TABLES:
        assert np.array_equal(np.concatenate([b[table] for b in small]), whole[table]), table


# -- checked runs ------------------------------------------------------------------------------------
def test_checked_run_records_the_checks_of_every_chunk(tmp_path):
    path = run(_spec(tmp_path, "cardinger", bots=("random", "random"), checked=True, name="c"))
    manifest = io.json.loads((path / io.MANIFEST).read_text())
    assert manifest["checked"] is True
    checks = [c["checks"] for c in manifest["chunks"]]
    assert all(c["decisions"] > 0 for c in checks)
    assert sum(c["conservation_violations"] + c["illegal_actions"] + c["unfinished_games"] for c in checks) == 0


def test_unchecked_run_does_not_replay(tmp_path, monkeypatch):
    def fail(*_):
        raise AssertionError("checked replay without --checked")

    monkeypatch.setattr(run_module, "_check", fail)
    path = run(_spec(tmp_path, "cardinger", n_games=20, name="u"))
    assert "checks" not in io.json.loads((path / io.MANIFEST).read_text())["chunks"][0]


def test_checked_run_stops_at_the_first_game_breaking_an_invariant(tmp_path, monkeypatch):
    bad = 317

    def fake(resolved, first, n):  # game 317 breaks conservation once
        return np.array([n, int(first <= bad < first + n), 0, 0], np.int64)

    monkeypatch.setattr(run_module, "_check", fake)
    with pytest.raises(InvariantError, match=f"game {bad} breaks.*conservation violations 1"):
        run(_spec(tmp_path, "cardinger", checked=True, name="bad"))
    manifest = io.json.loads((tmp_path / "bad" / io.MANIFEST).read_text())
    assert next(c["status"] for c in manifest["chunks"]) == "done"  # chunk 0 (games 0-249) was sound


def test_cli_flags_reach_the_run(tmp_path):
    args = ["run", "-g", "cardrpg", "-n", "40", "--raw-sample", "10", "--checked", "-o", str(tmp_path), "-q"]
    result = CliRunner().invoke(cli, [*args, "--name", "f"])
    assert result.exit_code == 0, result.output
    manifest = io.json.loads((tmp_path / "f" / io.MANIFEST).read_text())
    assert manifest["checked"]
    assert manifest["raw_sample"] == 10
    assert manifest["layout"]["turns"].startswith("raw sample")
    result = CliRunner().invoke(cli, ["run", "-g", "cardrpg", "-n", "5", "--no-aggregates", "-o", str(tmp_path), "-q"])
    assert result.exit_code == 0, result.output


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_checked_run_of_100_000_random_bot_games(tmp_path, game):
    """Card conservation, legal actions and the game's own invariants after every decision of 100 000
    random-bot games (random bots reach the most positions); the run stops at the first violation."""
    spec = _spec(tmp_path, game, n_games=100_000, chunk_size=25_000, checked=True, name="big")
    path = run(replace(spec, bots=("random",) * sims.load(game).seats, workers=2))
    chunks = io.json.loads((path / io.MANIFEST).read_text())["chunks"]
    assert sum(c["n_games"] for c in chunks) == 100_000
    assert sum(c["checks"]["decisions"] for c in chunks) > 100_000


def test_a_finished_run_merges_each_summed_table_into_one_part(tmp_path, monkeypatch):
    """The merged parts give the very frames the chunk parts gave; parts left by a crash after the merge
    are ignored (the merged part is written whole before any part is deleted)."""
    spec = _spec(tmp_path, "cardinger", chunk_size=100)
    merged = run(replace(spec, name="merged"))
    summed = [d.name for d in merged.iterdir() if d.is_dir() and d.name.startswith("agg_")]
    assert "agg_cards" in summed
    assert all([p.name for p in (merged / d).iterdir()] == [io.MERGED] for d in summed)
    assert len(list((merged / "per_game").glob("part-*.parquet"))) == 6  # per-game rows stay per chunk
    with monkeypatch.context() as m:
        m.setattr(io.Sums, "compact", lambda self: None)
        parts = run(replace(spec, name="parts"))
    assert len(list((parts / "agg_cards").glob("part-*.parquet"))) == 6
    assert_same_tables(run_tables(merged), run_tables(parts))
    for part in (parts / "agg_cards").glob("part-*.parquet"):  # a crash between the merge and the deletes
        (part.parent.parent.parent / "merged" / "agg_cards" / part.name).write_bytes(part.read_bytes())
    assert_same_tables(run_tables(merged), run_tables(parts))
