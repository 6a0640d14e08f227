"""Blessings & Curses rules, part 1: worked examples E2, E3, E4-E6, E12 and rulings R1-R9 (rulings/blessings.md).

Turns, battles and games, players and decks, the ordered hand, the first player, the opening
hand and the turn draw, playing every card, attacks, and the bless, curse and discard values.
Part 2 (``test_rules_battles.py``) holds the rest of E2-E13 and R1-R19. Positions are built by
hand on the real card table (the rulebook's own, checked against its generator in
test_pool.py, E1), so cards are named as the rulebook names them. Rulings about game flow
(R1, R3, R5, R6, R19 ...) are checked on games played from fixed seeds with the event log on.
Shared helpers: ``rules_helpers.py``.
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
    EndReason,
    EventKind,
    HandOrder,
    Opening,
    Phase,
    action_i,
    action_kind,
)
from sims.blessings.state import encode as act
from tests.sims.blessings.rules_helpers import (
    DECK0,
    DECK1,
    FACES,
    FIRST_READING,
    IMPACT,
    attack_position,
    discard_turn,
    ended_battle,
    printed,
    replay,
)

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
