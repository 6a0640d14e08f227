"""balance.following: the report process of ``balance run --report`` answers, fails and goes as it should.

Each case runs in a fresh interpreter: the process is forked only from a process that runs no
other thread, which a test process that has made reports (polars' threads) is not.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from balance.following import FollowingReport

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the report process needs os.fork")

ROOT = Path(__file__).resolve().parents[2]

CASES = textwrap.dedent(
    """
    import json, os, sys
    from pathlib import Path
    from balance.following import FollowingReport, ReportFailed

    def wrote(path, renderer):
        (path / "done").write_text(str(os.getpid()))
        return f"report of {path.name}"

    def bad_input(path, renderer):
        raise ValueError(f"{path}: no such run")

    def broken(path, renderer):
        raise ZeroDivisionError("division by zero, deep in a chart")

    out, here = {}, Path(sys.argv[1])
    follower = FollowingReport(wrote, (ValueError,))
    out["forked"] = follower.pid is not None
    out["before"] = (here / "done").exists()
    out["answer"] = follower.send(here)
    out["writer"] = int((here / "done").read_text())
    out["me"] = os.getpid()
    (here / "done").unlink()
    follower = FollowingReport(wrote, (ValueError,))
    pid = follower.pid
    follower.cancel()
    out["cancel wrote"] = (here / "done").exists()
    try:
        os.waitpid(pid, 0)
        out["cancel reaped"] = False
    except ChildProcessError:
        out["cancel reaped"] = True
    for name, write in (("bad input", bad_input), ("broken", broken)):
        try:
            FollowingReport(write, (ValueError,)).send(here)
        except (ReportFailed, RuntimeError) as exc:
            out[name] = [type(exc).__name__, str(exc)]
    print(json.dumps(out))
    """
)


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> dict:
    here = tmp_path_factory.mktemp("following")
    done = subprocess.run(
        [sys.executable, "-c", CASES, str(here)], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "here": here}


def test_the_process_writes_once_told_where_the_run_is(cases: dict) -> None:
    assert cases["forked"]
    assert not cases["before"]  # nothing before the run's path arrives
    assert cases["answer"] == f"report of {cases['here'].name}"
    assert cases["writer"] != cases["me"]  # written by the other process


def test_a_cancelled_process_writes_nothing_and_is_gone(cases: dict) -> None:
    assert not cases["cancel wrote"]
    assert cases["cancel reaped"]


def test_bad_input_comes_back_as_its_message(cases: dict) -> None:
    kind, message = cases["bad input"]
    assert kind == "ReportFailed"
    assert message.endswith(": no such run")


def test_any_other_failure_comes_back_with_its_traceback(cases: dict) -> None:
    kind, message = cases["broken"]
    assert kind == "RuntimeError"
    assert "Traceback" in message
    assert "ZeroDivisionError: division by zero, deep in a chart" in message


def test_no_process_is_forked_beside_other_threads(tmp_path: Path) -> None:
    import threading

    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        follower = FollowingReport(lambda path, renderer: "never")
        assert follower.pid is None
        assert follower.send(tmp_path) is None  # the caller writes the report itself
    finally:
        stop.set()
        other.join()
