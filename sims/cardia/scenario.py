"""Cardia rule scenarios: a stated position, the rounds played in it, what the table shows after.

The file format (``sims.core.scenario``; keys documented with an example in RULES.md §7):

    [position]                    # every key optional
    location = "serpent_temple"   # else the variant's / params' location
    round = 3                     # rounds already played (default: the number of encounters)
    hand.0 = ["Judge", "Djinn"]   # seat 0's hand; hand.1 for seat 1
    deck.1 = ["Saboteur"]         # top card first
    discard.0 = ["Surgeon"]
    encounters = [                # oldest first; cards = [seat 0's, seat 1's]
      { cards = ["Surgeon", "Saboteur"], mods = [3, 0], tokens = [0, 0], signets = [0, 1] },
    ]                             # signets (optional) are checked against the derived value (R5)
    pending = { mod = [0, 3], librarian = [0, 0], engineer = [0, 0], blackmail = ["", "guild"], fortune = [0, 0] }

    [[moves]]                     # one round each
    play = ["Judge", "Clockmaker"]    # the cards placed by seat 0 and seat 1
    choices.0 = ["1:Judge", "guild"]  # seat 0's choices in the order the rules ask them
    through = "phase2"            # optional on the last move: stop before phase 3 (no signet check, no draw)

Cards a scenario does not name are out of the game. Both decks hold the same cards, so
every card is named per seat. Choice tokens: a hand card by name (``"Judge"``), a card on
the table as ``"seat:Name"`` (``"1:Judge"``), a faction (``"guild"``), ``"+2"``/``"-2"``
(Librarian), ``"next"`` (Envoy), ``"none"`` (decline the Palace Guard), ``"modifiers"`` or
``"tokens"`` (Void Mage). A choice with a single option is made for you.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sims.cardia import kernel
from sims.cardia.bots import DEFAULTS, Bot
from sims.cardia.pool import in_decks
from sims.cardia.state import (
    BOT_PLAY,
    MAX_DECK,
    MAX_ROUNDS,
    MAX_SCRIPT,
    Decision,
    EndReason,
    EventKind,
    Faction,
    Location,
    Result,
    ScriptTag,
    VoidMode,
)
from sims.cardia.table import derive, end_game
from sims.core import Outcome, ScenarioError
from sims.core.jit import kernel as jit
from sims.core.scenario import card_ids, check_unique_places

SCENARIO_KEYS: tuple[str, ...] = ("bots",)  # bots = ["greedy", "expert"]: who makes what the moves leave open
SEATS = ("0", "1")
RESULT_NAMES = {Result.SEAT_0: "0", Result.SEAT_1: "1", Result.TIE: "tie", Result.BOTH: "both", Result.HIDDEN: "hidden"}
ERRORS = {1: "is not a legal choice", 2: "is missing (the choices ran out)", 3: "is the wrong kind of choice"}
POSITION_KEYS = {"location", "round", "hand", "deck", "discard", "encounters", "pending", "signets", "tied_five"}
MOVE_KEYS = {"play", "choices", "through"}


# -- kernels driving the state -----------------------------------------------------------------


@jit
def _derive(state: np.ndarray) -> None:
    """Derive the stated table (R5)."""
    s = state[0]
    derive(s, s.pos)


@jit
def _round(state: np.ndarray, through_phase3: int) -> None:
    """Play one scripted round of the stated position (phase 3 optional)."""
    s = state[0]
    g = s.pos
    s.meta.stop_phase3 = 1 - through_phase3
    kernel.play_round(s, g)
    s.meta.stop_phase3 = 0
    if not g.over and g.round_no >= s.params.max_rounds:
        end_game(s, g, -1, EndReason.TIMEOUT)


# -- reading the position ------------------------------------------------------------------------


def _table(data: Any, key: str, source: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise ScenarioError(f"{source}: key {key!r} must be a table")
    return data


def _per_seat(table: Mapping[str, Any], name: str, source: str) -> dict[str, Any]:
    """Return ``{"0": value, "1": value}`` from ``name.0`` / ``name.1`` keys (missing seats: empty lists)."""
    value = table.get(name, {})
    value = _table(value, f"position.{name}", source)
    unknown = set(value) - set(SEATS)
    if unknown:
        raise ScenarioError(f"{source}: key 'position.{name}.{sorted(unknown)[0]}': seats are 0 and 1")
    return {seat: value.get(seat, []) for seat in SEATS}


def _pair(value: Any, key: str, source: str, kind: type = int) -> list[Any]:
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(v, kind) for v in value):
        raise ScenarioError(f"{source}: key {key!r}: expected [seat 0, seat 1], got {value!r}")
    if kind is int and any(isinstance(v, bool) for v in value):
        raise ScenarioError(f"{source}: key {key!r}: expected numbers, got {value!r}")
    return value


def _faction(name: str, key: str, source: str) -> int:
    if name == "":
        return -1
    try:
        return int(Faction[name.upper()])
    except KeyError:
        raise ScenarioError(f"{source}: key {key!r}: unknown faction {name!r}") from None


class _Builder:
    """Writes a stated position into a fresh kernel state, checking it as it goes."""

    def __init__(self, params: Any, pool: Any, source: str, bots: Any = None) -> None:
        self.params, self.pool, self.source = params, pool, source
        self.index = {n: i for i, n in enumerate(pool.names)}
        names = ["greedy", "greedy"] if bots is None else bots
        if not isinstance(names, list) or len(names) != 2 or any(n not in DEFAULTS for n in names):
            raise ScenarioError(f"{source}: key 'bots': expected two of {', '.join(DEFAULTS)}, got {bots!r}")
        self.bots = bots is not None
        bot_ids = np.array([int(Bot[n.upper()]) for n in names], dtype=np.int64)
        weights = np.array([tuple(DEFAULTS[n]) for n in names], dtype=np.float64)
        self.state = kernel.prepare(pool.table, params, bot_ids, weights, 1)
        self.pos = self.state["pos"]
        self.places: dict[str, list[int]] = {"0": [], "1": []}

    def ids(self, names: Any, key: str, seat: str) -> list[int]:
        ids = card_ids(names, self.index, self.source, key)
        for name, c in zip(names if isinstance(names, list) else [names], ids, strict=True):
            if not in_decks(self.pool, self.params, c):
                raise ScenarioError(f"{self.source}: key {key!r}: {name!r} is not in the decks of this variant")
        self.places[seat] += ids
        return ids

    def zone(self, field: str, seat: str, ids: list[int], reverse: bool = False) -> None:
        p = int(seat)
        if len(ids) > MAX_DECK:
            raise ScenarioError(f"{self.source}: key 'position.{field}.{seat}': at most {MAX_DECK} cards")
        for i, c in enumerate(reversed(ids) if reverse else ids):
            self.pos[field][0, p, i] = c
        self.pos[f"{field}_n"][0, p] = len(ids)


def _encounters(b: _Builder, items: Any) -> list[list[int] | None]:
    """Write the stated encounters; return each one's stated signets (None when not stated)."""
    if not isinstance(items, list):
        raise ScenarioError(f"{b.source}: key 'position.encounters' must be a list of tables")
    if len(items) >= MAX_ROUNDS:
        raise ScenarioError(f"{b.source}: key 'position.encounters': at most {MAX_ROUNDS - 1} encounters")
    stated: list[list[int] | None] = []
    for k, item in enumerate(items):
        key = f"position.encounters[{k + 1}]"
        item = _table(item, key, b.source)
        unknown = set(item) - {"cards", "mods", "tokens", "signets", "face_down"}
        if unknown:
            raise ScenarioError(f"{b.source}: key '{key}.{sorted(unknown)[0]}' is unknown")
        names = item.get("cards")
        if not isinstance(names, list) or len(names) != 2:
            raise ScenarioError(f"{b.source}: key '{key}.cards': expected [seat 0's card, seat 1's card]")
        mods = _pair(item.get("mods", [0, 0]), f"{key}.mods", b.source)
        tokens = _pair(item.get("tokens", [0, 0]), f"{key}.tokens", b.source)
        face_down = item.get("face_down", False)
        if face_down and k != len(items) - 1:
            raise ScenarioError(f"{b.source}: key '{key}.face_down': only the last encounter can be face down")
        for p, seat in enumerate(SEATS):
            (c,) = b.ids([names[p]], f"{key}.cards", seat)
            b.pos["card"][0, k, p], b.pos["mod"][0, k, p], b.pos["tok"][0, k, p] = c, mods[p], tokens[p]
        b.pos["up"][0, k], b.pos["placed"][0, k] = 0 if face_down else 1, k + 1
        stated.append(_pair(item["signets"], f"{key}.signets", b.source) if "signets" in item else None)
    b.pos["n_enc"][0] = len(items)
    return stated


def _pending(b: _Builder, data: Any) -> None:
    pending = _table(data, "position.pending", b.source)
    unknown = set(pending) - {"mod", "librarian", "engineer", "blackmail", "fortune"}
    if unknown:
        raise ScenarioError(f"{b.source}: key 'position.pending.{sorted(unknown)[0]}' is unknown")
    for key, field in (
        ("mod", "pend_mod"),
        ("librarian", "pend_lib"),
        ("engineer", "pend_eng"),
        ("fortune", "fortune"),
    ):
        if key in pending:
            b.pos[field][0, :] = _pair(pending[key], f"position.pending.{key}", b.source)
    if "blackmail" in pending:
        named = _pair(pending["blackmail"], "position.pending.blackmail", b.source, str)
        b.pos["pend_bm"][0, :] = [_faction(n, "position.pending.blackmail", b.source) for n in named]


def build_position(params: Any, pool: Any, scenario: Mapping[str, Any], source: str) -> _Builder:
    """Return a builder holding the stated position in a kernel state; raise ``ScenarioError`` on bad input."""
    b = _Builder(params, pool, source, scenario.get("bots"))
    position = _table(scenario.get("position", {}), "position", source)
    unknown = set(position) - POSITION_KEYS
    if unknown:
        raise ScenarioError(f"{source}: key 'position.{sorted(unknown)[0]}' is unknown; known: {sorted(POSITION_KEYS)}")
    pos = b.pos
    pos["pend_bm"][0, :] = -1
    pos["due_bm"][0, :, :] = -1  # no Blackmailer named for any stated card
    pos["cur"][0], pos["winner"][0], pos["end_reason"][0], pos["focus"][0] = -1, -1, EndReason.TIMEOUT, -1
    pos["chosen"][0] = -1
    loc = position.get("location", Location(int(params.location)).name.lower())
    if not isinstance(loc, str) or loc.upper() not in Location.__members__ or loc.upper() == "SWEEP":
        raise ScenarioError(f"{source}: key 'position.location': unknown location {loc!r}")
    pos["location"][0], pos["deck_kind"][0] = int(Location[loc.upper()]), int(params.deck) if params.deck < 3 else 0
    for field, reverse in (("hand", False), ("deck", True), ("discard", False)):
        for seat, names in _per_seat(position, field, source).items():
            b.zone(field, seat, b.ids(names, f"position.{field}.{seat}", seat), reverse)
    stated = _encounters(b, position.get("encounters", []))
    _pending(b, position.get("pending", {}))
    for seat in SEATS:
        check_unique_places({f"seat {seat}": b.places[seat]}, pool.names, source)
    for p, seat in enumerate(SEATS):
        pos["listed"][0, p, : len(b.places[seat])] = b.places[seat]
        pos["listed_n"][0, p] = len(b.places[seat])
        for c in b.places[seat]:
            kernel_record_clear(b.state, p, c)
    rounds = position.get("round", len(stated))
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 0 <= rounds < MAX_ROUNDS:
        raise ScenarioError(f"{source}: key 'position.round': expected a number 0..{MAX_ROUNDS - 1}")
    pos["round_no"][0], pos["tied_five"][0] = rounds, int(bool(position.get("tied_five", False)))
    b.state["meta"]["match_game"][0] = 1  # item syntax: a state made by Numba holds plain np.void rows
    _derive(b.state)
    _check_signets(b, stated, position.get("signets"))
    return b


def kernel_record_clear(state: np.ndarray, p: int, c: int) -> None:
    """Reset the card record of seat ``p``'s card ``c`` (game 0 of the scenario)."""
    r = state["tally"]["cards"][0, 0, p, c]
    r["game"], r["seat"], r["card"], r["match_game"] = 0, p, c, 1
    r["first_drawn_turn"], r["first_played_turn"] = -1, -1


def _check_signets(b: _Builder, stated: list[list[int] | None], total: Any) -> None:
    """Raise ``ScenarioError`` if a stated signet count contradicts the derived one (R5)."""
    for k, want in enumerate(stated):
        got = [int(x) for x in b.pos["sig"][0, k]]
        if want is not None and want != got:
            raise ScenarioError(
                f"{b.source}: key 'position.encounters[{k + 1}].signets': {want} contradicts the derived {got} (R5)"
            )
    if total is not None:
        got = [int(x) for x in b.pos["signets"][0]]
        if _pair(total, "position.signets", b.source) != got:
            raise ScenarioError(f"{b.source}: key 'position.signets': {total} contradicts the derived {got} (R5)")


# -- the moves ---------------------------------------------------------------------------------------


def encode_choice(token: Any, index: Mapping[str, int], key: str, source: str) -> int:
    """Return a scripted choice (ScriptTag << 16 | value) for one choice token."""
    if not isinstance(token, str) or not token.strip():
        raise ScenarioError(f"{source}: key {key!r}: expected a choice name, got {token!r}")
    text = token.strip()
    low = text.lower()
    words = {"next": (ScriptTag.NEXT, 0), "none": (ScriptTag.NONE, 0), "decline": (ScriptTag.NONE, 0)}
    words |= {"+2": (ScriptTag.SIGN, 0), "-2": (ScriptTag.SIGN, 1)}
    words |= {m.name.lower(): (ScriptTag.MODE, int(m)) for m in VoidMode}
    words |= {f.name.lower(): (ScriptTag.FACTION, int(f)) for f in Faction}
    if low in words:
        tag, value = words[low]
        return (int(tag) << 16) | value
    if len(text) > 2 and text[1] == ":" and text[0] in SEATS:
        name = text[2:].strip()
        if name not in index:
            raise ScenarioError(f"{source}: key {key!r}: unknown card {name!r}")
        return (int(ScriptTag.TARGET) << 16) | (int(text[0]) * 64 + index[name])
    if text not in index:
        raise ScenarioError(f"{source}: key {key!r}: unknown card or choice {text!r}")
    return (int(ScriptTag.CARD) << 16) | index[text]


def _load_moves(b: _Builder, moves: Any) -> tuple[list[bool], list[list[int]]]:
    """Write the scripted plays and choices; return (phase 3 per move, first script entry of each move per seat)."""
    if not isinstance(moves, list):
        raise ScenarioError(f"{b.source}: key 'moves' must be a list of [[moves]] tables")
    scratch = b.state["scratch"]
    script: dict[int, list[int]] = {0: [], 1: []}
    starts: list[list[int]] = []
    through: list[bool] = []
    for i, move in enumerate(moves):
        key = f"moves[{i + 1}]"
        move = _table(move, key, b.source)
        unknown = set(move) - MOVE_KEYS
        if unknown:
            raise ScenarioError(f"{b.source}: key '{key}.{sorted(unknown)[0]}' is unknown; known: {sorted(MOVE_KEYS)}")
        play = move.get("play")
        if not isinstance(play, list) or len(play) not in (0, 2) or not all(isinstance(n, str) for n in play):
            raise ScenarioError(f"{b.source}: key '{key}.play': expected [seat 0's card, seat 1's card] (or [])")
        for p in range(2):  # [] = nobody places: a round whose phase 1 ends the game (R12); "?" = the bot
            if play and play[p] == "?":
                if not b.bots:
                    raise ScenarioError(f"{b.source}: key '{key}.play': '?' leaves the card to a bot; set bots = [..]")
                scratch["plays"][0, p, i] = BOT_PLAY
            else:
                scratch["plays"][0, p, i] = card_ids(play[p], b.index, b.source, f"{key}.play")[0] if play else -1
        starts.append([len(script[0]), len(script[1])])
        choices = _table(move.get("choices", {}), f"{key}.choices", b.source)
        for seat, tokens in choices.items():
            if seat not in SEATS or not isinstance(tokens, list):
                raise ScenarioError(f"{b.source}: key '{key}.choices.{seat}': expected choices.0 or choices.1 lists")
            script[int(seat)] += [encode_choice(t, b.index, f"{key}.choices.{seat}", b.source) for t in tokens]
        stop = move.get("through", "round")
        if stop not in ("round", "phase2") or (stop == "phase2" and i != len(moves) - 1):
            raise ScenarioError(f"{b.source}: key '{key}.through': 'round', or 'phase2' on the last move only")
        through.append(stop == "round")
    for p in range(2):
        b.state["meta"]["bot_seat"][0, p] = int(b.bots and not script[p])  # no stated choice: the bot chooses
        if len(script[p]) > MAX_SCRIPT:
            raise ScenarioError(f"{b.source}: key 'moves': at most {MAX_SCRIPT} choices per seat")
        scratch["script"][0, p, : len(script[p])] = script[p]
        scratch["script_n"][0, p] = len(script[p])
    return through, starts


def _script_error(b: _Builder, starts: list[list[int]], move: int) -> str:
    meta = b.state["meta"][0]
    code, seat, kind, index = (int(meta[f]) for f in ("script_error", "error_seat", "error_kind", "error_index"))
    if kind == Decision.PLAY and code == 1:
        return f"key 'moves[{move + 1}].play': seat {seat} does not hold that card then"
    which = next((i for i in range(len(starts) - 1, -1, -1) if starts[i][seat] <= index), move)
    what = Decision(kind).name.lower().replace("_", " ")
    return f"key 'moves[{which + 1}].choices.{seat}': choice {index - starts[which][seat] + 1} ({what}) {ERRORS[code]}"


# -- what is observed -------------------------------------------------------------------------------


def observe(b: _Builder) -> Outcome:
    """Return the observed keys (see RULES.md §7) and the readable table of the position."""
    pos, names = b.pos[0], b.pool.names
    obs: dict[str, Any] = {}
    over = bool(pos["over"])
    obs["over"] = over
    obs["winner"] = ("draw" if pos["winner"] < 0 else str(int(pos["winner"]))) if over else "none"
    obs["end_reason"] = EndReason(int(pos["end_reason"])).name.lower() if over else "none"
    obs["round"] = int(pos["round_no"])
    obs["signets"] = [int(pos["signets"][0]), int(pos["signets"][1])]
    obs["reveal"] = RESULT_NAMES.get(int(pos["reveal_res"]), "none").replace("hidden", "none")
    for p, seat in enumerate(SEATS):
        obs[f"signets.{seat}"] = obs["signets"][p]
        for field, top_first in (("hand", False), ("deck", True), ("discard", False)):
            ids = [int(c) for c in pos[field][p, : pos[f"{field}_n"][p]]]
            obs[f"{field}.{seat}"] = [names[c] for c in (reversed(ids) if top_first else ids)]
            obs[f"{field}_size.{seat}"] = len(ids)
    n = int(pos["n_enc"])
    obs["encounters"] = n
    lines = []
    for k in range(n):
        cards = [names[int(pos["card"][k, p])] for p in range(2)]
        infl = [int(b.pool.table["influence"][pos["card"][k, p]] + pos["mod"][k, p]) for p in range(2)]
        key = f"encounter.{k + 1}"
        obs[f"{key}.cards"], obs[f"{key}.influence"] = cards, infl
        obs[f"{key}.mods"] = [int(pos["mod"][k, p]) for p in range(2)]
        obs[f"{key}.tokens"] = [int(pos["tok"][k, p]) for p in range(2)]
        obs[f"{key}.signets"] = [int(pos["sig"][k, p]) for p in range(2)]
        obs[f"{key}.winner"] = RESULT_NAMES[int(pos["res"][k])]
        lines.append(
            f"{k + 1:2d}: {cards[0]} ({infl[0]}{' tok' * int(pos['tok'][k, 0] > 0)}) vs {cards[1]} ({infl[1]}"
            f"{' tok' * int(pos['tok'][k, 1] > 0)}) -> {obs[f'{key}.winner']}, signets {obs[f'{key}.signets']}"
        )
    obs["pending.mod"] = [int(x) for x in pos["pend_mod"]]
    obs["pending.librarian"] = [int(x) for x in pos["pend_lib"]]
    obs["pending.engineer"] = [int(x) for x in pos["pend_eng"]]
    obs["pending.fortune"] = [int(x) for x in pos["fortune"]]
    obs["pending.blackmail"] = [Faction(int(x)).name.lower() if x >= 0 else "" for x in pos["pend_bm"]]
    events = b.state["scratch"]["log"][0, : int(b.state["meta"]["log_n"][0])]
    for kind, key in ((EventKind.ACTIVATE, "activated"), (EventKind.COPY, "copied"), (EventKind.FACE_UP, "face_up")):
        picked = events[events["kind"] == kind]
        field = "target" if kind == EventKind.COPY else "card"
        obs[key] = [f"{int(e['seat'])}:{names[int(e[field])]}" for e in picked]
    placed = [names[int(e["card"])] for e in events[events["kind"] == EventKind.PLACE]]
    obs["plays"] = [placed[i : i + 2] for i in range(0, len(placed), 2)]
    named = events[events["kind"] == EventKind.NAME]
    obs["named"] = [f"{int(e['seat'])}:{Faction(int(e['value'])).name.lower()}" for e in named]
    lines.append(f"signets {obs['signets'][0]}-{obs['signets'][1]}; round {obs['round']}; winner {obs['winner']}")
    lines += [f"hand {seat}: {', '.join(obs[f'hand.{seat}']) or '-'}" for seat in SEATS]
    return Outcome(obs, tuple(lines))


def play_scenario(params: Any, pool: Any, scenario: Mapping[str, Any], source: str) -> Outcome:
    """Build the stated position, play the moves through the kernel's own rules, return what is observed."""
    b = build_position(params, pool, scenario, source)
    through, starts = _load_moves(b, scenario.get("moves", []))
    meta = b.state["meta"]
    meta["scripted"][0], meta["log_n"][0] = 1, 0
    for i, full in enumerate(through):
        if b.pos["over"][0]:
            raise ScenarioError(f"{source}: key 'moves[{i + 1}]': the game is already over")
        _round(b.state, int(full))
        if meta["script_error"][0]:
            raise ScenarioError(f"{source}: {_script_error(b, starts, i)}")
    for p in range(2):
        left = int(b.state["scratch"]["script_n"][0, p] - b.state["scratch"]["script_k"][0, p])
        if left:
            raise ScenarioError(f"{source}: key 'moves': {left} choice(s) of seat {p} were never asked for")
    return observe(b)
