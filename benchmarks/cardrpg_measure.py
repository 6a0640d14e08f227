"""CardRPG Advanced figures for a closing note: skill gradient, class table, session-end reasons, bot habits.

Plays ``-n`` characters (one session each under ``advanced``) per bot with the kernel and
prints Markdown tables: per bot the means of kills, deaths, level reached, battles and
Jokers killed (95 % t intervals) and the share reaching level 5 (Wilson); per class (the
planner by default) the same; the share of sessions per end reason (Wilson). A sample of
characters is re-played with the event log on to count what the bots do between battles
(cards revealed, revealed cards discarded, Jokers burned, Diamonds sold or bought).

``--save FILE.npz`` keeps every session's outcome; ``--against FILE.npz`` (saved by an
earlier version of the code on the same seed) adds the paired difference now − then of
each outcome per bot and per class: the same seeds give the same characters, decks and
dice, so the difference is the effect of the code change.

Example:
    .venv/bin/python benchmarks/cardrpg_measure.py -n 240000 --save /tmp/before.npz
    .venv/bin/python benchmarks/cardrpg_measure.py -n 240000 --against /tmp/before.npz
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import sims
from balance.stats import mean_ci, paired_difference, wilson
from sims.cardrpg import kernel
from sims.cardrpg.state import ClassCard, EndReason, EventKind, Kind, Suit
from sims.core import rng

GAME = sims.load("cardrpg")
OUTCOMES = ("kills", "deaths", "level_end", "battles", "jokers_killed")
SEAT_COLUMNS = ("buybacks", "cards_bought", "sold", "gold_gained", "gold_spent", "random_attacks")


def play(bot: str, n: int, seed: int, params) -> dict[str, np.ndarray]:
    """Return the ``games`` and ``seats`` columns of ``n`` characters of ``bot`` (one array per column)."""
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    ids = np.array([GAME.bots.index(bot)], np.int64)
    weights = GAME.make_weights(bot)[None, :]
    out = GAME.play_chunk(params, pool, np.zeros((1, 0), np.int16), ids, weights, seed, 0, n, ("games", "seats"))
    cols = {name: out["games"][name].astype(np.int64) for name in out["games"].dtype.names}
    cols.update({name: out["seats"][name].astype(np.int64) for name in SEAT_COLUMNS})
    return cols


def habits(bot: str, n: int, seed: int, params) -> dict[str, float]:
    """Return per-session means of between-battle habits over ``n`` characters re-played with the event log."""
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    cards = pool.table
    weights = GAME.make_weights(bot)[None, :]
    state = kernel.prepare(cards, params, weights, 1)
    counts = dict.fromkeys(("revealed", "burned", "jokers_burned", "diamonds_bought", "sold", "buybacks"), 0)
    sessions = 0
    for g in range(n):
        s = state[0]
        kernel.play_character(
            s, GAME.bots.index(bot), g, np.uint64(rng.game_seed(np.uint64(seed), g)), np.zeros(0, np.int64)
        )
        log = s["scratch"]["log"][: s["meta"]["log_n"]]
        kinds, card = log["kind"], log["card"]
        revealed = card[kinds == EventKind.REVEALED]
        bought = set(np.flatnonzero(kinds == EventKind.BOUGHT).tolist())
        after = [k + 1 for k in np.flatnonzero(kinds == EventKind.REVEALED).tolist()]
        counts["revealed"] += revealed.size
        counts["burned"] += sum(1 for k in after if k not in bought)
        counts["jokers_burned"] += int((cards["kind"][revealed] == Kind.JOKER).sum())
        b = card[kinds == EventKind.BOUGHT]
        counts["diamonds_bought"] += int(((cards["suit"][b] == Suit.DIAMOND) & (cards["kind"][b] == Kind.NUMBER)).sum())
        counts["sold"] += int((kinds == EventKind.SOLD).sum())
        counts["buybacks"] += int((kinds == EventKind.BUYBACK).sum())
        sessions += int(s["tally"]["n_sessions"])
    return {k: v / max(1, sessions) for k, v in counts.items()}


def ci(x: np.ndarray) -> str:
    """Return ``mean [lo, hi]`` of ``x``."""
    m, lo, hi = (float(v) for v in mean_ci(x))
    return f"{m:.3f} [{lo:.3f}, {hi:.3f}]"


def share(k: int, n: int) -> str:
    """Return ``p % [lo, hi]`` (Wilson) of ``k`` in ``n``."""
    p, lo, hi = (float(v) for v in wilson(k, n))
    return f"{100 * p:.2f} % [{100 * lo:.2f}, {100 * hi:.2f}]"


def delta(now: np.ndarray, then: np.ndarray, pct: bool = False) -> str:
    """Return the paired difference now − then with its 95 % interval, ``*`` when it excludes 0."""
    d = paired_difference(now, then)
    k = 100 if pct else 1
    star = "*" if d.lo > 0 or d.hi < 0 else ""
    unit = " pt" if pct else ""
    return f"{k * d.delta:+.3f}{unit} [{k * d.lo:+.3f}, {k * d.hi:+.3f}]{star}"


def rows(name: str, cols: dict[str, np.ndarray], mask: np.ndarray, old: dict | None) -> list[str]:
    """Return the table row(s) of the sessions selected by ``mask``: values, then paired Δ if ``old``."""
    n = int(mask.sum())
    l5 = (cols["level_end"][mask] >= 5).astype(float)
    vals = [ci(cols[c][mask].astype(float)) for c in OUTCOMES]
    out = [f"| {name} | {n} | " + " | ".join(vals) + f" | {share(int(l5.sum()), n)} |"]
    if old is not None:
        ds = [delta(cols[c][mask].astype(float), old[c][mask].astype(float)) for c in OUTCOMES]
        ds.append(delta(l5, (old["level_end"][mask] >= 5).astype(float), pct=True))
        out.append(f"| Δ now − then | {n} | " + " | ".join(ds) + " |")
    return out


HEADER = (
    "| {what} | n | kills | deaths | level reached | battles | Jokers killed | reached level 5 |\n"
    "|---|---|---|---|---|---|---|---|"
)


def main() -> None:
    """Parse arguments, play every bot and print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--n-games", type=int, default=240_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--variant", default="advanced")
    ap.add_argument("--set", action="append", default=[], help="parameter override KEY=VALUE (repeatable)")
    ap.add_argument("--bots", default="random,greedy,planner")
    ap.add_argument("--classes", default="planner,greedy", help="bots whose class table is printed")
    ap.add_argument("--habits", type=int, default=3000, help="characters re-played with the event log per bot")
    ap.add_argument("--save", default=None)
    ap.add_argument("--against", default=None)
    args = ap.parse_args()
    overrides = dict(kv.split("=", 1) for kv in args.set)
    params = GAME.make_params(args.variant, overrides or None)
    old = dict(np.load(args.against)) if args.against else None
    print(f"rules_version {GAME.rules_version}; variant {args.variant} {overrides or ''}; seed {args.seed}; "
          f"load average {os.getloadavg()[0]:.2f}")  # fmt: skip
    saved, results = {}, {}
    for bot in args.bots.split(","):
        t0 = time.perf_counter()
        results[bot] = play(bot, args.n_games, args.seed, params)
        print(f"{bot}: {args.n_games} sessions in {time.perf_counter() - t0:.1f} s")
        for c in (*OUTCOMES, "class_card", "end_reason", *SEAT_COLUMNS):
            saved[f"{bot}.{c}"] = results[bot][c]
    prior = {b: {c: old[f"{b}.{c}"] for c in OUTCOMES} for b in results if old is not None and f"{b}.kills" in old}

    print("\n### Skill gradient\n\n" + HEADER.format(what="bot"))
    for bot, cols in results.items():
        print("\n".join(rows(bot, cols, np.ones(cols["kills"].size, bool), prior.get(bot))))

    for bot in args.classes.split(","):
        if bot not in results:
            continue
        cols = results[bot]
        print(f"\n### Classes ({bot})\n\n" + HEADER.format(what="class"))
        for cc in sorted(set(cols["class_card"].tolist())):
            mask = cols["class_card"] == cc
            print("\n".join(rows(ClassCard(cc).name.lower(), cols, mask, prior.get(bot))))

    print("\n### Session-end reasons\n")
    print("| reason | " + " | ".join(results) + " |\n|---|" + "---|" * len(results))
    for reason in EndReason:
        cells = []
        for bot, cols in results.items():
            k, n = int((cols["end_reason"] == reason).sum()), cols["end_reason"].size
            cell = share(k, n) if k else "0"
            if bot in prior:
                then = old[f"{bot}.end_reason"] == reason
                cell += f" (Δ {delta((cols['end_reason'] == reason).astype(float), then.astype(float), pct=True)})"
            cells.append(cell)
        if any(c != "0" for c in cells):
            print(f"| {reason.name.lower()} | " + " | ".join(cells) + " |")

    print("\n### Gold and buying (per session; games + seats tables)\n")
    print("| bot | " + " | ".join(SEAT_COLUMNS) + " |\n|---|" + "---|" * len(SEAT_COLUMNS))
    for bot, cols in results.items():
        print(f"| {bot} | " + " | ".join(f"{cols[c].mean():.3f}" for c in SEAT_COLUMNS) + " |")

    if args.save:
        np.savez_compressed(args.save, **saved)
    if args.habits:
        print(f"\n### Between battles (per session; the first {args.habits} characters re-played with the log)\n")
        keys = ("revealed", "burned", "jokers_burned", "diamonds_bought", "sold", "buybacks")
        print("| bot | " + " | ".join(keys) + " |\n|---|" + "---|" * len(keys))
        for bot in results:
            h = habits(bot, args.habits, args.seed, params)
            print(f"| {bot} | " + " | ".join(f"{h[k]:.3f}" for k in keys) + " |")


if __name__ == "__main__":
    main()
