"""Readable replay logs: re-play one game with events on and format them with card names.

Python only (no Numba here): ``kernel.replay_game`` returns ``EVENT_DTYPE`` rows, and
``format_events`` turns them into lines.
"""

from __future__ import annotations

import numpy as np

from sims.blessings import kernel
from sims.blessings.state import BattleEnd, EndReason, EventKind, Purpose
from sims.core import CardPool
from sims.core.driver import card_name, replay_lines


def _event_line(e: np.void, names: tuple[str, ...]) -> str | None:
    """Return the text of one event (without the turn prefix), or None if it is folded elsewhere."""
    k, seat, card, target, value, extra = (int(e[f]) for f in ("kind", "seat", "card", "target", "value", "extra"))
    who, c, t = f"P{seat}", card_name(names, card), card_name(names, target)
    texts = {
        EventKind.REVEAL: f"{who} reveals {c} (Attack {value})",
        EventKind.FIRST: f"{who} goes first in battle {value}",
        EventKind.DEAL: f"{who} draws an opening hand of {value} (deck {extra})",
        EventKind.CURSE_HIT: f"{who}   curse hits {t} for {value} ({extra} Health left)",
        EventKind.CURSED_AWAY: f"{who}   curse destroys {t} ({value} Health)",
        EventKind.BLESSED: f"{who}   blessing +{value} on {t} ({extra} Health)",
        EventKind.WIPED: f"{who} has lost every card to curses: WIPED OUT",
        EventKind.SURRENDER: f"{who} surrenders the battle",
        EventKind.DRAW: f"{who}   draws {c}" + (" (replacement)" if value else ""),
        EventKind.RESHUFFLE: f"{who}   shuffles the discard pile into a new deck ({value} cards)",
        EventKind.ATTACK: f"{who} {c} attacks {t} for {value} ({max(extra, 0)} Health left)",
        EventKind.DESTROY: f"P{seat}   {t} is destroyed",
        EventKind.BLESS: f"{who} {c} blesses +{value} (blessing pool {extra})",
        EventKind.CURSE: f"{who} {c} curses +{value} (opponent's curse pool {extra})",
        EventKind.DISCARD: f"{who} {c} is discarded for +{value} blessing (pool {extra})",
        EventKind.END_TURN: f"{who} ends the turn (hand {value}, cards left {extra})",
    }
    if k == EventKind.ARRANGE:
        return f"{who} arranges the hand ({Purpose(value).name.lower()})"
    if k == EventKind.BATTLE_END:
        how = BattleEnd(value).name.lower().replace("_", " ")
        return f"battle ends by {how}: " + (f"P{seat} wins it, bonus +{extra}" if seat >= 0 else "drawn")
    if k == EventKind.GAME_END:
        reason = EndReason(value).name.lower().replace("_", " ")
        return f"GAME OVER ({reason}): " + (f"P{seat} WINS" if seat >= 0 else "no winner")
    return texts.get(k)


def format_events(events: np.ndarray, names: tuple[str, ...]) -> list[str]:
    """Return one readable line per event of ``events`` (EVENT_DTYPE), battle and turn headers included."""
    owned: dict[int, list[str]] = {0: [], 1: []}
    lines: list[str] = []
    for e in events:
        kind, seat = int(e["kind"]), int(e["seat"])
        if kind == EventKind.OWNED:
            owned[seat].append(card_name(names, int(e["card"])))
            continue
        if kind == EventKind.BATTLE:
            if int(e["value"]) == 1:
                lines += [f"P{p} owns: {', '.join(cards)}" for p, cards in owned.items() if cards]
            lines.append(f"== battle {int(e['value'])}: P{seat} goes first ==")
            continue
        if kind == EventKind.TURN_START:
            lines.append(
                f"-- turn {int(e['turn'])}: P{seat} to move; hand {int(e['card'])}, deck {int(e['target'])}, "
                f"curse sent {int(e['value'])}, curse received {int(e['extra'])}"
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
