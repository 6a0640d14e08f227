"""The report of ``balance run --report``, written by a process forked when the command starts.

A run's start leaves a core idle: the command imports Numba and the game and resolves the
spec before it forks the run's workers (about 0.7 s on one core). A process forked first, from
a process that has imported little and runs no thread, imports the report's modules (polars,
scipy, matplotlib: about 0.7 CPU-s) and starts the report's drawing processes
(:class:`balance.report.render.Renderer`) on that core, then waits for the run: the run's
workers get both cores to themselves, and the report starts drawing the moment the run ends.

The command calls :meth:`FollowingReport.send` with the run's directory when the run has
ended, or :meth:`FollowingReport.cancel` when it has not (the process then exits without
writing). The process sends back what the command prints (the report's path) or why it
failed; it prints nothing itself. Without ``os.fork``, or in a process that already runs
other threads or has imported polars (``balance.cli`` called from a test or a notebook:
:func:`_fork_safe`), there is no such process and :meth:`~FollowingReport.send` returns
None: the command writes the report itself.
"""

from __future__ import annotations

import os
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from balance.report.render import Renderer

Write = Callable[[Path, "Renderer"], str]


class ReportFailed(Exception):
    """The report process failed on bad input (one of the ``errors`` given): its message."""


class FollowingReport:
    """A forked process that writes a run's report once it is told where the run is."""

    def __init__(self, write: Write, errors: tuple[type[BaseException], ...] = ()) -> None:
        """Fork the process (none without ``os.fork`` or beside other threads); it calls ``write(run_dir, renderer)``.

        ``write`` returns the text the command prints; an exception of ``errors`` becomes a
        :class:`ReportFailed` in :meth:`send`, any other a ``RuntimeError`` with the process's
        traceback. Call it before the command starts a thread or imports much: a fork copies
        only the calling thread.
        """
        self.pid: int | None = None
        self.to_child = self.from_child = -1
        if not hasattr(os, "fork") or not _fork_safe():
            return
        down, self.to_child = os.pipe()
        self.from_child, up = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the report process: never returns into the command
            try:
                os.close(self.to_child)
                os.close(self.from_child)
                _answer(up, _follow(down, write, errors))
            finally:
                os._exit(0)
        os.close(down)
        os.close(up)
        self.pid = pid

    def send(self, run_dir: Path) -> str | None:
        """Hand ``run_dir`` to the report process and wait for it; return what it wrote (None: no process)."""
        if self.pid is None:
            return None
        os.write(self.to_child, os.fsencode(run_dir))
        os.close(self.to_child)
        answer = _read_all(self.from_child)
        self._reap()
        kind, _, text = answer.decode("utf-8", "replace").partition("\n")
        if kind == "ok":
            return text
        if kind == "error":
            raise ReportFailed(text)
        raise RuntimeError(f"the report process failed:\n{text or '(no answer)'}")

    def cancel(self) -> None:
        """Let the report process go without writing anything (the run did not end)."""
        if self.pid is not None:
            os.close(self.to_child)
            self._reap()

    def _reap(self) -> None:
        os.close(self.from_child)
        os.waitpid(self.pid, 0)
        self.pid = None


def _fork_safe() -> bool:
    """Whether this process may fork the report process: no other Python thread, and polars not yet imported.

    A lock another thread held at the fork would stay held in the copy; polars' thread pool,
    once it has run, leaves the copy's polars deadlocked (what ``balance.cli`` called in a test
    process that has made a report before would meet). Numpy's BLAS threads handle a fork.
    """
    return threading.active_count() == 1 and "polars" not in sys.modules


def _follow(fd: int, write: Write, errors: tuple[type[BaseException], ...]) -> tuple[str, str] | None:
    """The report process: import, start drawing processes, wait for the run's path, write its report."""
    try:
        import matplotlib.backends.backend_agg
        import matplotlib.figure  # noqa: F401

        from balance.report import render

        with render.Renderer(render.processes()) as drawing:
            data = _read_all(fd)
            if not data:  # the run did not end: no report
                return None
            return "ok", write(Path(os.fsdecode(data)), drawing)
    except KeyboardInterrupt:
        return None  # the command says it was interrupted
    except errors as exc:
        return "error", str(exc)
    except BaseException:
        return "crash", traceback.format_exc()


def _answer(fd: int, answer: tuple[str, str] | None) -> None:
    if answer is not None:
        data = f"{answer[0]}\n{answer[1]}".encode()
        while data:
            data = data[os.write(fd, data) :]
    os.close(fd)


def _read_all(fd: int) -> bytes:
    data = b""
    while chunk := os.read(fd, 65536):
        data += chunk
    return data
