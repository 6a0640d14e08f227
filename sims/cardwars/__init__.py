"""Card Wars: lane combat with the four Collector's Pack starter decks, 25 Hit Points (see RULES.md)."""

from pathlib import Path

from sims.core import GameInfo, GameSpec, Variant
from sims.core.spec import lazy_game

STANDARD = "the rulebook's rules (R1-R22): random starter decks per seat, random first player"
DECKS = ("finn", "jake", "bmo", "rainicorn")


def _pairing(a: str, b: str) -> dict[str, str]:
    return {"deck_0": a, "deck_1": b}


VARIANTS = {  # rulings file, "Variants"
    "standard": Variant({}, note=STANDARD),
    "modern": Variant({}, note="alias of standard (the project's default variant name)"),
    "cp1_finn_vs_jake": Variant(_pairing("finn", "jake"), note="Collector's Pack 1: Finn (seat 0) vs Jake"),
    "cp2_bmo_vs_rainicorn": Variant(_pairing("bmo", "rainicorn"), note="Collector's Pack 2: BMO vs Lady Rainicorn"),
    **{
        f"cross_{a}_vs_{b}": Variant(_pairing(a, b), note=f"cross-pack pairing {a} (seat 0) vs {b}")
        for a, b in (("finn", "bmo"), ("finn", "rainicorn"), ("jake", "bmo"), ("jake", "rainicorn"))
    },
    **{f"mirror_{d}": Variant(_pairing(d, d), note=f"both seats play {d} (a check on seat bias)") for d in DECKS},
    "no_first_player_rule": Variant({"first_player_rule": "off"}, note="R3 off: the first player may Floop and Fight"),
    "no_first_draw": Variant({"first_turn_draw": False}, note="R4: the first player skips the turn-1 draw"),
    "no_mulligan": Variant({"mulligan": "off"}, note="R5: no mulligan"),
    "cool_guy_series": Variant(
        {"first_player": "previous_winner"}, note="R2: series of 10 games; the last winner goes first"
    ),
    "paid_cost_landscapes": Variant(
        {"landscape_check": "paid_cost"}, note="R7: Landscapes checked against the paid cost"
    ),
    "own_side_adjacency": Variant(
        {"adjacent_lane_targets": "own_side"}, note="R13: Beach Mummy and Woad Mobile Home reach own Creatures only"
    ),
    "no_cool_dog_chain": Variant({"cool_dog_chain": "off"}, note="R14: a Cool Dog never protects another Cool Dog"),
}

INFO = GameInfo(
    name="cardwars",
    rules_version="2",  # bump only when simulated behaviour changes
    variants=VARIANTS,
)


def _game() -> GameSpec:
    from sims.cardwars import kernel, state
    from sims.cardwars.bots import DEFAULTS, Bot
    from sims.cardwars.log import replay
    from sims.cardwars.params import Params
    from sims.cardwars.pool import load_pool, prepare_pool
    from sims.cardwars.scenario import play_scenario
    from sims.core import DeckRules

    return GameSpec(
        name=INFO.name,
        rules_version=INFO.rules_version,
        seats=2,
        summary="Lane combat TCG (Adventure Time): Creatures, Buildings, Spells on four lanes; 25 Hit Points",
        cards_path=Path(__file__).with_name("cards.csv"),
        load_pool=load_pool,
        params=Params(),
        choices={
            "deck_builder": state.DeckBuilder,
            "deck_0": state.DeckChoice,
            "deck_1": state.DeckChoice,
            "first_player": state.FirstPlayer,
            "first_player_rule": state.OnOff,
            "mulligan": state.OnOff,
            "landscape_check": state.LandscapeCheck,
            "adjacent_lane_targets": state.AdjacentTargets,
            "cool_dog_chain": state.OnOff,
            "repeat_targets": state.RepeatTargets,
            "silo_unplayable": state.SiloUnplayable,
            "empty_pick": state.EmptyPick,
            "turn_bonus": state.TurnBonus,
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
            "games": {"end_reason": state.EndReason, "deck_0": state.DeckName, "deck_1": state.DeckName},
            "seats": {"deck": state.DeckName},
            "cards": {"first_lane": state.PlayedLane},
            "card_dim": {"type": state.CardType, "land": state.Landscape},
        },
        rows_per_game={
            "games": lambda p: 1,
            "seats": lambda p: 2,
            "cards": lambda p: 48,
            "turns": lambda p: 24,
        },
        play_games=kernel.play_games,
        prepare_pool=prepare_pool,
        replay=replay,
        check_games=kernel.check_games,
        default_variant="standard",
        play_scenario=play_scenario,
        deck_rules=DeckRules(min_size=40, max_size=state.MAX_DECK, max_copies=3),  # R1, E18
        deck_params=("deck_0", "deck_1"),
        value_baselines={  # issue 9; RULES.md §5
            "vanilla": "a Creature of the card's cost and Landscape with the decks' vanilla stats "
            "(Spells, Buildings too)",
            "no_ability": "the same card with its ability removed",
        },
    )


__getattr__ = lazy_game(globals(), _game)
