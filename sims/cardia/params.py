"""Every number and switch a designer can tune in Cardia. Defaults = the rulings' default game.

Choice-valued fields hold enum codes (see ``state``); ``GameSpec.make_params`` accepts
their lower-case names, e.g. ``location="bazaar"``. The last group are questions the
rulings leave open, settled by the most literal reading of the rulebook (RULES.md §8).
"""

from typing import NamedTuple


class Params(NamedTuple):
    """Cardia rule parameters (rulings R1-R18); all ints so one object serves Numba too."""

    deck: int = 0  # DeckChoice: i | ii | mixed (per faction, faction_decks) | sweep (game g: g % 2) (R2)
    faction_decks: int = 0  # Faction flags whose deck II cards are used with deck=mixed (R2 "Combining decks")
    location: int = 0  # Location: none | serpent_temple | ... | foggy_swamp | sweep (game g: g % 9) (R3)
    match_format: int = 0  # MatchFormat: single | best_of_3 (R1)
    match_games_cap: int = 5  # best_of_3: games played at most when drawn games keep it open (R1)
    post_tie_win: int = 0  # PostTieWin: five_plus | more_signets (R12)
    mechanical_djinn_check: int = 0  # DjinnCheck: end_of_phase2 | immediate | once (R16)
    foggy_final_reveal: int = 0  # FoggyFinalReveal: discard | resolve (R17)
    win_signets: int = 5  # signets that win at the end of a round (R12)
    opening_hand: int = 5  # cards drawn at set-up (Setup step 5)
    round_draw: int = 1  # cards drawn at the end of a round (R13)
    library_opening_hand: int = 2  # Grand Library: set-up draw (locations.csv)
    library_draw: int = 2  # Grand Library: end-of-round draw
    scrapyard_draw: int = 2  # Scrapyard: end-of-round draw, then 1 card goes under the deck
    bazaar_threshold: int = 1  # Bazaar: a hand this small or smaller refills at once (R17)
    bazaar_refill: int = 4  # Bazaar: cards drawn by that refill (fewer if the deck holds fewer)
    founders_run: int = 3  # Founder's Day: successive winning encounters that win the game
    max_rounds: int = 64  # safety cap: rounds per game before a timeout (R18)
    # counterfactual card value (balance value; DESIGN.md "Card value, counterfactual")
    value_card: int = -1  # card id under test; -1 = normal play
    value_swap: int = 0  # 0 = the holder (seat game % 2) plays with it; 1 = its copy is the baseline
    value_baseline: int = 0  # ValueBaseline: blank | counterpart
    # questions the rulings leave open (RULES.md §8), literal readings by default
    serpent_current: int = 0  # 1 = the Serpent Temple also triggers when the current encounter flips
    serpent_per_change: int = 1  # 1 = each modifier of a two-part ability is its own change (Inventor +3, then -3)
