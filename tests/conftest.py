"""Shared fixtures: headless matplotlib, small run specs and runs in tmp dirs; opt-in markers."""

import matplotlib

matplotlib.use("Agg")

import pytest

from balance.spec import RunSpec
from sims.core import TABLES

# Tests that need more than Python: plain ``pytest`` / ``make test`` leave them out (deselected,
# and counted as such); ``-m NAME`` runs them. ``.ci/run`` installs what they need when missing.
OPT_IN = {
    "browser": "opens generated reports in headless Chromium, Debian's chromium package (make test-browser)",
    "twin": "builds the C twin of a kernel with the system gcc and compares their games (make test-twin)",
}


def pytest_configure(config: pytest.Config) -> None:
    """Register the opt-in markers."""
    for name, text in OPT_IN.items():
        config.addinivalue_line("markers", f"{name}: {text}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect each opt-in marker's tests unless the marker expression names it (``-m browser``)."""
    asked = config.option.markexpr or ""
    skipped = [name for name in OPT_IN if name not in asked]
    dropped = [item for item in items if any(item.get_closest_marker(name) for name in skipped)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in dropped]


@pytest.fixture
def small_spec(tmp_path):
    """A 600-game greedy-vs-greedy Cardinger spec writing under tmp_path: every raw table and the sums."""
    out = str(tmp_path / "runs")
    return RunSpec(game="cardinger", n_games=600, seed=3, out=out, chunk_size=250, workers=1, tables=TABLES)
