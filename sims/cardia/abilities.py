"""Every ability of deck I and deck II (cards.csv; rulings R6-R16), resolved in place.

``activate(s, g, p, k)``: seat ``p`` activates its card in encounter ``k`` (R6). An
ongoing ability gets a token and is in effect from then on; an instant one resolves
through ``resolve``. Copy and activate (Magistra, Elemental, Illusionist) continue the
same loop with another ability and position instead of recursing: each resolves the
chosen ability "as if printed" on the copying card (Magistra, Elemental: at its own
position) or on the activated card (Illusionist: at that card's position). The
Elemental's draw comes after the copied ability. Every ability resolves as far as it
can (R7): a part that cannot resolve is skipped, the rest still happens.

``k`` is the position of "this card"; "the opposing card" is the other seat's card in
encounter ``k``.
"""

import numpy as np

from sims.cardia.decide import decide, legal_add, legal_clear
from sims.cardia.effects import (
    add_carrying,
    add_low_influence,
    add_played,
    choose_position,
    count_played,
    discard_chosen,
    name_faction,
    settle,
)
from sims.cardia.state import (
    ENVOY_NEXT,
    NO_CARD,
    NO_POS,
    Ability,
    Decision,
    EndReason,
    EventKind,
    Lane,
    VoidMode,
    Zone,
)
from sims.cardia.table import add_modifier, clear_slot, end_game, influence, remove_encounter
from sims.cardia.zones import (
    discard_from_hand,
    discard_top,
    draw,
    draw_n,
    log_event,
    record,
    shuffle_deck,
    take_from_hand,
    to_discard,
)
from sims.core import rng
from sims.core.jit import hot, kernel
from sims.core.records import NEVER

MAX_CHAIN = 8  # copy / activate links resolved in one activation (unique cards keep real chains short)


# -- removing and replacing played cards (R11, R14) ----------------------------------------


@hot
def discard_encounter(s, g, k: int) -> None:
    """Discard both cards of encounter ``k`` and delete it (Hired Blade); later encounters close the gap."""
    for side in range(2):
        c = g.card[k, side]
        clear_slot(g, k, side)
        to_discard(s, g, side, np.int64(c), Zone.TABLE)
    remove_encounter(s, g, k)


@hot
def take_back(s, g, p: int, k: int) -> None:
    """Swamp Guardian: seat ``p`` takes its card of encounter ``k`` back to hand, the card opposite is discarded."""
    c, other = g.card[k, p], g.card[k, 1 - p]
    clear_slot(g, k, 0)
    clear_slot(g, k, 1)
    g.hand[p, g.hand_n[p]] = c
    g.hand_n[p] += 1
    to_discard(s, g, 1 - p, np.int64(other), Zone.TABLE)
    if not g.sim:
        record(s, p, c).returned += 1
    log_event(s, g, EventKind.RETURN, p, c, other, k + 1, 0)
    remove_encounter(s, g, k)


@hot
def replace_opposing(s, g, p: int, k: int) -> bool:
    """Puppeteer (R14): discard the opposing card; a uniformly random card of the opponent's hand replaces it."""
    o = 1 - p
    if g.hand_n[o] == 0:
        end_game(s, g, p, EndReason.OPPONENT_CANNOT_PLAY)  # the opponent cannot play: you win
        return False
    old = g.card[k, o]
    clear_slot(g, k, o)
    to_discard(s, g, o, np.int64(old), Zone.TABLE)
    c = np.int64(g.hand[o, rng.randint(g.rng, np.int64(Lane.PUPPET), np.int64(g.hand_n[o]))])
    take_from_hand(s, g, o, c)
    g.card[k, o] = c
    if not g.sim:
        r = record(s, o, c)
        r.times_played += 1
        if r.first_played_turn == NEVER:
            r.first_played_turn = g.round_no
    log_event(s, g, EventKind.REPLACE, o, c, old, k + 1, 0)
    return True


# -- abilities with choices -------------------------------------------------------------------


@hot
def void_mage(s, g, p: int) -> bool:
    """Remove all modifiers or all ongoing tokens from any one card in play."""
    legal_clear(s)
    add_carrying(s, g, -1)
    t = choose_position(s, g, p, Decision.VOID_TARGET)
    if t == NO_POS:
        return False
    k, side = t // 2, t % 2
    g.chosen = t
    legal_clear(s)
    if g.mod[k, side] != 0:
        legal_add(s, VoidMode.MODIFIERS)
    if g.tok[k, side] > 0:
        legal_add(s, VoidMode.TOKENS)
    if decide(s, g, p, Decision.VOID_MODE) == VoidMode.MODIFIERS:
        add_modifier(s, g, k, side, -np.int64(g.mod[k, side]))
    else:
        g.tok[k, side] = 0
        log_event(s, g, EventKind.TOKEN, side, g.card[k, side], side, 0, 0)
    return True


@hot
def palace_guard(s, g, p: int, k: int) -> bool:
    """Name a faction; the opponent may discard a card of it from hand, else this card gets +7."""
    o = 1 - p
    f = name_faction(s, g, p, Decision.GUARD_FACTION, np.int64(g.card[k, p]))
    legal_clear(s)
    legal_add(s, NO_CARD)
    for i in range(g.hand_n[o]):
        if s.cards[g.hand[o, i]].faction == f:
            legal_add(s, g.hand[o, i])
    c = decide(s, g, o, Decision.GUARD_DISCARD)
    if c != NO_CARD:
        discard_from_hand(s, g, o, c)
        return False
    add_modifier(s, g, k, p, np.int64(7))
    return True


@hot
def discard_faction_from_hand(s, g, o: int, f: int) -> None:
    """Seat ``o`` discards every card of faction ``f`` it holds now (collected first: a Bazaar refill is kept)."""
    n = 0
    for i in range(g.hand_n[o]):
        if s.cards[g.hand[o, i]].faction == f:
            s.scratch.tmp[n] = g.hand[o, i]
            n += 1
    for i in range(n):
        discard_from_hand(s, g, o, np.int64(s.scratch.tmp[i]))


@hot
def witch_king(s, g, p: int) -> None:
    """Name a faction; the opponent discards it from deck and hand, then shuffles the deck (RULES.md §8)."""
    o = 1 - p
    f = name_faction(s, g, p, Decision.WITCH_FACTION, np.int64(NO_CARD))
    kept = 0
    for i in range(g.deck_n[o]):
        c = g.deck[o, i]
        if s.cards[c].faction == f:
            to_discard(s, g, o, np.int64(c), Zone.DECK)
        else:
            g.deck[o, kept] = c
            kept += 1
    g.deck_n[o] = kept
    discard_faction_from_hand(s, g, o, f)
    shuffle_deck(s, g, o)


@hot
def swamp_guardian(s, g, p: int, k: int) -> bool:
    """Take one of your other played cards back to hand and discard the card opposite it."""
    legal_clear(s)
    add_played(s, g, p, k * 2 + p)
    t = choose_position(s, g, p, Decision.SWAMP_TARGET)
    if t == NO_POS:
        return False
    take_back(s, g, p, np.int64(t // 2))
    return True


@hot
def inventor(s, g, p: int) -> bool:
    """+3 influence to any one card and -3 to any other card."""
    legal_clear(s)
    add_played(s, g, -1, NO_POS)
    plus = decide(s, g, p, Decision.INVENTOR_PLUS)
    add_modifier(s, g, plus // 2, plus % 2, np.int64(3))
    if s.params.serpent_per_change:
        settle(s, g)
        if g.over:
            return False
    legal_clear(s)
    add_played(s, g, -1, plus)
    minus = choose_position(s, g, p, Decision.INVENTOR_MINUS)
    if minus != NO_POS:
        add_modifier(s, g, minus // 2, minus % 2, np.int64(-3))
    return True


@hot
def kinesis_mage(s, g, p: int) -> bool:
    """Move all modifiers and ongoing tokens from one of your cards to another of your cards."""
    if count_played(g, p) < 2:
        return False
    legal_clear(s)
    add_carrying(s, g, p)
    f = choose_position(s, g, p, Decision.KINESIS_FROM)
    if f == NO_POS:
        return False
    g.chosen = f
    legal_clear(s)
    add_played(s, g, p, f)
    t = decide(s, g, p, Decision.KINESIS_TO)
    fk, tk = f // 2, t // 2
    if g.mod[fk, p] != 0:
        moved = np.int64(g.mod[fk, p])
        add_modifier(s, g, fk, p, -moved)
        add_modifier(s, g, tk, p, moved)
    if g.tok[fk, p] > 0:
        g.tok[tk, p] += g.tok[fk, p]
        g.tok[fk, p] = 0
        log_event(s, g, EventKind.TOKEN, p, g.card[tk, p], p, g.tok[tk, p], 0)
    return True


@hot
def envoy(s, g, p: int) -> bool:
    """-3 influence to any one card (this and the opposing one included), or to the next card you play."""
    legal_clear(s)
    add_played(s, g, -1, NO_POS)
    legal_add(s, ENVOY_NEXT)
    t = decide(s, g, p, Decision.ENVOY_TARGET)
    if t == ENVOY_NEXT:
        g.pend_mod[p] -= 3
        log_event(s, g, EventKind.PENDING, p, NO_CARD, NO_CARD, g.pend_mod[p], Ability.ENVOY)
        return False
    add_modifier(s, g, t // 2, t % 2, np.int64(-3))
    return True


@hot
def prodigy(s, g, p: int) -> bool:
    """+3 influence to one of your cards (this one included) whose influence is 8 or less."""
    legal_clear(s)
    add_low_influence(s, g, p, 8)
    t = choose_position(s, g, p, Decision.PRODIGY_TARGET)
    if t == NO_POS:
        return False
    add_modifier(s, g, t // 2, p, np.int64(3))
    return True


@hot
def successor(s, g, p: int) -> None:
    """The opponent discards their whole deck and all but 2 cards of their hand (their choice)."""
    o = 1 - p
    while g.deck_n[o] > 0:
        discard_top(s, g, o)
    while g.hand_n[o] > 2:
        discard_chosen(s, g, o)


# -- abilities without choices ---------------------------------------------------------------


@hot
def pending(s, g, p: int, delta: int, ability: int) -> None:
    """Add ``delta`` to seat ``p``'s pending "next card" modifier in place (R8)."""
    g.pend_mod[p] += delta
    log_event(s, g, EventKind.PENDING, p, NO_CARD, NO_CARD, g.pend_mod[p], ability)


@hot
def apply_ability(s, g, p: int, ability: int, k: int) -> None:
    """Resolve the instant ``ability`` for seat ``p`` with "this card" at encounter ``k``, in place.

    An ability that changes the table settles it as its last step: here, once, after
    whichever ability changed it (``changed``), so ``settle`` is one call site, not one
    per ability (Inventor's per-change settle, a variant, stays inside it).
    """
    o = 1 - p
    changed = False
    if ability == Ability.HIRED_BLADE:
        discard_encounter(s, g, k)
        changed = True
    elif ability == Ability.VOID_MAGE:
        changed = void_mage(s, g, p)
    elif ability == Ability.SURGEON:
        pending(s, g, p, -5, ability)
    elif ability == Ability.SABOTEUR:
        discard_top(s, g, o)
        discard_top(s, g, o)
    elif ability == Ability.FORTUNE_TELLER:
        g.fortune[p] = 1
    elif ability == Ability.PALACE_GUARD:
        changed = palace_guard(s, g, p, k)
    elif ability == Ability.AMBUSHER:
        discard_faction_from_hand(s, g, o, name_faction(s, g, p, Decision.AMBUSH_FACTION, np.int64(g.card[k, p])))
    elif ability == Ability.PUPPETEER:
        changed = replace_opposing(s, g, p, k)
    elif ability == Ability.CLOCKMAKER:
        if k >= 1:  # no previous encounter: only the second part (Clockmaker clarification)
            add_modifier(s, g, k - 1, p, np.int64(3))
        pending(s, g, p, 3, ability)
        changed = True
    elif ability == Ability.SWAMP_GUARDIAN:
        changed = swamp_guardian(s, g, p, k)
    elif ability == Ability.INVENTOR:
        changed = inventor(s, g, p)
    elif ability == Ability.DJINN:
        end_game(s, g, p, EndReason.DJINN)
    elif ability == Ability.POISONER:
        gap = influence(s, g, k, o) - influence(s, g, k, p)
        if gap > 0:
            add_modifier(s, g, k, o, np.int64(-gap))
            changed = True
    elif ability == Ability.KINESIS_MAGE:
        changed = kinesis_mage(s, g, p)
    elif ability == Ability.ENVOY:
        changed = envoy(s, g, p)
    elif ability == Ability.TAX_COLLECTOR:
        add_modifier(s, g, k, p, np.int64(4))
        changed = True
    elif ability == Ability.REVOLUTIONARY:
        discard_chosen(s, g, o)
        discard_chosen(s, g, o)
        draw_n(s, g, o, 2)
    elif ability == Ability.LIBRARIAN:
        g.pend_lib[p] += 1
    elif ability == Ability.PRODIGY:
        changed = prodigy(s, g, p)
    elif ability == Ability.BLACKMAILER:
        g.pend_bm[o] = name_faction(s, g, p, Decision.BLACKMAIL_FACTION, np.int64(g.card[k, p]))
    elif ability == Ability.ENGINEER:
        g.pend_eng[p] += 1
    elif ability == Ability.WITCH_KING:
        witch_king(s, g, p)
    elif ability == Ability.SUCCESSOR:
        successor(s, g, p)
    if changed:
        settle(s, g)


# -- copy and activate ------------------------------------------------------------------------


@hot
def instant(s, c: int) -> bool:
    """Return True if card ``c`` has an instant ability (a baseline card has none)."""
    return s.cards[c].effect != Ability.NONE and s.cards[c].ongoing == 0


@hot
def magistra_target(s, g, p: int, k: int) -> int:
    """Magistra (R15): one of your other played cards with an instant ability and influence >= its own."""
    legal_clear(s)
    own = influence(s, g, k, p)
    for j in range(g.n_enc):
        if j != k and g.up[j] and instant(s, g.card[j, p]) and influence(s, g, j, p) >= own:
            legal_add(s, j * 2 + p)
    return choose_position(s, g, p, Decision.MAGISTRA_TARGET)


@hot
def illusionist_target(s, g, p: int, k: int) -> int:
    """Illusionist: the position of another of your cards that is currently losing its encounter."""
    legal_clear(s)
    for j in range(g.n_enc):
        if j != k and g.up[j] and g.res[j] == 1 - p and s.cards[g.card[j, p]].effect != Ability.NONE:
            legal_add(s, j * 2 + p)
    return choose_position(s, g, p, Decision.ILLUSIONIST_TARGET)


@hot
def elemental_card(s, g, p: int) -> int:
    """Elemental: a card with an instant ability from your hand (NO_CARD if none)."""
    legal_clear(s)
    for i in range(g.hand_n[p]):
        if instant(s, g.hand[p, i]):
            legal_add(s, g.hand[p, i])
    if s.scratch.n_legal == 0:
        return NO_CARD
    return decide(s, g, p, Decision.ELEMENTAL_CARD)


@hot
def put_token(s, g, p: int, k: int) -> None:
    """Place an ongoing token on seat ``p``'s card in encounter ``k``: its ongoing ability is in effect (R9)."""
    g.tok[k, p] += 1
    log_event(s, g, EventKind.TOKEN, p, g.card[k, p], p, g.tok[k, p], 0)
    settle(s, g)


@hot
def note_activation(s, g, p: int, c: int, copier: int) -> None:
    """Count an activation of card ``c`` (``copier`` >= 0: copied by that card) in the records and log."""
    if not g.sim:  # only the test is copied into callers: a look-ahead keeps no records
        count_activation(s, g, np.int64(p), np.int64(c), np.int64(copier))


@kernel
def count_activation(s, g, p: int, c: int, copier: int) -> None:
    """``note_activation``'s records and log entry (compiled once, called with ``int64`` arguments)."""
    if copier < 0:
        record(s, p, c).activations += 1
        s.tally.seats[p].abilities_activated += 1
        log_event(s, g, EventKind.ACTIVATE, p, c, NO_CARD, s.cards[c].effect, 0)
    else:
        record(s, p, c).copied += 1
        log_event(s, g, EventKind.COPY, p, copier, c, s.cards[c].effect, 0)


@hot
def resolve(s, g, p: int, ability: int, k: int) -> None:
    """Resolve seat ``p``'s instant ``ability`` with "this card" at encounter ``k``, following copy chains (R7)."""
    draws = 0
    for _ in range(MAX_CHAIN):
        if g.over or k < 0:
            break
        c = g.card[k, p]
        g.focus = k * 2 + p
        if ability == Ability.MAGISTRA:
            t = magistra_target(s, g, p, k)
            if t == NO_POS:
                break
            note_activation(s, g, p, g.card[t // 2, p], c)
            ability = np.int64(s.cards[g.card[t // 2, p]].effect)
        elif ability == Ability.ILLUSIONIST:
            t = illusionist_target(s, g, p, k)
            if t == NO_POS:
                break
            k = np.int64(t // 2)
            note_activation(s, g, p, g.card[k, p], -1)
            if s.cards[g.card[k, p]].ongoing:
                put_token(s, g, p, k)
                break
            ability = np.int64(s.cards[g.card[k, p]].effect)
        elif ability == Ability.ELEMENTAL:
            draws += 1  # after the copied ability; even with nothing to copy (R7)
            x = elemental_card(s, g, p)
            if x == NO_CARD:
                break
            discard_from_hand(s, g, p, x)
            note_activation(s, g, p, x, c)
            ability = np.int64(s.cards[x].effect)
        else:
            apply_ability(s, g, p, ability, k)
            break
    for _ in range(draws):
        if not g.over:
            draw(s, g, p)


@hot
def activate(s, g, p: int, k: int) -> None:
    """Seat ``p`` activates its card in encounter ``k`` (R6): a token for an ongoing ability, else resolve it."""
    c = g.card[k, p]
    note_activation(s, g, p, c, -1)
    if s.cards[c].effect == Ability.NONE:
        return
    if s.cards[c].ongoing:
        put_token(s, g, p, k)
        return
    resolve(s, g, p, np.int64(s.cards[c].effect), k)
