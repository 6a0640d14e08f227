"""CardRPG combat: the player's turn (R8, R9, R14, R15), the monster's turn (R10, R12), both out (R11)."""

import numpy as np

from sims.cardrpg.gold import can_refill_hand
from sims.cardrpg.rewards import death, victory
from sims.cardrpg.state import (
    JACK,
    JOKER_RANK,
    KING,
    NO_CARD,
    QUEEN,
    AceClubSet,
    BothOut,
    BothOutOrder,
    EndReason,
    EventKind,
    Kind,
    Lane,
    MonsterKind,
    Outcome,
    Phase,
    Pick,
    RandomAttackJoker,
    Suit,
)
from sims.cardrpg.zones import (
    acts_as,
    card_row,
    combo_rank_of,
    discard,
    draw_top,
    find_ace,
    hand_add,
    has_inventory_play,
    log_event,
    need,
    put_bottom,
    remove_at_hand,
    take_inv,
)
from sims.core import rng
from sims.core.jit import hot, kernel


@kernel
def begin_player_turn(s) -> None:
    """Open the player's attack turn in place: one hand attack plus one per Club (R14).

    With an empty hand the turn is lost (R11) unless a Spade or the A-spade can be
    played, or (``empty_hand = buy_back``, RULES.md §7 Q13) a card can be bought back
    into the hand: gold "can be used at any time".
    """
    m = s.meta
    m.attacks_left, m.attacks_made = 1, 0
    m.phase = Phase.PLAYER
    if s.piles.hand_n == 0 and not has_inventory_play(s) and not can_refill_hand(s):
        m.phase = Phase.MONSTER  # R11: out of attack cards, the turn is lost


@kernel
def hit_monster(s, dmg: int) -> bool:
    """Take ``dmg`` from the monster's HP in place; return True if it is dead (R7)."""
    mon = s.monster
    mon.hp -= dmg
    s.tally.seat.damage_dealt += max(0, dmg)
    s.tally.battles[s.tally.row].damage_dealt += max(0, dmg)
    return mon.hp <= 0


@kernel
def random_attack(s, mult: int) -> int:
    """Resolve one random attack by the player (R9): turn up cards until a number, Ace or Joker.

    Returns the damage; -1 = a Joker turned up (instant kill); -2 = the draw failed (R16).
    """
    q = s.piles
    while True:
        if not need(s, np.int64(1), EndReason.DRAW_FAILED_RANDOM_ATTACK):  # int64: one compiled need
            return -2
        c = draw_top(s)
        q.play[q.play_n] = c
        q.play_n += 1
        card = s.cards[c]
        log_event(s, EventKind.RANDOM_TURN, c, mult, 0)
        if card.kind == Kind.NUMBER or card.kind == Kind.ACE:
            return mult * int(card.value)
        if card.kind == Kind.JOKER:
            return -1 if s.params.random_attack_joker == RandomAttackJoker.INSTANT_KILL else 0
        mult += 1


@kernel
def takes(s, c: int, pick: int, cards_rank: int) -> bool:
    """Return True if hand card ``c`` joins an attack that plays ``pick`` (Pick; RANK: combo key ``cards_rank``).

    Under ``Pick.CHOSEN`` it also counts the card off the BLITZ choice in place.
    """
    if pick == Pick.WHOLE_HAND:
        return True
    key = combo_rank_of(s, c)
    if pick == Pick.RANK:
        return key == cards_rank
    if s.piles.blitz[key] > 0:  # CHOSEN: one of the cards the A-club's attack chose (R14)
        s.piles.blitz[key] -= 1
        return True
    return False


@kernel
def hand_attack(s, cards_rank: int, count: int, pick: int) -> None:
    """Play hand cards as one attack in place (R8, R9), in hand order.

    ``pick`` (Pick): ``count`` cards of combo key ``cards_rank`` (RANK), the whole hand, or
    the cards chosen in BLITZ (CHOSEN).
    """
    q = s.piles
    m = s.meta
    dmg = 0
    kill = False
    played = 0
    first = NO_CARD
    k = 0
    while k < q.hand_n and (pick != Pick.RANK or played < count):
        c = q.hand[k]
        if not takes(s, c, pick, cards_rank):
            k += 1
            continue
        remove_at_hand(s, k)
        q.play[q.play_n] = c
        q.play_n += 1
        played += 1
        first = c if first == NO_CARD else first
        card = s.cards[c]
        if kill:
            continue  # R9: a turned-up Joker already killed the monster; the rest of the combo is just played
        if card.kind == Kind.FACE or card.kind == Kind.JOKER:
            s.tally.seat.random_attacks += 1
            d = random_attack(s, 2 if card.kind == Kind.JOKER else 1)
            if d == -2:
                return  # R16: the session ends, the battle is abandoned
            if d == -1:
                kill = True
            else:
                dmg += d
        else:
            dmg += int(card.value)  # int(): the int8 field must not wrap in plain Python (test-nojit)
    q.blitz_n = 0
    m.attacks_left -= 1
    m.attacks_made += 1
    s.tally.seat.attacks += 1
    s.tally.seat.cards_attacked += played
    dead = hit_monster(s, dmg) or kill
    log_event(s, EventKind.PLAYER_ATTACK, first, dmg, s.monster.hp)
    if dead:
        victory(s)


@kernel
def spend_ace(s, k: int) -> int:
    """Use the Ace at Inventory index ``k`` in place: under the draw pile (R14); return it."""
    c = take_inv(s, k)
    put_bottom(s, c)
    card_row(s, c).times_used += 1
    s.tally.game.ace_uses += 1
    log_event(s, EventKind.ACE, c, 0, 0)
    return c


@kernel
def use_spade(s, k: int) -> None:
    """Play Inventory card ``k`` as a Spade in place: bonus damage = its value (R14)."""
    c = take_inv(s, k)
    discard(s, c)
    v = s.cards[c].value
    r = card_row(s, c)
    r.times_used += 1
    r.damage += v
    s.tally.seat.spades_used += 1
    dead = hit_monster(s, np.int64(v))  # int64: the same compiled version as hand_attack's call
    log_event(s, EventKind.SPADE, c, v, s.monster.hp)
    if dead:
        victory(s)


@kernel
def use_club(s, k: int) -> None:
    """Play Inventory card ``k`` as a Club in place: one more attack this turn (R14)."""
    c = take_inv(s, k)
    discard(s, c)
    r = card_row(s, c)
    r.times_used += 1
    r.extra_attacks += 1
    s.tally.seat.clubs_used += 1
    s.meta.attacks_left += 1
    log_event(s, EventKind.CLUB, c, 0, 0)


@kernel
def ace_spade(s, k: int) -> None:
    """Kill the monster with the A-spade at Inventory index ``k`` in place (R14)."""
    c = spend_ace(s, k)
    r = card_row(s, c)
    r.kills += 1
    r.damage += max(0, s.monster.hp)
    s.monster.hp = 0
    victory(s)


@kernel
def ace_club(s, k: int) -> None:
    """Blitz with the A-club at Inventory index ``k`` in place (R14): choose any hand cards (BLITZ), then one attack.

    ``ace_club_set = whole_hand`` (RULES.md §7 Q1, rules_version 1) plays the whole hand at once.
    """
    c = spend_ace(s, k)
    card_row(s, c).extra_attacks += 1
    if s.params.ace_club_set == AceClubSet.WHOLE_HAND:
        hand_attack(s, np.int64(0), np.int64(0), Pick.WHOLE_HAND)  # int64: one compiled hand_attack, no literal's
        return
    q = s.piles
    for r in range(16):
        q.blitz[r] = 0
    q.blitz_n = 0
    s.meta.phase = Phase.BLITZ


@kernel
def blitz_choose(s, rank: int, count: int) -> None:
    """BLITZ: add ``count`` more hand cards of combo key ``rank`` to the A-club's attack in place."""
    q = s.piles
    q.blitz[rank] += count
    q.blitz_n += count


@kernel
def blitz_attack(s) -> None:
    """BLITZ: make the A-club's attack with the chosen cards in place (one attack, R14)."""
    s.meta.phase = Phase.PLAYER
    hand_attack(s, np.int64(0), np.int64(0), Pick.CHOSEN)  # int64: one compiled hand_attack, no literal's


@hot
def monster_turn(s) -> None:
    """The monster attacks once in place (R10): damage, Hearts, theft, death; then the player's turn."""
    m = s.meta
    q = s.piles
    h = s.hero
    m.exchange += 1
    s.tally.battles[s.tally.row].exchanges = m.exchange
    if q.mpile_n == 0:
        if q.hand_n == 0:
            both_out(s)  # R11: both sides out of attack cards (Inventory cards are not attack cards)
            return
        begin_player_turn(s)
        return
    mult = 1
    dmg = 0
    joker = False
    ended_by = NO_CARD
    while q.mpile_n > 0:
        q.mpile_n -= 1
        c = q.mpile[q.mpile_n]
        q.play[q.play_n] = c
        q.play_n += 1
        card = s.cards[c]
        if card.kind == Kind.JOKER:
            joker = True
            ended_by = c
            break
        if card.kind == Kind.FACE:
            mult += 1
            continue
        dmg = mult * int(card.value)
        ended_by = c
        break
    if mult > 1:
        s.tally.seat.criticals_taken += 1
    if joker:
        log_event(s, EventKind.JOKER_ATTACK, ended_by, 0, 0)
        a = find_ace(s, Suit.HEART)
        if a < 0:
            death(s)
            return
        c = spend_ace(s, a)  # R10: the A-heart is the only way to survive a Joker
        card_row(s, c).hp_restored += h.hp_max - h.hp
        h.hp = h.hp_max
        s.tally.game.heart_saves += 1
        log_event(s, EventKind.SAVED, c, h.hp, 0)
    else:
        h.hp -= dmg
        s.tally.seat.damage_taken += dmg
        s.tally.battles[s.tally.row].damage_taken += dmg
        log_event(s, EventKind.MONSTER_ATTACK, ended_by, dmg, h.hp)
        if h.hp <= 0 and not save(s):
            death(s)
            return
    theft(s)
    begin_player_turn(s)


@kernel
def save(s) -> bool:
    """Keep the character alive at HP <= 0 if the Inventory allows, in place (R7, R14); return True if saved.

    The highest ordinary Heart (any number card for a Heart character) sets HP to its
    value; without one, the A-heart restores full HP.
    """
    q = s.piles
    h = s.hero
    best, best_v = -1, 0
    for k in range(q.inv_n):
        c = q.inv[k]
        if acts_as(s, c, Suit.HEART) and s.cards[c].value > best_v:
            best, best_v = k, s.cards[c].value
    if best >= 0:
        c = take_inv(s, best)
        discard(s, c)
        r = card_row(s, c)
        r.times_used += 1
        r.hp_restored += best_v - h.hp
        h.hp = best_v
        s.tally.seat.hearts_used += 1
    else:
        a = find_ace(s, Suit.HEART)
        if a < 0:
            return False
        c = spend_ace(s, a)
        card_row(s, c).hp_restored += h.hp_max - h.hp
        h.hp = h.hp_max
    s.tally.game.heart_saves += 1
    log_event(s, EventKind.SAVED, NO_CARD, h.hp, 0)
    return True


@kernel
def can_steal(s) -> bool:
    """Return True if the monster may steal from this class (R12)."""
    mr = s.cards[s.monster.card].rank
    cr = s.hero.rank
    if mr == JOKER_RANK:
        return True
    if cr == JACK:
        return mr in (QUEEN, KING)
    if cr == QUEEN:
        return mr == KING
    return cr == KING and mr == QUEEN  # an Ace class (classic) has no thieves but Jokers


@kernel
def suit_order(s, suit: int, joker: bool) -> int:
    """Return the tie-break place of ``suit`` (0 = taken first) (R12)."""
    cs = s.hero.suit
    if joker:  # spades, hearts, clubs, then the character's suit
        if suit == cs:
            return 4
        return 0 if suit == Suit.SPADE else (1 if suit == Suit.HEART else (2 if suit == Suit.CLUB else 3))
    if suit == cs:  # the character's suit, then clubs, hearts, spades
        return 0
    return 1 if suit == Suit.CLUB else (2 if suit == Suit.HEART else (3 if suit == Suit.SPADE else 4))


@kernel
def theft(s) -> None:
    """An eligible monster steals one Inventory card in place after its attack (R12)."""
    if s.monster.card == NO_CARD or not can_steal(s):
        return
    if (
        s.params.theft_chance_pct < 100
        and rng.randint(s.scratch.rng, Lane.THEFT, np.int64(100)) >= s.params.theft_chance_pct
    ):
        return
    q = s.piles
    joker = s.cards[s.monster.card].kind == Kind.JOKER
    s.tally.game.thefts += 1
    if q.inv_n == 0:
        if q.draw_n > 0:
            c = draw_top(s)
            discard(s, c)
            log_event(s, EventKind.THEFT, c, -1, 0)
        return
    best, best_key = -1, 0
    for k in range(q.inv_n):
        card = s.cards[q.inv[k]]
        if joker:  # Aces first, then the highest value
            key = (0 if card.kind == Kind.ACE else 100 - int(card.value)) * 8 + suit_order(s, card.suit, np.bool_(True))
        else:  # the lowest value first (int(): the int8 field must not wrap in plain Python, test-nojit)
            key = int(card.value) * 8 + suit_order(s, card.suit, np.bool_(False))  # np.bool_: one suit_order
        if best < 0 or key < best_key:
            best, best_key = k, key
    c = take_inv(s, best)
    discard(s, c)
    card_row(s, c).times_stolen += 1
    log_event(s, EventKind.THEFT, c, 0, 0)


@kernel
def both_out(s) -> None:
    """Both sides out of attack cards (R11): fresh cards for both, or a forfeit (a death)."""
    m = s.meta
    h = s.hero
    q = s.piles
    if s.params.both_out == BothOut.FORFEIT:
        death(s)
        s.tally.battles[s.tally.row].outcome = Outcome.FORFEIT  # read by after_death (a King decides later)
        if s.params.death_ends_session and m.phase == Phase.SESSION_END:
            m.end_reason = EndReason.FORFEIT_ONE_LIFE
        return
    pile = h.level * (2 if s.monster.kind == MonsterKind.JOKER else 1)
    need_n = max(0, h.str - q.hand_n) + pile
    if not need(s, need_n, EndReason.DRAW_FAILED_FRESH_CARDS):
        return
    while q.hand_n < h.str:
        hand_add(s, draw_top(s))
    for k in range(pile):
        q.mpile[k] = draw_top(s)
    q.mpile_n = pile
    log_event(s, EventKind.BOTH_OUT, NO_CARD, need_n, 0)
    if m.jack_first and s.params.both_out_order == BothOutOrder.FIRST_STRIKER:
        m.phase = Phase.MONSTER  # Q4, rules_version 1: the Jack strikes first again
    else:
        begin_player_turn(s)  # Q4: the monster's turn came up with no cards and is lost; the player strikes
