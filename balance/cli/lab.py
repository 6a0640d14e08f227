"""The ``value``, ``sweep`` and ``tune`` commands (``COMMANDS``, added to the ``balance`` group in ``__init__``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from balance.cli.options import CONTEXT, friendly, parse_pairs, parse_weights, split_names


def setup_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The options that say how games are played (shared by ``value``, ``sweep`` and ``tune``)."""
    options = [
        click.option("--game", "-g", required=True, help="Game (see `balance games`)."),
        click.option("--variant", "-v", default=None, help="Named rule variant [default: the game's modern rules]."),
        click.option("--bots", default=None, help="Bot per seat, comma-separated [default greedy per seat]."),
        click.option("--param", "-p", "params", multiple=True, help="Rule override KEY=VALUE (repeatable)."),
        click.option("--weight", "weights", multiple=True, help="Bot weight BOT.KEY=VALUE (repeatable)."),
        click.option("--cards", "cards_file", default=None, help="Card pool CSV instead of the game's own."),
        click.option("--seed", type=int, default=1, show_default=True, help="Root seed (game g uses hash(seed, g))."),
        click.option("--workers", "-w", type=int, default=0, help="Processes [default: one per core]."),
        click.option("--out", "-o", required=True, type=click.Path(file_okay=False), help="Output directory."),
        click.option("--quiet", "-q", is_flag=True, help="No progress bar."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def make_setup_from(flags: dict[str, Any]) -> Any:
    """Return the ``balance.pairs.Setup`` the shared options describe."""
    from balance.pairs import make_setup

    return make_setup(
        flags["game"],
        variant=flags["variant"],
        bots=split_names(flags["bots"]),
        params=parse_pairs(flags["params"], "--param"),
        bot_weights=parse_weights(flags["weights"]),
        cards_file=flags["cards_file"],
    )


@click.command(context_settings=CONTEXT)
@setup_options
@click.option(
    "--baseline", default=None, help="What replaces the card: same_cost, blank or a game's own [default: first]."
)
@click.option("--half-width", type=float, default=0.005, show_default=True, help="Target 95 % half-width (a fraction).")
@click.option("--budget", type=float, default=120.0, show_default=True, help="Seconds of play (start-up not counted).")
@click.option("--card", "cards", multiple=True, help="Value only this card (repeatable) [default: every card].")
@click.option("--batch", type=int, default=2500, show_default=True, help="Paired games per batch.")
@click.option("--min-pairs", type=int, default=5000, show_default=True, help="Paired games every card gets first.")
@friendly
def value(
    baseline: str | None,
    half_width: float,
    budget: float,
    cards: tuple[str, ...],
    batch: int,
    min_pairs: int,
    seed: int,
    workers: int,
    out: str,
    quiet: bool,
    **flags: Any,
) -> None:
    """Counterfactual card value: each card's Δ win rate against a baseline card, on paired seeds.

    For every card the same seeds are played with the card in the holder's deck (seat
    g % 2) and with it replaced by the baseline; Δ is the holder's win-rate difference
    with a paired 95 % interval. Games go to the cards whose interval is widest until
    each reaches --half-width or --budget seconds run out. Writes OUT/values.parquet,
    OUT/value.json and the report OUT/index.html; prints what each card achieved.

    \b
    Example:
      balance value --game cardinger --out reports/values
      balance value --game cardinger --baseline blank --half-width 0.01 --card "Blood Knight" --out /tmp/bk
    """
    from balance.report.value import load_note, write_value_report
    from balance.value import ValueOptions, card_values, write_values

    setup = make_setup_from(flags)
    options = ValueOptions(baseline, half_width, budget, seed, workers, batch, min_pairs, cards)
    frame, summary = card_values(setup, options, progress=not quiet)
    write_values(frame, summary, out)
    report = write_value_report(frame, summary, out)
    click.echo(f"{'card':<28} {'Δ (pp)':>8}  {'95 % CI (pp)':>17}  {'±':>5}  {'pairs':>7}")
    for r in frame.sort("delta", descending=True, nulls_last=True).iter_rows(named=True):
        mark = "" if r["resolved"] else "  (budget ran out)"
        if r["delta"] is None:
            click.echo(f"{r['name']:<28} {'–':>8}{mark}")
            continue
        click.echo(
            f"{r['name'][:28]:<28} {r['delta'] * 100:+8.2f}  [{r['ci_low'] * 100:+6.2f}, {r['ci_high'] * 100:+6.2f}]"
            f"  {r['half_width'] * 100:5.2f}  {r['n_pairs']:>7,}{mark}"
        )
    within = f"within ±{half_width * 100:.2f} pp in {summary['elapsed_s']} s ({summary['startup_s']} s start-up)"
    within += load_note(summary)
    click.echo(f"{summary['resolved']}/{summary['n_cards']} cards {within}")
    if summary.get("not_dealt"):
        left = summary["not_dealt"]
        click.echo(f"not valued, never dealt under this set-up ({len(left)}): {', '.join(left)}")
    click.echo(str(report))


def _is_sweep(value: str) -> bool:
    """Return True if a KEY=VALUE value is a sweep: a range ``LO:HI[:STEP]`` or a list of numbers ``A,B,C``."""
    if ":" in value:
        return True
    parts = [p.strip() for p in value.split(",")]
    return len(parts) > 1 and all(p.replace(".", "", 1).lstrip("-").isdigit() for p in parts)


def sweep_target(flags: dict[str, Any], card: str | None) -> tuple[str, str]:
    """Return ``(kind, "KEY=VALUES")`` of the one swept target and drop it from ``flags``'s fixed overrides."""
    found = [("card", card)] if card else []
    for kind, key in (("param", "params"), ("weight", "weights")):
        swept = [item for item in flags[key] if _is_sweep(item.partition("=")[2])]
        found += [(kind, item) for item in swept]
        flags[key] = tuple(item for item in flags[key] if item not in swept)
    if len(found) != 1:
        from balance.spec import SpecError

        swept = ", ".join(t for _, t in found) or "none"
        raise SpecError(
            f"sweep needs exactly one range (LO:HI[:STEP] or A,B,C) in --param, --weight or --card; got {swept}"
        )
    return found[0]


@click.command(context_settings=CONTEXT)
@setup_options
@click.option("--card", "card_target", default=None, help='Card stat to sweep: "NAME.COLUMN=LO:HI[:STEP]" or A,B.')
@click.option(
    "--random", "random_points", type=int, default=0, help="Draw this many values in LO:HI instead of a grid."
)
@click.option("-n", "--n-games", type=int, default=20_000, show_default=True, help="Games per point.")
@click.option("--value-pairs", type=int, default=20_000, show_default=True, help="Card sweeps: pairs per point for Δ.")
@click.option("--baseline", default=None, help="Card sweeps: the value baseline [default: the game's first].")
@friendly
def sweep(
    card_target: str | None,
    random_points: int,
    n_games: int,
    value_pairs: int,
    baseline: str | None,
    seed: int,
    workers: int,
    out: str,
    quiet: bool,
    **flags: Any,
) -> None:
    """Sweep one rule parameter, bot weight or card stat; every point plays the same seeded games.

    The swept target is the one --param, --weight or --card whose value is a range
    LO:HI[:STEP] or a list of numbers A,B,C (with --random K: K values drawn in LO:HI);
    other --param/--weight values are fixed overrides. Writes OUT/games.parquet (every
    game, with its point and value), OUT/points.parquet (each metric per point with its
    95 % interval and the paired Δ against the point nearest the current value) and the
    report OUT/index.html with one curve per metric. A card sweep writes edited copies
    of the card file under OUT/cards and adds the card's counterfactual Δ per point; the
    original card file is never touched.

    \b
    Example:
      balance sweep --game cardinger --param target_score=15:25:1 -n 20000 --out reports/sweep-target
      balance sweep --game cardinger --card "Sea Dragon.cost=2:6" --out reports/sweep-sea-dragon
      balance sweep --game cardinger --weight greedy.score=0.5:2:0.5 --out reports/sweep-score-weight
      balance sweep --game blessings --param face_bonus=0:10:2 --out reports/sweep-face
    """
    from balance.report.sweep import write_sweep_report
    from balance.sweep import SweepOptions, parse_target, parse_values, plan_sweep, run_sweep, write_sweep

    kind, text = sweep_target(flags, card_target)
    setup = make_setup_from(flags)
    target, spec = parse_target(kind, text)
    values = parse_values(spec, integer=kind != "weight", random=random_points, seed=seed)
    plan = plan_sweep(setup, target, values, Path(out))
    progress = None if quiet else lambda done, total: click.echo(f"\r{done}/{total} batches", nl=False, err=True)
    result = run_sweep(plan, SweepOptions(n_games, value_pairs, baseline, seed, workers), progress=progress)
    if not quiet:
        click.echo("", err=True)
    write_sweep(result, out)
    click.echo(str(write_sweep_report(result, out)))


@click.command(context_settings=CONTEXT)
@setup_options
@click.option(
    "--objective", type=click.Choice(["cards", "first_seat", "gradient"]), required=True, help="What to balance."
)
@click.option("--band", type=float, default=None, help="Target band [cards 0.02, first_seat 0.01, gradient 0.05].")
@click.option("--search-games", type=int, default=20_000, show_default=True, help="Games (pairs) per candidate.")
@click.option("--verify-games", type=int, default=40_000, show_default=True, help="Fresh games (pairs) per arm.")
@click.option("--verify-seed", type=int, default=0, help="Seed of the verification [default: seed + 1000003].")
@click.option("--proposals", type=int, default=3, show_default=True, help="Proposals to verify (cards: cards to edit).")
@click.option("--search", "search_params", default=None, help="Rule parameters the search may edit, comma-separated.")
@click.option("--outcome", default="", help="gradient of a one-seat game: games column compared [default kills].")
@friendly
def tune(
    objective: str,
    band: float | None,
    search_games: int,
    verify_games: int,
    verify_seed: int,
    proposals: int,
    search_params: str | None,
    outcome: str,
    seed: int,
    workers: int,
    out: str,
    quiet: bool,
    **flags: Any,
) -> None:
    """Propose the smallest edits that bring an objective into its band, each verified on fresh seeds.

    \b
    cards       every card's counterfactual Δ within ±band of the median card's
                (edits card stats; writes OUT/proposed-<card file>, never the original)
    first_seat  first-seat advantage within ±band (edits rule parameters)
    gradient    each higher bot tier beats each lower one by at least band (rule parameters);
                one-seat games: its mean --outcome at least band (relative) above the lower's

    Candidates are scored on --seed; the best are replayed on fresh seeds, before and
    after on the same games, with the paired change and its 95 % interval. Writes
    OUT/search.parquet, OUT/verified.parquet, OUT/tune.json and the report OUT/index.html.

    \b
    Example:
      balance tune --game cardinger --objective first_seat --out reports/tune-first-seat
      balance tune --game cardinger --objective cards --proposals 2 --out reports/tune-cards
      balance tune --game blessings --objective first_seat --search face_bonus,turn_draw --out reports/tune-b
    """
    from balance.report.tune import tune_sentences, write_tune_report
    from balance.tune import TuneOptions, write_tune
    from balance.tune import tune as api

    setup = make_setup_from(flags)
    options = TuneOptions(
        band, search_games, verify_games, seed, verify_seed, workers, max_proposals=proposals,
        params=split_names(search_params) or (), outcome=outcome,
    )  # fmt: skip
    say = None if quiet else lambda message: click.echo(message, err=True)
    result = api(setup, objective, options, Path(out), progress=say)
    write_tune(result, out)
    for line in tune_sentences(result):
        click.echo(line)
    click.echo(str(write_tune_report(result, out)))


COMMANDS = (value, sweep, tune)
