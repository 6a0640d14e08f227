"""Render charts to PNG in a forked child, while the report goes on computing in this process.

``savefig`` is pure CPU work that holds the GIL (about a third of a report's chart time), so
threads cannot overlap it with anything but polars. :class:`PngWorker` forks a child per
figure, one child at a time: the child has the figure already (no pickling, nothing to
import), renders it, writes the PNG bytes to a pipe and exits, so its PNG is byte for byte the
one ``savefig`` writes here. Every fork happens holding ``DRAWING`` (the lock all drawing
takes), so no other thread is inside matplotlib; the child runs matplotlib and zlib only,
never polars, whose threads the fork leaves behind. Where ``fork`` is missing or fails, or a
child fails, the caller draws the figure itself (``Charts.embed`` in ``balance.report.html``).
"""

from __future__ import annotations

import io
import os
import sys
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from balance.charts._base import DRAWING


class WorkerGone(RuntimeError):
    """No child rendered the figure: draw it in this process instead."""


def _render_and_exit(fig: Any, fd: int) -> None:
    """In the child: write ``fig``'s PNG bytes to ``fd`` and exit at once (status 0 only when all was written)."""
    status = 1
    try:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png")
        view = memoryview(buffer.getvalue())
        while view:
            view = view[os.write(fd, view) :]
        status = 0
    finally:
        os._exit(status)  # no atexit handlers, no flushing of the parent's buffers


class PngWorker:
    """Renders figures to PNG bytes in forked children, one at a time, in the order submitted.

    The figures wait here until the child before them is done, so the caller may
    :meth:`steal` a waiting one and render it itself when it has nothing else to do.
    ``fork`` is ``os.fork`` (replaceable for tests); on a platform other than Linux no child
    is forked and every figure is left to the caller.
    """

    def __init__(self, fork: Callable[[], int] | None = None) -> None:
        """Get ready to fork (nothing runs until the first :meth:`submit`)."""
        self._fork = fork or (os.fork if sys.platform.startswith("linux") else None)
        self._queued: deque[tuple[Future[bytes], Any]] = deque()  # not handed to a child yet
        self._child: threading.Thread | None = None  # the thread waiting for the current child
        self._lock = threading.Lock()  # taken after DRAWING, never before

    def submit(self, fig: Any) -> Future[bytes]:
        """Queue ``fig`` (not to be changed any more) and return the future of its PNG bytes."""
        future: Future[bytes] = Future()
        with DRAWING, self._lock:
            self._queued.append((future, fig))
            if self._child is None:
                self._start_next()
        return future

    def steal(self, future: Future[bytes]) -> bool:
        """Take back ``future``'s figure if no child has it yet; return whether it was taken."""
        with self._lock:
            for i, (queued, _) in enumerate(self._queued):
                if queued is future:
                    del self._queued[i]
                    return True
        return False

    def close(self) -> None:
        """Wait for the current child, if any (the caller has what it needs from it or stole the rest)."""
        with self._lock:
            child = self._child
        if child is not None:
            child.join()

    def _start_next(self) -> None:
        """Fork a child for the next queued figure (holding ``DRAWING`` and ``_lock``)."""
        while self._queued:
            future, fig = self._queued.popleft()
            if self._fork is None:
                future.set_exception(WorkerGone("no fork on this platform"))
                continue
            read, write = os.pipe()
            try:
                pid = self._fork()
            except OSError as error:
                os.close(read)
                os.close(write)
                future.set_exception(WorkerGone(f"fork failed: {error}"))
                continue
            if pid == 0:
                os.close(read)
                _render_and_exit(fig, write)
            os.close(write)
            self._child = threading.Thread(target=self._wait, args=(pid, read, future), daemon=True, name="png-child")
            self._child.start()
            return
        self._child = None

    def _wait(self, pid: int, read: int, future: Future[bytes]) -> None:
        """Collect the child's PNG bytes and exit status, then start the next child."""
        parts = []
        with os.fdopen(read, "rb") as pipe:
            while chunk := pipe.read(1 << 16):
                parts.append(chunk)
        status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        if status == 0:
            future.set_result(b"".join(parts))
        else:
            future.set_exception(WorkerGone(f"the child rendering the figure exited with {status}"))
        with DRAWING, self._lock:
            self._start_next()
