"""``balance bench`` plays its timed games as a run does (batches into reused buffers)."""

from balance import bench
from balance.spec import RunSpec


def test_games_per_second_plays_every_timed_game_through_play_batches(monkeypatch):
    played = []

    def counting(game, *args, **kwargs):
        for batch in original(game, *args, **kwargs):
            played.append(batch["games"]["game"].copy())
            yield batch

    original = bench.play_batches
    monkeypatch.setattr(bench, "play_batches", counting)
    speed = bench.games_per_second(RunSpec(game="cardinger", bots=("greedy", "greedy"), seed=3), 300, ("games",))
    games = sorted(int(g) for ids in played for g in ids)
    assert games == list(range(bench.FIRST_GAME, bench.FIRST_GAME + 300))
    assert speed > 0
