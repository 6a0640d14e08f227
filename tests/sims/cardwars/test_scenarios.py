"""Every Card Wars scenario file (rulebook examples, rulings, one per card) passes through the kernel."""

import tomllib
from pathlib import Path

import pytest

import sims
from balance.scenario import format_result, run_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_passes(path):
    result = run_scenario(path)
    assert result.passed, "\n".join(format_result(result))


def test_every_card_of_the_four_decks_has_a_scenario_of_its_own():
    """Issue 11: one scenario per card, named for it ("<card>: ..." or "<card> (ruling): ..."), among those above."""
    game = sims.load("cardwars")
    cards = set(game.load_pool(game.cards_path).names)
    named = {tomllib.loads(p.read_text(encoding="utf-8"))["name"] for p in SCENARIOS}
    missing = sorted(c for c in cards if not any(n.startswith((f"{c}:", f"{c} (")) for n in named))
    assert len(cards) == 87  # the distinct cards of the four 40-card starter decks (96 rows)
    assert missing == []
