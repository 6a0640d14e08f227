"""The core ``balance`` commands: games, run, report, compare, replay, bench, scenario (``COMMANDS``).

Each is a thin wrapper over the Python API; its modules are imported when it runs, so that
``balance run`` forks its report process before anything heavy is loaded (``balance.following``).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import click

from balance.cli.options import CONTEXT, WHOLE, build_spec, friendly, input_errors, run_options, split_names
from balance.spec import SpecError


@click.command(context_settings=CONTEXT)
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


@click.command(context_settings=CONTEXT)
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
    follower = FollowingReport(write, input_errors()) if report_too or report_dir else None
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


@click.command(context_settings=CONTEXT)
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


@click.command(context_settings=CONTEXT)
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
        pair = split_names(variants) or ()
        if len(pair) != 2:
            raise SpecError("--variants needs two names, e.g. --variants modern,digital")
        cards = split_names(flags.pop("cards_file")) or (None, None)
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


@click.command(context_settings=CONTEXT)
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


@click.command(context_settings=CONTEXT)
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


@click.command(context_settings=CONTEXT)
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


COMMANDS = (games, run, report, compare, replay, bench, scenario)
