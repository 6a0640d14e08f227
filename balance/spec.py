"""``RunSpec``: what to simulate, from CLI flags or a TOML file, validated up front.

Every error is one ``SpecError`` line naming the file (and key or line) and what is
wrong, raised before anything is written.

A spec file looks like::

    game = "cardinger"
    variant = "modern"
    n_games = 200000
    seed = 1
    bots = ["greedy", "greedy"]   # one per seat
    workers = 2                   # default: every CPU this process may use
    tables = ["games", "seats"]   # raw tables kept in full; add "cards", "turns" for every row
    raw_sample = 10000            # also keep the cards and turns rows of the first 10 000 games
    aggregates = true             # per-chunk sufficient statistics (what the report reads)
    checked = false               # replay every game with invariant checks (balance run --checked)

    [params]                      # rule overrides on top of the variant
    max_turns = 300

    [bot_weights.greedy]          # bot weight overrides
    w_score = 2.0

    [decks]                       # fixed decks (sets deck_builder = fixed)
    file = "decks.csv"            # CSV: deck,card[,copies]
    seats = ["bees", "pirates"]   # without 'file': the game's own decks by name (Card Wars: finn, jake ...)
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

import sims
from sims.core import TABLES, CardDataError, CardPool, DeckRules, GameSpec, ParamError, load_decks

DEFAULT_CHUNK = 50_000
DEFAULT_TABLES = ("games", "seats")  # raw tables kept in full by default; cards and turns become aggregates
DEFAULT_BOT = "greedy"
MAX_SEED = 2**64 - 1  # the root seed is an unsigned 64-bit key of the counter-based RNG
MAX_GAMES = 2**31 - 1  # game ids are int64 in the tables, but kernels index games with int32 headroom


def default_workers() -> int:
    """Return how many CPUs this process may use (its affinity mask, else the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class SpecError(ValueError):
    """A run spec, flag or referenced file is invalid; the message is one line."""


@dataclass(frozen=True)
class RunSpec:
    """A fully described run: game, rules, cards, bots, size and seed."""

    game: str
    variant: str | None = None
    n_games: int = 10_000
    seed: int = 1
    bots: tuple[str, ...] = ()  # one per seat; empty: the game's greedy bot in every seat
    params: Mapping[str, Any] = field(default_factory=dict)
    bot_weights: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    cards_file: str | None = None
    decks_file: str | None = None
    deck_names: tuple[str, ...] = ()
    tables: tuple[str, ...] = DEFAULT_TABLES  # raw tables kept for every game
    raw_sample: int = 0  # also keep the raw cards and turns rows of games 0 .. raw_sample - 1
    aggregates: bool = True  # write the per-chunk sufficient statistics (balance.aggregates)
    checked: bool = False  # replay every game with the kernel's invariant checks; stop at a violation
    workers: int = field(default_factory=default_workers)
    chunk_size: int = DEFAULT_CHUNK
    out: str = "runs"
    name: str | None = None
    cluster: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the spec as plain data (for the manifest; ``from_dict`` inverts it)."""
        data = asdict(self)
        data["params"] = dict(self.params)
        data["bot_weights"] = {k: dict(v) for k, v in self.bot_weights.items()}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "spec") -> RunSpec:
        """Build a spec from plain data, rejecting unknown keys and wrong types."""
        known = {f for f in cls.__dataclass_fields__}
        unknown = sorted(set(data) - known)
        if unknown:
            raise SpecError(f"{source}: unknown key {unknown[0]!r}; known keys: {', '.join(sorted(known))}")
        values = dict(data)
        for key in ("bots", "tables", "deck_names"):
            if key in values:
                values[key] = _names(values[key], f"{source}: key {key!r}")
        for key in ("n_games", "seed", "workers", "chunk_size", "raw_sample"):
            if key in values and (isinstance(values[key], bool) or not isinstance(values[key], int)):
                raise SpecError(f"{source}: key {key!r} must be a whole number, got {values[key]!r}")
        for key in ("aggregates", "checked"):
            if key in values and not isinstance(values[key], bool):
                raise SpecError(f"{source}: key {key!r} must be true or false, got {values[key]!r}")
        for key in ("params", "bot_weights"):
            if key in values and not isinstance(values[key], Mapping):
                raise SpecError(f"{source}: key {key!r} must be a table")
        for key in ("game", "variant", "cards_file", "decks_file", "out", "name", "cluster"):
            if values.get(key) is not None and not isinstance(values[key], str):
                raise SpecError(f"{source}: key {key!r} must be a string, got {values[key]!r}")
        for key, value in values.get("params", {}).items():
            if not isinstance(value, str | int | list) or (
                isinstance(value, list) and not all(isinstance(v, str) for v in value)
            ):
                raise SpecError(f"{source}: key 'params.{key}' must be a whole number, true/false or a name")
        for bot, table in values.get("bot_weights", {}).items():
            if not isinstance(table, Mapping):
                raise SpecError(f"{source}: key 'bot_weights.{bot}' must be a table of WEIGHT = NUMBER")
            for key, value in table.items():
                if isinstance(value, bool) or not isinstance(value, int | float):
                    raise SpecError(f"{source}: key 'bot_weights.{bot}.{key}' must be a number, got {value!r}")
        name = values.get("name")
        if name is not None and (not name.strip() or name in (".", "..") or set(name) & set("/\\\0")):
            raise SpecError(f"{source}: key 'name' must be a plain directory name, got {name!r}")
        return cls(**values)


def _names(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise SpecError(f"{where} must be a list of names, got {value!r}")


def read_spec(path: Path | str) -> RunSpec:
    """Read a TOML run spec; relative file paths in it are resolved next to it."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SpecError(f"{path}: cannot read spec ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: invalid TOML: {exc}") from None
    decks = data.pop("decks", None)
    if decks is not None:
        if not isinstance(decks, Mapping) or set(decks) - {"file", "seats"} or not decks:
            raise SpecError(
                f"{path}: [decks] needs 'file' (CSV deck,card) and/or 'seats' (deck names per seat; "
                "without 'file', the game's own decks)"
            )
        data["decks_file"] = decks.get("file")
        data["deck_names"] = decks.get("seats", [])
    if "n" in data:
        data["n_games"] = data.pop("n")
    spec = RunSpec.from_dict(data, source=str(path))
    for key in ("cards_file", "decks_file"):
        value = getattr(spec, key)
        if value and not Path(value).is_absolute():
            spec = replace(spec, **{key: str(path.parent / value)})
    check_names(spec, data, str(path))
    return spec


def check_names(spec: RunSpec, given: Mapping[str, Any], source: str) -> None:
    """Raise ``SpecError`` naming ``source`` and the key if a name ``given`` does not exist in the spec's game.

    Checks the game, variant, bots, rule parameters and bot weights the file itself states,
    so an error points at the file (a flag given later is checked again by ``resolve``).
    """
    try:
        check_sizes(spec)
    except SpecError as exc:
        raise SpecError(f"{source}: {exc}") from None
    if "game" not in given:
        return
    if spec.game not in sims.GAMES:
        raise SpecError(f"{source}: key 'game': unknown game {spec.game!r}; known games: {', '.join(sims.available())}")
    game = sims.load(spec.game)
    try:
        if "variant" in given or "params" in given:
            params = game.make_params(spec.variant, dict(spec.params))
            game.prepare_pool(game.load_pool(game.cards_path), params)  # parameter ranges
        for bot in spec.bots if "bots" in given else ():
            game.make_weights(bot)
        for bot, weights in spec.bot_weights.items():
            game.make_weights(bot, weights)
    except (ParamError, CardDataError) as exc:
        raise SpecError(f"{source}: {exc}") from None


@dataclass(frozen=True)
class Resolved:
    """A spec checked against its game: kernel inputs ready to play."""

    spec: RunSpec
    game: GameSpec
    variant: str
    params: Any
    pool: Any
    decks: Any
    bot_ids: Any
    weights: Any


def resolve(spec: RunSpec) -> Resolved:
    """Validate ``spec`` against its game and build the kernel inputs; raise ``SpecError``."""
    if spec.game not in sims.GAMES:
        raise SpecError(f"unknown game {spec.game!r}; known games: {', '.join(sims.available())}")
    game = sims.load(spec.game)
    variant = spec.variant or game.default_variant
    check_sizes(spec)
    if not spec.bots:
        spec = replace(spec, bots=(DEFAULT_BOT if DEFAULT_BOT in game.bots else game.bots[0],) * game.seats)
    if len(spec.bots) != game.seats:
        raise SpecError(
            f"{spec.game} has {game.seats} seat(s); --bots needs {game.seats} name(s), got {len(spec.bots)}"
        )
    overrides = dict(spec.params)
    if spec.decks_file:
        overrides.setdefault("deck_builder", "fixed")
    elif spec.deck_names:
        overrides.update(_named_decks(game, spec))
    try:
        params = game.make_params(variant, overrides)
        for bot, overrides in spec.bot_weights.items():  # weights of bots not seated are still checked
            game.make_weights(bot, overrides)
        weights = np.stack([game.make_weights(b, spec.bot_weights.get(b)) for b in spec.bots])
        pool = game.prepare_pool(game.load_pool(Path(spec.cards_file) if spec.cards_file else game.cards_path), params)
        deck_size = getattr(params, "deck_size", 0)  # 0: the game forms decks itself (no fixed decks)
        rules = game.deck_rules
        decks = (
            np.full((game.seats, rules.max_size), -1, np.int16)
            if rules
            else np.zeros((game.seats, deck_size), np.int16)
        )
        if spec.decks_file:
            if not deck_size and rules is None:
                raise SpecError(f"{spec.game} forms its decks from its rules; it takes no --decks file")
            decks = _fixed_decks(spec, pool, deck_size, rules)
    except (ParamError, CardDataError) as exc:
        raise SpecError(str(exc)) from None
    bot_ids = np.array([game.bots.index(b) for b in spec.bots], dtype=np.int64)
    return Resolved(spec, game, variant, params, pool, decks, bot_ids, weights)


def check_sizes(spec: RunSpec) -> None:
    """Raise ``SpecError`` unless seed, game count, workers, chunk size, raw sample, tables and cluster are valid."""
    bad_tables = [t for t in spec.tables if t not in TABLES]
    if bad_tables or not {"games", "seats"} <= set(spec.tables):
        raise SpecError(
            f"tables must include games and seats and be among {', '.join(TABLES)}; got {', '.join(spec.tables)}"
        )
    if not 0 <= spec.seed <= MAX_SEED:
        raise SpecError(f"seed must be a whole number from 0 to {MAX_SEED}, got {spec.seed}")
    if not 1 <= spec.n_games <= MAX_GAMES:
        raise SpecError(f"n_games must be from 1 to {MAX_GAMES:,}, got {spec.n_games}")
    if spec.workers < 1 or spec.chunk_size < 1:
        raise SpecError(f"workers and chunk_size must be at least 1, got {spec.workers} and {spec.chunk_size}")
    if spec.chunk_size > MAX_GAMES:
        raise SpecError(f"chunk_size must be at most {MAX_GAMES:,}, got {spec.chunk_size}")
    if not 0 <= spec.raw_sample <= MAX_GAMES:
        raise SpecError(f"raw_sample must be from 0 to {MAX_GAMES:,} games, got {spec.raw_sample}")
    if spec.cluster is not None and not spec.cluster.strip():
        raise SpecError("cluster must be a Dask scheduler address, 'local' or 'local:N'")
    if spec.cluster and spec.cluster.startswith("local:"):
        count = spec.cluster.removeprefix("local:")
        if not count.isdigit() or not 1 <= int(count) <= 256:
            raise SpecError(f"cluster {spec.cluster!r}: expected local:N with N workers from 1 to 256")


def _named_decks(game: GameSpec, spec: RunSpec) -> dict[str, str]:
    """Return the parameter overrides choosing the game's own decks by name (``--deck-names`` alone)."""
    if not game.deck_params:
        raise SpecError("--deck-names names decks of a --decks FILE (CSV deck,card); give the file too")
    names = spec.deck_names * game.seats if len(spec.deck_names) == 1 else spec.deck_names
    if len(names) != game.seats:
        raise SpecError(f"--deck-names needs one deck per seat ({game.seats}), got {len(names)}")
    out = {}
    for key, name in zip(game.deck_params, names, strict=True):
        known = [m.name.lower() for m in game.choices[key] if m.value]  # the first member is 'random'
        if name.lower() not in known:
            raise SpecError(f"--deck-names: {game.name} has no deck {name!r}; its decks: {', '.join(known)}")
        out[key] = name.lower()
    return out


def _fixed_decks(spec: RunSpec, pool: CardPool, deck_size: int, rules: DeckRules | None = None) -> np.ndarray:
    decks = load_decks(spec.decks_file, pool, deck_size, rules=rules)
    names = spec.deck_names or tuple(decks)[: len(spec.bots)]
    if len(names) == 1:
        names = names * len(spec.bots)
    if len(names) != len(spec.bots):
        raise SpecError(f"{spec.decks_file}: need one deck per seat ({len(spec.bots)}), found {len(names)}")
    for name in names:
        if name not in decks:
            raise SpecError(f"{spec.decks_file}: no deck named {name!r}; decks in file: {', '.join(decks)}")
    if rules is None:
        return np.stack([decks[n] for n in names])
    out = np.full((len(names), rules.max_size), -1, np.int16)
    for p, name in enumerate(names):
        out[p, : len(decks[name])] = decks[name]
    return out
