"""Report sections of a one-seat (solitaire) game: outcomes by group, levels, how steps end.

A run is solitaire when its game has one seat (:attr:`balance.io.Run.solitaire`). The
sections are driven by the columns the run has (see :mod:`balance.metrics.solitaire`):
groups are the enum columns of ``games`` (a character's class), levels need
``games.level_end`` and/or ``turns.level``, step outcomes need ``turns.outcome``.
A section whose columns are missing says so in a one-line note.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future
from typing import NamedTuple

import polars as pl

from balance import charts
from balance import metrics as m
from balance.aggregates import LEVELS, STEPS
from balance.io import Run
from balance.metrics import sources
from balance.report.games import sample_note
from balance.report.html import Cell, Charts, esc, estimate, note, number, section, table, text
from balance.report.tables import summary_table

HEADLINE = ("kills", "score", "wins", m.LEVEL_REACHED)  # the outcome charted by group, first found


def headline(names: Sequence[str]) -> str | None:
    """Return the outcome column to chart: the first of :data:`HEADLINE` in ``names``, else the first name.

    Examples
    --------
    >>> headline(["level_end", "kills"]), headline(["gold"]), headline([])
    ('kills', 'gold', None)
    """
    return next((h for h in HEADLINE if h in names), names[0] if names else None)


def _label(name: str) -> str:
    return name.replace("_", " ")


class SolitaireData(NamedTuple):
    """The step-table metrics of a solitaire run (computed in the background)."""

    progression: pl.DataFrame | None  # level_progression (None without turns.level)
    outcomes: pl.DataFrame | None  # step_outcomes by every column of ``by`` (None without turns.outcome)
    by: list[str]  # the grouping columns of ``outcomes``: level, then the turns' enum columns
    counters: pl.DataFrame | None  # mean per step of the numeric step columns


def turns_groups(turns: pl.LazyFrame, *, max_values: int = 50) -> list[str]:
    """Return the columns step outcomes are split by: ``level``, then the enum columns of ``turns``."""
    names = [c for c in m.enum_columns(turns) if c != m.OUTCOME]
    if names:
        counts = turns.select(pl.col(c).n_unique() for c in names).collect().row(0, named=True)
        names = [c for c in names if counts[c] <= max_values]
    return ([m.LEVEL] if m.has_columns(turns, m.LEVEL) else []) + names


def groups_from(sums: pl.DataFrame, *, max_values: int = 50) -> list[str]:
    """Return :func:`turns_groups` from a run's stored ``agg_steps`` (keyed by level and the turns' enums)."""
    names = [c for c in sums.columns if sums.schema[c] == pl.String and c != m.OUTCOME]
    names = [c for c in names if sums[c].n_unique() <= max_values]
    return ([m.LEVEL] if m.LEVEL in sums.columns else []) + names


def solitaire_data(run: Run) -> SolitaireData:
    """Compute the step metrics of a solitaire run, from its stored sums or lazy scans of its turns."""
    if sources.from_sums(run):
        sums, levels = sources.sums(run, STEPS), sources.sums(run, LEVELS)
        if sums is None:
            return SolitaireData(None, None, [], None)
        by = groups_from(sums)
        progression = m.progression_from(levels) if levels is not None else None
        outcomes = m.step_outcomes_from(sums, by=by) if m.OUTCOME in sums.columns else None
        means = m.step_counters_from(sums)
        return SolitaireData(progression, outcomes, by, means if means.height else None)
    turns = run.turns
    if turns is None:
        return SolitaireData(None, None, [], None)
    by = turns_groups(turns)
    counters = m.step_counter_columns(turns)
    progression = m.level_progression(turns) if m.has_columns(turns, m.LEVEL) else None
    outcomes = m.step_outcomes(turns, by=by) if m.has_columns(turns, m.OUTCOME) else None
    means = m.counter_means(turns, counters) if counters else None
    return SolitaireData(progression, outcomes, by, means)


# -- outcomes by group ------------------------------------------------------------------------------


def _descriptors(run: Run, by: str, names: list[str]) -> dict[str, dict[str, object]]:
    """Return each group's value of the columns it fixes (a class's rank and suit)."""
    if not names:
        return {}
    df = run.games.group_by(pl.col(by).cast(pl.String)).agg(pl.col(names).first()).collect()
    return {r[by]: r for r in df.iter_rows(named=True)}


def _group_table(long: pl.DataFrame, by: str, fixed: list[str], facts: dict[str, dict[str, object]]) -> str:
    names = long["counter"].unique(maintain_order=True).to_list()
    rows = []
    for (group,), part in long.group_by(by, maintain_order=True):
        r = {x["counter"]: x for x in part.iter_rows(named=True)}
        cells: list[Cell] = [text(group), number(part["n"][0])]
        cells += [number(facts.get(str(group), {}).get(c)) for c in fixed]
        cells += [estimate(r[c]["mean"], r[c]["lo"], r[c]["hi"], percent=False) for c in names]
        rows.append(cells)
    headers = [_label(by), "games", *(_label(c) for c in fixed), *(_label(c) for c in names)]
    return table(headers, rows, caption="Mean per game [95 % CI, t]. Click a header to sort.")


def _reach_table(reach: pl.DataFrame, by: str | None) -> str:
    levels = sorted(reach["level"].unique().to_list())
    rows = []
    parts = reach.group_by(by, maintain_order=True) if by else [(("all games",), reach)]
    for (group,), part in parts:
        r = {x["level"]: x for x in part.iter_rows(named=True)}
        cells: list[Cell] = [text(group), number(part["n"][0])]
        cells += [estimate(r[lv]["rate"], r[lv]["lo"], r[lv]["hi"], r[lv]["count"]) for lv in levels]
        rows.append(cells)
    headers = [_label(by) if by else "", "games", *(f"level ≥ {lv}" for lv in levels)]
    return table(headers, rows, caption="Share of games ending at the level or above [95 % CI, Wilson], n reaching.")


def groups_section(run: Run, out: Charts) -> str:
    """Return the section comparing the groups of games (e.g. classes): outcome means, levels reached."""
    title = "Outcomes by group"
    groups = m.group_columns(run.games)
    outcomes = m.outcome_columns(run.games)
    if not groups or not outcomes:
        missing = "no enum column (other than end_reason) to group by" if not groups else "no numeric outcome column"
        return section("groups", title, note(f"The games table has {missing}; group comparison skipped."))
    parts = [
        f"<p>{esc(_GROUPS_TEXT)} Grouped by: {esc(', '.join(groups))}.</p>",
    ]
    for i, by in enumerate(groups):
        fixed = m.descriptor_columns(run.games, by, outcomes)
        names = [c for c in outcomes if c not in fixed]
        long = m.group_outcomes(run.games, by=by, columns=names).with_columns(pl.col(by).cast(pl.String))
        metric = headline(names)
        parts.append(f"<h3>By {esc(_label(by))}</h3>")
        if metric is not None:
            fig = charts.plot_group_means(long, metric=metric, by=by).figure
            parts.append(out.add(f"group_{i}_{metric}", fig, f"Mean {_label(metric)} by {_label(by)} with 95 % CIs"))
        parts.append(_group_table(long, by, fixed, _descriptors(run, by, fixed)))
        if fixed:
            parts.append(note(f"Fixed by the {_label(by)} (the same in each of its games): {', '.join(fixed)}."))
        if m.has_columns(run.games, m.LEVEL_REACHED):
            reach = m.level_reached(run.games, by=by)
            parts += [f"<h4>Levels reached, by {esc(_label(by))}</h4>", _reach_table(reach, by)]
        if m.has_columns(run.games, "end_reason"):
            parts += [f"<h4>End reasons, by {esc(_label(by))}</h4>", _reason_table(run, by)]
    return section("groups", title, *parts)


def _reason_table(run: Run, by: str) -> str:
    df = m.outcomes(run.games, by=by).filter(pl.col("kind") == "end_reason")
    reasons = sorted(df["value"].unique().to_list())
    rows = []
    for (group,), part in df.group_by(by, maintain_order=True):
        r = {x["value"]: x for x in part.iter_rows(named=True)}
        cells: list[Cell] = [text(group), number(part["n"][0])]
        cells += [
            estimate(r[v]["rate"], r[v]["lo"], r[v]["hi"], r[v]["count"]) if v in r else text("") for v in reasons
        ]
        rows.append(cells)
    return table(
        [_label(by), "games", *reasons],
        rows,
        caption="Share of the group's games ending for each reason [95 % CI, Wilson], n = such games.",
    )


_GROUPS_TEXT = (
    "Games split by each enum column of the games table other than the end reason (a character's class, "
    "...): the mean per game of every numeric outcome column, and the share of games reaching each level."
)


# -- levels -----------------------------------------------------------------------------------------


def levels_section(run: Run, unit: str, out: Charts, data: Future[SolitaireData] | None) -> str:
    """Return the level section: share of games reaching each level, and steps taken to reach it."""
    title = "Level progression"
    parts: list[str] = []
    if m.has_columns(run.games, m.LEVEL_REACHED):
        parts += ["<h3>Levels reached</h3>", _reach_table(m.level_reached(run.games), None)]
    progression = data.result().progression if data is not None else None
    if progression is not None and progression.height:
        sample = sample_note(run)
        parts += [sample] if sample else []
        parts.append(
            out.add(
                "level_progression",
                charts.plot_level_progression(progression, unit=unit).figure,
                f"{unit.capitalize()}s to reach each level",
                f"For each level, the games that play a {unit} at it (or above): the number of their first such "
                f"{unit}. Mean with 95 % CI; band: 10–90 % of those games.",
            )
        )
        rows = [
            [
                number(r["level"]),
                number(r["n"]),
                estimate(r["mean"], r["lo"], r["hi"], percent=False),
                number(r["sd"]),
                number(r["p10"]),
                number(r["median"]),
                number(r["p90"]),
                number(r["min"]),
                number(r["max"]),
            ]
            for r in progression.iter_rows(named=True)
        ]
        headers = ["level", "games reaching it", f"first {unit} at the level: mean [95 % CI]", "sd", "p10", "median"]
        parts.append(
            table(
                [*headers, "p90", "min", "max"],
                rows,
                caption=f"{unit.capitalize()} number (1 = first) of each game's first {unit} at the level or above.",
                sortable=False,
            )
        )
    if not parts:
        missing = f"games.{m.LEVEL_REACHED} or turns.{m.LEVEL}"
        return section("levels", title, note(f"The run has no {missing} column; level progression skipped."))
    return section("levels", title, *parts)


# -- how steps end ----------------------------------------------------------------------------------


def _outcome_table(df: pl.DataFrame, keys: list[str], unit: str) -> str:
    values = df["outcome"].unique(maintain_order=True).sort().to_list()
    rows = []
    for group, part in df.group_by(keys, maintain_order=True):
        r = {x["outcome"]: x for x in part.iter_rows(named=True)}
        cells: list[Cell] = [text(g) for g in group]
        cells.append(number(part["n"][0]))
        cells += [estimate(r[v]["rate"], r[v]["lo"], r[v]["hi"], r[v]["count"]) if v in r else text("") for v in values]
        rows.append(cells)
    headers = [*(_label(k) for k in keys), f"{unit}s", *values]
    return table(headers, rows, caption=f"Share of the group's {unit}s [95 % CI, Wilson], n = {unit}s ending so.")


def step_outcomes_section(unit: str, out: Charts, data: Future[SolitaireData] | None, sample: str = "") -> str:
    """Return the section on how steps end (e.g. the death rate) by level and by each enum column of turns.

    ``sample`` is a note put first (the figures come from a raw sample of the games).
    """
    plural = f"{unit}s"
    title = f"How {plural} end"
    d = data.result() if data is not None else None
    if d is None or d.outcomes is None:
        return section(
            "step-outcomes", title, note(f"The run has no turns.{m.OUTCOME} column; {unit} outcomes skipped.")
        )
    totals = m.rollup_outcomes(d.outcomes)
    parts = [*([sample] if sample else [])]
    parts.append(_outcome_table(totals.with_columns(pl.lit(f"all {plural}").alias("all")), ["all"], unit))
    for i, by in enumerate(d.by):
        df = m.rollup_outcomes(d.outcomes, by)
        fig = charts.plot_step_outcomes(df, by=by, unit=unit).figure
        parts += [
            f"<h3>By {esc(_label(by))}</h3>",
            out.add(f"step_outcomes_{i}", fig, f"How {plural} end by {_label(by)} with 95 % CIs"),
            _outcome_table(df.with_columns(pl.col(by).cast(pl.String)), [by], unit),
        ]
    if len(d.by) >= 2:
        pair = d.by[:2]
        df = m.rollup_outcomes(d.outcomes, pair).with_columns(pl.col(pair).cast(pl.String))
        parts += [f"<h3>By {esc(_label(pair[0]))} × {esc(_label(pair[1]))}</h3>", _outcome_table(df, pair, unit)]
    if d.counters is not None and d.counters.height:
        rows = [
            [text(r["counter"]), number(r["n"]), estimate(r["mean"], r["lo"], r["hi"], percent=False), number(r["sd"])]
            for r in d.counters.iter_rows(named=True)
        ]
        parts += [
            f"<h3>Per {unit} (mean over all {plural})</h3>",
            table(["column", plural, "mean [95 % CI]", "sd"], rows),
        ]
    return section("step-outcomes", title, *parts)


def length_section(run: Run, unit: str, out: Charts) -> str:
    """Return the game-length section of a solitaire run: steps per game (the games column named after them)."""
    column = f"{unit}s" if m.has_columns(run.games, f"{unit}s") else "turns"
    split = ["end_reason"] if m.has_columns(run.games, "end_reason") else []
    frame = run.games.select(pl.col(column).alias("turns"), *split)
    dist, summary = m.game_length(frame), m.game_length_summary(frame)
    label = f"{unit}s per game" if column != "turns" else "turns column of games"
    chart = out.add(
        "game_length",
        charts.plot_game_length(dist, summary=summary, unit=unit if column != "turns" else "turn").figure,
        f"Histogram of {label}",
        f"From games.{column}, stacked by end reason.",
    )
    return section("game-length", "Game length", chart, summary_table([(label, summary, "")]))


SOLITAIRE_METHODS = (
    "One-seat game: no winner, so win rates, first-seat advantage, tempo and card win rates do not apply. "
    "Outcomes by group: mean per game of every numeric outcome column of the games table (Student-t 95 % "
    "intervals), split by each enum column of it other than the end reason; columns constant within every "
    "group are shown as the group's facts. Levels reached: share of games whose final level is at least the "
    "level (Wilson 95 %). Steps to reach a level: per game, the number of its first step at that level or "
    "above, over the games reaching it. Step outcomes: share of steps ending each way (Wilson 95 %). Cards: "
    "share of games in which each card has a row (came into play), and the mean of each card counter over "
    "those rows."
)
