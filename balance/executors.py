"""How a run's chunks are played: in a pool of processes (forked or spawned) or on a Dask cluster; the progress bar.

``balance.run`` passes the chunk function (``play_chunk_to_parts``); every function here
yields each finished chunk's summary as it comes, in any order (the tables do not depend
on it).
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing as mp
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import Any


def exit_with_parent(parent: int) -> None:
    """Make a pool worker exit when the run that started it dies (killed runs left idle orphans)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="exit-with-parent").start()


def pool_worker(parent: int, warm: Callable[..., Any] | None = None, args: tuple[Any, ...] = ()) -> None:
    """Initialise a pool worker: exit with the parent (:func:`exit_with_parent`), exit fast when done; ``warm(*args)``.

    A worker's interpreter teardown (freeing Numba's compiled code, polars, pyarrow and
    every module) took 0.6-0.7 s under load, and the pool's shutdown waits for it after the
    last chunk. Everything a worker does is done by then: its parts are renamed into place
    and its results written to the pool's result pipe (synchronously) before it takes the
    next task, and multiprocessing has run its own exit functions. So the first exit handler
    to run flushes the standard streams and ends the process (``os._exit``), skipping the rest.

    ``warm`` (e.g. loading a game's compiled kernel) runs before the worker takes its first
    task, while the process that started the pool goes on with its own work.
    """
    exit_with_parent(parent)
    atexit.register(exit_now)
    if warm is not None:
        warm(*args)


def start_pool(
    workers: int, warm: Callable[..., Any] | None = None, args: tuple[Any, ...] = (), *, fork: bool = False
) -> ProcessPoolExecutor:
    """Return a pool of ``workers`` processes, started now (not at the first task), each running ``warm``.

    The caller's set-up (a run's manifest and dimension tables) then overlaps the workers'
    start-up instead of preceding it. Workers are spawned (a fresh interpreter that imports
    what the tasks need again: about 0.5 s, then ``warm``), or with ``fork`` forked from
    this process when :func:`fork_safe` says that is safe: they start with every module it
    has imported (and whatever it has cached) at no cost.
    """
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=mp.get_context("fork" if fork and fork_safe() else "spawn"),
        initializer=pool_worker,
        initargs=(os.getpid(), warm, args),
    )
    for _ in range(workers):  # a spawning pool starts one process per task submitted while none is idle (forking: all)
        pool.submit(os.getpid)
    return pool


def fork_safe() -> bool:
    """Return whether this process may fork pool workers: no Python thread but this one, no polars, no Numba
    threading layer.

    A forked child holds a copy of every lock as it was, with none of the threads that might
    release it: a Python thread (logging, an I/O thread) or a thread pool of polars (started
    when it is imported) or of Numba's parallel kernels could leave it stuck. The native
    threads numpy's OpenBLAS and pyarrow's jemalloc start at import are fork-aware (their
    ``pthread_atfork`` handlers stop the BLAS threads and take the allocator's locks around
    ``fork``), as every forked multiprocessing pool that imports numpy relies on.

    Examples
    --------
    >>> import threading
    >>> gate = threading.Event()
    >>> helper = threading.Thread(target=gate.wait)
    >>> helper.start()
    >>> fork_safe()
    False
    >>> gate.set(); helper.join()
    """
    if "fork" not in mp.get_all_start_methods() or threading.active_count() != 1 or "polars" in sys.modules:
        return False
    parallel = sys.modules.get("numba.np.ufunc.parallel")
    return not getattr(parallel, "_is_initialized", False)


def exit_now() -> None:
    """Flush the standard streams and end this process with status 0 at once (no interpreter teardown)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):  # closed or replaced
            stream.flush()
    os._exit(0)


def completed(
    play: Callable[..., dict[str, Any]], executor: Executor, args: list[tuple[Any, ...]]
) -> Iterable[dict[str, Any]]:
    """Submit every chunk to ``executor``; yield each summary as it completes."""
    futures: list[Future[dict[str, Any]]] = [executor.submit(play, *a) for a in args]
    for future in as_completed(futures):
        yield future.result()


def on_dask(play: Callable[..., dict[str, Any]], cluster: str, args: list[tuple[Any, ...]]) -> Iterable[dict[str, Any]]:
    """Run chunks on a Dask cluster: ``local`` / ``local:N`` starts a LocalCluster, else a scheduler address.

    Workers write their parts straight to the run directory (shared storage for a real
    cluster) and send back only a small summary. A chunk is idempotent (a rerun writes the
    same bytes under the same name), so Dask may retry it on another worker when its worker
    dies (``distributed.scheduler.allowed-failures``, 3 by default).
    """
    from dask.distributed import Client, LocalCluster

    local = None
    if cluster == "local" or cluster.startswith("local:"):
        n = int(cluster.partition(":")[2] or 2)
        local = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        with Client(local if local is not None else cluster) as client:
            yield from completed(play, client.get_executor(pure=False), args)
    finally:
        if local is not None:
            local.close()


class Progress:
    """A one-line progress bar on stderr: games done, games/s and ETA."""

    def __init__(self, total: int, done: int = 0, *, enabled: bool = True, write: Callable[[str], Any] | None = None):
        """Start timing ``total`` games, ``done`` of which are already complete."""
        self.total, self.done, self.enabled = total, done, enabled
        self.start_done = done
        self.t0 = time.perf_counter()
        self.write = write or sys.stderr.write
        self.width = shutil.get_terminal_size((80, 20)).columns

    @property
    def elapsed(self) -> float:
        """Return seconds since start."""
        return time.perf_counter() - self.t0

    def advance(self, n: int) -> None:
        """Record ``n`` more games and redraw."""
        self.done += n
        if not self.enabled:
            return
        rate = (self.done - self.start_done) / max(self.elapsed, 1e-9)
        eta = (self.total - self.done) / rate if rate > 0 else float("inf")
        filled = int(30 * self.done / self.total)
        line = (
            f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done:,}/{self.total:,} games"
            f"  {rate:,.0f} games/s  ETA {eta:,.0f} s"
        )
        self.write(line[: self.width])

    def close(self) -> None:
        """Finish the line."""
        if self.enabled:
            self.write(f"\n{self.done:,} games in {self.elapsed:.1f} s\n")
