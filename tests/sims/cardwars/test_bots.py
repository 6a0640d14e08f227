"""Card Wars bots: legal actions only, and each mechanic taken when it clearly pays (hand-built positions).

Positions use the scenario builder (``sims.cardwars.scenario.build``): the same keys as the
scenario files (RULES.md §10). ``MECHANICS`` lists, per ability, a position where using it
clearly pays and the move the greedy bot must choose; the planner is checked on the same
positions where its look-ahead must agree.
"""

import numpy as np
import pytest

import sims
from sims.cardwars import actions as act
from sims.cardwars import bots, planner
from sims.cardwars.layout import Phase
from sims.cardwars.scenario import _Ctx, build, encode_move

GAME = sims.load("cardwars")
POOL = GAME.load_pool(GAME.cards_path)
BP = ["Blue Plains"] * 4
CF = ["Cornfield"] * 4
US = ["Useless Swamp"] * 4
SL = ["SandyLands"] * 4
DECK = ["Phyllis", "Phyllis", "Phyllis"]


def position(pos, params=None, bot="greedy"):
    prm = GAME.make_params(None, params or {})
    weights = np.stack([GAME.make_weights(bot)] * 2)
    state = build(prm, GAME.prepare_pool(POOL, prm), {"position": pos}, "test", weights)
    return state


def decide(state, bot="greedy"):
    s, sim = state[0], state[1]
    who = s.meta.decider if s.meta.phase == Phase.CHOOSE else s.meta.mover
    return int(bots.choose(bots.Bot[bot.upper()], s, sim, who))


def expected(state, move):
    return int(encode_move(state[0], move, _Ctx(POOL, "test"), "move"))


def legal(state):
    s = state[0]
    return {int(a) for a in s.scratch.legal[: act.legal_actions(s, s.scratch.legal)]}


# name -> (position, the move that clearly pays)
MECHANICS = {
    "plays the creature that kills the opposing one": (
        {
            "p0": {"landscapes": CF, "hand": ["Phyllis", "Drooling Dude"], "deck": DECK},
            "p1": {"creatures": [{"card": "Evil Eye", "damage": 2}, "", "", ""]},
        },
        {"play": "Drooling Dude", "lane": 1},
    ),
    "draws with a spare Action rather than ending": (
        {"actions": 1, "p0": {"hand": [], "deck": DECK}},
        {"draw": True},
    ),
    "ends the main phase with no Action and nothing free": (
        {"actions": 0, "p0": {"hand": ["Phyllis"], "deck": DECK}},
        {"end": True},
    ),
    "replaces a nearly dead Creature when every lane is full": (
        {
            "p0": {
                "landscapes": CF,
                "creatures": [{"card": "Evil Eye", "damage": 4}, "Drooling Dude", "Drooling Dude", "Drooling Dude"],
                "hand": ["Drooling Dude"],
                "deck": DECK,
            }
        },
        {"play": "Drooling Dude", "lane": 1},
    ),
    "Floops The Pig instead of a losing fight": (
        {
            "actions": 0,
            "p0": {"landscapes": BP, "creatures": ["The Pig", "", "", ""], "deck": DECK},
            "p1": {"landscapes": CF, "creatures": ["Husker Knight", "", "", ""]},
        },
        {"floop": 1, "target": "p1"},
    ),
    "Floops Fummy for an Action to play a card": (
        {
            "actions": 0,
            "p0": {"landscapes": SL, "creatures": ["Fummy", "", "", ""], "deck": DECK},
            "p1": {"creatures": ["Drooling Dude", "", "", ""]},
        },
        {"floop": 1},
    ),
    "pays Uni-Knight's Action when the counter-blow would kill it": (
        {
            "actions": 1,
            "p0": {"landscapes": BP, "creatures": [{"card": "Uni-Knight", "damage": 3}, "", "", ""], "deck": DECK},
            "p1": {"creatures": [{"card": "Sand Angel", "damage": 2}, "", "", ""]},
        },
        {"activate": 1, "target": "p1:1"},
    ),
    "Corn Scepter kills a Creature": (
        {
            "actions": 1,
            "p0": {"landscapes": CF, "hand": ["Corn Scepter"], "deck": DECK},
            "p1": {"creatures": ["", "Drooling Dude", {"card": "Cool Dog", "damage": 4}, ""]},
        },
        {"play": "Corn Scepter", "target": "p1:3"},
    ),
    "Cerebral Bloodstorm finishes two Creatures": (
        {
            "actions": 1,
            "p0": {"landscapes": BP, "hand": ["Cerebral Bloodstorm"], "deck": DECK},
            "p1": {"creatures": [{"card": "Phyllis", "damage": 6}, {"card": "Evil Eye", "damage": 4}, "", ""]},
        },
        {"play": "Cerebral Bloodstorm"},
    ),
    "Gnome Snot draws three for one Action": (
        {"actions": 1, "p0": {"landscapes": BP, "hand": ["Gnome Snot"], "deck": DECK * 2}},
        {"play": "Gnome Snot"},
    ),
    "Field of Nightmares against a full hand": (
        {
            "actions": 1,
            "p0": {"landscapes": CF, "hand": ["Field of Nightmares"], "deck": DECK},
            "p1": {"hand": ["Phyllis"] * 6},
        },
        {"play": "Field of Nightmares"},
    ),
    "Blood Fortress behind its Creature": (
        {"actions": 1, "p0": {"creatures": ["", "", "Phyllis", ""], "hand": ["Blood Fortress"], "deck": []}},
        {"play": "Blood Fortress", "lane": 3},
    ),
    "Teleport out of a losing lane into an open one": (
        {
            "actions": 0,
            "p0": {"creatures": [{"card": "Sand Angel", "damage": 3}, "", "", ""], "hand": ["Teleport"], "deck": DECK},
            "p1": {"creatures": ["Drooling Dude", "Drooling Dude", "Drooling Dude", ""]},
        },
        {"play": "Teleport", "from": 1, "to": 4},
    ),
    "Silo of Truth against a full hand": (
        {
            "p0": {"landscapes": CF, "buildings": ["Silo of Truth", "", "", ""], "deck": DECK},
            "p1": {"hand": ["Phyllis", "Phyllis", "Phyllis"]},
        },
        {"activate_building": 1},
    ),
    "Spirit Tower takes a big Creature to hit the opponent": (
        {
            "actions": 1,
            "p0": {"landscapes": US, "buildings": ["Spirit Tower", "", "", ""], "deck": []},
            "p1": {"creatures": ["Drooling Dude", "", "", ""]},
        },
        {"floop_building": 1},
    ),
    "Sandsnake into the Lane of a Creature it can kill": (
        {
            "actions": 1,
            "p0": {"landscapes": SL, "hand": ["Sandsnake"], "deck": []},
            "p1": {"creatures": ["", "", {"card": "Phyllis", "damage": 3}, ""]},
        },
        {"play": "Sandsnake", "lane": 3},
    ),
    "Cornataur for its damage": (
        {"p0": {"landscapes": CF, "hand": ["Cornataur"], "deck": []}, "p1": {"hp": 4}},
        {"play": "Cornataur", "lane": 1},
    ),
    "Legion of Earlings sends the opposing Creature home": (
        {
            "p0": {"landscapes": CF, "hand": ["Legion of Earlings"], "deck": []},
            "p1": {"creatures": ["", "Drooling Dude", "", ""]},
        },
        {"play": "Legion of Earlings", "lane": 2, "choice": "opposing"},
    ),
    "Field Reaper takes the opposing Creature": (
        {
            "p0": {"landscapes": CF, "hand": ["Field Reaper", "Evil Eye"], "deck": []},
            "p1": {"creatures": ["Drooling Dude", "", "", ""]},
        },
        {"play": "Field Reaper", "lane": 1, "choice": "right", "discard": "Evil Eye"},
    ),
    "Patchy the Pumpkin kills what it can": (
        {
            "actions": 0,
            "p0": {"landscapes": CF, "creatures": ["Patchy the Pumpkin", "", "", ""], "deck": []},
            "p1": {
                "creatures": [
                    {"card": "Evil Eye", "damage": 4},
                    "Drooling Dude",
                    {"card": "Phyllis", "damage": 6},
                    "Sand Angel",
                ]
            },
        },
        {"floop": 1, "targets": ["p1:1", "p1:2", "p1:3", "p1:4"]},
    ),
    "Dr. Death trades itself for a bigger Creature": (
        {
            "actions": 0,
            "p0": {"landscapes": US, "creatures": [{"card": "Dr. Death", "damage": 6}, "", "", ""], "deck": []},
            "p1": {"creatures": ["Teeth Leaf", "", "", ""]},
        },
        {"floop": 1, "cost": 1},
    ),
    "Green Mermaid kills two damaged Creatures": (
        {
            "actions": 0,
            "p0": {"landscapes": US, "creatures": ["Green Mermaid", "", "", ""], "deck": []},
            "p1": {"creatures": ["", {"card": "Phyllis", "damage": 6}, {"card": "Evil Eye", "damage": 4}, ""]},
        },
        {"activate": 1},
    ),
    "Beach Mummy returns a big opposing Creature": (
        {
            "actions": 0,
            "p0": {"landscapes": SL, "creatures": ["", "Beach Mummy", "", ""], "deck": []},
            "p1": {"creatures": ["Teeth Leaf", "Drooling Dude", "", ""]},
        },
        {"floop": 2, "target": "p1:1"},
    ),
    "Archer Dan destroys the Building protecting the opposing Creature": (
        {
            "actions": 0,
            "p0": {"landscapes": CF, "creatures": ["Archer Dan", "", "", ""], "deck": []},
            "p1": {"creatures": ["Drooling Dude", "", "", ""], "buildings": ["Celestial Castle", "", "", ""]},
        },
        {"floop": 1, "target": "p1"},
    ),
    "Tree of Undeath brings back a Creature": (
        {
            "actions": 0,
            "p0": {
                "landscapes": US,
                "creatures": ["Tree of Undeath", "", "", ""],
                "discard": ["Teeth Leaf"],
                "deck": [],
            },
            "p1": {"creatures": ["Drooling Dude", "", "", ""]},
        },
        {"floop": 1},
    ),
    "Embarrassing Bard draws with two Flooped Creatures": (
        {
            "actions": 0,
            "p0": {
                "landscapes": BP,
                "creatures": ["Embarrassing Bard", {"card": "Fummy", "flooped": True}, "", ""],
                "deck": DECK,
            },
            "p1": {"creatures": ["Drooling Dude", "", "", ""]},
        },
        {"floop": 1},
    ),
    "Unempty Coffin before a costly Creature": (
        {"actions": 0, "p0": {"landscapes": SL, "hand": ["Unempty Coffin", "Shark"], "deck": []}},
        {"play": "Unempty Coffin"},
    ),
}


@pytest.mark.parametrize("name", list(MECHANICS))
def test_greedy_takes_the_mechanic_when_it_clearly_pays(name):
    pos, move = MECHANICS[name]
    state = position(pos)
    want = expected(state, move)
    assert want in legal(state), "the expected move must be legal here"
    assert decide(state) == want


@pytest.mark.parametrize(
    ("hand", "mulligan"),
    [
        (["Phyllis", "Gnome Snot", "Teleport", "Teleport", "Gnome Snot"], 1),  # E5: one Creature
        (["Phyllis", "Evil Eye", "Teleport", "Teleport", "Gnome Snot"], 0),
    ],
)
def test_greedy_mulligans_below_two_creatures(hand, mulligan):
    state = position({"phase": "mulligan", "first_seat": 0, "p0": {"hand": hand, "deck": DECK}})
    assert decide(state) == act.encode(act.ActionKind.CHOOSE, mulligan, 0, 0)


def test_greedy_floops_the_mariachi_after_two_creatures_entered():
    state = position({"actions": 0, "p0": {"landscapes": SL, "creatures": ["The Mariachi", "", "", ""],
                                           "hand": ["Sand Angel", "Evil Eye"], "deck": []},
                      "p1": {"creatures": ["Drooling Dude", {"card": "Phyllis", "damage": 5}, "", ""]}})  # fmt: skip
    for _ in range(2):  # greedy plays both free Creatures first
        a = decide(state)
        assert act.kind_of(a) == act.ActionKind.PLAY
        act.apply_action(state[0], a)
    assert decide(state) == expected(state, {"floop": 1, "target": "p1:2"})


def test_greedy_discards_its_least_valuable_card():
    state = position({"p0": {"landscapes": US, "creatures": ["Mace Stump", "", "", ""], "discard": ["Phyllis"] * 9},
                      "p1": {"hand": ["Drooling Dude", "Evil Eye", "Gnome Snot"]}})  # fmt: skip
    act.apply_action(state[0], act.encode(act.ActionKind.ACTIVATE, 0, 0, 0))
    assert state[0].meta.decider == 1
    assert decide(state) == act.encode(act.ActionKind.CHOOSE, 1, 0, 0)  # Evil Eye (1/5) goes


def test_greedy_returns_ms_mummy_to_feed_sandwitch():
    state = position({"phase": "start", "p0": {"landscapes": SL, "creatures": ["Ms. Mummy", "SandWitch", "", ""],
                                               "deck": DECK}})  # fmt: skip
    assert state[0].meta.pending == 2
    assert decide(state) == act.encode(act.ActionKind.CHOOSE, 2, 0, 0)  # return, heal SandWitch in lane 2


def test_greedy_fights_a_killing_blow_before_a_losing_one():
    state = position({"phase": "fight", "p0": {"creatures": ["Sand Angel", "Drooling Dude", "", ""]},
                      "p1": {"creatures": ["Drooling Dude", {"card": "Phyllis", "damage": 5}, "", ""]}})  # fmt: skip
    assert decide(state) == act.encode(act.ActionKind.FIGHT, 1, 0, 0)


PLANNER_AGREES = [
    "plays the creature that kills the opposing one",
    "Floops The Pig instead of a losing fight",
    "Corn Scepter kills a Creature",
    "Cornataur for its damage",
]


@pytest.mark.parametrize("name", PLANNER_AGREES)
def test_planner_takes_the_mechanic_when_it_clearly_pays(name):
    pos, move = MECHANICS[name]
    state = position(pos, bot="planner")
    assert decide(state, "planner") == expected(state, move)


def test_planner_sees_lethal_over_a_bigger_creature():
    pos = {"p0": {"landscapes": CF, "hand": ["Drooling Dude", "Field of Nightmares"], "deck": []},
           "p1": {"hp": 3, "hand": ["Phyllis"] * 3, "creatures": ["Evil Eye"] * 4}}  # fmt: skip
    state = position(pos, bot="planner")
    assert decide(state, "planner") == expected(state, {"play": "Field of Nightmares"})


@pytest.mark.parametrize("bot", ["random", "greedy", "planner"])
def test_every_bot_takes_only_legal_actions_in_played_games(bot):
    params = GAME.make_params()
    pool = GAME.prepare_pool(POOL, params)
    report = np.zeros(4, dtype=np.int64)
    ids = np.array([GAME.bots.index(bot), GAME.bots.index("greedy")], dtype=np.int64)
    weights = np.stack([GAME.make_weights(bot), GAME.make_weights("greedy")])
    n = 4 if bot == "planner" else 20
    GAME.check_games(params, pool.table, np.zeros((2, 1), np.int16), ids, weights, np.uint64(3), 0, n, report)
    assert report[0] > 50 * n
    assert report[1:].tolist() == [0, 0, 0]


# The opponent's unseen cards in two arrangements: the same cards, a different one in hand.
SILO_HANDS = (
    (["Blonde MerWitch"], ["Bone Wand", "Phyllis", "Teleport"]),
    (["Bone Wand"], ["Blonde MerWitch", "Phyllis", "Teleport"]),
)


def silo_position(hand, deck):
    return position(
        {
            "actions": 2,
            "p0": {"landscapes": CF, "buildings": ["Silo of Truth", "", "", ""], "hand": [], "deck": DECK},
            "p1": {"landscapes": BP, "creatures": ["", "Evil Eye", "", ""], "hand": hand, "deck": deck},
        },
        bot="planner",
    )


def test_planner_copy_deals_the_opponents_unseen_cards_whatever_their_real_place():
    copies = []
    for hand, deck in SILO_HANDS:
        s, sim = silo_position(hand, deck)
        planner.copy_position(sim, s, 0, np.uint64(7))
        pl = sim.piles
        copies.append((list(pl.hand[1, : pl.hand_n[1]]), list(pl.deck[1, : pl.deck_n[1]])))
        assert sorted(copies[-1][0] + copies[-1][1]) == sorted(
            s.piles.hand[1, :1].tolist() + s.piles.deck[1, :3].tolist()
        )
    assert copies[0] == copies[1]


def test_planner_choice_does_not_depend_on_the_opponents_hidden_hand():
    # Silo of Truth steals a random card of the opponent's hand: a free 3/9 in one arrangement,
    # a Bone Wand in the other. The planner may not know which, so it must choose the same.
    choices = [decide(silo_position(hand, deck), "planner") for hand, deck in SILO_HANDS]
    assert choices[0] == choices[1]
