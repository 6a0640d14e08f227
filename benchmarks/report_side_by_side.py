"""`balance report` of one run directory by two trees, side by side, in alternating rounds.

Round after round, tree A then tree B (each its own ``.venv/bin/balance``) report the same
run directory into a fresh directory, so both read the same Parquet under as nearly the
same machine load as a shared machine allows. Per round and tree it prints the report's
wall seconds and the CPU seconds of its process (children included) with the load
average; at the end the median of each. Nothing is asserted: speed is measured, never
tested. With ``--check`` the first round also compares the two reports (PNGs byte for
byte, ``index.html`` but for the minute the report was made).

Example (from the project root; make the run once with either tree):
    .venv/bin/balance run --game cardwars -n 1000000 --seed 1 --workers 2 --out /tmp/r --name cw1m --quiet
    .venv/bin/python benchmarks/report_side_by_side.py /tmp/before . /tmp/r/cw1m --rounds 8 --check
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pipeline_side_by_side import same_files, same_page, timed  # a sibling script, not a package


def main() -> None:
    """Parse the arguments, alternate the two trees, print every round and the medians."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tree_a", type=Path)
    parser.add_argument("tree_b", type=Path)
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--check", action="store_true", help="Compare the first round's reports.")
    args = parser.parse_args()
    trees = {"A": args.tree_a.resolve(), "B": args.tree_b.resolve()}
    for tree in trees.values():
        if not (tree / ".venv" / "bin" / "balance").is_file():
            sys.exit(f"{tree}: no .venv/bin/balance")
    if not (args.run_dir / "manifest.json").is_file():
        sys.exit(f"{args.run_dir}: not a run directory (no manifest.json)")
    work = Path(tempfile.mkdtemp(prefix="report-"))
    figures: dict[str, list[tuple[float, float]]] = {k: [] for k in trees}
    try:
        for r in range(1, args.rounds + 1):
            for key, tree in trees.items():
                out = work / key
                shutil.rmtree(out, ignore_errors=True)
                balance = str(tree / ".venv" / "bin" / "balance")
                wall, cpu = timed([balance, "report", str(args.run_dir.resolve()), "--out", str(out)], tree)
                figures[key].append((wall, cpu))
                print(f"round {r} {key}: report {wall:5.2f} s wall {cpu:5.2f} CPU-s (load {os.getloadavg()[0]:.2f})",
                      flush=True)  # fmt: skip
            if args.check and r == 1:
                pngs = same_files(work / "A", work / "B", skip=("index.html",))
                page = same_page(work / "A", work / "B")
                print(f"check: report files differing {pngs or 'none'}; index.html {'same' if page else 'DIFFERENT'}")
        for key, rows in figures.items():
            wall, cpu = (statistics.median(col) for col in zip(*rows, strict=True))
            print(f"median {key} ({trees[key]}): report {wall:.3f} s wall {cpu:.3f} CPU-s")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
