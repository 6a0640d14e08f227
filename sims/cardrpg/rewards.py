"""CardRPG victory, Inventory entry, level-ups and death (R13, R17, R18)."""

import numpy as np

from sims.cardrpg.state import (
    JACK,
    KING,
    MAX_LEVEL,
    NO_CARD,
    QUEEN,
    XP_NEXT,
    EndReason,
    EventKind,
    JackDraws,
    Kind,
    Lane,
    Outcome,
    Phase,
    Suit,
    XpOverflow,
)
from sims.cardrpg.zones import (
    card_row,
    discard,
    draw_top,
    end_session,
    is_ace_power,
    log_event,
    monster_cleanup,
    need,
    put_bottom,
    roll,
    take_inv,
)
from sims.core import rng
from sims.core.jit import kernel


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
    if s.params.jack_draws == JackDraws.BOTH_OR_NONE:  # Q9, rules_version 1: a Jack's two cards, both or none
        if draws > 0 and need(s, draws, EndReason.DRAW_FAILED_INVENTORY):
            for _ in range(draws):
                enter_inventory(s, draw_top(s))  # a Joker puts cards under the pile: the rest are still there
    else:
        for _ in range(draws):  # R13: one at a time, each a required draw (R16)
            if not need(s, np.int64(1), EndReason.DRAW_FAILED_INVENTORY):  # int64: one need
                break
            enter_inventory(s, draw_top(s))  # a face card, Diamond or Joker goes under the pile: drawn again
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
        if is_ace_power(s, c, Suit.DIAMOND):
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
        if is_ace_power(s, c, Suit.DIAMOND):
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
        after_death(s, np.bool_(False))  # np.bool_: the same compiled version as apply_action's call


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
