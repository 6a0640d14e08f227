"""How fast ``balance value`` resolves a game's pool, and where its CPU-seconds go.

Runs :func:`balance.value.card_values` with the command's defaults (every card, ±0.5 pp,
120 s budget of play, every CPU) unless told otherwise, and prints the figures with the
machine's load average beside them (CPU-seconds count this process and its workers, so
they mean something on a busy machine; wall-clock seconds do not).

The split (``--split``, the default) divides the run's CPU-seconds into: the scheduler
process (scheduling, stopping bookkeeping, progress); worker start-up (spawning, imports,
loading compiled kernels: workers' CPU outside batches); and the batches' CPU, which a
side measurement in this process divides into per-card set-up (resolving both arms),
kernel play and pairing/sums, in the proportions of a few sample cards. Worker idle is
wall-clock: workers × seconds of play − the batches' wall-clock seconds.

    .venv/bin/python benchmarks/value_speed.py --game cardwars
    .venv/bin/python benchmarks/value_speed.py --game cardwars --no-share   # before arm-0 sharing, side by side
    .venv/bin/python benchmarks/value_speed.py --game cardinger
    .venv/bin/python benchmarks/value_speed.py --game blessings --variant split_deck --budget 600
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from balance import pairs
from balance.pairs import make_setup, play
from balance.value import ValueOptions, arms, card_values
from balance.value_batch import observes, pair_sums


def cpu_seconds(who: int) -> float:
    """Return user + system CPU seconds of ``who`` (``RUSAGE_SELF`` or ``RUSAGE_CHILDREN``, finished ones)."""
    use = resource.getrusage(who)
    return use.ru_utime + use.ru_stime


def batch_split(setup: pairs.Setup, cards: list[int], baseline: str, n: int) -> dict[str, float]:
    """Return CPU seconds of per-card set-up, kernel play and sums over ``cards`` (one two-arm batch of ``n`` each).

    Measured in this process, each part on its own: set-up resolves both arms from an empty
    cache, play is the two arms' ``play`` calls (arm 0 with the card rows the sums read),
    sums is :func:`balance.value_batch.pair_sums` on their output. A plain run's games
    (``value_card = -1``) are timed beside them.
    """
    out = dict.fromkeys(("setup", "play", "sums", "plain", "games"), 0.0)
    observe = observes(setup)
    for card in cards:
        pairs._CACHE.clear()
        t = time.process_time()
        with_card, without = arms(setup, card, baseline)
        pairs.resolved(with_card), pairs.resolved(without)
        out["setup"] += time.process_time() - t
        t = time.process_time()
        a = play(with_card, 7, 0, n, ("games", "cards") if observe else ("games",))
        b = play(without, 7, 0, n, ("games",))["games"]
        out["play"] += time.process_time() - t
        t = time.process_time()
        for _ in range(10):
            pair_sums(card, a, b, observe)
        out["sums"] += (time.process_time() - t) / 10
        t = time.process_time()
        play(setup, 7, 0, 2 * n, ("games",))
        out["plain"] += time.process_time() - t
        out["games"] += 2 * n
    return out


def main() -> None:
    """Parse the flags, value the pool once and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="cardinger")
    parser.add_argument("--variant", default=None)
    parser.add_argument("--half-width", type=float, default=ValueOptions.half_width)
    parser.add_argument("--budget", type=float, default=ValueOptions.budget)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=ValueOptions.batch)
    parser.add_argument(
        "--no-share", dest="share", action="store_false", help="every card plays its own arm 0 (before)"
    )
    parser.add_argument("--no-split", dest="split", action="store_false", help="skip the CPU split's side measurement")
    args = parser.parse_args()
    setup = make_setup(args.game, variant=args.variant)
    options = ValueOptions(
        half_width=args.half_width,
        budget=args.budget,
        workers=args.workers,
        seed=args.seed,
        batch=args.batch,
        share_arms=args.share,
    )
    load_before = os.getloadavg()
    wall, own, kids = time.perf_counter(), cpu_seconds(resource.RUSAGE_SELF), cpu_seconds(resource.RUSAGE_CHILDREN)
    frame, summary = card_values(setup, options)
    wall = time.perf_counter() - wall
    own, kids = cpu_seconds(resource.RUSAGE_SELF) - own, cpu_seconds(resource.RUSAGE_CHILDREN) - kids
    cpu = own + kids
    games = summary["games_played"]
    halves = frame["half_width"] * 100
    print(f"balance value --game {args.game}: {summary['resolved']}/{summary['n_cards']} cards within "
          f"±{args.half_width * 100:.2f} pp (median ±{halves.median():.2f}, worst ±{halves.max():.2f} pp)")  # fmt: skip
    print(f"  pairs played {summary['pairs_played']:,} ({games:,} games); per card: "
          f"median {int(frame['n_pairs'].median()):,}, max {frame['n_pairs'].max():,}")  # fmt: skip
    print(f"  wall {wall:.1f} s (start-up {summary['startup_s']:.1f} s, play {summary['playing_s']:.1f} s), "
          f"{summary['workers']} workers")  # fmt: skip
    print(f"  CPU {cpu:.1f} s (this process and its workers): {games / max(cpu, 1e-9):,.0f} games per CPU-second")
    load_after = os.getloadavg()
    print(f"  load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min)")
    if not args.split:
        return
    in_batches, pooled = summary["batch_cpu_s"], summary["workers"] > 1  # workers = 1 plays in this process
    workers_other = kids - in_batches if pooled else 0.0
    scheduler = own - (0.0 if pooled else in_batches)
    sample = [c for c in frame.sort("n_pairs")["card"].to_list()[:: max(1, frame.height // 4)]][:4]
    side = batch_split(setup, [int(c) for c in sample], summary["baseline"], args.batch)
    parts = side["setup"] + side["play"] + side["sums"]
    f_setup, f_play, f_sums = side["setup"] / parts, side["play"] / parts, side["sums"] / parts
    idle = summary["workers"] * summary["playing_s"] - summary["batch_wall_s"]
    print(f"  CPU split (of {cpu:.1f} CPU-s):")
    rows = [
        ("scheduler process (stopping bookkeeping, progress, results)", scheduler),
        ("worker start-up and between batches (spawn, imports, kernels)", workers_other),
        ("per-card set-up inside batches (resolve both arms; estimated)", in_batches * f_setup),
        ("kernel play inside batches (estimated)", in_batches * f_play),
        ("pairing and sums inside batches (estimated)", in_batches * f_sums),
    ]
    for label, seconds in rows:
        print(f"    {label:<66} {seconds:7.1f} s  {100 * seconds / max(cpu, 1e-9):5.1f} %")
    print(f"  pairs per CPU-second: {summary['pairs_played'] / max(cpu, 1e-9):,.0f} "
          f"({summary['arm_groups']} arm-0 groups; {summary['pairs_played'] - summary['pairs_used']:,} pairs "
          f"played past a card's stop)")  # fmt: skip
    print(f"  worker idle (wall): {idle:.1f} worker-s of {summary['workers'] * summary['playing_s']:.1f}")
    plain = side["games"] / max(side["plain"], 1e-9)
    valued = side["games"] / max(side["play"], 1e-9)
    print(f"  side measurement ({len(sample)} cards, {side['games']:,.0f} games each way): value-mode games "
          f"{valued:,.0f}/CPU-s, plain games {plain:,.0f}/CPU-s; load {os.getloadavg()[0]:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
