"""Report sections about whole games: win rates, first seat, outcomes, length, tempo, counters."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any, NamedTuple

import polars as pl

from balance import charts
from balance import metrics as m
from balance.aggregates import TEMPO
from balance.io import Run
from balance.metrics import sources
from balance.metrics.game_sums import distribution_from, lead_counts, summarize_from
from balance.report.html import Cell, Charts, esc, estimate, flag, note, number, points, section, table, text
from balance.report.tables import summary_table, wide_counters


def _cols(lf: pl.LazyFrame) -> list[str]:
    return lf.collect_schema().names()


ORDINAL = {1: "moved first", 2: "moved second"}


def _rate_rows(df: pl.DataFrame, label: Any) -> list[list[Cell]]:
    return [
        [text(label(r)), number(r["n"]), number(r["wins"]), estimate(r["rate"], r["lo"], r["hi"])]
        for r in df.iter_rows(named=True)
    ]


def win_rates_section(run: Run, n_seats: int, out: Charts) -> str:
    if "won" not in _cols(run.seats):
        return section("win-rates", "Win rates", note("No winner in this game (no seats.won column): no win rates."))
    has_bot = "bot" in _cols(run.seats)
    ordered = n_seats >= 2 and sources.has_first_seat_of(run)  # a game of simultaneous choices has no turn order
    # by bot and turn order when both are shown: one scan, the bot and position rates summed from it
    cross = sources.win_rates_of(run, ["bot", "position"]) if has_bot and ordered else None
    by_seat = sources.win_rates_of(run, "seat")
    rows = _rate_rows(by_seat, lambda r: f"seat {r['seat']}")
    parts = []
    by_bot = None
    if has_bot:
        by_bot = sources.win_rates_of(run, "bot") if cross is None else m.win_rates_over(cross, "bot")
    n_bots = by_bot.height if by_bot is not None else 0
    mirror = n_seats >= 2 and n_bots == 1  # one bot in every seat: its win rate is fixed by construction
    if mirror:
        assert by_bot is not None
        parts.append(note(_mirror_note(by_bot.row(0, named=True), n_seats, ordered)))
        by_bot, cross = None, None
    with_bot = by_bot is not None
    axes = charts.new_axes(7.5, 1.2 + 1.3 * (1 + with_bot) + 0.28 * (by_seat.height + n_bots), nrows=1 + with_bot)
    if by_bot is not None:
        rows = _rate_rows(by_bot, lambda r: f"bot {r['bot']}") + rows
        charts.plot_win_rates(by_bot, by="bot", ax=axes[0])
    charts.plot_win_rates(by_seat, by="seat", ax=axes[-1])
    if ordered:
        by_pos = sources.win_rates_of(run, "position") if cross is None else m.win_rates_over(cross, "position")
        rows += _rate_rows(by_pos, lambda r: ORDINAL.get(r["position"], f"moved {r['position']}th"))
    what = "Win rate by bot and by seat" if with_bot else "Win rate by seat"
    parts.append(out.add("win_rates", axes[0].figure, f"{what} with 95 % intervals"))
    parts.append(
        table(["group", "seats", "wins", "win rate [95 % CI]"], rows, caption="Timeouts and draws count as not won.")
    )
    if cross is not None:
        parts.append("<h3>By bot and turn order</h3>")
        parts.append(
            table(
                ["bot and turn order", "seats", "wins", "win rate [95 % CI]"],
                _rate_rows(cross, lambda r: f"{r['bot']}, {ORDINAL.get(r['position'], r['position'])}"),
            )
        )
    return section("win-rates", "Win rates", *parts)


def _mirror_note(r: dict, n_seats: int, ordered: bool) -> str:
    """The note a mirror shows instead of its one-bar chart (plain text): the bot's rate says nothing of the bot."""
    return (
        f"Every seat played {r['bot']} (a mirror), so its win rate ({r['rate']:.1%} of {r['n']:,} seats) is fixed "
        f"by construction: each game's winner is one of its {n_seats} seats, all of them {r['bot']}. What differs "
        f"is the seat{' and the turn order' if ordered else ''}, below; to compare bots, run different bots "
        "against each other (e.g. --bots greedy,random)."
    )


def first_seat_section(run: Run, n_seats: int, out: Charts) -> str:
    if n_seats < 2 or not all(c in _cols(run.games) for c in ("winner", "first_seat")):
        why = "Single-seat game" if n_seats < 2 else "No games.winner or games.first_seat column"
        return section("first-seat", "First-seat advantage", note(f"{why}: no first-seat advantage to measure."))
    if not sources.has_first_seat_of(run):
        why = "No seat moves first (games.first_seat = -1: choices are simultaneous); seats compare in Win rates."
        return section("first-seat", "First-seat advantage", note(why))
    fsa = sources.first_seat_advantage_of(run)
    r = fsa.row(0, named=True)
    rows = [
        [
            text("all games"),
            number(r["n_games"]),
            number(r["n"]),
            number(r["first_wins"]),
            estimate(r["rate"], r["lo"], r["hi"]),
            points(r["advantage"], r["advantage_lo"], r["advantage_hi"]),
            flag(r["significant"]),
        ]
    ]
    headers = [
        "games",
        "all",
        "decided",
        "won by first mover",
        "share of decided [95 % CI]",
        "advantage vs fair",
        "significant",
    ]
    chart = out.add(
        "first_seat_advantage", charts.plot_first_seat_advantage(fsa).figure, "First-seat share of decided games"
    )
    return section("first-seat", "First-seat advantage", chart, table(headers, rows, sortable=False))


def outcomes_section(run: Run, solitaire: bool = False) -> str:
    df = sources.outcomes_of(run)
    rows = [
        [
            text(r["kind"].replace("_", " ")),
            text(r["value"]),
            number(r["count"]),
            estimate(r["rate"], r["lo"], r["hi"], r["n"]),
        ]
        for r in df.iter_rows(named=True)
    ]
    parts = [table(["kind", "outcome", "games", "rate [95 % CI]"], rows)]
    # a solitaire run shows its end reasons by group (class) in the groups section instead
    skip = m.group_columns(run.games) if solitaire else []
    details = sources.outcome_details_of(run, [c for c in m.enum_columns(run.games) if c not in skip])
    for (column,), part in details.group_by("column", maintain_order=True):
        label = str(column).replace("_", " ")
        parts.append(f"<h3>End reason × {esc(label)}</h3>")
        parts.append(
            table(
                ["end reason", label, "games", "share of the end reason [95 % CI]"],
                [
                    [
                        text(r["end_reason"]),
                        text(r["value"]),
                        number(r["count"]),
                        estimate(r["rate"], r["lo"], r["hi"], r["n"]),
                    ]
                    for r in part.iter_rows(named=True)
                ],
                caption=f"How the games of each end reason split by {label}; n = games with that end reason.",
            )
        )
    title = "Outcomes: draws, timeouts and end reasons" if "winner" in _cols(run.games) else "Outcomes: end reasons"
    return section("outcomes", title, *parts)


def game_length_section(run: Run, out: Charts) -> str:
    dist, summary = sources.game_length_of(run), sources.turns_summary_of(run)
    chart = out.add(
        "game_length", charts.plot_game_length(dist, summary=summary).figure, "Histogram of game length in turns"
    )
    return section("game-length", "Game length", chart, summary_table([("game length (turns)", summary, "")]))


def sample_note(run: Run) -> str:
    """Return a note saying a section is computed from the raw sample of the first games, or ''."""
    if sources.from_sums(run) or run.raw_sample is None:
        return ""
    games = run.games.select(pl.len()).collect().item()
    return note(
        f"Computed from the raw sample: the card and turn rows of games 0 .. {run.raw_sample - 1} "
        f"(at most {run.raw_sample:,} of the run's {games:,} games); the run kept no sums of the others."
    )


def tempo_problem(run: Run) -> str | None:
    """Return why the run has no tempo metrics, or None when it has."""
    if sources.from_sums(run):
        if sources.has_tempo(run):
            return None
        turns = sources.turn_columns(run)  # the columns its turns rows had (not stored)
    elif run.turns is None:
        return "This run did not record the turns table; tempo metrics are skipped."
    else:
        turns = _cols(run.turns)
    missing = [c for c in m.TEMPO_COLUMNS if c not in turns]
    if missing:
        return f"The turns table has no {', '.join(missing)} column(s); tempo needs two seats' scores."
    if "winner" not in _cols(run.games):
        return "The games table has no winner column; tempo and lead changes need one."
    return None


IN_MEMORY_TURNS = 150_000_000  # up to this many turn rows, read the needed columns once (~14 bytes a row)


class TempoData(NamedTuple):
    """The tempo curve (by round when the seats alternate, else by row of the turns table) and the games' leads."""

    curve: pl.DataFrame
    leads: pl.DataFrame  # games by lead changes and lead for good: lead_changes, lead_for_good, count
    curve_unit: str  # "round", or the run's turn unit


def tempo_data(run: Run, unit: str) -> TempoData:
    """Return the tempo metrics of the run, from its stored sums or reading the turns table once when it fits.

    A game played in alternating turns gets its tempo curve by round (both seats' turns),
    so the curve does not zig-zag with the half-turns; lead changes and the lead for good
    stay per turn.
    """
    if sources.from_sums(run):
        by_round = unit == "turn" and run.n_seats == 2 and sources.alternates_of(run)
        grain = "round" if by_round else "turn"
        hist = sources.sums(run, TEMPO)
        assert hist is not None
        curve = m.tempo_from(hist.filter(pl.col("grain") == grain).drop("grain"))
        leads = sources.lead_counts_of(run)
        assert leads is not None
        return TempoData(curve, leads, "round" if by_round else unit)
    assert run.turns is not None
    turns = run.turns
    keep = ["game", "turn", *(["seat"] if "seat" in _cols(turns) else []), *m.TEMPO_COLUMNS]
    if turns.select(pl.len()).collect().item() <= IN_MEMORY_TURNS:
        turns = turns.select(keep).collect().lazy()
    by_round = unit == "turn" and run.n_seats == 2 and m.alternates(turns, run.games)
    curve = m.tempo(m.rounds(turns) if by_round else turns, run.games)
    return TempoData(curve, lead_counts(m.lead_per_game(turns, run.games)), "round" if by_round else unit)


def tempo_section(run: Run, unit: str, out: Charts, data: Future[TempoData] | None) -> str:
    if data is None:
        return section("tempo", "Tempo", note(tempo_problem(run) or "No tempo metrics."))
    curve, leads, curve_unit = data.result()
    lc_sum, lfg_sum = (summarize_from(leads, pl.col(c), c) for c in ("lead_changes", "lead_for_good"))
    sample = sample_note(run)
    every = "turn end" if unit == "turn" else unit
    by_round = (
        " Rounds: the first seat's turn and then the second's, so the curve compares the seats after equal "
        "numbers of turns; a game that ends within a round counts at its last turn."
        if curve_unit == "round"
        else ""
    )
    return section(
        "tempo",
        "Tempo",
        *([sample] if sample else []),
        out.add(
            "tempo",
            charts.plot_tempo(curve, unit=curve_unit).figure,
            f"Score difference by {curve_unit}",
            f"{curve_unit.capitalize()}s reached by fewer than 1 % of games are not drawn.{by_round}",
        ),
        out.add(
            "lead_changes",
            charts.plot_lead_changes(distribution_from(leads, "lead_changes"), summary=lc_sum).figure,
            "Lead changes per game",
            f"Counted at every {every}.",
        ),
        out.add(
            "lead_for_good",
            charts.plot_lead_for_good(distribution_from(leads, "lead_for_good"), summary=lfg_sum, unit=unit).figure,
            f"{unit.capitalize()} the winner takes the lead for good",
            f"Decided games; the {unit} after which the winner is strictly ahead at every later {every}.",
        ),
        summary_table(
            [("lead changes per game", lc_sum, ""), (f"{unit} the winner takes the lead for good", lfg_sum, "")]
        ),
    )


def counters_section(run: Run, solitaire: bool = False) -> str:
    by = "bot" if "bot" in _cols(run.seats) else "seat"
    seats = sources.seat_counters_of(run, by)
    # a seats column holding the code of a games enum column (a class) is a label, not a counter
    seats = seats.filter(~pl.col("counter").is_in(m.enum_columns(run.games)))
    games = m.game_counters(run.games)
    if solitaire:  # columns fixed by a group (a class's rank and suit) are in the groups section
        fixed = [c for g in m.group_columns(run.games) for c in m.descriptor_columns(run.games, g)]
        games = games.filter(~pl.col("counter").is_in(fixed))
    parts = [f"<h3>Per seat, by {esc(by)} (mean per game)</h3>"]
    if seats.height:
        parts.append(wide_counters(seats.with_columns(pl.col(by).cast(pl.String)), by, by))
    else:
        parts.append(note("The seats table has no numeric counters."))
    if games.height:
        parts.append("<h3>Per game (mean over all games)</h3>")
        parts.append(wide_counters(games.with_columns(pl.lit("all games").alias("games")), "games", "games"))
    return section("seat-counters", "Counters", *parts)
