"""Wrappers that add a function's (or a generator's) wall and CPU seconds and calls to a dict, per name.

Used by ``chunk_cpu.py`` (imported) and ``run_timeline.py`` (its source is copied into the
``sitecustomize`` module every process of the timed run loads), so that it imports nothing
but the standard library.
"""

import functools
import time


def _add(acc, name, t0, c0):
    s = acc.setdefault(name, [0.0, 0.0, 0])
    s[0] += time.perf_counter() - t0
    s[1] += time.thread_time() - c0
    s[2] += 1


def timed(acc, name, fn):
    """Return ``fn`` adding each call's seconds to ``acc[name]`` (wall, CPU of this thread, calls)."""

    @functools.wraps(fn)
    def inner(*a, **k):
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            return fn(*a, **k)
        finally:
            _add(acc, name, t0, c0)

    return inner


def timed_gen(acc, name, fn):
    """Return generator function ``fn`` adding the seconds spent producing each item to ``acc[name]``."""

    @functools.wraps(fn)
    def inner(*a, **k):
        it = fn(*a, **k)
        while True:
            t0, c0 = time.perf_counter(), time.thread_time()
            try:
                item = next(it)
            except StopIteration:
                return
            finally:
                _add(acc, name, t0, c0)
            yield item

    return inner
