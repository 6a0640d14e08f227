"""CardRPG Advanced bots: one pure @kernel policy per ``Bot``, dispatched by ``choose``.

The player sees everything a solitaire player sees: hand, Inventory, gold, the monster,
its HP and kind, pile sizes (never the order of the draw pile or the monster's attack
pile). Policies return one encoded action (``state.encode``).

- ``random``: uniform over the legal actions, except that it never quits a session
  voluntarily (a random quit would end most sessions at once).
- ``greedy``: hits as hard as it can every turn. It plays every Spade and Club it holds
  (a Heart stays a Heart), then the hand combo with the most damage; uses the A-spade on
  Jokers and face monsters, the A-club when the whole hand kills; buys back the best
  discarded number card while it has gold; buys a revealed card it can afford.
- ``planner``: spends as little as it can. It kills with the smallest combo that does
  (adding Spades, then Clubs, only when they make the kill this turn), otherwise attacks
  with its strongest combo and keeps its Inventory for dangerous monsters; saves the
  A-spade for Jokers and for monsters its hand cannot beat; buys back only good cards
  and only while the draw pile is long enough to use them.
"""

from enum import IntEnum
from typing import NamedTuple

import numpy as np

from sims.cardrpg import kernel as rules
from sims.cardrpg.state import (
    A_CLUBS,
    A_SPADES,
    JACK,
    N_WEIGHTS,
    ActionKind,
    Kind,
    Lane,
    MonsterKind,
    Phase,
    Suit,
    encode,
)
from sims.core import rng
from sims.core.jit import kernel


class Bot(IntEnum):
    """Policies by id; the lower-case names are what users type."""

    RANDOM = 0
    GREEDY = 1
    PLANNER = 2


class BotParams(NamedTuple):
    """Bot weights (floats); all bots share the fields, each has its own defaults."""

    face_value: float = 6.0  # expected damage of a random attack (a face card played from hand)
    buyback_min: float = 7.0  # buy back discarded number cards of at least this value
    buy_min: float = 6.0  # buy a revealed number card of at least this value (if affordable)
    reveal_gold: float = 10.0  # reveal the top card to buy only with at least this much gold
    reveal_pile: float = 0.0  # ... and at least this many cards in the draw pile (planner)
    keep_hand: float = 0.5  # a King keeps his hand at death if it holds >= this share of STR
    hand_cap: float = 99.0  # planner: buy back only while the hand is below STR + this
    quit_pile: float = 0.0  # quit the session when the draw pile is below this (0 = never, R1)


class W(IntEnum):
    """Index of each ``BotParams`` field in a weight vector."""

    FACE_VALUE = 0
    BUYBACK_MIN = 1
    BUY_MIN = 2
    REVEAL_GOLD = 3
    REVEAL_PILE = 4
    KEEP_HAND = 5
    HAND_CAP = 6
    QUIT_PILE = 7


assert [m.name.lower() for m in W] == list(BotParams._fields)
assert len(BotParams._fields) <= N_WEIGHTS

DEFAULTS = {
    "random": BotParams(),
    "greedy": BotParams(),
    "planner": BotParams(buyback_min=6.0, buy_min=5.0, reveal_gold=8.0, reveal_pile=12.0, hand_cap=2.0),
}


# -- shared helpers ----------------------------------------------------------------------------------


@kernel
def combo_damage(s, rank: int, count: int) -> float:
    """Return the expected damage of ``count`` hand cards of combo key ``rank``."""
    if rank >= JACK:
        return count * s.scratch.weights[W.FACE_VALUE]
    return float(count * rank)  # numbers and Aces: rank = value


@kernel
def best_combo(s) -> int:
    """Return the ATTACK action with the most expected damage (all cards of the best rank), or -1 (empty hand)."""
    best, best_d = -1, -np.inf  # any combo beats none, whatever face_value is
    for rank in range(1, 15):
        cnt = rules.count_rank(s, rank)
        if cnt > 0:
            d = combo_damage(s, rank, cnt)
            if d > best_d:
                best, best_d = encode(ActionKind.ATTACK, rank, cnt), d
    return best


@kernel
def smallest_kill(s, hp: float) -> int:
    """Return the ATTACK action using the fewest number cards that surely deals ``hp`` (ties: least waste), or -1."""
    best, best_cards, best_waste = -1, 99, 1e9
    for rank in range(1, 11):
        cnt = rules.count_rank(s, rank)
        for k in range(1, cnt + 1):
            d = k * rank
            if d >= hp and (k < best_cards or (k == best_cards and d - hp < best_waste)):
                best, best_cards, best_waste = encode(ActionKind.ATTACK, rank, k), k, d - hp
    return best


@kernel
def own_spade(s, c: int) -> bool:
    """Return True for an Inventory card a heuristic bot plays as a Spade (a Heart stays a Heart)."""
    card = s.cards[c]
    return rules.acts_as(s, c, Suit.SPADE) and card.suit != Suit.HEART


@kernel
def own_club(s, c: int) -> bool:
    """Return True for an Inventory card a heuristic bot plays as a Club (Hearts and Spades keep their use)."""
    card = s.cards[c]
    return rules.acts_as(s, c, Suit.CLUB) and card.suit != Suit.HEART and card.suit != Suit.SPADE


@kernel
def best_buyback(s, minimum: float) -> int:
    """Return the BUYBACK action of the highest discarded number card worth at least ``minimum``, or -1."""
    q = s.piles
    best, best_v = -1, minimum - 1
    for i in range(q.discard_n):
        card = s.cards[q.discard[i]]
        if card.kind == Kind.NUMBER and card.value > best_v:
            best, best_v = i, card.value
    return encode(ActionKind.BUYBACK, best, 0) if best >= 0 else -1


@kernel
def spade_total(s) -> float:
    """Return the bonus damage of every Inventory card the bot would play as a Spade."""
    total = 0.0
    for k in range(s.piles.inv_n):
        c = s.piles.inv[k]
        if own_spade(s, c):
            total += s.cards[c].value
    return total


@kernel
def first_inv(s, spade: bool) -> int:
    """Return the Inventory index of the first card the bot plays as a Spade (or Club), or -1."""
    for k in range(s.piles.inv_n):
        c = s.piles.inv[k]
        if (spade and own_spade(s, c)) or (not spade and own_club(s, c)):
            return k
    return -1


# -- decisions shared by the heuristic bots ----------------------------------------------------------------


@kernel
def between(s, planner: bool) -> int:
    """BETWEEN: buy back, reveal to buy, quit or go on."""
    w = s.scratch.weights
    q = s.piles
    if q.draw_n < w[W.QUIT_PILE]:
        return encode(ActionKind.QUIT, 0, 0)
    if rules.can_buyback(s) and (not planner or q.hand_n < s.hero.str + w[W.HAND_CAP]):
        a = best_buyback(s, w[W.BUYBACK_MIN])
        if a >= 0:
            return a
    if q.draw_n > 0 and s.hero.gold >= w[W.REVEAL_GOLD] and q.draw_n >= w[W.REVEAL_PILE]:
        return encode(ActionKind.REVEAL, 0, 0)
    return encode(ActionKind.END, 0, 0)


@kernel
def buy(s) -> int:
    """BUY: take the revealed card if it can be bought and is worth it (never a Diamond: it is only gold)."""
    c = s.meta.revealed
    card = s.cards[c]
    worth = card.kind == Kind.ACE or (card.suit != Suit.DIAMOND and card.value >= s.scratch.weights[W.BUY_MIN])
    return encode(ActionKind.BUY if rules.can_buy(s) and worth else ActionKind.PASS, 0, 0)


@kernel
def king_keep(s) -> int:
    """KING_KEEP: keep a hand holding at least ``keep_hand`` x STR cards (R18 bot policy)."""
    keep = s.piles.hand_n >= s.scratch.weights[W.KEEP_HAND] * s.hero.str
    return encode(ActionKind.KEEP if keep else ActionKind.PASS, 0, 0)


# -- policies ---------------------------------------------------------------------------------------------------


@kernel
def choose_random(s) -> int:
    """Uniform over the legal actions, never QUIT."""
    n = s.scratch.n_legal
    quit_action = encode(ActionKind.QUIT, 0, 0)
    k = rng.randint(s.scratch.rng, Lane.BOT, n)
    if s.scratch.legal[k] == quit_action:
        k = (k + 1) % n
    return s.scratch.legal[k]


@kernel
def choose_greedy(s) -> int:
    """Hit as hard as possible (module docstring)."""
    m = s.meta
    q = s.piles
    ph = m.phase
    if ph == Phase.PRE_STRIKE:
        use = s.monster.kind == MonsterKind.JOKER or s.monster.kind == MonsterKind.FACE
        return (
            encode(ActionKind.ACE_SPADE, rules.find_ace(s, Suit.SPADE, A_SPADES), 0)
            if use
            else encode(ActionKind.PASS, 0, 0)
        )
    if ph == Phase.KING_KEEP:
        return king_keep(s)
    if ph == Phase.BUY:
        return buy(s)
    if ph == Phase.BETWEEN:
        return between(s, False)
    a = rules.find_ace(s, Suit.SPADE, A_SPADES)
    if a >= 0 and (s.monster.kind == MonsterKind.JOKER or s.monster.kind == MonsterKind.FACE):
        return encode(ActionKind.ACE_SPADE, a, 0)
    k = first_inv(s, True)
    if k >= 0 and m.attacks_left > 0:  # Spades go before a hand attack (R14)
        return encode(ActionKind.SPADE, k, 0)
    k = first_inv(s, False)
    if k >= 0 and q.hand_n > 0:
        return encode(ActionKind.CLUB, k, 0)
    if m.attacks_left > 0 and q.hand_n > 0:
        a = rules.find_ace(s, Suit.CLUB, A_CLUBS)
        if a >= 0 and hand_damage(s) >= s.monster.hp:
            return encode(ActionKind.ACE_CLUB, a, 0)
        return best_combo(s)
    return encode(ActionKind.END, 0, 0)


@kernel
def hand_damage(s) -> float:
    """Return the expected damage of the whole hand played at once."""
    total = 0.0
    for rank in range(1, 15):
        cnt = rules.count_rank(s, rank)
        if cnt > 0:
            total += combo_damage(s, rank, cnt)
    return total


@kernel
def choose_planner(s) -> int:
    """Spend as little as possible (module docstring)."""
    m = s.meta
    q = s.piles
    ph = m.phase
    mon = s.monster
    joker = mon.kind == MonsterKind.JOKER
    if ph == Phase.PRE_STRIKE:
        return (
            encode(ActionKind.ACE_SPADE, rules.find_ace(s, Suit.SPADE, A_SPADES), 0)
            if joker
            else encode(ActionKind.PASS, 0, 0)
        )
    if ph == Phase.KING_KEEP:
        return king_keep(s)
    if ph == Phase.BUY:
        return buy(s)
    if ph == Phase.BETWEEN:
        return between(s, True)
    hp = float(mon.hp)
    a = rules.find_ace(s, Suit.SPADE, A_SPADES)
    if a >= 0 and (joker or (m.attacks_made == 0 and hand_damage(s) + spade_total(s) < hp)):
        return encode(ActionKind.ACE_SPADE, a, 0)
    if m.attacks_left > 0 and q.hand_n > 0:
        kill = smallest_kill(s, hp)
        if kill >= 0:
            return kill
        spades = spade_total(s)
        if spades > 0 and smallest_kill(s, hp - spades) >= 0:
            return encode(ActionKind.SPADE, first_inv(s, True), 0)
        c = first_inv(s, False)
        if c >= 0 and m.attacks_left == 1 and hand_damage(s) + spades >= hp:
            return encode(ActionKind.CLUB, c, 0)  # two attacks make the kill
        b = rules.find_ace(s, Suit.CLUB, A_CLUBS)
        if b >= 0 and hand_damage(s) >= hp and (joker or mon.kind == MonsterKind.FACE):
            return encode(ActionKind.ACE_CLUB, b, 0)
        if joker and spades > 0:
            return encode(ActionKind.SPADE, first_inv(s, True), 0)
        return best_combo(s)
    if q.hand_n == 0 and m.attacks_left > 0 and spade_total(s) >= hp:
        return encode(ActionKind.SPADE, first_inv(s, True), 0)
    return encode(ActionKind.END, 0, 0)


@kernel
def choose(bot: int, s) -> int:
    """Return the encoded action of policy ``bot`` for the current decision of ``s``."""
    if bot == Bot.RANDOM:
        return choose_random(s)
    if bot == Bot.GREEDY:
        return choose_greedy(s)
    return choose_planner(s)


@kernel
def needs_legal(bot: int) -> bool:
    """Return True if policy ``bot`` reads ``scratch.legal`` (the random bot)."""
    return bot == Bot.RANDOM
