"""Pool workers: they exit with their parent's pool at once, skipping the interpreter's teardown."""

import atexit
import multiprocessing as mp
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from balance.executors import pool_worker


def _witness(path: str) -> None:
    Path(path).write_text("torn down")


def _init_plain(parent: int, path: str) -> None:
    atexit.register(_witness, path)  # runs at the interpreter's normal exit


def _init_pool_worker(parent: int, path: str) -> None:
    atexit.register(_witness, path)  # registered first, so it would run after pool_worker's handler
    pool_worker(parent)


def _pid() -> int:
    return os.getpid()


def _one_task(initializer, path: Path) -> int:
    pool = ProcessPoolExecutor(
        max_workers=1, mp_context=mp.get_context("spawn"), initializer=initializer, initargs=(os.getpid(), str(path))
    )
    with pool:
        return pool.submit(_pid).result()


def test_a_pool_worker_returns_its_result_and_exits_without_tearing_the_interpreter_down(tmp_path):
    plain, fast = tmp_path / "plain", tmp_path / "fast"
    assert _one_task(_init_plain, plain) != os.getpid()
    assert plain.read_text() == "torn down"  # without pool_worker the teardown runs: the witness can tell
    assert _one_task(_init_pool_worker, fast) != os.getpid()
    assert not fast.exists()
