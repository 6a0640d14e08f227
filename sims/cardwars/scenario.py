"""Card Wars rule scenarios (``sims.core.scenario``): a stated board, moves, the outcome observed.

The position is built in the kernel's own state record and every move is one of the
kernel's legal actions, applied by ``actions.apply_action`` (a move the rules do not allow
there is an error of the scenario). Keys are documented in RULES.md §10; lanes are 1-4.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sims.cardwars import actions as act
from sims.cardwars import board as bd
from sims.cardwars import bots as policies
from sims.cardwars import flow, kernel, setup
from sims.cardwars.layout import NO_CARD, PENDING_SRC, STATE_DTYPE, ActionKind, Choice, Phase
from sims.cardwars.state import N_LANES, CardType, Effect, EndReason, Landscape
from sims.cardwars.weights import DEFAULTS
from sims.core import Outcome, ScenarioError
from sims.core.scenario import card_ids, flatten

SEATS = ("p0", "p1")
PHASES = {"main": Phase.MAIN, "fight": Phase.FIGHT, "start": -1, "mulligan": -2}
BOT = {"random": 0, "greedy": 1, "planner": 2}


class _Ctx:
    """What the builders need: the pool's name index, the source file for errors, the bots."""

    def __init__(self, pool, source: str):
        self.pool, self.source = pool, source
        self.index = {n: i for i, n in enumerate(pool.names)}

    def fail(self, key: str, what: str) -> ScenarioError:
        return ScenarioError(f"{self.source}: key {key!r}: {what}")

    def ids(self, names: Any, key: str) -> list[int]:
        return card_ids(names, self.index, self.source, key) if names else []


def _landscape(value: Any, ctx: _Ctx, key: str) -> tuple[int, int]:
    """Parse ``"Cornfield"`` / ``"Cornfield down"`` into (type, face_up)."""
    if not isinstance(value, str):
        raise ctx.fail(key, f"expected a Landscape name, got {value!r}")
    text = value.strip().lower()
    up = 1
    for suffix in (" (down)", " down", " face down"):
        if text.endswith(suffix):
            text, up = text[: -len(suffix)], 0
    name = text.replace(" ", "_").upper()
    if name not in Landscape.__members__ or Landscape[name] >= Landscape.RAINBOW:
        raise ctx.fail(key, f"unknown Landscape {value!r}; expected Blue Plains, Cornfield, Useless Swamp, SandyLands "
                       "or NiceLands, optionally followed by 'down'")  # fmt: skip
    return int(Landscape[name]), up


def _slot_card(value: Any, ctx: _Ctx, key: str) -> dict[str, Any] | None:
    """Return a Creature/Building slot as a dict (card id + state), or None for an empty slot."""
    if value in ("", None):
        return None
    spec = {"card": value} if isinstance(value, str) else value
    if not isinstance(spec, Mapping) or "card" not in spec:
        raise ctx.fail(key, f"expected a card name or a table with 'card', got {value!r}")
    unknown = set(spec) - {"card", "damage", "exhausted", "flooped", "owner", "entered", "moved", "atk_bonus"}
    if unknown:
        raise ctx.fail(key, f"unknown slot key {sorted(unknown)[0]!r}")
    out = dict(spec)
    out["card"] = ctx.ids([spec["card"]], key)[0]
    return out


def build(params, pool, data: Mapping[str, Any], source: str, weights: np.ndarray | None = None) -> np.ndarray:
    """Return a ``STATE_DTYPE[2]`` holding the scenario's ``[position]`` (see RULES.md §10)."""
    ctx = _Ctx(pool, source)
    pos = data.get("position", {})
    if not isinstance(pos, Mapping):
        raise ctx.fail("position", "must be a table")
    known = {"turn", "mover", "first_seat", "actions", "phase", "seed", *SEATS}
    unknown = set(pos) - known
    if unknown:
        raise ctx.fail(f"position.{sorted(unknown)[0]}", f"unknown key; known: {', '.join(sorted(known))}")
    if weights is None:
        weights = np.zeros((2, 32))
    # A jitted function returns plain structured elements; viewed as STATE_DTYPE (np.record)
    # the state allows attribute access here too.
    state = kernel.prepare(pool.table, params, weights, np.zeros((2, 1), np.int16), 1).view(STATE_DTYPE)
    s = state[0]
    seed = pos.get("seed", 1)
    setup.reset(s, 0, np.uint64(seed))
    m = s.meta
    m.mover = pos.get("mover", 0)
    m.turn = pos.get("turn", 3)
    m.first_seat = pos.get("first_seat", m.mover if m.turn % 2 == 1 else 1 - m.mover)
    m.actions = pos.get("actions", params.actions_per_turn)
    for q, seat in enumerate(SEATS):
        _build_seat(s, q, pos.get(seat, {}), ctx, f"position.{seat}")
    s.board.st_fresh = 0  # the slots were written here, behind marks.stale's back
    kernel.refresh(s)
    phase = pos.get("phase", "main")
    if phase not in PHASES:
        raise ctx.fail("position.phase", f"expected one of {', '.join(PHASES)}, got {phase!r}")
    if phase == "start":  # run the start of the mover's turn: Ready, start-of-turn triggers, draw
        m.turn -= 1
        flow.begin_turn(s)
    elif phase == "mulligan":
        m.turn = 0
        m.phase, m.pending, m.decider, m.pend_left = Phase.CHOOSE, Choice.MULLIGAN, m.first_seat, 2
    else:
        m.phase = PHASES[phase]
    return state


def _build_seat(s, q: int, seat: Mapping[str, Any], ctx: _Ctx, where: str) -> None:
    """Write one seat's Hit Points, Landscapes, piles and board slots into ``s``."""
    known = {"hp", "landscapes", "hand", "deck", "discard", "creatures", "buildings"}
    unknown = set(seat) - known
    if unknown:
        raise ctx.fail(f"{where}.{sorted(unknown)[0]}", f"unknown key; known: {', '.join(sorted(known))}")
    b, pl = s.board, s.piles
    b.hp[q] = seat.get("hp", s.params.hit_points)
    lands = seat.get("landscapes", ["Cornfield"] * N_LANES)
    if not isinstance(lands, list) or len(lands) != N_LANES:
        raise ctx.fail(f"{where}.landscapes", "expected a list of 4 Landscapes (lanes 1-4)")
    for lane, value in enumerate(lands):
        b.land[q, lane], b.up[q, lane] = _landscape(value, ctx, f"{where}.landscapes")
    owned: list[int] = []
    for i, c in enumerate(ctx.ids(seat.get("hand", []), f"{where}.hand")):
        pl.hand[q, i], pl.hand_own[q, i] = c, q
        pl.hand_n[q] = i + 1
        owned.append(c)
    deck = ctx.ids(seat.get("deck", []), f"{where}.deck")  # top first
    for i, c in enumerate(reversed(deck)):
        pl.deck[q, i] = c
    pl.deck_n[q] = len(deck)
    owned += deck
    for i, c in enumerate(ctx.ids(seat.get("discard", []), f"{where}.discard")):
        pl.disc[q, i] = c
        pl.disc_n[q] = i + 1
        owned.append(c)
    for key, field in (("creatures", "cr"), ("buildings", "bu")):
        slots = seat.get(key, [""] * N_LANES)
        if not isinstance(slots, list) or len(slots) != N_LANES:
            raise ctx.fail(f"{where}.{key}", 'expected a list of 4 slots (lanes 1-4; "" for none)')
        for lane, value in enumerate(slots):
            spec = _slot_card(value, ctx, f"{where}.{key}")
            if spec is not None:
                owned.append(spec["card"])
                _place(s, q, lane, spec, field)
    for c in owned:  # a card row for each card the seat owns, so effects are tallied
        r = s.tally.cards[q, c]
        if r.copies == 0:
            setup.clear_card_record(r, 0, q, c)
        r.copies += 1


def _place(s, q: int, lane: int, spec: Mapping[str, Any], field: str) -> None:
    """Put one stated Creature or Building into slot ``(q, lane)``."""
    b = s.board
    owner = spec.get("owner", q)
    if field == "bu":
        b.bu_card[q, lane], b.bu_owner[q, lane], b.bu_exh[q, lane] = spec["card"], owner, int(spec.get("exhausted", 0))
        return
    bd.place(s, q, lane, spec["card"], owner)
    b.cr_entered[q, lane] = spec.get("entered", s.meta.turn - 1)
    b.cr_dmg[q, lane] = spec.get("damage", 0)
    b.cr_exh[q, lane] = int(spec.get("exhausted", 0) or spec.get("flooped", 0))
    b.cr_floop[q, lane] = int(spec.get("flooped", 0))
    b.cr_moved[q, lane] = int(spec.get("moved", 0))
    b.cr_tatk[q, lane] = spec.get("atk_bonus", 0)


# -- moves -------------------------------------------------------------------------------------------------


def _slot_code(value: Any, ctx: _Ctx, key: str) -> int:
    """Parse ``"p1:2"`` (side 1, lane 2) into a slot code ``side * 4 + lane``."""
    if isinstance(value, str) and len(value) == 4 and value[:2] in SEATS and value[2] == ":" and value[3] in "1234":
        return 4 * SEATS.index(value[:2]) + int(value[3]) - 1
    raise ctx.fail(key, f"expected a slot like 'p1:2' (seat p0/p1, lane 1-4), got {value!r}")


def _lane(value: Any, ctx: _Ctx, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= N_LANES:
        raise ctx.fail(key, f"expected a lane 1-4, got {value!r}")
    return value - 1


def _hand_index(s, q: int, name: Any, ctx: _Ctx, key: str, skip: int = -1) -> int:
    c = ctx.ids([name], key)[0]
    for i in range(s.piles.hand_n[q]):
        if s.piles.hand[q, i] == c and i != skip:
            return i
    raise ctx.fail(key, f"{name!r} is not in seat {q}'s hand")


def _discard_index(s, q: int, name: Any, ctx: _Ctx, key: str) -> int:
    c = ctx.ids([name], key)[0]
    for i in range(s.piles.disc_n[q]):
        if s.piles.disc[q, i] == c:
            return i
    raise ctx.fail(key, f"{name!r} is not in seat {q}'s discard pile")


def _target(s, q: int, card: int, move: Mapping[str, Any], ctx: _Ctx, key: str) -> int:
    """Return the ``b`` target code of a move (see ``effects`` for the codes)."""
    if "targets" in move:  # Patchy the Pumpkin: a set of Creatures
        mask = 0
        for t in move["targets"]:
            mask |= 1 << _slot_code(t, ctx, f"{key}.targets")
        return mask
    if "from" in move or "to" in move:  # Teleport, Dragon Claw
        return 4 * _lane(move.get("from"), ctx, f"{key}.from") + _lane(move.get("to"), ctx, f"{key}.to")
    if "flip" in move or "move_from" in move:  # Reclaim Landscape
        up = _lane(move["flip"], ctx, f"{key}.flip") if "flip" in move else N_LANES
        mv = 16
        if "move_from" in move:
            mv = 4 * _lane(move["move_from"], ctx, f"{key}.move_from") + _lane(
                move.get("move_to"), ctx, f"{key}.move_to"
            )
        return 17 * up + mv
    t = move.get("target")
    if t is None:
        return 0
    if isinstance(t, int) and not isinstance(t, bool):
        return _lane(t, ctx, f"{key}.target")
    if t in SEATS:
        return SEATS.index(t)
    if isinstance(t, str) and ":" in t:
        return _slot_code(t, ctx, f"{key}.target")
    return _discard_index(s, q, t, ctx, f"{key}.target")


CHOICES = {"opposing": 1, "self": 2, "left": 0, "right": 1}


def _choice(s, c: int, move: Mapping[str, Any], ctx: _Ctx, key: str) -> int:
    """Return the enters-play choice of a play: a lane 1-4, none, opposing/self (Legion), left/right (Reaper)."""
    ch = move.get("choice")
    if ch is None:
        return 0
    if ch == "none":
        return N_LANES if s.cards[c].e1_effect in (Effect.READY_FLOOPED, Effect.FLIP_DOWN) else 0
    if isinstance(ch, int) and not isinstance(ch, bool):
        return _lane(ch, ctx, f"{key}.choice")
    if ch in CHOICES:
        return CHOICES[ch]
    raise ctx.fail(f"{key}.choice", f"expected a lane 1-4, none, {', '.join(CHOICES)}; got {ch!r}")


def encode_move(s, move: Mapping[str, Any], ctx: _Ctx, key: str) -> int:
    """Return the encoded action a move describes (its legality is checked by the caller)."""
    m = s.meta
    q = m.decider if m.phase == Phase.CHOOSE else m.mover
    kinds = [k for k in ("play", "floop", "floop_building", "activate", "activate_building", "fight", "end", "draw",
                         "choose", "bot") if k in move]  # fmt: skip
    if len(kinds) != 1:
        raise ctx.fail(key, "a move needs exactly one of play, floop, floop_building, activate, activate_building, "
                       "fight, end, draw, choose, bot")  # fmt: skip
    kind = kinds[0]
    if kind == "play":
        c = ctx.ids([move["play"]], f"{key}.play")[0]
        silo = m.phase == Phase.CHOOSE and m.pending == Choice.SILO and m.pend_card == c
        src = PENDING_SRC if silo else _hand_index(s, q, move["play"], ctx, f"{key}.play")
        lane = _lane(move["lane"], ctx, f"{key}.lane") if "lane" in move else 0
        choice = _choice(s, c, move, ctx, key)
        if "discard" in move:
            b = _hand_index(s, q, move["discard"], ctx, f"{key}.discard", skip=src)
            return act.encode(ActionKind.PLAY, src, lane | (choice << 2), b)
        a = (lane | (choice << 2)) if s.cards[c].type != CardType.SPELL else 0
        return act.encode(ActionKind.PLAY, src, a, _target(s, q, c, move, ctx, key))
    if kind in ("floop", "floop_building", "activate", "activate_building"):
        lane = _lane(move[kind], ctx, f"{key}.{kind}")
        slot = lane + (N_LANES if kind.endswith("building") else 0)
        akind = ActionKind.FLOOP if kind.startswith("floop") else ActionKind.ACTIVATE
        cost = _lane(move["cost"], ctx, f"{key}.cost") if "cost" in move else 0
        return act.encode(akind, slot, cost, _target(s, q, NO_CARD, move, ctx, key))
    if kind == "fight":
        return act.encode(ActionKind.FIGHT, _lane(move["fight"], ctx, f"{key}.fight"), 0, 0)
    if kind == "end":
        return act.encode(ActionKind.END, 0, 0, 0)
    if kind == "draw":
        return act.encode(ActionKind.DRAW, 0, 0, 0)
    if kind == "bot":
        raise AssertionError("bot moves are handled by play_scenario")
    return act.encode(ActionKind.CHOOSE, _option(s, move["choose"], ctx, f"{key}.choose"), 0, 0)


def _option(s, value: Any, ctx: _Ctx, key: str) -> int:
    """Return the option of a pending choice: a number, a card name (discard, Ogre Gas) or a slot (Ms. Mummy)."""
    m = s.meta
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if m.pending == Choice.MUMMY:
        return 0 if value == "stay" else 1 + _slot_code(value, ctx, key) % N_LANES
    if m.pending == Choice.DISCARD:
        return _hand_index(s, m.decider, value, ctx, key)
    if m.pending == Choice.OGRE:
        c = ctx.ids([value], key)[0]
        for k in range(m.reveal_n):
            if m.reveal[k] == c:
                return k
        raise ctx.fail(key, f"{value!r} is not among the revealed cards")
    raise ctx.fail(key, f"unexpected option {value!r} for this choice")


def play_scenario(params, pool, data: Mapping[str, Any], source: str) -> Outcome:
    """Build the scenario's position, play its moves through the kernel and report what is observed."""
    ctx = _Ctx(pool, source)
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise ctx.fail("moves", "must be an array of tables ([[moves]])")
    weights = np.stack([np.array(tuple(DEFAULTS["greedy"]), dtype=np.float64)] * 2)
    state = build(params, pool, data, source, weights)
    s, sim = state[0], state[1]
    errors = []
    for i, move in enumerate(moves, start=1):
        key = f"moves[{i}]"
        if not isinstance(move, Mapping):
            raise ctx.fail(key, "must be a table")
        if s.meta.phase == Phase.OVER:
            errors.append((key, "the game is already over"))
            break
        n = act.legal_actions(s, s.scratch.legal)
        s.scratch.n_legal = n
        legal = set(int(a) for a in s.scratch.legal[:n])
        who = s.meta.decider if s.meta.phase == Phase.CHOOSE else s.meta.mover
        if "seat" in move and move["seat"] != who:
            errors.append((key, f"seat {move['seat']} was to move but seat {who} decides now"))
            break
        if "bot" in move:
            if move["bot"] not in BOT:
                raise ctx.fail(f"{key}.bot", f"expected one of {', '.join(BOT)}")
            action = int(policies.choose(BOT[move["bot"]], s, sim, who))
        else:
            action = encode_move(s, move, ctx, key)
        expect_legal = move.get("legal", True)
        if (action in legal) != expect_legal:
            errors.append((key, f"the move is {'not ' if expect_legal else ''}legal here"))
            if expect_legal:
                break
        if action in legal and expect_legal:
            act.apply_action(s, action)
        errors += _check(s, pool, move.get("expect", {}), ctx, key)
    return Outcome(observe(s, pool), table(s, pool), tuple(errors))


def _check(s, pool, expect: Any, ctx: _Ctx, key: str) -> list[tuple[str, str]]:
    """Return the differences between a move's ``expect`` table and the position after it."""
    if not isinstance(expect, Mapping):
        raise ctx.fail(f"{key}.expect", "must be a table")
    observed = observe(s, pool) if expect else {}
    out = []
    for k, v in flatten(expect).items():
        if k not in observed:
            raise ctx.fail(f"{key}.expect.{k}", "no such observed key (RULES.md §10)")
        got = observed[k]
        if isinstance(v, bool) != isinstance(got, bool) or v != got:
            out.append((f"{key}.expect.{k}", f"expected {v!r}, observed {got!r}"))
    return out


def _name(pool, c: int) -> str:
    return pool.names[c] if c >= 0 else ""


def observe(s, pool) -> dict[str, Any]:
    """Return the observed keys of position ``s`` (RULES.md §10)."""
    m, b, pl = s.meta, s.board, s.piles
    out: dict[str, Any] = {
        "turn": int(m.turn),
        "mover": int(m.mover),
        "phase": Phase(m.phase).name.lower(),
        "actions": int(m.actions),
        "winner": int(m.winner),
        "end_reason": EndReason(m.end_reason).name.lower() if m.phase == Phase.OVER else "",
        "pending": Choice(m.pending).name.lower(),
        "decider": int(m.decider),
    }
    for q, seat in enumerate(SEATS):
        out[f"{seat}.hp"] = int(b.hp[q])
        out[f"{seat}.hand"] = [_name(pool, int(pl.hand[q, i])) for i in range(pl.hand_n[q])]
        out[f"{seat}.hand_size"] = int(pl.hand_n[q])
        out[f"{seat}.deck"] = [_name(pool, int(pl.deck[q, i])) for i in range(pl.deck_n[q] - 1, -1, -1)]
        out[f"{seat}.deck_size"] = int(pl.deck_n[q])
        out[f"{seat}.discard"] = [_name(pool, int(pl.disc[q, i])) for i in range(pl.disc_n[q])]
        out[f"{seat}.discard_size"] = int(pl.disc_n[q])
        st = s.tally.seats[q]
        out[f"{seat}.mulligan_taken"] = int(st.mulligan_taken)
        out[f"{seat}.creatures_destroyed"] = int(st.creatures_destroyed)
        for lane in range(N_LANES):
            lk = str(lane + 1)
            land = Landscape(b.land[q, lane]).name.lower()
            out[f"{seat}.landscape.{lk}"] = land if b.up[q, lane] else f"{land} down"
            out[f"{seat}.creature.{lk}"] = _name(pool, int(b.cr_card[q, lane]))
            out[f"{seat}.building.{lk}"] = _name(pool, int(b.bu_card[q, lane]))
            if b.cr_card[q, lane] >= 0:
                out[f"{seat}.atk.{lk}"] = int(b.cr_atk[q, lane])
                out[f"{seat}.def.{lk}"] = int(b.cr_def[q, lane])
                out[f"{seat}.damage.{lk}"] = int(b.cr_dmg[q, lane])
                out[f"{seat}.exhausted.{lk}"] = bool(b.cr_exh[q, lane])
                out[f"{seat}.flooped.{lk}"] = bool(b.cr_floop[q, lane])
                out[f"{seat}.owner.{lk}"] = int(b.cr_owner[q, lane])
    legal = [int(a) for a in s.scratch.legal[: act.legal_actions(s, s.scratch.legal)]]
    kinds = {(act.kind_of(a), act.src_of(a)) for a in legal}
    for lane in range(N_LANES):
        lk = str(lane + 1)
        out[f"can.floop.{lk}"] = (ActionKind.FLOOP, lane) in kinds
        out[f"can.floop_building.{lk}"] = (ActionKind.FLOOP, lane + N_LANES) in kinds
        out[f"can.activate.{lk}"] = (ActionKind.ACTIVATE, lane) in kinds
        out[f"can.fight.{lk}"] = (ActionKind.FIGHT, lane) in kinds
    q = m.decider if m.phase == Phase.CHOOSE else m.mover
    plays = {int(pl.hand[q, act.src_of(a)]) for a in legal if act.kind_of(a) == ActionKind.PLAY and act.src_of(a) < 255}
    out["can.play"] = sorted(_name(pool, c) for c in plays)
    out["can.draw"] = any(act.kind_of(a) == ActionKind.DRAW for a in legal)
    out["legal_count"] = len(legal)
    return out


def table(s, pool) -> list[str]:
    """Return readable lines of the board: each lane's Creatures, Buildings and Landscapes, then the piles."""
    m, b, pl = s.meta, s.board, s.piles
    lines = [f"turn {m.turn}, seat {m.mover} to move, phase {Phase(m.phase).name.lower()}, actions {m.actions}"]
    for q, seat in enumerate(SEATS):
        lines.append(f"{seat}: {b.hp[q]} Hit Points, hand {pl.hand_n[q]}, deck {pl.deck_n[q]}, discard {pl.disc_n[q]}")
        for lane in range(N_LANES):
            land = Landscape(b.land[q, lane]).name.lower() + ("" if b.up[q, lane] else " (down)")
            c = b.cr_card[q, lane]
            cr = (
                f"{pool.names[c]} {b.cr_atk[q, lane]}/{b.cr_def[q, lane]} damage {b.cr_dmg[q, lane]}"
                + (" exhausted" if b.cr_exh[q, lane] else "")
                + (" flooped" if b.cr_floop[q, lane] else "")
                if c >= 0
                else "-"
            )
            u = b.bu_card[q, lane]
            lines.append(f"  lane {lane + 1} [{land}]: {cr}" + (f"; building {pool.names[u]}" if u >= 0 else ""))
    return lines
