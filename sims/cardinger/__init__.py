"""Cardinger: 2 players, 20-card decks drawn from a 74-card pool, first to 20 points (see RULES.md)."""

from pathlib import Path

from sims.core import GameInfo, GameSpec, Variant
from sims.core.spec import lazy_game

VARIANTS = {  # rulings file, "Variants"
    "modern": Variant({}, note="the rulebook's default rules (R1-R20)"),
    "digital": Variant({"replenish_timing": "start_of_next_turn"}, note="R15: replenish at the next turn's start"),
    "starter_pool": Variant({"card_sets": "starter,booster1"}, note="R1/R2: Starter + Booster 1 (16 zero-cost cards)"),
    "shared_set": Variant({"deck_source": "shared_set"}, note="R2: both decks drawn alternately from one set"),
    "with_gun_imp": Variant({"include_placeholders": True}, note="R1: adds the placeholder Gun Imp (guessed numbers)"),
    "uniform_decks": Variant({"deck_builder": "uniform_random"}, note="R2: 20 uniform cards, cost-8 cards allowed"),
    "classic": Variant({}, note="R21: the rulebook copy is missing the Classic rule list", runnable=False),
}

INFO = GameInfo(
    name="cardinger",
    rules_version="3",  # bump only when simulated behaviour changes (3: decks by card name, value arms)
    variants=VARIANTS,
)


def _game() -> GameSpec:
    from sims.cardinger import kernel, state
    from sims.cardinger.bots import DEFAULTS, Bot
    from sims.cardinger.log import replay
    from sims.cardinger.params import Params
    from sims.cardinger.pool import load_pool, prepare_pool

    return GameSpec(
        name=INFO.name,
        rules_version=INFO.rules_version,
        seats=2,
        summary="Two-player card duel: play cards by discarding others, attack, draw and score; "
        "first to 20 points wins",
        cards_path=Path(__file__).with_name("cards.csv"),
        load_pool=load_pool,
        params=Params(),
        choices={
            "card_sets": state.CardSet,
            "deck_builder": state.DeckBuilder,
            "deck_source": state.DeckSource,
            "first_seat": state.FirstSeat,
            "play_limit": state.PlayLimit,
            "replenish_timing": state.ReplenishTiming,
            "prosperity_gain": state.ProsperityGain,
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
        enums={"games": {"end_reason": state.EndReason}},
        rows_per_game={
            "games": lambda p: 1,
            "seats": lambda p: 2,
            "cards": lambda p: 2 * p.deck_size,
            "turns": lambda p: 64,
        },
        play_games=kernel.play_games,
        prepare_pool=prepare_pool,
        replay=replay,
        check_games=kernel.check_games,
        value_baselines={
            "same_cost": "a random pool card of the same cost not already in the holder's deck "
            "(value over replacement)",
            "blank": "a blank card of the same cost: 1 HP, no ATK/DEF/DRAW/SCORE, no keywords",
        },
        extra={"card_flags": {"keywords": state.Keyword, "set": state.CardSet}},  # shown by name in pool diffs
    )


__getattr__ = lazy_game(globals(), _game)
