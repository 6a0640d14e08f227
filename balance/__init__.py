"""Balance lab: run card-game simulations, store Parquet, compute metrics, write reports.

The Python API mirrors the CLI: ``run`` / ``resume`` (``balance run``), ``load_run``,
``write_report`` (``balance report``), ``run_pair`` + ``write_compare_report``
(``balance compare``), ``replay`` (``balance replay``) and ``metrics`` (the functions
behind every table of a report).
"""

from balance import metrics
from balance.compare import run_pair
from balance.io import Run, load_run
from balance.replay import replay
from balance.report import write_compare_report, write_report
from balance.run import resume, run
from balance.spec import RunSpec, SpecError, read_spec

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
