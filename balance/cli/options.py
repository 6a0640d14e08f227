"""What the ``balance`` commands share: click settings, whole numbers, one-line errors, run options and specs."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import click

from balance.spec import DEFAULT_CHUNK, RunSpec, SpecError, read_spec

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class Whole(click.ParamType):
    """A whole number written with ASCII digits (click's ``int`` also takes "١" or "1_000")."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        """Return ``value`` as an int, or fail with click's one-line usage error."""
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        digits = text[1:] if text[:1] in "+-" else text
        if not (digits.isascii() and digits.isdigit()):
            self.fail(f"{value!r} is not a whole number", param, ctx)
        return int(text)


WHOLE = Whole()


def friendly(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn our input errors into one-line ``click`` errors (no traceback)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except input_errors() as exc:
            raise click.ClickException(str(exc)) from None
        except KeyboardInterrupt:
            raise click.ClickException("interrupted; finish the run with: balance run --resume RUN_DIR") from None

    return wrapper


def input_errors() -> tuple[type[Exception], ...]:
    """The errors that mean bad input (a file, a flag, a run directory): shown as one line."""
    from balance.io import RunError
    from balance.run import InvariantError
    from sims.core import CardDataError, ParamError, ScenarioError

    return SpecError, RunError, InvariantError, CardDataError, ParamError, ScenarioError


def split_names(value: str | None) -> tuple[str, ...] | None:
    return tuple(v.strip() for v in value.split(",") if v.strip()) if value else None


def parse_pairs(values: tuple[str, ...], what: str) -> dict[str, str]:
    out = {}
    for item in values:
        key, sep, val = item.partition("=")
        if not sep or not key.strip():
            raise SpecError(f"{what} {item!r} must look like KEY=VALUE")
        out[key.strip()] = val.strip()
    return out


def parse_weights(values: tuple[str, ...]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for key, val in parse_pairs(values, "--weight").items():
        bot, dot, name = key.partition(".")
        if not dot:
            raise SpecError(f"--weight {key}={val} must look like BOT.WEIGHT=NUMBER, e.g. greedy.w_score=2")
        try:
            out.setdefault(bot, {})[name] = float(val)
        except ValueError:
            raise SpecError(f"--weight {key}: {val!r} is not a number") from None
    return out


def run_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The options shared by ``run`` and ``compare`` (one per ``RunSpec`` field)."""
    options = [
        click.option("--game", "-g", help="Game to simulate (see `balance games`).", default=None),
        click.option("-n", "--n-games", type=WHOLE, default=None, help="Number of games [default 10000]."),
        click.option("--seed", type=WHOLE, default=None, help="Root seed; game g uses hash(seed, g) [default 1]."),
        click.option("--bots", default=None, help="Bot per seat, comma-separated [default: greedy in every seat]."),
        click.option("--param", "-p", "params", multiple=True, help="Rule override KEY=VALUE (repeatable)."),
        click.option("--weight", "weights", multiple=True, help="Bot weight BOT.KEY=VALUE (repeatable)."),
        click.option("--cards", "cards_file", default=None, help="Card pool CSV instead of the game's own."),
        click.option(
            "--decks", "decks_file", default=None, help="Fixed decks CSV (deck,card); sets deck_builder=fixed."
        ),
        click.option(
            "--deck-names", default=None, help="Deck per seat from --decks, or the game's own (e.g. finn,jake)."
        ),
        click.option(
            "--tables",
            default=None,
            help="Raw tables kept for every game [default games,seats]; add cards,turns for every card and turn row.",
        ),
        click.option(
            "--raw-sample",
            type=WHOLE,
            default=None,
            help="Also keep the raw cards and turns rows of the first N games [default 0].",
        ),
        click.option(
            "--aggregates/--no-aggregates",
            default=None,
            help="Keep per-chunk sums of the card and turn rows, what the report reads [default: on].",
        ),
        click.option(
            "--checked",
            is_flag=True,
            default=None,
            help="Replay every game with the rules' invariant checks; stop at the first game breaking one.",
        ),
        click.option(
            "--workers", "-w", type=WHOLE, default=None, help="Processes [default: the CPUs this process may use]."
        ),
        click.option("--chunk-size", type=WHOLE, default=None, help=f"Games per chunk [default {DEFAULT_CHUNK}]."),
        click.option("--out", "-o", default=None, help="Directory for runs [default runs]."),
        click.option("--name", default=None, help="Run id (directory name) instead of a generated one."),
        click.option(
            "--cluster",
            default=None,
            help="Dask scheduler address (tcp://host:8786), or local[:N] for a LocalCluster of N workers.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def build_spec(spec_file: str | None, **flags: Any) -> RunSpec:
    """Merge a TOML spec (if any) with explicitly given flags into a ``RunSpec``."""
    spec = read_spec(spec_file) if spec_file else None
    values: dict[str, Any] = {
        "game": flags["game"],
        "n_games": flags["n_games"],
        "seed": flags["seed"],
        "bots": split_names(flags["bots"]),
        "cards_file": flags["cards_file"],
        "decks_file": flags["decks_file"],
        "deck_names": split_names(flags["deck_names"]),
        "tables": split_names(flags["tables"]),
        "raw_sample": flags["raw_sample"],
        "aggregates": flags["aggregates"],
        "checked": flags["checked"] or None,
        "workers": flags["workers"],
        "chunk_size": flags["chunk_size"],
        "out": flags["out"],
        "name": flags["name"],
        "cluster": flags["cluster"],
        "variant": flags.get("variant"),
    }
    given = {k: v for k, v in values.items() if v is not None}
    if spec is None:
        if "game" not in given:
            raise SpecError("give --game (see `balance games`) or a spec file")
        spec = RunSpec(game=given.pop("game"))
    params = {**spec.params, **parse_pairs(flags["params"], "--param")}
    weights = {**spec.bot_weights, **parse_weights(flags["weights"])}
    return replace(spec, **given, params=params, bot_weights=weights)
