"""Helpers for Cardinger rule tests: hand-built card tables and positions.

Tests never read inferred stats from cards.csv: each builds the cards it needs with these
helpers, which the ``cg`` fixture hands to every test (``cg.make_state(...)``).
A position is a ``STATE_DTYPE[1]`` array; ``s = state[0]`` is what kernels take, and
``s["field"]["hp"][p, slot]`` style views read and write it from Python.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import sims
from sims.cardinger import kernel
from sims.cardinger.params import Params
from sims.cardinger.state import CARD_DTYPE, EndReason, Keyword, Phase

GAME = sims.load("cardinger")


def make_cards(*specs: dict) -> np.ndarray:
    """Return a CARD_DTYPE table; each spec gives any of cost, hp, atk, def_, draw, score, keywords."""
    table = np.zeros(len(specs), dtype=CARD_DTYPE)
    for c, spec in enumerate(specs):
        table[c]["set"] = 1
        table[c]["hp"] = 1
        for key, value in spec.items():
            table[c][key] = int(value)
    return table


def make_state(
    cards: np.ndarray,
    params: Params | None = None,
    *,
    hands=((), ()),
    decks=((), ()),
    fields=((), ()),
    discards=((), ()),
    mover: int = 0,
    turn: int = 3,
    phase: int = Phase.PLAY,
    plays_left: int = 5,
    fresh=((), ()),
    bot: str = "greedy",
) -> tuple[np.ndarray, np.void]:
    """Return ``(state, s)``: a position with the given piles (card ids, deck top last) and fields.

    Field cards get their full actions (played on an earlier turn) except the slots listed in
    ``fresh[p]`` (played this turn). Both seats' bot weights are ``bot``'s defaults.
    """
    params = params or Params()
    weights = np.stack([GAME.make_weights(bot)] * 2)
    state = kernel.prepare(cards, params, weights, 1)
    s = state[0]
    piles, field = s["piles"], s["field"]
    for p in range(2):
        for name, ids in (("deck", decks[p]), ("hand", hands[p]), ("discard", discards[p])):
            piles[name][p, : len(ids)] = ids
            piles[f"{name}_n"][p] = len(ids)
        built = [*decks[p], *hands[p], *discards[p], *fields[p]]
        piles["built"][p, :] = -1
        piles["built"][p, : len(built)] = built
        for slot, c in enumerate(fields[p]):
            field["card"][p, slot] = c
            field["hp"][p, slot] = cards[c]["hp"]
            field["def_"][p, slot] = cards[c]["def_"]
            full = 2 if cards[c]["keywords"] & Keyword.DOUBLE else 1
            field["acts"][p, slot] = 0 if slot in fresh[p] else full
        field["n"][p] = len(fields[p])
        for c in built:
            s["tally"]["cards"][p, c]["first_drawn_turn"] = -1
            s["tally"]["cards"][p, c]["first_played_turn"] = -1
    meta = s["meta"]
    meta["mover"], meta["turn"], meta["phase"], meta["plays_left"] = mover, turn, phase, plays_left
    meta["winner"], meta["end_reason"], meta["pending_card"] = -1, EndReason.TIMEOUT, -1
    return state, s


def hand(s, p: int) -> list[int]:
    """Return seat ``p``'s hand card ids."""
    return s["piles"]["hand"][p, : s["piles"]["hand_n"][p]].tolist()


def pile(s, name: str, p: int) -> list[int]:
    """Return seat ``p``'s ``deck``, ``hand`` or ``discard`` card ids (deck top last)."""
    return s["piles"][name][p, : s["piles"][f"{name}_n"][p]].tolist()


def field_cards(s, p: int) -> list[int]:
    """Return seat ``p``'s field card ids in slot order."""
    return s["field"]["card"][p, : s["field"]["n"][p]].tolist()


def legal(s) -> set[int]:
    """Return the mover's legal actions as a set of encoded ints."""
    out = np.zeros(256, dtype=np.int32)
    n = kernel.legal_actions(s, out)
    return set(out[:n].tolist())


def chunk(params: Params, bots=("greedy", "greedy"), n: int = 200, seed: int = 1, tables=("games", "seats")) -> dict:
    """Play ``n`` games of the default pool under ``params`` and return the record tables."""
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    decks = np.zeros((2, params.deck_size), np.int16)
    ids = np.array([GAME.bots.index(b) for b in bots], np.int64)
    weights = np.stack([GAME.make_weights(b) for b in bots])
    return GAME.play_chunk(params, pool, decks, ids, weights, seed, 0, n, tables)


@pytest.fixture(scope="session")
def cg() -> SimpleNamespace:
    """Return the Cardinger test helpers of this module as one namespace."""
    return SimpleNamespace(
        GAME=GAME, make_cards=make_cards, make_state=make_state, hand=hand, pile=pile,
        field_cards=field_cards, legal=legal, chunk=chunk,
    )  # fmt: skip
