"""Blessings & Curses rules: worked examples E2-E13 and rulings R1-R19 (rulings/blessings.md).

Positions are built by hand on the real card table (the rulebook's own, checked against
its generator in test_pool.py, E1), so cards are named as the rulebook names them.
Rulings about game flow (R1, R3, R5, R6, R19 ...) are checked on games played from
fixed seeds with the event log on.
"""

import numpy as np
import pytest

from sims.blessings import kernel
from sims.blessings.params import Params
from sims.blessings.state import ActionKind as K
from sims.blessings.state import (
    BattleEnd,
    CardType,
    DeckMode,
    DestroyedCards,
    EndReason,
    EventKind,
    HandOrder,
    Opening,
    Phase,
    PoolTarget,
    Surrender,
    action_i,
    action_kind,
)
from sims.blessings.state import encode as act

FIRST_READING = Params(pool_target=PoolTarget.FRESH_HAND, surrender=Surrender.TURN_START)  # the rules_version 1 default

FIVE = ("spade:2", "spade:3", "spade:4", "spade:5", "spade:6")  # a hand for the pool examples
DECK0 = ("heart:2", "heart:3", "heart:4", "heart:5", "heart:6", "heart:7", "heart:8", "heart:9")
DECK1 = ("club:2", "club:3", "club:4", "club:5", "club:6", "club:7", "club:8", "club:9")
IMPACT = {"heart": 3, "diamond": 2, "spade": 1, "club": 1}
FACES = ("jack", "queen", "king", "ace")


def printed(name: str) -> tuple[int, int, bool]:
    """Return (Attack, Impact, face) of a card as the rulebook's generating rule gives them (E1)."""
    suit, rank = name.split(":")
    face = rank in FACES
    return (0 if face else int(rank)), (4 if face else IMPACT[suit]), face


def battle_row(s, b: int = 1):
    """Return the tally row of battle ``b`` (1-based): the pools it left and what they did at the next start."""
    return s["tally"]["battles"][b - 1]


def ended_battle(s, b: int = 1):
    """Return the row of battle ``b``, checking its end was recorded (a zeroed row reads as a win for seat 0)."""
    row = battle_row(s, b)
    assert row["turn"] == b, "battle not ended"
    return row


def replay(params: Params, bots, seed: int, game: int, bl):
    """Return the event log of game ``game`` of root seed ``seed``, played as ``play_games`` plays it."""
    ids = np.array([bl.GAME.bots.index(b) for b in bots], np.int64)
    weights = np.stack([bl.GAME.make_weights(b) for b in bots])
    decks = np.zeros((2, 52), np.int16)
    return kernel.replay_game(params, bl.POOL.table, decks, ids, weights, np.uint64(seed), game)


def discard_turn(s) -> tuple[int, int, int, int]:
    """Play on, discard every card held, pass; return (battle, mover, cards held, opposing hand size)."""
    kernel.apply_action(s, act(K.PLAY_ON, 0, 0))
    m = s["meta"]
    p = int(m["mover"])
    seen = (int(m["battle"]), p, int(m["to_play"]), int(s["piles"]["hand_n"][1 - p]))
    for _ in range(seen[2]):
        kernel.apply_action(s, act(K.DISCARD, 0, 0))
    if m["phase"] == Phase.SURRENDER_END:  # R13 own_turn: the end-of-turn decision
        kernel.apply_action(s, act(K.PLAY_ON, 0, 0))
    return seen


# -- R1: turns, battles, games ----------------------------------------------------------------------


def test_r1_turns_alternate_within_a_battle_starting_with_its_first_player(bl):
    uncounted = 0
    for game in range(4):
        log = replay(Params(), ("random", "random"), 3, game, bl)
        first, last_seat, turn = None, None, 0
        for e in log:
            if e["kind"] == EventKind.BATTLE:
                first, last_seat = int(e["seat"]), None
            elif e["kind"] == EventKind.TURN_START:
                turn += 1
                assert e["turn"] == turn  # one global count of single-player turns
                expected = first if last_seat is None else 1 - last_seat
                assert e["seat"] == expected
                last_seat = int(e["seat"])
            elif e["kind"] == EventKind.SURRENDER and e["value"] == 0:
                turn -= 1  # a turn that is only a surrender is not counted (RULES.md §8.2)
                uncounted += 1
        assert turn > 0
    assert uncounted > 0  # the random bot does surrender at turn starts in these games


@pytest.mark.parametrize("params", [Params(), FIRST_READING], ids=["modern", "first_reading"])
def test_r1_r17_games_end_only_by_wipeouts_at_a_battle_start(bl, params):
    out = bl.chunk(params, ("random", "random"), n=24, seed=3)
    games, battles = out["games"], out["turns"]
    assert games["battles"].max() >= 2  # so the "no wipe-out before the last battle" checks bite
    reasons = set()
    for g in games:
        rows = battles[battles["game"] == g["game"]]
        assert len(rows) == g["battles"]
        assert not rows[:-1]["wiped_0"].any()
        assert not rows[:-1]["wiped_1"].any()
        wiped = (int(rows[-1]["wiped_0"]), int(rows[-1]["wiped_1"]))
        reasons.add(int(g["end_reason"]))
        if g["end_reason"] == EndReason.WIPEOUT:
            assert wiped == ((0, 1) if g["winner"] == 0 else (1, 0))
        elif g["end_reason"] == EndReason.MUTUAL_WIPEOUT:
            assert (wiped, int(g["winner"])) == ((1, 1), -1)
        else:  # R19: unresolved only after max_battles battles, nobody wiped out
            assert (g["end_reason"], g["battles"], wiped, int(g["winner"])) == (EndReason.BATTLE_CAP, 50, (0, 0), -1)
    assert {EndReason.WIPEOUT, EndReason.MUTUAL_WIPEOUT} <= reasons


# -- R2, R3: players and decks -------------------------------------------------------------------------


def test_r2_the_game_has_two_seats(bl):
    assert bl.GAME.seats == 2
    _, s = bl.new_game()
    assert s["piles"]["hand_n"].shape == (2,)


def test_r3_own_52_gives_each_seat_every_card_of_the_deck(bl):
    _, s = bl.new_game(Params(), seed=4)
    q = s["piles"]
    for p in range(2):
        assert q["owned_n"][p] == 52
        assert sorted(q["owned"][p, :52].tolist()) == list(range(52))
        held = [*q["deck"][p, : q["deck_n"][p]], *q["hand"][p, : q["hand_n"][p]]]
        assert sorted(held) == list(range(52))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_r3_split_one_deck_gives_each_seat_26_distinct_cards_together_the_whole_deck(bl, seed):
    _, s = bl.new_game(Params(deck_mode=DeckMode.SPLIT_ONE_DECK), seed=seed)
    q = s["piles"]
    owned = [q["owned"][p, : q["owned_n"][p]].tolist() for p in range(2)]
    assert [len(o) for o in owned] == [26, 26]
    assert [len(set(o)) for o in owned] == [26, 26]
    assert sorted(owned[0] + owned[1]) == list(range(52))
    for p in range(2):
        held = [*q["deck"][p, : q["deck_n"][p]], *q["hand"][p, : q["hand_n"][p]]]
        assert sorted(held) == sorted(owned[p])


def test_r3_split_one_deck_divides_the_deck_randomly(bl):
    splits = set()
    for seed in (1, 2, 3):
        _, s = bl.new_game(Params(deck_mode=DeckMode.SPLIT_ONE_DECK), seed=seed)
        splits.add(tuple(s["piles"]["owned"][0, :26].tolist()))
    assert len(splits) == 3


def test_r3_each_seat_keeps_its_own_cards_for_the_whole_game(bl):
    params = Params(deck_mode=DeckMode.SPLIT_ONE_DECK)
    _state, s = bl.new_game(params, bots=("random", "random"), seed=8)
    owned = s["piles"]["owned"].copy()
    report = np.zeros(4, np.int64)
    ids = np.array([0, 0], np.int64)
    kernel.play_game(s, ids, 0, np.uint64(8), report)
    assert s["meta"]["phase"] == Phase.OVER
    assert report[0] > 50  # decisions audited
    assert report[1:].tolist() == [0, 0, 0]  # every card of a seat in exactly one of its own piles, at every step
    assert (s["piles"]["owned"] == owned).all()
    assert s["meta"]["battle"] >= 2  # several battles, so several full reshuffles


# -- R4: the hand is an ordered row -------------------------------------------------------------------


def test_r4_a_drawn_card_joins_the_right_end_of_the_hand(bl):
    _, s = bl.make_state(hands=(["spade:2", "spade:3"], ["club:2"]), decks=(["heart:5", "heart:4"], []))
    assert kernel.draw(s, 0) == bl.card("heart:4")  # deck top is last
    assert bl.hand(s, 0) == ["spade:2", "spade:3", "heart:4"]
    kernel.draw(s, 0)
    assert bl.hand(s, 0) == ["spade:2", "spade:3", "heart:4", "heart:5"]


def test_r4_playing_a_card_keeps_the_order_of_the_others(bl):
    _, s = bl.make_state(hands=(["spade:2", "spade:3", "spade:4"], ["club:2"]), decks=(["heart:4"], []), to_play=3)
    kernel.apply_action(s, act(K.DISCARD, 1, 0))
    assert bl.hand(s, 0) == ["spade:2", "spade:4", "heart:4"]


def test_r4_arranged_hands_greedy_puts_the_highest_attack_card_rightmost_before_the_bonus(bl):
    """R4 player_arranged + R14: the winner's bot arranges its hand before the bonus is read."""
    params = Params(hand_order=HandOrder.PLAYER_ARRANGED)
    _, s = bl.make_state(params, hands=(["diamond:8", "heart:10", "spade:king", "club:3"], ["club:2"]))
    kernel.end_battle(s, 0, BattleEnd.SURRENDER)
    assert bl.hand(s, 0)[-1] == "heart:10"
    assert bl.hand(s, 0) == ["spade:king", "club:3", "diamond:8", "heart:10"]
    assert s["pools"]["blessing"][0] == 10
    assert ended_battle(s)["winner_bonus"] == 10


def test_r4_draw_order_hands_are_not_rearranged_before_the_bonus(bl):
    _, s = bl.make_state(hands=(["diamond:8", "heart:10", "club:3", "spade:king"], ["club:2"]))
    kernel.end_battle(s, 0, BattleEnd.SURRENDER)
    assert bl.hand(s, 0) == ["diamond:8", "heart:10", "club:3", "spade:king"]
    assert s["pools"]["blessing"][0] == 0  # the rightmost card is a face card (E9)


# -- R5, E12: first player --------------------------------------------------------------------------


@pytest.mark.parametrize(("deck0", "deck1", "first"), [("spade:7", "spade:4", 0), ("spade:4", "spade:7", 1)])
def test_e12_drawn_7_and_4_the_player_who_drew_7_goes_first(bl, deck0, deck1, first):
    _, s = bl.make_state(decks=([deck0], [deck1]), phase=Phase.BATTLE_START)
    assert kernel.choose_first(s) == first
    reveals = bl.events(s, EventKind.REVEAL)
    assert [(int(e["seat"]), int(e["value"])) for e in reveals] == [(0, int(deck0[6:])), (1, int(deck1[6:]))]


def test_e12_tied_attacks_0_and_0_are_redrawn_until_one_is_higher(bl):
    ties_seen = 0
    for seed in range(1, 9):
        _, s = bl.make_state(decks=(["heart:jack", "spade:7"], ["club:queen"]), phase=Phase.BATTLE_START, seed=seed)
        assert kernel.choose_first(s) == 0
        values = [int(e["value"]) for e in bl.events(s, EventKind.REVEAL)]
        pairs = list(zip(values[::2], values[1::2], strict=True))
        assert pairs[-1] == (7, 0)
        assert all(pair == (0, 0) for pair in pairs[:-1])
        ties_seen += len(pairs) - 1
    assert ties_seen > 0


def test_e12_revealed_cards_go_back_and_each_deck_is_reshuffled(bl):
    _, s = bl.make_state(decks=(DECK0, DECK1), phase=Phase.BATTLE_START, seed=5)
    before = [bl.pile(s, "deck", p) for p in range(2)]
    kernel.choose_first(s)
    after = [bl.pile(s, "deck", p) for p in range(2)]
    for p in range(2):
        assert sorted(after[p]) == sorted(before[p])
        assert after[p] != before[p]


def test_r5_first_player_is_chosen_by_reveal_again_for_every_battle(bl):
    battles, ties = 0, 0
    for game in range(6):
        reveals: list[tuple[int, int]] = []
        for e in replay(Params(), ("random", "random"), 2, game, bl):
            if e["kind"] == EventKind.REVEAL:
                reveals.append((int(e["seat"]), int(e["value"])))
            elif e["kind"] == EventKind.BATTLE:
                assert [seat for seat, _ in reveals] == [0, 1] * (len(reveals) // 2)
                pairs = [(reveals[k][1], reveals[k + 1][1]) for k in range(0, len(reveals), 2)]
                assert pairs, "every battle starts with a reveal"
                assert all(a == b for a, b in pairs[:-1])
                a, b = pairs[-1]
                assert a != b
                assert int(e["seat"]) == (0 if a > b else 1)
                battles += 1
                ties += len(pairs) - 1
                reveals = []
            elif e["kind"] == EventKind.GAME_END:
                reveals = []
    assert battles > 6  # games of several battles
    assert ties > 0


# -- R6, E2: opening hand and the turn draw ---------------------------------------------------------------


def test_r6_five_at_setup_both_seats_open_with_5_cards(bl):
    _state, s = bl.new_game(Params(), seed=6)
    assert s["piles"]["hand_n"].tolist() == [5, 5]
    assert [int(e["value"]) for e in bl.events(s, EventKind.DEAL)] == [5, 5]


def test_e2_hands_grow_5_7_9_11_13_with_no_draw_on_each_seats_first_turn(bl):
    _state, s = bl.new_game(Params(), seed=6)
    first = int(s["meta"]["mover"])
    turns = [discard_turn(s) for _ in range(10)]
    assert [t[1] for t in turns] == [first, 1 - first] * 5
    for p in range(2):
        assert [t[2] for t in turns if t[1] == p] == [5, 7, 9, 11, 13]


def test_e2_each_new_battle_restarts_at_5_cards_with_no_first_turn_draw(bl):
    _state, s = bl.new_game(Params(), seed=6)
    for _ in range(3):
        discard_turn(s)
    kernel.apply_action(s, act(K.SURRENDER, 0, 0))
    assert s["meta"]["battle"] == 2
    assert s["piles"]["hand_n"].tolist() == [5, 5]  # no curse was sent, so no card was lost at the start
    turns = [discard_turn(s) for _ in range(4)]
    assert {t[0] for t in turns} == {2}
    for p in range(2):
        assert [t[2] for t in turns if t[1] == p] == [5, 7]


def test_r6_three_plus_two_opens_with_3_and_draws_2_on_the_first_turn(bl):
    _state, s = bl.new_game(Params(opening=Opening.THREE_PLUS_TWO), seed=6)
    assert s["piles"]["hand_n"].tolist() == [3, 3]
    first = int(s["meta"]["mover"])
    turns = [discard_turn(s) for _ in range(6)]
    assert turns[0][1:] == (first, 5, 3)  # the second player holds only 3 during the first player's first turn
    assert turns[1][1:] == (1 - first, 5, 5)
    for p in range(2):
        assert [t[2] for t in turns if t[1] == p] == [5, 7, 9]


# -- R7: every card must be played ------------------------------------------------------------------------


def test_r7_every_card_held_is_played_and_replacements_wait_for_the_next_turn(bl):
    _, s = bl.make_state(
        hands=(["spade:2", "spade:3"], ["club:2"]), decks=(["heart:4", "heart:6", "heart:8"], ["club:4"])
    )
    assert {action_i(a) for a in bl.legal(s)} == {0, 1}
    kernel.apply_action(s, act(K.DISCARD, 0, 0))
    assert bl.hand(s, 0) == ["spade:3", "heart:8"]
    assert (s["meta"]["phase"], s["meta"]["mover"], s["meta"]["to_play"]) == (Phase.PLAY, 0, 1)
    assert {action_i(a) for a in bl.legal(s)} == {0}  # the replacement heart:8 cannot be played this turn
    kernel.apply_action(s, act(K.DISCARD, 0, 0))
    assert bl.hand(s, 0) == ["heart:8", "heart:6"]
    assert bl.pile(s, "discard", 0) == ["spade:2", "spade:3"]
    assert (s["meta"]["mover"], s["meta"]["phase"]) == (0, Phase.SURRENDER_END)  # every card played (R13 own_turn)
    assert bl.legal(s) == {act(K.PLAY_ON, 0, 0), act(K.SURRENDER, 0, 0)}
    kernel.apply_action(s, act(K.PLAY_ON, 0, 0))
    assert (s["meta"]["mover"], s["meta"]["phase"]) == (1, Phase.SURRENDER)  # the turn ended


def test_r7_a_turn_cannot_be_skipped_once_play_begins(bl):
    _, s = bl.make_state(hands=(["spade:2", "heart:4", "club:jack"], ["club:2"]))
    kinds = {action_kind(a) for a in bl.legal(s)}
    assert K.PLAY_ON not in kinds
    assert K.SURRENDER not in kinds
    for i in range(3):
        assert act(K.DISCARD, i, 0) in bl.legal(s)


def test_r7_legal_actions_attack_any_opposing_card_bless_or_curse_by_type_discard_always(bl):
    _, s = bl.make_state(hands=(["heart:4", "heart:3"], ["spade:2", "club:2"]))
    assert bl.legal(s) == {
        act(K.ATTACK, 0, 0), act(K.ATTACK, 0, 1), act(K.BLESS, 0, 0), act(K.DISCARD, 0, 0),
        act(K.ATTACK, 1, 0), act(K.ATTACK, 1, 1), act(K.CURSE, 1, 0), act(K.DISCARD, 1, 0),
    }  # fmt: skip


def test_r7_attack_is_illegal_when_the_opponent_holds_no_card(bl):
    _, s = bl.make_state(hands=(["heart:10", "spade:9"], []), decks=((), ["club:2"]))
    assert bl.legal(s) == {act(K.BLESS, 0, 0), act(K.DISCARD, 0, 0), act(K.CURSE, 1, 0), act(K.DISCARD, 1, 0)}


# -- R8, E3: attacks -------------------------------------------------------------------------------------------


def attack_position(bl, attacker: str, params: Params | None = None):
    """Seat 0 holds ``attacker``; seat 1 holds spade:2 (the target) and club:2, with a deck."""
    return bl.make_state(params, hands=([attacker], ["spade:2", "club:2"]), decks=(["heart:2"], ["club:4"]))


def attack_event(bl, s):
    (e,) = bl.events(s, EventKind.ATTACK)
    return int(e["value"]), int(e["extra"])


def test_e3_heart_10_deals_30_and_destroys_a_fresh_card(bl):
    _, s = attack_position(bl, "heart:10")
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert attack_event(bl, s) == (30, 0)
    assert bl.hand(s, 1) == ["club:2"]
    assert bl.pile(s, "gone", 1) == ["spade:2"]


def test_e3_diamond_10_deals_exactly_20_and_destroys_a_fresh_card(bl):
    _, s = attack_position(bl, "diamond:10")
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert attack_event(bl, s) == (20, 0)
    assert bl.hand(s, 1) == ["club:2"]
    assert bl.pile(s, "gone", 1) == ["spade:2"]


def test_e3_spade_4_deals_4_leaving_its_target_at_16(bl):
    _, s = attack_position(bl, "spade:4")
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert attack_event(bl, s) == (4, 16)
    assert bl.hand(s, 1) == ["spade:2", "club:2"]
    assert bl.health(s, 1, "spade:2") == 16


@pytest.mark.parametrize("face", [f"{suit}:{rank}" for suit in IMPACT for rank in FACES])
def test_e3_a_face_card_attacks_for_0(bl, face):
    _, s = attack_position(bl, face)
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert attack_event(bl, s) == (0, 20)
    assert bl.hand(s, 1) == ["spade:2", "club:2"]
    assert bl.health(s, 1, "spade:2") == 20


def test_e3_damage_left_over_after_a_kill_is_lost(bl):
    _, s = attack_position(bl, "heart:10")
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert bl.health(s, 1, "club:2") == 20  # the other card takes none of the 10 surplus
    assert s["tally"]["seats"][0]["damage_dealt"] == 20
    assert s["tally"]["seats"][0]["cards_destroyed"] == 1


def test_r8_attack_damage_is_attack_times_impact_for_every_card(bl):
    _, s = bl.make_state()
    for name in bl.POOL.names:
        attack, impact, _ = printed(name)
        assert kernel.attack_damage(s, bl.card(name)) == attack * impact, name


def test_r8_damage_stays_on_a_card_while_it_remains_in_hand(bl):
    _, s = bl.make_state(hands=(["spade:4", "club:4"], ["spade:2", "club:2"]), decks=(["heart:2"], ["club:6"]))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert bl.health(s, 1, "spade:2") == 12


def test_r8_a_blessed_card_absorbs_damage_beyond_20(bl):
    _, s = attack_position(bl, "heart:10")
    s["piles"]["hp"][1, bl.card("spade:2")] = 32
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert attack_event(bl, s) == (30, 2)
    assert bl.hand(s, 1) == ["spade:2", "club:2"]


# -- R9, E4-E6: bless, curse and discard values ------------------------------------------------------------------


def play_one(bl, name: str, kind: int, params: Params | None = None):
    """Seat 0 plays ``name`` as ``kind``; seat 1 holds a card so the battle goes on. Return ``s``."""
    _, s = bl.make_state(params, hands=([name], ["club:2"]), decks=(["heart:2"], ["club:4"]))
    assert act(kind, 0, 0) in bl.legal(s)
    kernel.apply_action(s, act(kind, 0, 0))
    return s


@pytest.mark.parametrize(("name", "value"), [("heart:king", 9), ("heart:4", 7)])
def test_e4_bless_adds_attack_plus_impact_plus_5_for_a_face_card(bl, name, value):
    s = play_one(bl, name, K.BLESS)
    assert s["pools"]["blessing"].tolist() == [value, 0]
    assert s["pools"]["curse"].tolist() == [0, 0]
    assert bl.pile(s, "discard", 0) == [name]


def test_e4_heart_3_is_curse_type_and_cannot_bless(bl):
    _, s = bl.make_state(hands=(["heart:3"], ["club:2"]))
    assert act(K.BLESS, 0, 0) not in bl.legal(s)
    assert act(K.CURSE, 0, 0) in bl.legal(s)


@pytest.mark.parametrize(("name", "value"), [("spade:queen", 9), ("spade:7", 8), ("club:9", 10)])
def test_e5_curse_adds_attack_plus_impact_plus_5_for_a_face_card_to_the_opponents_pool(bl, name, value):
    s = play_one(bl, name, K.CURSE)
    assert s["pools"]["curse"].tolist() == [0, value]
    assert s["pools"]["blessing"].tolist() == [0, 0]
    assert bl.pile(s, "discard", 0) == [name]


def test_e5_club_2_is_blessing_type_and_cannot_curse(bl):
    _, s = bl.make_state(hands=(["club:2"], ["club:3"]))
    assert act(K.CURSE, 0, 0) not in bl.legal(s)
    assert act(K.BLESS, 0, 0) in bl.legal(s)


@pytest.mark.parametrize(("name", "value"), [("diamond:9", 11), ("spade:2", 3), ("heart:jack", 0)])
def test_e6_discard_for_blessing_gives_attack_plus_impact_minus_5_for_a_face_floored_at_0(bl, name, value):
    s = play_one(bl, name, K.DISCARD)
    assert s["pools"]["blessing"].tolist() == [value, 0]
    assert bl.pile(s, "discard", 0) == [name]


def test_e6_any_card_may_be_discarded_and_type_decides_bless_or_curse(bl):
    names = list(bl.POOL.names)
    _, s = bl.make_state(hands=(names, []), decks=((), ["club:2"]), owned=(names, ["club:2"]))
    legal = bl.legal(s)
    for i, name in enumerate(names):
        is_curse = bl.POOL.table[bl.card(name)]["type"] == CardType.CURSE
        assert act(K.DISCARD, i, 0) in legal, name
        assert (act(K.CURSE, i, 0) in legal) == is_curse, name
        assert (act(K.BLESS, i, 0) in legal) == (not is_curse), name
    assert len(legal) == 52 + 52  # one discard and one bless-or-curse each, no attack (empty opposing hand)


def test_r9_pool_and_discard_values_of_every_card_follow_the_rulebook(bl):
    _, s = bl.make_state()
    for name in bl.POOL.names:
        attack, impact, face = printed(name)
        assert kernel.pool_value(s, 0, bl.card(name)) == attack + impact + (5 if face else 0), name
        assert kernel.discard_value(s, 0, bl.card(name)) == max(0, attack + impact - (5 if face else 0)), name


def test_r9_face_bonus_0_drops_the_plus_and_minus_5(bl):
    assert play_one(bl, "heart:king", K.BLESS, Params(face_bonus=0))["pools"]["blessing"][0] == 4
    assert play_one(bl, "spade:queen", K.CURSE, Params(face_bonus=0))["pools"]["curse"][1] == 4
    assert play_one(bl, "heart:jack", K.DISCARD, Params(face_bonus=0))["pools"]["blessing"][0] == 4


# -- R10, R11, E11: destroyed cards, empty decks, battle loss by exhaustion ----------------------------------------


def test_r10_out_for_battle_an_attacked_card_goes_to_the_destroyed_pile(bl):
    _, s = attack_position(bl, "heart:10")
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert bl.pile(s, "gone", 1) == ["spade:2"]
    assert bl.pile(s, "discard", 1) == []
    assert bl.pile(s, "discard", 0) == ["heart:10"]  # the attacker is discarded as played


def test_r10_recycle_an_attacked_card_goes_to_the_discard_pile(bl):
    _, s = attack_position(bl, "heart:10", Params(destroyed_cards=DestroyedCards.RECYCLE))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert bl.pile(s, "discard", 1) == ["spade:2"]
    assert bl.pile(s, "gone", 1) == []


@pytest.mark.parametrize(
    ("mode", "zone"), [(DestroyedCards.OUT_FOR_BATTLE, "gone"), (DestroyedCards.RECYCLE, "discard")]
)
def test_r10_cards_destroyed_by_curses_go_to_the_destroyed_pile_or_recycle(bl, mode, zone):
    _, s = bl.make_state(Params(destroyed_cards=mode), hands=((), FIVE), curse=(0, 45))
    kernel.apply_pools(s, 1)
    assert bl.pile(s, zone, 1) == ["spade:2", "spade:3"]


def test_r10_destroyed_cards_come_back_at_the_next_battle(bl):
    _, s = bl.make_state(
        hands=(["heart:2"], ["club:2"]),
        decks=(DECK0[1:], DECK1[1:]),
        gone=(["diamond:5", "diamond:6"], ["spade:5"]),
        phase=Phase.BATTLE_START,
    )
    kernel.start_battle(s)
    q = s["piles"]
    assert q["gone_n"].tolist() == [0, 0]
    for p in range(2):
        held = sorted([*bl.pile(s, "deck", p), *bl.hand(s, p)])
        assert held == sorted(bl.POOL.names[c] for c in q["owned"][p, : q["owned_n"][p]])
    assert "spade:5" in [*bl.pile(s, "deck", 1), *bl.hand(s, 1)]


def exhaustion_position(bl, params: Params | None = None):
    """Seat 0's heart:10 is about to destroy seat 1's last card (no deck, no discard pile)."""
    return bl.make_state(params, hands=(["heart:10"], ["spade:2"]), decks=(["club:5", "diamond:8"], []))


def test_e11_out_for_battle_a_seat_left_without_cards_after_a_turn_loses_the_battle(bl):
    _, s = exhaustion_position(bl)
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    row = ended_battle(s)
    assert (row["winner"], row["how"]) == (0, BattleEnd.EXHAUSTION)
    assert row["winner_bonus"] == 8  # the replacement diamond:8 is rightmost (E9)
    assert s["pools"]["wins"].tolist() == [1, 0]
    assert s["meta"]["battle"] == 2  # play went on to the next battle


def test_e11_recycle_the_same_kill_leaves_the_card_in_play_and_the_battle_goes_on(bl):
    _, s = exhaustion_position(bl, Params(destroyed_cards=DestroyedCards.RECYCLE))
    kernel.apply_action(s, act(K.ATTACK, 0, 0))
    assert (s["meta"]["battle"], s["meta"]["mover"], s["meta"]["phase"]) == (1, 0, Phase.SURRENDER_END)
    kernel.apply_action(s, act(K.PLAY_ON, 0, 0))  # pass the turn
    assert (s["meta"]["battle"], s["meta"]["mover"], s["meta"]["phase"]) == (1, 1, Phase.SURRENDER)
    assert bl.pile(s, "discard", 1) == ["spade:2"]
    kernel.apply_action(s, act(K.PLAY_ON, 0, 0))  # the turn draw reshuffles it back
    assert bl.hand(s, 1) == ["spade:2"]


def test_e11_recycle_battles_end_only_by_surrender_or_the_turn_cap(bl):
    params = Params(destroyed_cards=DestroyedCards.RECYCLE, max_turns_per_battle=40, max_battles=4)
    battles = bl.chunk(params, ("random", "random"), n=8, seed=3)["turns"]
    hows = set(battles["how"].tolist())
    assert BattleEnd.EXHAUSTION not in hows
    assert hows == {BattleEnd.SURRENDER, BattleEnd.TURN_CAP}


def test_e11_recycle_hand_deck_and_discard_always_hold_every_card(bl):
    from sims.blessings import bots

    params = Params(destroyed_cards=DestroyedCards.RECYCLE, surrender=Surrender.NEVER, max_turns_per_battle=60)
    _state, s = bl.new_game(params, bots=("greedy", "tactician"), seed=12)
    q = s["piles"]
    steps = 0
    while s["meta"]["phase"] != Phase.OVER and steps < 2000:
        kernel.apply_action(s, bots.choose(int(s["meta"]["bots"][s["meta"]["mover"]]), s))
        steps += 1
        for p in range(2):
            assert q["gone_n"][p] == 0
            assert q["hand_n"][p] + q["deck_n"][p] + q["discard_n"][p] == 52
    assert s["tally"]["seats"]["cards_destroyed"].sum() > 0  # attacks did destroy cards
    assert steps > 100


def test_r11_an_empty_deck_is_refilled_from_the_discard_pile_never_the_destroyed_pile(bl):
    _, s = bl.make_state(
        hands=(["spade:2"], ["club:2"]),
        discards=(["heart:4", "heart:5", "heart:6"], []),
        gone=(["heart:7"], []),
    )
    c = kernel.draw(s, 0)
    assert bl.POOL.names[c] in {"heart:4", "heart:5", "heart:6"}
    assert bl.hand(s, 0) == ["spade:2", bl.POOL.names[c]]
    assert sorted([*bl.pile(s, "deck", 0), bl.POOL.names[c]]) == ["heart:4", "heart:5", "heart:6"]
    assert bl.pile(s, "discard", 0) == []
    assert bl.pile(s, "gone", 0) == ["heart:7"]
    assert [int(e["value"]) for e in bl.events(s, EventKind.RESHUFFLE)] == [3]


def test_r11_without_midbattle_reshuffle_an_empty_deck_is_not_refilled(bl):
    _, s = bl.make_state(Params(midbattle_reshuffle=0), hands=(["spade:2"], ["club:2"]), discards=(["heart:4"], []))
    assert kernel.draw(s, 0) == -1
    assert bl.hand(s, 0) == ["spade:2"]
    assert bl.pile(s, "discard", 0) == ["heart:4"]


def test_r11_a_draw_with_deck_and_discard_pile_empty_is_skipped(bl):
    _, s = bl.make_state(hands=(["spade:2"], ["club:2"]), gone=(["heart:7"], []))
    assert kernel.draw(s, 0) == -1
    assert bl.hand(s, 0) == ["spade:2"]
    assert bl.pile(s, "gone", 0) == ["heart:7"]


# -- R12: battle loss ----------------------------------------------------------------------------------------------


def test_r12_a_seat_with_no_cards_in_hand_deck_or_discard_loses_the_battle_after_any_turn(bl):
    _, s = bl.make_state(hands=(["diamond:8"], []), decks=(["spade:2"], []), phase=Phase.TURN_END, mover=0)
    kernel.end_turn(s)
    row = ended_battle(s)
    assert (row["winner"], row["how"], row["winner_bonus"]) == (0, BattleEnd.EXHAUSTION, 8)
    assert s["pools"]["blessing"].tolist() == [8, 0]
    assert s["meta"]["phase"] == Phase.BATTLE_START


def test_r12_the_mover_itself_can_lose_by_running_out(bl):
    _, s = bl.make_state(hands=((), ["diamond:8"]), decks=((), ["spade:2"]), phase=Phase.TURN_END, mover=0)
    kernel.end_turn(s)
    assert (ended_battle(s)["winner"], ended_battle(s)["how"]) == (1, BattleEnd.EXHAUSTION)


def test_r12_both_seats_out_of_cards_draw_the_battle_with_no_bonus(bl):
    _, s = bl.make_state(phase=Phase.TURN_END, blessing=(3, 4), curse=(5, 6))
    kernel.end_turn(s)
    row = ended_battle(s)
    assert (row["winner"], row["how"], row["winner_bonus"]) == (-1, BattleEnd.EXHAUSTION, 0)
    assert s["pools"]["blessing"].tolist() == [3, 4]
    assert s["pools"]["curse"].tolist() == [5, 6]
    assert s["pools"]["wins"].tolist() == [0, 0]


@pytest.mark.parametrize(
    ("surrender", "after"),
    [(Surrender.OWN_TURN, (Phase.SURRENDER_END, 0, 1)), (Surrender.TURN_START, (Phase.TURN_START, 1, 1))],
    ids=["own_turn", "turn_start"],
)
def test_r12_a_discard_pile_keeps_a_seat_in_the_battle_while_it_reshuffles(bl, surrender, after):
    params = Params(surrender=surrender)
    _, s = bl.make_state(params, hands=(["diamond:8"], []), discards=((), ["spade:2"]), phase=Phase.TURN_END, mover=0)
    kernel.end_turn(s)
    assert (s["meta"]["phase"], s["meta"]["mover"], s["meta"]["battle"]) == after


def test_r12_without_midbattle_reshuffle_empty_hand_and_deck_lose_despite_a_discard_pile(bl):
    params = Params(midbattle_reshuffle=0)
    _, s = bl.make_state(params, hands=(["diamond:8"], []), discards=((), ["spade:2"]), phase=Phase.TURN_END)
    kernel.end_turn(s)
    assert (ended_battle(s)["winner"], ended_battle(s)["how"]) == (0, BattleEnd.EXHAUSTION)


# -- R13: surrender --------------------------------------------------------------------------------------------------


def test_r13_the_surrender_decision_comes_at_turn_start_before_the_draw(bl):
    _, s = bl.make_state(
        hands=(["spade:2"], ["club:2"]), decks=(["heart:4", "heart:5"], ["club:4"]), phase=Phase.TURN_START
    )
    kernel.advance(s)
    assert s["meta"]["phase"] == Phase.SURRENDER
    assert bl.legal(s) == {act(K.PLAY_ON, 0, 0), act(K.SURRENDER, 0, 0)}
    assert bl.hand(s, 0) == ["spade:2"]  # not drawn yet
    kernel.apply_action(s, act(K.PLAY_ON, 0, 0))
    assert bl.hand(s, 0) == ["spade:2", "heart:5", "heart:4"]
    assert s["meta"]["phase"] == Phase.PLAY


@pytest.mark.parametrize(
    ("params", "hand0", "targets"),
    [  # R15 carryover_hand: 30 destroys spade:2, leaves heart:4 at 10 (+4 = 14); 12 leaves spade:3 at 8
        pytest.param(Params(), ["spade:2", "heart:4"], {(0, "heart:4", 14), (1, "diamond:8", 28)}, id="modern"),
        pytest.param(FIRST_READING, ["spade:2"], None, id="first_reading"),  # the new hands, drawn at random
    ],
)
def test_r13_surrender_gives_the_opponent_the_battle_and_the_bonus_and_pools_stand(bl, params, hand0, targets):
    _, s = bl.make_state(
        params,
        hands=(hand0, ["spade:3", "diamond:8"]),
        decks=(DECK0, DECK1),
        curse=(30, 12),
        blessing=(4, 0),
        phase=Phase.SURRENDER,
    )
    kernel.apply_action(s, act(K.SURRENDER, 0, 0))
    row = ended_battle(s)
    assert (row["winner"], row["how"], row["winner_bonus"]) == (1, BattleEnd.SURRENDER, 8)
    assert (row["curse_pool_0"], row["curse_pool_1"]) == (30, 12)
    assert (row["blessing_pool_0"], row["blessing_pool_1"]) == (4, 8)
    assert s["pools"]["wins"].tolist() == [0, 1]
    assert s["tally"]["seats"][0]["battles_surrendered"] == 1
    assert (row["lost_to_curses_0"], row["lost_to_curses_1"]) == (1, 0)  # the pools hit at the next start
    blessed = bl.events(s, EventKind.BLESSED)
    assert {(int(e["seat"]), int(e["value"])) for e in blessed} == {(0, 4), (1, 8)}
    if targets is not None:
        assert {(int(e["seat"]), bl.POOL.names[e["target"]], int(e["extra"])) for e in blessed} == targets
    assert s["meta"]["battle"] == 2


def test_r13_own_turn_the_mover_may_surrender_at_the_end_of_its_turn_after_its_last_card(bl):
    _, s = bl.make_state(hands=(["spade:2", "heart:4"], ["club:2"]), decks=(DECK0, DECK1), battle_turn=3)
    kernel.apply_action(s, act(K.DISCARD, 0, 0))
    assert s["meta"]["phase"] == Phase.PLAY  # not before every card is played (R7)
    kernel.apply_action(s, act(K.DISCARD, 0, 0))
    assert (s["meta"]["phase"], s["meta"]["mover"]) == (Phase.SURRENDER_END, 0)
    assert bl.legal(s) == {act(K.PLAY_ON, 0, 0), act(K.SURRENDER, 0, 0)}
    kernel.apply_action(s, act(K.SURRENDER, 0, 0))
    row = ended_battle(s)
    assert (row["winner"], row["how"], row["turns"]) == (1, BattleEnd.SURRENDER, 3)  # the played turn counts
    (e,) = bl.events(s, EventKind.SURRENDER)
    assert (int(e["seat"]), int(e["value"])) == (0, 1)  # logged as an end-of-turn surrender


def test_r13_turn_start_variant_has_no_end_of_turn_decision(bl):
    params = Params(surrender=Surrender.TURN_START)
    _, s = bl.make_state(params, hands=(["spade:2"], ["club:2"]), decks=(DECK0, DECK1))
    kernel.apply_action(s, act(K.DISCARD, 0, 0))
    assert (s["meta"]["phase"], s["meta"]["mover"]) == (Phase.SURRENDER, 1)  # straight to the opponent


def test_r13_a_turn_that_is_only_a_surrender_is_not_counted(bl):
    """RULES.md §8.2: games.turns and turns.turns count turns played; a surrender at a turn start plays none."""
    _, s = bl.make_state(hands=(["spade:2"], ["club:2"]), decks=(DECK0, DECK1), phase=Phase.TURN_START, battle_turn=4)
    s["meta"]["turn"] = 9
    kernel.advance(s)
    assert (s["meta"]["turn"], s["meta"]["battle_turn"]) == (10, 5)  # begun
    kernel.apply_action(s, act(K.SURRENDER, 0, 0))
    assert ended_battle(s)["turns"] == 4
    assert (s["meta"]["battle"], s["meta"]["turn"]) == (2, 10)  # battle 2's first turn is turn 10, not 11
    (e,) = bl.events(s, EventKind.SURRENDER)
    assert int(e["value"]) == 0  # at the start of the turn


def test_e15_surrender_at_the_end_of_ones_own_turn_wipes_out_the_opponent_before_it_replies(bl):
    """E15: seat 0's last card takes seat 1's curse past its hand; seat 0 surrenders before seat 1 moves."""
    _, s = bl.make_state(
        hands=(["spade:queen"], ["club:2", "club:4"]), decks=(DECK0, DECK1), curse=(0, 35), battle_turn=3
    )
    kernel.apply_action(s, act(K.CURSE, 0, 0))  # +9: 44 curse against a 40-Health hand
    assert (s["meta"]["phase"], s["meta"]["mover"]) == (Phase.SURRENDER_END, 0)
    kernel.apply_action(s, act(K.SURRENDER, 0, 0))
    row = ended_battle(s)
    assert (row["winner"], row["how"], row["winner_bonus"]) == (1, BattleEnd.SURRENDER, 4)  # club:4 rightmost
    assert (row["wiped_0"], row["wiped_1"]) == (0, 1)
    m = s["meta"]
    assert (m["phase"], m["winner"], m["end_reason"]) == (Phase.OVER, 0, EndReason.WIPEOUT)


def test_e15_under_turn_start_the_same_player_can_surrender_only_after_the_opponents_reply(bl):
    params = Params(surrender=Surrender.TURN_START)
    _, s = bl.make_state(
        params, hands=(["spade:queen"], ["club:2", "club:4"]), decks=(DECK0, DECK1), curse=(0, 35), battle_turn=3
    )
    kernel.apply_action(s, act(K.CURSE, 0, 0))
    assert (s["meta"]["phase"], s["meta"]["mover"]) == (Phase.SURRENDER, 1)  # seat 1 moves next
    assert s["pools"]["curse"][1] == 44


def test_r13_surrender_never_skips_the_decision(bl):
    params = Params(surrender=Surrender.NEVER)
    _, s = bl.make_state(params, hands=(["spade:2"], ["club:2"]), decks=(["heart:4"], []), phase=Phase.TURN_START)
    kernel.advance(s)
    assert s["meta"]["phase"] == Phase.PLAY
    assert all(action_kind(a) != K.SURRENDER for a in bl.legal(s))


# -- R14, E9: the winner's bonus -----------------------------------------------------------------------------------


def test_e9_the_winner_adds_the_attack_of_its_rightmost_card(bl):
    _, s = bl.make_state(hands=(["heart:10", "diamond:8"], ["spade:9"]), blessing=(5, 2))
    kernel.end_battle(s, 0, BattleEnd.EXHAUSTION)
    assert s["pools"]["blessing"].tolist() == [13, 2]
    assert s["pools"]["bonus"] == 8
    assert s["tally"]["seats"][0]["bonus_gained"] == 8


@pytest.mark.parametrize("winner_hand", [["diamond:8", "heart:queen"], ["diamond:8", "club:ace"], []])
def test_e9_a_rightmost_face_card_or_an_empty_hand_adds_0(bl, winner_hand):
    _, s = bl.make_state(hands=(winner_hand, ["spade:9"]), blessing=(5, 2))
    kernel.end_battle(s, 0, BattleEnd.SURRENDER)
    assert s["pools"]["blessing"].tolist() == [5, 2]
    assert ended_battle(s)["winner_bonus"] == 0
    assert s["pools"]["wins"].tolist() == [1, 0]


# -- R15, R16, R17, E7, E8, E13: the start-of-battle pools --------------------------------------------------------


def test_e7_curse_45_destroys_two_leaves_the_third_at_15_and_blessing_12_puts_the_rightmost_at_32(bl):
    _, s = bl.make_state(hands=((), FIVE), curse=(0, 45), blessing=(0, 12))
    assert not kernel.apply_pools(s, 1)
    assert bl.hand(s, 1) == ["spade:4", "spade:5", "spade:6"]
    assert [bl.health(s, 1, c) for c in bl.hand(s, 1)] == [15, 20, 32]
    assert bl.pile(s, "gone", 1) == ["spade:2", "spade:3"]
    assert s["tally"]["seats"][1]["cards_lost_to_curses"] == 2


def test_e7_curse_100_destroys_all_five_and_the_seat_is_wiped_out(bl):
    _, s = bl.make_state(hands=((), FIVE), curse=(0, 100), blessing=(0, 12))
    assert kernel.apply_pools(s, 1)
    assert bl.hand(s, 1) == []
    assert len(bl.events(s, EventKind.CURSED_AWAY)) == 5
    assert battle_row(s)["wiped_1"] == 1


def test_e7_curse_99_leaves_the_rightmost_at_1_which_then_gets_the_blessing(bl):
    _, s = bl.make_state(hands=((), FIVE), curse=(0, 99), blessing=(0, 12))
    assert not kernel.apply_pools(s, 1)
    assert bl.hand(s, 1) == ["spade:6"]
    (hit,) = bl.events(s, EventKind.CURSE_HIT)
    assert (bl.POOL.names[hit["target"]], int(hit["value"]), int(hit["extra"])) == ("spade:6", 19, 1)
    assert bl.health(s, 1, "spade:6") == 13


def test_e8_blessing_first_the_rightmost_goes_to_32_then_is_left_at_12_and_the_seat_survives(bl):
    _, s = bl.make_state(Params(blessing_before_curses=1), hands=((), FIVE), curse=(0, 100), blessing=(0, 12))
    assert not kernel.apply_pools(s, 1)
    (blessed,) = bl.events(s, EventKind.BLESSED)
    assert (bl.POOL.names[blessed["target"]], int(blessed["extra"])) == ("spade:6", 32)
    assert bl.hand(s, 1) == ["spade:6"]
    assert bl.health(s, 1, "spade:6") == 12


def battle_start_position(bl, params: Params | None = None, **kw):
    """A position between battles 1 and 2: both seats hold 2 cards left from battle 1 (40 Health) and own 8 more."""
    return bl.make_state(
        params,
        hands=(["diamond:2", "diamond:4"], ["diamond:3", "diamond:5"]),
        decks=(DECK0, DECK1),
        phase=Phase.BATTLE_START,
        **kw,
    )


READINGS = [  # (params, the curse that wipes out a seat of battle_start_position)
    pytest.param(Params(), 40, id="modern"),  # R15 carryover_hand: the 2 cards left from battle 1
    pytest.param(FIRST_READING, 100, id="first_reading"),  # R15 fresh_hand: the new 5-card hand
]


@pytest.mark.parametrize(("params", "line"), READINGS)
def test_e13_only_seat_1_wiped_out_seat_0_wins_by_wipeout(bl, params, line):
    _, s = battle_start_position(bl, params, curse=(0, line))
    kernel.start_battle(s)
    m = s["meta"]
    assert (m["phase"], m["winner"], m["end_reason"]) == (Phase.OVER, 0, EndReason.WIPEOUT)
    assert (battle_row(s)["wiped_0"], battle_row(s)["wiped_1"]) == (0, 1)
    (end,) = bl.events(s, EventKind.GAME_END)
    assert (int(end["seat"]), int(end["value"])) == (0, EndReason.WIPEOUT)


@pytest.mark.parametrize(("params", "line"), READINGS)
def test_e13_only_seat_0_wiped_out_seat_1_wins_by_wipeout(bl, params, line):
    _, s = battle_start_position(bl, params, curse=(line, line - 1))
    kernel.start_battle(s)
    assert (s["meta"]["winner"], s["meta"]["end_reason"]) == (1, EndReason.WIPEOUT)


@pytest.mark.parametrize(("params", "line"), READINGS)
def test_e13_both_wiped_out_at_the_same_battle_start_is_a_draw(bl, params, line):
    _, s = battle_start_position(bl, params, curse=(line, line + 40))
    kernel.start_battle(s)
    m = s["meta"]
    assert (m["phase"], m["winner"], m["end_reason"]) == (Phase.OVER, -1, EndReason.MUTUAL_WIPEOUT)


@pytest.mark.parametrize(
    ("params", "hands"), [(Params(), [5, 5]), (FIRST_READING, [4, 5])], ids=["modern", "first_reading"]
)
def test_r17_pools_reset_to_0_after_a_battle_start(bl, params, hands):
    _, s = battle_start_position(bl, params, curse=(30, 10), blessing=(7, 3))
    kernel.start_battle(s)
    assert s["pools"]["curse"].tolist() == [0, 0]
    assert s["pools"]["blessing"].tolist() == [0, 0]
    assert (s["meta"]["phase"], s["meta"]["battle"]) == (Phase.TURN_START, 2)
    assert (battle_row(s)["lost_to_curses_0"], battle_row(s)["lost_to_curses_1"]) == (1, 0)  # 30 takes one card
    assert s["piles"]["hand_n"].tolist() == hands  # carryover: the new hands are drawn after the pools


def test_r15_fresh_hand_the_pools_hit_the_new_opening_hand(bl):
    _, s = battle_start_position(bl, Params(pool_target=PoolTarget.FRESH_HAND), curse=(0, 25))
    kernel.start_battle(s)
    q = s["piles"]
    assert q["hand_n"].tolist() == [5, 4]  # 5 drawn, then the curse destroyed one of them
    assert q["hp"][1, q["hand"][1, 0]] == 15
    (away,) = bl.events(s, EventKind.CURSED_AWAY)
    assert bl.pile(s, "gone", 1) == [bl.POOL.names[away["target"]]]  # out for this battle (R10)
    deal = [e for e in bl.events(s) if e["kind"] in (EventKind.DEAL, EventKind.CURSED_AWAY)]
    assert [int(e["kind"]) for e in deal] == [EventKind.DEAL, EventKind.DEAL, EventKind.CURSED_AWAY]


def test_r15_fresh_hand_a_seat_that_ran_out_is_not_wiped_by_a_small_curse(bl):
    params = Params(pool_target=PoolTarget.FRESH_HAND)
    _, s = bl.make_state(
        params, hands=(["diamond:2"], []), decks=(DECK0, DECK1), phase=Phase.BATTLE_START, curse=(0, 1)
    )
    kernel.start_battle(s)
    assert s["meta"]["phase"] == Phase.TURN_START
    assert s["piles"]["hp"][1, s["piles"]["hand"][1, 0]] == 19


def test_r15_carryover_hand_the_pools_hit_the_hand_left_from_the_last_battle(bl):
    params = Params(pool_target=PoolTarget.CARRYOVER_HAND)
    _, s = bl.make_state(
        params, hands=((), ["spade:2", "spade:3"]), decks=(DECK0, DECK1), phase=Phase.BATTLE_START, curse=(0, 25)
    )
    kernel.start_battle(s)
    (away,) = bl.events(s, EventKind.CURSED_AWAY)
    (hit,) = bl.events(s, EventKind.CURSE_HIT)
    assert bl.POOL.names[away["target"]] == "spade:2"
    assert (bl.POOL.names[hit["target"]], int(hit["extra"])) == ("spade:3", 15)
    q = s["piles"]
    assert q["hand_n"].tolist() == [5, 5]  # the new hands are drawn after the pools, untouched
    assert all(q["hp"][1, c] == 20 for c in q["hand"][1, :5])
    assert q["gone_n"].tolist() == [0, 0]
    assert (s["meta"]["phase"], s["meta"]["battle"]) == (Phase.TURN_START, 2)


def test_r15_carryover_hand_a_seat_with_an_empty_hand_is_wiped_by_any_curse(bl):
    params = Params(pool_target=PoolTarget.CARRYOVER_HAND)
    _, s = bl.make_state(
        params, hands=(["diamond:2"], []), decks=(DECK0, DECK1), phase=Phase.BATTLE_START, curse=(0, 1)
    )
    kernel.start_battle(s)
    assert (s["meta"]["winner"], s["meta"]["end_reason"]) == (0, EndReason.WIPEOUT)


def e14_position(bl, params: Params | None = None):
    """E14: seat 1 ended the battle holding 3 cards at Health 20, 8 and 20, with a 30 curse and a 6 blessing."""
    _, s = bl.make_state(
        params,
        hands=(["diamond:2"], ["spade:2", "spade:3", "spade:4"]),
        decks=(DECK0, DECK1),
        phase=Phase.BATTLE_START,
        curse=(0, 30),
        blessing=(0, 6),
    )
    s["piles"]["hp"][1, bl.card("spade:3")] = 8
    return s


def test_e14_carryover_hand_curses_take_the_20_and_the_8_card_and_the_blessing_lands_on_the_third(bl):
    """E14, with the rulebook's overflow arithmetic: 30 = 20 + 8 + 2, so the third card takes the last 2.

    The rulings' text says the third card is "untouched" and ends at 26; that contradicts the
    rulebook ("If there is still damage left, it moves to the next card"), R16 and E7 (45
    curse: 20 + 20 + 5). We follow the rulebook: 18 + 6 = 24 (RULES.md §8, reported).
    """
    s = e14_position(bl)
    assert not kernel.apply_pools(s, 1)
    assert bl.hand(s, 1) == ["spade:4"]
    away = [(bl.POOL.names[e["target"]], int(e["value"])) for e in bl.events(s, EventKind.CURSED_AWAY)]
    assert away == [("spade:2", 20), ("spade:3", 8)]  # 20 destroys the first, the overflow the 8-Health card
    (hit,) = bl.events(s, EventKind.CURSE_HIT)
    assert (bl.POOL.names[hit["target"]], int(hit["value"]), int(hit["extra"])) == ("spade:4", 2, 18)
    assert bl.health(s, 1, "spade:4") == 24  # then the 6 blessing on the rightmost survivor


def test_e14_carryover_hand_the_survivor_then_draws_a_fresh_5_card_hand_at_20(bl):
    s = e14_position(bl)
    kernel.start_battle(s)
    m, q = s["meta"], s["piles"]
    assert (m["phase"], m["battle"], m["winner"]) == (Phase.TURN_START, 2, -1)
    assert q["hand_n"].tolist() == [5, 5]
    assert all(q["hp"][1, c] == 20 for c in q["hand"][1, :5])  # the 26 went with the old hand (R18)
    assert q["gone_n"].tolist() == [0, 0]  # the cursed cards are back in the deck for this battle
    assert (battle_row(s)["lost_to_curses_1"], battle_row(s)["wiped_1"]) == (2, 0)
    kinds = [int(e["kind"]) for e in bl.events(s) if e["kind"] in (EventKind.CURSED_AWAY, EventKind.DEAL)]
    assert kinds == [EventKind.CURSED_AWAY, EventKind.CURSED_AWAY, EventKind.DEAL, EventKind.DEAL]  # pools first


def test_e14_a_seat_that_ran_out_of_cards_is_wiped_out_by_a_curse_of_1(bl):
    _, s = bl.make_state(
        hands=((), ["spade:2", "spade:3", "spade:4"]), decks=(DECK0, DECK1), phase=Phase.BATTLE_START, curse=(1, 30)
    )
    kernel.start_battle(s)
    m = s["meta"]
    assert (m["phase"], m["winner"], m["end_reason"]) == (Phase.OVER, 1, EndReason.WIPEOUT)
    assert (battle_row(s)["wiped_0"], battle_row(s)["wiped_1"]) == (1, 0)


def test_e14_under_fresh_hand_the_same_pools_hit_the_new_5_card_hand(bl):
    s = e14_position(bl, Params(pool_target=PoolTarget.FRESH_HAND))
    kernel.start_battle(s)
    q = s["piles"]
    assert q["hand_n"].tolist() == [5, 4]  # 30: the first new card destroyed, the second left at 10
    assert q["hp"][1, q["hand"][1, 0]] == 10
    assert q["hp"][1, q["hand"][1, 3]] == 26  # the blessing on the new rightmost card
    kinds = [int(e["kind"]) for e in bl.events(s) if e["kind"] in (EventKind.CURSED_AWAY, EventKind.DEAL)]
    assert kinds == [EventKind.DEAL, EventKind.DEAL, EventKind.CURSED_AWAY]  # the deal first


def test_r17_carryover_hand_a_seat_with_an_empty_hand_and_no_curse_survives(bl):
    params = Params(pool_target=PoolTarget.CARRYOVER_HAND)
    _, s = bl.make_state(
        params, hands=(["diamond:2"], []), decks=(DECK0, DECK1), phase=Phase.BATTLE_START, blessing=(0, 9)
    )
    kernel.start_battle(s)
    assert (s["meta"]["phase"], s["meta"]["battle"], s["meta"]["winner"]) == (Phase.TURN_START, 2, -1)
    assert battle_row(s)["wiped_1"] == 0


# -- R18, E10: Health ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("before", [5, 32])
def test_e10_a_damaged_or_blessed_card_played_and_redrawn_comes_back_at_20(bl, before):
    _, s = bl.make_state(hands=(["heart:10"], ["club:2"]))
    s["piles"]["hp"][0, bl.card("heart:10")] = before
    kernel.apply_action(s, act(K.DISCARD, 0, 0))  # discarded, then drawn again through the reshuffle
    assert bl.hand(s, 0) == ["heart:10"]
    assert bl.health(s, 0, "heart:10") == 20


def test_r18_a_destroyed_card_returns_at_20_in_the_next_battle(bl):
    _, s = bl.make_state(hands=((), ["spade:2"]), gone=((), ["club:2"]), decks=(DECK0, ()), phase=Phase.BATTLE_START)
    s["piles"]["hp"][1, bl.card("club:2")] = 0
    s["piles"]["hp"][1, bl.card("spade:2")] = 3
    kernel.start_battle(s)
    assert sorted(bl.hand(s, 1)) == ["club:2", "spade:2"]
    assert (bl.health(s, 1, "club:2"), bl.health(s, 1, "spade:2")) == (20, 20)


# -- R19: caps -----------------------------------------------------------------------------------------------------


def test_r19_the_turn_cap_draws_the_battle_without_a_bonus_and_the_pools_still_apply(bl):
    params = Params(max_turns_per_battle=10)
    _, s = bl.make_state(
        params,
        hands=(["diamond:8"], ["spade:2", "club:3"]),
        decks=(DECK0, DECK1),
        curse=(0, 25),
        blessing=(6, 0),
        phase=Phase.TURN_END,
        battle_turn=10,
    )
    kernel.end_turn(s)
    row = ended_battle(s)
    assert (row["winner"], row["how"], row["winner_bonus"]) == (-1, BattleEnd.TURN_CAP, 0)
    assert s["pools"]["blessing"].tolist() == [6, 0]
    assert s["pools"]["wins"].tolist() == [0, 0]
    kernel.advance(s)
    assert (row["lost_to_curses_0"], row["lost_to_curses_1"]) == (0, 1)
    assert [int(e["value"]) for e in bl.events(s, EventKind.BLESSED)] == [6]
    assert (s["meta"]["battle"], s["meta"]["phase"]) == (2, Phase.SURRENDER)


def test_r19_below_the_turn_cap_the_battle_goes_on(bl):
    params = Params(max_turns_per_battle=10)
    _, s = bl.make_state(params, hands=(["diamond:8"], ["spade:2"]), phase=Phase.TURN_END, battle_turn=9)
    kernel.end_turn(s)
    assert (s["meta"]["phase"], s["meta"]["mover"]) == (Phase.SURRENDER_END, 0)  # then the opponent's turn


def test_r19_the_battle_cap_leaves_the_game_unresolved_after_applying_the_last_pools(bl):
    _, s = battle_start_position(bl, Params(max_battles=3), curse=(25, 0), battle=3)
    kernel.start_battle(s)
    m = s["meta"]
    assert (m["phase"], m["winner"], m["end_reason"], m["battle"]) == (Phase.OVER, -1, EndReason.BATTLE_CAP, 3)
    assert battle_row(s, 3)["lost_to_curses_0"] == 1


def test_r19_caps_in_played_games(bl):
    params = Params(surrender=Surrender.NEVER, max_turns_per_battle=6, max_battles=3)
    out = bl.chunk(params, ("random", "random"), n=15, seed=3, tables=("games", "turns"))
    games, battles = out["games"], out["turns"]
    capped = battles[battles["how"] == BattleEnd.TURN_CAP]
    assert len(capped) > 0
    assert (capped["turns"] == 6).all()
    assert (capped["winner"] == -1).all()
    assert (capped["winner_bonus"] == 0).all()
    assert (battles["turns"] <= 6).all()
    unresolved = games[games["end_reason"] == EndReason.BATTLE_CAP]
    assert len(unresolved) > 0
    assert (unresolved["battles"] == 3).all()
    assert (unresolved["winner"] == -1).all()
    assert (games["battles"] <= 3).all()


def test_r9_one_sided_face_rule_gives_the_bonus_only_to_the_listed_seats(bl):
    """R9 counterfactual: with face_bonus_seats = seat_1, seat 0's face cards get neither +5 nor -5."""
    _, s = bl.make_state(bl.Params(face_bonus_seats=2), hands=(["spade:queen"], ["spade:queen"]))
    queen = bl.card("spade:queen")
    assert (kernel.pool_value(s, 0, queen), kernel.pool_value(s, 1, queen)) == (4, 9)
    assert (kernel.discard_value(s, 0, queen), kernel.discard_value(s, 1, queen)) == (4, 0)
    kernel.apply_action(s, act(K.CURSE, 0, 0))  # seat 0 curses with its queen
    assert s["pools"]["curse"][1] == 4
