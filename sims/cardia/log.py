"""Readable replay logs: re-play one game with events on and format them with card names.

Python only (no Numba here): ``kernel.replay_game`` returns ``EVENT_DTYPE`` rows, and
``format_events`` turns them into lines.
"""

from __future__ import annotations

import numpy as np

from sims.cardia import kernel
from sims.cardia.state import Ability, EndReason, EventKind, Faction, Result, Zone
from sims.core import CardPool
from sims.core.driver import card_name, replay_lines

RESULTS = {Result.SEAT_0: "P0 wins it", Result.SEAT_1: "P1 wins it", Result.TIE: "tie", Result.BOTH: "both win"}


def _label(enum: type, code: int) -> str:
    """Return the readable name of an enum code."""
    try:
        return enum(code).name.lower().replace("_", " ")
    except ValueError:
        return str(code)


def _event_line(e: np.void, names: tuple[str, ...]) -> str | None:
    """Return the text of one event (without the round prefix), or None if it is folded elsewhere."""
    k, seat, card, target, value, extra = (int(e[f]) for f in ("kind", "seat", "card", "target", "value", "extra"))
    who, c, t = f"P{seat}", card_name(names, card), card_name(names, target)
    texts = {
        EventKind.DEAL: f"{who} draws an opening hand of {value} (deck {extra})",
        EventKind.PLACE: f"{who} places {c} (hand {extra})",
        EventKind.FACE_UP: f"{who} must place first, face up: {c} (Fortune Teller)",
        EventKind.REVEAL: f"reveal: P0 {c} ({value}) vs P1 {t} ({extra})",
        EventKind.ACTIVATE: f"{who} activates {c} ({_label(Ability, value)})",
        EventKind.COPY: f"{who}   {c} copies {t} ({_label(Ability, value)})",
        EventKind.MODIFIER: f"{who}   {c} gets {value:+d} (influence {extra})",
        EventKind.TOKEN: f"{who}   {c} now has {value} ongoing token(s)",
        EventKind.RESULT: f"encounter {value} ({c} vs {t}) is now: {RESULTS.get(extra, str(extra))}",
        EventKind.DISCARD: f"{who}   discards {c} from {_label(Zone, value)}",
        EventKind.DRAW: f"{who}   draws {c}",
        EventKind.RETURN: f"{who}   takes {c} back to hand; {t} is discarded (encounter {value})",
        EventKind.REMOVE: f"encounter {value} ({c} vs {t}) leaves the table",
        EventKind.REPLACE: f"{who}   {c} replaces {t} in encounter {value}",
        EventKind.NAME: f"{who}   names {_label(Faction, value)}",
        EventKind.PENDING: f"{who}   next card modifier now {value:+d} ({_label(Ability, extra)})",
        EventKind.SHUFFLE: f"{who}   shuffles the deck ({value} cards)",
        EventKind.UNDER: f"{who}   puts {c} under the deck",
        EventKind.LIBRARIAN: f"{who}   Librarian: {c} {value:+d}",
        EventKind.WIN: (
            f"{who} WINS ({_label(EndReason, value)})" if seat >= 0 else f"DRAW ({_label(EndReason, value)})"
        ),
        EventKind.TIMEOUT: f"timeout after {value} rounds: no winner",
    }
    return texts.get(k)


def format_events(events: np.ndarray, names: tuple[str, ...]) -> list[str]:
    """Return one readable line per event of ``events`` (EVENT_DTYPE), decks and round headers included."""
    decks: dict[int, list[str]] = {0: [], 1: []}
    lines: list[str] = []
    for e in events:
        kind, seat = int(e["kind"]), int(e["seat"])
        if kind == EventKind.DECK:
            decks[seat].append(card_name(names, int(e["card"])))
            continue
        if kind == EventKind.MATCH_GAME:
            decks = {0: [], 1: []}
            won = int(e["extra"])
            lines.append(f"== game {int(e['value'])} of the match (games won {won // 16}-{won % 16})")
            continue
        if kind == EventKind.DEAL:
            lines.append(f"P{seat} deck list: {', '.join(decks[seat])}")
        if kind == EventKind.ROUND:
            lines.append(f"-- round {int(e['turn'])}: signets {int(e['value'])}-{int(e['extra'])}")
            continue
        text = _event_line(e, names)
        if text is not None:
            lines.append(f"[{int(e['turn']):3d}] {text}")
    return lines


def replay(
    params, pool: CardPool, decks: np.ndarray, bots: np.ndarray, weights: np.ndarray, root_seed: int, game: int
) -> list[str]:
    """Re-play game ``game`` of a run exactly as ``play_games`` did and return its log lines."""
    return replay_lines(kernel.replay_game, format_events, params, pool, decks, bots, weights, root_seed, game)
