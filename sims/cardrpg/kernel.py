"""CardRPG Advanced rules as small in-place kernels (RULES.md; rulings R1-R22).

One simulated "game" is one character: ``n_sessions`` sessions (R1). Phases without
decisions run in ``advance``; the bot decides in PLAYER, BETWEEN, BUY, KING_KEEP,
PRE_STRIKE and BLITZ:

    session start: shuffle the 53 cards, summoning-sickness deal (R4)
    BATTLE_START   cap check, hand refill (R4), monster, bonus cards, attack pile, HP (R6)
                   -> PRE_STRIKE (Jack monster and an A-spade) / MONSTER (Jack) / PLAYER
    PLAYER         Spades, Clubs, Aces, buy-backs, hand attacks (combos, random attacks)
                   END -> MONSTER; a kill -> victory -> BETWEEN; the A-club -> BLITZ
    BLITZ          choose the A-club's hand cards, END -> one attack -> PLAYER
    MONSTER        one attack (R10), theft (R12), Hearts (R14), death (R18) -> PLAYER
                   (both sides out: fresh cards or forfeit, R11)
    BETWEEN        buy-backs, sell, REVEAL -> BUY, QUIT or END -> BATTLE_START
    SESSION_END    tallies (R19), the session's rows; next session or OVER

Any required draw that cannot be completed in full ends the session at once (R16):
``need(s, n, reason)`` checks it before every draw.

The rules live in six modules: this one (character, sessions, battle set-up, applying
actions, drivers), ``actions`` (the legal actions of each decision, prices), ``zones``
(the draw-pile ring, required draws, dice, hand and Inventory moves), ``combat`` (the
player's and the monster's turns), ``gold`` (buy-backs, the A-diamond, sales) and
``rewards`` (victory, Inventory entry, levels, death). Their functions are re-exported
here, so ``kernel.<rule>`` names every rule.
"""

import numpy as np

from sims.cardrpg import bots as policies
from sims.cardrpg.actions import blitz_actions, can_buy, legal_actions, price  # noqa: F401  (re-exported)
from sims.cardrpg.combat import (  # noqa: F401  (re-exported: kernel.<rule> names every rule)
    ace_club,
    ace_spade,
    begin_player_turn,
    blitz_attack,
    blitz_choose,
    both_out,
    can_steal,
    hand_attack,
    hit_monster,
    monster_turn,
    random_attack,
    save,
    spend_ace,
    suit_order,
    theft,
    use_club,
    use_spade,
)
from sims.cardrpg.gold import buyback, can_buyback, can_refill_hand, sell  # noqa: F401
from sims.cardrpg.rewards import (  # noqa: F401
    after_death,
    death,
    enter_inventory,
    joker_shuffle,
    level_up,
    monster_cleanup_victory,
    victory,
)
from sims.cardrpg.state import (
    CARD_RECORD_DTYPE,
    GAME_DTYPE,
    HP_DICE,
    JACK,
    MAX_EVENTS,
    MAX_LEVEL,
    NO_CARD,
    RING,
    SEAT_DTYPE,
    TURN_DTYPE,
    ActionKind,
    ClassCard,
    ClassRanks,
    Dice,
    EndReason,
    EventKind,
    HandRefill,
    HpReset,
    Kind,
    Lane,
    MonsterHp,
    MonsterKind,
    Outcome,
    Phase,
    Pick,
    StatRoll,
    Suit,
    action_a,
    action_b,
    action_kind,
    new_state,
)
from sims.cardrpg.zones import (  # noqa: F401
    acts_as,
    card_die,
    card_row,
    combo_rank_of,
    count_rank,
    discard,
    draw_top,
    end_session,
    find_ace,
    hand_add,
    has_inventory_play,
    is_ace_power,
    log_event,
    monster_cleanup,
    need,
    peek_top,
    power_on,
    put_bottom,
    remove_at_hand,
    roll,
    take_discard,
    take_inv,
)
from sims.core import rng
from sims.core.driver import audit
from sims.core.jit import hot, kernel
from sims.core.records import EVENT_DTYPE, NO_REPORT

ACE = 1


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


@hot
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
def monster_kind(s, c: int) -> int:
    """Return the MonsterKind of card ``c``."""
    k = s.cards[c].kind
    if k == Kind.JOKER:
        return MonsterKind.JOKER
    if k == Kind.FACE:
        return MonsterKind.FACE
    return MonsterKind.ACE if k == Kind.ACE else MonsterKind.NUMBER


@hot
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
    if not need(s, np.int64(1), EndReason.DRAW_FAILED_MONSTER):  # int64: one compiled need
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
        m.phase = Phase.PRE_STRIKE if find_ace(s, Suit.SPADE) >= 0 else Phase.MONSTER
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


@hot
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
    elif m.phase == Phase.BLITZ:
        if kind == ActionKind.ATTACK:
            blitz_choose(s, x, y)
        else:
            blitz_attack(s)
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
        hand_attack(s, x, y, Pick.RANK)
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


@hot
def set_up(s, character: int, seed: np.uint64) -> bool:
    """Create the character and start its first session in place; False if creation dice fail (cards only)."""
    reset(s, character, seed)
    if not create_character(s, character):
        return False
    start_session(s)
    advance(s)
    return True


@hot
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
def play_batch(
    params, cards, bot_ids, weights, root_seed, first_game, n_games, record_cards, record_turns,
    games, seats, cards_out, turns, counts, report, events,
) -> int:  # fmt: skip
    """Play characters ``first_game ..`` into the record buffers; the one compiled loop of every entry point.

    ``play_games``, ``check_games`` and ``replay_game`` (plain Python) all call it, so a cold
    start compiles (and optimises) the rules once, not once per entry. A table of size 0 is
    not recorded; a non-empty ``report`` audits every decision (``play_character``); a
    non-empty ``events`` (``EVENT_DTYPE``) turns the event log on and receives the last
    character's events, their number in ``counts[0]``. Stops before a character whose rows
    would not fit; returns how many characters completed.
    """
    log_on = min(events.shape[0], 1)
    state = prepare(cards, params, weights, log_on)
    counts[:] = 0
    for k in range(n_games):
        s = state[0]  # taken inside the loop: keeps ``state`` alive (see sims/cardinger/state.py)
        if not fits(s, record_cards, record_turns, games, seats, cards_out, turns, counts):
            return k
        g = first_game + k
        play_character(s, bot_ids[0], g, rng.game_seed(root_seed, g), report)
        if record_turns and counts[3] + s.tally.n_battles > turns.shape[0]:
            return k
        write_records(s, record_cards, record_turns, games, seats, cards_out, turns, counts)
        if log_on:
            counts[0] = min(s.meta.log_n, events.shape[0])
            for i in range(counts[0]):
                events[i] = s.scratch.log[i]
    return n_games


TABLE_DTYPES = {"games": GAME_DTYPE, "seats": SEAT_DTYPE, "cards": CARD_RECORD_DTYPE, "turns": TURN_DTYPE}
NO_ROWS = {name: np.zeros(0, dtype) for name, dtype in {**TABLE_DTYPES, "events": EVENT_DTYPE}.items()}


def play_games(
    params, cards, decks, bot_ids, weights, root_seed, first_game, n_games, record_cards, record_turns,
    games, seats, cards_out, turns, counts,
) -> int:  # fmt: skip
    """Play characters ``first_game ..`` (each ``n_sessions`` sessions) into the record buffers (GameSpec contract).

    ``decks`` is unused: the deck is the whole pool. Stops before a character whose rows
    would not fit; returns how many characters completed (``play_batch``).
    """
    return play_batch(
        params, cards, bot_ids, weights, np.uint64(root_seed), int(first_game), int(n_games), int(record_cards),
        int(record_turns), games, seats, cards_out, turns, counts, NO_REPORT, NO_ROWS["events"],
    )  # fmt: skip


def check_games(params, cards, decks, bot_ids, weights, root_seed, first_game, n_games, report) -> None:
    """Play the same characters as ``play_games``, auditing every decision; fill ``report`` (int64[4])."""
    report[:] = 0
    play_batch(
        params, cards, bot_ids, weights, np.uint64(root_seed), int(first_game), int(n_games), 0, 0,
        NO_ROWS["games"], NO_ROWS["seats"], NO_ROWS["cards"], NO_ROWS["turns"], np.zeros(4, np.int64), report,
        NO_ROWS["events"],
    )  # fmt: skip


def replay_game(params, cards, decks, bot_ids, weights, root_seed, game) -> np.ndarray:
    """Play character ``game`` exactly as ``play_games`` does, with the event log on; return its events."""
    character = int(game) // params.n_sessions  # ``game`` is a session id (character * n_sessions + session)
    events = np.zeros(MAX_EVENTS, EVENT_DTYPE)
    counts = np.zeros(4, np.int64)
    play_batch(
        params, cards, bot_ids, weights, np.uint64(root_seed), character, 1, 0, 0,
        NO_ROWS["games"], NO_ROWS["seats"], NO_ROWS["cards"], NO_ROWS["turns"], counts, NO_REPORT, events,
    )  # fmt: skip
    return events[: counts[0]].copy()
