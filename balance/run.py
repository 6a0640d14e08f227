"""Run orchestration: split games into chunks, play them in processes, write Parquet.

Game ``g`` is seeded by ``hash(root_seed, g)`` inside the kernel, so the tables do not
depend on chunk size or worker count. Each chunk writes its parts atomically and is
then marked ``done`` by one line appended to the run's chunk log (``io.read_manifest``;
the manifest itself is written at the start and at the end only); ``resume`` replays
only the chunks not marked done, so an interrupted run finishes without lost or
duplicated games.

A chunk plays its games in batches into reused buffers (``sims.core.batches``) and
reduces every batch's card and turn rows to sufficient statistics right away
(``balance.aggregates``): by default only ``games``, ``seats`` and those small tables
are written, and the per-card and per-turn rows only when asked for (``tables``) or for
the first ``raw_sample`` games. ``checked`` replays every game with the kernel's
invariant checks and stops the run at the first game that breaks one. What the manifest
records (the chunk split, the tables kept, the versions) is ``balance.manifest``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from balance import aggregates, fingerprints, io
from balance.chunk_sums import ChunkSums
from balance.executors import Progress, completed, on_dask, start_pool
from balance.manifest import (
    chunk_bounds,
    deck_lists,
    derived_seed,
    has_deck_lists,
    make_run_id,
    new_manifest,
    plan,
    pool_digest,
    write_dimensions,
)
from balance.parts import columns_to_table, records_to_table, write_part
from balance.spec import Resolved, RunSpec, SpecError, resolve
from sims.core import TABLES

# Games per batch of a chunk (sims.core.batches.play_batches; its default 2048 keeps the buffers within a few
# MB): each batch costs the chunk's sums and copies a fixed toll of numpy calls, so a run's chunks play bigger
# ones (Card Wars ~30 MB of card and turn buffers a worker). The games are the same for any batch. Card Wars,
# CPU-s a 50 000-game chunk (benchmarks/chunk_cpu.py --batch): sums + tables + other 0.224 -> 0.190, play the same.
RUN_BATCH = 8192


def play_batches(*args: Any, **kwargs: Any) -> Iterator[dict[str, np.ndarray]]:
    """Return ``sims.core.batches.play_batches(*args, **kwargs)``, imported on first use.

    The kernels' driver loads Numba (about 0.15 s): a process that imports this package to
    read a run (``balance report``, ``balance compare RUN_A RUN_B``) never needs it. A module
    attribute, so that tests and benchmarks can wrap it.
    """
    from sims.core.batches import play_batches as play

    return play(*args, **kwargs)


class InvariantError(RuntimeError):
    """A checked run found a game that breaks one of the kernel's invariants; the message names it."""


def run(spec: RunSpec, *, progress: bool = False, run_dir: Path | None = None) -> Path:
    """Play ``spec`` and write its results dataset; return the run directory.

    Examples
    --------
    >>> import tempfile
    >>> out = tempfile.mkdtemp()
    >>> path = run(RunSpec(game="cardinger", n_games=200, seed=7, out=out, name="doc"))
    >>> load_run = __import__("balance.io", fromlist=["load_run"]).load_run
    >>> load_run(path).games.collect().height
    200
    """
    resolved = resolve(spec)
    run_dir = run_dir or Path(spec.out) / (spec.name or make_run_id(resolved))
    if run_dir.exists() and any(run_dir.iterdir()):
        raise SpecError(f"{run_dir}: already exists; choose another --name/--out or --resume it")
    with _pool(resolved, len(chunk_bounds(spec.n_games, spec.chunk_size))) as pool:  # workers start meanwhile
        run_dir.mkdir(parents=True, exist_ok=True)
        manifest = new_manifest(resolved, run_dir.name)
        write_dimensions(resolved, run_dir, manifest)
        _execute(resolved, run_dir, manifest, progress, pool)
    return run_dir


def reopen(run_dir: Path | str, *, workers: int | None = None) -> tuple[dict[str, Any], Resolved]:
    """Return the manifest of the run at ``run_dir`` and its spec resolved against today's code.

    Raises ``SpecError`` unless the rules version and the card pool (and fixed decks) are
    those the run was made with: otherwise resumed or replayed games would not be the
    recorded ones.
    """
    path = Path(run_dir) / io.MANIFEST
    if not path.is_file():
        raise SpecError(f"{run_dir}: not a run directory (no {io.MANIFEST})")
    manifest = io.read_manifest(run_dir)
    spec = RunSpec.from_dict(manifest["spec"], source=str(path))
    resolved = resolve(replace(spec, workers=workers) if workers else spec)
    if resolved.game.rules_version != manifest["rules_version"]:
        raise SpecError(
            f"{path}: run used rules_version {manifest['rules_version']}, code has "
            f"{resolved.game.rules_version}; its games cannot be resumed or replayed — start a new run"
        )
    if pool_digest(resolved) != manifest["pool"]["sha256"]:
        raise SpecError(f"{path}: the card pool or decks changed since this run was made; start a new run")
    if "layout" not in manifest:  # made before aggregates existed: finish it with the same tables
        resolved = replace(resolved, spec=replace(resolved.spec, aggregates=False, raw_sample=0))
    return manifest, resolved


def resume(run_dir: Path | str, *, progress: bool = False, workers: int | None = None) -> Path:
    """Finish the chunks of an interrupted run that are not marked done; return its path."""
    run_dir = Path(run_dir)
    manifest, resolved = reopen(run_dir, workers=workers)
    for tmp in run_dir.glob("*/.*.tmp"):  # parts (and merged aggregates) cut short
        tmp.unlink()
    io.settle_manifest(run_dir, manifest)  # the log merged: a line torn by the crash is gone before appending
    with _pool(resolved, sum(c["status"] != "done" for c in manifest["chunks"])) as pool:
        _execute(resolved, run_dir, manifest, progress, pool)
    return run_dir


_RESOLVED: dict[str, Resolved] = {}
_NAME_HASHES: dict[tuple[str, ...], np.ndarray] = {}


def _name_hashes(resolved: Resolved) -> np.ndarray:
    names = tuple(resolved.pool.names)
    if names not in _NAME_HASHES:
        _NAME_HASHES[names] = fingerprints.name_hashes(names)
    return _NAME_HASHES[names]


def _spec_key(spec: RunSpec) -> str:
    return io.json.dumps(spec.to_dict(), sort_keys=True)


def _resolved(spec: RunSpec) -> Resolved:
    """Resolve ``spec`` once per process (workers receive the plain spec, not kernels)."""
    key = _spec_key(spec)
    if key not in _RESOLVED:
        _RESOLVED[key] = resolve(spec)
    return _RESOLVED[key]


def play_chunk_to_parts(spec: RunSpec, run_dir: Path, run_id: str, index: int, first: int, n: int) -> dict[str, Any]:
    """Play one chunk and write its Parquet parts; return a small summary (picklable)."""
    start = time.perf_counter()
    resolved = _resolved(spec)
    game = resolved.game
    sums = ChunkSums(plan(resolved)) if spec.aggregates else None
    sample = {t: spec.raw_sample for t in ("cards", "turns") if spec.raw_sample and t not in spec.tables}
    recorded = tuple(t for t in TABLES if t in spec.tables or t in sample or sums is not None)
    kept = {t: _Gather(t, game.tables[t]) for t in TABLES if t in spec.tables or t in sample}
    args = (resolved.params, resolved.pool, resolved.decks, resolved.bot_ids, resolved.weights, spec.seed)
    for batch in play_batches(game, *args, first, n, tables=recorded, batch=RUN_BATCH):
        if sums is not None:
            sums.add(batch)
        for table, rows in kept.items():
            rows.add(batch[table][batch[table]["game"] < sample[table]] if table in sample else batch[table])
    played = time.perf_counter()
    checks = _check_chunk(resolved, first, n) if spec.checked else None
    checked = time.perf_counter()
    records = {t: rows.rows() for t, rows in kept.items()}
    derived = derived_seed(resolved)
    if derived:
        _verify_seeds(records["games"], spec.seed)
    extra: dict[str, dict[str, Any]] = {t: {} for t in records}
    keep = deck_lists(resolved)
    if has_deck_lists(resolved) and spec.aggregates:
        seats = records["seats"]
        lanes = fingerprints.deck_lanes(seats["deck"], _name_hashes(resolved))
        extra["seats"]["deck_fp"] = fingerprints.prints(lanes)
        digests = fingerprints.block_digests(seats["game"], seats["seat"], lanes)
        write_part(columns_to_table(digests), run_dir / aggregates.DECKS, index, compact=True)
        if keep is not None and first + n > keep:
            seats["deck"][seats["game"] >= keep] = -1  # an empty list: kept as the print and the digest
    for table, recs in records.items():
        names = {"bot": game.bots} if table == "seats" else None
        constants = {"run_id": run_id, "variant": resolved.variant, "chunk": index} if table == "games" else {}
        constants |= extra[table]
        drop = ["seed"] if table == "games" and derived else []
        arrow = records_to_table(recs, enums=game.enums.get(table), names=names, constants=constants, drop=drop)
        write_part(arrow, run_dir / table, index, compact=table in io.COMPACT)
    listed = _listed_sums(run_dir)
    for name, columns in (sums.tables() if sums is not None else {}).items():
        if listed is None or name in listed:  # a run made before a table existed, resumed: not that table
            write_part(columns_to_table(columns), run_dir / name, index, compact=True)
    return {
        "index": index,
        "n_games": n,
        "play_s": played - start,
        "check_s": checked - played,
        "write_s": time.perf_counter() - checked,
        "checks": checks,
        "pid": os.getpid(),
    }


class _Gather:
    """A chunk's rows of one table, batch after batch, copied into one buffer that this process reuses for every chunk.

    The batches are views of buffers the next batch overwrites, so they are copied; into
    the same memory chunk after chunk, as bytes (a copy per batch and a concatenation of
    fresh arrays took 14 CPU-ms for a 50 000-game Card Wars chunk's games and seats, mostly
    the first touch of new pages; this takes 0.1). :meth:`rows` is valid until the next
    chunk's gathering of that table starts on the same thread (a Dask worker may play chunks
    on several threads: each has its buffers); the Parquet columns are copies of its fields.
    """

    def __init__(self, table: str, dtype: np.dtype) -> None:
        """Start gathering ``table``'s rows (record dtype ``dtype``) at the start of the buffer."""
        self.key, self.n = (table, threading.get_ident()), 0
        buffer = _GATHERED.get(self.key)
        self.buffer = buffer if buffer is not None and buffer.dtype == dtype else np.zeros(0, dtype)

    def add(self, rows: np.ndarray) -> None:
        """Append ``rows`` (a copy of them)."""
        end = self.n + len(rows)
        if end > len(self.buffer):
            grown = np.zeros(max(end, 2 * len(self.buffer)), self.buffer.dtype)
            grown[: self.n] = self.buffer[: self.n]
            self.buffer = grown
        if rows.flags.c_contiguous and rows.dtype == self.buffer.dtype:
            raw, size = self.buffer.view(np.uint8), rows.dtype.itemsize
            raw[self.n * size : end * size] = rows.view(np.uint8)
        else:
            self.buffer[self.n : end] = rows
        self.n = end

    def rows(self) -> np.ndarray:
        """Return the rows gathered (a view of the buffer, kept for the next chunk)."""
        _GATHERED[self.key] = self.buffer
        return self.buffer[: self.n]


_GATHERED: dict[tuple[str, int], np.ndarray] = {}  # _Gather's buffers, by table and thread


_LISTED: dict[tuple[str, int, int], frozenset[str] | None] = {}


def _listed_sums(run_dir: Path) -> frozenset[str] | None:
    """Return the aggregate tables the run's manifest lists (read once per version of it), or None without one.

    A run resumed by newer code than made it keeps the tables it was made with: its
    manifest says which are read, so a chunk writes no other (it would cover only the
    resumed chunks).
    """
    path = run_dir / io.MANIFEST
    try:
        stat = path.stat()
    except OSError:
        return None
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _LISTED:
        try:
            listed = io.json.loads(path.read_text()).get("aggregates")
        except (OSError, ValueError):
            listed = None
        _LISTED[key] = frozenset(listed) if isinstance(listed, dict) else None
    return _LISTED[key]


CHECKS = ("decisions", "conservation_violations", "illegal_actions", "unfinished_games")


def _check(resolved: Resolved, first: int, n: int) -> np.ndarray:
    report = np.zeros(len(CHECKS), np.int64)
    r = resolved
    r.game.check_games(r.params, r.pool.table, r.decks, r.bot_ids, r.weights, np.uint64(r.spec.seed), first, n, report)
    return report


def _check_chunk(resolved: Resolved, first: int, n: int) -> dict[str, int]:
    """Replay games ``[first, first + n)`` with the kernel's invariant checks; raise at the first broken one."""
    report = _check(resolved, first, n)
    if report[1:].any():
        lo, size = first, n  # bisect to the first game that breaks an invariant
        while size > 1:
            half = size // 2
            if _check(resolved, lo, half)[1:].any():
                size = half
            else:
                lo, size = lo + half, size - half
        bad = _check(resolved, lo, 1)
        found = ", ".join(f"{k.replace('_', ' ')} {int(v)}" for k, v in zip(CHECKS[1:], bad[1:], strict=True) if v)
        raise InvariantError(
            f"checked run: game {lo} breaks the rules' invariants ({found}); see it with "
            f"`balance replay RUN_DIR {lo}` (the run stops here; its finished chunks are kept)"
        )
    return dict(zip(CHECKS, (int(v) for v in report), strict=True))


def _verify_seeds(games: np.ndarray, root_seed: int) -> None:
    """Raise unless every games row's seed is ``game_seed(root_seed, game)`` (it is then not stored)."""
    from sims.core.batches import game_seeds

    expected = np.zeros(len(games), np.uint64)
    game_seeds(np.uint64(root_seed), games["game"].astype(np.int64), expected)
    if not np.array_equal(expected, games["seed"]):
        bad = int(games["game"][np.flatnonzero(expected != games["seed"])[0]])
        raise RuntimeError(f"game {bad}: seed is not game_seed(root_seed, game); the seed column cannot be derived")


def _execute(
    resolved: Resolved, run_dir: Path, manifest: dict[str, Any], progress: bool, pool: Executor | None = None
) -> None:
    pending = [c for c in manifest["chunks"] if c["status"] != "done"]
    total = sum(c["n_games"] for c in manifest["chunks"])
    bar = Progress(total, total - sum(c["n_games"] for c in pending), enabled=progress)
    try:
        for summary in _map_chunks(resolved, run_dir, manifest["run_id"], pending, pool):
            chunk = manifest["chunks"][summary["index"]]
            chunk.update(status="done", play_s=round(summary["play_s"], 3), write_s=round(summary["write_s"], 3))
            if summary.get("checks") is not None:
                chunk.update(check_s=round(summary["check_s"], 3), checks=summary["checks"])
            io.log_chunk(run_dir, chunk)
            bar.advance(summary["n_games"])
    except BaseException:  # a run that stops with an error (not a kill): its manifest says what is done
        io.settle_manifest(run_dir, manifest)
        raise
    bar.close()
    if resolved.spec.aggregates:  # every chunk is in: one part per summed table from now on
        io.Sums(run_dir, manifest["aggregates"]).compact()
    manifest["completed"] = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    manifest["wall_s"] = round(bar.elapsed, 3)
    io.settle_manifest(run_dir, manifest)


@contextlib.contextmanager
def _pool(resolved: Resolved, chunks: int) -> Iterator[Executor | None]:
    """Start the pool of ``--workers`` processes a run plays ``chunks`` chunks in, each worker loading the game's
    kernel before its first chunk (:func:`_warm`); None when the chunks are played here or on a Dask cluster.

    Workers are forked from this process when that is safe (``executors.fork_safe``: the
    command line's run, not a process that has read a run), so they start with its imports
    and the resolved spec; else spawned. This process only hands out chunks and writes the
    log. (Playing chunks here as well, beside workers - 1 processes, measured slower: 22.3 s
    against 18.3 s wall for 1 M Cardinger games on an idle 2-core machine, the same CPU-seconds.)
    """
    spec = resolved.spec
    if spec.cluster or spec.workers == 1 or chunks <= 1:
        yield None
        return
    _RESOLVED[_spec_key(spec)] = resolved  # inherited by forked workers
    with start_pool(min(spec.workers, chunks), _warm, (spec,), fork=True) as pool:
        yield pool


def _warm(spec: RunSpec) -> None:
    """Resolve ``spec`` and play its first game into chunk sums: a pool worker loads the compiled kernel and sums
    (from Numba's cache) before its first chunk, while the run writes its manifest. Nothing is kept or written."""
    try:
        resolved = _resolved(spec)
        args = (resolved.params, resolved.pool, resolved.decks, resolved.bot_ids, resolved.weights, spec.seed)
        sums = ChunkSums(plan(resolved)) if spec.aggregates else None
        for batch in play_batches(resolved.game, *args, 0, 1):
            if sums is not None:
                sums.add(batch)
    except Exception:  # only a head start: the first chunk meets the same error and reports it
        pass


def _map_chunks(
    resolved: Resolved, run_dir: Path, run_id: str, chunks: list[dict[str, Any]], pool: Executor | None
) -> Iterable[dict[str, Any]]:
    _RESOLVED[_spec_key(resolved.spec)] = resolved
    args = [(resolved.spec, run_dir, run_id, c["index"], c["first_game"], c["n_games"]) for c in chunks]
    if resolved.spec.cluster:
        yield from on_dask(play_chunk_to_parts, resolved.spec.cluster, args)
    elif pool is None:
        for a in args:
            yield play_chunk_to_parts(*a)
    else:
        yield from completed(play_chunk_to_parts, pool, args)


run_spec = run  # unambiguous name for callers that import from the module

__all__ = ["TABLES", "Progress", "chunk_bounds", "resume", "run", "run_spec"]
