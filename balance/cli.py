"""The ``balance`` command line: thin wrappers over the Python API (one command each)."""

from __future__ import annotations

import atexit
import functools
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from balance.executors import exit_now
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
        except _input_errors() as exc:
            raise click.ClickException(str(exc)) from None
        except KeyboardInterrupt:
            raise click.ClickException("interrupted; finish the run with: balance run --resume RUN_DIR") from None

    return wrapper


def _input_errors() -> tuple[type[Exception], ...]:
    """The errors that mean bad input (a file, a flag, a run directory): shown as one line."""
    from balance.io import RunError
    from balance.run import InvariantError
    from sims.core import CardDataError, ParamError, ScenarioError

    return SpecError, RunError, InvariantError, CardDataError, ParamError, ScenarioError


def _split(value: str | None) -> tuple[str, ...] | None:
    return tuple(v.strip() for v in value.split(",") if v.strip()) if value else None


def _pairs(values: tuple[str, ...], what: str) -> dict[str, str]:
    out = {}
    for item in values:
        key, sep, val = item.partition("=")
        if not sep or not key.strip():
            raise SpecError(f"{what} {item!r} must look like KEY=VALUE")
        out[key.strip()] = val.strip()
    return out


def _weights(values: tuple[str, ...]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for key, val in _pairs(values, "--weight").items():
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
        "bots": _split(flags["bots"]),
        "cards_file": flags["cards_file"],
        "decks_file": flags["decks_file"],
        "deck_names": _split(flags["deck_names"]),
        "tables": _split(flags["tables"]),
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
    params = {**spec.params, **_pairs(flags["params"], "--param")}
    weights = {**spec.bot_weights, **_weights(flags["weights"])}
    return replace(spec, **given, params=params, bot_weights=weights)


class LabGroup(click.Group):
    """The command group; run as a program, a command that succeeds ends without the interpreter's teardown.

    Freeing every module (Numba's compiled code, polars, pyarrow, matplotlib) took about
    0.3 s after the command's work was done (1 s under load), on the wall clock of every
    ``balance run`` and ``balance report``. When the arguments come from the command line
    (``main()`` without ``args``: the ``balance`` script, ``python -m balance``) and the
    command exits with status 0, the exit handlers run (pools, resource trackers, logging),
    the streams are flushed and the process ends there, unless a non-daemon thread is still
    running. Called with ``args`` (tests, ``CliRunner``), it returns or raises as click does.
    """

    def main(self, args: Any = None, *rest: Any, **extra: Any) -> Any:
        """Run the command line (see the class doc)."""
        if args is not None:
            return super().main(args, *rest, **extra)
        try:
            return super().main(args, *rest, **extra)
        except SystemExit as done:
            if done.code in (0, None) and not _other_threads():
                atexit._run_exitfuncs()  # what the interpreter's exit would run first
                exit_now()
            raise


def _other_threads() -> bool:
    """Return whether a non-daemon thread other than this one is still running (the exit would wait for it)."""
    me = threading.current_thread()
    return any(t.is_alive() and not t.daemon and t is not me for t in threading.enumerate())


@click.group(cls=LabGroup, context_settings=CONTEXT)
@click.version_option(package_name="balance-lab")
def cli() -> None:
    """Balance lab: simulate card games between bots, store Parquet, report balance.

    \b
    Example:
      balance games
      balance run --game cardinger -n 100000 --seed 1 --bots greedy,greedy --workers 2
      balance report runs/<run_id>
    """


@cli.command(context_settings=CONTEXT)
def games() -> None:
    """List games with their variants, bots, parameters and card pools.

    \b
    Example:
      balance games
    """
    import sims

    for name in sims.available():
        game = sims.load(name)
        click.secho(f"{name}  (rules_version {game.rules_version}, {game.seats} seat(s))", bold=True)
        click.echo(f"  {game.summary}")
        click.echo(f"  card pool: {game.cards_path}")
        click.echo(f"  bots: {', '.join(game.bots)}")
        click.echo("  variants:")
        for vname, variant in game.variants.items():
            default = " (default)" if vname == game.default_variant else ""
            runnable = "" if variant.runnable else " [not runnable]"
            click.echo(f"    {vname}{default}{runnable}: {variant.note}")
        click.echo("  parameters (modern defaults):")
        for key, value in game.describe_params(game.params).items():
            click.echo(f"    {key} = {value}")


@cli.command(context_settings=CONTEXT)
@click.argument("spec_file", required=False, type=click.Path(dir_okay=False))
@click.option("--variant", "-v", default=None, help="Named rule variant [default: the game's modern rules].")
@run_options
@click.option(
    "--resume", "resume_dir", default=None, type=click.Path(file_okay=False), help="Finish an interrupted run."
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option(
    "--report",
    "report_too",
    is_flag=True,
    help="Also write the run's HTML report when it ends, as `balance report RUN` does (reports/<run id>).",
)
@click.option(
    "--report-dir",
    default=None,
    type=click.Path(file_okay=False),
    help="Directory of the run's report (implies --report) [default reports/<run id>].",
)
@friendly
def run(
    spec_file: str | None,
    resume_dir: str | None,
    quiet: bool,
    report_too: bool,
    report_dir: str | None,
    **flags: Any,
) -> None:
    """Simulate games and write a results dataset (Parquet) under --out.

    Flags override the values of SPEC_FILE (a TOML run spec). The same seed gives the
    same tables whatever --workers and --chunk-size. With --report the run's report
    follows (reports/<run id>, or --report-dir), written by a process started with the
    command that imports the report's modules while the run starts.

    \b
    Example:
      balance run --game cardinger --variant modern -n 1000000 --seed 1 --bots greedy,greedy --workers 2
      balance run --game cardwars -n 1000000 --workers 2 --report
      balance run --game cardwars -n 100000 --out /tmp/runs --report-dir /tmp/cardwars-report
      balance run reports/demo/spec.toml
      balance run --resume runs/cardinger-modern-20261122-153000-ab12
    """
    from balance.following import FollowingReport, ReportFailed  # forked before anything else is imported or started

    write = functools.partial(_run_report, out=Path(report_dir) if report_dir else None)
    follower = FollowingReport(write, _input_errors()) if report_too or report_dir else None
    from balance.run import resume, run_spec

    try:
        if resume_dir:
            path = resume(resume_dir, progress=not quiet, workers=flags["workers"])
        else:
            path = run_spec(build_spec(spec_file, **flags), progress=not quiet)
    except BaseException:
        if follower is not None:
            follower.cancel()
        raise
    click.echo(str(path))
    if follower is not None:
        try:
            written = follower.send(path)
        except ReportFailed as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(written if written is not None else write(path))  # None: no report process


def _run_report(path: Path, renderer: Any = None, *, out: Path | None = None) -> str:
    """Write the report of the run at ``path`` into ``out`` [reports/<run id>]; return its index.html path."""
    from balance.io import load_run
    from balance.report import write_report

    return str(write_report(load_run(path), out or Path("reports") / path.name, renderer=renderer))


@cli.command(context_settings=CONTEXT)
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.option("--out", "-o", default=None, help="Report directory [default reports/<run id>].")
@click.option(
    "--values",
    "values_dir",
    default=None,
    type=click.Path(),
    help="Counterfactual card values: a `balance value --out` directory (or its values.parquet) "
    "[default: RUN_DIR/values.parquet when present].",
)
@friendly
def report(run_dir: str, out: str | None, values_dir: str | None) -> None:
    """Write an HTML report (index.html, charts embedded) and PNGs for a run.

    The report opens with a one-minute summary: seat advantage, draws and timeouts and
    game length with their intervals, the cards flagged too strong or too weak (by
    counterfactual value when --values or RUN_DIR/values.parquet gives them, else by GIH
    WR with its bias warning), and how much the card ranking depends on the bot. The card
    table sorts and filters in the browser.

    \b
    Example:
      balance report runs/cardinger-modern-20261122-153000-ab12 --out reports/demo
      balance report runs/demo --values values/cardinger --out reports/demo
    """
    from balance.io import load_run
    from balance.report import write_report

    loaded = load_run(run_dir)
    path = write_report(loaded, Path(out) if out else Path("reports") / loaded.name, values=values_dir)
    click.echo(str(path))


@cli.command(context_settings=CONTEXT)
@click.argument("runs", nargs=-1, type=click.Path(file_okay=False))
@click.option("--variants", default=None, help="Two variants to run and compare, e.g. modern,digital.")
@run_options
@click.option("--report-dir", default=None, help="Report directory [default reports/<a>-vs-<b>].")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@friendly
def compare(runs: tuple[str, ...], variants: str | None, report_dir: str | None, quiet: bool, **flags: Any) -> None:
    """Compare two rule variants (or card pools) on paired seeds: every metric A vs B with Δ and 95 % CI.

    Either give two existing runs (same game, seed and size), or let it run both: with
    --variants A,B and/or --cards A.csv,B.csv plus the usual run options.

    \b
    Example:
      balance compare --game cardinger --variants modern,digital -n 200000 --seed 1 --workers 2
      balance compare --game cardinger --variants modern,modern --cards a.csv,b.csv -n 100000
      balance compare runs/a runs/b
    """
    from balance.compare import check_paired, run_pair
    from balance.io import load_run
    from balance.report import write_compare_report

    if runs and (variants or flags["game"]):
        raise SpecError("give either two run directories or --game/--variants, not both")
    if runs:
        if len(runs) != 2:
            raise SpecError(f"compare needs exactly two run directories, got {len(runs)}")
        dir_a, dir_b = Path(runs[0]), Path(runs[1])
    else:
        pair = _split(variants) or ()
        if len(pair) != 2:
            raise SpecError("--variants needs two names, e.g. --variants modern,digital")
        cards = _split(flags.pop("cards_file")) or (None, None)
        if len(cards) == 1:
            cards = (cards[0], cards[0])
        base = build_spec(None, **flags, cards_file=None)
        dir_a, dir_b = run_pair(base, (pair[0], pair[1]), (cards[0], cards[1]), progress=not quiet)
    a, b = load_run(dir_a), load_run(dir_b)
    check_paired(a, b)
    label_a, label_b = a.manifest["variant"], b.manifest["variant"]
    if label_a == label_b:
        label_a, label_b = a.name, b.name
    out = Path(report_dir) if report_dir else Path("reports") / f"{a.name}-vs-{b.name}"
    click.echo(str(write_compare_report(a, b, out, label_a=label_a, label_b=label_b)))


@cli.command(context_settings=CONTEXT)
@click.argument("run_dir", type=click.Path(file_okay=False))
@click.argument("game", type=WHOLE)
@friendly
def replay(run_dir: str, game: int) -> None:
    """Print a readable turn-by-turn log of one game of a run (re-simulated from its seed).

    \b
    Example:
      balance replay runs/cardinger-modern-20261122-153000-ab12 42
    """
    from balance.replay import replay as api

    for line in api(run_dir, game):
        click.echo(line)


@cli.command(context_settings=CONTEXT)
@click.option("--game", "-g", default="cardinger", show_default=True, help="Game to benchmark.")
@click.option("--games-per-pairing", type=WHOLE, default=200_000, show_default=True, help="Games per bot pairing.")
@click.option(
    "--end-to-end",
    "e2e",
    type=WHOLE,
    default=1_000_000,
    show_default=True,
    help="Games for the run -> report timing (0 to skip).",
)
@click.option("--workers", "-w", type=WHOLE, default=2, show_default=True, help="Processes for the end-to-end run.")
@click.option(
    "--scaling",
    type=WHOLE,
    default=0,
    show_default=True,
    help="Games for the scaling figures: 1 vs 2 workers, LocalCluster, chunk overhead, bytes/game, raw vs sums.",
)
@friendly
def bench(game: str, games_per_pairing: int, e2e: int, workers: int, scaling: int) -> None:
    """Print speed figures: games/s per core per bot pairing, run -> report seconds, scaling.

    Never asserts on time: it measures and prints (with the load average: on a shared
    machine wall seconds mean little without it). 0 skips a part.

    \b
    Example:
      balance bench --game cardinger --games-per-pairing 100000 --end-to-end 1000000
      balance bench --game cardinger --games-per-pairing 0 --end-to-end 0 --scaling 200000
    """
    from balance.bench import bench_game

    bench_game(game, games_per_pairing=games_per_pairing, end_to_end=e2e, workers=workers, echo=click.echo)
    if scaling:
        from balance.bench_scaling import scaling as scaling_figures

        scaling_figures(game, scaling, echo=click.echo)


@cli.command(context_settings=CONTEXT)
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--quiet", "-q", is_flag=True, help="Print only the PASS/FAIL line of passing scenarios.")
@friendly
def scenario(files: tuple[str, ...], quiet: bool) -> None:
    """Play rule scenarios (TOML: position, moves, expected outcome) and print PASS or FAIL.

    Each FILE states a position, the cards played and choices made, and an [expect]
    table; the game's own kernel plays it. Prints the resulting table state and every
    expected key that differs. Exits 1 if any scenario fails; a position the rules could
    not produce is a one-line error naming the file and key. The format is in
    sims/core/scenario.py and each game's RULES.md.

    \b
    Example:
      balance scenario tests/sims/cardia/scenarios/*.toml
    """
    from balance.scenario import format_result, run_scenario

    failed = 0
    for path in files:
        result = run_scenario(path)
        failed += not result.passed
        for line in format_result(result, verbose=not quiet):
            click.echo(line)
    click.echo(f"{len(files) - failed} passed, {failed} failed")
    if failed:
        raise SystemExit(1)


from balance.cli_lab import register  # noqa: E402  (value, sweep, tune: kept in their own module)

register(cli)
