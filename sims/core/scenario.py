"""Rule scenarios: a position a designer writes down, the moves made in it, the outcome seen.

A scenario file (TOML, read by ``balance.scenario``) states a position, the cards played
and choices made, and what should follow. The generic part is shared by every game:

    game = "cardia"                 # registry key
    name = "E3: the Sage loses on purpose"
    variant = "deck_1"              # optional; the game's default otherwise
    [params]                        # optional rule overrides, as with --param
    [position]                      # game-specific: hands, decks top-first, table, ...
    [[moves]]                       # game-specific: what each seat plays / chooses, in order
    [expect]                        # keys the game reports after the moves, compared for equality

A game adopts the format by giving its ``GameSpec`` a ``play_scenario(params, pool,
scenario, source) -> Outcome`` function. It builds the stated position in the kernel's
own state, plays the moves through the kernel's own rule functions, and reports what it
observes as a flat mapping of dotted keys (``"encounter.winner"``, ``"signets.0"``) to
plain values (int, str, bool, or lists of them), plus readable lines of the resulting
table. ``[expect]`` may nest tables; they are flattened to the same dotted keys.

A position the rules could not produce (a card in two places, a derived value stated
wrongly, an unknown card name) raises ``ScenarioError`` with one line naming the file
and the key: it is a bad input, not a failed expectation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


class ScenarioError(ValueError):
    """A scenario file states something the rules cannot produce; the message is one line naming file and key."""


@dataclass(frozen=True)
class Outcome:
    """What a game observed after playing a scenario's moves.

    ``observed``: dotted key -> plain value, every key ``[expect]`` may name.
    ``table``: readable lines describing the resulting position (printed by ``balance scenario``).
    ``errors``: what went wrong while playing the moves (e.g. a move the rules did not allow
    there), as ``(key, message)`` pairs; each one fails the scenario whatever ``[expect]`` says.
    """

    observed: Mapping[str, Any]
    table: Sequence[str] = field(default_factory=tuple)
    errors: Sequence[tuple[str, str]] = field(default_factory=tuple)


def flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Return nested tables as one mapping of dotted keys (lists stay values).

    >>> flatten({"a": 1, "b": {"c": [1, 2], "d": {"e": "x"}}})
    {'a': 1, 'b.c': [1, 2], 'b.d.e': 'x'}
    """
    out: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(flatten(value, dotted + "."))
        else:
            out[dotted] = value
    return out


def card_ids(names: Any, index: Mapping[str, int], source: str, key: str) -> list[int]:
    """Return the card ids of a list of card names; raise ``ScenarioError`` naming ``source`` and ``key``."""
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, list | tuple):
        raise ScenarioError(f"{source}: key {key!r}: expected a list of card names, got {names!r}")
    out = []
    for name in names:
        if not isinstance(name, str) or name not in index:
            raise ScenarioError(f"{source}: key {key!r}: unknown card {name!r}")
        out.append(index[name])
    return out


def require(table: Mapping[str, Any], key: str, kind: type | tuple[type, ...], source: str, where: str) -> Any:
    """Return ``table[key]`` checked to be of ``kind``; raise ``ScenarioError`` naming ``where.key``."""
    if key not in table:
        raise ScenarioError(f"{source}: key {where + '.' if where else ''}{key!r} is missing")
    value = table[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise ScenarioError(f"{source}: key {where + '.' if where else ''}{key!r}: unexpected value {value!r}")
    return value


def check_unique_places(places: Mapping[str, Sequence[int]], names: Sequence[str], source: str) -> None:
    """Raise ``ScenarioError`` if a card id sits in two places (``places``: key -> card ids).

    Games whose cards are unique objects (one copy each) call this on every zone they read.
    """
    seen: dict[int, str] = {}
    for key, ids in places.items():
        for c in ids:
            if c in seen:
                raise ScenarioError(f"{source}: key {key!r}: {names[c]!r} is already in {seen[c]!r}")
            seen[c] = key
