"""Play rule scenarios (TOML: position -> moves -> expected outcome) and say PASS or FAIL.

The format is described in ``sims.core.scenario``; each game documents its own
``[position]`` and ``[[moves]]`` keys in its RULES.md. A file the rules cannot play (bad
TOML, unknown game, a card in two places, a key the game does not report) raises
``ScenarioError`` with one line naming the file and key; a playable scenario whose
outcome differs from ``[expect]`` is a FAIL listing every differing key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sims
from sims.core import CardDataError, Outcome, ParamError, ScenarioError
from sims.core.scenario import flatten

GENERIC_KEYS = {"game", "name", "description", "variant", "params", "position", "moves", "expect"}


@dataclass(frozen=True)
class Mismatch:
    """One expected key whose observed value differs."""

    key: str
    expected: Any
    observed: Any


@dataclass(frozen=True)
class ScenarioResult:
    """The outcome of one scenario file."""

    path: Path
    name: str
    game: str
    outcome: Outcome
    mismatches: tuple[Mismatch, ...] = field(default_factory=tuple)

    @property
    def passed(self) -> bool:
        """Return whether every expected key matched."""
        return not self.mismatches


def read_scenario(path: Path | str) -> dict[str, Any]:
    """Return the parsed TOML of a scenario file; raise ``ScenarioError`` naming the file."""
    path = Path(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{path}: cannot read scenario ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: invalid TOML: {exc}") from None


def run_scenario(path: Path | str) -> ScenarioResult:
    """Play the scenario at ``path`` through its game's kernel and compare with ``[expect]``."""
    path = Path(path)
    data = read_scenario(path)
    source = str(path)
    game_name = data.get("game")
    if not isinstance(game_name, str) or game_name not in sims.GAMES:
        raise ScenarioError(f"{source}: key 'game': expected one of {', '.join(sims.available())}, got {game_name!r}")
    game = sims.load(game_name)
    if game.play_scenario is None:
        raise ScenarioError(f"{source}: key 'game': {game_name} has no scenario support yet")
    unknown = sorted(set(data) - GENERIC_KEYS - set(game.extra.get("scenario_keys", ())))
    if unknown:
        raise ScenarioError(f"{source}: unknown key {unknown[0]!r}; known keys: {', '.join(sorted(GENERIC_KEYS))}")
    overrides = data.get("params", {})
    if not isinstance(overrides, Mapping):
        raise ScenarioError(f"{source}: key 'params': must be a table")
    variant = data.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise ScenarioError(f"{source}: key 'variant': must be a name, got {variant!r}")
    expect = data.get("expect")
    if not isinstance(expect, Mapping) or not expect:
        raise ScenarioError(f"{source}: key 'expect': a scenario needs an [expect] table with at least one key")
    try:
        params = game.make_params(variant, dict(overrides))
        pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    except (ParamError, CardDataError) as exc:
        raise ScenarioError(f"{source}: {exc}") from None
    outcome = game.play_scenario(params, pool, data, source)
    wanted = flatten(expect)
    missing = [k for k in wanted if k not in outcome.observed]
    if missing:
        known = ", ".join(sorted(outcome.observed))
        raise ScenarioError(f"{source}: key 'expect.{missing[0]}': {game_name} reports no such key; known: {known}")
    mismatches = tuple(
        Mismatch(k, v, outcome.observed[k]) for k, v in wanted.items() if not _equal(v, outcome.observed[k])
    ) + tuple(Mismatch(key, "no error", message) for key, message in outcome.errors)
    name = data.get("name") if isinstance(data.get("name"), str) else path.stem
    return ScenarioResult(path, str(name), game_name, outcome, mismatches)


def _equal(expected: Any, observed: Any) -> bool:
    """Compare TOML values with observed ones (tuples and lists alike; ints never equal bools)."""
    if isinstance(expected, list | tuple) and isinstance(observed, list | tuple):
        return len(expected) == len(observed) and all(_equal(e, o) for e, o in zip(expected, observed, strict=True))
    if isinstance(expected, bool) != isinstance(observed, bool):
        return False
    return bool(expected == observed)


def format_result(result: ScenarioResult, *, verbose: bool = True) -> list[str]:
    """Return the printable lines of one result: header, the resulting table, PASS/FAIL details."""
    status = "PASS" if result.passed else "FAIL"
    lines = [f"{status}  {result.path}  ({result.game}: {result.name})"]
    if verbose or not result.passed:
        lines += [f"    {line}" for line in result.outcome.table]
    lines += [f"    expected {m.key} = {m.expected!r}, observed {m.observed!r}" for m in result.mismatches]
    return lines
