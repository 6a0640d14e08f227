"""How fast ``balance value`` resolves a game's pool: wall and CPU seconds, pairs, games per CPU-second.

Runs :func:`balance.value.card_values` with the command's defaults (every card, ±0.5 pp,
120 s budget of play, every CPU) unless told otherwise, and prints the figures with the
machine's load average beside them (CPU-seconds count this process and its workers, so
they mean something on a busy machine; wall-clock seconds do not).

    .venv/bin/python benchmarks/value_speed.py --game cardinger
    .venv/bin/python benchmarks/value_speed.py --game blessings --variant split_deck --budget 600
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from balance.pairs import make_setup
from balance.value import ValueOptions, card_values


def cpu_seconds() -> float:
    """Return user + system CPU seconds of this process and its finished children."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    """Parse the flags, value the pool once and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="cardinger")
    parser.add_argument("--variant", default=None)
    parser.add_argument("--half-width", type=float, default=ValueOptions.half_width)
    parser.add_argument("--budget", type=float, default=ValueOptions.budget)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    setup = make_setup(args.game, variant=args.variant)
    options = ValueOptions(half_width=args.half_width, budget=args.budget, workers=args.workers, seed=args.seed)
    load_before = os.getloadavg()
    wall, cpu = time.perf_counter(), cpu_seconds()
    frame, summary = card_values(setup, options)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    games = 2 * summary["pairs_played"]
    print(f"balance value --game {args.game}: {summary['resolved']}/{summary['n_cards']} cards within "
          f"±{args.half_width * 100:.2f} pp (worst ±{frame['half_width'].max() * 100:.2f} pp)")  # fmt: skip
    print(f"  pairs played {summary['pairs_played']:,} ({games:,} games); per card: "
          f"median {int(frame['n_pairs'].median()):,}, max {frame['n_pairs'].max():,}")  # fmt: skip
    print(f"  wall {wall:.1f} s (start-up {summary['startup_s']:.1f} s, play {summary['playing_s']:.1f} s), "
          f"{summary['workers']} workers")  # fmt: skip
    print(f"  CPU {cpu:.1f} s (this process and its workers): {games / max(cpu, 1e-9):,.0f} games per CPU-second")
    load_after = os.getloadavg()
    print(f"  load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
