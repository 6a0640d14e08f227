"""Helpers for Blessings & Curses rule tests: positions built by hand on the real card table.

The card table is the rulebook's own (exact, E1), so tests name cards as the rulebook does:
``card("heart:10")``. A position is a ``STATE_DTYPE[1]`` array; ``s = state[0]`` is what
kernels take, and ``s["piles"]["hp"][p, c]`` style views read and write it from Python.
"""

from __future__ import annotations

import numpy as np
import pytest

import sims
from sims.blessings import kernel
from sims.blessings.params import Params
from sims.blessings.state import MAX_ACTIONS, EndReason, Phase
from sims.core import rng

GAME = sims.load("blessings")
POOL = GAME.load_pool(GAME.cards_path)
IDS = {name: c for c, name in enumerate(POOL.names)}


def card(name: str) -> int:
    """Return the id of the card named as in the rulebook table, e.g. ``"spade:queen"``."""
    return IDS[name]


def cards(*names: str) -> list[int]:
    """Return the ids of ``names``."""
    return [IDS[n] for n in names]


def make_state(
    params: Params | None = None,
    *,
    hands=((), ()),
    decks=((), ()),
    discards=((), ()),
    gone=((), ()),
    owned=None,
    curse=(0, 0),
    blessing=(0, 0),
    mover: int = 0,
    phase: int = Phase.PLAY,
    to_play: int | None = None,
    battle: int = 1,
    battle_turn: int = 1,
    own_turns=(1, 1),
    bots=("greedy", "greedy"),
    weights=None,
    log: bool = True,
    seed: int = 1,
) -> tuple[np.ndarray, np.record]:
    """Return ``(state, s)``: a position with the given piles (card names, deck top last).

    Hands get full Health. ``owned`` defaults to every card a seat holds in some pile, so
    the conservation audit holds for the position as built. ``to_play`` defaults to the
    mover's whole hand. ``weights`` (one dict of overrides per seat) adjusts the bots'
    weights; the RNG lanes are seeded from ``seed`` as a real game's are.
    """
    params = params or Params()
    weights = np.stack([GAME.make_weights(b, (weights or ({}, {}))[p]) for p, b in enumerate(bots)])
    state = kernel.prepare(POOL.table, params, weights, int(log))
    s = state[0]
    q = s["piles"]
    for p in range(2):
        s["meta"]["bots"][p] = GAME.bots.index(bots[p])
        zones = {"hand": hands[p], "deck": decks[p], "discard": discards[p], "gone": gone[p]}
        mine: list[int] = []
        for zone, names in zones.items():
            ids = cards(*names)
            q[zone][p, : len(ids)] = ids
            q[f"{zone}_n"][p] = len(ids)
            mine += ids
        for c in cards(*hands[p]):
            q["hp"][p, c] = params.card_health
        own = sorted(mine) if owned is None else cards(*owned[p])
        q["owned"][p, : len(own)] = own
        q["owned_n"][p] = len(own)
        recs = s["tally"]["cards"]
        for c in own:
            recs["seat"][p, c], recs["card"][p, c] = p, c
            recs["first_drawn_turn"][p, c] = recs["first_played_turn"][p, c] = -1
        s["pools"]["curse"][p], s["pools"]["blessing"][p] = curse[p], blessing[p]
        s["meta"]["own_turns"][p] = own_turns[p]
    m = s["meta"]
    m["mover"], m["phase"], m["battle"], m["battle_turn"], m["turn"] = mover, phase, battle, battle_turn, battle_turn
    m["to_play"] = len(hands[mover]) if to_play is None else to_play
    m["winner"], m["end_reason"] = -1, EndReason.BATTLE_CAP  # what a game not (yet) ended records
    rng.seed_lanes(s["scratch"]["rng"], np.uint64(seed))
    return state, s


def new_game(params: Params | None = None, bots=("greedy", "greedy"), seed: int = 1, game: int = 0):
    """Return ``(state, s)`` of a real game set up from ``seed`` (event log on), at its first decision."""
    params = params or Params()
    weights = np.stack([GAME.make_weights(b) for b in bots])
    state = kernel.prepare(POOL.table, params, weights, 1)
    s = state[0]
    for p in range(2):
        s["meta"]["bots"][p] = GAME.bots.index(bots[p])
    kernel.set_up(s, game, np.uint64(seed))
    return state, s


def legal(s) -> set[int]:
    """Return the legal encoded actions of the current decision."""
    out = np.zeros(MAX_ACTIONS, dtype=np.int32)
    n = kernel.legal_actions(s, out)
    return set(out[:n].tolist())


def events(s, kind=None) -> list:
    """Return the logged events of ``s`` (only those of ``kind`` if given)."""
    log = s["scratch"]["log"][: s["meta"]["log_n"]]
    return [e for e in log if kind is None or e["kind"] == kind]


def chunk(params: Params, bots=("greedy", "greedy"), n: int = 50, seed: int = 1, tables=("games", "turns")) -> dict:
    """Play ``n`` games of the real pool under ``params`` and return the record tables."""
    pool = GAME.prepare_pool(POOL, params)
    ids = np.array([GAME.bots.index(b) for b in bots], np.int64)
    weights = np.stack([GAME.make_weights(b) for b in bots])
    return GAME.play_chunk(params, pool, np.zeros((2, 52), np.int16), ids, weights, seed, 0, n, tables)


def hand(s, p: int) -> list[str]:
    """Return seat ``p``'s hand as card names, left to right."""
    q = s["piles"]
    return [POOL.names[c] for c in q["hand"][p, : q["hand_n"][p]]]


def pile(s, zone: str, p: int) -> list[str]:
    """Return seat ``p``'s ``zone`` (deck, discard, gone) as card names, bottom first."""
    q = s["piles"]
    return [POOL.names[c] for c in q[zone][p, : q[f"{zone}_n"][p]]]


def health(s, p: int, name: str) -> int:
    """Return the Health of seat ``p``'s card ``name``."""
    return int(s["piles"]["hp"][p, IDS[name]])


CACHE = ("cand_a", "cand_v", "cand_game", "cand_turn", "cand_left")  # greedy's kept card values (bots.card_choice)


def without_cache(state: np.ndarray) -> np.ndarray:
    """Return a copy of ``state`` with greedy's kept card values (its work buffer, not the position) zeroed."""
    copy = np.frombuffer(bytearray(state.tobytes()), dtype=state.dtype)  # every byte: ``copy()`` leaves padding out
    for name in CACHE:
        copy[0]["scratch"][name] = 0
    return copy


@pytest.fixture
def bl():
    """The helpers above as one namespace, plus the kernel and Params."""
    from types import SimpleNamespace

    return SimpleNamespace(
        make_state=make_state, card=card, cards=cards, hand=hand, pile=pile, health=health,
        kernel=kernel, Params=Params, GAME=GAME, POOL=POOL, new_game=new_game, legal=legal,
        events=events, chunk=chunk, without_cache=without_cache,
    )  # fmt: skip
