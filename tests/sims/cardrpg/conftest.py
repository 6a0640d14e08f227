"""Helpers for CardRPG Advanced rule tests: positions built by hand on the real 54-card deck.

The deck is the standard one (checked against the rulebook in test_pool.py), so tests name
cards as ``deck.csv`` does: ``card("heart:7")``, ``card("joker:1")``. A position is a
``STATE_DTYPE[1]`` array; ``s = state[0]`` is what kernels take, and item syntax
(``s["piles"]["hand"][k]``, ``s["hero"]["hp"]``) reads and writes it from Python.

Piles are given **top first**, as the rulings' examples list them (E9: "[K, Q, 7], top
first"): ``draw=("spade:7", "heart:2")`` puts the 7 on top of the draw pile. Every card not
placed anywhere (and not the class card) goes to the discard pile, or under the draw pile
with ``rest="draw"``, so ``kernel.conserved(s)`` holds for the position as built.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import sims
from sims.cardrpg import bots, kernel
from sims.cardrpg.params import Params
from sims.cardrpg.state import MAX_ACTIONS, NO_CARD, RING, ClassCard, EndReason, Kind, Outcome, Phase, Suit
from sims.core import rng

GAME = sims.load("cardrpg")
POOL = GAME.load_pool(GAME.cards_path)
NAMES = POOL.names
IDS = {name: c for c, name in enumerate(NAMES)}
SUITS = ("spade", "heart", "diamond", "club")


def card(name: str) -> int:
    """Return the id of the card ``name``, e.g. ``"spade:queen"``."""
    return IDS[name]


def cards(*names: str) -> list[int]:
    """Return the ids of ``names``."""
    return [IDS[n] for n in names]


def class_code(name: str) -> int:
    """Return the ClassCard code of the class card ``name`` (e.g. ``"spade:queen"`` -> SPADE_QUEEN)."""
    suit, rank = name.split(":")
    return int(ClassCard[f"{suit.upper()}_{rank.upper()}"])


def make_state(
    params: Params | None = None,
    *,
    hero: str = "spade:queen",
    level: int = 1,
    strength: int = 5,
    hp_max: int = 8,
    hp: int | None = None,
    xp: int = 0,
    gold: int = 0,
    hand=(),
    inv=(),
    draw=(),
    discard=(),
    bone=(),
    mpile=(),
    bonus=(),
    play=(),
    monster: str | None = None,
    monster_hp: int = 10,
    monster_xp: int | None = None,
    rest: str = "discard",
    phase: int | None = None,
    sick: int = 0,
    attacks_left: int = 1,
    attacks_made: int = 0,
    battle: int = 1,
    session: int = 0,
    bot: str = "greedy",
    weights: dict | None = None,
    log: bool = True,
    seed: int = 1,
    draw_lo: int = RING - 3,
) -> tuple[np.ndarray, np.void]:
    """Return ``(state, s)``: a position with the given zones (card names; piles top first).

    ``hero`` is the class card. ``bone`` holds ``(name, face_up)`` pairs. With a ``monster``
    the battle is in progress (phase PLAYER unless given, its row in the battle tally
    still ``abandoned`` as ``start_battle`` leaves it); without one, the phase defaults to
    BETWEEN. ``draw_lo`` starts the draw pile's ring near its end, so draws and puts under
    it wrap around. The RNG lanes are seeded from ``seed`` as a real character's are.
    """
    params = params or Params()
    w = GAME.make_weights(bot, weights)[None, :]
    state = kernel.prepare(POOL.table, params, w, int(log))
    s = state[0]
    q = s["piles"]
    class_id = card(hero)
    placed: list[int] = [class_id]

    def put(zone: str, names) -> None:
        ids = cards(*names)
        q[zone][: len(ids)] = ids
        q[f"{zone}_n"] = len(ids)
        placed.extend(ids)

    put("hand", hand)
    put("inv", inv)
    put("bonus", bonus)
    put("play", play)
    put("mpile", list(reversed(mpile)))  # stored bottom first, top = last
    bone_ids = [card(n) for n, _ in bone]
    q["bone"][: len(bone_ids)] = bone_ids
    q["bone_up"][: len(bone_ids)] = [int(up) for _, up in bone]
    q["bone_n"] = len(bone_ids)
    placed += bone_ids
    if monster is not None:
        placed.append(card(monster))
    drawn = cards(*draw)
    placed += drawn
    placed += cards(*discard)
    assert len(placed) == len(set(placed)), "a card was placed twice"
    left = [c for c in range(len(NAMES)) if c not in placed]
    disc = ([*left] if rest == "discard" else []) + cards(*discard)  # given discards on top (newest)
    q["discard"][: len(disc)] = disc
    q["discard_n"] = len(disc)
    pile = ([*left] if rest == "draw" else []) + list(reversed(drawn))  # bottom first
    q["draw_lo"] = draw_lo
    q["draw_n"] = len(pile)
    for k, c in enumerate(pile):
        q["draw"][(draw_lo + k) % RING] = c
    h = s["hero"]
    h["class_card"], h["class_id"] = class_code(hero), class_id
    h["rank"], h["suit"] = POOL.table[class_id]["rank"], POOL.table[class_id]["suit"]
    h["level"], h["str"], h["hp_max"] = level, strength, hp_max
    h["hp"] = hp_max if hp is None else hp
    h["xp"], h["gold"] = xp, gold
    m = s["meta"]
    m["bot"] = GAME.bots.index(bot)
    m["battle"], m["session"], m["sick"] = battle, session, sick
    m["attacks_left"], m["attacks_made"] = attacks_left, attacks_made
    m["end_reason"] = EndReason.BATTLE_CAP
    mon = s["monster"]
    t = s["tally"]
    t["row"], t["n_battles"] = 0, 1
    t["battles"][0]["turn"] = battle
    if monster is None:
        mon["card"] = NO_CARD
        t["battles"][0]["outcome"] = Outcome.WON
        m["phase"] = Phase.BETWEEN if phase is None else phase
    else:
        c = card(monster)
        kind = kernel.monster_kind(s, c)
        mon["card"], mon["kind"], mon["hp"], mon["hp_start"] = c, kind, monster_hp, monster_hp
        mon["xp"] = default_xp(c, monster_hp) if monster_xp is None else monster_xp
        m["jack_first"] = int(POOL.table[c]["rank"] == 11)
        t["battles"][0]["outcome"] = Outcome.ABANDONED
        t["battles"][0]["monster_card"] = c
        m["phase"] = Phase.PLAYER if phase is None else phase
    rng.seed_lanes(s["scratch"]["rng"], np.uint64(seed))
    assert kernel.conserved(s), "position does not hold every card exactly once"
    return state, s


def default_xp(c: int, hp: int) -> int:
    """Return a monster's XP as the position's default (a number card its value, a face card its HP, a Joker half)."""
    kind = int(POOL.table[c]["kind"])
    if kind == Kind.JOKER:
        return hp // 2
    if kind == Kind.FACE:
        return hp
    return int(POOL.table[c]["value"])


def new_character(params: Params | None = None, bot: str = "greedy", seed: int = 1, character: int = 0):
    """Return ``(state, s)`` of a real character set up from ``seed`` (event log on), at its first decision."""
    params = params or Params()
    table = GAME.prepare_pool(POOL, params).table  # without the Jokers for classic (its ids 0-51 are the same)
    state = kernel.prepare(table, params, GAME.make_weights(bot)[None, :], 1)
    s = state[0]
    s["meta"]["bot"] = GAME.bots.index(bot)
    assert kernel.set_up(s, character, np.uint64(seed))
    return state, s


def play_character(params: Params | None = None, bot: str = "greedy", seed: int = 1, character: int = 0):
    """Play one character to the end as ``check_games`` does (event log on); return ``(state, s, report)``."""
    params = params or Params()
    table = GAME.prepare_pool(POOL, params).table
    state = kernel.prepare(table, params, GAME.make_weights(bot)[None, :], 1)
    report = np.zeros(4, np.int64)
    kernel.play_character(state[0], GAME.bots.index(bot), character, np.uint64(seed), report)
    return state, state[0], report


def play_on(s, bot: str | None = None, limit: int = 100000) -> int:
    """Let ``bot`` (default: the position's) decide until the run is over; return the decisions taken.

    Every chosen action must be legal and every card must stay in exactly one zone.
    """
    b = int(s["meta"]["bot"]) if bot is None else GAME.bots.index(bot)
    kernel.advance(s)
    n = 0
    while s["meta"]["phase"] != Phase.OVER and n < limit:
        s["scratch"]["n_legal"] = kernel.legal_actions(s, s["scratch"]["legal"])
        a = bots.choose(b, s)
        assert a in set(s["scratch"]["legal"][: s["scratch"]["n_legal"]].tolist())
        kernel.apply_action(s, a)
        assert kernel.conserved(s)
        n += 1
    assert s["meta"]["phase"] == Phase.OVER
    return n


def legal(s) -> set[int]:
    """Return the legal encoded actions of the current decision."""
    out = np.zeros(MAX_ACTIONS, dtype=np.int32)
    n = kernel.legal_actions(s, out)
    return set(out[:n].tolist())


def events(s, kind=None) -> list:
    """Return the logged events of ``s`` (only those of ``kind`` if given)."""
    log = s["scratch"]["log"][: s["meta"]["log_n"]]
    return [e for e in log if kind is None or e["kind"] == kind]


def zone(s, name: str) -> list[str]:
    """Return the cards of ``hand``, ``inv``, ``discard`` (oldest first), ``bonus`` or ``play`` as names."""
    q = s["piles"]
    return [NAMES[c] for c in q[name][: q[f"{name}_n"]]]


def draw_pile(s) -> list[str]:
    """Return the draw pile as names, top first."""
    q = s["piles"]
    lo, n = int(q["draw_lo"]), int(q["draw_n"])
    return [NAMES[q["draw"][(lo + k) % RING]] for k in reversed(range(n))]


def mpile(s) -> list[str]:
    """Return the monster's attack pile as names, top first."""
    q = s["piles"]
    return [NAMES[c] for c in reversed(q["mpile"][: q["mpile_n"]])]


def bone(s) -> list[tuple[str, bool]]:
    """Return the bone pile as ``(name, face_up)`` pairs, oldest first."""
    q = s["piles"]
    return [(NAMES[q["bone"][k]], bool(q["bone_up"][k])) for k in range(q["bone_n"])]


def chunk(params: Params, bot: str = "greedy", n: int = 40, seed: int = 1, tables=("games", "turns")) -> dict:
    """Play ``n`` characters of the real deck under ``params`` and return the record tables."""
    pool = GAME.prepare_pool(POOL, params)
    ids = np.array([GAME.bots.index(bot)], np.int64)
    weights = GAME.make_weights(bot)[None, :]
    return GAME.play_chunk(params, pool, np.zeros((1, 54), np.int16), ids, weights, seed, 0, n, tables)


def suit_of(name: str) -> int:
    """Return the Suit code of a card name."""
    return int(Suit[name.split(":")[0].upper()]) if not name.startswith("joker") else int(Suit.NONE)


@pytest.fixture
def rpg():
    """The helpers above as one namespace, plus the kernel, bots and Params."""
    return SimpleNamespace(
        make_state=make_state, card=card, cards=cards, class_code=class_code, new_character=new_character,
        play_character=play_character, play_on=play_on, legal=legal, events=events, zone=zone,
        draw_pile=draw_pile, mpile=mpile, bone=bone, chunk=chunk, suit_of=suit_of,
        kernel=kernel, bots=bots, Params=Params, GAME=GAME, POOL=POOL, NAMES=NAMES,
    )  # fmt: skip
