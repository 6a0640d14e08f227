"""Every number a designer can tune in Blessings & Curses. Defaults = the ``modern`` reading.

Choice-valued fields hold enum codes (see ``state``); ``GameSpec.make_params`` accepts
their lower-case names, e.g. ``pool_target="carryover_hand"``. Rulings: R1-R19 of
``../shared/rulings/blessings.md`` (summarised in RULES.md).
"""

from typing import NamedTuple


class Params(NamedTuple):
    """Blessings & Curses rule parameters; all ints so one object serves Numba too."""

    deck_mode: int = 0  # DeckMode: own_52 (a full deck each) | split_one_deck (26 random cards each) (R3)
    hand_order: int = 0  # HandOrder: draw_order (new cards at the right) | player_arranged (R4)
    open_hands: int = 1  # 1 = hands face up; 0 = the opposing hand shows positions only: no identity, no Health (R4)
    opening: int = 0  # Opening: five_at_setup | three_plus_two (R6)
    destroyed_cards: int = 0  # DestroyedCards: out_for_battle | recycle (R10)
    midbattle_reshuffle: int = 1  # 1 = an empty deck is refilled from the discard pile during a battle (R10, R11)
    surrender: int = 2  # Surrender: own_turn (start or end of one's own turn) | turn_start | never (R13)
    pool_target: int = 1  # PoolTarget: carryover_hand (the hand left from the last battle) | fresh_hand (R15)
    blessing_before_curses: int = 0  # 1 = the blessing is added before the curses hit (R16)
    face_bonus: int = 5  # face cards: +this to bless/curse, -this to discard for blessing (R9)
    face_bonus_seats: int = 3  # Seats flags: which seats' face cards get face_bonus (a one-sided counterfactual)
    card_health: int = 20  # Health of a card entering a hand (R18)
    turn_draw: int = 2  # cards drawn at the start of a turn (R6)
    max_turns_per_battle: int = 200  # turns (both players) before a battle is drawn (R19)
    max_battles: int = 50  # battles before the game is unresolved (R19)
    value_card: int = -1  # card id (row of the prepared pool) under test; -1 = normal play (default)
    value_swap: int = 0  # 0 = the holder (seat game % 2) plays with the card; 1 = its copy is the baseline card
    value_baseline: int = 0  # ValueBaseline: blank | next_suit (which card replaces it with value_swap = 1)
