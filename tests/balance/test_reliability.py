"""Reliability at scale: default workers, seed bounds, Dask worker loss, SIGKILL at random moments."""

from __future__ import annotations

import contextlib
import importlib
import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from balance import io, parts
from balance.cli import cli
from balance.io import load_run
from balance.run import resume, run
from balance.spec import MAX_SEED, RunSpec, SpecError, default_workers, resolve
from tests.balance.run_tables import assert_same_tables, run_tables

run_module = importlib.import_module("balance.run")
BALANCE = Path(sys.executable).with_name("balance")
tables = run_tables


def test_workers_default_to_the_cpus_this_process_may_use():
    assert RunSpec(game="cardinger").workers == default_workers() == len(os.sched_getaffinity(0))


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 99999999999999999999999])
def test_out_of_range_seed_is_one_line_error_and_writes_nothing(tmp_path, seed):
    result = CliRunner().invoke(cli, ["run", "-g", "cardinger", "-n", "10", "--seed", str(seed), "-o", str(tmp_path)])
    assert result.exit_code != 0
    assert "seed must be a whole number from 0 to" in result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_largest_seed_is_accepted(tmp_path):
    path = run(RunSpec(game="cardinger", n_games=20, seed=MAX_SEED, out=str(tmp_path), name="big", workers=1))
    assert load_run(path).games.collect().height == 20


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"n_games": 2**31}, "n_games must be from 1 to"),
        ({"chunk_size": 0}, "workers and chunk_size must be at least 1"),
        ({"workers": 0}, "workers and chunk_size must be at least 1"),
        ({"cluster": "local:x"}, "expected local:N"),
        ({"cluster": " "}, "cluster must be a Dask scheduler address"),
    ],
)
def test_out_of_range_sizes_are_spec_errors(change, message):
    with pytest.raises(SpecError, match=message):
        resolve(replace(RunSpec(game="cardinger"), **change))


@pytest.mark.slow
def test_dask_cluster_survives_a_killed_worker(small_spec, tmp_path):
    """Two workers; one worker process is SIGKILLed mid-run; retried chunks give the same tables."""
    from dask.distributed import Client, LocalCluster

    spec = replace(small_spec, n_games=3000, chunk_size=150)
    reference = tables(run(replace(spec, name="one")))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            pids = list(client.run(os.getpid).values())
        parts = Path(spec.out) / "dask" / "games"
        killed: list[int] = []

        def kill_one_when_running():
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and len(list(parts.glob("part-*.parquet"))) < 3:
                time.sleep(0.02)
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

        killer = threading.Thread(target=kill_one_when_running)
        killer.start()
        path = run(replace(spec, cluster=cluster.scheduler_address, name="dask"))
        killer.join()
    assert killed, "the worker was never killed"
    manifest = io.json.loads((path / io.MANIFEST).read_text())
    assert all(c["status"] == "done" for c in manifest["chunks"])
    assert_same_tables(tables(path), reference)


# every raw table and the aggregates, so both must survive the kills
CRASH_ARGS = [
    "run",
    "-g",
    "cardinger",
    "-n",
    "4000",
    "--seed",
    "11",
    "--chunk-size",
    "200",
    "--tables",
    "games,seats,cards,turns",
    "-q",
]


def _start(out: Path, name: str, workers: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [str(BALANCE), *CRASH_ARGS, "-w", str(workers), "-o", str(out), "--name", name],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _session_alive(session: int) -> bool:
    """Return whether any process of the session ``session`` (the killed run and its workers) is left."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                if os.getsid(int(entry.name)) == session:
                    stat = (entry / "stat").read_text()
                    if stat.rsplit(")", 1)[1].split()[0] != "Z":  # zombies are gone, only unreaped
                        return True
    return False


def _chunks_done(path: Path) -> tuple[int, int]:
    manifest = path / io.MANIFEST
    if not manifest.exists():
        return 0, 0
    chunks = io.read_manifest(path)["chunks"]
    return sum(c["status"] == "done" for c in chunks), len(chunks)


@pytest.mark.slow
def test_sigkill_at_random_moments_then_resume_loses_and_duplicates_nothing(tmp_path):
    """20 runs killed with SIGKILL (the main process, or its whole process group) at random moments (during
    start-up, or after a random number of finished chunks), each resumed: every run ends with the
    uninterrupted run's tables, every game once, no temporary file left."""
    out = tmp_path / "crash"
    timings = {}
    for workers in (1, 2):
        t0 = time.monotonic()
        assert _start(out, f"ref{workers}", workers).wait() == 0
        timings[workers] = time.monotonic() - t0
    reference = tables(out / "ref1")
    assert_same_tables(tables(out / "ref2"), reference)
    rng = random.Random(20261123)
    mid_run = 0
    for trial in range(20):
        workers = 1 + trial % 2
        name = f"t{trial}"
        proc = _start(out, name, workers)
        if trial % 5 == 0:  # during start-up, before or while the run directory is made
            time.sleep(rng.uniform(0.05, 1.0) * timings[workers])
        else:  # after a random number of finished chunks, a random few milliseconds into the next
            target = rng.randrange(20)
            while proc.poll() is None and _chunks_done(out / name)[0] < target:
                time.sleep(0.002)
            time.sleep(rng.uniform(0.0, 0.05))
        with contextlib.suppress(ProcessLookupError):
            if trial % 4 < 2:
                os.killpg(proc.pid, signal.SIGKILL)  # the whole run: main process and its workers
            else:
                os.kill(proc.pid, signal.SIGKILL)  # the main process only: its workers notice and exit
        proc.wait()
        deadline = time.monotonic() + 10
        while _session_alive(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _session_alive(proc.pid), "pool workers outlived the killed run"
        path = out / name
        done, total = _chunks_done(path)
        mid_run += 0 < done < total
        if not (path / io.MANIFEST).exists():
            continue  # killed before the run directory had a manifest: nothing to resume
        resume(path, workers=1)  # in this process: the resumed chunks are played here
        assert_same_tables(tables(path), reference)
        assert not list(path.glob("*/.*.tmp"))
    assert mid_run >= 10, f"only {mid_run} of 20 kills landed between the first and the last chunk"


# -- the chunk log: O(1) per chunk, crash-safe --------------------------------------------------------
def _lean(tmp_path: Path, name: str, **kw) -> RunSpec:
    base = RunSpec(game="cardinger", n_games=400, seed=5, out=str(tmp_path), chunk_size=40, workers=1, name=name)
    return replace(base, **kw)


def test_a_run_writes_its_manifest_twice_whatever_its_chunks(tmp_path, monkeypatch):
    """Start and end only: each of the 10 chunks appends one line to the log instead of rewriting the manifest."""
    written, logged = [], []
    real_write, real_log = io.write_json, io.log_chunk
    monkeypatch.setattr(io, "write_json", lambda p, d: (written.append(Path(p).name), real_write(p, d)))
    monkeypatch.setattr(io, "log_chunk", lambda d, e: (logged.append(e["index"]), real_log(d, e)))
    path = run(_lean(tmp_path, "twice"))
    assert written.count(io.MANIFEST) == 2
    assert sorted(logged) == list(range(10))
    assert not (path / io.CHUNK_LOG).exists()  # settled into the manifest at the end
    manifest = io.json.loads((path / io.MANIFEST).read_text())
    assert [c["status"] for c in manifest["chunks"]] == ["done"] * 10
    assert all(c["play_s"] >= 0 for c in manifest["chunks"])


def test_read_manifest_takes_whole_log_lines_only(tmp_path):
    io.write_json(tmp_path / io.MANIFEST, {"chunks": [{"index": i, "status": "pending"} for i in range(4)]})
    lines = [b'{"index":0,"status":"done"}\n', b"not json\n", b'{"index":9,"status":"done"}\n', b'{"index":2,"st']
    (tmp_path / io.CHUNK_LOG).write_bytes(b"".join(lines))  # a line for a chunk it lacks; the last one torn
    assert [c["status"] for c in io.read_manifest(tmp_path)["chunks"]] == ["done", "pending", "pending", "pending"]


def test_resume_after_a_torn_log_line_replays_that_chunk_once(tmp_path):
    """Killed while appending chunk 3's line: the torn line does not count, resume plays chunk 3 again and
    the run ends with the uninterrupted run's tables (chunk 3 neither lost nor duplicated)."""
    reference = tables(run(_lean(tmp_path, "ref")))
    path = run(_lean(tmp_path, "torn"))
    manifest = io.json.loads((path / io.MANIFEST).read_text())
    for c in manifest["chunks"][3:]:
        c["status"] = "pending"
    io.write_json(path / io.MANIFEST, manifest)
    (path / io.CHUNK_LOG).write_bytes(b'{"index":3,"status":"do')
    for table in ("games", "seats"):
        (path / table / parts.PART.format(7)).unlink()  # chunks 4-9 "not yet played"; 7's parts gone
    assert sum(c["status"] == "done" for c in io.read_manifest(path)["chunks"]) == 3
    with pytest.raises(io.RunError, match="7 chunks missing"):
        load_run(path)
    resume(path, workers=1)
    assert not (path / io.CHUNK_LOG).exists()
    assert_same_tables(tables(path), reference)
