"""Game simulators: one package per game, each exposing a ``GameSpec`` named ``GAME`` and a ``GameInfo`` named ``INFO``.

A game's package builds ``GAME`` (importing its kernels, and Numba) when ``GAME`` is first
asked for; ``INFO`` (name, rules version, variants) is there without them.

Index letters used throughout: ``g`` game, ``p`` player/seat, ``c`` card id, ``t`` turn.
"""

from __future__ import annotations

import importlib

from sims.core.spec import GameInfo, GameSpec

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


def _module(name: str) -> str:
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(GAMES)
        raise KeyError(f"unknown game {name!r}; known games: {known}") from None


def load(name: str) -> GameSpec:
    """Import a game lazily, so its kernels compile or load from cache only when used."""
    game: GameSpec = importlib.import_module(_module(name)).GAME
    return game


def info(name: str) -> GameInfo:
    """Return what a report needs to know about a game (``GameInfo``) without importing its kernels."""
    game: GameInfo = importlib.import_module(_module(name)).INFO
    return game
