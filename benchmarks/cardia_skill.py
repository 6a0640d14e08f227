"""Cardia skill gradient: every ordered bot pairing, with 95 % Wilson intervals.

Plays ``-n`` games per ordered pairing (seat 0's bot first) under one variant and prints
one Markdown row per pairing: seat-0 wins, seat-1 wins, draws, timeouts, the share of
games ended by signets, rounds per game and CPU-seconds; then one row per unordered
pair of bots pooling both seatings (each bot sits in seat 0 for ``n`` games and in
seat 1 for ``n`` games: the seat effect cancels), with the stronger bot's share of all
games, draws counting as not won. Cardia has no first mover (both players choose at
once), so there is no first-seat column. Games are those ``balance run`` plays with the
same seed.

Example:
    .venv/bin/python benchmarks/cardia_skill.py -n 4000
    .venv/bin/python benchmarks/cardia_skill.py --variant deck_ii --pairings expert-greedy,greedy-expert
"""

from __future__ import annotations

import itertools
import time

import numpy as np
from blessings_skill import play, rate, skill_setup

from sims.cardia.state import EndReason


def row(bots: tuple[str, str], g: np.ndarray, cpu: float) -> str:
    """Return the Markdown row of one ordered pairing."""
    n = len(g)
    cells = [
        f"{bots[0]} vs {bots[1]}",
        f"{n:,}",
        rate(int((g["winner"] == 0).sum()), n),
        rate(int((g["winner"] == 1).sum()), n),
        rate(int(((g["winner"] < 0) & (g["end_reason"] != EndReason.TIMEOUT)).sum()), n),
        rate(int((g["end_reason"] == EndReason.TIMEOUT).sum()), n),
        rate(int((g["end_reason"] == EndReason.SIGNETS).sum()), n),
        f"{g['turns'].mean():.2f}",
        f"{cpu:.1f}",
    ]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    """Parse arguments, play every pairing and print the tables."""
    args, game, variant, overrides, pairings = skill_setup("cardia", 4_000, __doc__)
    print(
        "| seat 0 vs seat 1 | n | seat-0 wins | seat-1 wins | draws | timeouts | ended by signets | "
        "rounds/game | CPU s |"
    )
    print("|---" * 9 + "|")
    wins: dict[tuple[str, str], tuple[int, int]] = {}
    for bots in pairings:
        started = time.process_time()
        g = play(game, variant, bots, args.n_games, args.seed, overrides)
        print(row(bots, g, time.process_time() - started), flush=True)
        wins[bots] = (int((g["winner"] == 0).sum()), int((g["winner"] == 1).sum()))
    pooled = []
    for a, b in itertools.combinations(game.bots, 2):
        if (a, b) in wins and (b, a) in wins:
            a_wins = wins[(a, b)][0] + wins[(b, a)][1]
            b_wins = wins[(a, b)][1] + wins[(b, a)][0]
            pooled.append((a, b, a_wins, b_wins))
    if pooled:
        print("\n| bots (both seatings) | games | first bot's share of all games | second bot's share |")
        print("|---" * 4 + "|")
        for a, b, a_wins, b_wins in pooled:
            n = 2 * args.n_games
            print(f"| {a} vs {b} | {n:,} | {rate(a_wins, n)} | {rate(b_wins, n)} |")


if __name__ == "__main__":
    main()
