"""Batches of games played in worker processes and summarised there: the engine under value, sweep and tune.

A :class:`Setup` names one way to play a game (variant, rule overrides, bots and weights,
card file); a batch is games ``[first, first + n)`` of a root seed, so game ``g`` is the
same simulated game in every setup that deals the same decks (paired seeds). Nothing is
written to disk: a worker plays a batch straight into record arrays (``games`` table only
unless told otherwise) and sends back a few sums, so batches cost what the kernel costs.
Batches are deterministic units: a result never depends on which worker played it.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import sims
from balance.executors import pool_worker
from balance.spec import RunSpec, SpecError, default_workers, resolve
from sims.core import CardDataError, ParamError


@dataclass(frozen=True)
class Setup:
    """One way to play a game: everything of a ``RunSpec`` that decides the games, hashable."""

    game: str
    variant: str | None = None
    bots: tuple[str, ...] = ("greedy", "greedy")
    params: tuple[tuple[str, Any], ...] = ()  # rule overrides, sorted (KEY, VALUE) pairs
    bot_weights: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] = ()
    cards_file: str | None = None

    def with_params(self, **overrides: Any) -> Setup:
        """Return this setup with rule ``overrides`` added (replacing the same keys)."""
        return Setup(**{**self.__dict__, "params": tuple(sorted({**dict(self.params), **overrides}.items()))})

    def with_weights(self, bot: str, **weights: float) -> Setup:
        """Return this setup with bot ``bot``'s ``weights`` overridden."""
        table = {b: dict(w) for b, w in self.bot_weights}
        table[bot] = {**table.get(bot, {}), **weights}
        packed = tuple(sorted((b, tuple(sorted(w.items()))) for b, w in table.items()))
        return Setup(**{**self.__dict__, "bot_weights": packed})

    def run_spec(self) -> RunSpec:
        """Return the equivalent ``RunSpec`` (its size and seed do not matter here)."""
        return RunSpec(
            game=self.game,
            variant=self.variant,
            bots=self.bots,
            params=dict(self.params),
            bot_weights={b: dict(w) for b, w in self.bot_weights},
            cards_file=self.cards_file,
        )


def make_setup(
    game: str,
    *,
    variant: str | None = None,
    bots: Iterable[str] | None = None,
    params: Mapping[str, Any] | None = None,
    bot_weights: Mapping[str, Mapping[str, float]] | None = None,
    cards_file: str | Path | None = None,
) -> Setup:
    """Return a :class:`Setup` checked against its game (a one-line ``SpecError`` if anything is wrong)."""
    if game not in sims.GAMES:
        raise SpecError(f"unknown game {game!r}; known games: {', '.join(sims.available())}")
    seats = sims.load(game).seats
    setup = Setup(
        game=game,
        variant=variant,
        bots=tuple(bots) if bots else ("greedy",) * seats,
        params=tuple(sorted((params or {}).items())),
        bot_weights=tuple(sorted((b, tuple(sorted(w.items()))) for b, w in (bot_weights or {}).items())),
        cards_file=None if cards_file is None else str(cards_file),
    )
    resolve(setup.run_spec())  # fail fast, in the caller's process
    return setup


_CACHE: dict[tuple[Setup, bytes], Any] = {}


def _file_key(setup: Setup) -> bytes:
    """Return the bytes of ``setup``'s card file (empty for the game's own): a rewritten file is a new setup."""
    if setup.cards_file is None:
        return b""
    try:
        return Path(setup.cards_file).read_bytes()
    except OSError:
        return b""  # resolve() reports the unreadable file


def resolved(setup: Setup) -> Any:
    """Return ``balance.spec.resolve`` of ``setup``, once per process and card-file content."""
    key = (setup, _file_key(setup))
    if key not in _CACHE:
        if len(_CACHE) > 256:  # a long sweep or tune: keep memory bounded
            _CACHE.clear()
        _CACHE[key] = resolve(setup.run_spec())
    return _CACHE[key]


def play(setup: Setup, seed: int, first: int, n: int, tables: tuple[str, ...] = ("games",)) -> dict[str, np.ndarray]:
    """Play games ``[first, first + n)`` of ``setup`` on root seed ``seed``; return their record arrays."""
    r = resolved(setup)
    return r.game.play_chunk(r.params, r.pool, r.decks, r.bot_ids, r.weights, seed, first, n, tables=tables)


@dataclass
class Batch:
    """One unit of work: call ``func(*args)`` in a worker; ``key`` tells the caller what it was."""

    key: Any
    func: Callable[..., Any]
    args: tuple[Any, ...]
    result: Any = None
    seconds: float = 0.0  # wall-clock seconds the call took in its worker
    cpu: float = 0.0  # CPU seconds the call took in its worker


def _timed(func: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    result = func(*args)
    return result, time.perf_counter() - start, time.process_time() - cpu


@dataclass
class Pool:
    """Worker processes (spawned; one per CPU this process may use by default) that run :class:`Batch` es.

    ``workers = 1`` runs batches in this process (no start-up cost: tests, notebooks).
    """

    workers: int = 0
    _executor: ProcessPoolExecutor | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        """Start the worker processes (``workers = 0``: one per CPU)."""
        self.workers = self.workers or default_workers()
        if self.workers > 1:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=mp.get_context("spawn"),
                initializer=pool_worker,
                initargs=(os.getpid(),),
            )

    def __enter__(self) -> Pool:
        """Return the pool."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop the workers (pending batches are cancelled)."""
        self.close()

    def close(self) -> None:
        """Stop the worker processes, cancelling batches not started."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def run(self, batches: Iterable[Batch]) -> Iterator[Batch]:
        """Run ``batches`` (pulled lazily, at most two per worker in flight); yield each when done."""
        source = iter(batches)
        if self._executor is None:
            for batch in source:
                batch.result, batch.seconds, batch.cpu = _timed(batch.func, batch.args)
                yield batch
            return
        running: dict[Future[Any], Batch] = {}
        while True:
            while len(running) < 2 * self.workers:
                batch = next(source, None)
                if batch is None:
                    break
                running[self._executor.submit(_timed, batch.func, batch.args)] = batch
            if not running:
                return
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                batch = running.pop(future)
                batch.result, batch.seconds, batch.cpu = future.result()
                yield batch


def check_value_support(setup: Setup, baseline: str | None) -> tuple[Any, str]:
    """Return ``(GameSpec, baseline name)`` if ``setup``'s game supports counterfactual card value, else raise.

    The error says plainly what a game lacks: an empty ``GameSpec.value_baselines`` means
    the game has not implemented the ``value_card``/``value_swap``/``value_baseline``
    parameters yet.
    """
    game = sims.load(setup.game)
    if not game.value_baselines:
        raise SpecError(
            f"{setup.game} does not support counterfactual card value yet (its GameSpec.value_baselines is empty); "
            "see the value interface in sims/core/spec.py"
        )
    name = baseline or next(iter(game.value_baselines))
    if name not in game.value_baselines:
        raise SpecError(f"--baseline {name!r}: {setup.game} offers {', '.join(game.value_baselines)}")
    return game, name


def pool_names(setup: Setup) -> tuple[str, ...]:
    """Return the card names of ``setup``'s prepared pool (card id = position)."""
    try:
        return tuple(resolved(setup).pool.names)
    except (ParamError, CardDataError) as exc:
        raise SpecError(str(exc)) from None
