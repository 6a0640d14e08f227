"""The Blessings & Curses bots in plain Python (``sims/blessings/bots.py``), for ``blessings_reference``.

Random, greedy and tactician: the same decisions, the same random numbers (the BOT lane)
and the same float arithmetic in the same order as the kernel's bots, with the same weights
(``bots.W``); see ``blessings_reference.py`` for the rules and the contract. ``BOT_FUNCS``
maps a bot name to its function (a ``Game`` waiting for a decision in, an action tuple out);
``arrange`` orders a hand as the bot would (R16's player-arranged hands), and
``modelled_play`` is the opponent model ``Reference`` primes.
"""

from __future__ import annotations

from blessings_reference import (
    ATTACK,
    BLESS,
    BONUS,
    CARRYOVER_HAND,
    CURSE,
    CURSE_TYPE,
    DISCARD,
    FIVE_AT_SETUP,
    LANE_BOT,
    ORDER_ATTACKS_FIRST,
    ORDER_BEST,
    OWN_TURN,
    PLAY_ON_ACTION,
    SURRENDER_ACTION,
    SURRENDER_END_PHASE,
    SURRENDER_PHASE,
    THREE_PLUS_TWO,
    TURN_START,
    W_ATTACK,
    W_BLESS,
    W_CURSE,
    W_DENY,
    W_DISCARD,
    W_EXCESS,
    W_EXPECT,
    W_FOCUS,
    W_GUARD,
    W_KILL,
    W_ORDER,
    W_OVERKILL,
    W_PRESS,
    W_RACE,
    W_SURRENDER_RATE,
    Game,
    Reference,
)


def random_bot(game: Game) -> tuple[int, int, int]:
    """Surrender with ``surrender_rate`` at each surrender decision; else a uniform card, action kind and target."""
    p = game.mover
    lane = LANE_BOT + p
    rng = game.rng
    if game.phase in (SURRENDER_PHASE, SURRENDER_END_PHASE):
        roll = rng.randint(lane, 1_000_000) / 1_000_000
        return SURRENDER_ACTION if roll < game.ref.weights[p][W_SURRENDER_RATE] else PLAY_ON_ACTION
    i = rng.randint(lane, game.to_play)
    c = game.hand[p][i]
    targets = len(game.hand[1 - p])
    n_kinds = 2 if targets > 0 else 1  # bless or curse (by type) + discard, + attack
    k = rng.randint(lane, n_kinds + 1)
    if k == 0:
        return (DISCARD, i, 0)
    if k == 1:
        return (CURSE if game.cards[c].type == CURSE_TYPE else BLESS, i, 0)
    return (ATTACK, i, rng.randint(lane, targets))


def threat(game: Game, viewer: int, o: int, j: int) -> float:
    """Return the curse seat ``o``'s hand card ``j`` would send if played, as ``viewer`` sees it (R4).

    The card's value uses its owner's face bonus (RULES.md §8.10).
    """
    if viewer != o and not game.rules.open_hands:
        return game.ref.mean_curse[o]  # an unseen card counts as an average card of the pool
    c = game.hand[o][j]
    return float(game.ref.pool_value[o][c]) if game.cards[c].type == CURSE_TYPE else 0.0


def seen_hp(game: Game, viewer: int, o: int, j: int) -> int:
    """Return the Health of seat ``o``'s hand card ``j`` as ``viewer`` sees it: full Health if hidden (R4)."""
    if viewer != o and not game.rules.open_hands:
        return game.rules.card_health
    return game.hp[o][game.hand[o][j]]


def guard_of(game: Game, p: int) -> int:
    """Return the blessing that protects seat ``p`` at the next battle start (R16: only blessing first)."""
    return game.blessing[p] if game.rules.blessing_before_curses else 0


def wipe_line(game: Game, viewer: int, p: int) -> int:
    """Return the curse that would wipe seat ``p`` out at the next battle start, as ``viewer`` sees it."""
    if game.rules.pool_target == CARRYOVER_HAND:
        if not game.hand[p]:
            return 1  # an empty hand falls to any curse, and no blessing has a card to land on
        total = 0
        for j in range(len(game.hand[p])):
            total += seen_hp(game, viewer, p, j)
        return total + guard_of(game, p)
    return fresh_line(game, p, 0)


def fresh_line(game: Game, p: int, cards: int) -> int:
    """Return the curse that would wipe seat ``p`` out holding ``cards`` fresh cards when the battle ends.

    Under ``fresh_hand`` the pools hit a new opening hand, whatever seat ``p`` holds (R15).
    """
    rules = game.rules
    if rules.pool_target == CARRYOVER_HAND:
        return cards * rules.card_health + guard_of(game, p) if cards > 0 else 1
    opening = 3 if rules.opening == THREE_PLUS_TWO else 5
    return min(opening, len(game.owned[p])) * rules.card_health + guard_of(game, p)


def doomed(game: Game, viewer: int, p: int) -> bool:
    """Return True if seat ``p``'s curse pool already wipes it out at the next battle start, as ``viewer`` sees it."""
    return game.curse[p] > 0 and game.curse[p] >= wipe_line(game, viewer, p)


def turn_draws(game: Game, p: int, begun: int) -> int:
    """Return the cards seat ``p`` draws at the start of its ``begun``-th turn of the battle (R6, R11)."""
    rules = game.rules
    if rules.opening == FIVE_AT_SETUP and begun <= 1:
        return 0  # its opening 5 cards were that draw
    avail = len(game.deck[p]) + (len(game.discard[p]) if rules.midbattle_reshuffle else 0)
    return min(rules.turn_draw, avail)


def coming(game: Game, p: int, draws: int) -> tuple[float, float]:
    """Return the (curse, Health removed) seat ``p`` expects from the opponent's next turn with ``draws`` draws."""
    o = 1 - p
    ref = game.ref
    curse, hit = 0.0, 0.0
    for c in game.hand[o]:
        if game.rules.open_hands:
            curse += ref.next_curse[o][c]
            hit += ref.next_hit[o][c]
        else:  # an unseen card: an average card of the pool
            curse += ref.mean_next[o][0]
            hit += ref.mean_next[o][1]
    return curse + draws * ref.mean_next[o][0], hit + draws * ref.mean_next[o][1]


def line_when_opponent_moves(game: Game, p: int, at_end: bool) -> int:
    """Return seat ``p``'s wipe-out line when the opponent can next end the battle (now, or after p's turn)."""
    if at_end:
        return wipe_line(game, p, p)
    return fresh_line(game, p, len(game.hand[p]) + turn_draws(game, p, game.own_turns[p]))


def settled_surrender(game: Game, p: int) -> bool:
    """Return True if the pools already decide the next battle start for ``p`` (a win or a certain draw)."""
    o = 1 - p
    line = wipe_line(game, p, o)
    if game.rules.blessing_before_curses and game.hand[o]:
        line += game.cards[game.hand[o][-1]].attack  # the bonus surrendering hands it (R14)
    me, opp = doomed(game, p, p), game.curse[o] > 0 and game.curse[o] >= line
    if opp and not me:
        return True  # surrendering now wipes the opponent out and not us
    return me and opp and not game.rules.blessing_before_curses  # nothing left to play for


def hand_curse(game: Game, viewer: int, o: int) -> float:
    """Return the curse seat ``o``'s hand would send if every curse-type card cursed, as ``viewer`` sees it."""
    total = 0.0
    for j in range(len(game.hand[o])):
        total += threat(game, viewer, o, j)
    return total


def concede(game: Game, p: int, at_end: bool) -> bool:
    """Greedy: concede when the opponent's curse-type cards held would take ``p`` to its line (no draws)."""
    return game.curse[p] + hand_curse(game, p, 1 - p) >= line_when_opponent_moves(game, p, at_end)


def race_surrender(game: Game, p: int, at_end: bool) -> bool:
    """Tactician: give up when the opponent's expected next turn reaches ``p``'s line while it stays safe."""
    o = 1 - p
    w = game.ref.weights[p]
    draws = turn_draws(game, o, game.own_turns[o] + 1)
    curse, hit = coming(game, p, draws)
    if game.rules.pool_target != CARRYOVER_HAND:
        hit = 0.0  # attacks on the hand in play do not reach the new opening hand
    line = line_when_opponent_moves(game, p, at_end)
    if game.curse[p] + w[W_EXPECT] * curse < line - w[W_EXPECT] * hit:
        return False  # not in danger on the opponent's next turn
    return game.curse[o] < fresh_line(game, o, len(game.hand[o]) + draws)  # it replies before p can end it


def press_gap(game: Game, p: int) -> int:
    """Return what the opposing wipe-out line still needs when attacks count for it (carryover + own_turn), else -1."""
    if game.rules.pool_target != CARRYOVER_HAND or game.rules.surrender != OWN_TURN:
        return -1
    gap = wipe_line(game, p, 1 - p) - game.curse[1 - p]
    return gap if gap > 0 else -1


def press_reach(game: Game, p: int, skip: int) -> int:
    """Return what ``p``'s cards still to play, but ``skip``, could add: each its curse or its damage, the larger."""
    ref, health = game.ref, game.rules.card_health
    reach = 0
    for i in range(game.to_play):
        if i != skip:
            c = game.hand[p][i]
            v = ref.pool_value[p][c] if game.cards[c].type == CURSE_TYPE else 0
            reach += max(v, min(ref.damage[c], health))
    return reach


def attack_value(game: Game, p: int, c: int, j: int, tactician: bool, power_left: float, gap: int, reach: int) -> float:
    """Return the value of seat ``p``'s card ``c`` attacking opposing hand card ``j``."""
    o = 1 - p
    w = game.ref.weights[p]
    dmg = game.ref.damage[c]
    h = seen_hp(game, p, o, j)
    removed = min(dmg, h)
    # tactician: Health removed matters only when the pools hit the hand in play (carryover_hand)
    health = 1.0 if not tactician or game.rules.pool_target == CARRYOVER_HAND else 0.0
    pressed = 0.0
    if tactician and gap > 0 and removed + reach >= gap:
        pressed = w[W_PRESS] * min(removed, gap)  # this turn can end the game: Health off counts like curse
    if dmg >= h:
        value = health * w[W_ATTACK] * h + w[W_KILL]
        if tactician:
            value += w[W_DENY] * threat(game, p, o, j) - w[W_OVERKILL] * (dmg - h) + pressed
        return value
    value = health * w[W_ATTACK] * dmg + pressed
    if tactician and power_left >= h - dmg:  # the rest of the hand can finish it
        value += health * w[W_FOCUS] * (w[W_KILL] + w[W_DENY] * threat(game, p, o, j)) * dmg / h
    return value


def curse_value(game: Game, p: int, c: int, tactician: bool) -> float:
    """Return the value of cursing with seat ``p``'s card ``c``."""
    w = game.ref.weights[p]
    v = game.ref.pool_value[p][c]
    if not tactician:
        return w[W_CURSE] * v
    o = 1 - p
    short = wipe_line(game, p, o) - game.curse[o]  # curse still needed to wipe the opponent out
    useful = min(v, max(0, short))
    return w[W_CURSE] * (useful + w[W_EXCESS] * (v - useful))


def bless_value(game: Game, p: int, v: int, weight: float, tactician: bool) -> float:
    """Return the value of ``v`` blessing points for seat ``p`` (bless or discard)."""
    value = weight * v
    if tactician and game.rules.blessing_before_curses:  # R16: the last buffer, counted up to what p needs
        need = game.curse[p] - wipe_line(game, p, p) + 1
        if need > 0:
            value += game.ref.weights[p][W_GUARD] * min(v, need)
    return value


def attack_power(game: Game, p: int, skip: int) -> float:
    """Return the damage seat ``p``'s cards still to play could deal, except hand index ``skip``."""
    damage, hand = game.ref.damage, game.hand[p]
    total = 0.0
    for i in range(game.to_play):
        if i != skip:
            total += damage[hand[i]]
    return total


def best_for_card(game: Game, p: int, i: int, tactician: bool) -> tuple[tuple[int, int, int], float]:
    """Return the best action for seat ``p``'s hand card ``i`` and its value (ties: attack, curse, bless, discard)."""
    ref = game.ref
    c = game.hand[p][i]
    w = ref.weights[p]
    m = p  # whose face bonus applies (kernel.face_bonus): the card's owner
    best = (DISCARD, i, 0)
    best_v = w[W_DISCARD] * ref.discard_value[m][c]
    if tactician:
        best_v = bless_value(game, p, ref.discard_value[m][c], w[W_DISCARD], True)
    if game.cards[c].type == CURSE_TYPE:
        v = curse_value(game, p, c, tactician)
        if v >= best_v:
            best, best_v = (CURSE, i, 0), v
    else:
        v = bless_value(game, p, ref.pool_value[m][c], w[W_BLESS], tactician)
        if v >= best_v:
            best, best_v = (BLESS, i, 0), v
    if ref.damage[c] > 0:
        power = attack_power(game, p, i) if tactician else 0.0
        gap = press_gap(game, p) if tactician else -1
        reach = press_reach(game, p, i) if gap > 0 else 0
        for j in range(len(game.hand[1 - p])):
            v = attack_value(game, p, c, j, tactician, power, gap, reach)
            if v >= best_v:  # later targets win ties, as in the kernel
                best, best_v = (ATTACK, i, j), v
    return best, best_v


def next_card(game: Game, p: int, tactician: bool) -> tuple[int, int, int]:
    """Return the action of the card ``p`` plays next (R7), by its ``order`` weight; ties to the leftmost card.

    Below ORDER_BEST the leftmost card; from ORDER_BEST the card still to play whose best
    action is worth the most; from ORDER_ATTACKS_FIRST a card whose best action is an
    attack before any other, the most valued of them.
    """
    order = game.ref.weights[p][W_ORDER]
    best, best_v = best_for_card(game, p, 0, tactician)
    if order < ORDER_BEST:
        return best
    attacks_first = order >= ORDER_ATTACKS_FIRST
    for i in range(1, game.to_play):  # only the cards still to play: replacements wait (R7)
        action, v = best_for_card(game, p, i, tactician)
        hits, best_hits = action[0] == ATTACK, best[0] == ATTACK
        if hits if attacks_first and hits != best_hits else v > best_v:
            best, best_v = action, v
    return best


def heuristic(game: Game, tactician: bool) -> tuple[int, int, int]:
    """Greedy and tactician: the surrender rules, then the next card (``next_card``) and its best action.

    A race is judged at the end of the turn with ``own_turn`` (at its start only a settled
    result is taken), at the start with ``turn_start``; never while already doomed.
    """
    p = game.mover
    if game.phase in (SURRENDER_PHASE, SURRENDER_END_PHASE):
        at_end = game.phase == SURRENDER_END_PHASE
        give_up = settled_surrender(game, p)
        racing = at_end or game.rules.surrender == TURN_START
        racing = racing and not give_up and game.ref.weights[p][W_RACE] > 0
        if racing and not doomed(game, p, p) and not doomed(game, p, 1 - p):
            give_up = race_surrender(game, p, at_end) if tactician else concede(game, p, at_end)
        return SURRENDER_ACTION if give_up else PLAY_ON_ACTION
    return next_card(game, p, tactician)


def greedy_bot(game: Game) -> tuple[int, int, int]:
    """Each card's highest-valued action, attacks first (by ``order``); settled surrenders; conceding a lost race."""
    return heuristic(game, False)


def tactician_bot(game: Game) -> tuple[int, int, int]:
    """Greedy (most valued card next) plus denial, focus fire, curse past the line discounted, press, guard, race."""
    return heuristic(game, True)


def modelled_play(ref: Reference, viewer: int, o: int, c: int, h: int) -> tuple[float, float]:
    """Return (curse sent, Health removed) when seat ``o`` plays card ``c`` against Health ``h``, in ``viewer``'s model.

    The viewer's own greedy valuation: attack against the card's curse (or bless) and
    discard, ties to the attack; only a card played as a curse counts as cursing.
    """
    w = ref.weights[viewer]
    card = ref.cards[c]
    dmg = ref.damage[c]
    v = ref.pool_value[o][c]
    other = w[W_CURSE] * v if card.type == CURSE_TYPE else w[W_BLESS] * v
    other = max(other, w[W_DISCARD] * ref.discard_value[o][c])
    if dmg > 0:
        hit = min(dmg, h)
        if w[W_ATTACK] * hit + (w[W_KILL] if dmg >= h else 0.0) >= other:
            return 0.0, float(hit)
    if card.type == CURSE_TYPE and w[W_CURSE] * v >= other:
        return float(v), 0.0
    return 0.0, 0.0


def keep_value(game: Game, p: int, c: int) -> float:
    """Return how much seat ``p`` wants to keep card ``c`` through the curses: its best printed output."""
    return float(max(game.ref.damage[c], game.ref.pool_value[p][c]))


def arrange(game: Game, p: int, purpose: int) -> None:
    """Reorder seat ``p``'s hand under ``player_arranged`` (R4), by its bot.

    POOLS: least-valued cards left, best right; BONUS: highest Attack right. The kernel's
    stable insertion sort is ``list.sort`` (stable too). The random bot shuffles instead.
    """
    hand = game.hand[p]
    if game.ref.bot_names[p] == "random":
        game.rng.shuffle(hand, LANE_BOT + p)
    elif purpose == BONUS:
        hand.sort(key=lambda c: game.cards[c].attack)
    else:
        hand.sort(key=lambda c: keep_value(game, p, c))


BOT_FUNCS = {"random": random_bot, "greedy": greedy_bot, "tactician": tactician_bot}
