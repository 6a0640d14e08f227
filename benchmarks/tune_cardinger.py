"""Tune the Cardinger ``tuned`` bot's weights by random local search against ``greedy``.

Each candidate plays the same seeded games as the incumbent (seats swapped for half of
them, so seat advantage cancels); a candidate replaces the incumbent when it wins more
of those games. Every ``--refresh`` steps the seed block changes, so the search does not
overfit one set of deals. The result is printed as a ``BotParams(...)`` to paste into
``sims/cardinger/weights.py`` (``DEFAULTS["tuned"]``).

The keyword weights keep their signs (``SIGNS``): a benefit (READY, DOUBLE, OMNI, STEAL,
PROSPERITY, DEVOUR) never counts against a card and a drawback (FRAGILE, DECAY) never for
it; the search starts from the current weights moved into those bounds. Without them the
search drifted to DECAY > 0 and DEVOUR < 0, noise that showed up in card values.

Example:
    .venv/bin/python benchmarks/tune_cardinger.py --steps 600 --games 4000
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import sims
from sims.cardinger.weights import DEFAULTS, BotParams

GAME = sims.load("cardinger")
SIGNS = {  # weight -> +1 (never below 0) or -1 (never above 0)
    **dict.fromkeys(("ready", "double", "omni", "steal", "prosperity", "devour", "discard"), 1),
    **dict.fromkeys(("fragile", "decay"), -1),
}
SIGNED = [(BotParams._fields.index(name), sign) for name, sign in SIGNS.items()]


def win_rate(weights: np.ndarray, opponent: str, n_games: int, seed: int, variant: str | None = None) -> float:
    """Return the share of ``n_games`` (half in each seat) the tuned bot with ``weights`` wins."""
    params = GAME.make_params(variant)
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    decks = np.zeros((2, params.deck_size), np.int16)
    other = GAME.make_weights(opponent)
    tuned, rival = GAME.bots.index("tuned"), GAME.bots.index(opponent)
    wins = 0
    for seat in (0, 1):
        bots = np.array([tuned, rival] if seat == 0 else [rival, tuned], np.int64)
        w = np.stack([weights, other] if seat == 0 else [other, weights])
        games = GAME.play_chunk(params, pool, decks, bots, w, seed, 0, n_games // 2, ("games",))["games"]
        wins += int(np.sum(games["winner"] == seat))
    return wins / (2 * (n_games // 2))


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the Wilson 95 % interval of a rate ``p`` over ``n`` trials."""
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def bounded(w: np.ndarray) -> np.ndarray:
    """Return ``w`` with each signed weight moved to 0 if it has the wrong sign (``SIGNS``)."""
    out = w.copy()
    for k, sign in SIGNED:
        out[k] = max(out[k], 0.0) if sign > 0 else min(out[k], 0.0)
    return out


def perturb(w: np.ndarray, rng: np.random.Generator, scale: float) -> np.ndarray:
    """Return ``w`` with 1-3 random coordinates moved by a random step, kept in bounds."""
    out = w.copy()
    for k in rng.choice(len(w), size=rng.integers(1, 4), replace=False):
        out[k] += rng.normal(0.0, scale * max(abs(out[k]), 0.5))
    return bounded(out)


def main() -> None:
    """Run the search and print the best weights."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--games", type=int, default=4000, help="games per evaluation (half per seat)")
    ap.add_argument("--refresh", type=int, default=50, help="steps between new seed blocks")
    ap.add_argument("--scale", type=float, default=0.5)
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    best = bounded(np.array(tuple(DEFAULTS["tuned"]), dtype=np.float64))
    block = 1000
    best_rate = win_rate(best, args.opponent, args.games, block)
    start = time.time()
    for step in range(1, args.steps + 1):
        if step % args.refresh == 0:
            block += 1
            best_rate = win_rate(best, args.opponent, args.games, block)
        cand = perturb(best, rng, args.scale)
        rate = win_rate(cand, args.opponent, args.games, block)
        if rate > best_rate:
            best, best_rate = cand, rate
            print(f"step {step:4d} ({time.time() - start:5.0f}s): {rate:.4f}", flush=True)
    n = 40000
    final = win_rate(best, args.opponent, n, 999_999)
    lo, hi = wilson(final, n)
    print(f"confirmation on fresh seeds: {final:.4f} [{lo:.4f}, {hi:.4f}] n={n}")
    start_rate = win_rate(bounded(np.array(tuple(DEFAULTS["tuned"]), dtype=np.float64)), args.opponent, n, 999_999)
    lo, hi = wilson(start_rate, n)
    print(f"the starting weights on the same seeds: {start_rate:.4f} [{lo:.4f}, {hi:.4f}] n={n}")
    fields = ", ".join(f"{f}={v:.3g}" for f, v in zip(BotParams._fields, best, strict=True))
    print(f"BotParams({fields})")


if __name__ == "__main__":
    main()
