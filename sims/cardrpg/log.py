"""Readable replay logs: re-play one character with events on and format them with card names."""

from __future__ import annotations

import numpy as np

from sims.cardrpg import kernel
from sims.cardrpg.state import EndReason, EventKind
from sims.core import CardPool
from sims.core.driver import card_name, replay_lines


def _event_line(e: np.void, names: tuple[str, ...]) -> str | None:
    """Return the text of one event, or None if it is folded elsewhere."""
    k, card, value, extra = (int(e[f]) for f in ("kind", "card", "value", "extra"))
    c = card_name(names, card)
    if k == EventKind.SESSION_END:
        return f"SESSION ENDS ({EndReason(value).name.lower()}): {extra} kill(s)"
    texts = {
        EventKind.CHARACTER: f"character: {c}, STR {value}, HP {extra}",
        EventKind.DEAL: f"deals {value} card(s) to the hand (draw pile {extra})",
        EventKind.MONSTER: f"monster {c}: {value} HP, worth {extra} XP",
        EventKind.PLAYER_ATTACK: f"  attack with {c}...: {value} damage (monster HP {extra})",
        EventKind.RANDOM_TURN: f"    random attack turns up {c} (x{value})",
        EventKind.SPADE: f"  Spade {c}: {value} damage (monster HP {extra})",
        EventKind.CLUB: f"  Club {c}: one more attack",
        EventKind.ACE: f"  uses {c}",
        EventKind.MONSTER_ATTACK: (
            f"  monster hits for {value} with {c} (HP {extra})"
            if card >= 0
            else f"  monster's critical chain runs out of cards: 0 damage (HP {extra})"
        ),
        EventKind.JOKER_ATTACK: "  monster turns up a JOKER",
        EventKind.SAVED: f"  saved: HP {value}",
        EventKind.THEFT: f"  theft: {c}" + (" (top of the draw pile)" if value < 0 else ""),
        EventKind.VICTORY: f"VICTORY over {c}: +{value} XP ({extra})",
        EventKind.INVENTORY: f"  Inventory draw: {c}" + (f" (+{value} gold)" if value else ""),
        EventKind.LEVEL_UP: f"LEVEL UP to {value} (STR {extra})",
        EventKind.DEATH: f"DIES to {c}",
        EventKind.BUYBACK: f"  buys back {c}",
        EventKind.BOUGHT: f"  buys {c} for {value} gold",
        EventKind.SOLD: f"  sells {c} for {value} gold",
        EventKind.REVEALED: f"  turns up {c} to buy",
        EventKind.BOTH_OUT: f"  both out of attack cards: {value} fresh cards",
        EventKind.JOKER_SHUFFLE: f"  Joker in the Inventory draw: {value} cards go under the draw pile",
    }
    return texts.get(k)


def format_events(events: np.ndarray, names: tuple[str, ...]) -> list[str]:
    """Return one readable line per event of ``events`` (EVENT_DTYPE), with battle headers."""
    lines: list[str] = []
    for e in events:
        kind = int(e["kind"])
        if kind == EventKind.SESSION:
            lines.append(f"== session {int(e['value'])} (level {int(e['extra'])}) ==")
            continue
        if kind == EventKind.MONSTER:
            lines.append(f"-- battle {int(e['turn'])}")
        text = _event_line(e, names)
        if text is not None:
            lines.append(text)
    return lines


def replay(
    params, pool: CardPool, decks: np.ndarray, bots: np.ndarray, weights: np.ndarray, root_seed: int, game: int
) -> list[str]:
    """Re-play the character of session ``game`` exactly as ``play_games`` did and return its log lines."""
    return replay_lines(kernel.replay_game, format_events, params, pool, decks, bots, weights, root_seed, game)
