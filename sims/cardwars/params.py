"""Every number a designer can tune in Card Wars. Defaults = the rulebook (``standard``).

Choice-valued fields hold enum codes (see ``state``); ``GameSpec.make_params`` accepts
their lower-case names, e.g. ``first_player_rule="off"`` or ``deck_0="finn"``. Rulings:
R1-R22 of ``../shared/rulings/cardwars.md``; the questions we settled are RULES.md §8.
"""

from typing import NamedTuple


class Params(NamedTuple):
    """Card Wars rule parameters; all ints so one object serves Numba too."""

    deck_builder: int = 0  # DeckBuilder: starter (deck_0/deck_1) | fixed (--decks FILE lists)
    deck_0: int = 0  # DeckChoice of seat 0: random | finn | jake | bmo | rainicorn (R1)
    deck_1: int = 0  # DeckChoice of seat 1
    first_player: int = 0  # FirstPlayer: random | previous_winner (R2; cool_guy_series)
    series_length: int = 10  # previous_winner: games per series (the first one is random)
    first_player_rule: int = 1  # OnOff: the first player may not Floop or Fight on turn 1 (R3)
    first_turn_draw: int = 1  # 1 = the first player draws on turn 1 (R4)
    mulligan: int = 1  # OnOff: one mulligan per player (R5)
    hit_points: int = 25  # starting Hit Points
    actions_per_turn: int = 2  # Actions at the start of each turn
    opening_hand: int = 5  # cards drawn at set-up (and after a mulligan)
    landscape_check: int = 0  # LandscapeCheck: printed_cost | paid_cost (R7)
    adjacent_lane_targets: int = 0  # AdjacentTargets: both_sides | own_side (R13)
    cool_dog_chain: int = 1  # OnOff: a Cool Dog next to another is protected by it (R14)
    repeat_targets: int = 0  # RepeatTargets: mandatory | up_to (R15, Patchy the Pumpkin)
    silo_unplayable: int = 0  # SiloUnplayable: discard | thief_hand (R18)
    empty_pick: int = 0  # EmptyPick: allowed | forbidden (RULES.md §8 Q1)
    turn_bonus: int = 0  # TurnBonus: continuous | at_resolution (RULES.md §8 Q2)
    max_turns: int = 200  # turns (both players) before the game is a timeout (R21)
    value_card: int = -1  # card id under test (counterfactual value, issue 9); -1 = normal play
    value_swap: int = 0  # 0 = the holder (seat game % 2) plays the card; 1 = its copies are the baseline
    value_baseline: int = 0  # ValueBaseline: vanilla | no_ability
