"""Fixtures for balance tests: small run directories with answers countable by hand.

``GAMES`` below is the whole dataset of the ``small_run`` fixture; the comments give the
answers the tests expect. ``build_run`` turns such a list into a real run directory
(Cardinger record dtypes -> ``records_to_table`` -> Parquet parts in two chunks ->
manifest -> ``load_run``), so tests exercise the same path as real runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # never require a display

import numpy as np
import polars as pl
import pytest

from balance.io import Run, load_run, write_json
from balance.parts import records_to_table, write_part
from sims.blessings import state as bl
from sims.cardinger.state import CARD_RECORD_DTYPE, GAME_DTYPE, SEAT_DTYPE, TURN_DTYPE, EndReason
from sims.cardrpg import state as rpg

BOTS = ("alpha", "beta")
SCRIPT = "<script>alert(1)</script>"
CARD_DIM = pl.DataFrame(
    {
        "card": pl.Series([0, 1, 2, 3], dtype=pl.Int16),
        "name": ["Bumblebee", SCRIPT, "Pick & Boy", "Unused"],
        "cost": [0, 1, 2, 3],
        "source": ["rulebook", "inferred", "inferred", "inferred"],
        "confidence": ["high", "low", "low", "low"],
    }
)

# Score path = (score_0, score_1) at the end of each turn; first_seat = game % 2; seat 0
# plays bot alpha in even games and beta in odd games. Answers per game:
#   game  winner  turns  lead changes  lead for good  first seat won
#   0     0       5      2 (+ - +)     5              yes
#   1     1       4      0             1              yes
#   2     0       5      1 (- +)       3              yes
#   3     0       4      2 (+ - +)     4              no
#   4     1       3      2 (- + -)     3              no
#   5     -1      3      0             -              (timeout)
# Win rates: seat 0 3/6, seat 1 2/6; alpha 3/6, beta 2/6; moved first 3/6, second 2/6.
GAMES: list[dict[str, Any]] = [
    {"winner": 0, "path": [(1, 0), (1, 2), (3, 2), (3, 3), (5, 3)]},
    {"winner": 1, "path": [(0, 1), (0, 2), (1, 2), (1, 3)]},
    {"winner": 0, "path": [(0, 0), (0, 1), (2, 1), (2, 1), (4, 1)]},
    {"winner": 0, "path": [(1, 0), (1, 1), (1, 2), (3, 2)]},
    {"winner": 1, "path": [(0, 1), (2, 1), (2, 3)]},
    {"winner": -1, "path": [(1, 0), (1, 1), (2, 2)]},
]

# Card rows: (game, seat, card, in_opening_hand, first_drawn_turn, first_played_turn, times_played, damage_dealt).
# Card 0 (seat 0, every game): OH in games 0-1, drawn on turn 2 in games 2-3, never seen in 4-5;
#   played in games 0 (turn 1) and 2 (turn 3). GP 3/6, OH 1/2, GD 2/2, GIH 3/4, GNS 0/2,
#   IWD 0.75, played 2/2, play rate 2/6, turn first played 2.0, damage_dealt mean 2.5.
# Card 1 (seat 1, every game): always in the opening hand; played in games 1 and 4 (turn 2).
#   GP 2/6, OH 2/6, GIH 2/6, GD and GNS n = 0, played 2/2, play rate 2/6.
# Card 2: game 0 only, in both decks: seat 0 drew it on turn 1 (won), seat 1 never (lost).
CARDS: list[tuple[int, ...]] = [
    *[(g, 0, 0, int(g < 2), (0, 0, 2, 2, -1, -1)[g], (1, -1, 3, -1, -1, -1)[g], int(g in (0, 2)), g) for g in range(6)],
    *[(g, 1, 1, 1, 0, 2 if g in (1, 4) else -1, int(g in (1, 4)), 0) for g in range(6)],
    (0, 0, 2, 0, 1, -1, 0, 0),
    (0, 1, 2, 0, -1, -1, 0, 0),
]


def _records(games: Sequence[dict[str, Any]], cards: Sequence[tuple[int, ...]]) -> dict[str, np.ndarray]:
    """Build the four record arrays (realistic Cardinger dtypes) for ``games``."""
    n = len(games)
    g = np.zeros(n, GAME_DTYPE)
    s = np.zeros(2 * n, SEAT_DTYPE)
    turns = np.zeros(sum(len(x["path"]) for x in games), TURN_DTYPE)
    row = 0
    for i, spec in enumerate(games):
        first, winner, path = i % 2, spec["winner"], spec["path"]
        final = path[-1]
        g[i] = (
            i,
            1000 + i,
            first,
            winner,
            len(path),
            EndReason.TIMEOUT if winner < 0 else EndReason.TARGET_SCORE,
            *final,
        )
        for seat in (0, 1):
            rec = s[2 * i + seat]
            rec["game"], rec["seat"], rec["bot"] = i, seat, (i + seat) % 2
            rec["score"], rec["won"], rec["first"] = final[seat], int(winner == seat), int(first == seat)
            rec["draws"], rec["deck"] = i + seat, -1
        for t, (s0, s1) in enumerate(path, start=1):
            turns[row]["game"], turns[row]["turn"], turns[row]["seat"] = i, t, (first + t - 1) % 2
            turns[row]["score_0"], turns[row]["score_1"] = s0, s1
            row += 1
    c = np.zeros(len(cards), CARD_RECORD_DTYPE)
    for j, (game, seat, card, oh, drawn, played, times, damage) in enumerate(cards):
        won = int(games[game]["winner"] == seat)
        c[j] = (game, seat, card, won, oh, drawn, played, times, 0, 0, 0, damage, 0, 0, 0, 0, 0)
    return {"games": g, "seats": s, "cards": c, "turns": turns}


def build_run(
    root: Path,
    games: Sequence[dict[str, Any]] = GAMES,
    cards: Sequence[tuple[int, ...]] = CARDS,
    *,
    variant: str = "modern & <i>new</i>",
    tables: Sequence[str] = ("games", "seats", "cards", "turns"),
    card_dim: pl.DataFrame = CARD_DIM,
) -> Run:
    """Write ``games`` as a two-chunk run directory under ``root`` and open it."""
    root.mkdir(parents=True)
    records = _records(games, cards)
    cut = (len(games) + 1) // 2
    for chunk, (lo, hi) in enumerate([(0, cut), (cut, len(games))]):
        for table in tables:
            rec = records[table]
            part = rec[(rec["game"] >= lo) & (rec["game"] < hi)]
            kwargs: dict[str, Any] = {}
            if table == "games":
                kwargs = {
                    "enums": {"end_reason": EndReason},
                    "constants": {"run_id": root.name, "variant": variant, "chunk": chunk},
                }
            elif table == "seats":
                kwargs = {"names": {"bot": BOTS}}
            write_part(records_to_table(part, **kwargs), root / table, chunk)
    card_dim.write_parquet(root / "cards.parquet")
    manifest = {
        "run_id": root.name,
        "game": "cardinger",
        "variant": variant,
        "rules_version": "1",
        "root_seed": 42,
        "created": "2026-11-22T12:00:00Z",
        "params": {"target_score": 20, "max_turns": 200, "note": "<b>bold</b>"},
        "chunks": [{"index": 0, "status": "done"}, {"index": 1, "status": "done"}],
    }
    write_json(root / "manifest.json", manifest)
    return load_run(root)


@pytest.fixture
def make_run(tmp_path: Path) -> Callable[..., Run]:
    """Return ``build_run`` writing under a fresh temporary directory (``name`` picks the folder)."""

    def make(name: str = "run", *args: Any, **kwargs: Any) -> Run:
        return build_run(tmp_path / name, *args, **kwargs)

    return make


@pytest.fixture
def small_run(make_run: Callable[..., Run]) -> Run:
    """The hand-countable run described by ``GAMES`` and ``CARDS``."""
    return make_run("small")


@pytest.fixture(scope="session")
def shared_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """``small_run`` written once per session, for tests that only read it."""
    return build_run(tmp_path_factory.mktemp("shared") / "small")


@pytest.fixture
def game_specs() -> list[dict[str, Any]]:
    """The per-game specification of ``small_run`` (``GAMES``), for tests that vary it."""
    return [dict(g) for g in GAMES]


@pytest.fixture
def card_specs() -> list[tuple[int, ...]]:
    """The card rows of ``small_run`` (``CARDS``)."""
    return list(CARDS)


@pytest.fixture
def script_name() -> str:
    """The card name that must come out HTML-escaped."""
    return SCRIPT


# -- a game whose turns table has one row per battle (turn_unit "battle") ---------------------
# Blessings & Curses record dtypes. Each battle: (opener seat, battle winner or -1, how, turns,
# winner_bonus); scores (battles won so far) follow from the winners. Answers:
#   game  battles  end reason       winner  final how   battle scores      lead changes  lead for good
#   0     2        wipeout          0       surrender   (1,0) (2,0)        0             1
#   1     3        battle_cap       -1      surrender   (0,1) (0,1) (1,1)  0             -
#   2     1        mutual_wipeout   -1      surrender   (0,1)              0             -
#   3     1        wipeout          1       exhaustion  (1,0)              0             - (winner behind)
# 7 battles: exhaustion 3, surrender 3, turn_cap 1; 1 drawn; of 6 decided the opener won 2
# (exhaustion 2 of 3, surrender 0 of 3); turns per battle mean 245 / 7 = 35, winner_bonus 21 / 7 = 3.
B = bl.BattleEnd
BATTLES: list[dict[str, Any]] = [
    {"reason": bl.EndReason.WIPEOUT, "winner": 0, "turns": 16,
     "battles": [(0, 0, B.EXHAUSTION, 10, 3), (1, 0, B.SURRENDER, 6, 5)]},
    {"reason": bl.EndReason.BATTLE_CAP, "winner": -1, "turns": 212,
     "battles": [(1, 1, B.EXHAUSTION, 8, 2), (0, -1, B.TURN_CAP, 200, 0), (1, 0, B.SURRENDER, 4, 4)]},
    {"reason": bl.EndReason.MUTUAL_WIPEOUT, "winner": -1, "turns": 5, "battles": [(0, 1, B.SURRENDER, 5, 1)]},
    {"reason": bl.EndReason.WIPEOUT, "winner": 1, "turns": 12, "battles": [(1, 0, B.EXHAUSTION, 12, 6)]},
]  # fmt: skip
# Three cards, every seat holds all three in every game (mirror decks): each card has 8
# card-games, 2 of them won (GP WR 25 %). Per card-game times_played = card² + seat (card 0:
# 0/1, card 1: 1/2, card 2: 4/5) and damage_dealt = 5, 1, 2 for cards 0, 1, 2. By suit: heart
# (cards 0, 2) times_played 2.5, damage 3.5; spade (card 1) 1.5 and 1.0.
BATTLE_CARD_DIM = pl.DataFrame(
    {
        "card": pl.Series([0, 1, 2], dtype=pl.Int16),
        "name": ["heart:jack", "spade:7", "heart:2"],
        "suit": ["heart", "spade", "heart"],
        "rank": ["jack", "7", "2"],
        "rank_code": pl.Series([11, 7, 2], dtype=pl.Int8),
        "attack": pl.Series([0, 7, 2], dtype=pl.Int8),
        "type": ["blessing", "curse", "blessing"],
    }
)


def _battle_records(games: Sequence[dict[str, Any]]) -> dict[str, np.ndarray]:
    n = len(games)
    g, s = np.zeros(n, bl.GAME_DTYPE), np.zeros(2 * n, bl.SEAT_DTYPE)
    t = np.zeros(sum(len(x["battles"]) for x in games), bl.TURN_DTYPE)
    c = np.zeros(6 * n, bl.CARD_RECORD_DTYPE)
    row = 0
    for i, spec in enumerate(games):
        battles, score = spec["battles"], [0, 0]
        for b, (opener, winner, how, turns, bonus) in enumerate(battles, start=1):
            if winner >= 0:
                score[winner] += 1
            rec = t[row]
            rec["game"], rec["turn"], rec["seat"], rec["turns"], rec["winner"] = i, b, opener, turns, winner
            rec["how"], rec["score_0"], rec["score_1"], rec["winner_bonus"] = how, *score, bonus
            rec["cards_left_0"], rec["cards_left_1"] = 50 - b, 40 - b
            row += 1
        first = battles[0][0]
        g[i] = (i, 500 + i, first, spec["winner"], spec["turns"], spec["reason"], *score, len(battles), battles[-1][2])
        for seat in (0, 1):
            r = s[2 * i + seat]
            r["game"], r["seat"], r["bot"], r["score"] = i, seat, 0, score[seat]
            r["won"], r["first"] = int(spec["winner"] == seat), int(first == seat)
            for card in range(3):
                k = c[6 * i + 3 * seat + card]
                k["game"], k["seat"], k["card"], k["won"] = i, seat, card, int(spec["winner"] == seat)
                k["first_drawn_turn"], k["first_played_turn"] = card, card + seat if card + seat else -1
                k["times_played"], k["damage_dealt"] = card * card + seat, (5, 1, 2)[card]
    return {"games": g, "seats": s, "cards": c, "turns": t}


def build_battle_run(root: Path, games: Sequence[dict[str, Any]] = BATTLES, *, turn_unit: str | None = "battle") -> Run:
    """Write ``games`` (battle-level turns) as a one-chunk run directory under ``root`` and open it."""
    root.mkdir(parents=True)
    enums = {"games": {"end_reason": bl.EndReason, "final_how": bl.BattleEnd}, "turns": {"how": bl.BattleEnd}}
    for table, rec in _battle_records(games).items():
        kwargs: dict[str, Any] = {"enums": enums.get(table)}
        if table == "games":
            kwargs["constants"] = {"run_id": root.name, "variant": "modern", "chunk": 0}
        elif table == "seats":
            kwargs["names"] = {"bot": ("greedy",)}
        write_part(records_to_table(rec, **kwargs), root / table, 0)
    BATTLE_CARD_DIM.write_parquet(root / "cards.parquet")
    manifest = {"run_id": root.name, "game": "blessings", "variant": "modern", "rules_version": "1"}
    manifest |= {"turn_unit": turn_unit} if turn_unit else {}
    manifest["chunks"] = [{"index": 0, "status": "done"}]
    write_json(root / "manifest.json", manifest)
    return load_run(root)


@pytest.fixture(scope="session")
def battle_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """The hand-countable battle-level run described by ``BATTLES``, written once per session."""
    return build_battle_run(tmp_path_factory.mktemp("battles") / "battles")


@pytest.fixture
def battle_specs() -> list[dict[str, Any]]:
    """The per-game specification of ``battle_run`` (``BATTLES``), for tests that vary it."""
    return [dict(g) for g in BATTLES]


# -- a one-seat (solitaire) game: CardRPG sessions, one turns row per battle ------------------
# CardRPG record dtypes. Each session: class, end reason, level at the end and its battles as
# (level at the start, monster kind, outcome); kills/deaths/jokers/battles follow from them.
#   session  class         battles (level, kind, outcome)                            level_end  kills  deaths
#   0        spade_king    (1 number won) (1 face won) (2 number died) (2 joker won)  3          3      1
#   1        heart_jack    (1 number died) (1 number abandoned)                       1          0      1
#   2        spade_king    (1 number won) (3 face won)                                3          2      0
#   3        heart_jack    (1 joker died) (1 number won) (2 face died) (2 number forfeit) 2      1      2
#   4        spade_king    (1 number won)                                             2          1      0
#   5        heart_jack    (1 face won) (2 number won) (2 ace died)                   2          2      1
# By class: spade_king kills 3, 2, 1 (mean 2, sd 1), level_end 3, 3, 2; heart_jack kills 0, 1, 2
# (mean 1), deaths 1, 2, 1. Level reached: >= 2 5/6, >= 3 2/6. First battle at level >= L: L1 all
# six at 1; L2 sessions 0, 2, 3, 5 at 3, 2, 3, 2 (mean 2.5); L3 session 2 at 2. 16 battles: won 9,
# died 5, abandoned 1, forfeit 1; died by level 2/9, 3/6, 0/1; by kind number 2/9, face 1/4,
# joker 1/2, ace 1/1. class_rank, class_suit, level_start (1) are fixed by the class; xp_end = 5 *
# session varies.
OC, MK = rpg.Outcome, rpg.MonsterKind
SESSIONS: list[dict[str, Any]] = [
    {"cls": rpg.ClassCard.SPADE_KING, "reason": rpg.EndReason.DRAW_FAILED_MONSTER, "level_end": 3,
     "battles": [(1, MK.NUMBER, OC.WON), (1, MK.FACE, OC.WON), (2, MK.NUMBER, OC.DIED), (2, MK.JOKER, OC.WON)]},
    {"cls": rpg.ClassCard.HEART_JACK, "reason": rpg.EndReason.DRAW_FAILED_HAND, "level_end": 1,
     "battles": [(1, MK.NUMBER, OC.DIED), (1, MK.NUMBER, OC.ABANDONED)]},
    {"cls": rpg.ClassCard.SPADE_KING, "reason": rpg.EndReason.DRAW_FAILED_ATTACK_PILE, "level_end": 3,
     "battles": [(1, MK.NUMBER, OC.WON), (3, MK.FACE, OC.WON)]},
    {"cls": rpg.ClassCard.HEART_JACK, "reason": rpg.EndReason.DRAW_FAILED_MONSTER, "level_end": 2,
     "battles": [(1, MK.JOKER, OC.DIED), (1, MK.NUMBER, OC.WON), (2, MK.FACE, OC.DIED), (2, MK.NUMBER, OC.FORFEIT)]},
    {"cls": rpg.ClassCard.SPADE_KING, "reason": rpg.EndReason.DRAW_FAILED_HAND, "level_end": 2,
     "battles": [(1, MK.NUMBER, OC.WON)]},
    {"cls": rpg.ClassCard.HEART_JACK, "reason": rpg.EndReason.DRAW_FAILED_MONSTER, "level_end": 2,
     "battles": [(1, MK.FACE, OC.WON), (2, MK.NUMBER, OC.WON), (2, MK.ACE, OC.DIED)]},
]  # fmt: skip
# Inventory rows (session, card, counters): card 0 (spade:ace) in sessions 0 and 2 (share 2/6;
# times_used 1, 0 -> 0.5; damage 7, 0 -> 3.5; kills 1, 0), card 1 (heart:5) in 0 and 3 (times_gained
# 1, 2 -> 1.5; hp_restored 5, 8 -> 6.5), card 2 (club:king) in session 5 (extra_attacks 2).
INVENTORY: list[tuple[int, int, dict[str, int]]] = [
    (0, 0, {"times_gained": 1, "times_used": 1, "damage": 7, "kills": 1}),
    (0, 1, {"times_gained": 1, "times_used": 1, "hp_restored": 5}),
    (2, 0, {"times_gained": 1}),
    (3, 1, {"times_gained": 2, "times_used": 2, "hp_restored": 8}),
    (5, 2, {"times_gained": 1, "times_used": 1, "extra_attacks": 2}),
]
SOLO_CARD_DIM = pl.DataFrame(
    {
        "card": pl.Series([0, 1, 2], dtype=pl.Int16),
        "name": ["spade:ace", "heart:5", "club:king"],
        "suit": ["spade", "heart", "club"],
        "rank": ["ace", "5", "king"],
        "rank_code": pl.Series([1, 5, 13], dtype=pl.Int8),
        "value": pl.Series([1, 5, 0], dtype=pl.Int8),
        "kind": ["ace", "number", "face"],
    }
)
SOLO_ENUMS = {
    "games": {"end_reason": rpg.EndReason, "class_card": rpg.ClassCard},
    "turns": {"monster_kind": rpg.MonsterKind, "outcome": rpg.Outcome},
}


def _solo_records(
    sessions: Sequence[dict[str, Any]], inventory: Sequence[tuple[int, int, dict[str, int]]]
) -> dict[str, np.ndarray]:
    n = len(sessions)
    g, s = np.zeros(n, rpg.GAME_DTYPE), np.zeros(n, rpg.SEAT_DTYPE)
    t = np.zeros(sum(len(x["battles"]) for x in sessions), rpg.TURN_DTYPE)
    row = 0
    for i, spec in enumerate(sessions):
        battles, cls = spec["battles"], int(spec["cls"])
        outcomes = [o for _, _, o in battles]
        rec = g[i]
        rec["game"], rec["seed"], rec["end_reason"], rec["turns"] = i, 900 + i, spec["reason"], len(battles)
        rec["character_id"], rec["session_index"], rec["class_card"] = i, 0, cls
        rec["class_rank"], rec["class_suit"] = 11 + (cls - 1) % 3, (cls - 1) // 3
        rec["level_start"], rec["level_end"], rec["xp_end"] = 1, spec["level_end"], 5 * i
        rec["kills"], rec["deaths"] = spec.get("kills", outcomes.count(OC.WON)), outcomes.count(OC.DIED)
        rec["jokers_killed"] = sum(k == MK.JOKER and o == OC.WON for _, k, o in battles)
        rec["battles"], rec["battles_abandoned"] = len(battles), outcomes.count(OC.ABANDONED)
        s[i]["game"], s[i]["seat"], s[i]["bot"], s[i]["class_card"] = i, 0, 0, cls
        s[i]["damage_dealt"] = 10 * i
        for b, (level, kind, outcome) in enumerate(battles, start=1):
            r = t[row]
            r["game"], r["turn"], r["seat"], r["level"] = i, b, 0, level
            r["monster_kind"], r["outcome"], r["exchanges"] = kind, outcome, b
            row += 1
    c = np.zeros(len(inventory), rpg.CARD_RECORD_DTYPE)
    for j, (game, card, counters) in enumerate(inventory):
        c[j]["game"], c[j]["seat"], c[j]["card"] = game, 0, card
        for key, value in counters.items():
            c[j][key] = value
    return {"games": g, "seats": s, "cards": c, "turns": t}


def build_solo_run(
    root: Path,
    sessions: Sequence[dict[str, Any]] = SESSIONS,
    inventory: Sequence[tuple[int, int, dict[str, int]]] = INVENTORY,
    *,
    seats_in_manifest: bool = True,
    variant: str = "advanced",
    tables: Sequence[str] = ("games", "seats", "cards", "turns"),
) -> Run:
    """Write ``sessions`` (one-seat games, battle-level turns) as a two-chunk run under ``root`` and open it.

    A session's ``kills`` may be given to override the count of battles won.
    """
    root.mkdir(parents=True)
    records = _solo_records(sessions, inventory)
    cut = (len(sessions) + 1) // 2
    for chunk, (lo, hi) in enumerate([(0, cut), (cut, len(sessions))]):
        for table in tables:
            rec = records[table]
            part = rec[(rec["game"] >= lo) & (rec["game"] < hi)]
            kwargs: dict[str, Any] = {"enums": SOLO_ENUMS.get(table)}
            if table == "games":
                kwargs["constants"] = {"run_id": root.name, "variant": variant, "chunk": chunk}
            elif table == "seats":
                kwargs["names"] = {"bot": ("greedy",)}
            write_part(records_to_table(part, **kwargs), root / table, chunk)
    SOLO_CARD_DIM.write_parquet(root / "cards.parquet")
    manifest: dict[str, Any] = {"run_id": root.name, "game": "cardrpg", "variant": variant, "rules_version": "1"}
    manifest |= {"turn_unit": "battle", "root_seed": 9, "n_games": len(sessions)}
    manifest |= {"seats": 1} if seats_in_manifest else {}
    manifest["chunks"] = [{"index": 0, "status": "done"}, {"index": 1, "status": "done"}]
    write_json(root / "manifest.json", manifest)
    return load_run(root)


@pytest.fixture(scope="session")
def solo_run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """The hand-countable one-seat run described by ``SESSIONS`` and ``INVENTORY``, written once per session."""
    return build_solo_run(tmp_path_factory.mktemp("solo") / "solo")


@pytest.fixture
def solo_specs() -> list[dict[str, Any]]:
    """The per-session specification of ``solo_run`` (``SESSIONS``), for tests that vary it."""
    return [dict(s) for s in SESSIONS]


@pytest.fixture
def make_solo_run(tmp_path: Path) -> Callable[..., Run]:
    """Return ``build_solo_run`` writing under a fresh temporary directory (``name`` picks the folder)."""

    def make(name: str = "solo", *args: Any, **kwargs: Any) -> Run:
        return build_solo_run(tmp_path / name, *args, **kwargs)

    return make


# Run B of a paired comparison with ``solo_run``: the same sessions, kills per session 2, 0, 2, 1,
# 0, 1 (A has 3, 0, 2, 1, 1, 2: differences 1, 0, 0, 0, 1, 1; spade_king 1, 0, 1; heart_jack 0, 0, 1).
KILLS_B = (2, 0, 2, 1, 0, 1)


@pytest.fixture(scope="session")
def solo_run_b(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """``solo_run`` with the kills of ``KILLS_B`` (variant ``no_ace_spades``), for paired comparisons."""
    changed = [{**s, "kills": k} for s, k in zip(SESSIONS, KILLS_B, strict=True)]
    return build_solo_run(tmp_path_factory.mktemp("solo-b") / "b", changed, variant="no_ace_spades")
