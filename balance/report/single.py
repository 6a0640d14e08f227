"""The report of one run: ``write_report(run, out_dir)`` -> ``out_dir/index.html`` + PNGs."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

import polars as pl

from balance import charts
from balance import metrics as m
from balance.io import Run
from balance.report.cards import Pending, attributes_section, cards_section
from balance.report.html import (
    Cell,
    Charts,
    esc,
    estimate,
    flag,
    key_values,
    note,
    number,
    page,
    points,
    section,
    table,
    text,
)
from balance.report.solitaire import (
    SOLITAIRE_METHODS,
    SolitaireData,
    groups_section,
    length_section,
    levels_section,
    solitaire_data,
    step_outcomes_section,
)
from balance.report.steps import StepData, shows_steps, step_data, steps_section
from balance.report.tables import summary_table, wide_counters

ORDINAL = {1: "moved first", 2: "moved second"}


def _cols(lf: pl.LazyFrame) -> list[str]:
    return lf.collect_schema().names()


def manifest_value(run: Run, *keys: str) -> Any:
    """Return the first of ``keys`` found in the manifest (or its ``spec`` mapping), else None."""
    spec = run.manifest.get("spec")
    for source in (run.manifest, spec if isinstance(spec, dict) else {}):
        for key in keys:
            if source.get(key) not in (None, ""):
                return source[key]
    return None


def run_info(run: Run) -> dict[str, Any]:
    """Return the header facts of a run: game, variant, rules version, games, bots, seed, id, created."""
    games = run.games.select(
        pl.len().alias("n"), *([pl.col("variant").unique().sort().implode()] if "variant" in _cols(run.games) else [])
    )
    row = games.collect().row(0, named=True)
    variant = manifest_value(run, "variant") or ", ".join(str(v) for v in row.get("variant") or []) or None
    bots = None
    if "bot" in _cols(run.seats):
        bots = ", ".join(str(b) for b in run.seats.select(pl.col("bot").unique().sort()).collect()["bot"].to_list())
    return {
        "game": manifest_value(run, "game", "game_name"),
        "variant": variant,
        "rules version": manifest_value(run, "rules_version"),
        "games": row["n"],
        "bots": bots,
        "root seed": manifest_value(run, "root_seed", "seed"),
        "run id": run.name,
        "created": manifest_value(run, "created", "created_at", "started_at", "finished_at"),
    }


def _rate_rows(df: pl.DataFrame, label: Any) -> list[list[Cell]]:
    return [
        [text(label(r)), number(r["n"]), number(r["wins"]), estimate(r["rate"], r["lo"], r["hi"])]
        for r in df.iter_rows(named=True)
    ]


def _win_rates(run: Run, n_seats: int, out: Charts) -> str:
    if "won" not in _cols(run.seats):
        return section("win-rates", "Win rates", note("No winner in this game (no seats.won column): no win rates."))
    has_bot = "bot" in _cols(run.seats)
    by_seat = m.win_rates(run.seats, by="seat")
    rows = _rate_rows(by_seat, lambda r: f"seat {r['seat']}")
    parts = []
    n_bots = run.seats.select(pl.col("bot").n_unique()).collect().item() if has_bot else 0
    axes = charts.new_axes(7.5, 1.2 + 1.3 * (1 + has_bot) + 0.28 * (by_seat.height + n_bots), nrows=1 + has_bot)
    if has_bot:
        by_bot = m.win_rates(run.seats, by="bot")
        rows = _rate_rows(by_bot, lambda r: f"bot {r['bot']}") + rows
        charts.plot_win_rates(by_bot, by="bot", ax=axes[0])
    charts.plot_win_rates(by_seat, by="seat", ax=axes[-1])
    if n_seats >= 2:
        by_pos = m.win_rates(run.seats, by="position", games=run.games)
        rows += _rate_rows(by_pos, lambda r: ORDINAL.get(r["position"], f"moved {r['position']}th"))
    parts.append(out.add("win_rates", axes[0].figure, "Win rate by bot and by seat with 95 % intervals"))
    parts.append(
        table(["group", "seats", "wins", "win rate [95 % CI]"], rows, caption="Timeouts and draws count as not won.")
    )
    if has_bot and n_seats >= 2:
        cross = m.win_rates(run.seats, by=["bot", "position"], games=run.games)
        parts.append("<h3>By bot and turn order</h3>")
        parts.append(
            table(
                ["bot and turn order", "seats", "wins", "win rate [95 % CI]"],
                _rate_rows(cross, lambda r: f"{r['bot']}, {ORDINAL.get(r['position'], r['position'])}"),
            )
        )
    return section("win-rates", "Win rates", *parts)


def _first_seat(run: Run, n_seats: int, out: Charts) -> str:
    if n_seats < 2 or not all(c in _cols(run.games) for c in ("winner", "first_seat")):
        why = "Single-seat game" if n_seats < 2 else "No games.winner or games.first_seat column"
        return section("first-seat", "First-seat advantage", note(f"{why}: no first-seat advantage to measure."))
    fsa = m.first_seat_advantage(run.games, n_seats=n_seats)
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


def _outcomes(run: Run, solitaire: bool = False) -> str:
    df = m.outcomes(run.games)
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
    details = m.outcome_details(run.games, enums=[c for c in m.enum_columns(run.games) if c not in skip])
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


def _game_length(run: Run, out: Charts) -> str:
    dist, summary = m.game_length(run.games), m.game_length_summary(run.games)
    chart = out.add(
        "game_length", charts.plot_game_length(dist, summary=summary).figure, "Histogram of game length in turns"
    )
    return section("game-length", "Game length", chart, summary_table([("game length (turns)", summary, "")]))


def _tempo_problem(run: Run) -> str | None:
    """Return why the run has no tempo metrics, or None when it has."""
    if run.turns is None:
        return "This run did not record the turns table; tempo metrics are skipped."
    missing = [c for c in m.TEMPO_COLUMNS if c not in _cols(run.turns)]
    if missing:
        return f"The turns table has no {', '.join(missing)} column(s); tempo needs two seats' scores."
    if "winner" not in _cols(run.games):
        return "The games table has no winner column; tempo and lead changes need one."
    return None


IN_MEMORY_TURNS = 150_000_000  # up to this many turn rows, read the needed columns once (~14 bytes a row)


def _tempo_data(run: Run) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Return ``tempo`` and ``lead_per_game`` of the run, reading the turns table once when it fits."""
    assert run.turns is not None
    turns = run.turns
    if turns.select(pl.len()).collect().item() <= IN_MEMORY_TURNS:
        turns = turns.select("game", "turn", *m.TEMPO_COLUMNS).collect().lazy()
    return m.tempo(turns, run.games), m.lead_per_game(turns, run.games)


def _tempo(run: Run, unit: str, out: Charts, data: Future[tuple[pl.DataFrame, pl.DataFrame]] | None) -> str:
    if data is None:
        return section("tempo", "Tempo", note(_tempo_problem(run) or "No tempo metrics."))
    curve, per_game = data.result()
    lc_sum, lfg_sum = m.summarize(per_game, "lead_changes"), m.summarize(per_game, "lead_for_good")
    every = "turn end" if unit == "turn" else unit
    return section(
        "tempo",
        "Tempo",
        out.add(
            "tempo",
            charts.plot_tempo(curve, unit=unit).figure,
            f"Score difference by {unit}",
            f"{unit.capitalize()}s reached by fewer than 1 % of games are not drawn.",
        ),
        out.add(
            "lead_changes",
            charts.plot_lead_changes(m.distribution(per_game, "lead_changes"), summary=lc_sum).figure,
            "Lead changes per game",
        ),
        out.add(
            "lead_for_good",
            charts.plot_lead_for_good(m.distribution(per_game, "lead_for_good"), summary=lfg_sum, unit=unit).figure,
            f"{unit.capitalize()} the winner takes the lead for good",
            f"Decided games; the {unit} after which the winner is strictly ahead at every later {every}.",
        ),
        summary_table(
            [("lead changes per game", lc_sum, ""), (f"{unit} the winner takes the lead for good", lfg_sum, "")]
        ),
    )


def _counters(run: Run, solitaire: bool = False) -> str:
    by = "bot" if "bot" in _cols(run.seats) else "seat"
    seats = m.seat_counters(run.seats, by=by)
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


METHODS = (
    "Win = won == 1; draws and timeouts count as not won and are reported separately. "
    "Rates: Wilson score 95 % intervals. "
    "IWD = GIH WR − GNS WR with Newcombe's hybrid score interval. Means: Student-t 95 % intervals. "
    "GP WR: card in deck; OH WR: in opening hand; GD WR: drawn after the opening hand; GIH WR: opening hand or drawn; "
    "GNS WR: never seen; played WR: played at least once; play rate: share of deck games it was played; "
    "avg turn first played: global turn number (both seats counted). "
    "Games recorded one row per battle (or other step): the opener is the seat that took the step's first "
    "turn, and drawn steps are left out of its share won. Card value by attribute: card-level rows pooled "
    "over the cards sharing a value; intervals use the most-held card's n (conservative)."
)


def _body(run: Run, info: dict[str, Any], out: Charts, pending: _Pending) -> list[str]:
    """Return the report's sections in page order (card, tempo and step sections wait for their data)."""
    n_seats = run.n_seats
    params = run.manifest.get("params") or {}
    overview = [key_values(info)]
    overview += (
        ["<h3>Parameters</h3>", key_values(params)]
        if isinstance(params, dict) and params
        else [note("The manifest lists no parameters.")]
    )
    early = [
        section("overview", "Run", *overview),
        _win_rates(run, n_seats, out),
        _first_seat(run, n_seats, out),
        _outcomes(run, solitaire=n_seats == 1),
        length_section(run, pending.unit, out) if n_seats == 1 else _game_length(run, out),
    ]
    if n_seats == 1:
        early += [
            groups_section(run, out),
            levels_section(run, pending.unit, out, pending.solitaire),
            step_outcomes_section(pending.unit, out, pending.solitaire),
        ]
    counters = _counters(run, solitaire=n_seats == 1)
    methods_text = f"{SOLITAIRE_METHODS} {METHODS}" if n_seats == 1 else METHODS
    methods = section("methods", "Definitions and methods", f"<p>{esc(methods_text)}</p>")
    steps = [steps_section(pending.unit, out, pending.steps)] if pending.steps is not None else []
    attributes = attributes_section(run, out, pending.cards)
    cards = [cards_section(run, out, pending.cards), *([attributes] if attributes else [])]
    return [*early, *steps, *cards, _tempo(run, pending.unit, out, pending.tempo), counters, methods]


class _Pending(NamedTuple):
    """The large scans running in the background, and the turn unit."""

    unit: str
    cards: Pending
    tempo: Future[tuple[pl.DataFrame, pl.DataFrame]] | None
    steps: Future[StepData] | None
    solitaire: Future[SolitaireData] | None


def write_report(run: Run, out_dir: Path | str) -> Path:
    """Write the report of ``run`` to ``out_dir/index.html`` plus one PNG per chart; return the HTML path.

    The HTML is self-contained (charts embedded, CSS inline, no external resources).
    Sections whose table the run lacks (cards, turns) are replaced by a note.
    """
    out = Charts(Path(out_dir))
    info = run_info(run)
    unit = run.turn_unit
    solitaire = run.solitaire
    # The large scans (cards, turns) run in background threads (polars frees the GIL)
    # while this thread computes the small metrics and draws; matplotlib stays on this thread.
    with ThreadPoolExecutor(max_workers=2) as background:
        pending = _Pending(
            unit,
            background.submit(m.card_summary, run.cards, run.card_dim, run.seats) if run.cards is not None else None,
            background.submit(_tempo_data, run) if _tempo_problem(run) is None else None,
            background.submit(step_data, run, unit) if shows_steps(run, unit) else None,
            background.submit(solitaire_data, run) if solitaire and run.turns is not None else None,
        )
        body = _body(run, info, out, pending)
    nav = [
        ("overview", "Run"),
        ("win-rates", "Win rates"),
        ("first-seat", "First seat"),
        ("outcomes", "Outcomes"),
        ("game-length", "Length"),
        *(
            [("groups", "Groups"), ("levels", "Levels"), ("step-outcomes", f"{unit.capitalize()}s")]
            if solitaire
            else []
        ),
        *([("steps", f"{unit.capitalize()}s")] if pending.steps is not None else []),
        ("cards", "Cards"),
        *([("card-attributes", "Card attributes")] if pending.cards is not None else []),
        ("tempo", "Tempo"),
        ("seat-counters", "Counters"),
        ("methods", "Methods"),
    ]
    title = " — ".join(str(v) for v in (info["game"], info["variant"]) if v) or run.name
    subtitle = f"{info['games']:,} games · run {run.name} · report generated {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
    path = out.out_dir / "index.html"
    path.write_text(
        page(f"Balance report: {title}", title, subtitle, nav, body, "Generated by balance.report."), encoding="utf-8"
    )
    return path
