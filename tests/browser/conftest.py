"""Browser tests run only when asked for: ``make test-browser`` (``pytest -m browser tests/browser``).

They need Debian's ``chromium`` package (``.ci/run`` installs it when missing), so plain
``pytest`` / ``make test`` leaves them out (deselected, and counted as such).
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``browser`` marker."""
    config.addinivalue_line("markers", "browser: opens generated reports in headless Chromium (make test-browser)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the browser tests unless the marker expression names them (``-m browser``)."""
    if "browser" in (config.option.markexpr or ""):
        return
    chosen = [item for item in items if item.get_closest_marker("browser") is None]
    dropped = [item for item in items if item.get_closest_marker("browser") is not None]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = chosen
