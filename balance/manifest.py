"""A run's manifest and what it records: the chunk split, the tables and aggregates kept, the versions.

``balance.run`` writes the manifest when a run starts (:func:`new_manifest`,
:func:`write_dimensions`) and ``balance.io`` settles it as chunks finish; these functions
only describe a resolved spec, so a reader (``balance.run.reopen``, the tests) gets the
same answer from the same spec without playing a game.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import platform
import subprocess
import time
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from balance import aggregates, io
from balance.parts import card_dimension
from balance.spec import Resolved

DECK_LISTS = 100_000  # a default run keeps the seats' deck lists of its first games only (balance.fingerprints)
# The smallest piece chunk_bounds cuts a run's tail into: a piece costs its chunk's fixed toll (the parts' files,
# the sums' tables, ~20 CPU-ms), so pieces stop halving here. Card Wars, 1 M games at 50 000 a chunk, 2 workers:
# the two workers ended 0.5 s apart with 20 equal chunks (one playing the last chunk while the other waited).
TAIL_GAMES = 2_500


def make_run_id(resolved: Resolved) -> str:
    """Return a readable unique id: ``<game>-<variant>-<YYYYmmdd-HHMM>-<4 hex>``."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    salt = hashlib.sha1(f"{resolved.spec}{time.time_ns()}".encode()).hexdigest()[:4]
    return f"{resolved.game.name}-{resolved.variant}-{stamp}-{salt}"


def pool_digest(resolved: Resolved) -> str:
    """Return a SHA-256 of the prepared card pool and fixed decks (what the kernel sees)."""
    digest = hashlib.sha256()
    table = resolved.pool.table
    for field in table.dtype.names or ():  # field by field: padding bytes carry no meaning
        digest.update(field.encode())
        digest.update(np.ascontiguousarray(table[field]).tobytes())
    digest.update("\0".join(resolved.pool.names).encode())
    digest.update(resolved.decks.tobytes())
    return digest.hexdigest()


def chunk_bounds(n_games: int, chunk_size: int) -> list[tuple[int, int]]:
    """Split ``[0, n_games)`` into ``(first_game, n)`` chunks of at most ``chunk_size``, the last ones tapering.

    A run of more than ``chunk_size`` games plays chunks of ``chunk_size`` but for its last
    ``chunk_size`` to ``2 * chunk_size - 1`` games, which are cut in halves (each piece half
    what is left) down to :data:`TAIL_GAMES`:
    workers take chunks in order as they come free, so they end within a small piece of each
    other instead of one playing a whole last chunk while the others wait. The split depends
    on ``n_games`` and ``chunk_size`` only (not on the workers), and the manifest records it,
    so a resumed run replays the very chunks it was made with.

    Examples
    --------
    >>> [n for _, n in chunk_bounds(1_000_000, 50_000)][-6:]
    [50000, 25000, 12500, 6250, 3125, 3125]
    >>> chunk_bounds(10, 4), chunk_bounds(40_000, 50_000)
    ([(0, 4), (4, 4), (8, 2)], [(0, 40000)])
    """
    if n_games <= chunk_size:
        return [(0, n_games)] if n_games else []
    full = (n_games // chunk_size - 1) * chunk_size
    bounds = [(g, chunk_size) for g in range(0, full, chunk_size)]
    g = full
    while g < n_games:
        left = n_games - g
        n = min(left // 2 if left >= 2 * TAIL_GAMES else left, chunk_size)
        bounds.append((g, n))
        g += n
    return bounds


def new_manifest(resolved: Resolved, run_id: str) -> dict[str, Any]:
    """Return the manifest of a fresh run (every chunk pending)."""
    spec, game = resolved.spec, resolved.game
    return {
        "run_id": run_id,
        "game": game.name,
        "variant": resolved.variant,
        "rules_version": game.rules_version,
        "turn_unit": game.turn_unit,
        "seats": game.seats,
        "n_games": spec.n_games,
        "root_seed": spec.seed,
        "bots": list(spec.bots),
        "bot_weights": {
            b: dict(zip(game.bot_params[b]._fields, w.tolist(), strict=True))
            for b, w in zip(spec.bots, resolved.weights, strict=True)
        },
        "params": game.describe_params(resolved.params),
        "tables": list(spec.tables),
        "raw_sample": spec.raw_sample,
        "layout": layout(resolved),
        "aggregates": {
            name: {"keys": list(keys), "description": aggregates.DESCRIPTIONS[name]}
            for name, keys in aggregate_keys(resolved).items()
        },
        "derived": {"games": ["seed"]} if derived_seed(resolved) else {},
        "deck_lists": deck_lists(resolved),
        "checked": spec.checked,
        "chunk_size": spec.chunk_size,
        "pool": {"path": str(resolved.pool.path), "n_cards": len(resolved.pool), "sha256": pool_digest(resolved)},
        "spec": spec.to_dict(),
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "versions": versions(),
        "git": git_revision(),
        "chunks": [
            {"index": i, "first_game": g, "n_games": n, "status": "pending"}
            for i, (g, n) in enumerate(chunk_bounds(spec.n_games, spec.chunk_size))
        ],
    }


def plan(resolved: Resolved) -> aggregates.Plan:
    """Return the sufficient statistics the run's game keeps (``balance.aggregates.make_plan``)."""
    return aggregates.make_plan(resolved.game, len(resolved.pool))


def aggregate_keys(resolved: Resolved) -> dict[str, tuple[str, ...]]:
    """Return the aggregate tables the run writes, each with its key columns (empty without aggregates)."""
    if not resolved.spec.aggregates:
        return {}
    p = plan(resolved)
    keys = {
        aggregates.CARDS: ("card", "seat", "half"),
        aggregates.HANDS: ("seen",),
        aggregates.TEMPO: ("grain", "turn", "d", "first_seat", "winner"),
        aggregates.ORDER: (),
        aggregates.STEPS: p.step_keys,
        aggregates.LEVELS: ("level", "first"),
        aggregates.PER_GAME: ("game",),
        aggregates.GAMES: p.games_columns,
        aggregates.SEATS: ("seat", "bot"),
        aggregates.LEADS: ("lead_changes", "lead_for_good"),
    }
    out = {name: keys[name] for name in p.tables}
    return out | ({aggregates.DECKS: ("block",)} if has_deck_lists(resolved) else {})


def has_deck_lists(resolved: Resolved) -> bool:
    """Return whether the game's seats carry deck lists (an array field ``deck`` in ``seats``)."""
    fields = resolved.game.tables["seats"].fields or {}
    return "deck" in fields and fields["deck"][0].shape != ()


def deck_lists(resolved: Resolved) -> int | None:
    """Return how many first games keep their seats' deck lists; None for all (or no deck lists at all).

    A run with aggregates keeps ``seats.deck_fp`` and the ``agg_decks`` digests for every
    game and the lists for the first :data:`DECK_LISTS` (or ``--raw-sample``) games; one
    that keeps raw card rows (``--tables``) or no aggregates keeps every list.
    """
    spec = resolved.spec
    if not has_deck_lists(resolved) or not spec.aggregates or "cards" in spec.tables:
        return None
    return max(DECK_LISTS, spec.raw_sample or 0)


def layout(resolved: Resolved) -> dict[str, str]:
    """Return what each table directory of the run holds: raw, raw sample or aggregate."""
    spec = resolved.spec
    out = {t: "raw" for t in spec.tables}
    if spec.raw_sample:
        for t in ("cards", "turns"):
            out.setdefault(t, f"raw sample (games 0 .. {spec.raw_sample - 1})")
    return out | {name: "aggregate" for name in aggregate_keys(resolved)}


def derived_seed(resolved: Resolved) -> bool:
    """Return whether ``games.seed`` is ``game_seed(root_seed, game)`` (one games row per game), so not stored."""
    return resolved.game.rows_per_game["games"](resolved.params) == 1


def write_dimensions(resolved: Resolved, run_dir: Path, manifest: dict[str, Any]) -> None:
    import polars as pl

    card_dimension(resolved.pool, resolved.game.enums.get("card_dim")).write_parquet(run_dir / "cards.parquet")
    bots = manifest["bots"]
    pl.DataFrame(
        {
            "seat": list(range(len(bots))),
            "bot": bots,
            "bot_id": resolved.bot_ids.tolist(),
            "weights": [io.json.dumps(manifest["bot_weights"][b]) for b in bots],
        }
    ).write_parquet(run_dir / "bots.parquet")
    io.write_json(run_dir / "params.json", manifest["params"])
    io.write_json(run_dir / io.MANIFEST, manifest)


def versions() -> dict[str, str]:
    names = ("numpy", "numba", "polars", "pyarrow", "balance-lab")
    found = {"python": platform.python_version()}
    for name in names:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def git_revision() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True, cwd=Path(__file__).parent
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain"], capture_output=True, text=True, cwd=Path(__file__).parent
        )
        return out.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
