"""Speed figures for ``balance bench`` / ``make bench``: printed, never asserted."""

from __future__ import annotations

import itertools
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from balance.spec import RunSpec, resolve


def games_per_second(spec: RunSpec, n_games: int, tables: tuple[str, ...]) -> float:
    """Return single-process games/s of the kernel for ``spec`` (compile excluded)."""
    r = resolve(spec)
    args = (r.params, r.pool, r.decks, r.bot_ids, r.weights, spec.seed)
    r.game.play_chunk(*args, 0, 200, tables=tables)  # compile / load cache
    start = time.perf_counter()
    r.game.play_chunk(*args, 1_000, n_games, tables=tables)
    return n_games / (time.perf_counter() - start)


def bench_game(
    game: str, *, games_per_pairing: int, end_to_end: int, workers: int, echo: Callable[[str], Any] = print
) -> None:
    """Print games/s per core for every bot pairing, then run -> report wall seconds."""
    import sims

    spec = sims.load(game)
    echo(f"# {game} (rules_version {spec.rules_version}): games/s on one core, {games_per_pairing:,} games each")
    seats = "".join(f"{f'seat {p}':>10}" for p in range(spec.seats))
    echo(f"{seats} {'all tables':>12} {'games+seats':>12}")
    lineups = itertools.product(spec.bots, repeat=spec.seats) if games_per_pairing else ()
    for lineup in lineups:  # every pairing; a one-seat game: every bot
        run_spec = RunSpec(game=game, bots=lineup, seed=12345)
        full = games_per_second(run_spec, games_per_pairing, ("games", "seats", "cards", "turns"))
        lean = games_per_second(run_spec, games_per_pairing, ("games", "seats"))
        echo("".join(f"{b:>10}" for b in lineup) + f" {full:>12,.0f} {lean:>12,.0f}")
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
