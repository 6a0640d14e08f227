"""The bots' counts taken once a decision (issue 13) give the same answers as the per-query counts they replace.

- ``faces_to_count`` counts the unseen face cards only when some ``draws_ok`` query reads
  them; ``draws_ok_seen`` with that count equals ``draws_ok`` counting for itself.
- ``best_combo_scored`` returns ``best_combo``'s action and exactly ``combo_damage`` of it.
- ``buyable_in_draw_pile`` (one pass over the draw pile, stopping at a Joker) equals the
  deck-less-what-is-in-sight count at every decision between battles of real characters;
  asked for at least some count, it stops (-1) exactly when the full count falls short.
- ``unseen_faces`` (the face cards of the draw pile, monster pile and bonus cards) equals
  the deck's face cards less those in sight, on hand-built positions and at every decision
  of real characters.
"""

import numpy as np
import pytest

from sims.cardrpg import bots, estimates, kernel
from sims.cardrpg.params import Params
from sims.cardrpg.state import Kind, Phase, action_a, action_b


def positions(rpg):
    """Return hand-built positions across draw-pile sizes, face cards in hand, in sight and unseen."""
    faces = ("heart:king", "club:king", "spade:jack", "heart:queen")
    return [
        rpg.make_state(hand=("heart:king",), monster="club:10", draw=("spade:9", "heart:jack"))[1],
        rpg.make_state(hand=faces, monster="club:10", draw=("spade:9", "club:2"), mpile=("heart:jack", "club:jack"))[1],
        rpg.make_state(hand=(*faces, "club:3", "club:4"), monster="club:10", draw=())[1],
        rpg.make_state(hand=(*faces, "club:3"), monster="club:10", rest="draw")[1],
        rpg.make_state(hand=faces[:2], monster="club:10", draw=("spade:9", "club:2", "diamond:jack", "spade:king"))[1],
    ]


def test_the_unseen_face_cards_are_counted_only_when_a_query_reads_them(rpg):
    for s in positions(rpg):
        for most in range(0, 7):
            faces = estimates.faces_to_count(s, most)
            if faces < 0:  # not counted: no query up to ``most`` attacks may depend on the count
                for k in range(most + 1):
                    assert estimates.draws_ok_seen(s, k, 0) == estimates.draws_ok_seen(s, k, 12)
            else:
                assert faces == estimates.unseen_faces(s)
            for k in range(most + 1):
                assert estimates.draws_ok_seen(s, k, faces) == estimates.draws_ok(s, k)


def test_a_count_is_needed_when_the_pile_is_short(rpg):
    _, s = rpg.make_state(hand=("heart:king", "club:king"), monster="club:10", draw=("spade:9", "heart:jack"))
    assert estimates.faces_to_count(s, 2) == estimates.unseen_faces(s) == 1
    assert estimates.faces_to_count(s, 0) == -1  # no random attack: nothing to ask
    _, s = rpg.make_state(hand=("heart:king",), monster="club:10", rest="draw")
    assert estimates.faces_to_count(s, 1) == -1  # 50 cards left: 12 face cards cannot stop one attack


def test_best_combo_scored_is_best_combo_and_its_damage(rpg):
    for s in positions(rpg):
        a, d = estimates.best_combo_scored(s)
        assert a == estimates.best_combo(s)
        assert d == estimates.combo_damage(s, action_a(a), action_b(a), -1)
        assert d == estimates.best_combo_damage(s)
    _, s = rpg.make_state(monster="club:10", draw=("spade:9",))
    assert estimates.best_combo_scored(s) == (-1, -np.inf)


def in_sight_count(rpg, s) -> int:
    """Return the buyable cards not in sight, -1 if a Joker is not in sight (the count before issue 13)."""
    sight = [*rpg.zone(s, "hand"), *rpg.zone(s, "inv"), *rpg.zone(s, "discard"), *(n for n, _ in rpg.bone(s))]
    sight.append(rpg.NAMES[int(s["hero"]["class_id"])])
    unseen = [rpg.card(n) for n in rpg.NAMES if n not in sight]
    if any(rpg.POOL.table[c]["kind"] == Kind.JOKER for c in unseen):
        return -1
    return sum(bool(estimates.would_buy(s, c)) for c in unseen)


@pytest.mark.parametrize("bot", ["greedy", "planner"])
def test_the_draw_pile_count_is_what_is_not_in_sight(rpg, bot):
    """Between battles the draw pile holds exactly the cards not in sight: one pass over it counts the same."""
    seen = 0
    for seed in range(1, 9):
        _state, s = rpg.new_character(Params(), bot=bot, seed=seed)  # _state: the array s views
        b = int(s["meta"]["bot"])
        while s["meta"]["phase"] != Phase.OVER:
            if s["meta"]["phase"] == Phase.BETWEEN:
                full = in_sight_count(rpg, s)
                assert estimates.buyable_in_draw_pile(s, 0.0) == full
                for at_least in (0.5, 3.0, 0.5 * s["piles"]["draw_n"], 10.5):
                    short = full < at_least
                    assert estimates.buyable_in_draw_pile(s, at_least) == (-1 if short else full)
                seen += 1
            s["scratch"]["n_legal"] = kernel.legal_actions(s, s["scratch"]["legal"])
            kernel.apply_action(s, bots.choose(b, s))
    assert seen > 20  # enough decisions between battles to mean something


def faces_in_sight(rpg, s) -> int:
    """Return the deck's face cards less those in sight: the player's own count (``unseen_faces`` before issue 13)."""
    sight = [*rpg.zone(s, "hand"), *rpg.zone(s, "inv"), *rpg.zone(s, "discard"), *rpg.zone(s, "play")]
    sight += [n for n, _ in rpg.bone(s)] + [rpg.NAMES[int(s["hero"]["class_id"])]]
    if s["monster"]["card"] >= 0:
        sight.append(rpg.NAMES[int(s["monster"]["card"])])
    faces = sum(rpg.POOL.table[rpg.card(n)]["kind"] == Kind.FACE for n in sight)
    return max(0, int(s["meta"]["n_faces"]) - faces)


@pytest.mark.parametrize("bot", ["greedy", "planner"])
def test_the_unseen_face_cards_counted_in_the_unseen_zones_are_those_out_of_sight(rpg, bot):
    """Every card is in one zone: the face cards of the draw pile, monster pile and bonus cards are the unseen ones."""
    for s in positions(rpg):
        assert estimates.unseen_faces(s) == faces_in_sight(rpg, s)
    decisions = 0
    for seed in range(1, 7):
        _state, s = rpg.new_character(Params(), bot=bot, seed=seed)  # _state: the array s views
        b = int(s["meta"]["bot"])
        while s["meta"]["phase"] != Phase.OVER:
            assert estimates.unseen_faces(s) == faces_in_sight(rpg, s)
            decisions += 1
            s["scratch"]["n_legal"] = kernel.legal_actions(s, s["scratch"]["legal"])
            kernel.apply_action(s, bots.choose(b, s))
    assert decisions > 200
