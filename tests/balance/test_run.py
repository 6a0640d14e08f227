"""Runs: determinism across workers and chunk sizes, resume, manifest, dimension tables."""

import importlib
from dataclasses import replace

import numpy as np
import polars as pl
import pytest

from balance import io
from balance.io import RunError, load_run
from balance.run import chunk_bounds, resume, run
from balance.spec import SpecError
from tests.balance.run_tables import assert_same_tables
from tests.balance.run_tables import run_tables as _tables

run_module = importlib.import_module("balance.run")  # the module; `balance.run` is the function
manifest_module = importlib.import_module("balance.manifest")


def test_chunk_bounds_cover_every_game_once():
    assert chunk_bounds(10, 4) == [(0, 4), (4, 4), (8, 2)]
    assert chunk_bounds(40_000, 50_000) == [(0, 40_000)]  # one chunk: played without a pool
    for n_games, size in ((1_000_003, 50_000), (1_000_000, 50_000), (60_000, 50_000), (7_777, 1_000), (5, 1)):
        bounds = chunk_bounds(n_games, size)
        assert [g for g, _ in bounds] == [0, *(g + n for g, n in bounds[:-1])]  # contiguous, in order
        assert sum(n for _, n in bounds) == n_games
        assert all(0 < n <= size for _, n in bounds)


def test_chunk_bounds_taper_the_last_chunk_size_games_in_halves():
    sizes = [n for _, n in chunk_bounds(1_000_000, 50_000)]
    assert sizes == [50_000] * 19 + [25_000, 12_500, 6_250, 3_125, 3_125]
    assert [n for _, n in chunk_bounds(1_030_000, 50_000)][-7:] == [50_000, 40_000, 20_000, 10_000, 5_000, 2_500, 2_500]


def test_tapered_run_gives_the_same_tables_and_resumes_its_own_chunks(small_spec, monkeypatch):
    reference = _tables(run(replace(small_spec, chunk_size=600, name="one")))
    monkeypatch.setattr(manifest_module, "TAIL_GAMES", 20)
    spec = replace(small_spec, chunk_size=200, name="tapered")
    expected = [(0, 200), (200, 200), (400, 100), (500, 50), (550, 25), (575, 25)]
    assert chunk_bounds(600, 200) == expected
    calls = {"n": 0}
    real = run_module.play_chunk_to_parts

    def crash_at_fourth(*args):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(run_module, "play_chunk_to_parts", crash_at_fourth)
    with pytest.raises(KeyboardInterrupt):
        run(spec)
    path = io.Path(spec.out) / "tapered"
    manifest = io.read_manifest(path)
    assert [(c["first_game"], c["n_games"]) for c in manifest["chunks"]] == expected
    assert [c["status"] for c in manifest["chunks"]] == ["done"] * 3 + ["pending"] * 3
    monkeypatch.setattr(manifest_module, "TAIL_GAMES", 10_000)  # now a 3-chunk split: resume keeps the six recorded
    monkeypatch.setattr(run_module, "play_chunk_to_parts", real)
    resume(path)
    manifest = io.read_manifest(path)
    assert [(c["first_game"], c["n_games"]) for c in manifest["chunks"]] == expected
    parts = sorted(p.name for p in (path / "games").glob("part-*.parquet"))
    assert parts == [f"part-{i:05d}.parquet" for i in range(6)]
    assert_same_tables(_tables(path), reference)


def test_same_seed_same_tables_with_one_or_two_workers_and_any_chunk_size(small_spec):
    one = _tables(run(replace(small_spec, workers=1, chunk_size=600, name="one")))
    two = _tables(run(replace(small_spec, workers=2, chunk_size=170, name="two")))
    assert {"cards", "turns", "agg_cards", "agg_tempo", "per_game"} <= set(one)
    assert_same_tables(one, two)


def test_different_seed_gives_different_games(small_spec):
    a = _tables(run(replace(small_spec, name="a")))["games"]
    b = _tables(run(replace(small_spec, seed=4, name="b")))["games"]
    assert not a.equals(b)


def test_run_writes_manifest_dimensions_and_every_game_once(small_spec):
    path = run(replace(small_spec, name="m"))
    manifest = io.json.loads((path / "manifest.json").read_text())
    assert manifest["rules_version"]
    assert manifest["root_seed"] == 3
    assert [c["status"] for c in manifest["chunks"]] == ["done"] * 3
    assert {"numpy", "numba", "polars", "pyarrow", "python"} <= set(manifest["versions"])
    loaded = load_run(path)
    games = loaded.games.collect()
    assert sorted(games["game"].to_list()) == list(range(600))
    assert set(games["variant"].unique().to_list()) == {"modern"}
    dim = loaded.card_dim
    assert {"card", "name"} <= set(dim.columns)
    assert dim["card"].to_list() == list(range(dim.height))
    bots = pl.read_parquet(path / "bots.parquet")
    assert bots["bot"].to_list() == ["greedy", "greedy"]


def test_interrupted_run_resumes_without_losing_or_duplicating_games(small_spec, monkeypatch):
    reference = _tables(run(replace(small_spec, name="ref")))
    calls = {"n": 0}
    real = run_module.play_chunk_to_parts

    def crash_after_one(*args):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(run_module, "play_chunk_to_parts", crash_after_one)
    with pytest.raises(KeyboardInterrupt):
        run(replace(small_spec, name="crashed"))
    crashed = small_spec.out + "/crashed"
    (io.Path(crashed) / "games" / ".part-00001.parquet.999.tmp").write_bytes(b"torn")
    with pytest.raises(RunError, match="resume"):
        load_run(crashed)
    monkeypatch.setattr(run_module, "play_chunk_to_parts", real)
    resume(crashed)
    assert_same_tables(_tables(crashed), reference)
    assert not list(io.Path(crashed).glob("*/.*.tmp"))


def test_existing_run_directory_is_not_overwritten(small_spec):
    run(replace(small_spec, n_games=10, name="x"))
    with pytest.raises(SpecError, match="already exists"):
        run(replace(small_spec, n_games=10, name="x"))


def test_tables_can_be_switched_off(small_spec):
    loaded = load_run(run(replace(small_spec, tables=("games", "seats"), name="lean")))
    assert loaded.cards is None
    assert loaded.turns is None
    assert loaded.games.collect().height == 600


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_tables(small_spec):
    local = _tables(run(replace(small_spec, name="local")))
    dask = _tables(run(replace(small_spec, cluster="local", name="dask")))
    assert_same_tables(local, dask)


def test_loaded_tables_are_flagged_sorted_by_game_and_join_as_unflagged(small_spec):
    loaded = load_run(run(replace(small_spec, chunk_size=170, tables=("games", "seats", "cards", "turns"), name="s")))
    for lf in (loaded.games, loaded.seats, loaded.cards, loaded.turns):
        assert lf.select("game").collect()["game"].flags["SORTED_ASC"]
    plain = pl.scan_parquet(sorted((loaded.path / "seats").glob("part-*.parquet")))
    games = loaded.games.select("game", "first_seat")
    merged = loaded.seats.join(games, on="game").collect().sort("game", "seat")
    hashed = plain.join(games.collect().lazy(), on="game").collect().sort("game", "seat")
    assert merged.height == 2 * loaded.games.collect().height
    assert merged.equals(hashed)


def test_a_table_out_of_game_order_is_not_flagged_sorted():
    shuffled = io.flag_sorted(pl.LazyFrame({"game": [3, 1, 2], "x": [0, 1, 2]}))
    assert not shuffled.collect()["game"].flags["SORTED_ASC"]
    assert shuffled.join(pl.LazyFrame({"game": [1, 2, 3], "y": [5, 6, 7]}), on="game").collect().sort("game")[
        "y"
    ].to_list() == [5, 6, 7]


def test_chunk_rows_are_gathered_into_one_buffer_reused_chunk_after_chunk():
    dtype = np.dtype([("game", "<i8"), ("seat", "i1"), ("score", "<i2")], align=True)
    rows = np.zeros(10, dtype)
    rows["game"], rows["seat"], rows["score"] = np.arange(10), np.arange(10) % 2, np.arange(10) * -7
    first = run_module._Gather("test-table", dtype)
    for part in (rows[:3], rows[3:4], rows[4:10:2]):  # the last one strided: copied field by field
        first.add(part)
    gathered = first.rows()
    assert gathered.tolist() == np.concatenate([rows[:3], rows[3:4], rows[4:10:2]]).tolist()
    second = run_module._Gather("test-table", dtype)  # the next chunk: fewer rows, the same memory
    second.add(rows[5:7])
    again = second.rows()
    assert again.tolist() == rows[5:7].tolist()
    assert np.shares_memory(again, gathered)
    assert run_module._Gather("test-table", np.dtype([("game", "<i8")])).rows().tolist() == []  # another dtype
