"""``benchmarks/kernel_speed.py --batches``: the measured games played as ``balance run`` plays them.

By default the script plays its games through ``GameSpec.play_chunk`` (fresh buffers for the
whole run, whose page zeroing is counted as system CPU time); ``--batches`` through
``sims.core.batches.play_batches`` (buffers reused). Both must play every game, and the line
must say which way was measured and how much of the time was the system's.
"""

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "benchmarks"))

import kernel_speed  # noqa: E402

from balance.spec import RunSpec, resolve  # noqa: E402


@pytest.mark.parametrize("batches", [False, True])
def test_measure_plays_every_game_the_way_asked(batches, monkeypatch):
    r = resolve(RunSpec(game="cardwars", bots=("greedy", "greedy"), seed=3))
    played: list[int] = []  # games each kernel call completed
    batched: list[int] = []  # games of each batch play_batches yielded

    def counting(*args):
        played.append(real(*args))
        return played[-1]

    def batching(*args, **kwargs):
        for batch in real_batches(*args, **kwargs):
            batched.append(len(batch["games"]))
            yield batch

    real, real_batches = r.game.play_games, kernel_speed.play_batches
    monkeypatch.setattr(kernel_speed, "play_batches", batching)
    r = replace(r, game=replace(r.game, play_games=counting))
    secs, system = kernel_speed.measure(r, 3, 300, ("games", "seats", "cards", "turns"), batches=batches)
    assert played[0] == 200  # the warm-up, through play_chunk
    assert sum(played[1:]) == 300
    assert sum(batched) == (300 if batches else 0)
    assert secs > 0
    assert 0 <= system <= secs


def test_the_line_names_the_batches_and_the_system_share():
    cmd = [sys.executable, str(ROOT / "benchmarks" / "kernel_speed.py"), "--game", "cardwars", "--games", "50"]
    cmd += ["--tables", "games,seats,cards,turns", "--batches"]
    out = subprocess.run(cmd, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "[games,seats,cards,turns, batches] 50 games" in out.stdout
    assert "games per CPU-second" in out.stdout
    assert "% of it; load" in out.stdout
