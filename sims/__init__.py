"""Game simulators: one package per game, each exposing a ``GameSpec`` named ``GAME``.

Index letters used throughout: ``g`` game, ``p`` player/seat, ``c`` card id, ``t`` turn.
"""

from __future__ import annotations

import importlib

from sims.core.spec import GameSpec

GAMES: dict[str, str] = {
    "cardinger": "sims.cardinger",
    "blessings": "sims.blessings",
    "cardrpg": "sims.cardrpg",
    "cardia": "sims.cardia",
    "cardwars": "sims.cardwars",
}


def available() -> tuple[str, ...]:
    """Return the registered game names."""
    return tuple(GAMES)


def load(name: str) -> GameSpec:
    """Import a game lazily, so its kernels compile or load from cache only when used."""
    try:
        module = GAMES[name]
    except KeyError:
        known = ", ".join(GAMES)
        raise KeyError(f"unknown game {name!r}; known games: {known}") from None
    game: GameSpec = importlib.import_module(module).GAME
    return game
