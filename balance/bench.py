"""Speed figures for ``balance bench`` / ``make bench``: printed, never asserted."""

from __future__ import annotations

import itertools
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from balance.spec import RunSpec, resolve
from sims.core.batches import play_batches

TABLES = {  # the bench's columns: tables recorded
    "games only": ("games",),
    "games+seats": ("games", "seats"),
    "all tables": ("games", "seats", "cards", "turns"),
}
FIRST_GAME = 1_000  # the timed games start here; the warm-up plays games 0 .. 199


def games_per_second(spec: RunSpec, n_games: int, tables: tuple[str, ...]) -> float:
    """Return the kernel's games per CPU-second for ``spec`` in this process (compile excluded).

    CPU seconds of this process, not wall seconds: on a shared machine the figure then
    moves much less with other processes' load. The games are played as ``balance run``
    plays them (``play_batches``: record buffers allocated once and refilled), not into one
    fresh buffer for all of them, whose first-touch page faults cost ~10 % of the time with
    every table (Card Wars, 2026-11-24) and are no part of a run.
    """
    r = resolve(spec)
    args = (r.params, r.pool, r.decks, r.bot_ids, r.weights, spec.seed)
    r.game.play_chunk(*args, 0, 200, tables=tables)  # compile / load cache
    start = time.process_time()
    for _ in play_batches(r.game, *args, FIRST_GAME, n_games, tables=tables):
        pass
    return n_games / max(time.process_time() - start, 1e-9)


def decisions_per_game(spec: RunSpec, n_games: int) -> float:
    """Return the bots' decisions a game in the timed games, as the game's audit (``check_games``) counts them."""
    r = resolve(spec)
    report = np.zeros(4, dtype=np.int64)
    r.game.check_games(
        r.params, r.pool.table, r.decks, r.bot_ids, r.weights, np.uint64(spec.seed), FIRST_GAME, n_games, report
    )
    return int(report[0]) / n_games


def bench_game(
    game: str, *, games_per_pairing: int, end_to_end: int, workers: int, echo: Callable[[str], Any] = print
) -> None:
    """Print games per CPU-second on one core for every bot pairing and table set, then run -> report wall seconds."""
    import sims

    spec = sims.load(game)
    echo(
        f"# {game} (rules_version {spec.rules_version}): games per CPU-second on one core, {games_per_pairing:,}"
        " games each; decisions a game (the audit's count) and ns a decision with the games table only"
    )
    seats = "".join(f"{f'seat {p}':>10}" for p in range(spec.seats))
    echo(seats + "".join(f" {name:>12}" for name in TABLES) + f" {'decisions':>10} {'ns/decision':>12}")
    lineups = itertools.product(spec.bots, repeat=spec.seats) if games_per_pairing else ()
    for lineup in lineups:  # every pairing; a one-seat game: every bot
        run_spec = RunSpec(game=game, bots=lineup, seed=12345)
        speeds = [games_per_second(run_spec, games_per_pairing, tables) for tables in TABLES.values()]
        per_game = decisions_per_game(run_spec, games_per_pairing)
        ns = 1e9 / (speeds[0] * per_game) if per_game else float("nan")
        row = "".join(f"{b:>10}" for b in lineup) + "".join(f" {v:>12,.0f}" for v in speeds)
        echo(row + f" {per_game:>10.1f} {ns:>12.1f}")
    if end_to_end:
        end_to_end_seconds(game, end_to_end, workers, echo)


def end_to_end_seconds(game: str, n_games: int, workers: int, echo: Callable[[str], Any] = print) -> dict[str, float]:
    """Run ``n_games`` games of greedy bots in every seat (default tables: games, seats, sums), then the report."""
    import sims
    from balance.io import load_run
    from balance.report import write_report
    from balance.run import run

    bots = ("greedy",) * sims.load(game).seats
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        path = run(RunSpec(game=game, n_games=n_games, seed=1, bots=bots, workers=workers, out=tmp, name="bench"))
        ran = time.perf_counter()
        write_report(load_run(path), Path(tmp) / "report")
        done = time.perf_counter()
    figures = {"run_s": ran - start, "report_s": done - ran, "total_s": done - start}
    echo(
        f"# end to end, {n_games:,} games, {workers} workers: run {figures['run_s']:.1f} s"
        f" + report {figures['report_s']:.1f} s = {figures['total_s']:.1f} s wall"
    )
    return figures
