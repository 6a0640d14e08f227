"""Pool workers and the command line end without the interpreter's teardown (exit handlers kept for the latter)."""

import atexit
import multiprocessing as mp
import os
import subprocess
import sys
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


WITNESS = """
import os, sys, atexit

class Witness:  # writes its file when freed: at the interpreter's teardown, as a module global
    def __init__(self, path):
        self.path, self.open, self.close, self.flags = path, os.open, os.close, os.O_WRONLY | os.O_CREAT

    def __del__(self):
        self.close(self.open(self.path, self.flags, 0o644))

keep = Witness(sys.argv[1])
atexit.register(lambda path=sys.argv[2]: open(path, "w").close())
from balance.cli import cli
if sys.argv[3] == "args":
    cli.main(args=["--version"])
else:
    sys.argv = ["balance", "--version"]
    cli()
"""


def _cli(tmp_path: Path, how: str) -> tuple[str, bool, bool]:
    torn, handled = tmp_path / f"torn-{how}", tmp_path / f"handled-{how}"
    script = tmp_path / "witness.py"
    script.write_text(WITNESS)
    args = [sys.executable, str(script), str(torn), str(handled), how]
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    return out.stdout, torn.exists(), handled.exists()


def test_the_command_line_ends_after_the_exit_handlers_without_the_teardown(tmp_path):
    shown, torn, handled = _cli(tmp_path, "program")
    assert "version" in shown
    assert handled  # the exit handlers ran
    assert not torn  # the teardown did not
    shown, torn, handled = _cli(tmp_path, "args")  # called with arguments (tests, CliRunner): as click does
    assert "version" in shown
    assert handled
    assert torn
