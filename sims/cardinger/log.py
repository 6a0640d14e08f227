"""Readable replay logs: re-play one game with events on and format them with card names.

Python only (no Numba here): ``kernel.replay_game`` returns ``EVENT_DTYPE`` rows, and
``format_events`` turns them into lines.
"""

from __future__ import annotations

import numpy as np

from sims.cardinger import kernel
from sims.cardinger.state import EventKind
from sims.core import CardPool
from sims.core.driver import card_name, replay_lines


def _event_line(e: np.void, names: tuple[str, ...]) -> str | None:
    """Return the text of one event (without the turn prefix), or None if it is folded elsewhere."""
    k, seat, card, target, value, extra = (int(e[f]) for f in ("kind", "seat", "card", "target", "value", "extra"))
    who, c, t = f"P{seat}", card_name(names, card), card_name(names, target)
    texts = {
        EventKind.DEAL: f"{who} draws an opening hand of {value} (deck {extra})",
        EventKind.DRAW: f"{who} draws {c}",
        EventKind.IDLE_DRAW: f"{who} did nothing: extra draw {c}",
        EventKind.PLAY: f"{who} plays {c}" + (f" (cost {value})" if value else ""),
        EventKind.PAY: f"{who}   discards {c} to pay for {t}",
        EventKind.RETIRE: f"{who} retires {c}",
        EventKind.ATTACK: f"{who} {c} attacks " + ("everything it can (OMNI)" if target < 0 else t),
        EventKind.DAMAGE: f"{who}   {t} takes 1 damage ({value} HP left)",
        EventKind.DESTROY: f"P{seat}   {t} is destroyed" + (" by FRAGILE" if card < 0 else ""),
        EventKind.DRAW_ACTION: f"{who} {c} takes a draw action: {value} card(s)",
        EventKind.DRAWN: f"{who}   draws {c}",
        EventKind.SCORE_ACTION: f"{who} {c} scores {value} (score {extra})",
        EventKind.PROSPERITY: f"{who}   PROSPERITY +{value} (score {extra})",
        EventKind.STEAL: f"{who}   STEAL +{value} from {c} (score {extra})",
        EventKind.DEVOUR: f"{who}   DEVOUR: {c} now {value} HP",
        EventKind.DECAY: f"{who}   DECAY: {c} now {value} DEF",
        EventKind.FRAGILE: f"{who}   FRAGILE: {c} now {value} HP",
        EventKind.REPLENISH: f"{who} replenishes the deck from the discard pile ({value} cards)",
        EventKind.REPLENISH_POINT: f"{who} scores {value} for replenishing (score {extra})",
        EventKind.END_TURN: f"{who} ends the turn (hand {value}, deck {extra})",
        EventKind.WIN: f"{who} WINS with {value} points against {extra}",
        EventKind.TIMEOUT: f"timeout after {value} turns: no winner",
    }
    return texts.get(k)


def format_events(events: np.ndarray, names: tuple[str, ...]) -> list[str]:
    """Return one readable line per event of ``events`` (EVENT_DTYPE), decks and turn headers included."""
    decks: dict[int, list[str]] = {0: [], 1: []}
    lines: list[str] = []
    for e in events:
        kind, seat = int(e["kind"]), int(e["seat"])
        if kind == EventKind.DECK:
            decks[seat].append(card_name(names, int(e["card"])))
            continue
        if kind == EventKind.DEAL:
            lines.append(f"P{seat} deck: {', '.join(decks[seat])}")
        if kind == EventKind.TURN_START:
            lines.append(
                f"-- turn {int(e['turn'])}: P{seat} to move; score {int(e['value'])}-{int(e['extra'])}, "
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
