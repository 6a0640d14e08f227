"""Where a `balance run`'s wall time goes: a timeline of every process of one run, from the outside.

Runs ``TREE/.venv/bin/balance run ...`` once with a ``sitecustomize`` module on
``PYTHONPATH`` that times, in the parent and in every pool worker (spawned or forked;
nothing in the tree is edited): the interpreter's start, the end of ``import balance.run``,
``_warm`` (a worker loading its kernel), each chunk (``play_chunk_to_parts``) with its CPU
seconds split into play (``play_batches``), sums (``ChunkSums.add``, ``ChunkSums.tables``)
and Parquet writes (``write_part``), and in the parent the dimension tables, each chunk's
arrival, ``Sums.compact`` and the end. It prints one line per process and per chunk,
seconds from the parent's start, then the critical path's pieces. Nothing is asserted.

Example (from the project root):
    .venv/bin/python benchmarks/run_timeline.py . --game cardwars -n 1000000
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

HOOK = textwrap.dedent(
    """
    import json, os, sys, time, importlib.abc, importlib.util, functools, atexit

    _LOG = os.environ["RUN_TIMELINE_LOG"]

    def emit(event, **kw):
        line = json.dumps({"pid": os.getpid(), "ppid": os.getppid(), "t": time.time(),
                           "cpu": time.process_time(), "event": event, **kw}) + "\\n"
        fd = os.open(_LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.write(fd, line.encode())
        os.close(fd)

    emit("start", argv=sys.argv[:2])
    _acc = {}

    def span(name, fn, **extra):
        @functools.wraps(fn)
        def inner(*a, **k):
            _acc.clear()
            emit(name + ":begin", **{key: f(a) for key, f in extra.items()})
            try:
                return fn(*a, **k)
            finally:
                emit(name + ":end", parts={k: v for k, v in _acc.items()},
                     **{key: f(a) for key, f in extra.items()})
        return inner

    def patch_run(m):
        import importlib, balance.io as io
        try:  # ChunkSums' module (balance.aggregates in a tree before balance.chunk_sums existed)
            agg = importlib.import_module("balance.chunk_sums")
        except ModuleNotFoundError:
            agg = importlib.import_module("balance.aggregates")
        emit("imported:balance.run")
        m.play_chunk_to_parts = span("chunk", m.play_chunk_to_parts, index=lambda a: a[3])
        m._warm = span("warm", m._warm)
        m.play_batches = timed_gen(_acc, "play", m.play_batches)
        m.write_part = timed(_acc, "write", m.write_part)
        agg.ChunkSums.add = timed(_acc, "sums", agg.ChunkSums.add)
        agg.ChunkSums.tables = timed(_acc, "tables", agg.ChunkSums.tables)
        for name in ("write_dimensions", "_write_dimensions"):  # (its name before balance.manifest existed)
            if hasattr(m, name):
                setattr(m, name, span("dimensions", getattr(m, name)))
        io.Sums.compact = span("compact", io.Sums.compact)
        io.settle_manifest = span("settle", io.settle_manifest)
        if hasattr(m, "_execute"):
            m._execute = span("execute", m._execute)
        log = io.log_chunk
        def log_chunk(run_dir, entry):
            emit("arrived", index=entry.get("index"))
            return log(run_dir, entry)
        io.log_chunk = log_chunk

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name != "balance.run":
                return None
            sys.meta_path.remove(self)
            try:
                spec = importlib.util.find_spec(name)
            finally:
                sys.meta_path.insert(0, self)
            loader = spec.loader
            exec_module = loader.exec_module
            def run_and_patch(module):
                exec_module(module)
                patch_run(module)
            loader.exec_module = run_and_patch
            return spec

    sys.meta_path.insert(0, Finder())
    atexit.register(lambda: emit("exit"))
    """
)


def main() -> None:
    """Run one instrumented ``balance run`` and print its timeline."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tree", type=Path)
    parser.add_argument("--game", default="cardwars")
    parser.add_argument("-n", "--games", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--chunks", action="store_true", help="Print every chunk's line too.")
    args, extra = parser.parse_known_args()
    tree = args.tree.resolve()
    with tempfile.TemporaryDirectory(prefix="timeline-") as work:
        hook = Path(work) / "hook"
        hook.mkdir()
        timers = (Path(__file__).with_name("chunk_timers.py")).read_text()
        (hook / "sitecustomize.py").write_text(timers + HOOK)
        log = Path(work) / "events.jsonl"
        env = dict(os.environ, PYTHONPATH=str(hook), RUN_TIMELINE_LOG=str(log))
        cmd = [str(tree / ".venv" / "bin" / "balance"), "run", "--game", args.game, "-n", str(args.games)]
        cmd += ["--seed", str(args.seed), "--workers", str(args.workers), "--out", work, "--name", "run", "--quiet"]
        t0 = time.time()
        subprocess.run(cmd + extra, cwd=tree, env=env, check=True)
        wall = time.time() - t0
        events = [json.loads(line) for line in log.read_text().splitlines()]
    report(events, t0, wall)


def report(events: list[dict], t0: float, wall: float) -> None:
    """Print the processes, the chunks and the critical path's pieces."""
    by_pid: dict[int, list[dict]] = collections.defaultdict(list)
    for e in events:
        by_pid[e["pid"]].append(e)
    parent = min(by_pid, key=lambda p: by_pid[p][0]["t"])
    print(f"wall {wall:.2f} s (subprocess), load {os.getloadavg()[0]:.2f}")
    for pid, evs in sorted(by_pid.items(), key=lambda kv: kv[1][0]["t"]):
        role = "parent" if pid == parent else "worker"
        marks = {}
        for e in evs:
            marks.setdefault(e["event"], e)
        last = evs[-1]
        line = f"{role} {pid}: start {evs[0]['t'] - t0:6.2f}"
        if "imported:balance.run" in marks:
            line += f"  balance.run imported {marks['imported:balance.run']['t'] - t0:6.2f}"
        if "warm:end" in marks:
            b, e = marks["warm:begin"], marks["warm:end"]
            line += f"  warm {b['t'] - t0:6.2f}-{e['t'] - t0:6.2f} (CPU {e['cpu'] - b['cpu']:.2f})"
        chunks = [e for e in evs if e["event"] == "chunk:begin"]
        ends = [e for e in evs if e["event"] == "chunk:end"]
        if chunks:
            first, last_end = chunks[0]["t"] - t0, ends[-1]["t"] - t0
            line += f"  chunks {len(chunks)}: first begins {first:6.2f}, last ends {last_end:6.2f}"
        line += f"  last event {last['event']} {last['t'] - t0:6.2f} (CPU {last['cpu']:.2f} s)"
        print(line)
    totals: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0])
    n_chunks = 0
    for e in events:
        if e["event"] == "chunk:end":
            n_chunks += 1
            begin = next(b for b in events if b["event"] == "chunk:begin" and b["pid"] == e["pid"]
                         and b["index"] == e["index"])  # fmt: skip
            parts = e["parts"]
            for k, v in parts.items():
                totals[k][0] += v[0]
                totals[k][1] += v[1]
            totals["chunk"][0] += e["t"] - begin["t"]
            totals["chunk"][1] += e["cpu"] - begin["cpu"]
    if n_chunks:
        print(f"per chunk (mean of {n_chunks}), wall / CPU s: " + ", ".join(
            f"{k} {v[0] / n_chunks:.3f}/{v[1] / n_chunks:.3f}" for k, v in totals.items()))  # fmt: skip
    pe = {e["event"]: e for e in by_pid[parent]}
    for name in ("dimensions", "execute", "compact", "settle"):
        if f"{name}:begin" in pe:
            b, e = pe[f"{name}:begin"], pe[f"{name}:end"]
            took, cpu = e["t"] - b["t"], e["cpu"] - b["cpu"]
            print(f"parent {name}: {b['t'] - t0:6.2f} -> {e['t'] - t0:6.2f} ({took:.3f} s, CPU {cpu:.3f})")
    arrived = [e for e in by_pid[parent] if e["event"] == "arrived"]
    if arrived:
        print(f"parent: first chunk logged {arrived[0]['t'] - t0:.2f}, last {arrived[-1]['t'] - t0:.2f}; "
              f"exit {by_pid[parent][-1]['t'] - t0:.2f}")  # fmt: skip
    if "--chunks" in sys.argv:
        for e in sorted((e for e in events if e["event"] == "chunk:end"), key=lambda e: e["index"]):
            print(f"  chunk {e['index']:3d} pid {e['pid']} ends {e['t'] - t0:6.2f}: "
                  + ", ".join(f"{k} {v[1]:.3f}" for k, v in e["parts"].items()))  # fmt: skip


if __name__ == "__main__":
    main()
