"""Render charts to PNG in a second process, while the report goes on computing in this one.

``savefig`` is pure CPU work that holds the GIL (about a third of a report's chart time), so
threads cannot overlap it with anything but polars. :class:`PngWorker` starts a fresh
interpreter running this file by path (``python -P``: it imports matplotlib, never
``balance`` or anything the report has started), sends it each figure pickled and gets the
PNG bytes back; a figure round-trips through pickle unchanged, so its PNG is byte for byte
the one ``savefig`` writes here. When the worker cannot be started or dies, the caller draws
the figure itself (``Charts.add`` in ``balance.report.html`` does).

Protocol on the worker's stdin and stdout: each message is a 4-byte little-endian length
and that many bytes (a pickled ``Figure`` in, its PNG out), answers in the order asked.
"""

from __future__ import annotations

import contextlib
import io
import pickle
import struct
import subprocess
import sys
import threading
from collections import deque
from concurrent.futures import Future
from typing import IO, Any

_HEAD = struct.Struct("<I")


class WorkerGone(RuntimeError):
    """The render worker stopped before answering: draw the figure in this process instead."""


def _read_message(stream: IO[bytes]) -> bytes | None:
    """Return the next length-prefixed message of ``stream``, or None at its end."""
    head = stream.read(_HEAD.size)
    if len(head) < _HEAD.size:
        return None
    (size,) = _HEAD.unpack(head)
    body = stream.read(size)
    return body if len(body) == size else None


class PngWorker:
    """A process that renders pickled figures to PNG bytes, one at a time, in the order submitted.

    One figure is in the worker at a time; the others wait here, so the caller may
    :meth:`steal` a waiting one and render it itself when it has nothing else to do.
    """

    def __init__(self, command: list[str] | None = None) -> None:
        """Start the worker (``command`` replaces ``python -P <this file>``, for tests); never raises."""
        self._queued: deque[tuple[Future[bytes], bytes]] = deque()  # not sent yet
        self._busy: Future[bytes] | None = None  # sent, not answered
        self._lock = threading.Lock()
        try:
            self._proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                command or [sys.executable, "-P", __file__],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            self._proc = None
            return
        self._reader = threading.Thread(target=self._read, daemon=True, name="png-worker")
        self._reader.start()

    def submit(self, fig: Any) -> Future[bytes]:
        """Queue ``fig`` (pickled now, so later changes to it do not count) and return its PNG bytes' future."""
        future: Future[bytes] = Future()
        data = pickle.dumps(fig, protocol=pickle.HIGHEST_PROTOCOL)
        with self._lock:
            self._queued.append((future, data))
            self._send_next()
        return future

    def steal(self, future: Future[bytes]) -> bool:
        """Take back ``future``'s figure if the worker has not got it yet; return whether it was taken."""
        with self._lock:
            for i, (queued, _) in enumerate(self._queued):
                if queued is future:
                    del self._queued[i]
                    return True
        return False

    def close(self) -> None:
        """Let the worker finish what it was given, exit, and wait for it (its answers still arrive)."""
        if self._proc is None:
            return
        with self._lock:
            self._close_stdin()
        self._reader.join()  # it reads to the end of the worker's answers, then closes the pipe
        self._proc.wait()

    def _close_stdin(self) -> None:
        """Close the worker's stdin (holding ``_lock``): it exits once it has answered what it got."""
        stdin = self._proc.stdin if self._proc is not None else None
        if stdin is not None and not stdin.closed:
            with contextlib.suppress(OSError):
                stdin.close()

    def _send_next(self) -> None:
        """Send the next queued figure when the worker is free (holding ``_lock``); fail all if it is gone."""
        if self._busy is not None or not self._queued:
            return
        stdin = self._proc.stdin if self._proc is not None else None
        future, data = self._queued.popleft()
        try:
            if stdin is None or stdin.closed:
                raise BrokenPipeError
            stdin.write(_HEAD.pack(len(data)) + data)
            stdin.flush()
        except OSError:
            for waiting, _ in [(future, data), *self._queued]:
                waiting.set_exception(WorkerGone("the render worker is not running"))
            self._queued.clear()
            return
        self._busy = future

    def _read(self) -> None:
        assert self._proc is not None
        assert self._proc.stdout is not None
        while (png := _read_message(self._proc.stdout)) is not None:
            with self._lock:
                future, self._busy = self._busy, None
                self._send_next()
            assert future is not None
            future.set_result(png)
        with self._lock:
            if self._busy is not None:
                self._busy.set_exception(WorkerGone("the render worker stopped"))
            self._busy = None
            self._close_stdin()
            self._send_next()  # fails whatever is still queued
        self._proc.stdout.close()


def serve(stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """Answer every pickled figure on ``stdin`` with its PNG bytes on ``stdout`` until ``stdin`` ends."""
    import matplotlib.figure  # noqa: F401  (imported before the first figure arrives)

    while (message := _read_message(stdin)) is not None:
        buffer = io.BytesIO()
        pickle.loads(message).savefig(buffer, format="png")
        png = buffer.getvalue()
        stdout.write(_HEAD.pack(len(png)) + png)
        stdout.flush()


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
