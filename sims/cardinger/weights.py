"""Cardinger bot weights: the ``BotParams`` fields, their vector indices (``W``) and each bot's defaults.

All bots share one float vector layout (``scratch.weights[p]``); ``appraise`` and ``bots``
read it by ``W`` index. Weights are overridable from the CLI or a TOML spec by field name.
"""

from enum import IntEnum
from typing import NamedTuple

from sims.cardinger.state import N_WEIGHTS


class BotParams(NamedTuple):
    """Bot weights (floats); all bots share the fields, each has its own defaults."""

    score: float = 3.0  # card value per printed SCORE
    draw: float = 1.5  # card value per printed DRAW
    atk: float = 1.0  # card value per printed ATK
    def_: float = 0.5  # card value per printed DEF (and per point of current DEF, DECAY)
    hp: float = 0.5  # card value per printed HP (and per point of current HP: damage, DEVOUR, FRAGILE)
    ready: float = 0.5  # card value of READY
    double: float = 1.0  # card value of DOUBLE
    omni: float = 1.0  # card value of OMNI
    steal: float = 1.0  # card value of STEAL
    prosperity: float = 1.0  # card value of PROSPERITY
    fragile: float = -1.0  # card value of FRAGILE
    decay: float = -0.3  # card value of DECAY
    devour: float = 0.3  # card value of DEVOUR
    cost: float = 0.6  # value lost per card discarded to pay a cost, whichever card it is
    play_min: float = 0.0  # play a card only if its value less its price (cost, discards, PROSPERITY) >= this
    retire_margin: float = 2.0  # retire the weakest field card for a hand card this much better
    act_score: float = 2.0  # action value per point scored (and per PROSPERITY point a play or draw costs or wins)
    act_draw: float = 1.0  # action value per card drawn
    act_kill: float = 1.0  # action value per value of a destroyed opposing card
    act_hit: float = 0.5  # action value per value of a damaged (not destroyed) card, / its HP
    act_steal: float = 2.0  # action value per STEAL point
    act_self_loss: float = 0.5  # action value per change of value of the acting card (DEVOUR, DECAY, FRAGILE)
    act_min: float = 0.0  # take an action only if its value exceeds this
    threat: float = 0.0  # tuned: extra kill value per opposing SCORE when the opponent is near target
    danger_turns: float = 1.0  # tuned: "near target" = opponent's field scores reach it within this many turns
    draw_first: float = 0.0  # tuned: hold PROSPERITY scores while a draw action is available (> 0 = on)
    cycle: float = 0.0  # tuned: extra value of a draw action that empties the deck (a replenish point, R15)
    discard: float = 0.4  # value lost per value of the cards discarded to pay a cost (the lowest-valued ones)


class W(IntEnum):
    """Index of each ``BotParams`` field in a weight vector."""

    SCORE = 0
    DRAW = 1
    ATK = 2
    DEF = 3
    HP = 4
    READY = 5
    DOUBLE = 6
    OMNI = 7
    STEAL = 8
    PROSPERITY = 9
    FRAGILE = 10
    DECAY = 11
    DEVOUR = 12
    COST = 13
    PLAY_MIN = 14
    RETIRE_MARGIN = 15
    ACT_SCORE = 16
    ACT_DRAW = 17
    ACT_KILL = 18
    ACT_HIT = 19
    ACT_STEAL = 20
    ACT_SELF_LOSS = 21
    ACT_MIN = 22
    THREAT = 23
    DANGER_TURNS = 24
    DRAW_FIRST = 25
    CYCLE = 26
    DISCARD = 27


assert [m.name.lower() for m in W] == [f.rstrip("_") for f in BotParams._fields]
assert len(BotParams._fields) <= N_WEIGHTS

DEFAULTS = {
    "random": BotParams(),
    # cost and discard from a 14-point sweep against greedy with per-card prices only (cost 1, discard 0):
    # 51.5 % [50.8, 52.2] of the sweep's 20 000 paired games; 51.1 % [50.6, 51.6] of 40 000 fresh ones.
    "greedy": BotParams(),
    # benchmarks/tune_cardinger.py --steps 2000 --games 6000 --seed 7 (vs greedy, rules_version 2), keyword
    # weights sign-bounded, started from the rules_version 1 weights (DECAY 0.215 and DEVOUR -0.0732 moved to 0):
    # 74.4 % [74.0, 74.9] over 40 000 fresh games, seats balanced (the start: 73.3 % [72.9, 73.7]).
    # draw_first < 0 = off; act_min < 0: it also takes actions it values slightly below 0.
    "tuned": BotParams(
        score=0.674,
        draw=1.28,
        atk=1.9,
        def_=2.13,
        hp=0.702,
        ready=1.71,
        double=1.15,
        omni=0.163,
        steal=0.992,
        prosperity=0.636,
        fragile=-0.481,
        decay=-0.57,
        devour=1.12,
        cost=0.698,
        play_min=-0.103,
        retire_margin=0.998,
        act_score=0.753,
        act_draw=1.06,
        act_kill=0.97,
        act_hit=0.696,
        act_steal=0.866,
        act_self_loss=0.13,
        act_min=-0.577,
        threat=5.85,
        danger_turns=6.18,
        draw_first=-1.02,
        cycle=3.28,
        discard=0.0477,
    ),
}
