"""Every number a designer can tune in CardRPG Advanced. Defaults = the ``advanced`` rules.

Choice-valued fields hold enum codes (see ``state``); ``GameSpec.make_params`` accepts
their lower-case names, e.g. ``monster_hp="preset"``. Rulings: R1-R22 of
``../shared/rulings/cardrpg.md`` (summarised in RULES.md).
"""

from typing import NamedTuple


class Params(NamedTuple):
    """CardRPG Advanced rule parameters; all ints so one object serves Numba too."""

    class_card: int = 0  # ClassCard: sweep (character g plays class g % 12) or one class, e.g. spade_king (R22)
    n_sessions: int = 1  # sessions played by one character; > 1 is a campaign (R1)
    death_ends_session: int = 0  # 1 = the first death ends the session (addendum adventure, one life) (R1)
    hand_refill: int = 0  # HandRefill: per_battle | both_out_only (R4)
    hp_reset: int = 0  # HpReset: per_battle | never (R5)
    face_combo: int = 0  # FaceCombo: same_rank | any_face (R8)
    random_attack_joker: int = 0  # RandomAttackJoker: instant_kill | no_damage (R9)
    both_out: int = 0  # BothOut: continue | forfeit (R11)
    both_out_order: int = 0  # BothOutOrder: alternate (the monster's empty turn is lost) | first_striker (RULES §7 Q4)
    empty_hand: int = 0  # EmptyHand: buy_back (gold "at any time" refills it) | lose_turn (RULES §7 Q13)
    ace_club_set: int = 0  # AceClubSet: any_set (any hand cards as one attack, R14) | whole_hand (RULES §7 Q1)
    jack_draws: int = 0  # JackDraws: one_at_a_time (R13) | both_or_none (a Jack's two victory cards, RULES §7 Q9)
    theft_chance_pct: int = 100  # chance (percent) that an eligible thief steals on an attack (R12)
    affinity_includes_aces: int = 0  # 1 = class suit affinity also turns Aces into the class suit (R14)
    buyback_destination: int = 0  # BuybackDestination: hand | draw_pile_bottom (R15)
    ace_diamond_buybacks: int = -1  # buy-backs the A-diamond pays per battle; -1 = unlimited (rulebook; R15 ruling: 1)
    xp_overflow: int = 0  # XpOverflow: lost | carry (R17)
    dice: int = 0  # Dice: d6 | cards (R20)
    diceless_king_joker: int = 0  # DicelessKingJoker: redraw | special (K = 7, Joker = 0) (R20)
    monster_hp: int = 0  # MonsterHp: rolled | preset (R21)
    ace_powers: int = 15  # AcePower flags in play: spades|hearts|diamonds|clubs (counterfactuals)
    jokers: int = 1  # 0 = the classic 52-card deck: Jokers are left out of the pool (classic)
    class_ranks: int = 0  # ClassRanks: jqk | jqka (classic: an Ace may be the class card; sweep over 16)
    stat_roll: int = 0  # StatRoll: advanced (STR ceil(d6/2)+2, HP d6+2) | d6_reroll_low (each a d6, 1-2 rerolled)
    class_powers: int = 1  # 0 = no class abilities (extra draw, XP kept, hand kept, suit affinity) (classic)
    inventory: int = 1  # 0 = no Inventory: no bonus or victory cards are taken, so no gold (classic)
    max_battles: int = 500  # battles per session before it is cut off (battle_cap) (R1)
