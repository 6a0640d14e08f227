"""Every Card Wars scenario file (rulebook examples, rulings, one per card) passes through the kernel."""

from pathlib import Path

import pytest

from balance.scenario import format_result, run_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_passes(path):
    result = run_scenario(path)
    assert result.passed, "\n".join(format_result(result))
