"""Balance lab: run card-game simulations, store Parquet, compute metrics, write reports.

The Python API mirrors the CLI: ``run`` / ``resume`` (``balance run``), ``load_run``,
``write_report`` (``balance report``), ``run_pair`` + ``write_compare_report``
(``balance compare``), ``replay`` (``balance replay``) and ``metrics`` (the functions
behind every table of a report).
"""

from __future__ import annotations

import importlib
from typing import Any

from balance.compare import run_pair
from balance.io import Run, load_run
from balance.replay import replay
from balance.run import resume, run
from balance.spec import RunSpec, SpecError, read_spec

# Imported on first use: the metrics and the report pull in scipy and matplotlib (about 2
# CPU-seconds), which a run's pool workers, importing this package, never need.
_LAZY = {"metrics": "balance.metrics", "write_report": "balance.report", "write_compare_report": "balance.report"}


def __getattr__(name: str) -> Any:
    """Import ``metrics``, ``write_report`` and ``write_compare_report`` when first asked for."""
    if name not in _LAZY:
        raise AttributeError(f"module 'balance' has no attribute {name!r}")
    module = importlib.import_module(_LAZY[name])
    return module if name == "metrics" else getattr(module, name)


__all__ = [
    "Run",
    "RunSpec",
    "SpecError",
    "load_run",
    "metrics",
    "read_spec",
    "replay",
    "resume",
    "run",
    "run_pair",
    "write_compare_report",
    "write_report",
]
