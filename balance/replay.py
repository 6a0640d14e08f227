"""Re-play one game of a run from its seed and return a readable log."""

from __future__ import annotations

from pathlib import Path

from balance import io
from balance.spec import RunSpec, SpecError, resolve


def replay(run_dir: Path | str, game: int) -> list[str]:
    """Return the turn-by-turn log of game ``game`` of the run at ``run_dir``.

    The game is re-simulated from ``hash(root_seed, game)`` with the run's rules, card
    pool, decks and bots, so it is exactly the game whose row is in the tables.
    """
    run_dir = Path(run_dir)
    path = run_dir / io.MANIFEST
    if not path.is_file():
        raise SpecError(f"{run_dir}: not a run directory (no {io.MANIFEST})")
    manifest = io.json.loads(path.read_text())
    if not 0 <= game < manifest["n_games"]:
        raise SpecError(f"game {game} is not in run {manifest['run_id']} (games 0..{manifest['n_games'] - 1})")
    resolved = resolve(RunSpec.from_dict(manifest["spec"], source=str(path)))
    if resolved.game.rules_version != manifest["rules_version"]:
        raise SpecError(
            f"{path}: run used rules_version {manifest['rules_version']}, code has {resolved.game.rules_version}; "
            "the replay would not be the recorded game"
        )
    r = resolved
    bots = " vs ".join(r.spec.bots)
    header = [f"{manifest['run_id']} game {game}: {r.game.name} / {r.variant}, bots {bots}, root seed {r.spec.seed}"]
    return header + r.game.replay(r.params, r.pool, r.decks, r.bot_ids, r.weights, r.spec.seed, game)
