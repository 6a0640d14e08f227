"""Every number a designer can tune in Cardinger. Defaults = the modern rulebook.

Choice-valued fields hold enum codes (see ``state``); ``GameSpec.make_params`` accepts
their lower-case names, e.g. ``replenish_timing="start_of_next_turn"``.
"""

from typing import NamedTuple


class Params(NamedTuple):
    """Cardinger rule parameters (rulings R1-R21); all ints so one object serves Numba too."""

    card_sets: int = 15  # CardSet flags in the pool: starter|booster1|booster2|booster3 (R1)
    include_placeholders: int = 0  # 1 = keep placeholder rows such as Gun Imp (R1)
    deck_builder: int = 0  # DeckBuilder: recommended_random | uniform_random | fixed (R2)
    deck_source: int = 0  # DeckSource: own_set (each player a full pool) | shared_set (R2)
    builder_cost_target: int = 10  # recommended method: draw cost-1+ cards until total >= this (R2)
    builder_excluded_cost: int = 8  # recommended method: cards of this cost are removed first (R2)
    first_seat: int = 0  # FirstSeat: random (R3) | alternate (seat g % 2 starts)
    target_score: int = 20  # points that win at once (R10)
    deck_size: int = 20  # unique cards per deck (R2)
    opening_hand: int = 4  # cards each player draws before the first turn
    hand_limit: int = 10  # most cards a hand may hold (R9, R16)
    field_limit: int = 5  # most cards in a field (R4-R6)
    play_limit: int = 0  # PlayLimit: half_hand_up (ceil(hand/2) plays) | unlimited (R4)
    first_turn_draw: int = 0  # 1 = the first player also draws on turn 1 (R16)
    idle_extra_draw: int = 1  # 1 = draw 1 extra card after a turn with no play and no action (R17)
    replenish_timing: int = 0  # ReplenishTiming: end_of_turn (tabletop) | start_of_next_turn (digital) (R15)
    replenish_point: int = 1  # points scored for replenishing the deck (R15)
    prosperity_step: int = 5  # PROSPERITY: +1 point per this many cards in hand (R14)
    prosperity_gain: int = 0  # ProsperityGain: one_gain (SCORE + bonus at once) | second_gain (R10, RULES.md §8.6)
    devour_hp_cap: int = 4  # DEVOUR never raises current HP above this (R11)
    max_turns: int = 200  # turns (both players) before the game is a timeout (R20)
    # counterfactual card value (balance value; RULES.md §10): the holder is seat game % 2
    value_card: int = -1  # card id (row of the prepared pool) under test; -1 = normal play
    value_swap: int = 0  # 0 = the holder plays with the card; 1 = its copy is replaced by the baseline
    value_baseline: int = 0  # ValueBaseline: same_cost (a same-cost pool card not in the deck) | blank
