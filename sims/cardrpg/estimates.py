"""CardRPG heuristics: the bots' weights, what a solitaire player can count, and what cards are worth.

Pure @kernel readers of the state, shared by the ``greedy`` and ``planner`` policies in
``bots``. The player sees the hand, Inventory, gold, the discard and bone piles, the cards
in play, the monster, its HP and pile sizes, never the order of the draw pile or the
monster's attack pile; between battles every card not in sight is in the draw pile, so
its make-up (not its order) is known then.

- A face card or Joker played from hand is a random attack: worth ``face_value`` if its
  draws can be made, and a lost battle (the monster's HP, negative) if they cannot, since
  the session then ends (R16). The chance comes from the draw pile's size and the share
  of face cards among the unseen cards (a face card turned up asks for one more draw).
"""

from enum import IntEnum
from typing import NamedTuple

import numpy as np

from sims.cardrpg import kernel as rules
from sims.cardrpg.state import (
    JACK,
    N_WEIGHTS,
    RING,
    ActionKind,
    Kind,
    Suit,
    encode,
)
from sims.core.jit import hot, kernel


class BotParams(NamedTuple):
    """Bot weights (floats); all bots share the fields, each has its own defaults."""

    face_value: float = 6.0  # expected damage of a random attack (a face card played from hand) that can be drawn
    buyback_min: float = 7.0  # buy back discarded number cards of at least this value
    buy_min: float = 6.0  # buy a revealed number card of at least this value (if affordable)
    reveal_odds: float = 0.5  # reveal the top card only if at least this share of the draw pile would be bought
    reveal_pile: float = 0.0  # ... and at least this many cards are in the draw pile (planner)
    keep_hand: float = 0.5  # a King keeps his hand at death if it holds >= this share of STR
    hand_cap: float = 99.0  # planner: buy back only while the hand is below STR + this
    quit_pile: float = 0.0  # quit the session when the draw pile is below this (0 = never, R1)


class W(IntEnum):
    """Index of each ``BotParams`` field in a weight vector."""

    FACE_VALUE = 0
    BUYBACK_MIN = 1
    BUY_MIN = 2
    REVEAL_ODDS = 3
    REVEAL_PILE = 4
    KEEP_HAND = 5
    HAND_CAP = 6
    QUIT_PILE = 7


assert [m.name.lower() for m in W] == list(BotParams._fields)
assert len(BotParams._fields) <= N_WEIGHTS

# -- what the player can count ------------------------------------------------------------------------


@kernel
def faces_in(s, zone: np.ndarray, n: int) -> int:
    """Return how many of the ``n`` cards of ``zone`` are face cards."""
    k = 0
    for i in range(n):
        k += s.cards[zone[i]].kind == Kind.FACE
    return k


@kernel
def unseen_faces(s) -> int:
    """Return how many face cards are not in sight (in the draw pile, the monster pile or the bonus cards).

    The player counts them as the deck's face cards less those in sight (hand, discard,
    bone and play piles, Inventory, character and monster cards). Every card is in exactly
    one zone (``kernel.conserved``), so that is the number of face cards in the three
    unseen zones, counted here: they are short when the count is asked for (``faces_to_count``).
    """
    q = s.piles
    n = faces_in(s, q.mpile, q.mpile_n) + faces_in(s, q.bonus, q.bonus_n)
    for i in range(q.draw_n):
        n += s.cards[q.draw[(q.draw_lo + i) % RING]].kind == Kind.FACE
    return n


@kernel
def numbers_in_hand(s) -> bool:
    """Return True if the hand holds a number card or an Ace."""
    for i in range(s.piles.hand_n):
        kind = s.cards[s.piles.hand[i]].kind
        if kind == Kind.NUMBER or kind == Kind.ACE:
            return True
    return False


@hot
def hand_ranks(s) -> tuple[int, int]:
    """Return the hand's cards per combo key, packed: key ``r`` (1-14) is byte ``r % 8`` of word ``r // 8``.

    The same numbers as ``count_rank`` of every rank (``rank_count`` unpacks one), from one
    pass over the hand and without writing to the state (a policy is pure): the bots'
    per-decision count, hoisted out of their per-rank loops. A byte holds up to 255 cards.
    """
    lo, hi = 0, 0
    for k in range(s.piles.hand_n):
        r = int(rules.combo_rank_of(s, s.piles.hand[k]))
        if r < 8:
            lo += 1 << (8 * r)
        else:
            hi += 1 << (8 * (r - 8))
    return lo, hi


@hot
def rank_count(ranks: tuple[int, int], rank: int) -> int:
    """Return the hand cards of combo key ``rank`` from ``hand_ranks``' packed counts."""
    word = ranks[0] if rank < 8 else ranks[1]
    return (word >> (8 * (rank % 8))) & 255


@kernel
def comb(a: int, b: int) -> float:
    """Return the binomial coefficient C(a, b) as a float (0 outside 0 <= b <= a)."""
    if b < 0 or b > a:
        return 0.0
    r = 1.0
    for i in range(b):
        r = r * (a - i) / (i + 1)
    return r


@hot
def faces_to_count(s, most: int) -> int:
    """Return ``unseen_faces`` if ``draws_ok`` of up to ``most`` random attacks reads it, else -1 (not counted).

    The count is needed only when the draw pile is too short to be sure without it
    (``draw_n - k < n_faces``); a decision that asks about several combos counts once.
    """
    if most <= 0 or s.piles.draw_n - most >= s.meta.n_faces:
        return -1
    return unseen_faces(s)


@kernel
def draws_ok(s, k: int) -> float:
    """Return the chance that ``k`` random attacks can all draw their cards (R9, R16; ``draws_ok_seen``)."""
    return draws_ok_seen(s, k, -1)


@hot
def draws_ok_seen(s, k: int, faces: int) -> float:
    """Return the chance that ``k`` random attacks can all draw their cards (R9, R16).

    A turned-up face card asks for one more draw, so the attacks complete when the
    ``draw_n`` cards of the pile hold ``k`` that are not face cards. The pile is a random
    ``draw_n`` of the ``unseen`` cards, ``faces`` of them face cards (hypergeometric).
    ``faces`` is ``unseen_faces`` counted by the caller, or -1 to count it here if needed.
    """
    q = s.piles
    n = np.int64(q.draw_n)  # int64: one compiled comb
    if k <= 0:
        return 1.0
    if n < k:
        return 0.0
    if n - k >= s.meta.n_faces:
        return 1.0  # the pile cannot hold enough face cards to stop them
    if faces < 0:
        faces = unseen_faces(s)
    if n - faces >= k:
        return 1.0
    unseen = n + q.mpile_n + q.bonus_n
    p = 0.0
    for x in range(min(faces, n - k) + 1):  # x face cards in the pile
        p += comb(faces, x) * comb(unseen - faces, n - x)
    return p / comb(unseen, n)


@kernel
def face_damage(s, k: int) -> float:
    """Return the worth of ``k`` random attacks now: ``face_value`` each, or the monster's HP lost if undrawable."""
    return face_damage_seen(s, k, -1)


@hot
def face_damage_seen(s, k: int, faces: int) -> float:
    """``face_damage`` with ``unseen_faces`` counted by the caller (``faces``; -1: count it if needed)."""
    p = draws_ok_seen(s, k, faces)
    return p * k * s.scratch.weights[W.FACE_VALUE] - (1.0 - p) * max(0, s.monster.hp)


@hot
def combo_damage(s, rank: int, count: int, faces: int) -> float:
    """Return the expected damage of ``count`` hand cards of combo key ``rank`` (``faces``: ``face_damage_seen``)."""
    if rank >= JACK:
        return face_damage_seen(s, count, faces)
    return float(count * rank)  # numbers and Aces: rank = value


@hot
def face_cards(ranks: tuple[int, int]) -> int:
    """Return the hand's cards of the face combo keys (``JACK`` and up) from ``hand_ranks``' packed counts."""
    n = 0
    for rank in range(JACK, 15):
        n += rank_count(ranks, rank)
    return n


@kernel
def best_combo_scored(s) -> tuple[int, float]:
    """Return the ATTACK action with the most expected damage and that damage; (-1, -inf) for an empty hand.

    A number rank plays all its cards; a face rank as many as pay (fewer when the draw
    pile is short). Ties go to the lower rank, then to fewer cards.
    """
    best, best_d = -1, -np.inf  # any combo beats none
    ranks = hand_ranks(s)
    faces = faces_to_count(s, face_cards(ranks))  # counted once, not once per face combo
    for rank in range(1, 15):
        cnt = rank_count(ranks, rank)
        lo = 1 if rank >= JACK else max(1, cnt)
        for k in range(lo, cnt + 1):
            d = combo_damage(s, rank, k, faces)
            if d > best_d:
                best, best_d = encode(ActionKind.ATTACK, rank, k), d
    return best, best_d


@hot
def best_combo(s) -> int:
    """Return the ATTACK action with the most expected damage, or -1 (empty hand; ``best_combo_scored``)."""
    return best_combo_scored(s)[0]


@kernel
def best_combo_damage(s) -> float:
    """Return the expected damage of ``best_combo`` (-inf for an empty hand)."""
    return best_combo_scored(s)[1]


@kernel
def hand_damage(s) -> float:
    """Return the expected damage of the whole hand played at once (its random attacks drawn in one go)."""
    total = 0.0
    faces = 0
    ranks = hand_ranks(s)
    for rank in range(1, 15):
        cnt = rank_count(ranks, rank)
        if rank >= JACK:
            faces += cnt
        else:
            total += cnt * rank
    return total + (face_damage_seen(s, faces, -1) if faces > 0 else 0.0)


@kernel
def smallest_kill(s, hp: float) -> int:
    """Return the ATTACK action using the fewest number cards that surely deals ``hp`` (ties: least waste), or -1."""
    best, best_cards, best_waste = -1, 99, 1e9
    ranks = hand_ranks(s)
    for rank in range(1, 11):
        cnt = rank_count(ranks, rank)
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


@hot
def first_inv(s, spade: bool) -> int:
    """Return the Inventory index of the first card the bot plays as a Spade (or Club), or -1."""
    for k in range(s.piles.inv_n):
        c = s.piles.inv[k]
        if (spade and own_spade(s, c)) or (not spade and own_club(s, c)):
            return k
    return -1


@kernel
def free_buybacks(s) -> int:
    """Return how many buy-backs the A-diamond still pays this battle (R15; 999 = unlimited)."""
    if rules.find_ace(s, Suit.DIAMOND) < 0:
        return 0
    limit = s.params.ace_diamond_buybacks
    return 999 if limit < 0 else max(0, limit - s.meta.luck_used)


@hot
def would_buy(s, c: int) -> bool:
    """Return True if the bot would buy card ``c`` revealed with its gold, not counting Diamonds (R15)."""
    card = s.cards[c]
    if card.kind == Kind.ACE:
        return s.hero.gold >= 20
    return (
        card.kind == Kind.NUMBER
        and card.suit != Suit.DIAMOND
        and card.value >= s.scratch.weights[W.BUY_MIN]
        and card.value <= s.hero.gold
    )


@hot
def buyable_in_draw_pile(s, at_least: float) -> int:
    """BETWEEN: return how many cards the draw pile holds that the bot would buy; -1 if it holds a Joker.

    Between battles every card not in sight is in the draw pile (the monster's cards are
    under it, in the bone pile or in the Inventory), so the player knows its make-up: the
    deck less the hand, Inventory, discard and bone piles and the character card. Those
    are exactly the draw pile's cards, counted here in one pass that stops at a Joker, or
    (also -1) as soon as the count can no longer reach ``at_least`` (0: count them all).
    """
    q = s.piles
    buyable = 0
    for i in range(q.draw_n):
        c = q.draw[(q.draw_lo + i) % RING]
        if s.cards[c].kind == Kind.JOKER:
            return -1
        buyable += would_buy(s, c)
        if buyable + (q.draw_n - 1 - i) < at_least:
            return -1
    return buyable


@kernel
def blitz_target(s, rank: int) -> int:
    """Return how many cards of combo key ``rank`` the planner's A-club attack plays.

    The fewest number cards that kill: the highest first, the last one swapped for the
    smallest card that still kills. If the number cards cannot kill, the whole hand.
    """
    hp = s.monster.hp
    total, last, taken_last = 0, 0, 0
    for r in range(10, 0, -1):
        cnt = rules.count_rank(s, r)
        take = min(cnt, (max(0, hp - total) + r - 1) // r)
        total += take * r
        if total >= hp and take > 0:
            last, taken_last = r, take
            break
    if total < hp:
        return rules.count_rank(s, rank)
    swap = last
    for r in range(1, last):
        if total - last + r >= hp and rules.count_rank(s, r) > 0:
            swap = r
            break
    if rank >= JACK:
        return 0
    if rank > last:
        return rules.count_rank(s, rank)  # every card of a higher rank was taken
    if rank == last:
        return taken_last - (1 if swap != last else 0)
    return 1 if rank == swap else 0
