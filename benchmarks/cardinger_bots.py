"""Cardinger bot figures: the skill gradient, PROSPERITY hands, card-value ranks and greedy speed.

Prints figures only (never asserts). Subcommands:

- ``gradient``: every bot pairing (seat 0 bot listed first; first seat random), win rate of
  seat 0 with its Wilson 95 % interval, timeouts and mean turns.
- ``prosperity``: per bot mirror, the share of PROSPERITY score actions whose owner holds at
  least ``prosperity_step`` cards as the action resolves (so the bonus is at least 1), with
  its Wilson interval, and the mean hand size. Hands are rebuilt from the replay log.
- ``ranks``: per bot mirror, every card's GIH WR (games in hand: ``first_drawn_turn >= 0``)
  written to ``--out`` as CSV; with ``--before`` (an earlier CSV), Spearman's rank
  correlation of the two GIH WR columns and the cards whose rank moved most.
- ``speed``: games/s of one bot mirror (kernel only, ``games`` table, best of ``--repeat``).

Each figure line carries the load average it was measured under.

Example:
    .venv/bin/python benchmarks/cardinger_bots.py gradient -n 100000 --seed 2026
    .venv/bin/python benchmarks/cardinger_bots.py ranks -n 200000 --out runs/ranks_after --before runs/ranks_before
"""

from __future__ import annotations

import argparse
import csv
import itertools
import math
import os
import time
from pathlib import Path

import numpy as np
from scipy import stats

import sims
from sims.cardinger import kernel
from sims.cardinger.state import EventKind, Keyword

GAME = sims.load("cardinger")
CHUNK = 25_000  # games per play_chunk call (bounds the cards table's memory)


def load() -> str:
    """Return the 1/5/15-minute load averages as text."""
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the Wilson 95 % interval of ``k`` successes out of ``n``."""
    if n == 0:
        return math.nan, math.nan
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def inputs(bots: tuple[str, str], variant: str | None):
    """Return (params, pool, decks, bot ids, weights) for a run of ``bots`` under ``variant``."""
    params = GAME.make_params(variant)
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    decks = np.zeros((2, params.deck_size), np.int16)
    ids = np.array([GAME.bots.index(b) for b in bots], np.int64)
    weights = np.stack([GAME.make_weights(b) for b in bots])
    return params, pool, decks, ids, weights


def chunks(bots, variant, n: int, seed: int, tables: tuple[str, ...]):
    """Yield the record tables of games ``0 .. n-1`` in chunks of ``CHUNK`` games."""
    params, pool, decks, ids, weights = inputs(bots, variant)
    for first in range(0, n, CHUNK):
        yield GAME.play_chunk(params, pool, decks, ids, weights, seed, first, min(CHUNK, n - first), tables)


def gradient(args) -> None:
    """Print the skill gradient: every pairing of the listed bots, seat 0's win rate."""
    names = args.bots.split(",")
    print(f"skill gradient, variant {args.variant or 'modern'}, n = {args.n_games} per pairing, seed {args.seed}")
    print("| seat 0 vs seat 1 | seat-0 win rate | 95 % CI | timeouts | mean turns |")
    print("|---|---|---|---|---|")
    for pair in itertools.combinations_with_replacement(names, 2):  # the bot listed first sits in seat 0
        wins = timeouts = turns = n = 0
        for out in chunks(pair, args.variant, args.n_games, args.seed, ("games",)):
            g = out["games"]
            wins += int((g["winner"] == 0).sum())
            timeouts += int((g["winner"] < 0).sum())
            turns += int(g["turns"].sum())
            n += len(g)
        lo, hi = wilson(wins, n)
        tlo, thi = wilson(timeouts, n)
        print(
            f"| {pair[0]} vs {pair[1]} | {100 * wins / n:.2f} % | {100 * lo:.2f}-{100 * hi:.2f} | "
            f"{100 * timeouts / n:.3f} % [{100 * tlo:.3f}, {100 * thi:.3f}] | {turns / n:.1f} |",
            flush=True,
        )
    print(load())


def prosperity_hands(events: np.ndarray, pool_keywords: np.ndarray, step: int) -> tuple[int, int, int]:
    """Return (PROSPERITY score actions, those with hand >= ``step``, total hand size) in one game's events."""
    hand = [0, 0]
    actions = bonus = total = 0
    for seat, kind, card, value in zip(*(events[f].tolist() for f in ("seat", "kind", "card", "value")), strict=True):
        if kind == EventKind.DEAL:
            hand[seat] = value
        elif kind in (EventKind.DRAW, EventKind.DRAWN, EventKind.IDLE_DRAW):
            hand[seat] += 1
        elif kind in (EventKind.PLAY, EventKind.PAY):
            hand[seat] -= 1
        elif kind == EventKind.SCORE_ACTION and pool_keywords[card] & Keyword.PROSPERITY:
            actions += 1
            bonus += hand[seat] >= step
            total += hand[seat]
    return actions, bonus, total


def prosperity(args) -> None:
    """Print, per bot mirror, how often a PROSPERITY score action resolves with a hand of ``step`` or more."""
    print(f"PROSPERITY score actions with hand >= prosperity_step, {args.n_games} games per mirror, seed {args.seed}")
    print("| mirror | PROSPERITY score actions | with hand >= step | 95 % CI | mean hand | PROSPERITY pts/game/seat |")
    print("|---|---|---|---|---|---|")
    for bot in args.bots.split(","):
        params, pool, decks, ids, weights = inputs((bot, bot), args.variant)
        kw = pool.table["keywords"]
        actions = bonus = total = 0
        for g in range(args.n_games):
            events = kernel.replay_game(params, pool.table, decks, ids, weights, np.uint64(args.seed), g)
            a, b, t = prosperity_hands(events, kw, params.prosperity_step)
            actions, bonus, total = actions + a, bonus + b, total + t
        points = 0
        for out in chunks((bot, bot), args.variant, args.n_games, args.seed, ("seats",)):
            points += int(out["seats"]["points_prosperity"].sum())
        lo, hi = wilson(bonus, actions)
        print(
            f"| {bot} | {actions} | {100 * bonus / actions:.1f} % | {100 * lo:.1f}-{100 * hi:.1f} | "
            f"{total / actions:.2f} | {points / (2 * args.n_games):.3f} |",
            flush=True,
        )
    print(load())


def gih(bot: str, variant: str | None, n: int, seed: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Return (card names, games in hand, wins in hand) per card id for a ``bot`` mirror."""
    _, pool, *_ = inputs((bot, bot), variant)
    size = len(pool)
    in_hand = np.zeros(size, np.int64)
    won = np.zeros(size, np.int64)
    for out in chunks((bot, bot), variant, n, seed, ("games", "cards")):
        cards = out["cards"]
        seen = cards["first_drawn_turn"] >= 0
        in_hand += np.bincount(cards["card"][seen], minlength=size)
        won += np.bincount(cards["card"][seen & (cards["won"] == 1)], minlength=size)
    return list(pool.names), in_hand, won


def ranks(args) -> None:
    """Write each mirror's GIH WR per card; compare with ``--before`` (Spearman, biggest rank moves)."""
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    for bot in args.bots.split(","):
        names, n, k = gih(bot, args.variant, args.n_games, args.seed)
        path = out_dir / f"gih_{bot}.csv"
        with path.open("w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["card", "name", "gih_n", "gih_wins", "gih_wr"])
            for c, name in enumerate(names):
                w.writerow([c, name, int(n[c]), int(k[c]), f"{k[c] / n[c]:.6f}" if n[c] else ""])
        print(f"{bot} mirror: GIH WR of {len(names)} cards over {args.n_games} games -> {path}", flush=True)
        if args.before:
            compare(Path(args.before) / f"gih_{bot}.csv", path, bot, args.top)
    print(load())


def read_gih(path: Path) -> dict[str, tuple[float, int]]:
    """Return {card name: (GIH WR, games in hand)} from a ``ranks`` CSV."""
    with path.open() as fh:
        return {r["name"]: (float(r["gih_wr"]), int(r["gih_n"])) for r in csv.DictReader(fh) if r["gih_wr"]}


def compare(before: Path, after: Path, bot: str, top: int) -> None:
    """Print Spearman's rho between two GIH WR tables and the cards whose rank moved most."""
    a, b = read_gih(before), read_gih(after)
    common = sorted(set(a) & set(b))
    x = np.array([a[c][0] for c in common])
    y = np.array([b[c][0] for c in common])
    rho, p = stats.spearmanr(x, y)
    # a 95 % interval for rho: Fisher z with the Bonett-Wright standard error sqrt((1 + rho^2 / 2) / (n - 3))
    z, se = math.atanh(rho), math.sqrt((1 + rho * rho / 2) / (len(common) - 3))
    lo, hi = math.tanh(z - 1.96 * se), math.tanh(z + 1.96 * se)
    print(f"{bot} mirror: Spearman rho = {rho:.3f} [{lo:.3f}, {hi:.3f}] over {len(common)} cards (p = {p:.2g})")
    rank_a = {c: r for r, c in enumerate(sorted(common, key=lambda c: -a[c][0]), 1)}
    rank_b = {c: r for r, c in enumerate(sorted(common, key=lambda c: -b[c][0]), 1)}
    moved = sorted(common, key=lambda c: -abs(rank_a[c] - rank_b[c]))[:top]
    print("| card | rank before | rank after | GIH WR before | GIH WR after |")
    print("|---|---|---|---|---|")
    for c in moved:
        print(f"| {c} | {rank_a[c]} | {rank_b[c]} | {100 * a[c][0]:.2f} % | {100 * b[c][0]:.2f} % |")


def speed(args) -> None:
    """Print games/s of each bot mirror on one core (kernel only, ``games`` table), best of ``--repeat``.

    Both wall-clock and CPU-time rates: on a loaded machine the process waits for a core,
    so the CPU-time rate (games per CPU-second of this process) is the steadier figure.
    """
    for bot in args.bots.split(","):
        params, pool, decks, ids, weights = inputs((bot, bot), args.variant)
        GAME.play_chunk(params, pool, decks, ids, weights, args.seed, 0, 200, ("games",))  # compile / load
        wall = cpu = 0.0
        for _ in range(args.repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            GAME.play_chunk(params, pool, decks, ids, weights, args.seed, 0, args.n_games, ("games",))
            wall = max(wall, args.n_games / (time.perf_counter() - start))
            cpu = max(cpu, args.n_games / (time.process_time() - start_cpu))
        print(
            f"{bot} mirror: {wall:,.0f} games/s wall, {cpu:,.0f} games per CPU-second "
            f"(best of {args.repeat} x {args.n_games} games; {load()})",
            flush=True,
        )


def main() -> None:
    """Parse the subcommand and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("gradient", "prosperity", "ranks", "speed"))
    ap.add_argument("-n", "--n-games", type=int, default=None)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--variant", default=None)
    ap.add_argument("--bots", default=None, help="comma-separated (default: every bot for gradient, else greedy,tuned)")
    ap.add_argument("--out", default="runs/cardinger_ranks", help="ranks: directory for the CSV files")
    ap.add_argument("--before", default=None, help="ranks: directory of an earlier ranks run to compare with")
    ap.add_argument("--top", type=int, default=8, help="ranks: how many most-moved cards to list")
    ap.add_argument("--repeat", type=int, default=5, help="speed: timed runs")
    args = ap.parse_args()
    defaults = {"gradient": 100_000, "prosperity": 20_000, "ranks": 200_000, "speed": 100_000}
    args.n_games = args.n_games or defaults[args.what]
    args.bots = args.bots or ("tuned,greedy,random" if args.what == "gradient" else "greedy,tuned")
    {"gradient": gradient, "prosperity": prosperity, "ranks": ranks, "speed": speed}[args.what](args)


if __name__ == "__main__":
    main()
