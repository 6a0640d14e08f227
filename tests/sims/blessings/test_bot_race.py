"""Blessings & Curses bots: the surrender race (R13), the end-of-turn decision, pressure and hidden Health (R4).

Each test is a hand-built position for one item of issue 8's review of the bots; the
numbers in the docstrings are the race estimate worked by hand (``bots.race_surrender``):
a seat expects the opponent's next turn to send the curse of every card it would play as
a curse (``next_curse``; spade:queen 9, club:9 10, heart:9 attacks instead) plus its
draws at the pool mean (4.02 curse and 3.96 Health removed per card, none on its first
turn of a battle), and gives up when that reaches its line while the opponent stays safe.
"""

import pytest

from sims.blessings import bots
from sims.blessings.bots import Bot
from sims.blessings.params import Params
from sims.blessings.state import ActionKind as K
from sims.blessings.state import Phase, PoolTarget, Surrender
from sims.blessings.state import encode as act

DECK0 = ("heart:2", "heart:3", "heart:4", "heart:5", "heart:6", "heart:7", "heart:8", "heart:9")
DECK1 = ("club:2", "club:3", "club:4", "club:5", "club:6", "club:7", "club:8", "club:9")
FIRST_READING = Params(pool_target=PoolTarget.FRESH_HAND, surrender=Surrender.TURN_START)  # line 100: 5 fresh cards
CURSERS = ["spade:queen", "spade:king", "club:9"]  # 9 + 9 + 10 = 28 curse, every card played as a curse
CARRY_TURN_START = Params(pool_target=PoolTarget.CARRYOVER_HAND, surrender=Surrender.TURN_START)
SURRENDER, PLAY_ON = act(K.SURRENDER, 0, 0), act(K.PLAY_ON, 0, 0)


def decision(bl, phase, params, mine, theirs, curse, own_turns=(2, 1), bot="tactician", weights=None):
    """Seat 0 at a surrender decision (``phase``) holding ``mine``; seat 1 holds ``theirs``; 8-card decks."""
    return bl.make_state(
        params,
        hands=(mine, theirs),
        decks=(DECK0, DECK1),
        phase=phase,
        curse=curse,
        own_turns=own_turns,
        bots=(bot, bot),
        weights=weights,
    )[1]


def turn_start(bl, params, mine, theirs, curse, own_turns=(2, 1), bot="tactician", weights=None):
    """Seat 0 at the start of its turn (surrender decision, before the draw)."""
    return decision(bl, Phase.SURRENDER, params, mine, theirs, curse, own_turns, bot, weights)


ONCE = ({"expect": 1.0}, {"expect": 1.0})  # isolates one fix from the old default expect = 2


# -- the tactician's race estimate (turn_start timing, where the old rule decided) ----------------------------


@pytest.mark.parametrize(("own_turns", "choice"), [((1, 0), PLAY_ON), ((2, 1), SURRENDER)], ids=["first", "later"])
def test_tactician_counts_no_opponent_draw_before_its_first_turn(bl, own_turns, choice):
    """70 + 28 = 98 < 100 with no draw (the opponent's first turn: its 5 cards were that draw, R6);
    with a draw of 2 it is 98 + 8.0 = 106 >= 100 and the tactician cannot win first (8 curse of its own)."""
    s = turn_start(bl, FIRST_READING, ["club:2"], CURSERS, (70, 0), own_turns, weights=ONCE)
    assert bots.choose(Bot.TACTICIAN, s) == choice


@pytest.mark.parametrize(
    ("theirs", "choice"), [(["heart:9", "heart:7"], PLAY_ON), (["spade:10", "spade:9"], SURRENDER)]
)
def test_tactician_counts_only_cards_that_would_be_played_as_curses(bl, theirs, choice):
    """heart:9 and heart:7 are curse-type but kill a fresh card (27, 21 damage), so they attack: 80 + 8.0 = 88
    < 100; spade:10 and spade:9 curse for 21: 80 + 21 + 8.0 = 109 >= 100."""
    s = turn_start(bl, FIRST_READING, ["club:2"], theirs, (80, 0), weights=ONCE)
    assert bots.choose(Bot.TACTICIAN, s) == choice


def test_tactician_counts_the_expected_curse_once_not_twice(bl):
    """Default weights: 40 + 28 + 8.0 = 76 < 100, so it plays on (the old expect = 2 made it 114 and gave up)."""
    s = turn_start(bl, FIRST_READING, ["club:2"], CURSERS, (40, 0))
    assert bots.choose(Bot.TACTICIAN, s) == PLAY_ON


def test_tactician_never_surrenders_into_a_certain_wipe_out_of_its_carried_over_hand(bl):
    """Carryover, turn_start: a 5-Health hand under a 30 curse is wiped out if it surrenders now; playing on
    replaces it with fresh cards (R7, R18)."""
    params = CARRY_TURN_START
    s = turn_start(bl, params, ["spade:2"], ["club:2", "club:4"], (30, 0))
    s["piles"]["hp"][0, bl.card("spade:2")] = 5
    assert bots.choose(Bot.TACTICIAN, s) == PLAY_ON


def test_tactician_judges_a_carried_over_hand_after_its_turn_draw(bl):
    """A damaged hand of 25 under a 20 curse: the opponent's 9 + 8.0 would pass 25, but after this turn the
    tactician holds its replacements, 2 + 2 fresh cards = 80 Health: 37 < 80, so it plays on."""
    params = CARRY_TURN_START
    s = turn_start(bl, params, ["spade:2", "spade:3"], ["spade:queen"], (20, 0))
    s["piles"]["hp"][0, bl.card("spade:2")] = 5
    assert bots.choose(Bot.TACTICIAN, s) == PLAY_ON


# -- greedy concedes a race it is losing ----------------------------------------------------------------------


@pytest.mark.parametrize(("curse", "choice"), [(71, PLAY_ON), (72, SURRENDER)])
def test_greedy_concedes_when_the_opponents_curse_cards_would_reach_its_line(bl, curse, choice):
    """Greedy counts every curse-type card the opponent holds (28): 72 + 28 = 100 reaches the line."""
    s = turn_start(bl, FIRST_READING, ["club:2"], CURSERS, (curse, 0), bot="greedy")
    assert bots.choose(Bot.GREEDY, s) == choice


def test_greedy_does_not_concede_into_its_own_wipe_out(bl):
    params = CARRY_TURN_START
    s = turn_start(bl, params, ["spade:2"], CURSERS, (30, 0), bot="greedy")
    s["piles"]["hp"][0, bl.card("spade:2")] = 5
    assert bots.choose(Bot.GREEDY, s) == PLAY_ON


# -- R13 own_turn: the end-of-turn decision -----------------------------------------------------------------------


def turn_end(bl, mine, theirs, curse, bot="tactician", params=None, own_turns=(2, 1)):
    """Seat 0 has played every card (``mine`` are its fresh replacements) and may surrender before seat 1 moves."""
    return decision(bl, Phase.SURRENDER_END, params, mine, theirs, curse, own_turns, bot)


@pytest.mark.parametrize("bot", [Bot.GREEDY, Bot.TACTICIAN])
def test_both_bots_surrender_at_the_end_of_their_turn_into_the_opponents_wipe_out(bl, bot):
    """E15 from the bots' side: seat 1's 2 cards (40) face a 45 curse, seat 0's hand survives its 10."""
    s = turn_end(bl, ["spade:2", "heart:4"], ["club:2", "club:4"], (10, 45), bot=bot.name.lower())
    assert bots.choose(bot, s) == SURRENDER


FOUR = ["spade:2", "heart:4", "club:6", "diamond:8"]  # 80 Health of fresh replacements


@pytest.mark.parametrize(("curse", "choice"), [(35, PLAY_ON), (36, SURRENDER)])
def test_tactician_gives_up_at_the_end_of_its_turn_a_race_it_expects_to_lose(bl, curse, choice):
    """Seat 1 holds spade:queen (curses 9) and heart:9 (kills a card: removes 20) and draws 2: the tactician
    expects 9 + 8.04 = 17.04 curse and 20 + 7.92 = 27.92 Health off its 80, a line of 52.08. A 35 curse
    stays under it (52.04), 36 reaches it (53.04)."""
    s = turn_end(bl, FOUR, ["spade:queen", "heart:9"], (curse, 0))
    assert bots.choose(Bot.TACTICIAN, s) == choice


@pytest.mark.parametrize(("curse", "choice"), [(58, PLAY_ON), (59, SURRENDER)])
def test_greedy_concedes_at_the_end_of_its_turn(bl, curse, choice):
    """Greedy's one-pass count: every curse-type card seat 1 holds curses (spade:queen 9, heart:9 12), no
    draws, no attacks: 59 + 21 = 80 reaches its 80 Health."""
    s = turn_end(bl, FOUR, ["spade:queen", "heart:9"], (curse, 0), bot="greedy")
    assert bots.choose(Bot.GREEDY, s) == choice


@pytest.mark.parametrize("their_curse", [60, 90])
def test_tactician_at_a_turn_start_does_not_count_on_its_own_curses_winning_first(bl, their_curse):
    """turn_start timing: 80 + 28 + 8.0 passes its line. Its own spade:queen and spade:king (18) would take
    the opponent from 90 past 100 this turn, but the opponent replies before the tactician can end the
    battle: the reply dooms it too, and a mutual wipe-out is the best that gives. It gives up either way."""
    s = turn_start(bl, FIRST_READING, ["spade:queen", "spade:king"], CURSERS, (80, their_curse))
    assert bots.choose(Bot.TACTICIAN, s) == SURRENDER


@pytest.mark.parametrize("bot", [Bot.GREEDY, Bot.TACTICIAN])
def test_with_own_turn_a_race_is_judged_at_the_end_of_the_turn_not_its_start(bl, bot):
    """At the start of its turn a seat takes only a settled result: the end of the turn is at least as good
    (its curses sent, its hand fresh), so the same danger does not make it give up there."""
    s = turn_start(bl, Params(), FOUR, ["spade:queen", "heart:9"], (70, 0), bot=bot.name.lower())
    assert bots.choose(bot, s) == PLAY_ON


def test_random_bot_may_surrender_at_the_end_of_its_turn_too(bl):
    chosen = set()
    for seed in range(1, 40):
        _, s = bl.make_state(
            hands=(FOUR, ["club:2"]), decks=(DECK0, DECK1), phase=Phase.SURRENDER_END, bots=("random", "random"),
            weights=({"surrender_rate": 0.5}, {}), seed=seed,
        )  # fmt: skip
        chosen.add(bots.choose(Bot.RANDOM, s))
    assert chosen == {PLAY_ON, SURRENDER}


# -- pressure: Health removed counts like curse when this turn can end the game -------------------------------


@pytest.mark.parametrize(("press", "kind"), [(1.0, K.ATTACK), (0.0, K.CURSE)])
def test_tactician_attacks_to_bring_the_opposing_hand_under_its_curse_when_that_ends_the_game(bl, press, kind):
    """Seat 1 holds 40 Health under a 24 curse. diamond:7 curses 9 or deals 14; spade:3 curses 4 or deals 3.
    Cursing twice reaches 37 < 40; attacking leaves 26 Health, and spade:3's 4 curse then makes 28 >= 26:
    seat 0 surrenders at the end of its turn into seat 1's wipe-out (R13 own_turn, R15 carryover)."""
    _, s = bl.make_state(
        hands=(["diamond:7", "spade:3"], ["club:2", "club:4"]), decks=(DECK0, DECK1), curse=(0, 24),
        bots=("tactician", "tactician"), weights=({"press": press}, {}),
    )  # fmt: skip
    a = bots.choose(Bot.TACTICIAN, s)
    assert (a >> 14) == kind


def test_pressure_plays_out_to_a_won_game(bl):
    from sims.blessings import kernel
    from sims.blessings.state import EndReason

    _, s = bl.make_state(
        hands=(["diamond:7", "spade:3"], ["club:2", "club:4"]), decks=(DECK0, DECK1), curse=(0, 24),
        bots=("tactician", "tactician"),
    )  # fmt: skip
    while s["meta"]["phase"] != Phase.OVER and s["meta"]["mover"] == 0:
        kernel.apply_action(s, bots.choose(Bot.TACTICIAN, s))
    assert (s["meta"]["winner"], s["meta"]["end_reason"]) == (0, EndReason.WIPEOUT)


# -- R4 hidden hands: no identity and no Health -------------------------------------------------------------------


@pytest.mark.parametrize(("open_hands", "kind"), [(1, K.ATTACK), (0, K.CURSE)])
def test_greedy_does_not_see_the_health_of_a_hidden_card(bl, open_hands, kind):
    """spade:4 deals 4: it kills a card left at 3 Health when it can see it (0.5 x 3 + 6 > 5 curse); hidden, the
    card counts at full Health (4 damage: 2.0 < 5), so it curses."""
    _, s = bl.make_state(Params(open_hands=open_hands), hands=(["spade:4"], ["club:2", "club:4"]))
    s["piles"]["hp"][1, bl.card("club:4")] = 3
    assert (bots.choose(Bot.GREEDY, s) >> 14) == kind


def test_hidden_hands_wipe_line_counts_unseen_cards_at_full_health(bl):
    _, s = bl.make_state(Params(open_hands=0), hands=(["spade:4"], ["club:2", "club:4"]))
    s["piles"]["hp"][1, bl.card("club:4")] = 3
    assert (bots.wipe_line(s, 0, 1), bots.wipe_line(s, 1, 1)) == (40, 23)  # the owner sees its own damage


@pytest.mark.parametrize(
    ("pool_target", "kind"), [(PoolTarget.CARRYOVER_HAND, K.ATTACK), (PoolTarget.FRESH_HAND, K.CURSE)]
)
def test_tactician_values_damage_that_does_not_kill_only_when_the_pools_hit_the_hand_in_play(bl, pool_target, kind):
    """diamond:9 deals 18 to a 20-Health spade:king that spade:3 could finish. Under carryover_hand the
    damage lowers the hand the curse must get through (and sets up the kill): attack. Under fresh_hand
    the pools hit a new hand, so damage that does not kill is worth nothing: curse for 11."""
    _, s = bl.make_state(
        Params(pool_target=pool_target), hands=(["diamond:9", "spade:3"], ["spade:king"]), decks=(DECK0, DECK1),
        bots=("tactician", "tactician"),
    )  # fmt: skip
    assert (bots.choose(Bot.TACTICIAN, s) >> 14) == kind


@pytest.mark.parametrize(("curse", "kind"), [(104, K.BLESS), (50, K.ATTACK)])
def test_tactician_blesses_under_blessing_first_only_when_the_blessing_saves_it(bl, curse, kind):
    """Blessing first (R16), fresh hands: a line of 100. Under a 104 curse heart:8's 11 blessing is the last
    buffer (5 of it needed: 0.2 x 11 + 5 = 7.2 beats killing club:2, 6 - 0.2); under 50 it is not needed and
    the kill is worth more. Past what it needs, a blessing is worth no more than surrendering gives."""
    params = Params(pool_target=PoolTarget.FRESH_HAND, blessing_before_curses=1)
    _, s = bl.make_state(
        params, hands=(["heart:8"], ["club:2"]), decks=(DECK0, DECK1), curse=(curse, 0),
        bots=("tactician", "tactician"),
    )  # fmt: skip
    assert (bots.choose(Bot.TACTICIAN, s) >> 14) == kind
