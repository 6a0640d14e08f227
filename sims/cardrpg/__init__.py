"""CardRPG Advanced: one character against the deck; sessions of battles, levels, Inventory (see RULES.md)."""

from pathlib import Path

from sims.core import GameInfo, GameSpec, Variant
from sims.core.spec import lazy_game

ADVANCED = "the rulebook's Advanced rules, first session of a fresh character (R1-R22, RULES.md §7)"
FIRST_READING = {  # rules_version 1's answers to the settled questions revised in version 2 (RULES.md §7)
    "ace_club_set": "whole_hand",
    "empty_hand": "lose_turn",
    "both_out_order": "first_striker",
    "jack_draws": "both_or_none",
    "ace_diamond_buybacks": 1,
}
VARIANTS = {  # rulings file, "Variants"; the no_ace_* variants switch one Ace power off (its value)
    "advanced": Variant({}, note=ADVANCED),
    "modern": Variant({}, note="alias of advanced (the project's default variant name)"),
    "first_reading": Variant(
        FIRST_READING,
        note="rules_version 1's readings: A-club whole hand, empty hand loses the turn, the first striker again "
        "after both out, a Jack's 2 victory cards both or none, the A-diamond pays 1 buy-back a battle (R15 ruling)",
    ),
    "luck_gem_once": Variant(
        {"ace_diamond_buybacks": 1}, note="R15 ruling: the A-diamond pays one buy-back per battle (rulebook: no limit)"
    ),
    "campaign": Variant({"n_sessions": 10}, note="R1: one character through 10 sessions"),
    "adventure": Variant({"death_ends_session": True}, note="addendum: one life, the first death ends it"),
    "diceless": Variant({"dice": "cards"}, note="addendum R20: dice from cards, K/Joker drawn again"),
    "diceless_special": Variant({"dice": "cards", "diceless_king_joker": "special"}, note="R20: K = 7, Joker = 0"),
    "preset_hp": Variant({"monster_hp": "preset"}, note="addendum R21: monster HP dice fixed at 2/4/6"),
    "no_ace_spades": Variant({"ace_powers": "hearts,diamonds,clubs"}, note="counterfactual: A-spade has no power"),
    "no_ace_hearts": Variant({"ace_powers": "spades,diamonds,clubs"}, note="counterfactual: A-heart has no power"),
    "no_ace_diamonds": Variant({"ace_powers": "spades,hearts,clubs"}, note="counterfactual: A-diamond has no power"),
    "no_ace_clubs": Variant({"ace_powers": "spades,hearts,diamonds"}, note="counterfactual: A-club has no power"),
    "classic": Variant(
        {
            "jokers": False,
            "class_ranks": "jqka",
            "stat_roll": "d6_reroll_low",
            "class_powers": False,
            "inventory": False,
            "theft_chance_pct": 0,
        },
        note="LABELLED APPROXIMATION of the original CardRPG: 52 cards, J/Q/K/A classes, d6 stats with 1-2 "
        "rerolled, no class powers, no Inventory, no theft; Advanced combat; split decks NOT simulated",
    ),
}

INFO = GameInfo(
    name="cardrpg",
    rules_version="2",
    variants=VARIANTS,
)


def _game() -> GameSpec:
    from sims.cardrpg import kernel, state
    from sims.cardrpg.bots import DEFAULTS, Bot
    from sims.cardrpg.log import replay
    from sims.cardrpg.params import Params
    from sims.cardrpg.pool import load_pool, prepare_pool

    return GameSpec(
        name=INFO.name,
        rules_version=INFO.rules_version,
        seats=1,
        summary="Solitaire RPG: one character (a J/Q/K class) fights monsters dealt from the deck, levels up, dies",
        cards_path=Path(__file__).with_name("deck.csv"),
        load_pool=load_pool,
        params=Params(),
        choices={
            "class_card": state.ClassCard,
            "class_ranks": state.ClassRanks,
            "stat_roll": state.StatRoll,
            "hand_refill": state.HandRefill,
            "hp_reset": state.HpReset,
            "face_combo": state.FaceCombo,
            "random_attack_joker": state.RandomAttackJoker,
            "both_out": state.BothOut,
            "both_out_order": state.BothOutOrder,
            "empty_hand": state.EmptyHand,
            "ace_club_set": state.AceClubSet,
            "jack_draws": state.JackDraws,
            "buyback_destination": state.BuybackDestination,
            "xp_overflow": state.XpOverflow,
            "dice": state.Dice,
            "diceless_king_joker": state.DicelessKingJoker,
            "monster_hp": state.MonsterHp,
            "ace_powers": state.AcePower,
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
            "games": {"end_reason": state.EndReason, "class_card": state.ClassCard},
            "seats": {"class_card": state.ClassCard},
            "turns": {"monster_kind": state.MonsterKind, "outcome": state.Outcome},
            "card_dim": {"suit": state.Suit, "kind": state.Kind},
        },
        rows_per_game={
            "games": lambda p: p.n_sessions,
            "seats": lambda p: p.n_sessions,
            "cards": lambda p: 8 * p.n_sessions,
            "turns": lambda p: 16 * p.n_sessions,
        },
        play_games=kernel.play_games,
        prepare_pool=prepare_pool,
        replay=replay,
        check_games=kernel.check_games,
        default_variant="advanced",
        turn_unit="battle",
    )


__getattr__ = lazy_game(globals(), _game)
