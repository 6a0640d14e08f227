"""CPU seconds of one run chunk's pieces: play (the kernel, every table recorded), sums, sums' tables, Parquet writes.

Plays ``--chunks`` chunks of ``--chunk-size`` games as a run's pool worker does
(``balance.run.play_chunk_to_parts`` into a scratch directory, default flags) and prints
each piece's CPU seconds per chunk (``time.thread_time``; the median over the chunks
after a first one that loads the kernel), so a change outside the kernel can be measured
in CPU time, which a loaded machine disturbs far less than wall time. Run it with each
tree's own interpreter, from that tree, to compare two trees (alternate them):

    .venv/bin/python benchmarks/chunk_cpu.py --game cardwars --chunks 4
    cd /tmp/before && .venv/bin/python /path/to/benchmarks/chunk_cpu.py --game cardwars --chunks 4

Nothing is asserted: speed is measured, never tested.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from chunk_timers import timed, timed_gen


def main() -> None:
    """Play the chunks and print the pieces' CPU seconds."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="cardwars")
    parser.add_argument("--chunks", type=int, default=4)
    parser.add_argument("--chunk-size", type=int, default=50_000)
    parser.add_argument("--batch", type=int, default=None, help="Games per batch [default: balance.run.RUN_BATCH].")
    args = parser.parse_args()

    import importlib

    from balance.spec import RunSpec, resolve

    try:  # ChunkSums' module (balance.aggregates in a tree before balance.chunk_sums existed)
        agg = importlib.import_module("balance.chunk_sums")
    except ModuleNotFoundError:
        agg = importlib.import_module("balance.aggregates")

    run_module = importlib.import_module("balance.run")  # the package exports a function of that name
    acc: dict[str, list[float]] = {}

    if args.batch:
        run_module.RUN_BATCH = args.batch
    run_module.play_batches = timed_gen(acc, "play", run_module.play_batches)
    run_module.write_part = timed(acc, "write", run_module.write_part)
    agg.ChunkSums.add = timed(acc, "sums", agg.ChunkSums.add)
    agg.ChunkSums.tables = timed(acc, "tables", agg.ChunkSums.tables)
    spec = RunSpec(game=args.game, n_games=args.chunks * args.chunk_size, seed=1, workers=1)
    resolved = resolve(spec)
    rows: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="chunk-cpu-") as work:
        for i in range(args.chunks + 1):
            acc.clear()
            c0 = time.thread_time()
            run_module.play_chunk_to_parts(resolved.spec, Path(work), "r", i, i * args.chunk_size, args.chunk_size)
            if i:  # the first loads the kernel and sums
                rows.append({k: v[1] for k, v in acc.items()} | {"chunk": time.thread_time() - c0})
    keys = ["chunk", "play", "sums", "tables", "write"]
    med = {k: statistics.median(r.get(k, 0.0) for r in rows) for k in keys}
    other = med["chunk"] - sum(med[k] for k in keys[1:])
    print(
        f"{os.getcwd()} {args.game}: CPU s per {args.chunk_size}-game chunk (median of {len(rows)}): "
        + ", ".join(f"{k} {med[k]:.4f}" for k in keys)
        + f", other {other:.4f} (load {os.getloadavg()[0]:.2f})"
    )


if __name__ == "__main__":
    main()
