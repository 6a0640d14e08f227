"""Pool workers start at once and warm up; they and the command line end without the interpreter's teardown
(exit handlers kept for the latter)."""

import atexit
import importlib
import multiprocessing as mp
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from balance.executors import pool_worker, start_pool
from balance.spec import RunSpec


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


def _arrived(folder: str, tag: str) -> None:
    (Path(folder) / f"{tag}-{os.getpid()}").write_text("warm")


def test_start_pool_starts_every_worker_and_warms_it_before_any_task(tmp_path):
    with start_pool(2, _arrived, (str(tmp_path), "w")) as pool:
        deadline = time.monotonic() + 120
        while len(list(tmp_path.glob("w-*"))) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        warmed = {int(p.name.split("-")[1]) for p in tmp_path.glob("w-*")}
        assert len(warmed) == 2  # both processes up and warmed, and no task of ours submitted yet
        assert {pool.submit(_pid).result() for _ in range(8)} <= warmed


def test_a_run_warms_its_workers_and_a_failing_warm_up_is_left_to_the_first_chunk(monkeypatch):
    run_module = importlib.import_module("balance.run")
    spec = RunSpec(game="cardinger", n_games=10, seed=3)
    run_module._RESOLVED.clear()
    run_module._warm(spec)
    assert list(run_module._RESOLVED) == [run_module._spec_key(spec)]

    def broken(*args, **kwargs):
        raise RuntimeError("no kernel")

    monkeypatch.setattr(run_module, "play_batches", broken)
    run_module._warm(spec)  # returns: the chunk will raise the same error where the run reports it
    with pytest.raises(RuntimeError, match="no kernel"):
        run_module.play_chunk_to_parts(spec, Path("unused"), "r", 0, 0, 10)


def test_what_a_pool_worker_imports_to_play_chunks_leaves_polars_out():
    """A run's workers import balance.run (and the CLI, as the spawned main module) but never read a run."""
    code = "import sys, balance.cli, balance.run; print('polars' in sys.modules, 'pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


FORK_PROBE = """
import os, sys, threading
import balance.executors as ex

def probe() -> object:
    return getattr(ex, "_probe", None), os.getppid()

if __name__ == "__main__":
    ex._probe = "set in the parent"  # a forked worker has it, a spawned one imports the module afresh
    if sys.argv[1] == "thread":
        gate = threading.Event()
        threading.Thread(target=gate.wait, daemon=True).start()
    elif sys.argv[1] == "polars":
        import polars
    with ex.start_pool(2, fork=sys.argv[1] != "no") as pool:
        seen = {pool.submit(probe).result() for _ in range(4)}
    print(sorted(seen) == [("set in the parent", os.getpid())], seen <= {(None, os.getpid())})
"""


@pytest.mark.parametrize(("how", "forked"), [("plain", True), ("no", False), ("thread", False), ("polars", False)])
def test_start_pool_forks_only_when_asked_and_safe_else_spawns(tmp_path, how, forked):
    script = tmp_path / "probe.py"
    script.write_text(FORK_PROBE)
    out = subprocess.run([sys.executable, str(script), how], capture_output=True, text=True, check=True).stdout
    assert out.split() == [str(forked), str(not forked)]


def test_the_command_line_may_fork_a_runs_workers_after_resolving_its_spec():
    """What `balance run` has done before starting its pool (imports, resolve) leaves it fork-safe."""
    code = (
        "import balance.cli, balance.run\nfrom balance.spec import RunSpec, resolve\nfrom balance.executors import "
        "fork_safe\nresolve(RunSpec(game='cardwars', n_games=10))\nprint(fork_safe())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True"]
