"""Scaling figures for ``balance bench --scaling N`` / ``make bench``: printed, never asserted.

Each figure is one run of the same games (greedy bots, seed 1) measured side by side:
wall seconds, CPU seconds of this process and its reaped children (pool workers, the
LocalCluster's processes), and the 1-minute load average when it ended, since wall
figures on a shared machine mean little without it.

- speed-up from 1 to 2 worker processes, and on a LocalCluster of 2 workers;
- pool start-up: a 2-chunk run of one game per chunk with 2 workers against 1 worker;
- chunk overhead: CPU seconds per extra chunk (N games in N/chunk chunks against one chunk);
- bytes per game on disk and run time: the default (games, seats and sums) against every
  raw table without sums (what runs wrote before), and the report time of each;
- where the default run's bytes go (per table directory), the per-chunk play and write
  seconds the manifest records, the report's fixed cost (the report of a 2-game run: its
  charts and page) against its cost at N games, and a projection to 100 M games (time
  on W workers, disk, peak memory) from these measured per-game and per-chunk costs.
"""

from __future__ import annotations

import os
import resource
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

from balance.spec import RunSpec
from sims.core import TABLES


class Timing(NamedTuple):
    """One measured step: wall and CPU seconds, the load average after it, and the run directory's bytes."""

    wall: float
    cpu: float
    load: float
    size: int

    def text(self) -> str:
        """Return ``wall s, CPU s (load)``."""
        return f"{self.wall:6.1f} s wall, {self.cpu:6.1f} CPU-s (load {self.load:.1f})"


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def timed(step: Callable[[], Any]) -> tuple[Timing, Any]:
    """Run ``step``; return its :class:`Timing` (size 0) and its result."""
    wall, cpu = time.perf_counter(), _cpu()
    result = step()
    return Timing(time.perf_counter() - wall, _cpu() - cpu, os.getloadavg()[0], 0), result


def timed_run(spec: RunSpec) -> tuple[Timing, Path]:
    """Run ``spec``; return its :class:`Timing` with the run directory's size, and the directory."""
    from balance.run import run

    timing, path = timed(lambda: run(spec))
    return timing._replace(size=_bytes(path)), path


def scaling(game: str, n_games: int, *, chunk: int = 10_000, echo: Callable[[str], Any] = print) -> dict[str, Timing]:
    """Print the scaling figures of ``n_games`` games of ``game`` (see module docstring); return the timings."""
    import sims
    from balance.io import load_run
    from balance.report import write_report

    bots = ("greedy",) * sims.load(game).seats
    chunk = min(chunk, n_games)
    out: dict[str, Timing] = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = RunSpec(game=game, n_games=n_games, seed=1, bots=bots, chunk_size=chunk, out=tmp, workers=1)
        timed_run(replace(base, n_games=min(n_games, 200), name="warm"))  # compile or load the kernel cache
        echo(f"# {game}: scaling, {n_games:,} games of {' vs '.join(bots)}, chunks of {chunk:,} (cpu {os.cpu_count()})")

        def step(key: str, label: str, spec: RunSpec) -> Path:
            out[key], path = timed_run(replace(spec, name=key))
            echo(f"{label:<44} {out[key].text()}")
            return path

        agg = step("w1", "1 worker (default tables: games, seats, sums)", base)
        step("w2", "2 workers", replace(base, workers=2))
        step("dask", "LocalCluster of 2 workers", replace(base, cluster="local:2"))
        echo(f"{'speed-up 1 -> 2 workers':<44} {out['w1'].wall / out['w2'].wall:6.2f}x wall")
        echo(f"{'speed-up 1 worker -> LocalCluster of 2':<44} {out['w1'].wall / out['dask'].wall:6.2f}x wall")
        step("start1", "2 games in 2 chunks, 1 worker", replace(base, n_games=2, chunk_size=1))
        step(
            "start2",
            "2 games in 2 chunks, 2 workers (pool start-up)",
            replace(base, n_games=2, chunk_size=1, workers=2),
        )
        step("chunk1", "1 worker, one chunk", replace(base, chunk_size=n_games))
        chunks = max(2, n_games // 1_000)
        step("chunkN", f"1 worker, {chunks:,} chunks", replace(base, chunk_size=-(-n_games // chunks)))
        per_chunk = (out["chunkN"].cpu - out["chunk1"].cpu) / (chunks - 1)
        echo(f"{'chunk overhead':<44} {per_chunk * 1000:6.1f} CPU-ms per chunk")
        raw = step("raw", "1 worker, every raw table, no sums", replace(base, tables=TABLES, aggregates=False))
        echo(f"{'run time raw / aggregate':<44} {out['raw'].cpu / out['w1'].cpu:6.2f}x CPU")
        for key in ("w1", "raw"):
            echo(f"{'bytes per game, ' + ('aggregate' if key == 'w1' else 'raw'):<44} {out[key].size / n_games:8.1f}")
        for key, path in (("report_agg", agg), ("report_raw", raw), ("report_fixed", Path(tmp) / "start1")):
            html = Path(tmp) / f"{key}-html"
            out[key], _ = timed(lambda p=path, h=html: write_report(load_run(p), h))
            label = "report of a 2-game run (fixed cost)" if key == "report_fixed" else f"report of the {key[7:]} run"
            echo(f"{label:<44} {out[key].text()}")
        for line in breakdown(agg, n_games, out):
            echo(line)
    return out


TARGET = 100_000_000


def list_bytes(path: Path) -> int:
    """Return the bytes of the seats' deck lists in the run's parts (the Parquet column chunks of ``deck``)."""
    import pyarrow.parquet as pq

    total = 0
    for part in (path / "seats").glob("*.parquet"):
        meta = pq.ParquetFile(part).metadata
        for g in range(meta.num_row_groups):
            for i in range(meta.num_columns):
                column = meta.row_group(g).column(i)
                total += column.total_compressed_size if column.path_in_schema.startswith("deck.") else 0
    return total


def table_bytes(path: Path) -> dict[str, int]:
    """Return the bytes of each table directory of a run (Parquet parts), largest first."""
    sizes = {d.name: _bytes(d) for d in path.iterdir() if d.is_dir()}
    return dict(sorted(sizes.items(), key=lambda kv: -kv[1]))


def breakdown(path: Path, n_games: int, out: dict[str, Timing], workers: int = 2) -> list[str]:
    """Return lines: bytes per game per table, per-chunk seconds, and the projection to :data:`TARGET` games."""
    from balance import io

    manifest = io.read_manifest(path)
    chunks = manifest["chunks"]
    lines = [
        f"{'bytes per game by table (default run)':<44} "
        + ", ".join(f"{name} {size / n_games:.1f}" for name, size in table_bytes(path).items())
    ]
    play = sum(c.get("play_s", 0.0) for c in chunks)
    write = sum(c.get("write_s", 0.0) for c in chunks)
    each = f"play {play / len(chunks):.3f}, write {write / len(chunks):.3f}"
    lines.append(
        f"{'chunk seconds (1 worker, wall, per chunk)':<44} {each}"
        f" ({len(chunks)} chunks of {manifest['chunk_size']:,}; play {play / max(play + write, 1e-9):.0%})"
    )
    from balance.manifest import DECK_LISTS

    cpu_per_game = out["w1"].cpu / n_games
    lists = list_bytes(path)  # kept for the first DECK_LISTS games only: not a per-game cost
    disk = (out["w1"].size - lists) / n_games * TARGET + lists / min(n_games, DECK_LISTS) * DECK_LISTS
    report_slope = max(out["report_agg"].cpu - out["report_fixed"].cpu, 0.0) / n_games
    rss = max(resource.getrusage(w).ru_maxrss for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024
    report = out["report_fixed"].cpu + report_slope * TARGET
    lines += [
        f"{'projected ' + f'{TARGET:,}' + ' games':<44} run {cpu_per_game * TARGET / 60:,.1f} CPU-min "
        f"({cpu_per_game * TARGET / workers / 60:,.1f} min on {workers} busy cores), "
        f"disk {disk / 1e9:.2f} GB, report {report:,.0f} CPU-s",
        f"{'peak RSS of one process (so far)':<44} {rss:,.0f} MB (chunks stream in batches: flat in n)",
    ]
    return lines
