"""CardRPG Advanced bots: one pure @kernel policy per ``Bot``, dispatched by ``choose``.

What the bots can count and what cards are worth to them is in ``estimates`` (with the
weights, ``BotParams``). Policies return one encoded action (``state.encode``).

- ``random``: uniform over the legal actions other than quitting (a random quit would end
  most sessions at once).
- ``greedy``: hits as hard as it can every turn. It plays every Spade and Club it holds
  (a Heart stays a Heart), then the hand combo with the most expected damage; uses the
  A-spade on Jokers and face monsters, the A-club on every card worth playing when the
  hand kills; buys back the best discarded number card while it can pay.
- ``planner``: spends as little as it can. It kills with the smallest combo that does
  (adding Spades, then Clubs, only when they make the kill this turn), otherwise attacks
  with its strongest combo and keeps its Inventory for dangerous monsters; saves the
  A-spade for Jokers and for monsters its hand cannot beat (before a Jack's first strike
  too), and blitzes with the A-club using the fewest cards that kill; buys back only good
  cards and only while the hand is short.

Shared by both heuristic bots:

- A random attack that cannot be drawn is not played when a number card can be
  (``estimates.face_damage``). With an empty hand, or only such random attacks, they buy
  back the best discarded number card when they can pay (gold "at any time", RULES.md
  §7 Q13).
- Between battles they reveal the top card only when no Joker is left in the draw pile
  (a revealed Joker cannot be bought and would be discarded) and at least
  ``reveal_odds`` of the draw pile are cards they would buy; they buy a revealed Diamond
  whenever they can pay (it turns straight back into the same gold and goes under the
  draw pile instead of the discard pile).
- A Diamond character sells an Inventory Spade or Club when its gold pays for good
  buy-backs that gold and the A-diamond cannot (R14); Hearts are kept for their life.
"""

from enum import IntEnum

import numpy as np

from sims.cardrpg import kernel as rules
from sims.cardrpg.estimates import (
    BotParams,
    W,
    best_buyback,
    best_combo,
    best_combo_damage,
    blitz_target,
    buyable_in_draw_pile,
    face_damage,
    first_inv,
    free_buybacks,
    hand_damage,
    numbers_in_hand,
    own_spade,
    smallest_kill,
    spade_total,
)
from sims.cardrpg.state import (
    JACK,
    ActionKind,
    BuybackDestination,
    Kind,
    Lane,
    MonsterKind,
    Phase,
    Suit,
    encode,
)
from sims.core import rng
from sims.core.jit import hot, kernel


class Bot(IntEnum):
    """Policies by id; the lower-case names are what users type."""

    RANDOM = 0
    GREEDY = 1
    PLANNER = 2


DEFAULTS = {
    "random": BotParams(),
    "greedy": BotParams(),
    "planner": BotParams(buyback_min=6.0, buy_min=5.0, reveal_pile=12.0, hand_cap=2.0),
}


# -- decisions shared by the heuristic bots ----------------------------------------------------------------


@hot
def refill(s) -> int:
    """PLAYER: the BUYBACK of the best discarded number card when the hand cannot attack usefully, or -1 (Q13).

    It applies with an empty hand, or when the best combo is a random attack that cannot
    be drawn (negative worth); the card goes to the hand and is then played.
    """
    m = s.meta
    if m.attacks_left <= 0 or not rules.can_buyback(s) or s.params.buyback_destination != BuybackDestination.HAND:
        return -1
    if s.piles.hand_n > 0 and (numbers_in_hand(s) or best_combo_damage(s) >= 0.0):
        return -1  # a number card (worth at least 1) or a random attack that can be drawn
    return best_buyback(s, 1.0)


@kernel
def reveal_pays(s) -> bool:
    """BETWEEN: return True if no Joker can be revealed and ``reveal_odds`` of the draw pile would be bought."""
    w = s.scratch.weights
    if s.piles.draw_n <= 0 or (s.hero.gold < w[W.BUY_MIN] and s.hero.gold < 20):
        return False  # no card is both worth buying and affordable
    at_least = w[W.REVEAL_ODDS] * s.piles.draw_n
    buyable = buyable_in_draw_pile(s, at_least)  # -1: a Joker could be revealed, or fewer than at_least
    return buyable > 0 and buyable >= at_least


@kernel
def sale(s, planner: bool) -> int:
    """BETWEEN: the SELL action of a Diamond character's Inventory card whose gold pays for good buy-backs, or -1.

    The buy-backs wanted are the discarded number cards worth ``buyback_min`` (the
    planner: no more than the hand has room for), less what gold and the A-diamond pay.
    A Spade is worth its value kept, a Club one good card; the card whose sale buys the
    most beyond that is sold. Hearts are kept (R14).
    """
    q = s.piles
    w = s.scratch.weights
    if s.hero.suit != Suit.DIAMOND or not s.params.class_powers:
        return -1
    wanted = 0
    for i in range(q.discard_n):
        card = s.cards[q.discard[i]]
        wanted += card.kind == Kind.NUMBER and card.value >= w[W.BUYBACK_MIN]
    if planner:
        wanted = min(wanted, max(0, int(s.hero.str + w[W.HAND_CAP]) - q.hand_n))
    need = wanted - s.hero.gold - free_buybacks(s)
    best, best_gain = -1, 0.0
    for k in range(q.inv_n):
        card = s.cards[q.inv[k]]
        if card.kind != Kind.NUMBER or card.suit == Suit.HEART:
            continue
        keep = float(card.value) if own_spade(s, q.inv[k]) else w[W.BUYBACK_MIN]
        gain = min(card.value, need) * w[W.BUYBACK_MIN] - keep
        if gain > best_gain:
            best, best_gain = k, gain
    return encode(ActionKind.SELL, best, 0) if best >= 0 else -1


@kernel
def between(s, planner: bool) -> int:
    """BETWEEN: sell (Diamond class), buy back, reveal to buy, quit or go on.

    Callers pass ``np.bool_(...)``, not a literal: one compiled version serves both bots.
    """
    w = s.scratch.weights
    q = s.piles
    if q.draw_n < w[W.QUIT_PILE]:
        return encode(ActionKind.QUIT, 0, 0)
    room = not planner or q.hand_n < s.hero.str + w[W.HAND_CAP]
    if room:
        a = sale(s, planner)
        if a >= 0:
            return a
    if rules.can_buyback(s) and room:
        a = best_buyback(s, w[W.BUYBACK_MIN])
        if a >= 0:
            return a
    if q.draw_n >= w[W.REVEAL_PILE] and reveal_pays(s):
        return encode(ActionKind.REVEAL, 0, 0)
    return encode(ActionKind.END, 0, 0)


@kernel
def buy(s) -> int:
    """BUY: take the revealed card if the bot wants it, and any Diamond it can pay (the same gold comes back)."""
    c = s.meta.revealed
    card = s.cards[c]
    worth = card.kind == Kind.ACE or (
        card.kind == Kind.NUMBER and (card.suit == Suit.DIAMOND or card.value >= s.scratch.weights[W.BUY_MIN])
    )
    return encode(ActionKind.BUY if rules.can_buy(s) and worth else ActionKind.PASS, 0, 0)


@kernel
def king_keep(s) -> int:
    """KING_KEEP: keep a hand holding at least ``keep_hand`` x STR cards (R18 bot policy)."""
    keep = s.piles.hand_n >= s.scratch.weights[W.KEEP_HAND] * s.hero.str
    return encode(ActionKind.KEEP if keep else ActionKind.PASS, 0, 0)


@kernel
def blitz_next(s, planner: bool) -> int:
    """BLITZ: add the next cards of the A-club's attack, or END when all are chosen (R14).

    Greedy chooses every card worth playing (all number cards; face cards when their
    random attacks can be drawn); the planner the cards of ``blitz_target``.
    """
    q = s.piles
    for rank in range(1, 15):
        chosen = int(q.blitz[rank])  # int(): the int8 field must not narrow the action in plain Python (test-nojit)
        left = rules.count_rank(s, rank) - chosen
        if planner:
            left = blitz_target(s, rank) - chosen
        elif rank >= JACK and face_damage(s, left) < 0.0:
            left = 0
        if left > 0:
            return encode(ActionKind.ATTACK, rank, left)
    if q.blitz_n == 0:  # nothing worth playing: the A-club still asks for a card
        return encode(ActionKind.ATTACK, rules.combo_rank_of(s, q.hand[0]), 1)
    return encode(ActionKind.END, 0, 0)


# -- policies ---------------------------------------------------------------------------------------------------


@kernel
def choose_random(s) -> int:
    """Uniform over the legal actions other than QUIT."""
    n = s.scratch.n_legal
    quit_action = encode(ActionKind.QUIT, 0, 0)
    others = n
    for i in range(n):
        others -= s.scratch.legal[i] == quit_action
    k = rng.randint(s.scratch.rng, Lane.BOT, np.int64(others))  # int64: the dice's randint
    for i in range(n):
        a = s.scratch.legal[i]
        if a == quit_action:
            continue
        if k == 0:
            return a
        k -= 1
    return s.scratch.legal[0]  # only QUIT is legal: never happens (END is legal with it)


@hot
def choose_greedy(s) -> int:
    """Hit as hard as possible (module docstring)."""
    m = s.meta
    q = s.piles
    ph = m.phase
    face_or_joker = s.monster.kind == MonsterKind.JOKER or s.monster.kind == MonsterKind.FACE
    if ph == Phase.PRE_STRIKE:
        a = rules.find_ace(s, Suit.SPADE)
        return encode(ActionKind.ACE_SPADE, a, 0) if face_or_joker else encode(ActionKind.PASS, 0, 0)
    if ph == Phase.KING_KEEP:
        return king_keep(s)
    if ph == Phase.BUY:
        return buy(s)
    if ph == Phase.BETWEEN:
        return between(s, np.bool_(False))
    if ph == Phase.BLITZ:
        return blitz_next(s, np.bool_(False))
    a = rules.find_ace(s, Suit.SPADE)
    if a >= 0 and face_or_joker:
        return encode(ActionKind.ACE_SPADE, a, 0)
    k = first_inv(s, True)
    if k >= 0 and m.attacks_left > 0:  # Spades go before a hand attack (R14)
        return encode(ActionKind.SPADE, k, 0)
    a = refill(s)
    if a >= 0:
        return a
    k = first_inv(s, False)
    if k >= 0 and q.hand_n > 0:
        return encode(ActionKind.CLUB, k, 0)
    if m.attacks_left > 0 and q.hand_n > 0:
        a = rules.find_ace(s, Suit.CLUB)
        if a >= 0 and hand_damage(s) >= s.monster.hp:
            return encode(ActionKind.ACE_CLUB, a, 0)
        return best_combo(s)
    return encode(ActionKind.END, 0, 0)


@kernel
def choose_planner(s) -> int:
    """Spend as little as possible (module docstring)."""
    m = s.meta
    q = s.piles
    ph = m.phase
    mon = s.monster
    joker = mon.kind == MonsterKind.JOKER
    hp = float(mon.hp)
    if ph == Phase.PRE_STRIKE:  # the A-spade now if the first turn would use it anyway: the Jack never strikes
        hopeless = hand_damage(s) + spade_total(s) < hp
        a = rules.find_ace(s, Suit.SPADE)
        return encode(ActionKind.ACE_SPADE, a, 0) if joker or hopeless else encode(ActionKind.PASS, 0, 0)
    if ph == Phase.KING_KEEP:
        return king_keep(s)
    if ph == Phase.BUY:
        return buy(s)
    if ph == Phase.BETWEEN:
        return between(s, np.bool_(True))
    if ph == Phase.BLITZ:
        return blitz_next(s, np.bool_(True))
    a = rules.find_ace(s, Suit.SPADE)
    if a >= 0 and (joker or (m.attacks_made == 0 and hand_damage(s) + spade_total(s) < hp)):
        return encode(ActionKind.ACE_SPADE, a, 0)
    a = refill(s)
    if a >= 0:
        return a
    if m.attacks_left > 0 and q.hand_n > 0:
        kill = smallest_kill(s, hp)
        if kill >= 0:
            return kill
        spades = spade_total(s)
        if spades > 0 and smallest_kill(s, hp - spades) >= 0:
            return encode(ActionKind.SPADE, first_inv(s, True), 0)
        c = first_inv(s, False)
        if c >= 0 and m.attacks_left == 1:
            club = s.piles.inv[c]
            rest = spades - (s.cards[club].value if own_spade(s, club) else 0)  # a Club is not also a Spade
            if hand_damage(s) + rest >= hp:
                return encode(ActionKind.CLUB, c, 0)  # two attacks make the kill
        b = rules.find_ace(s, Suit.CLUB)
        if b >= 0 and hand_damage(s) >= hp and (joker or mon.kind == MonsterKind.FACE):
            return encode(ActionKind.ACE_CLUB, b, 0)
        if joker and spades > 0:
            return encode(ActionKind.SPADE, first_inv(s, True), 0)
        return best_combo(s)
    if q.hand_n == 0 and m.attacks_left > 0 and spade_total(s) >= hp:
        return encode(ActionKind.SPADE, first_inv(s, True), 0)
    return encode(ActionKind.END, 0, 0)


@hot
def choose(bot: int, s) -> int:
    """Return the encoded action of policy ``bot`` for the current decision of ``s``."""
    if bot == Bot.RANDOM:
        return choose_random(s)
    if bot == Bot.GREEDY:
        return choose_greedy(s)
    return choose_planner(s)


@hot
def needs_legal(bot: int) -> bool:
    """Return True if policy ``bot`` reads ``scratch.legal`` (the random bot)."""
    return bot == Bot.RANDOM
