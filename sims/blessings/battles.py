"""Blessings & Curses battle start and end.

Pools (R15-R17), gathering and shuffling, the first player (R5), opening hands (R6), the
winner's bonus (R14) and the caps (R19).
"""

import numpy as np

from sims.blessings import bots as policies
from sims.blessings.state import (
    NO_CARD,
    DeckMode,
    EndReason,
    EventKind,
    HandOrder,
    Lane,
    Opening,
    Phase,
    PoolTarget,
    Purpose,
)
from sims.blessings.zones import (
    clear_card_record,
    destroy,
    draw,
    log_event,
)
from sims.core import rng
from sims.core.jit import kernel
from sims.core.records import NO_WINNER

REVEAL_TRIES = 64  # first-player reveals before a coin decides (only an all-Attack-0 deck gets there)


@kernel
def bless_rightmost(s, p: int) -> None:
    """Add seat ``p``'s whole blessing pool to its rightmost card's Health in place (R16; no cap)."""
    q = s.piles
    b = s.pools.blessing[p]
    if b <= 0 or q.hand_n[p] == 0:
        return
    c = q.hand[p, q.hand_n[p] - 1]
    q.hp[p, c] += b
    log_event(s, EventKind.BLESSED, p, NO_CARD, c, b, q.hp[p, c])


@kernel
def curse_hand(s, p: int, counting: bool = True) -> int:
    """Let seat ``p``'s curse pool hit its hand from the left, overflowing, in place (R16); return cards destroyed."""
    q = s.piles
    left = s.pools.curse[p]
    lost = 0
    while left > 0 and q.hand_n[p] > 0:
        c = q.hand[p, 0]
        h = q.hp[p, c]
        if left >= h:
            left -= h
            q.hp[p, c] = 0
            destroy(s, p, 0)
            lost += 1
            if counting:
                s.tally.cards[p, c].times_cursed += 1
            log_event(s, EventKind.CURSED_AWAY, p, NO_CARD, c, h, 0)
        else:
            q.hp[p, c] = h - left
            log_event(s, EventKind.CURSE_HIT, p, NO_CARD, c, left, q.hp[p, c])
            left = 0
    if counting:
        s.tally.seats[p].cards_lost_to_curses += lost
    return lost


@kernel
def apply_pools(s, p: int, counting: bool = True) -> bool:
    """Apply seat ``p``'s curse and blessing pools to its hand in place (R16, R17); return True if wiped out."""
    if s.params.hand_order == HandOrder.PLAYER_ARRANGED:
        policies.arrange(s, p, Purpose.POOLS)
    if s.params.blessing_before_curses:
        bless_rightmost(s, p)
    lost = curse_hand(s, p, counting)
    wiped = s.pools.curse[p] > 0 and s.piles.hand_n[p] == 0  # R17: no curse, no wipe-out
    if not s.params.blessing_before_curses:
        bless_rightmost(s, p)
    b = s.meta.battle  # the battle whose pools these are (start_battle has not counted the next one yet)
    if b >= 1 and counting:
        row = s.tally.battles[b - 1]
        if p == 0:
            row.lost_to_curses_0, row.wiped_0 = lost, wiped
        else:
            row.lost_to_curses_1, row.wiped_1 = lost, wiped
    if wiped:
        log_event(s, EventKind.WIPED, p, NO_CARD, NO_CARD, 0, 0)
    return wiped


@kernel
def apply_both_pools(s, counting: bool = True) -> bool:
    """Apply both seats' pools (R15-R17), reset them, and end the game on a wipe-out; return True if it ended."""
    w0 = apply_pools(s, np.int64(0), counting)  # int64, not literals: one compiled apply_pools for both seats
    w1 = apply_pools(s, np.int64(1), counting)
    for p in range(2):
        s.pools.curse[p] = s.pools.blessing[p] = 0  # R17: expended
    if not (w0 or w1):
        return False
    m = s.meta
    m.phase = Phase.OVER
    if w0 and w1:
        m.winner, m.end_reason = NO_WINNER, EndReason.MUTUAL_WIPEOUT
    else:
        m.winner, m.end_reason = (1 if w0 else 0), EndReason.WIPEOUT
    log_event(s, EventKind.GAME_END, m.winner, NO_CARD, NO_CARD, m.end_reason, 0)
    return True


@kernel
def gather(s, p: int) -> None:
    """Put every card seat ``p`` owns into its deck, in owned order, and shuffle it in place (R15 step 1)."""
    q = s.piles
    n = q.owned_n[p]
    for k in range(n):
        q.deck[p, k] = q.owned[p, k]
    q.deck_n[p] = n
    q.hand_n[p] = q.discard_n[p] = q.gone_n[p] = 0
    rng.shuffle(q.deck[p], n, s.scratch.rng, np.int64(Lane.SHUFFLE + p))


@kernel
def choose_first(s) -> int:
    """Return the first player of the battle (R5): each seat reveals a random deck card, higher Attack starts.

    Ties reveal again; the revealed cards go back and each deck is reshuffled afterwards.
    After ``REVEAL_TRIES`` ties (a deck with no Attack at all) a coin decides.
    """
    q = s.piles
    first = -1
    for _ in range(REVEAL_TRIES):
        c0 = q.deck[0, rng.randint(s.scratch.rng, np.int64(Lane.REVEAL), np.int64(q.deck_n[0]))]
        c1 = q.deck[1, rng.randint(s.scratch.rng, np.int64(Lane.REVEAL), np.int64(q.deck_n[1]))]
        a0, a1 = s.cards[c0].attack, s.cards[c1].attack
        log_event(s, EventKind.REVEAL, 0, c0, NO_CARD, a0, 0)
        log_event(s, EventKind.REVEAL, 1, c1, NO_CARD, a1, 0)
        if a0 != a1:
            first = 0 if a0 > a1 else 1
            break
    if first < 0:
        first = rng.randint(s.scratch.rng, np.int64(Lane.REVEAL), np.int64(2))
    for p in range(2):
        rng.shuffle(q.deck[p], q.deck_n[p], s.scratch.rng, np.int64(Lane.SHUFFLE + p))
    return first


@kernel
def hold_value_card(order, n: int, half: int, holder: int, card: int) -> None:
    """Move ``card`` into the holder's half of the split deal ``order`` in place (value runs, ``value_card``).

    If the shuffle dealt it to the other seat (or left it out of an odd pool), it trades
    places with the holder's card at the same position of its half (the first one, for
    the left-out card): that card goes where ``card`` was. Both arms of a value run deal
    alike, so the opponent's cards are the same in both.
    """
    k = 0
    while k < n and order[k] != card:
        k += 1
    if k >= n or k // half == holder:
        return
    slot = holder * half + (k % half if k < 2 * half else 0)
    order[k], order[slot] = order[slot], card


@kernel
def swap_value_card(s, holder: int) -> None:
    """Replace the holder's copy of ``value_card`` by the baseline row in place, at the same place in its list.

    The baseline is the pool's last row (``pool.prepare_pool`` appends it). Keeping the
    owned order means every shuffle permutes the same positions in both arms of a value run.
    """
    q = s.piles
    for k in range(q.owned_n[holder]):
        if q.owned[holder, k] == s.params.value_card:
            q.owned[holder, k] = s.meta.n_cards - 1


@kernel
def deal_owned(s, counting: bool = True) -> None:
    """Give each seat its cards for the game in place (R3): the whole pool each, or half a shuffled pool each."""
    q = s.piles
    game = s.meta.game
    n = s.meta.n_real  # the value baseline row (if any) is dealt only by swap_value_card
    if s.params.deck_mode == DeckMode.SPLIT_ONE_DECK:
        order = q.deck[0]  # scratch use before the first gather
        for c in range(n):
            order[c] = c
        rng.shuffle(order, n, s.scratch.rng, np.int64(Lane.SETUP))
        half = n // 2  # an odd pool leaves its last card out
        if s.params.value_card >= 0:
            hold_value_card(order, n, half, game % 2, s.params.value_card)
        for p in range(2):
            for k in range(half):
                q.owned[p, k] = order[p * half + k]
            q.owned_n[p] = half
            for k in range(half):  # owned lists in id order: card records come out sorted
                c = q.owned[p, k]
                j = k
                while j > 0 and q.owned[p, j - 1] > c:
                    q.owned[p, j] = q.owned[p, j - 1]
                    j -= 1
                q.owned[p, j] = c
    else:
        for p in range(2):
            for c in range(n):
                q.owned[p, c] = c
            q.owned_n[p] = n
    if s.params.value_card >= 0 and s.params.value_swap:
        swap_value_card(s, game % 2)
    for p in range(2):
        if counting:
            s.tally.seats[p].cards_owned = q.owned_n[p]
        for k in range(q.owned_n[p]):
            c = q.owned[p, k]
            if counting:
                clear_card_record(s.tally.cards[p, c], game, p, c)
            if s.params.deck_mode == DeckMode.SPLIT_ONE_DECK:
                log_event(s, EventKind.OWNED, p, c, NO_CARD, k, 0)


@kernel
def end_at_cap(s) -> None:
    """End the game unresolved in place: ``max_battles`` battles and no wipe-out (R19)."""
    m = s.meta
    m.phase, m.winner, m.end_reason = Phase.OVER, NO_WINNER, EndReason.BATTLE_CAP
    log_event(s, EventKind.GAME_END, NO_WINNER, NO_CARD, NO_CARD, m.end_reason, 0)


@kernel
def start_battle(s, counting: bool = True) -> None:
    """Run the start of the next battle in place (R5, R6, R15-R17, R19); set TURN_START or OVER.

    ``meta.battle`` still numbers the battle that just ended while its pools are applied.
    """
    m = s.meta
    carry = s.params.pool_target == PoolTarget.CARRYOVER_HAND
    if m.battle >= 1 and carry:
        if apply_both_pools(s, counting):
            return  # R15 carryover: pools hit the hand left from the last battle
        if m.battle >= s.params.max_battles:
            end_at_cap(s)  # R19; no hands are dealt for a battle that is not played
            return
    for p in range(2):
        gather(s, p)
    first = choose_first(s)
    opening = 3 if s.params.opening == Opening.THREE_PLUS_TWO else 5
    for p in range(2):
        for _ in range(opening):
            c = draw(s, p, counting)
            if counting and c != NO_CARD and m.battle == 0:
                s.tally.cards[p, c].in_opening_hand = 1
        log_event(s, EventKind.DEAL, p, NO_CARD, NO_CARD, s.piles.hand_n[p], s.piles.deck_n[p])
    if m.battle >= 1 and not carry and apply_both_pools(s, counting):
        return  # R15 fresh hand: pools hit the new hands
    if m.battle >= s.params.max_battles:  # R19: the last battle's pools are applied and no one is wiped out
        end_at_cap(s)
        return
    m.battle += 1
    log_event(s, EventKind.BATTLE, first, NO_CARD, NO_CARD, m.battle, 0)
    m.battle_first = m.mover = first
    if m.battle == 1:
        m.first_seat = first
        if counting:
            s.tally.seats[first].first = 1
    if counting:
        s.tally.seats[first].battles_started += 1
    m.battle_turn = 0
    m.own_turns[0] = m.own_turns[1] = 0
    m.phase = Phase.TURN_START


@kernel
def record_battle(s, winner: int, how: int) -> None:
    """Write the row of the battle that just ended into ``s.tally.battles`` in place."""
    m = s.meta
    q = s.piles
    row = s.tally.battles[m.battle - 1]
    row.game, row.turn, row.seat, row.turns = m.game, m.battle, m.battle_first, m.battle_turn
    row.winner, row.how = winner, how
    row.score_0, row.score_1 = s.pools.wins[0], s.pools.wins[1]
    row.curse_pool_0, row.curse_pool_1 = s.pools.curse[0], s.pools.curse[1]
    row.blessing_pool_0, row.blessing_pool_1 = s.pools.blessing[0], s.pools.blessing[1]
    row.winner_bonus = s.pools.bonus
    row.cards_left_0 = q.hand_n[0] + q.deck_n[0] + q.discard_n[0]  # all three piles, whatever R12 counts
    row.cards_left_1 = q.hand_n[1] + q.deck_n[1] + q.discard_n[1]
    row.hand_0, row.hand_1 = q.hand_n[0], q.hand_n[1]
    row.lost_to_curses_0 = row.lost_to_curses_1 = row.wiped_0 = row.wiped_1 = 0


@kernel
def end_battle(s, winner: int, how: int, counting: bool = True) -> None:
    """End the current battle in place: winner's bonus (R14), battle row, then the next battle's start."""
    m = s.meta
    q = s.piles
    s.pools.bonus = 0
    if winner != NO_WINNER:
        if s.params.hand_order == HandOrder.PLAYER_ARRANGED:
            policies.arrange(s, winner, Purpose.BONUS)
        n = q.hand_n[winner]
        bonus = s.cards[q.hand[winner, n - 1]].attack if n > 0 else 0  # R14: 0 for a face card or an empty hand
        s.pools.bonus = bonus
        s.pools.blessing[winner] += bonus
        s.pools.wins[winner] += 1
        if counting:
            s.tally.seats[winner].bonus_gained += bonus
    m.final_how = how
    log_event(s, EventKind.BATTLE_END, winner, NO_CARD, NO_CARD, how, s.pools.bonus)
    if counting:
        record_battle(s, winner, how)
    m.phase = Phase.BATTLE_START
