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
    open_hands: int = 1  # 1 = hands face up; 0 = the attacker sees positions and Health only (R4)
    opening: int = 0  # Opening: five_at_setup | three_plus_two (R6)
    destroyed_cards: int = 0  # DestroyedCards: out_for_battle | recycle (R10)
    midbattle_reshuffle: int = 1  # 1 = an empty deck is refilled from the discard pile during a battle (R10, R11)
    surrender: int = 0  # Surrender: turn_start (before the draw) | never (R13)
    pool_target: int = 0  # PoolTarget: fresh_hand | carryover_hand (R15)
    blessing_before_curses: int = 0  # 1 = the blessing is added before the curses hit (R16)
    face_bonus: int = 5  # face cards: +this to bless/curse, -this to discard for blessing (R9)
    face_bonus_seats: int = 3  # Seats flags: which seats' face cards get face_bonus (a one-sided counterfactual)
    card_health: int = 20  # Health of a card entering a hand (R18)
    turn_draw: int = 2  # cards drawn at the start of a turn (R6)
    max_turns_per_battle: int = 200  # turns (both players) before a battle is drawn (R19)
    max_battles: int = 50  # battles before the game is unresolved (R19)
