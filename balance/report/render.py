"""Charts drawn in other processes while the report's sections go on: :class:`Renderer`.

Drawing is most of a report's work (Card Wars' 1 M-game report: about 1.2 of its 1.7 CPU-s
after the imports) and matplotlib holds the GIL while it draws, so threads cannot spread
it over the cores. A :class:`Renderer` forks drawing processes when the report starts;
:meth:`balance.report.html.Charts.add` hands each figure to them (pickled: our own
figure, a moment old, sent down a pipe to a process we forked, never a file's contents)
and puts a placeholder into the section's HTML; :meth:`~balance.report.html.Charts.resolve`
swaps the placeholders for the figures at the end. A process draws with
:func:`balance.report.html.png`, the function the report calls in-process, so the files
and the page are the same bytes either way (``tests/balance/test_report_render.py``).

Forking needs the ``fork`` start method (Linux; macOS and Windows draw in-process) and
at least two CPUs this process may use; with one, a drawing process would only wait for
the cores the report already uses.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

MAX_PROCESSES = 2  # Card Wars' report, 2 cores: in-process 2.58-2.62 s; one drawing process 2.61; two 2.14-2.16


def processes() -> int:
    """Return how many drawing processes a report forks: 0 (draw in-process) without ``fork`` or a second CPU."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return 0
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return min(cpus, MAX_PROCESSES) if cpus >= 2 else 0


def _draw(path: str, data: bytes) -> bytes:
    """Draw the pickled figure ``data`` (from :meth:`Renderer.submit`) as ``html.png`` does; write ``path``."""
    from balance.report.html import png

    out = png(pickle.loads(data))
    Path(path).write_bytes(out)
    return out


class Renderer:
    """A pool of forked drawing processes (a context manager: leaving it waits for them and stops them).

    Create it before the report starts any thread of its own: a fork copies only the
    forking thread, and a lock another thread held then would stay held in the copy.
    """

    def __init__(self, n: int) -> None:
        """Fork ``n`` drawing processes (0: none, :meth:`submit` declines and the report draws in-process).

        matplotlib (and its font list) is imported first, so every process inherits it.
        """
        self.pool: ProcessPoolExecutor | None = None
        if n <= 0:
            return
        # imported once, here, for every process (matplotlib reads its font list on import)
        import matplotlib.backends.backend_agg
        import matplotlib.figure  # noqa: F401

        self.pool = ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("fork"))
        self.pool.submit(os.getpid).result()  # with "fork" the first task forks every process at once

    def submit(self, path: Path, fig: Figure) -> Future[bytes] | None:
        """Start drawing ``fig`` into ``path``; return the PNG bytes' future, or None to draw it in-process.

        None without processes, and for a figure that cannot be pickled (e.g. a formatter made from a lambda).
        """
        if self.pool is None:
            return None
        try:
            data = pickle.dumps(fig, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError):
            return None
        return self.pool.submit(_draw, str(path), data)

    def __enter__(self) -> Renderer:
        """Return the renderer."""
        return self

    def __exit__(self, *exc: Any) -> None:
        """Wait for the drawings and stop the processes."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=exc[0] is not None)
