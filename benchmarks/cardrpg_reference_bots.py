"""The CardRPG bots in plain Python (``sims/cardrpg/bots.py``): random, greedy and planner, for ``cardrpg_reference``.

Same decisions, same random numbers (the BOT lane) and the same float arithmetic in the same
order as the kernel's bots, with the same weights (``estimates.W``); see
``cardrpg_reference.py`` for the rules and the contract. ``BOT_FUNCS`` maps a bot name to its
function, which takes a ``Character`` waiting for a decision and returns an action tuple.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from cardrpg_reference import (
    A_CLUBS,
    A_DIAMONDS,
    A_SPADES,
    ACE,
    ACE_CLUB,
    ACE_SPADE,
    ATTACK,
    BETWEEN,
    BLITZ,
    BUY,
    BUY_ACT,
    BUYBACK,
    CLUB,
    CLUB_ACT,
    DIAMOND,
    END_ACTION,
    FACE,
    HEART,
    JACK,
    JOKER,
    KEEP,
    KING_KEEP,
    LANE_BOT,
    MK_FACE,
    MK_JOKER,
    NO_CARD,
    NUMBER,
    PASS_ACTION,
    PRE_STRIKE,
    QUIT_ACTION,
    REVEAL,
    SELL,
    SPADE,
    SPADE_ACT,
    TO_HAND,
    W_BUY_MIN,
    W_BUYBACK_MIN,
    W_FACE_VALUE,
    W_HAND_CAP,
    W_KEEP_HAND,
    W_QUIT_PILE,
    W_REVEAL_ODDS,
    W_REVEAL_PILE,
    Character,
)


def faces_in(ch: Character, zone: Sequence[int]) -> int:
    """Return how many cards of ``zone`` are face cards."""
    return sum(ch.cards[c].kind == FACE for c in zone)


def unseen_faces(ch: Character) -> int:
    """Return how many face cards are not in sight (in the draw pile, the monster pile or the bonus cards)."""
    seen = faces_in(ch, ch.hand) + faces_in(ch, ch.discard) + faces_in(ch, [c for c, _ in ch.bone])
    seen += faces_in(ch, ch.play_pile) + faces_in(ch, ch.inv)
    seen += ch.cards[ch.class_id].kind == FACE
    if ch.mcard != NO_CARD:
        seen += ch.cards[ch.mcard].kind == FACE
    return max(0, ch.ref.n_faces - seen)


def comb(a: int, b: int) -> float:
    """Return C(a, b) as a float, multiplied out as ``estimates.comb`` does (0 outside 0 <= b <= a)."""
    if b < 0 or b > a:
        return 0.0
    r = 1.0
    for i in range(b):
        r = r * (a - i) / (i + 1)
    return r


def draws_ok(ch: Character, k: int) -> float:
    """Return the chance that ``k`` random attacks can all draw their cards (hypergeometric, ``estimates.draws_ok``)."""
    n = len(ch.draw)
    if k <= 0:
        return 1.0
    if n < k:
        return 0.0
    if n - k >= ch.ref.n_faces:
        return 1.0
    faces = unseen_faces(ch)
    if n - faces >= k:
        return 1.0
    unseen = n + len(ch.mpile) + len(ch.bonus)
    p = 0.0
    for x in range(min(faces, n - k) + 1):
        p += comb(faces, x) * comb(unseen - faces, n - x)
    return p / comb(unseen, n)


def face_damage(ch: Character, k: int) -> float:
    """Return the worth of ``k`` random attacks now: ``face_value`` each, or the monster's HP lost if undrawable."""
    p = draws_ok(ch, k)
    return p * k * ch.w[W_FACE_VALUE] - (1.0 - p) * max(0, ch.mhp)


def combo_damage(ch: Character, rank: int, count: int) -> float:
    """Return the expected damage of ``count`` hand cards of combo key ``rank``."""
    if rank >= JACK:
        return face_damage(ch, count)
    return float(count * rank)  # numbers and Aces: rank = value


def best_combo(ch: Character) -> tuple[int, int, int] | None:
    """Return the ATTACK with the most expected damage (a number rank: all its cards; a face rank: as many as pay)."""
    best, best_d = None, -math.inf
    for rank in range(1, 15):
        cnt = ch.count_rank(rank)
        lo = 1 if rank >= JACK else max(1, cnt)
        for k in range(lo, cnt + 1):
            d = combo_damage(ch, rank, k)
            if d > best_d:
                best, best_d = (ATTACK, rank, k), d
    return best


def best_combo_damage(ch: Character) -> float:
    """Return the expected damage of ``best_combo`` (-inf for an empty hand)."""
    a = best_combo(ch)
    return -math.inf if a is None else combo_damage(ch, a[1], a[2])


def hand_damage(ch: Character) -> float:
    """Return the expected damage of the whole hand played at once (its random attacks drawn in one go)."""
    total = 0.0
    faces = 0
    for rank in range(1, 15):
        cnt = ch.count_rank(rank)
        if rank >= JACK:
            faces += cnt
        else:
            total += cnt * rank
    return total + (face_damage(ch, faces) if faces > 0 else 0.0)


def smallest_kill(ch: Character, hp: float) -> tuple[int, int, int] | None:
    """Return the ATTACK using the fewest number cards that surely deals ``hp`` (ties: least waste), or None."""
    best, best_cards, best_waste = None, 99, 1e9
    for rank in range(1, 11):
        cnt = ch.count_rank(rank)
        for k in range(1, cnt + 1):
            d = k * rank
            if d >= hp and (k < best_cards or (k == best_cards and d - hp < best_waste)):
                best, best_cards, best_waste = (ATTACK, rank, k), k, d - hp
    return best


def own_spade(ch: Character, c: int) -> bool:
    """Return True for an Inventory card a heuristic bot plays as a Spade (a Heart stays a Heart)."""
    return ch.acts_as(c, SPADE) and ch.cards[c].suit != HEART


def own_club(ch: Character, c: int) -> bool:
    """Return True for an Inventory card a heuristic bot plays as a Club (Hearts and Spades keep their use)."""
    suit = ch.cards[c].suit
    return ch.acts_as(c, CLUB) and suit != HEART and suit != SPADE


def best_buyback(ch: Character, minimum: float) -> tuple[int, int, int] | None:
    """Return the BUYBACK of the highest discarded number card worth at least ``minimum``, or None."""
    best, best_v = -1, minimum - 1
    cards = ch.cards
    for i, c in enumerate(ch.discard):
        card = cards[c]
        if card.kind == NUMBER and card.value > best_v:
            best, best_v = i, card.value
    return (BUYBACK, best, 0) if best >= 0 else None


def spade_total(ch: Character) -> float:
    """Return the bonus damage of every Inventory card the bot would play as a Spade."""
    total = 0.0
    for c in ch.inv:
        if own_spade(ch, c):
            total += ch.cards[c].value
    return total


def first_inv(ch: Character, spade: bool) -> int:
    """Return the Inventory index of the first card the bot plays as a Spade (or Club), or -1."""
    for k, c in enumerate(ch.inv):
        if (spade and own_spade(ch, c)) or (not spade and own_club(ch, c)):
            return k
    return -1


def free_buybacks(ch: Character) -> int:
    """Return how many buy-backs the A-diamond still pays this battle (999 = unlimited)."""
    if ch.find_ace(DIAMOND, A_DIAMONDS) < 0:
        return 0
    limit = ch.rules.ace_diamond_buybacks
    return 999 if limit < 0 else max(0, limit - ch.luck_used)


def refill(ch: Character) -> tuple[int, int, int] | None:
    """PLAYER: buy back the best discarded number card when the hand cannot attack usefully (Q13), or None."""
    if ch.attacks_left <= 0 or not ch.can_buyback() or ch.rules.buyback_destination != TO_HAND:
        return None
    if ch.hand and best_combo_damage(ch) >= 0.0:
        return None
    return best_buyback(ch, 1.0)


def would_buy(ch: Character, c: int) -> bool:
    """Return True if the bot would buy card ``c`` revealed with its gold, not counting Diamonds (R15)."""
    card = ch.cards[c]
    if card.kind == ACE:
        return ch.gold >= 20
    return card.kind == NUMBER and card.suit != DIAMOND and ch.w[W_BUY_MIN] <= card.value <= ch.gold


def in_draw_pile(ch: Character, joker: bool) -> int:
    """BETWEEN: return how many Jokers (``joker``) or cards the bot would buy are in the draw pile, by counting.

    Between battles every card not in sight is in the draw pile: the deck's count less
    the hand, Inventory, discard and bone piles and the character card.
    """

    def count(zone) -> int:
        return sum((ch.cards[c].kind == JOKER) if joker else would_buy(ch, c) for c in zone)

    seen = [*ch.hand, *ch.inv, *ch.discard, *(c for c, _ in ch.bone), ch.class_id]
    return count(range(len(ch.cards))) - count(seen)


def reveal_pays(ch: Character) -> bool:
    """BETWEEN: return True if no Joker can be revealed and ``reveal_odds`` of the draw pile would be bought."""
    if not ch.draw or (ch.gold < ch.w[W_BUY_MIN] and ch.gold < 20):
        return False
    if in_draw_pile(ch, True) > 0:
        return False
    buyable = in_draw_pile(ch, False)
    return buyable > 0 and buyable >= ch.w[W_REVEAL_ODDS] * len(ch.draw)


def sale(ch: Character, planner: bool) -> tuple[int, int, int] | None:
    """BETWEEN: a Diamond character sells the Inventory card whose gold pays for the most good buy-backs, or None."""
    w = ch.w
    if ch.suit != DIAMOND or not ch.rules.class_powers:
        return None
    wanted = sum(ch.cards[c].kind == NUMBER and ch.cards[c].value >= w[W_BUYBACK_MIN] for c in ch.discard)
    if planner:
        wanted = min(wanted, max(0, int(ch.str + w[W_HAND_CAP]) - len(ch.hand)))
    need = wanted - ch.gold - free_buybacks(ch)
    best, best_gain = -1, 0.0
    for k, c in enumerate(ch.inv):
        card = ch.cards[c]
        if card.kind != NUMBER or card.suit == HEART:
            continue
        keep = float(card.value) if own_spade(ch, c) else w[W_BUYBACK_MIN]
        gain = min(card.value, need) * w[W_BUYBACK_MIN] - keep
        if gain > best_gain:
            best, best_gain = k, gain
    return (SELL, best, 0) if best >= 0 else None


def between(ch: Character, planner: bool) -> tuple[int, int, int]:
    """BETWEEN: sell (Diamond class), buy back, reveal to buy, quit or go on."""
    w = ch.w
    n = len(ch.draw)
    if n < w[W_QUIT_PILE]:
        return QUIT_ACTION
    room = not planner or len(ch.hand) < ch.str + w[W_HAND_CAP]
    if room:
        a = sale(ch, planner)
        if a is not None:
            return a
    if ch.can_buyback() and room:
        a = best_buyback(ch, w[W_BUYBACK_MIN])
        if a is not None:
            return a
    if n >= w[W_REVEAL_PILE] and reveal_pays(ch):
        return (REVEAL, 0, 0)
    return END_ACTION


def buy(ch: Character) -> tuple[int, int, int]:
    """BUY: take the revealed card if the bot wants it, and any Diamond it can pay (the same gold comes back)."""
    card = ch.cards[ch.revealed]
    worth = card.kind == ACE or (card.kind == NUMBER and (card.suit == DIAMOND or card.value >= ch.w[W_BUY_MIN]))
    return (BUY_ACT, 0, 0) if ch.can_buy() and worth else PASS_ACTION


def king_keep(ch: Character) -> tuple[int, int, int]:
    """KING_KEEP: keep a hand holding at least ``keep_hand`` x STR cards (R18 bot policy)."""
    return (KEEP, 0, 0) if len(ch.hand) >= ch.w[W_KEEP_HAND] * ch.str else PASS_ACTION


def blitz_target(ch: Character, rank: int) -> int:
    """Return how many cards of combo key ``rank`` the planner's A-club attack plays (``estimates.blitz_target``)."""
    hp = ch.mhp
    total = last = taken_last = 0
    for r in range(10, 0, -1):
        take = min(ch.count_rank(r), (max(0, hp - total) + r - 1) // r)
        total += take * r
        if total >= hp and take > 0:
            last, taken_last = r, take
            break
    if total < hp:
        return ch.count_rank(rank)
    swap = last
    for r in range(1, last):
        if total - last + r >= hp and ch.count_rank(r) > 0:
            swap = r
            break
    if rank >= JACK:
        return 0
    if rank > last:
        return ch.count_rank(rank)
    if rank == last:
        return taken_last - (1 if swap != last else 0)
    return 1 if rank == swap else 0


def blitz_next(ch: Character, planner: bool) -> tuple[int, int, int]:
    """BLITZ: add the next cards of the A-club's attack, or END when all are chosen (``bots.blitz_next``)."""
    for rank in range(1, 15):
        left = ch.count_rank(rank) - ch.blitz[rank]
        if planner:
            left = blitz_target(ch, rank) - ch.blitz[rank]
        elif rank >= JACK and face_damage(ch, left) < 0.0:
            left = 0
        if left > 0:
            return (ATTACK, rank, left)
    if ch.blitz_n == 0:
        return (ATTACK, ch.combo_rank_of(ch.hand[0]), 1)
    return END_ACTION


def random_bot(ch: Character) -> tuple[int, int, int]:
    """Uniform over the legal actions other than QUIT (BOT lane)."""
    others = [a for a in ch.legal_actions() if a != QUIT_ACTION]
    return others[ch.rng.randint(LANE_BOT, len(others))]


def greedy_bot(ch: Character) -> tuple[int, int, int]:
    """Hit as hard as possible: every Spade and Club, then the strongest combo (``bots.choose_greedy``)."""
    ph = ch.phase
    joker_or_face = ch.mkind == MK_JOKER or ch.mkind == MK_FACE
    if ph == PRE_STRIKE:
        return (ACE_SPADE, ch.find_ace(SPADE, A_SPADES), 0) if joker_or_face else PASS_ACTION
    if ph == KING_KEEP:
        return king_keep(ch)
    if ph == BUY:
        return buy(ch)
    if ph == BETWEEN:
        return between(ch, False)
    if ph == BLITZ:
        return blitz_next(ch, False)
    a = ch.find_ace(SPADE, A_SPADES)
    if a >= 0 and joker_or_face:
        return (ACE_SPADE, a, 0)
    k = first_inv(ch, True)
    if k >= 0 and ch.attacks_left > 0:  # Spades go before a hand attack (R14)
        return (SPADE_ACT, k, 0)
    r = refill(ch)
    if r is not None:
        return r
    k = first_inv(ch, False)
    if k >= 0 and ch.hand:
        return (CLUB_ACT, k, 0)
    if ch.attacks_left > 0 and ch.hand:
        a = ch.find_ace(CLUB, A_CLUBS)
        if a >= 0 and hand_damage(ch) >= ch.mhp:
            return (ACE_CLUB, a, 0)
        return best_combo(ch)
    return END_ACTION


def planner_bot(ch: Character) -> tuple[int, int, int]:
    """Spend as little as possible: the smallest killing combo, Inventory kept for danger (``bots.choose_planner``)."""
    ph = ch.phase
    joker = ch.mkind == MK_JOKER
    hp = float(ch.mhp)
    if ph == PRE_STRIKE:  # the A-spade now if the first turn would use it anyway
        hopeless = hand_damage(ch) + spade_total(ch) < hp
        return (ACE_SPADE, ch.find_ace(SPADE, A_SPADES), 0) if joker or hopeless else PASS_ACTION
    if ph == KING_KEEP:
        return king_keep(ch)
    if ph == BUY:
        return buy(ch)
    if ph == BETWEEN:
        return between(ch, True)
    if ph == BLITZ:
        return blitz_next(ch, True)
    a = ch.find_ace(SPADE, A_SPADES)
    if a >= 0 and (joker or (ch.attacks_made == 0 and hand_damage(ch) + spade_total(ch) < hp)):
        return (ACE_SPADE, a, 0)
    r = refill(ch)
    if r is not None:
        return r
    if ch.attacks_left > 0 and ch.hand:
        kill = smallest_kill(ch, hp)
        if kill is not None:
            return kill
        spades = spade_total(ch)
        if spades > 0 and smallest_kill(ch, hp - spades) is not None:
            return (SPADE_ACT, first_inv(ch, True), 0)
        c = first_inv(ch, False)
        if c >= 0 and ch.attacks_left == 1:
            club = ch.inv[c]
            rest = spades - (ch.cards[club].value if own_spade(ch, club) else 0)  # a Club is not also a Spade
            if hand_damage(ch) + rest >= hp:
                return (CLUB_ACT, c, 0)  # two attacks make the kill
        b = ch.find_ace(CLUB, A_CLUBS)
        if b >= 0 and hand_damage(ch) >= hp and (joker or ch.mkind == MK_FACE):
            return (ACE_CLUB, b, 0)
        if joker and spades > 0:
            return (SPADE_ACT, first_inv(ch, True), 0)
        return best_combo(ch)
    if not ch.hand and ch.attacks_left > 0 and spade_total(ch) >= hp:
        return (SPADE_ACT, first_inv(ch, True), 0)
    return END_ACTION


BOT_FUNCS = {"random": random_bot, "greedy": greedy_bot, "planner": planner_bot}
