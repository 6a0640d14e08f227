"""Cardia (Duel for Cardia): 2 players, identical 16-card decks, simultaneous hidden encounters (see RULES.md)."""

from itertools import product
from pathlib import Path

from sims.cardia import state  # its enums name the variants; state.py imports the jit, so INFO loads Numba here
from sims.core import GameInfo, GameSpec, Variant
from sims.core.spec import lazy_game

LOCATIONS = [loc.name.lower() for loc in state.Location if loc not in (state.Location.NONE, state.Location.SWEEP)]
FACTIONS = [f.name.lower() for f in state.Faction]


def _variants() -> dict[str, Variant]:
    """Return the rulings' variants (R1-R3, R12, R16, R17), the full deck x location grid and mixed decks."""
    first = Variant({"deck": "i", "location": "none"}, note="rulebook default for new players: deck I, no location")
    out = {"first_games": first, "modern": first, "deck_1": first}
    deck_ii = Variant({"deck": "ii", "location": "none"}, note="R2: deck II, no location (the rulebook's advice)")
    out |= {"deck_ii": deck_ii, "deck_2": deck_ii}
    for loc in LOCATIONS:
        skulls = state.LOCATION_DIFFICULTY[state.Location[loc.upper()]]
        out[f"loc_{loc}"] = Variant({"deck": "i", "location": loc}, note=f"R3: deck I at {loc} (difficulty {skulls})")
        out[f"deck_ii_{loc}"] = Variant(
            {"deck": "ii", "location": loc}, note=f"R3: deck II at {loc} (difficulty {skulls + 1})"
        )
    for code in product(("I", "II"), repeat=4):
        if len(set(code)) == 1:
            continue
        chosen = ",".join(f for f, d in zip(FACTIONS, code, strict=True) if d == "II")
        out[f"mixed_{'_'.join(code)}"] = Variant(
            {"deck": "mixed", "faction_decks": chosen}, note="R2 combining decks: Rebellion, Academy, Guild, Dynasty"
        )
    out |= {
        "grid": Variant({"deck": "sweep", "location": "sweep"}, note="R3: game g plays deck g//9%2 at location g%9"),
        "locations": Variant({"deck": "i", "location": "sweep"}, note="R3: deck I, game g at location g % 9"),
        "decks": Variant({"deck": "sweep", "location": "none"}, note="R2: game g plays deck I or II by g % 2"),
        "best_of_3": Variant({"match_format": "best_of_3"}, note="R1: best-of-three matches, deck I"),
        "deck_ii_best_of_3": Variant({"deck": "ii", "match_format": "best_of_3"}, note="R1: best of three, deck II"),
        "djinn_immediate": Variant({"mechanical_djinn_check": "immediate"}, note="R16: the earlier Djinn reading"),
        "djinn_once": Variant({"mechanical_djinn_check": "once"}, note="R16: the Djinn checked once (BGA)"),
        "deck_ii_djinn_immediate": Variant(
            {"deck": "ii", "mechanical_djinn_check": "immediate"}, note="R16 with deck II (where the Djinn is)"
        ),
        "deck_ii_djinn_once": Variant({"deck": "ii", "mechanical_djinn_check": "once"}, note="R16 once, deck II"),
        "more_signets_after_tie": Variant({"post_tie_win": "more_signets"}, note="R12: after a 5+ tie, more wins"),
        "foggy_resolve": Variant(
            {"location": "foggy_swamp", "foggy_final_reveal": "resolve"}, note="R17: the last face-down encounter plays"
        ),
    }
    return out


INFO = GameInfo(
    name="cardia",
    rules_version="1",  # bump only when simulated behaviour changes
    variants=_variants(),
    card_events=("activations", "flips"),
)


def _game() -> GameSpec:
    from sims.cardia import kernel
    from sims.cardia.bots import DEFAULTS, Bot
    from sims.cardia.log import replay
    from sims.cardia.params import Params
    from sims.cardia.pool import load_pool, prepare_pool
    from sims.cardia.scenario import SCENARIO_KEYS, play_scenario

    return GameSpec(
        name=INFO.name,
        rules_version=INFO.rules_version,
        seats=2,
        summary="Two-player duel of simultaneous hidden cards; losing an encounter activates its ability; "
        "5 signets win",
        cards_path=Path(__file__).with_name("cards.csv"),
        load_pool=load_pool,
        params=Params(),
        choices={
            "deck": state.DeckChoice,
            "faction_decks": state.FactionSet,
            "location": state.Location,
            "match_format": state.MatchFormat,
            "post_tie_win": state.PostTieWin,
            "mechanical_djinn_check": state.DjinnCheck,
            "foggy_final_reveal": state.FoggyFinalReveal,
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
            "games": {"end_reason": state.EndReason, "deck": state.DeckChoice, "location": state.Location},
            "turns": {"reveal": state.Result},
            "card_dim": {"deck": state.Deck, "faction": state.Faction, "effect": state.Ability},
        },
        rows_per_game={
            "games": lambda p: 1,
            "seats": lambda p: 2,
            "cards": lambda p: 32 * (2.5 if p.match_format == state.MatchFormat.BEST_OF_3 else 1),
            "turns": lambda p: 14 * (2.5 if p.match_format == state.MatchFormat.BEST_OF_3 else 1),
        },
        play_games=kernel.play_games,
        prepare_pool=prepare_pool,
        replay=replay,
        check_games=kernel.check_games,
        default_variant="first_games",
        turn_unit="round",
        play_scenario=play_scenario,
        value_baselines=state.VALUE_BASELINES,
        extra={"scenario_keys": SCENARIO_KEYS, "card_events": INFO.card_events},
    )


__getattr__ = lazy_game(globals(), _game)
