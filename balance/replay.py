"""Re-play one game of a run from its seed and return a readable log."""

from __future__ import annotations

from pathlib import Path

from balance.run import reopen
from balance.spec import SpecError


def replay(run_dir: Path | str, game: int) -> list[str]:
    """Return the turn-by-turn log of game ``game`` of the run at ``run_dir``.

    The game is re-simulated from ``hash(root_seed, game)`` with the run's rules, card
    pool, decks and bots, so it is exactly the game whose row is in the tables.
    """
    manifest, r = reopen(run_dir)
    if not 0 <= game < manifest["n_games"]:
        raise SpecError(f"game {game} is not in run {manifest['run_id']} (games 0..{manifest['n_games'] - 1})")
    bots = " vs ".join(r.spec.bots)
    header = [f"{manifest['run_id']} game {game}: {r.game.name} / {r.variant}, bots {bots}, root seed {r.spec.seed}"]
    return header + r.game.replay(r.params, r.pool, r.decks, r.bot_ids, r.weights, r.spec.seed, game)
