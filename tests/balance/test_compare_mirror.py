"""Paired comparisons leave out per-bot win rates when one bot fills every seat."""

from dataclasses import replace

from balance.io import load_run
from balance.metrics import compare_runs
from balance.run import run_spec


def _labels(small_spec, bots, name):
    spec = replace(small_spec, n_games=200, bots=bots, tables=("games", "seats"))
    a = load_run(run_spec(replace(spec, variant="modern", name=f"{name}-a")))
    b = load_run(run_spec(replace(spec, variant="digital", name=f"{name}-b")))
    return set(compare_runs(a, b)["label"].to_list())


def test_mirror_match_has_no_per_bot_win_rate(small_spec):
    labels = _labels(small_spec, ("greedy", "greedy"), "mirror")
    assert not any(label.startswith("Win rate of") for label in labels)
    assert "Seat 0 win rate" in labels


def test_mixed_match_compares_each_bots_win_rate(small_spec):
    labels = _labels(small_spec, ("greedy", "random"), "mixed")
    assert {"Win rate of greedy", "Win rate of random"} <= labels
