"""Every named variant of a game against its default, on paired seeds, as Markdown tables.

Runs the default variant and each runnable named variant (or the ``--variants`` given)
with the same root seed, bots and size, and compares each with the default through
``balance.metrics.compare_runs`` (paired per-game differences, 95 % t intervals). Prints
one table per headline metric, one row per variant: the number of paired games ``n``, the
variant's value (a rate with its 95 % Wilson interval), and Δ = default − variant with its
95 % interval; ``*`` marks a Δ whose interval excludes 0. Optionally writes the full
``balance compare`` report of every pair.

Example:
    .venv/bin/python benchmarks/variant_table.py --game blessings -n 100000 --workers 2
    .venv/bin/python benchmarks/variant_table.py --game blessings --bots tactician,tactician -n 10000
"""

from __future__ import annotations

import argparse
import os
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
from balance.stats import wilson


def value_cell(value: float | None, n: int, unit: str) -> str:
    """Return a rate as a percentage with its 95 % Wilson interval, any other mean with three decimals."""
    if value is None:
        return "–"
    if unit != "rate":
        return f"{value:.3g}"
    _, lo, hi = (float(x) for x in wilson(round(value * n), n))
    return f"{100 * value:.2f} % [{100 * lo:.2f}, {100 * hi:.2f}]"


def delta_cell(row: dict) -> str:
    """Return ``Δ [lo, hi]`` (percentage points for rates), ``*`` when the interval excludes 0."""
    if row["delta"] is None:
        return "–"
    scale, unit = (100, " pt") if row["unit"] == "rate" else (1, "")
    lo, hi = row["lo"], row["hi"]
    bounds = f" [{scale * lo:+.3g}, {scale * hi:+.3g}]" if lo is not None and hi is not None else ""
    return f"{scale * row['delta']:+.3g}{unit}{bounds}{'*' if row['significant'] else ''}"


def main() -> None:
    """Parse arguments, run every variant and print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="blessings")
    ap.add_argument("-n", "--n-games", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--bots", default="greedy,greedy")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--variants", default=None, help="comma-separated; default: every runnable named variant")
    ap.add_argument("--tables", default="games,seats", help="tables to record [default games,seats]")
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
        tables=tuple(args.tables.split(",")),
    )
    started = time.perf_counter()
    stem = f"{args.game}-r{game.rules_version}-s{args.seed}-n{args.n_games}-{args.bots.replace(',', '-')}"
    runs = {v: load_run(run(replace(base, variant=v, name=f"{stem}-{v}"), progress=False)) for v in [base_name, *names]}
    tables = {v: compare_runs(runs[base_name], runs[v]) for v in names}
    if args.reports:
        for v in names:
            out = Path(args.reports) / f"{base_name}-vs-{v}"
            write_compare_report(runs[base_name], runs[v], out, label_a=base_name, label_b=v)
    print(
        f"# {args.game} (rules_version {game.rules_version}): {base_name} vs each variant, {args.n_games:,} paired "
        f"games per side, seed {args.seed}, bots {args.bots} ({time.perf_counter() - started:.0f} s, "
        f"load average {os.getloadavg()[0]:.1f})\n"
    )
    if not names:
        return
    labels = (  # every metric any pair has (end reasons differ between variants), first-seen order
        pl.concat([t.select("metric", "label", "unit") for t in tables.values()]).unique("metric", maintain_order=True)
    )
    for metric, label, unit in labels.iter_rows():
        rows = {v: tables[v].filter(pl.col("metric") == metric) for v in names}
        first = next((r.row(0, named=True) for r in rows.values() if r.height), None)
        print(f"## {label}\n")
        print(f"| variant | n | value | Δ {base_name} − variant |")
        print("|---|---|---|---|")
        if first is not None:
            print(f"| {base_name} | {first['n']:,} | {value_cell(first['value_a'], first['n'], unit)} | |")
        for v in names:
            if rows[v].height == 0:
                print(f"| {v} | – | – | – |")
                continue
            row = rows[v].row(0, named=True)
            print(f"| {v} | {row['n']:,} | {value_cell(row['value_b'], row['n'], unit)} | {delta_cell(row)} |")
        print()


if __name__ == "__main__":
    main()
