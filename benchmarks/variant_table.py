"""Every named variant of a game against its default, on paired seeds, as one Markdown table.

Runs the default variant and each runnable named variant (or the ``--variants`` given)
with the same root seed, bots and size, compares each with the default through
``balance.metrics.compare_runs`` (paired per-game differences, 95 % t intervals) and
prints one row per headline metric: the default's value, then each variant's value and
its Δ = default − variant. ``*`` marks a Δ whose interval excludes 0. Optionally writes
the full ``balance compare`` report of every pair.

Example:
    .venv/bin/python benchmarks/variant_table.py --game blessings -n 100000 --workers 2
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

import polars as pl

import sims
from balance.io import load_run
from balance.metrics import compare_runs
from balance.report import write_compare_report
from balance.run import run
from balance.spec import RunSpec


def fmt(value: float | None, unit: str) -> str:
    """Return ``value`` as a percentage for rates, else with three significant decimals."""
    if value is None:
        return "–"
    return f"{100 * value:.2f} %" if unit == "rate" else f"{value:.3g}"


def delta(row: dict) -> str:
    """Return ``Δ lo..hi`` (percentage points for rates), ``*`` when significant, else ``ns``."""
    if row["delta"] is None:
        return "–"
    scale, unit = (100, " pt") if row["unit"] == "rate" else (1, "")
    if not row["significant"]:
        return "ns"
    return f"Δ {scale * row['delta']:+.3g}{unit}*"


def main() -> None:
    """Parse arguments, run every variant and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="blessings")
    ap.add_argument("-n", "--n-games", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--bots", default="greedy,greedy")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--variants", default=None, help="comma-separated; default: every runnable named variant")
    ap.add_argument("--out", default="runs/variants", help="directory for the runs")
    ap.add_argument("--reports", default=None, help="also write each pair's compare report under this directory")
    args = ap.parse_args()
    game = sims.load(args.game)
    base_name = game.default_variant
    names = args.variants.split(",") if args.variants else [v for v, s in game.variants.items() if s.runnable]
    names = [v for v in names if v != base_name]
    base = RunSpec(
        game=args.game,
        n_games=args.n_games,
        seed=args.seed,
        bots=tuple(args.bots.split(",")),
        workers=args.workers,
        out=args.out,
    )
    started = time.perf_counter()
    stem = f"{args.game}-s{args.seed}-n{args.n_games}-{args.bots.replace(',', '-')}"
    runs = {v: load_run(run(replace(base, variant=v, name=f"{stem}-{v}"), progress=False)) for v in [base_name, *names]}
    tables = {v: compare_runs(runs[base_name], runs[v]) for v in names}
    if args.reports:
        for v in names:
            out = Path(args.reports) / f"{base_name}-vs-{v}"
            write_compare_report(runs[base_name], runs[v], out, label_a=base_name, label_b=v)
    labels = (  # every metric any pair has (end reasons differ between variants), first-seen order
        pl.concat([t.select("metric", "label", "unit") for t in tables.values()]).unique("metric", maintain_order=True)
        if names
        else pl.DataFrame()
    )
    print(
        f"# {args.game}: {base_name} vs each variant, {args.n_games:,} paired games per side, seed {args.seed}, "
        f"bots {args.bots} ({time.perf_counter() - started:.0f} s)\n"
    )
    print("| metric | " + " | ".join([base_name, *names]) + " |")
    print("|---" * (len(names) + 2) + "|")
    for metric, label, unit in labels.iter_rows():
        cells = []
        base_value = None
        for v in names:
            hit = tables[v].filter(pl.col("metric") == metric)
            if hit.height == 0:
                cells.append("–")
                continue
            row = hit.row(0, named=True)
            base_value = row["value_a"] if base_value is None else base_value
            cells.append(f"{fmt(row['value_b'], unit)} ({delta(row)})")
        print(f"| {label} | {fmt(base_value, unit)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
