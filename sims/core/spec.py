"""``GameSpec``: everything ``balance`` needs to know about a game, and nothing more.

``balance`` never imports a game's kernel; it calls the fields of its ``GameSpec``:
parameters and variants, card pool loading, bots, the batch kernel (through
``play_chunk``, which owns buffer sizing) and the replay log.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from sims.core.cards import CardPool, DeckRules
from sims.core.records import TABLES, check_core_columns, core_columns, empty_records


class ParamError(ValueError):
    """A parameter override or variant is invalid; the message says which and why."""


@dataclass(frozen=True)
class Variant:
    """A named rule set: parameter overrides (symbolic values allowed) from the rulings."""

    overrides: Mapping[str, Any]
    note: str = ""
    runnable: bool = True


@dataclass(frozen=True)
class GameInfo:
    """What a report needs to know about a game, importable without its kernels (so without Numba).

    A game's package defines it as ``INFO`` beside its ``GameSpec`` (``GAME``, built from
    the kernels on first use) and passes the same values to the ``GameSpec``; ``sims.info``
    returns it. ``card_events`` names the ``cards`` counters a report shows as events (the
    ``GameSpec``'s ``extra["card_events"]``; empty: none).
    """

    name: str
    rules_version: str
    variants: Mapping[str, Variant]
    card_events: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameSpec:
    """A registered game.

    ``play_games(params, cards, decks, bots, weights, root_seed, first_game, n_games,
    record_cards, record_turns, games, seats, cards_out, turns, counts) -> n_done`` is the
    jitted batch kernel: it plays games ``first_game ..`` into the record buffers, stops
    before a game whose records would not fit, writes the row counts per table into
    ``counts`` and returns how many games it completed.

    ``check_games(params, cards, decks, bots, weights, root_seed, first_game, n_games,
    report)`` replays the same games with invariant checks after every decision and fills
    ``report`` (int64[4]) with: decisions taken, card-conservation violations, illegal
    actions chosen, games that did not end within the turn cap. The conformance test
    runs it for every registered game.

    ``replay(params, pool, decks, bots, weights, root_seed, game) -> list[str]`` re-plays
    one game from its seed and returns a readable turn-by-turn log.

    ``play_scenario(params, pool, scenario, source) -> Outcome`` (optional) plays a rule
    scenario written by a designer (``sims.core.scenario``): a stated position, the moves
    made in it, and the observed outcome. ``None`` for a game that has not adopted it.

    ``deck_rules`` says what a fixed deck list (``--decks FILE``) may hold when it is not
    ``params.deck_size`` distinct cards: a size range and copies per card (Card Wars: 40+
    cards, 3 copies). The kernel then gets each seat's list padded with -1 to ``max_size``.
    ``deck_params`` names the per-seat choice parameters of a game that ships named decks
    (Card Wars' starter decks): ``--deck-names a,b`` without ``--decks`` sets them.

    ``turn_unit`` names the grain of the ``turns`` table. A game played in turns records
    one row per turn; a game played in larger steps (Blessings & Curses: battles) may
    record one row per step instead, with the core column ``turn`` numbering the steps
    (1-based) and ``seat`` the seat that opened the step. Reports label the axis with it.

    ``value_baselines`` (baseline name -> one-line description, the first the default;
    empty: the game does not support counterfactual card value): a game that supports it
    has the ``Params`` fields ``value_card`` (-1 = normal play), ``value_swap`` (0 = the
    holder, seat ``game % 2``, has the card; 1 = its copies are replaced by the baseline)
    and ``value_baseline`` (a choice enum registered in ``choices``). The two arms must be
    paired games: same seeds, same opponent deck and seats, every random lane drawing the
    same values (``balance value`` plays them).
    """

    name: str
    rules_version: str
    seats: int
    summary: str
    cards_path: Path
    load_pool: Callable[[Path], CardPool]
    params: NamedTuple
    choices: Mapping[str, type[enum.Enum]]
    variants: Mapping[str, Variant]
    bots: tuple[str, ...]
    bot_params: Mapping[str, NamedTuple]
    tables: Mapping[str, np.dtype]
    enums: Mapping[str, Mapping[str, type[enum.Enum]]]
    rows_per_game: Mapping[str, Callable[[Any], float]]
    play_games: Callable[..., int]
    prepare_pool: Callable[[CardPool, Any], CardPool]
    replay: Callable[..., list[str]]
    check_games: Callable[..., None]
    default_variant: str = "modern"
    turn_unit: str = "turn"  # what one row of the ``turns`` table is: "turn", or e.g. "battle"
    play_scenario: Callable[..., Any] | None = None  # sims.core.scenario; None: not adopted yet
    value_baselines: Mapping[str, str] = field(default_factory=dict)  # counterfactual card value (issue 9): see below
    deck_rules: DeckRules | None = (
        None  # fixed decks with copies and a size range; None: params.deck_size distinct cards
    )
    deck_params: tuple[str, ...] = ()  # per-seat choice parameters naming the game's own decks (--deck-names alone)
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def core_columns(self) -> dict[str, tuple[str, ...]]:
        """Return the core columns of this game's tables (fewer for a one-seat game)."""
        return core_columns(self.seats)

    def __post_init__(self) -> None:
        """Check the record dtypes carry the core columns."""
        check_core_columns(dict(self.tables), self.seats)

    # -- parameters ---------------------------------------------------------------
    def make_params(self, variant: str | None = None, overrides: Mapping[str, Any] | None = None) -> Any:
        """Return the kernel ``Params`` for ``variant`` plus ``overrides``; raise ``ParamError``."""
        name = variant or self.default_variant
        if name not in self.variants:
            raise ParamError(f"unknown variant {name!r} for {self.name}; known: {', '.join(self.variants)}")
        chosen = self.variants[name]
        if not chosen.runnable:
            raise ParamError(f"variant {name!r} of {self.name} is not runnable: {chosen.note}")
        values = {**chosen.overrides, **(overrides or {})}
        return self.params._replace(**{k: self.param_value(k, v) for k, v in values.items()})

    def param_value(self, key: str, value: Any) -> int:
        """Convert one parameter value (int, bool, choice name or comma list of flags) to int."""
        defaults = self.params._asdict()
        if key not in defaults:
            raise ParamError(f"unknown parameter {key!r} for {self.name}; known: {', '.join(defaults)}")
        choice = self.choices.get(key)
        if choice is not None and isinstance(value, str | list | tuple):
            parts = value if isinstance(value, list | tuple) else [p for p in value.split(",") if p.strip()]
            members = {m.name.lower(): int(m.value) for m in choice}
            bits = 0
            for part in parts:
                if str(part).strip().lower() not in members:
                    raise ParamError(f"parameter {key!r}: unknown value {part!r}; expected {' | '.join(members)}")
                bits |= members[str(part).strip().lower()]
            if not issubclass(choice, enum.Flag) and len(parts) != 1:
                raise ParamError(f"parameter {key!r}: expected one of {' | '.join(members)}")
            return bits
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, int):
            return value
        if isinstance(value, str) and value.strip().lstrip("-").isdigit() and value.isascii():
            return int(value)
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return int(value.strip().lower() == "true")
        raise ParamError(f"parameter {key!r}: {value!r} is not a whole number")

    def describe_params(self, params: Any) -> dict[str, Any]:
        """Return ``params`` with choice codes turned back into names (for manifests)."""
        out: dict[str, Any] = {}
        for key, value in params._asdict().items():
            choice = self.choices.get(key)
            if choice is None:
                out[key] = value
            elif issubclass(choice, enum.Flag):
                out[key] = ",".join(m.name.lower() for m in choice if m.value & value)
            else:
                out[key] = choice(value).name.lower()
        return out

    def make_weights(self, bot: str, overrides: Mapping[str, float] | None = None) -> np.ndarray:
        """Return the float64 weight vector of ``bot`` with ``overrides`` applied."""
        if bot not in self.bot_params:
            raise ParamError(f"unknown bot {bot!r} for {self.name}; known: {', '.join(self.bots)}")
        base = self.bot_params[bot]
        unknown = set(overrides or {}) - set(base._fields)
        if unknown:
            raise ParamError(f"bot {bot!r}: unknown weight(s) {sorted(unknown)}; known: {', '.join(base._fields)}")
        return np.array(tuple(base._replace(**(overrides or {}))), dtype=np.float64)

    # -- playing --------------------------------------------------------------------
    def play_chunk(
        self,
        params: Any,
        pool: CardPool,
        decks: np.ndarray,
        bots: np.ndarray,
        weights: np.ndarray,
        root_seed: int,
        first_game: int,
        n_games: int,
        tables: tuple[str, ...] = TABLES,
    ) -> dict[str, np.ndarray]:
        """Play games ``[first_game, first_game + n_games)``; return trimmed records per table.

        Buffers start at the game's expected rows per game and grow when a game does not
        fit; results do not depend on buffer sizes because every game is seeded alone.
        """
        parts: dict[str, list[np.ndarray]] = {t: [] for t in TABLES}
        g, end = first_game, first_game + n_games
        scale = 1.25
        while g < end:
            left = end - g
            caps = {t: int(left * self.rows_per_game[t](params) * scale) + 64 if t in tables else 0 for t in TABLES}
            bufs = {t: empty_records(self.tables[t], caps[t]) for t in TABLES}
            counts = np.zeros(len(TABLES), dtype=np.int64)
            done = self.play_games(
                params, pool.table, decks, bots, weights, np.uint64(root_seed), g, left,
                int("cards" in tables), int("turns" in tables),
                bufs["games"], bufs["seats"], bufs["cards"], bufs["turns"], counts,
            )  # fmt: skip
            for i, t in enumerate(TABLES):
                if t in tables:
                    parts[t].append(bufs[t][: counts[i]])
            g += done
            scale = scale * 2 if done < left else scale
        return {t: _join(parts[t], self.tables[t]) for t in tables}


def _join(parts: list[np.ndarray], dtype: np.dtype) -> np.ndarray:
    """Return the parts as one array, without a copy when there is only one."""
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else empty_records(dtype, 0)


def lazy_game(namespace: dict[str, Any], build: Callable[[], GameSpec]) -> Callable[[str], GameSpec]:
    """Return a game package's module ``__getattr__``: ``GAME`` is ``build()``, called once, on first use.

    The package then imports its kernels (and Numba) only when ``GAME`` is asked for, not
    for ``INFO``. ``namespace`` is the package's ``globals()``, where ``GAME`` is stored.
    """
    lock = threading.Lock()

    def getattr_(name: str) -> GameSpec:
        if name != "GAME":
            raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
        with lock:
            if "GAME" not in namespace:
                namespace["GAME"] = build()
        game: GameSpec = namespace["GAME"]
        return game

    return getattr_
