"""Blessings & Curses: 2 players, a 52-card deck each, battles of attrition and a curse race (see RULES.md)."""

from pathlib import Path

from sims.core import GameInfo, GameSpec, Variant
from sims.core.spec import lazy_game

VARIANTS = {  # rulings file, "Variants" (revised: R13, R15); the last two are ours (R9's parameter as named switches)
    "modern": Variant(
        {},
        note="our reading of the rulebook (R1-R19): pools hit the hand left from the last battle (R15 carryover_hand); "
        "surrender at the start or the end of one's own turn (R13 own_turn)",
    ),
    "fresh_hand": Variant({"pool_target": "fresh_hand"}, note="R15: pools hit the new 5-card hands (earlier default)"),
    "turn_start_surrender": Variant(
        {"surrender": "turn_start"}, note="R13: surrender only at the start of one's own turn (earlier timing)"
    ),
    "first_reading": Variant(
        {"pool_target": "fresh_hand", "surrender": "turn_start"},
        note="R15 fresh_hand + R13 turn_start: the project's first default (rules_version 1 figures)",
    ),
    "blessing_first": Variant({"blessing_before_curses": True}, note="R16: blessing before curses"),
    "fresh_hand_blessing_first": Variant(
        {"pool_target": "fresh_hand", "blessing_before_curses": True}, note="R15 fresh_hand + R16 blessing first"
    ),
    "literal_recycle": Variant({"destroyed_cards": "recycle"}, note="R10: destroyed cards recycle; no exhaustion"),
    "no_reshuffle": Variant({"midbattle_reshuffle": False}, note="R10: no reshuffle during a battle"),
    "three_plus_two": Variant({"opening": "three_plus_two"}, note="R6: open with 3, draw 2 on every turn"),
    "split_deck": Variant({"deck_mode": "split_one_deck"}, note="R3: one deck split, 26 cards each"),
    "arranged_hands": Variant({"hand_order": "player_arranged"}, note="R4: owners arrange their hands"),
    "hidden_hands": Variant({"open_hands": False}, note="R4: attackers see positions only (no identity, no Health)"),
    "no_surrender": Variant({"surrender": "never"}, note="R13: no surrender"),
    "no_face_bonus": Variant({"face_bonus": 0}, note="R9: face cards get no +5/-5 (the rule's counterfactual)"),
    "face_bonus_seat1_only": Variant(
        {"face_bonus_seats": "seat_1"}, note="R9 one-sided: seat 0 plays without the face rule (its value to a player)"
    ),
}

INFO = GameInfo(
    name="blessings",
    rules_version="3",  # bump only when simulated behaviour changes (2: R13, R15 defaults; bots. 3: play order, R7)
    variants=VARIANTS,
)


def _game() -> GameSpec:
    from sims.blessings import kernel, state
    from sims.blessings.bots import DEFAULTS, Bot
    from sims.blessings.log import replay
    from sims.blessings.params import Params
    from sims.blessings.pool import VALUE_BASELINES, load_pool, prepare_pool

    return GameSpec(
        name=INFO.name,
        rules_version=INFO.rules_version,
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
            "value_baseline": state.ValueBaseline,
        },
        variants=INFO.variants,
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
        value_baselines=VALUE_BASELINES,
    )


__getattr__ = lazy_game(globals(), _game)
