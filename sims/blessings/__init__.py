"""Blessings & Curses: 2 players, a 52-card deck each, battles of attrition and a curse race (see RULES.md)."""

from pathlib import Path

from sims.blessings import kernel, state
from sims.blessings.bots import DEFAULTS, Bot
from sims.blessings.log import replay
from sims.blessings.params import Params
from sims.blessings.pool import load_pool, prepare_pool
from sims.core import GameSpec, Variant

VARIANTS = {  # rulings file, "Variants"; the last one is ours (R9's parameter as a named switch)
    "modern": Variant({}, note="our reading of the rulebook (R1-R19)"),
    "carryover_pools": Variant({"pool_target": "carryover_hand"}, note="R15: pools hit last battle's hand"),
    "blessing_first": Variant({"blessing_before_curses": True}, note="R16: blessing before curses"),
    "carryover_blessing_first": Variant(
        {"pool_target": "carryover_hand", "blessing_before_curses": True}, note="R15 + R16"
    ),
    "literal_recycle": Variant({"destroyed_cards": "recycle"}, note="R10: destroyed cards recycle; no exhaustion"),
    "no_reshuffle": Variant({"midbattle_reshuffle": False}, note="R10: no reshuffle during a battle"),
    "three_plus_two": Variant({"opening": "three_plus_two"}, note="R6: open with 3, draw 2 on every turn"),
    "split_deck": Variant({"deck_mode": "split_one_deck"}, note="R3: one deck split, 26 cards each"),
    "arranged_hands": Variant({"hand_order": "player_arranged"}, note="R4: owners arrange their hands"),
    "hidden_hands": Variant({"open_hands": False}, note="R4: attackers see positions only"),
    "no_surrender": Variant({"surrender": "never"}, note="R13: no surrender"),
    "no_face_bonus": Variant({"face_bonus": 0}, note="R9: face cards get no +5/-5 (the rule's counterfactual)"),
    "face_bonus_seat1_only": Variant(
        {"face_bonus_seats": "seat_1"}, note="R9 one-sided: seat 0 plays without the face rule (its value to a player)"
    ),
}

GAME = GameSpec(
    name="blessings",
    rules_version="1",  # bump only when simulated behaviour changes
    seats=2,
    summary="Two-player battles of attack, blessing and curse; curses left at a battle's end wipe hands out",
    cards_path=Path(__file__).with_name("cards.csv"),
    load_pool=load_pool,
    params=Params(),
    choices={
        "deck_mode": state.DeckMode,
        "hand_order": state.HandOrder,
        "opening": state.Opening,
        "destroyed_cards": state.DestroyedCards,
        "surrender": state.Surrender,
        "pool_target": state.PoolTarget,
        "face_bonus_seats": state.Seats,
    },
    variants=VARIANTS,
    bots=tuple(b.name.lower() for b in Bot),
    bot_params=DEFAULTS,
    tables={
        "games": state.GAME_DTYPE,
        "seats": state.SEAT_DTYPE,
        "cards": state.CARD_RECORD_DTYPE,
        "turns": state.TURN_DTYPE,
    },
    enums={
        "games": {"end_reason": state.EndReason, "final_how": state.BattleEnd},
        "turns": {"how": state.BattleEnd},
        "card_dim": {"suit": state.Suit, "type": state.CardType},
    },
    rows_per_game={
        "games": lambda p: 1,
        "seats": lambda p: 2,
        "cards": lambda p: 52 if p.deck_mode == state.DeckMode.SPLIT_ONE_DECK else 104,
        "turns": lambda p: 4,
    },
    play_games=kernel.play_games,
    prepare_pool=prepare_pool,
    replay=replay,
    check_games=kernel.check_games,
    turn_unit="battle",
)
