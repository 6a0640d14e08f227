"""`balance run` + `balance report` wall and CPU seconds of two trees, side by side, in alternating rounds.

Each tree runs its own ``.venv/bin/balance``: round after round, tree A then tree B play the
same run (same game, games, seed, workers, default flags otherwise) into a fresh directory
and report it, so both see the same machine load as nearly as possible on a shared
machine. Per round and tree it prints the run's and the report's wall seconds and the
CPU seconds of their processes (children included), with the load average; at the end the
median of each. Nothing is asserted: speed is measured, never tested. The Numba cache of
each tree should be warm (run a few games first), else the first round compiles.

With ``--check`` the first round also compares the two runs' Parquet files byte for byte
(and when some differ, every table's rows, sorted by game and seat: two trees that split a
run into other chunks write other parts of the same tables) and the two reports (PNGs
byte for byte, ``index.html`` but for the minutes the report and the run were made).

Example (from the project root):
    .venv/bin/python benchmarks/pipeline_side_by_side.py /tmp/before . --game cardwars -n 1000000 --rounds 3
"""

from __future__ import annotations

import argparse
import filecmp
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """Run ``cmd`` in ``cwd`` (stdout discarded); return its wall and CPU seconds (user + system, children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if done.returncode:
        sys.exit(f"{' '.join(cmd)} (in {cwd}) failed: {done.stderr.strip().splitlines()[-1:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def same_files(a: Path, b: Path, *, skip: tuple[str, ...] = ()) -> list[str]:
    """Return the relative paths that differ between two directory trees (missing on one side included)."""
    fa = {p.relative_to(a) for p in a.rglob("*") if p.is_file()}
    fb = {p.relative_to(b) for p in b.rglob("*") if p.is_file()}
    out = sorted(str(p) for p in fa ^ fb)
    out += sorted(str(p) for p in fa & fb if p.name not in skip and not filecmp.cmp(a / p, b / p, shallow=False))
    return out


def same_rows(a: Path, b: Path) -> list[str]:
    """Return the table directories of two runs whose rows differ, read with polars (the ``chunk`` column dropped,
    sorted by game, seat and every other numeric column): for runs split into other chunks, whose parts
    differ in layout while the tables are the same."""
    import polars as pl

    out = []
    for directory in sorted({p.name for p in a.iterdir() if p.is_dir()} | {p.name for p in b.iterdir() if p.is_dir()}):
        frames = []
        for run in (a, b):
            parts = sorted((run / directory).glob("*.parquet"))
            frame = pl.concat([pl.read_parquet(p) for p in parts], how="vertical_relaxed") if parts else pl.DataFrame()
            frame = frame.drop("chunk", strict=False)
            keys = [c for c in ("game", "seat") if c in frame.columns]
            keys += [c for c in frame.columns if c not in keys and frame[c].dtype.is_numeric()]
            frames.append(frame.sort(keys, maintain_order=True) if keys else frame)
        if not frames[0].equals(frames[1]):
            out.append(directory)
    return out


def same_page(a: Path, b: Path) -> bool:
    """Return whether two reports' ``index.html`` are equal but for when they and their runs were made."""

    def text(p: Path) -> str:
        page = re.sub(r"report generated [\d: -]+ UTC", "", (p / "index.html").read_text())
        return re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", "", page)  # the run's "created"

    return text(a) == text(b)


def main() -> None:
    """Parse the arguments, alternate the two trees, print every round and the medians."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tree_a", type=Path)
    parser.add_argument("tree_b", type=Path)
    parser.add_argument("--game", default="cardwars")
    parser.add_argument("-n", "--games", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bots", default=None, help="Bot per seat, e.g. tactician,greedy [default: the game's].")
    parser.add_argument("--check", action="store_true", help="Compare the first round's runs and reports.")
    args = parser.parse_args()
    trees = {"A": args.tree_a.resolve(), "B": args.tree_b.resolve()}
    for tree in trees.values():
        if not (tree / ".venv" / "bin" / "balance").is_file():
            sys.exit(f"{tree}: no .venv/bin/balance")
    work = Path(tempfile.mkdtemp(prefix="pipeline-"))
    figures: dict[str, list[tuple[float, float, float, float]]] = {k: [] for k in trees}
    try:
        for r in range(1, args.rounds + 1):
            for key, tree in trees.items():
                out = work / key
                shutil.rmtree(out, ignore_errors=True)
                balance = str(tree / ".venv" / "bin" / "balance")
                run = [balance, "run", "--game", args.game, "-n", str(args.games), "--seed", str(args.seed)]
                run += ["--workers", str(args.workers), "--out", str(out), "--name", "run", "--quiet"]
                run += ["--bots", args.bots] if args.bots else []
                run_wall, run_cpu = timed(run, tree)
                rep = [balance, "report", str(out / "run"), "--out", str(out / "report")]
                rep_wall, rep_cpu = timed(rep, tree)
                figures[key].append((run_wall, run_cpu, rep_wall, rep_cpu))
                load = os.getloadavg()[0]
                print(
                    f"round {r} {key} ({tree}): run {run_wall:6.2f} s wall {run_cpu:6.2f} CPU-s, "
                    f"report {rep_wall:5.2f} s wall {rep_cpu:5.2f} CPU-s, "
                    f"total {run_wall + rep_wall:6.2f} s (load {load:.2f})",
                    flush=True,
                )
            if args.check and r == 1:
                runs = same_files(work / "A" / "run", work / "B" / "run", skip=("manifest.json",))
                if runs:
                    rows = same_rows(work / "A" / "run", work / "B" / "run")
                    print(f"check: tables whose rows differ (sorted by game and seat) {rows or 'none'}")
                pngs = same_files(work / "A" / "report", work / "B" / "report", skip=("index.html",))
                page = same_page(work / "A" / "report", work / "B" / "report")
                print(f"check: run files differing {runs or 'none'}; report PNGs differing {pngs or 'none'}; "
                      f"index.html {'same' if page else 'DIFFERENT'}")  # fmt: skip
        for key, rows in figures.items():
            med = [statistics.median(col) for col in zip(*rows, strict=True)]
            print(
                f"median {key}: run {med[0]:.2f} s wall {med[1]:.2f} CPU-s, report {med[2]:.2f} s wall "
                f"{med[3]:.2f} CPU-s, total {med[0] + med[2]:.2f} s"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
