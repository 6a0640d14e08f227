"""Blessings & Curses bots: legal choices on hand-built and played positions, kill and surrender choices, R4 views."""

import itertools

import numpy as np
import pytest

from sims.blessings import bots, kernel
from sims.blessings.bots import Bot
from sims.blessings.params import Params
from sims.blessings.state import ActionKind as K
from sims.blessings.state import CardType, EventKind, HandOrder, Phase, PoolTarget, Purpose, Surrender
from sims.blessings.state import encode as act

FIRST_READING = Params(pool_target=PoolTarget.FRESH_HAND, surrender=Surrender.TURN_START)  # the rules_version 1 default

DECK0 = ("heart:2", "heart:3", "heart:4", "heart:5", "heart:6", "heart:7", "heart:8", "heart:9")
DECK1 = ("club:2", "club:3", "club:4", "club:5", "club:6", "club:7", "club:8", "club:9")
MIXED = ("heart:10", "spade:queen", "club:2", "diamond:9", "heart:jack")

POSITIONS = {  # name -> (params, make_state keywords)
    "open_play": (Params(), {"hands": (MIXED, ["spade:2", "club:3", "diamond:8"])}),
    "opponent_hand_empty": (Params(), {"hands": (["heart:10", "spade:9"], []), "decks": ((), ["club:4"])}),
    "mid_turn_replacements_held": (
        Params(),
        {"hands": (["spade:4", "club:9", "heart:2", "heart:3"], ["spade:2"]), "to_play": 2},
    ),
    "faces_only": (Params(), {"hands": (["heart:king", "spade:ace", "club:jack"], ["diamond:queen", "spade:3"])}),
    "surrender_decision": (
        Params(),
        {"hands": (MIXED, ["spade:2"]), "decks": (DECK0, DECK1), "phase": Phase.SURRENDER, "curse": (40, 100)},
    ),
    "hidden_hands": (Params(open_hands=0), {"hands": (MIXED, ["spade:2", "club:3", "diamond:8"])}),
    "end_of_turn_decision": (
        Params(),
        {"hands": (MIXED, ["spade:2"]), "decks": (DECK0, DECK1), "phase": Phase.SURRENDER_END, "curse": (60, 30)},
    ),
    "first_reading_surrender": (
        FIRST_READING,
        {"hands": (MIXED, ["spade:2"]), "decks": (DECK0, DECK1), "phase": Phase.SURRENDER, "curse": (40, 100)},
    ),
    "blessing_first_under_curse": (
        Params(blessing_before_curses=1),
        {"hands": (MIXED, ["spade:2", "club:3"]), "curse": (60, 0), "blessing": (10, 0)},
    ),
    "fresh_hand": (
        Params(pool_target=PoolTarget.FRESH_HAND),
        {"hands": (MIXED, ["spade:2", "club:3"]), "curse": (0, 35)},
    ),
}


def position(bl, name: str, bot: str):
    """Return ``(state, s)`` of the named position with ``bot`` in both seats; a damaged card on each side."""
    params, kw = POSITIONS[name]
    state, s = bl.make_state(params, bots=(bot, bot), **kw)
    q = s["piles"]
    for p in range(2):
        if q["hand_n"][p] > 0:
            q["hp"][p, q["hand"][p, 0]] = 3
    return state, s


@pytest.mark.parametrize(("bot", "name"), list(itertools.product(("random", "greedy", "tactician"), POSITIONS)))
def test_bots_choose_only_legal_actions_in_hand_built_positions(bl, bot, name):
    _, s = position(bl, name, bot)
    legal = bl.legal(s)
    assert legal
    tries = 60 if bot == "random" else 1  # the random bot draws anew each time
    chosen = {bots.choose(bl.GAME.bots.index(bot), s) for _ in range(tries)}
    assert chosen <= legal
    if bot == "random" and s["meta"]["phase"] == Phase.PLAY:
        assert len(chosen) > 3  # it really does spread its choices


@pytest.mark.parametrize("bot", [Bot.GREEDY, Bot.TACTICIAN])
def test_heuristic_bots_leave_the_position_unchanged(bl, bot):
    for name in POSITIONS:
        state, s = position(bl, name, bot.name.lower())
        before = state.tobytes()
        bots.choose(bot, s)
        assert bl.without_cache(state).tobytes() == before, name  # greedy keeps its card values (bots.card_choice)


def played_positions(bl, params: Params, n: int, seed: int):
    """Yield positions reached by uniformly random legal play from real set-ups."""
    rng = np.random.default_rng(seed)
    for g in range(n):
        state, s = bl.new_game(params, bots=("greedy", "tactician"), seed=seed * 100 + g)
        for _ in range(int(rng.integers(1, 80))):
            legal = sorted(bl.legal(s))
            if not legal:
                break
            kernel.apply_action(s, legal[int(rng.integers(len(legal)))])
        if s["meta"]["phase"] != Phase.OVER:
            yield state, s


@pytest.mark.parametrize(
    "params",
    [Params(), Params(open_hands=0), Params(blessing_before_curses=1), FIRST_READING],
    ids=["modern", "hidden_hands", "blessing_first", "first_reading"],
)
def test_bots_choose_legal_actions_in_positions_reached_by_play(bl, params):
    seen = 0
    for _state, s in played_positions(bl, params, 12, seed=5):
        legal = bl.legal(s)
        for bot in Bot:
            assert bots.choose(bot, s) in legal
        seen += 1
    assert seen >= 8


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant", ["modern", "arranged_hands", "hidden_hands", "blessing_first", "first_reading", "turn_start_surrender"]
)
@pytest.mark.parametrize(("a", "b"), list(itertools.product(("random", "greedy", "tactician"), repeat=2)))
def test_every_pairing_takes_only_legal_actions_and_conserves_cards(bl, variant, a, b):
    game = bl.GAME
    params = game.make_params(variant, {"max_battles": 10})
    pool = game.prepare_pool(bl.POOL, params)
    report = np.zeros(4, np.int64)
    ids = np.array([game.bots.index(a), game.bots.index(b)], np.int64)
    weights = np.stack([game.make_weights(a), game.make_weights(b)])
    game.check_games(params, pool.table, np.zeros((2, 52), np.int16), ids, weights, np.uint64(17), 0, 40, report)
    assert report[0] > 40 * 10  # decisions audited
    assert report[1:].tolist() == [0, 0, 0]  # conservation violations, illegal actions, games past the caps


# -- what the heuristic bots choose -----------------------------------------------------------------------------


def test_greedy_prefers_a_kill_to_an_attack_that_removes_more_health(bl):
    _, s = bl.make_state(hands=(["heart:8"], ["spade:2", "club:3"]))  # heart:8 deals 24
    s["piles"]["hp"][1, bl.card("club:3")] = 40  # blessed: 24 removed, not killed
    assert bots.choose(Bot.GREEDY, s) == act(K.ATTACK, 0, 0)  # kills spade:2 (20 removed)


def test_greedy_takes_a_small_kill_over_a_curse(bl):
    _, s = bl.make_state(hands=(["spade:4"], ["club:2", "club:3"]))
    s["piles"]["hp"][1, bl.card("club:3")] = 3
    assert bots.choose(Bot.GREEDY, s) == act(K.ATTACK, 0, 1)


def test_greedy_curses_when_no_kill_is_on_offer(bl):
    _, s = bl.make_state(hands=(["spade:4"], ["club:2", "club:3"]))
    assert bots.choose(Bot.GREEDY, s) == act(K.CURSE, 0, 0)


def test_tactician_kills_an_opposing_curse_type_card_over_a_non_curse_card(bl):
    _, s = bl.make_state(hands=(["heart:10"], ["spade:9", "diamond:10"]), bots=("tactician", "tactician"))
    assert bots.choose(Bot.TACTICIAN, s) == act(K.ATTACK, 0, 0)
    _, s = bl.make_state(hands=(["heart:10"], ["diamond:10", "spade:9"]), bots=("tactician", "tactician"))
    assert bots.choose(Bot.TACTICIAN, s) == act(K.ATTACK, 0, 1)


def surrender_position(bl, params: Params | None = None, **kw):
    """Seat 0 decides whether to surrender at its turn start; each seat holds 1 card and owns 9.

    The wipe-out line is 20 (the 1-card hand) under ``modern`` and 100 (a 5-card opening
    hand) under ``first_reading``.
    """
    return bl.make_state(
        params, hands=(["spade:2"], ["club:2"]), decks=(DECK0, DECK1), phase=Phase.SURRENDER, mover=0, **kw
    )


LINES = [pytest.param(Params(), 20, id="modern"), pytest.param(FIRST_READING, 100, id="first_reading")]


@pytest.mark.parametrize(("params", "line"), LINES)
def test_greedy_surrenders_when_the_opponents_curse_already_reaches_its_wipe_line(bl, params, line):
    _, s = surrender_position(bl, params, curse=(0, line))
    assert bots.choose(Bot.GREEDY, s) == act(K.SURRENDER, 0, 0)


@pytest.mark.parametrize(("params", "line"), LINES)
@pytest.mark.parametrize("curse", [(0, 0), (0, -1), (1, 0), (-1, -1)], ids=["none", "short", "me", "both_short"])
def test_greedy_plays_on_unless_the_opponent_alone_is_past_its_wipe_line(bl, params, line, curse):
    """Curses given as 0, line - 1 (-1) or line (1): only "opponent at its line, not me" settles the battle."""
    amount = {0: 0, -1: line - 1, 1: line}
    _, s = surrender_position(bl, params, curse=(amount[curse[0]], amount[curse[1]]))
    assert bots.choose(Bot.GREEDY, s) == act(K.PLAY_ON, 0, 0)


@pytest.mark.parametrize(("params", "line"), LINES)
def test_greedy_surrenders_when_both_seats_are_already_doomed_since_nothing_is_left_to_play_for(bl, params, line):
    """Both curse pools past both wipe lines: the next battle start is a mutual wipe-out whatever happens."""
    _, s = surrender_position(bl, params, curse=(line, line))
    assert bots.choose(Bot.GREEDY, s) == act(K.SURRENDER, 0, 0)
    _, s = surrender_position(bl, params._replace(blessing_before_curses=1), curse=(line, line))
    assert bots.choose(Bot.GREEDY, s) == act(K.PLAY_ON, 0, 0)  # blessing first: more blessing can still save it


@pytest.mark.parametrize(("params", "line"), LINES)
@pytest.mark.parametrize(("extra", "choice"), [(0, K.PLAY_ON), (13, K.PLAY_ON), (14, K.SURRENDER)])
def test_greedy_wipe_line_includes_the_opponents_blessing_under_blessing_first(bl, params, line, extra, choice):
    """Line = Health + 12 blessing + 2, the winner's bonus (club:2) that surrendering would hand over (R14)."""
    params = params._replace(blessing_before_curses=1)
    _, s = surrender_position(bl, params, curse=(0, line + extra), blessing=(0, 12))
    assert bots.choose(Bot.GREEDY, s) == act(choice, 0, 0)


@pytest.mark.parametrize(("curse", "choice"), [(19, K.PLAY_ON), (20, K.SURRENDER)])
def test_greedy_wipe_line_under_carryover_is_the_health_of_the_opponents_hand(bl, curse, choice):
    _, s = surrender_position(bl, Params(pool_target=PoolTarget.CARRYOVER_HAND), curse=(0, curse))
    assert bots.choose(Bot.GREEDY, s) == act(choice, 0, 0)


def test_wipe_line_of_an_empty_carryover_hand_is_any_curse_whatever_the_blessing(bl):
    """R15/R17: an empty carried-over hand falls to a curse of 1; a blessing has no card to land on."""
    params = Params(pool_target=PoolTarget.CARRYOVER_HAND, blessing_before_curses=1)
    _, s = bl.make_state(params, hands=(["spade:2"], []), decks=(DECK0, DECK1), blessing=(0, 30))
    assert bots.wipe_line(s, 0, 1) == 1


# -- R4: what a bot sees, and arranged hands ----------------------------------------------------------------------


def test_r4_open_hands_bots_see_each_opposing_cards_curse(bl):
    _, s = bl.make_state(hands=(["heart:10"], ["spade:9", "diamond:10"]))
    assert [bots.threat(s, 0, 1, j) for j in range(2)] == [10.0, 0.0]


def test_r4_hidden_hands_an_opposing_card_counts_as_an_average_card(bl):
    _, s = bl.make_state(Params(open_hands=0), hands=(["heart:10"], ["spade:9", "diamond:10"]))
    mean = s["scratch"]["mean_curse"][1]  # the curse seat 1's average card sends
    table = bl.POOL.table
    curses = [int(r["attack"]) + int(r["impact"]) + 5 * int(r["face"]) for r in table if r["type"] == CardType.CURSE]
    assert mean == pytest.approx(sum(curses) / 52)  # the curse a card of the pool sends, on average
    assert [bots.threat(s, 0, 1, j) for j in range(2)] == [mean, mean]
    assert [bots.threat(s, 1, 1, j) for j in range(2)] == [10.0, 0.0]  # a seat still sees its own cards


def test_r4_arranged_hands_greedy_puts_its_least_valued_cards_left_before_the_pools(bl):
    params = Params(hand_order=HandOrder.PLAYER_ARRANGED)
    hand = ["heart:10", "spade:2", "diamond:8", "club:4", "heart:king"]  # best outputs 30, 3, 16, 5, 9
    _, s = bl.make_state(params, hands=(hand, ["club:2"]), curse=(25, 0), blessing=(10, 0))
    kernel.apply_pools(s, 0)
    assert bl.hand(s, 0) == ["club:4", "heart:king", "diamond:8", "heart:10"]
    assert bl.pile(s, "gone", 0) == ["spade:2"]
    assert [bl.health(s, 0, c) for c in bl.hand(s, 0)] == [15, 20, 20, 30]
    (arranged,) = bl.events(s, EventKind.ARRANGE)
    assert (int(arranged["seat"]), int(arranged["value"])) == (0, Purpose.POOLS)


def test_r4_arranged_hands_random_bot_only_permutes_its_hand(bl):
    params = Params(hand_order=HandOrder.PLAYER_ARRANGED)
    hand = ["heart:10", "spade:2", "diamond:8", "club:4", "heart:king", "spade:7", "club:9"]
    orders = set()
    for seed in range(1, 5):
        _, s = bl.make_state(params, hands=(hand, ["club:2"]), bots=("random", "random"), seed=seed)
        bots.arrange(s, 0, Purpose.POOLS)
        assert sorted(bl.hand(s, 0)) == sorted(hand)
        orders.add(tuple(bl.hand(s, 0)))
    assert len(orders) > 1


def test_r4_draw_order_hands_are_never_arranged(bl):
    hand = ["heart:10", "spade:2", "diamond:8"]
    _, s = bl.make_state(hands=(hand, ["club:2"]))
    bots.arrange(s, 0, Purpose.POOLS)
    bots.arrange(s, 0, Purpose.BONUS)
    assert bl.hand(s, 0) == hand
    assert bl.events(s, EventKind.ARRANGE) == []
