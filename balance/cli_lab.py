"""The ``value``, ``sweep`` and ``tune`` commands (registered on the ``balance`` group by :func:`register`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from balance.cli import CONTEXT, _pairs, _split, _weights, friendly


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
        bots=_split(flags["bots"]),
        params=_pairs(flags["params"], "--param"),
        bot_weights=_weights(flags["weights"]),
        cards_file=flags["cards_file"],
    )


@click.command(context_settings=CONTEXT)
@setup_options
@click.option(
    "--baseline", default=None, help="What replaces the card: same_cost, blank or a game's own [default: first]."
)
@click.option("--half-width", type=float, default=0.005, show_default=True, help="Target 95 % half-width (a fraction).")
@click.option("--budget", type=float, default=120.0, show_default=True, help="Seconds for the whole run.")
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
    from balance.report.value import write_value_report
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
    within = f"within ±{half_width * 100:.2f} pp in {summary['elapsed_s']} s"
    click.echo(f"{summary['resolved']}/{summary['n_cards']} cards {within}")
    click.echo(str(report))


def register(group: click.Group) -> None:
    """Add the ``value``, ``sweep`` and ``tune`` commands to ``group``."""
    group.add_command(value)
