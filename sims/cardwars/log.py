"""Readable replay logs: re-play one game with events on and format them with card names.

Python only (no Numba here): ``kernel.replay_game`` returns ``EVENT_DTYPE`` rows and
``format_events`` turns them into lines. Lanes are printed 1-4 (RULES.md).
"""

from __future__ import annotations

import numpy as np

from sims.cardwars import kernel
from sims.cardwars.layout import EventKind
from sims.cardwars.state import DeckName
from sims.core import CardPool
from sims.core.driver import card_name, replay_lines


def _slot(value: int) -> str:
    return f"lane {value + 1}" if value < 4 else f"Building in lane {value - 3}"


def _event_line(e: np.void, names: tuple[str, ...]) -> str | None:
    """Return the text of one event (without the turn prefix), or None if it is folded elsewhere."""
    k, seat, card, target, value, extra = (int(e[f]) for f in ("kind", "seat", "card", "target", "value", "extra"))
    who, c, t = f"P{seat}", card_name(names, card), card_name(names, target)
    texts = {
        EventKind.DEAL: f"{who} draws an opening hand of {value} (deck {extra})",
        EventKind.MULLIGAN: f"{who} {'takes a mulligan' if value else 'keeps the hand'}",
        EventKind.DRAW: f"{who}   draws {c}",
        EventKind.PLAY: f"{who} plays {c}" + (f" into lane {value + 1}" if value >= 0 else "") + f" ({extra} Actions)",
        EventKind.REPLACE: f"{who}   {c} replaces {t}",
        EventKind.ENTER: f"{who}   {c} enters lane {value + 1}",
        EventKind.LEAVE: f"{who}   {c} leaves lane {value + 1}" + (" to its owner's hand" if extra else ""),
        EventKind.DESTROY: f"{who}   {t} is destroyed" + (f" (lane {value + 1})" if value >= 0 else ""),
        EventKind.FLOOP: f"{who} Floops {c}" + (f" (on {t})" if target != card else "") + f" in {_slot(value)}",
        EventKind.ACTIVATE: f"{who} activates {c} in {_slot(value)}",
        EventKind.FIGHT: f"{who} {c} fights in lane {value + 1}: "
        + (f"{extra} to {t}" if target >= 0 else f"{extra} to the opponent's Hit Points"),
        EventKind.DAMAGE: f"{who}   {t} takes {value} (damage {extra})",
        EventKind.HERO_DAMAGE: f"{who}   loses {value} Hit Points ({extra} left)",
        EventKind.HEAL: f"{who}   {t} " + ("heals 1 damage" if value else "gains 1 DEF for good"),
        EventKind.FLIP: f"{who}   Landscape in lane {value + 1} turns face {'up' if extra else 'down'}",
        EventKind.MOVE: f"{who}   {c} moves from lane {value + 1} to lane {extra % 4 + 1}"
        + (" on the other side" if extra >= 4 else ""),
        EventKind.TO_HAND: f"{who}   {c} goes to hand",
        EventKind.MILL: f"{who}   {c} goes from the deck to the discard pile",
        EventKind.DISCARD: f"{who}   discards {c}",
        EventKind.ACTION_DRAW: f"{who} spends an Action to draw ({value} left)",
        EventKind.GAIN_ACTION: f"{who}   gains an Action ({value} now)",
        EventKind.READY: f"{who}   {c} is readied",
        EventKind.STEAL: f"{who}   takes {c}"
        + (f" into lane {value + 1}" if value >= 0 else " from the opponent's hand"),
        EventKind.RETURN: f"{who}   {c} comes back to lane {value + 1}",
        EventKind.TURN_ATK: f"{who}   {t} {value:+d} ATK this turn",
        EventKind.COPY: f"{who}   {t} gains the Floop of {c} this turn",
        EventKind.END_TURN: f"{who} ends the turn (hand {value}, deck {extra})",
        EventKind.WIN: f"{who} WINS ({value} Hit Points against {extra})",
        EventKind.DRAWN_GAME: f"both players at 0 Hit Points at once ({value}, {extra}): a draw",
        EventKind.TIMEOUT: f"timeout after {value} turns: no winner",
        EventKind.DECK_TOP: f"{who}   puts {c} on top of the deck",
        EventKind.BOTTOM: f"{who}   puts {c} on the bottom of the deck",
        EventKind.SPELL: f"{who}   {c} resolves and is discarded",
    }
    return texts.get(k)


def format_events(events: np.ndarray, names: tuple[str, ...]) -> list[str]:
    """Return one readable line per event of ``events`` (EVENT_DTYPE), deck lists and turn headers included."""
    decks: dict[int, list[str]] = {0: [], 1: []}
    deck_names: dict[int, str] = {}
    lines: list[str] = []
    for e in events:
        kind, seat = int(e["kind"]), int(e["seat"])
        if kind == EventKind.DECK:
            decks[seat].append(card_name(names, int(e["card"])))
            deck_names[seat] = DeckName(int(e["extra"])).name.lower()
            continue
        if kind == EventKind.DEAL and decks[seat]:
            lines.append(f"P{seat} deck {deck_names[seat]}: {', '.join(decks[seat])}")
            decks[seat] = []
        if kind == EventKind.TURN_START:
            lines.append(
                f"-- turn {int(e['turn'])}: P{seat} to move; Hit Points {int(e['value'])}-{int(e['extra'])}, "
                f"hand {int(e['card'])}, deck {int(e['target'])}"
            )
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
