"""Shared helpers of the Cardinger rule tests (``test_rules*.py``): card specs, fillers and the event log.

Every test builds its own cards (``card(...)`` specs for ``cg.make_cards``, the ``cg`` fixture of
``conftest.py``) with the stats the rulings state, so no test depends on an inferred stat of cards.csv.
"""

import sims

GAME = sims.load("cardinger")


def card(**stats) -> dict:
    """Return a card spec for ``cg.make_cards``: cost, hp, atk, def_, draw, score, keywords (else 0, HP 1)."""
    return stats


FILLER = card()  # a plain 0-cost, 1-HP card for hands and decks


def fillers(cards_before: int, n: int) -> list[int]:
    """Return the ids of ``n`` filler cards appended after ``cards_before`` specific cards."""
    return list(range(cards_before, cards_before + n))


def events(s, kind) -> list:
    """Return the logged events of ``kind`` (the test states log everything)."""
    log = s["scratch"]["log"][: s["meta"]["log_n"]]
    return [e for e in log if e["kind"] == kind]
