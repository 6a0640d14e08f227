"""CardRPG Advanced rules as small in-place kernels (RULES.md; rulings R1-R22).

One simulated "game" is one character: ``n_sessions`` sessions (R1). Phases without
decisions run in ``advance``; the bot decides in PLAYER, BETWEEN, BUY, KING_KEEP and
PRE_STRIKE:

    session start: shuffle the 53 cards, summoning-sickness deal (R4)
    BATTLE_START   cap check, hand refill (R4), monster, bonus cards, attack pile, HP (R6)
                   -> PRE_STRIKE (Jack monster and an A-spade) / MONSTER (Jack) / PLAYER
    PLAYER         Spades, Clubs, Aces, buy-backs, hand attacks (combos, random attacks)
                   END -> MONSTER; a kill -> victory -> BETWEEN
    MONSTER        one attack (R10), theft (R12), Hearts (R14), death (R18) -> PLAYER
                   (both sides out: fresh cards or forfeit, R11)
    BETWEEN        buy-backs, sell, REVEAL -> BUY, QUIT or END -> BATTLE_START
    SESSION_END    tallies (R19), the session's rows; next session or OVER

Any required draw that cannot be completed in full ends the session at once (R16):
``need(s, n, reason)`` checks it before every draw.
"""

import numpy as np

from sims.cardrpg import bots as policies
from sims.cardrpg.state import (
    A_CLUBS,
    A_DIAMONDS,
    A_HEARTS,
    A_SPADES,
    HP_DICE,
    JACK,
    JOKER_RANK,
    KING,
    MAX_EVENTS,
    MAX_LEVEL,
    NO_CARD,
    QUEEN,
    RING,
    XP_NEXT,
    ActionKind,
    BothOut,
    BuybackDestination,
    ClassCard,
    ClassRanks,
    Dice,
    DicelessKingJoker,
    EndReason,
    EventKind,
    FaceCombo,
    HandRefill,
    HpReset,
    Kind,
    Lane,
    MonsterHp,
    MonsterKind,
    Outcome,
    Phase,
    RandomAttackJoker,
    StatRoll,
    Suit,
    XpOverflow,
    action_a,
    action_b,
    action_kind,
    encode,
    new_state,
)
from sims.core import rng
from sims.core.driver import audit, logged_events
from sims.core.jit import kernel

ACE = 1

# -- bookkeeping ------------------------------------------------------------------------------------


@kernel
def log_event(s, kind: int, card: int, value: int, extra: int) -> None:
    """Append one event to ``s.scratch.log`` in place; no-op unless ``meta.log_on`` (and when full)."""
    m = s.meta
    k = m.log_n
    if not m.log_on or k >= MAX_EVENTS:
        return
    e = s.scratch.log[k]
    e.turn, e.seat, e.kind, e.card, e.target = min(m.battle, 32767), 0, kind, card, m.exchange
    v, x = value + 0, extra + 0
    e.value, e.extra = max(-32768, min(v, 32767)), max(-32768, min(x, 32767))
    m.log_n = k + 1


@kernel
def card_row(s, c: int):
    """Return card ``c``'s record of this session, starting it if needed."""
    r = s.tally.cards[c]
    if not s.tally.touched[c]:
        s.tally.touched[c] = 1
        r.game, r.seat, r.card = s.meta.game, 0, c
        r.times_gained = r.times_used = r.times_stolen = r.times_sold = r.times_lost = 0
        r.damage = r.hp_restored = r.gold = r.extra_attacks = r.kills = 0
    return r


@kernel
def power_on(s, power: int) -> bool:
    """Return True if the Ace power ``power`` (AcePower bit) is in play."""
    return (s.params.ace_powers & power) != 0


# -- the draw pile (a ring: top at lo + n - 1, bottom at lo) ----------------------------------------


@kernel
def draw_top(s) -> int:
    """Take the top card of the draw pile in place; the caller has checked it is there (``need``)."""
    q = s.piles
    q.draw_n -= 1
    return q.draw[(q.draw_lo + q.draw_n) % RING]


@kernel
def peek_top(s) -> int:
    """Return the top card of the draw pile without taking it (NO_CARD if empty)."""
    q = s.piles
    return NO_CARD if q.draw_n == 0 else q.draw[(q.draw_lo + q.draw_n - 1) % RING]


@kernel
def put_bottom(s, c: int) -> None:
    """Put card ``c`` under the draw pile in place."""
    q = s.piles
    q.draw_lo = (q.draw_lo - 1 + RING) % RING
    q.draw[q.draw_lo] = c
    q.draw_n += 1


@kernel
def end_session(s, reason: int) -> None:
    """Stop the session in place for ``reason`` (EndReason); the battle in progress is abandoned (R16).

    The first reason stands: a level-up roll that fails after a failed Inventory draw does
    not change why the session ended.
    """
    if s.meta.phase == Phase.SESSION_END:
        return
    s.meta.end_reason = reason
    s.meta.phase = Phase.SESSION_END


@kernel
def need(s, n: int, reason: int) -> bool:
    """Return True if ``n`` cards can be drawn; else end the session for ``reason`` (R16: never a partial draw)."""
    if s.piles.draw_n >= n:
        return True
    end_session(s, reason)
    return False


# -- dice (R2, R20) -------------------------------------------------------------------------------------


@kernel
def card_die(s) -> int:
    """Return one die rolled with a card (R20): 1-6 (7 or 0 for K / Joker with ``special``); -1 = no card.

    The card goes back under the draw pile. With ``redraw`` a King or Joker is put back and
    the next card is used; a pile of nothing but Kings and Jokers gives -1.
    """
    for _ in range(s.piles.draw_n):
        if s.piles.draw_n == 0:
            return -1
        c = draw_top(s)
        put_bottom(s, c)
        card = s.cards[c]
        if card.kind == Kind.NUMBER or card.kind == Kind.ACE:
            return (card.value + 1) // 2
        if card.rank == JACK or card.rank == QUEEN:
            return 6
        if s.params.diceless_king_joker == DicelessKingJoker.SPECIAL:
            return 7 if card.rank == KING else 0
    return -1


@kernel
def roll(s, lane: int) -> int:
    """Return one die: a d6 on ``lane``, or a card die (R20); -1 if a card die cannot be drawn."""
    if s.params.dice == Dice.CARDS:
        return card_die(s)
    return rng.randint(s.scratch.rng, lane, 6) + 1


# -- the character (R2, R22) ------------------------------------------------------------------------------


@kernel
def class_of(s, character: int) -> int:
    """Return the ClassCard of ``character``: the parameter, or ``character % 12`` under SWEEP (R22)."""
    if s.params.class_card == ClassCard.SWEEP:
        return 1 + character % (16 if s.params.class_ranks == ClassRanks.JQKA else 12)
    return s.params.class_card


@kernel
def class_card_id(s, class_card: int) -> int:
    """Return the card id of ``class_card`` in the deck (suit-major J Q K, then the four Aces)."""
    k = class_card - 1
    suit, rank = (k // 3, JACK + k % 3) if k < 12 else (k - 12, ACE)
    for c in range(s.meta.n_cards):
        if s.cards[c].suit == suit and s.cards[c].rank == rank:
            return c
    return NO_CARD


@kernel
def roll_above(s, low: int) -> int:
    """Return a die on the SETUP lane rolled again while it shows ``low`` or less; -1 if a card die fails."""
    for _ in range(1000):
        d = roll(s, Lane.SETUP)
        if d < 0 or d > low:
            return d
    return -1


@kernel
def create_character(s, character: int) -> bool:
    """Create a level-1 character in place (E1-E3): STR = ceil(d6/2) + 2, HP = d6 + 2; False if dice fail."""
    h = s.hero
    h.class_card = class_of(s, character)
    h.class_id = class_card_id(s, h.class_card)
    h.suit, h.rank = s.cards[h.class_id].suit, s.cards[h.class_id].rank
    h.level, h.xp, h.gold = 1, 0, 0
    if s.params.dice == Dice.CARDS:  # R20: creation rolls come from a shuffled deck before the session
        lay_out_deck(s, Lane.SETUP)
    if s.params.stat_roll == StatRoll.D6_REROLL_LOW:  # classic: each a d6, 1s and 2s rolled again
        a = roll_above(s, 2)
        b = roll_above(s, 2)
        if a < 0 or b < 0:
            return False
        h.str, h.hp_max = a, b
    else:
        a = roll(s, Lane.SETUP)
        b = roll(s, Lane.SETUP)
        if a < 0 or b < 0:
            return False
        h.str = (a + 1) // 2 + 2  # E2
        h.hp_max = b + 2  # E3
    h.hp = h.hp_max
    log_event(s, EventKind.CHARACTER, h.class_id, h.str, h.hp_max)
    return True


# -- sessions ----------------------------------------------------------------------------------------------


@kernel
def lay_out_deck(s, lane: int) -> None:
    """Put every card but the class card in the draw pile, in id order, and shuffle it in place."""
    q = s.piles
    n = 0
    for c in range(s.meta.n_cards):
        if c != s.hero.class_id:
            q.work[n] = c
            n += 1
    rng.shuffle(q.work, n, s.scratch.rng, lane)
    for k in range(n):
        q.draw[k] = q.work[k]
    q.draw_lo, q.draw_n = 0, n
    q.hand_n = q.inv_n = q.discard_n = q.bone_n = q.bonus_n = q.mpile_n = q.play_n = 0
    s.monster.card = NO_CARD


@kernel
def start_session(s) -> None:
    """Begin a session in place: fresh rows, shuffle, summoning-sickness deal (R4, R16)."""
    m = s.meta
    h = s.hero
    m.game = m.character * s.params.n_sessions + m.session
    m.phase = Phase.BATTLE_START  # before the deal: a failed deal must record its own end reason
    m.battle = 0
    m.end_reason = EndReason.BATTLE_CAP
    for c in range(s.meta.n_cards):
        s.tally.touched[c] = 0
    g = s.tally.game
    g.game, g.seed, g.character_id, g.session_index = m.game, m.seed, m.character, m.session
    g.class_card, g.class_rank, g.class_suit = h.class_card, h.rank, h.suit
    g.level_start = h.level
    g.kills = g.deaths = g.jokers_killed = g.battles = g.battles_abandoned = g.level_ups = 0
    g.heart_saves = g.ace_uses = g.thefts = 0
    st = s.tally.seat
    st.game, st.seat, st.bot, st.class_card = m.game, 0, m.bot, h.class_card
    st.damage_dealt = st.damage_taken = st.attacks = st.cards_attacked = st.random_attacks = 0
    st.criticals_taken = st.spades_used = st.clubs_used = st.hearts_used = st.sold = 0
    st.buybacks = st.cards_bought = st.gold_gained = st.gold_spent = 0
    log_event(s, EventKind.SESSION, NO_CARD, m.session, h.level)
    lay_out_deck(s, Lane.SHUFFLE)
    h.hp = h.hp_max
    deal = h.str if m.session == 0 else (h.str + 1) // 2  # R4: full STR in the character's first session
    m.sick, m.kept_hand = 1, 0
    if not need(s, deal, EndReason.DRAW_FAILED_HAND):
        return
    for _ in range(deal):
        hand_add(s, draw_top(s))
    log_event(s, EventKind.DEAL, NO_CARD, deal, s.piles.draw_n)
    m.phase = Phase.BATTLE_START


@kernel
def hand_add(s, c: int) -> None:
    """Put card ``c`` at the end of the hand in place."""
    q = s.piles
    q.hand[q.hand_n] = c
    q.hand_n += 1


@kernel
def discard(s, c: int) -> None:
    """Put card ``c`` on the discard pile in place."""
    q = s.piles
    q.discard[q.discard_n] = c
    q.discard_n += 1


@kernel
def close_session(s) -> None:
    """End the session in place (R16, R19): tallies from the bone pile, everything to the discard pile."""
    m = s.meta
    q = s.piles
    g = s.tally.game
    b = m.battle
    if b > 0 and s.tally.battles[s.tally.row].outcome == Outcome.ABANDONED:
        g.battles_abandoned = 1
    kills = deaths = jokers = 0
    for k in range(q.bone_n):
        if q.bone_up[k]:
            kills += 1
            jokers += s.cards[q.bone[k]].kind == Kind.JOKER
        else:
            deaths += 1
    g.kills, g.deaths, g.jokers_killed, g.battles, g.turns = kills, deaths, jokers, b, b
    g.end_reason = m.end_reason
    h = s.hero
    g.level_end, g.xp_end, g.str_end, g.hp_max_end, g.gold_end = h.level, h.xp, h.str, h.hp_max, h.gold
    g.draw_pile_left = q.draw_n
    log_event(s, EventKind.SESSION_END, NO_CARD, m.end_reason, kills)
    # every card but the class card back to the discard pile (the next session reshuffles them all)
    monster_cleanup(s, False)
    while q.hand_n > 0:
        q.hand_n -= 1
        discard(s, q.hand[q.hand_n])
    while q.inv_n > 0:
        q.inv_n -= 1
        discard(s, q.inv[q.inv_n])
    while q.bone_n > 0:
        q.bone_n -= 1
        discard(s, q.bone[q.bone_n])


@kernel
def monster_cleanup(s, to_bottom: bool) -> None:
    """Move the cards in play, the monster's attack pile and (if still there) its bonus cards and card away.

    ``to_bottom``: under the draw pile (a victory, R17); else to the discard pile (death,
    abandoned battle, session end).
    """
    q = s.piles
    for k in range(q.play_n):
        put_bottom(s, q.play[k]) if to_bottom else discard(s, q.play[k])
    q.play_n = 0
    for k in range(q.mpile_n):
        put_bottom(s, q.mpile[k]) if to_bottom else discard(s, q.mpile[k])
    q.mpile_n = 0
    for k in range(q.bonus_n):
        discard(s, q.bonus[k])
    q.bonus_n = 0
    if s.monster.card != NO_CARD:
        discard(s, s.monster.card)
        s.monster.card = NO_CARD


# -- battles (R4-R6) ----------------------------------------------------------------------------------


@kernel
def monster_kind(s, c: int) -> int:
    """Return the MonsterKind of card ``c``."""
    k = s.cards[c].kind
    if k == Kind.JOKER:
        return MonsterKind.JOKER
    if k == Kind.FACE:
        return MonsterKind.FACE
    return MonsterKind.ACE if k == Kind.ACE else MonsterKind.NUMBER


@kernel
def start_battle(s) -> None:
    """Set up the next battle in place (R4, R6): refill, monster, bonus cards, attack pile, HP."""
    m = s.meta
    h = s.hero
    q = s.piles
    if m.battle >= s.params.max_battles:
        end_session(s, EndReason.BATTLE_CAP)
        return
    if not m.sick and s.params.hand_refill == HandRefill.PER_BATTLE and q.hand_n < h.str:
        if not need(s, h.str - q.hand_n, EndReason.DRAW_FAILED_HAND):
            return
        while q.hand_n < h.str:
            hand_add(s, draw_top(s))
    if m.sick and s.meta.kept_hand == 0 and m.battle > 0:  # after a death (R4, R18), bought-back cards or not
        deal = (h.str + 1) // 2
        if not need(s, deal, EndReason.DRAW_FAILED_HAND):
            return
        for _ in range(deal):
            hand_add(s, draw_top(s))
        log_event(s, EventKind.DEAL, NO_CARD, deal, q.draw_n)
    m.sick, m.kept_hand = 0, 0
    if not need(s, 1, EndReason.DRAW_FAILED_MONSTER):
        return
    m.battle += 1
    m.exchange, m.luck_used = 0, 0
    mon = s.monster
    mon.card = draw_top(s)
    mon.kind = monster_kind(s, mon.card)
    s.tally.row = s.tally.n_battles
    s.tally.n_battles += 1
    row = s.tally.battles[s.tally.row]
    row.game, row.turn, row.seat, row.level, row.str, row.hp_max = m.game, m.battle, 0, h.level, h.str, h.hp_max
    row.hand_start = q.hand_n
    row.monster_kind, row.monster_rank, row.monster_card = mon.kind, s.cards[mon.card].rank, mon.card
    row.exchanges = row.damage_taken = row.damage_dealt = row.xp_gained = row.gold_gained = 0
    row.outcome, row.monster_hp, row.inventory_size, row.hp_end = Outcome.ABANDONED, 0, q.inv_n, h.hp
    n_bonus = 2 if mon.kind == MonsterKind.JOKER else (1 if mon.kind == MonsterKind.FACE else 0)
    if not need(s, n_bonus, EndReason.DRAW_FAILED_BONUS):
        return
    for k in range(n_bonus):
        q.bonus[k] = draw_top(s)
    q.bonus_n = n_bonus
    pile = h.level * (2 if mon.kind == MonsterKind.JOKER else 1)
    if not need(s, pile, EndReason.DRAW_FAILED_ATTACK_PILE):
        return
    for k in range(pile):
        q.mpile[k] = draw_top(s)  # dealt face down: the first card dealt ends at the bottom
    q.mpile_n = pile
    if not roll_monster_hp(s):
        return
    row.monster_hp = mon.hp_start
    if s.params.hp_reset == HpReset.PER_BATTLE:
        h.hp = h.hp_max  # R5
    log_event(s, EventKind.MONSTER, mon.card, mon.hp, mon.xp)
    m.jack_first = s.cards[mon.card].rank == JACK  # E14
    if m.jack_first:
        m.phase = Phase.PRE_STRIKE if find_ace(s, Suit.SPADE, A_SPADES) >= 0 else Phase.MONSTER
    else:
        begin_player_turn(s)


@kernel
def roll_monster_hp(s) -> bool:
    """Set the monster's HP and XP value in place (R17, R21, E5-E7); False if a card die fails (R16)."""
    mon = s.monster
    n = HP_DICE[min(s.hero.level, MAX_LEVEL)]
    hp = 0
    if mon.kind == MonsterKind.JOKER:
        hp = 6 * n  # Jokers always get the highest roll
    elif s.params.monster_hp == MonsterHp.PRESET:
        hp = (4 if mon.kind == MonsterKind.FACE else 2) * n
    else:
        for _ in range(n):
            d = roll(s, Lane.DICE)
            if d < 0:
                end_session(s, EndReason.DRAW_FAILED_DICE)
                return False
            hp += d
    mon.hp = mon.hp_start = hp
    if mon.kind == MonsterKind.JOKER:
        mon.xp = hp // 2
    elif mon.kind == MonsterKind.FACE:
        mon.xp = hp
    else:
        mon.xp = s.cards[mon.card].value
    return True


# -- the player's turn (R8, R9, R11, R14, R15) --------------------------------------------------------------


@kernel
def begin_player_turn(s) -> None:
    """Open the player's attack turn in place: one hand attack plus one per Club (R14)."""
    m = s.meta
    m.attacks_left, m.attacks_made = 1, 0
    m.phase = Phase.PLAYER
    if s.piles.hand_n == 0 and not has_inventory_play(s):
        m.phase = Phase.MONSTER  # R11: out of attack cards, the turn is lost


@kernel
def has_inventory_play(s) -> bool:
    """Return True if an Inventory card could be played on an attack turn (Spade or A-spade)."""
    for k in range(s.piles.inv_n):
        c = s.piles.inv[k]
        if acts_as(s, c, Suit.SPADE) or is_ace_power(s, c, Suit.SPADE, A_SPADES):
            return True
    return False


@kernel
def acts_as(s, c: int, suit: int) -> bool:
    """Return True if Inventory card ``c`` may be played as a number card of ``suit`` (R14 affinity)."""
    card = s.cards[c]
    affinity = s.params.class_powers and s.hero.suit == suit  # classic: no class abilities
    if card.kind == Kind.NUMBER:
        return card.suit == suit or affinity
    if card.kind == Kind.ACE and s.params.affinity_includes_aces:
        return affinity  # the variant: an Ace may be played as a 1 of the class suit
    return False


@kernel
def is_ace_power(s, c: int, suit: int, power: int) -> bool:
    """Return True if ``c`` is the Ace of ``suit`` and its power is in play."""
    card = s.cards[c]
    return card.kind == Kind.ACE and card.suit == suit and power_on(s, power)


@kernel
def find_ace(s, suit: int, power: int) -> int:
    """Return the Inventory index of the Ace of ``suit`` with its power in play, or -1."""
    for k in range(s.piles.inv_n):
        if is_ace_power(s, s.piles.inv[k], suit, power):
            return k
    return -1


@kernel
def combo_rank_of(s, c: int) -> int:
    """Return the combo key of hand card ``c``: its rank, or 11 for any face card under ``any_face`` (R8)."""
    r = s.cards[c].rank
    if s.params.face_combo == FaceCombo.ANY_FACE and s.cards[c].kind == Kind.FACE:
        return JACK
    return r


@kernel
def count_rank(s, rank: int) -> int:
    """Return how many hand cards have combo key ``rank``."""
    n = 0
    for k in range(s.piles.hand_n):
        n += combo_rank_of(s, s.piles.hand[k]) == rank
    return n


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
        if not need(s, 1, EndReason.DRAW_FAILED_RANDOM_ATTACK):
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
def hand_attack(s, cards_rank: int, count: int, whole_hand: bool) -> None:
    """Play ``count`` hand cards of combo key ``cards_rank`` (or the whole hand) as one attack (R8, R9)."""
    q = s.piles
    m = s.meta
    dmg = 0
    kill = False
    played = 0
    first = NO_CARD
    k = 0
    while k < q.hand_n and (whole_hand or played < count):
        c = q.hand[k]
        if not whole_hand and combo_rank_of(s, c) != cards_rank:
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
    m.attacks_left -= 1
    m.attacks_made += 1
    s.tally.seat.attacks += 1
    s.tally.seat.cards_attacked += played
    dead = hit_monster(s, dmg) or kill
    log_event(s, EventKind.PLAYER_ATTACK, first, dmg, s.monster.hp)
    if dead:
        victory(s)


@kernel
def remove_at_hand(s, k: int) -> int:
    """Remove hand card ``k`` in place (order kept); return it."""
    q = s.piles
    c = q.hand[k]
    for i in range(k, q.hand_n - 1):
        q.hand[i] = q.hand[i + 1]
    q.hand_n -= 1
    return c


@kernel
def take_inv(s, k: int) -> int:
    """Remove Inventory card ``k`` in place (order kept); return it."""
    q = s.piles
    c = q.inv[k]
    for i in range(k, q.inv_n - 1):
        q.inv[i] = q.inv[i + 1]
    q.inv_n -= 1
    return c


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
    dead = hit_monster(s, v)
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
    """Blitz with the A-club at Inventory index ``k`` in place: the whole hand as one attack (R14)."""
    c = spend_ace(s, k)
    card_row(s, c).extra_attacks += 1
    hand_attack(s, 0, 0, True)


@kernel
def can_buyback(s) -> bool:
    """Return True if a buy-back can be paid: 1 gold, or the A-diamond's free buy-back (R15)."""
    if s.piles.discard_n == 0:
        return False
    if s.hero.gold >= 1:
        return True
    limit = s.params.ace_diamond_buybacks
    return find_ace(s, Suit.DIAMOND, A_DIAMONDS) >= 0 and (limit < 0 or s.meta.luck_used < limit)


@kernel
def buyback(s, i: int) -> None:
    """Buy back discard-pile card ``i`` in place (R15): the A-diamond pays first, else 1 gold."""
    q = s.piles
    m = s.meta
    c = take_discard(s, i)
    limit = s.params.ace_diamond_buybacks
    a = find_ace(s, Suit.DIAMOND, A_DIAMONDS)
    if a >= 0 and (limit < 0 or m.luck_used < limit):
        m.luck_used += 1
        r = card_row(s, q.inv[a])
        r.times_used += 1
    else:
        s.hero.gold -= 1
        s.tally.seat.gold_spent += 1
    s.tally.seat.buybacks += 1
    if s.params.buyback_destination == BuybackDestination.HAND:
        hand_add(s, c)
    else:
        put_bottom(s, c)
    log_event(s, EventKind.BUYBACK, c, 0, 0)


@kernel
def take_discard(s, i: int) -> int:
    """Remove discard-pile card ``i`` in place (order kept); return it."""
    q = s.piles
    c = q.discard[i]
    for k in range(i, q.discard_n - 1):
        q.discard[k] = q.discard[k + 1]
    q.discard_n -= 1
    return c


@kernel
def sell(s, k: int) -> None:
    """A Diamond character sells Inventory card ``k`` for gold equal to its value in place (R14)."""
    c = take_inv(s, k)
    discard(s, c)
    v = s.cards[c].value
    s.hero.gold += v
    r = card_row(s, c)
    r.times_sold += 1
    r.gold += v
    s.tally.seat.sold += 1
    s.tally.seat.gold_gained += v
    log_event(s, EventKind.SOLD, c, v, 0)


# -- the monster's turn (R10, R12, R14, R18) --------------------------------------------------------------


@kernel
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
        a = find_ace(s, Suit.HEART, A_HEARTS)
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
        a = find_ace(s, Suit.HEART, A_HEARTS)
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
    if s.params.theft_chance_pct < 100 and rng.randint(s.scratch.rng, Lane.THEFT, 100) >= s.params.theft_chance_pct:
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
            key = (0 if card.kind == Kind.ACE else 100 - int(card.value)) * 8 + suit_order(s, card.suit, True)
        else:  # the lowest value first (int(): the int8 field must not wrap in plain Python, test-nojit)
            key = int(card.value) * 8 + suit_order(s, card.suit, False)
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
    if m.jack_first:
        m.phase = Phase.MONSTER
    else:
        begin_player_turn(s)


# -- victory, Inventory, levels (R13, R17) -----------------------------------------------------------------


@kernel
def victory(s) -> None:
    """The monster is dead (R17): cards under the draw pile, bone pile, XP, Inventory draws, level-up."""
    m = s.meta
    q = s.piles
    h = s.hero
    mon = s.monster
    row = s.tally.battles[s.tally.row]
    row.outcome = Outcome.WON
    monster_cleanup_victory(s)
    q.bone[q.bone_n], q.bone_up[q.bone_n] = mon.card, 1
    q.bone_n += 1
    card = mon.card
    mon.card = NO_CARD
    h.xp += mon.xp
    row.xp_gained = mon.xp
    log_event(s, EventKind.VICTORY, card, mon.xp, h.xp)
    gold0 = h.gold
    for k in range(q.bonus_n):  # bonus cards first (R13); classic (no Inventory): discarded
        if s.params.inventory:
            enter_inventory(s, q.bonus[k])
        else:
            discard(s, q.bonus[k])
    q.bonus_n = 0
    draws = (2 if h.rank == JACK and s.params.class_powers else 1) if s.params.inventory else 0
    if draws > 0 and need(s, draws, EndReason.DRAW_FAILED_INVENTORY):  # R16: both a Jack's cards or none
        for _ in range(draws):
            enter_inventory(s, draw_top(s))  # a Joker puts cards under the pile: the rest are still there
    row.gold_gained = h.gold - gold0
    level_up(s)
    row.inventory_size, row.hp_end = q.inv_n, h.hp
    if m.phase != Phase.SESSION_END:
        m.phase = Phase.BETWEEN


@kernel
def monster_cleanup_victory(s) -> None:
    """Put the cards in play and the rest of the attack pile under the draw pile in place (R17)."""
    q = s.piles
    for k in range(q.play_n):
        put_bottom(s, q.play[k])
    q.play_n = 0
    for k in range(q.mpile_n):
        put_bottom(s, q.mpile[k])
    q.mpile_n = 0


@kernel
def enter_inventory(s, c: int) -> None:
    """Card ``c`` enters the Inventory in place, one at a time (R13)."""
    q = s.piles
    card = s.cards[c]
    h = s.hero
    if card.kind == Kind.FACE:
        put_bottom(s, c)
        log_event(s, EventKind.INVENTORY, c, 0, 0)
        return
    if card.kind == Kind.JOKER:
        joker_shuffle(s, c)
        return
    r = card_row(s, c)
    r.times_gained += 1
    if card.kind == Kind.NUMBER and card.suit == Suit.DIAMOND:
        h.gold += card.value  # a Diamond is gold: under the draw pile
        r.gold += card.value
        s.tally.seat.gold_gained += card.value
        put_bottom(s, c)
        log_event(s, EventKind.INVENTORY, c, card.value, 0)
        return
    q.inv[q.inv_n] = c
    q.inv_n += 1
    log_event(s, EventKind.INVENTORY, c, 0, 0)


@kernel
def joker_shuffle(s, joker: int) -> None:
    """A Joker drawn into the Inventory (R13): it, the Inventory (not the A-diamond) and the discard pile go under."""
    q = s.piles
    n = 0
    q.work[n] = joker
    n += 1
    k = 0
    while k < q.inv_n:
        c = q.inv[k]
        if is_ace_power(s, c, Suit.DIAMOND, A_DIAMONDS):
            k += 1
            continue
        take_inv(s, k)
        q.work[n] = c
        n += 1
    for k in range(q.discard_n):
        q.work[n] = q.discard[k]
        n += 1
    q.discard_n = 0
    rng.shuffle(q.work, n, s.scratch.rng, Lane.SHUFFLE)
    for k in range(n):
        put_bottom(s, q.work[k])
    log_event(s, EventKind.JOKER_SHUFFLE, joker, n, 0)


@kernel
def level_up(s) -> None:
    """Advance levels while XP reaches the next threshold (R17, E19): STR and HP + ceil(d6/2) each."""
    h = s.hero
    while h.level < MAX_LEVEL and h.xp >= XP_NEXT[h.level]:
        a = roll(s, Lane.DICE)
        b = roll(s, Lane.DICE)
        if a < 0 or b < 0:
            end_session(s, EndReason.DRAW_FAILED_DICE)
            return
        need_xp = XP_NEXT[h.level]
        h.str += (a + 1) // 2
        inc = (b + 1) // 2
        h.hp_max += inc
        h.hp += inc
        h.level += 1
        h.xp = h.xp - need_xp if s.params.xp_overflow == XpOverflow.CARRY else 0
        s.tally.game.level_ups += 1
        log_event(s, EventKind.LEVEL_UP, NO_CARD, h.level, h.str)


# -- death (R18) ----------------------------------------------------------------------------------------------


@kernel
def death(s) -> None:
    """The character dies in place (R18); the King's hand decision comes next if it applies."""
    m = s.meta
    q = s.piles
    h = s.hero
    row = s.tally.battles[s.tally.row]
    row.outcome = Outcome.DIED
    q.bone[q.bone_n], q.bone_up[q.bone_n] = s.monster.card, 0  # face down: a death
    q.bone_n += 1
    s.monster.card = NO_CARD
    monster_cleanup(s, False)  # cards in play, the attack pile and the bonus cards
    k = 0
    while k < q.inv_n:  # the Inventory, all but the A-diamond
        c = q.inv[k]
        if is_ace_power(s, c, Suit.DIAMOND, A_DIAMONDS):
            k += 1
            continue
        take_inv(s, k)
        discard(s, c)
        card_row(s, c).times_lost += 1
    h.gold = 0
    if h.rank != QUEEN or not s.params.class_powers:
        h.xp = 0
    row.inventory_size, row.hp_end = q.inv_n, h.hp
    log_event(s, EventKind.DEATH, row.monster_card, 0, 0)
    if h.rank == KING and q.hand_n > 0 and s.params.class_powers:
        m.phase = Phase.KING_KEEP
    else:
        after_death(s, False)


@kernel
def after_death(s, keep: bool) -> None:
    """Finish a death in place: the hand (kept by a King who chooses so), then go on or end (R1, R18)."""
    m = s.meta
    q = s.piles
    if not keep:
        while q.hand_n > 0:
            q.hand_n -= 1
            discard(s, q.hand[q.hand_n])
    m.kept_hand = 1 if keep else 0
    m.sick = 1
    s.hero.hp = s.hero.hp_max
    if s.params.death_ends_session:
        forfeit = s.tally.battles[s.tally.row].outcome == Outcome.FORFEIT
        end_session(s, EndReason.FORFEIT_ONE_LIFE if forfeit else EndReason.DEATH_ONE_LIFE)
    else:
        m.phase = Phase.BETWEEN


# -- actions ------------------------------------------------------------------------------------------------------


@kernel
def legal_actions(s, out: np.ndarray) -> int:
    """Write every legal encoded action of the current decision into ``out``; return how many."""
    m = s.meta
    q = s.piles
    n = 0
    if m.phase == Phase.PRE_STRIKE:
        out[0], out[1] = (
            encode(ActionKind.ACE_SPADE, find_ace(s, Suit.SPADE, A_SPADES), 0),
            encode(ActionKind.PASS, 0, 0),
        )
        return 2
    if m.phase == Phase.KING_KEEP:
        out[0], out[1] = encode(ActionKind.KEEP, 0, 0), encode(ActionKind.PASS, 0, 0)
        return 2
    if m.phase == Phase.BUY:
        out[0] = encode(ActionKind.PASS, 0, 0)
        n = 1
        if can_buy(s):
            out[1] = encode(ActionKind.BUY, 0, 0)
            n = 2
        return n
    if m.phase != Phase.PLAYER and m.phase != Phase.BETWEEN:
        return 0
    if can_buyback(s):
        for i in range(q.discard_n):
            out[n] = encode(ActionKind.BUYBACK, i, 0)
            n += 1
    if s.hero.suit == Suit.DIAMOND and s.params.class_powers:
        for k in range(q.inv_n):
            if s.cards[q.inv[k]].kind == Kind.NUMBER:
                out[n] = encode(ActionKind.SELL, k, 0)
                n += 1
    if m.phase == Phase.BETWEEN:
        out[n] = encode(ActionKind.END, 0, 0)
        out[n + 1] = encode(ActionKind.QUIT, 0, 0)
        n += 2
        if q.draw_n > 0:
            out[n] = encode(ActionKind.REVEAL, 0, 0)
            n += 1
        return n
    for k in range(q.inv_n):
        c = q.inv[k]
        if acts_as(s, c, Suit.SPADE) and m.attacks_left > 0:  # R14: before a hand attack
            out[n] = encode(ActionKind.SPADE, k, 0)
            n += 1
        if acts_as(s, c, Suit.CLUB):
            out[n] = encode(ActionKind.CLUB, k, 0)
            n += 1
        if is_ace_power(s, c, Suit.SPADE, A_SPADES):
            out[n] = encode(ActionKind.ACE_SPADE, k, 0)
            n += 1
        if is_ace_power(s, c, Suit.CLUB, A_CLUBS) and q.hand_n > 0 and m.attacks_left > 0:
            out[n] = encode(ActionKind.ACE_CLUB, k, 0)
            n += 1
    if m.attacks_left > 0:
        for rank in range(1, 15):
            cnt = count_rank(s, rank)
            for k in range(1, cnt + 1):
                out[n] = encode(ActionKind.ATTACK, rank, k)
                n += 1
    if m.attacks_made > 0 or q.hand_n == 0 or m.attacks_left == 0:  # R8: at least one card if the hand has any
        out[n] = encode(ActionKind.END, 0, 0)
        n += 1
    return n


@kernel
def can_buy(s) -> bool:
    """Return True if the revealed card may be bought (R15): a number card or an Ace the gold covers."""
    c = s.meta.revealed
    card = s.cards[c]
    if card.kind == Kind.FACE or card.kind == Kind.JOKER:
        return False
    return s.hero.gold >= price(s, c)


@kernel
def price(s, c: int) -> int:
    """Return the price of buying card ``c`` off the draw pile (R15): its value, 20 for an Ace."""
    return 20 if s.cards[c].kind == Kind.ACE else s.cards[c].value


@kernel
def apply_action(s, a: int) -> None:
    """Apply the encoded action ``a`` in place, then run on to the next decision."""
    m = s.meta
    kind, x, y = action_kind(a), action_a(a), action_b(a)
    if m.phase == Phase.PRE_STRIKE:
        if kind == ActionKind.ACE_SPADE:
            ace_spade(s, x)
        else:
            m.phase = Phase.MONSTER
    elif m.phase == Phase.KING_KEEP:
        after_death(s, kind == ActionKind.KEEP)
    elif m.phase == Phase.BUY:
        c = m.revealed
        draw_top(s)  # the revealed card leaves the pile either way
        if kind == ActionKind.BUY:
            p = price(s, c)
            s.hero.gold -= p
            s.tally.seat.gold_spent += p
            s.tally.seat.cards_bought += 1
            log_event(s, EventKind.BOUGHT, c, p, 0)
            enter_inventory(s, c)
        else:
            discard(s, c)
        m.phase = Phase.BETWEEN
    elif kind == ActionKind.BUYBACK:
        buyback(s, x)
    elif kind == ActionKind.SELL:
        sell(s, x)
    elif m.phase == Phase.BETWEEN:
        if kind == ActionKind.END:
            m.phase = Phase.BATTLE_START
        elif kind == ActionKind.QUIT:
            end_session(s, EndReason.VOLUNTARY)
        else:  # REVEAL
            m.revealed = peek_top(s)
            log_event(s, EventKind.REVEALED, m.revealed, 0, 0)
            m.phase = Phase.BUY
    elif kind == ActionKind.END:
        m.phase = Phase.MONSTER
    elif kind == ActionKind.ATTACK:
        hand_attack(s, x, y, False)
    elif kind == ActionKind.SPADE:
        use_spade(s, x)
    elif kind == ActionKind.CLUB:
        use_club(s, x)
    elif kind == ActionKind.ACE_SPADE:
        ace_spade(s, x)
    elif kind == ActionKind.ACE_CLUB:
        ace_club(s, x)
    advance(s)


@kernel
def advance(s) -> None:
    """Run the phases that need no decision in place until the bot must decide or the run is over."""
    m = s.meta
    while True:
        if m.phase == Phase.BATTLE_START:
            start_battle(s)
        elif m.phase == Phase.MONSTER:
            monster_turn(s)
        elif m.phase == Phase.SESSION_END:
            close_session(s)
            store_session(s)
            m.session += 1
            if m.session >= s.params.n_sessions:
                m.phase = Phase.OVER
            else:
                start_session(s)
        else:
            return


# -- characters and batches ---------------------------------------------------------------------------------------


@kernel
def store_session(s) -> None:
    """Append the finished session's games, seats and card rows to the character's tally in place."""
    t = s.tally
    k = t.n_sessions
    t.games[k] = t.game
    t.seats[k] = t.seat
    t.n_sessions = k + 1
    for c in range(s.meta.n_cards):
        if t.touched[c]:
            t.card_rows[t.n_card_rows] = t.cards[c]
            t.n_card_rows += 1


@kernel
def reset(s, character: int, seed: np.uint64) -> None:
    """Empty the tally and zones of ``s`` in place for ``character`` seeded by ``seed``."""
    m = s.meta
    m.character, m.seed, m.session, m.battle, m.exchange, m.log_n = character, seed, 0, 0, 0, 0
    m.phase, m.end_reason = Phase.SESSION_END, EndReason.BATTLE_CAP
    t = s.tally
    t.n_sessions, t.n_card_rows, t.n_battles, t.row = 0, 0, 0, 0
    rng.seed_lanes(s.scratch.rng, seed)


@kernel
def set_up(s, character: int, seed: np.uint64) -> bool:
    """Create the character and start its first session in place; False if creation dice fail (cards only)."""
    reset(s, character, seed)
    if not create_character(s, character):
        return False
    start_session(s)
    advance(s)
    return True


@kernel
def play_character(s, bot: int, character: int, seed: np.uint64, report: np.ndarray) -> None:
    """Play every session of ``character`` in place; with a non-empty ``report`` audit every decision.

    ``report`` (int64[4], or size 0): decisions, conservation violations, illegal actions,
    characters whose sessions did not all end.
    """
    s.meta.bot = bot
    checking = report.shape[0] > 0
    if not set_up(s, character, seed):
        s.meta.phase = Phase.OVER
        return
    m = s.meta
    cap = s.params.n_sessions * (s.params.max_battles + 1) * 4096  # decisions; only a bug reaches it
    while m.phase != Phase.OVER and cap > 0:
        cap -= 1
        s.scratch.n_legal = 0
        if checking or policies.needs_legal(bot):
            s.scratch.n_legal = legal_actions(s, s.scratch.legal)
        a = policies.choose(bot, s)
        if checking and not audit(s, a, report):
            m.phase = Phase.OVER
            break
        apply_action(s, a)
        if checking:
            report[1] += not conserved(s)
    if checking and (m.phase != Phase.OVER or s.tally.n_sessions != s.params.n_sessions):
        report[3] += 1


@kernel
def mark1(seen: np.ndarray, zone: np.ndarray, n: int) -> int:
    """Add 1 to ``seen[c]`` for each card ``c`` of ``zone[:n]`` in place; return ``n``."""
    for k in range(n):
        seen[zone[k]] += 1
    return n


@kernel
def conserved(s) -> bool:
    """Return True if each of the 54 cards is in exactly one zone (the class card counts as its own zone)."""
    q = s.piles
    seen = s.scratch.seen
    n = s.meta.n_cards
    for c in range(n):
        seen[c] = 0
    total = 0
    for k in range(q.draw_n):
        seen[q.draw[(q.draw_lo + k) % RING]] += 1
    total += q.draw_n
    total += mark1(seen, q.hand, q.hand_n) + mark1(seen, q.inv, q.inv_n) + mark1(seen, q.discard, q.discard_n)
    total += mark1(seen, q.bone, q.bone_n) + mark1(seen, q.bonus, q.bonus_n) + mark1(seen, q.mpile, q.mpile_n)
    total += mark1(seen, q.play, q.play_n)
    if s.monster.card != NO_CARD:
        seen[s.monster.card] += 1
        total += 1
    seen[s.hero.class_id] += 1
    total += 1
    ok = total == n
    for c in range(n):
        ok = ok and seen[c] == 1
    return ok


@kernel
def prepare(cards: np.ndarray, params, weights: np.ndarray, log_on: int) -> np.ndarray:
    """Return a fresh ``STATE_DTYPE[1]`` for a batch: cards, params and the bot's weights loaded."""
    state = new_state(cards, params)
    s = state[0]
    for k in range(weights.shape[1]):
        s.scratch.weights[k] = weights[0, k]
    s.meta.log_on = log_on
    return state


@kernel
def fits(s, record_cards: int, record_turns: int, games, seats, cards_out, turns, counts) -> bool:
    """Return True if one more character's rows are sure to fit the output buffers (size 0 = table off)."""
    n = s.params.n_sessions
    room = games.shape[0] == 0 or counts[0] + n <= games.shape[0]
    room = room and (seats.shape[0] == 0 or counts[1] + n <= seats.shape[0])
    room = room and (not record_cards or counts[2] + n * s.meta.n_cards <= cards_out.shape[0])
    return room


@kernel
def write_records(s, record_cards: int, record_turns: int, games, seats, cards_out, turns, counts) -> None:
    """Append the finished character's rows (every session) to the output tables in place."""
    t = s.tally
    for k in range(t.n_sessions):
        if games.shape[0] > 0:
            games[counts[0]] = t.games[k]
            counts[0] += 1
        if seats.shape[0] > 0:
            seats[counts[1]] = t.seats[k]
            counts[1] += 1
    for k in range(t.n_card_rows if record_cards else 0):
        cards_out[counts[2]] = t.card_rows[k]
        counts[2] += 1
    for k in range(t.n_battles if record_turns else 0):
        turns[counts[3]] = t.battles[k]
        counts[3] += 1


@kernel
def play_games(
    params, cards, decks, bot_ids, weights, root_seed, first_game, n_games, record_cards, record_turns,
    games, seats, cards_out, turns, counts,
) -> int:  # fmt: skip
    """Play characters ``first_game ..`` (each ``n_sessions`` sessions) into the record buffers (GameSpec contract).

    ``decks`` is unused: the deck is the whole pool. Stops before a character whose rows
    would not fit; returns how many characters completed.
    """
    state = prepare(cards, params, weights, 0)
    no_report = np.zeros(0, np.int64)
    counts[:] = 0
    for k in range(n_games):
        s = state[0]  # taken inside the loop: keeps ``state`` alive (see sims/cardinger/state.py)
        if not fits(s, record_cards, record_turns, games, seats, cards_out, turns, counts):
            return k
        g = first_game + k
        play_character(s, bot_ids[0], g, rng.game_seed(root_seed, g), no_report)
        if record_turns and counts[3] + s.tally.n_battles > turns.shape[0]:
            return k
        write_records(s, record_cards, record_turns, games, seats, cards_out, turns, counts)
    return n_games


@kernel
def check_games(params, cards, decks, bot_ids, weights, root_seed, first_game, n_games, report) -> None:
    """Play the same characters as ``play_games``, auditing every decision; fill ``report``."""
    state = prepare(cards, params, weights, 0)
    report[:] = 0
    for k in range(n_games):
        g = first_game + k
        play_character(state[0], bot_ids[0], g, rng.game_seed(root_seed, g), report)


@kernel
def replay_game(params, cards, decks, bot_ids, weights, root_seed, game) -> np.ndarray:
    """Play character ``game`` exactly as ``play_games`` does, with the event log on; return its events."""
    state = prepare(cards, params, weights, 1)
    character = game // params.n_sessions  # ``game`` is a session id (character * n_sessions + session)
    play_character(state[0], bot_ids[0], character, rng.game_seed(root_seed, character), np.zeros(0, np.int64))
    return logged_events(state)
