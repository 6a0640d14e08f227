"""Report section on steps: games whose turns table has one row per battle (or round, ...)."""

from __future__ import annotations

from concurrent.futures import Future
from typing import NamedTuple

import polars as pl

from balance import charts
from balance import metrics as m
from balance.aggregates import STEPS
from balance.io import Run
from balance.metrics import sources
from balance.report.html import Cell, Charts, estimate, note, number, section, table, text
from balance.report.tables import summary_table

IN_MEMORY_ROWS = 150_000_000  # up to this many step rows, read the needed columns once


class StepData(NamedTuple):
    """The step metrics of a run (see :mod:`balance.metrics.steps`)."""

    per_game: pl.DataFrame  # steps_per_game
    endings: pl.DataFrame  # step_endings
    openers: pl.DataFrame  # step_openers
    openers_by_how: pl.DataFrame  # step_openers(by="how")
    counters: pl.DataFrame  # step_counters


def shows_steps(run: Run, unit: str) -> bool:
    """Return whether the report has a steps section: rows are not turns and say who won and how."""
    if sources.from_sums(run):
        steps = sources.sums(run, STEPS)
        return unit != "turn" and steps is not None and {"how", "decided", "opener_wins"} <= set(steps.columns)
    return unit != "turn" and m.has_steps(run.turns)


def step_data(run: Run, unit: str) -> StepData:
    """Compute the step metrics from the run's stored sums, else reading the turns table once when it fits."""
    if sources.from_sums(run):
        sums = sources.sums(run, STEPS)
        assert sums is not None
        per_game = run.sums.per_game if run.sums is not None else None
        return StepData(
            m.steps_per_game(None, run.games, count_column=f"{unit}s", per_game=per_game),
            m.step_endings_from(sums),
            m.step_openers_from(sums),
            m.step_openers_from(sums, by="how"),
            m.step_counters_from(sums),
        )
    assert run.turns is not None
    turns = run.turns
    if turns.select(pl.len()).collect().item() <= IN_MEMORY_ROWS:
        keep = ["game", "seat", *m.STEP_COLUMNS, *m.step_counter_columns(turns)]
        turns = turns.select(keep).collect().lazy()
    return StepData(
        m.steps_per_game(turns, run.games, count_column=f"{unit}s"),
        m.step_endings(turns),
        m.step_openers(turns),
        m.step_openers(turns, by="how"),
        m.step_counters(turns),
    )


def _opener_rows(df: pl.DataFrame, label: str | None) -> list[list[Cell]]:
    return [
        [
            text(r[label] if label else "all"),
            number(r["steps"]),
            estimate(r["drawn_rate"], r["drawn_lo"], r["drawn_hi"], r["drawn"]),
            number(r["n"]),
            estimate(r["rate"], r["lo"], r["hi"], r["opener_wins"]),
        ]
        for r in df.iter_rows(named=True)
    ]


def steps_section(unit: str, out: Charts, data: Future[StepData], sample: str = "") -> str:
    """Return the section titled after the unit (``Battles``): count, endings, openers, means.

    ``sample`` is a note put first (the figures come from a raw sample of the games).
    """
    d = data.result()
    plural = f"{unit}s"
    summary = m.summarize(d.per_game, "steps")
    parts = [
        *([sample] if sample else []),
        out.add(
            "steps_per_game",
            charts.plot_steps_per_game(m.distribution(d.per_game, "steps"), summary=summary, unit=unit).figure,
            f"Histogram of {plural} per game",
        ),
        summary_table([(f"{plural} per game", summary, "")]),
        f"<h3>How {plural} end</h3>",
        table(
            ["how", plural, f"share of {plural} [95 % CI]"],
            [
                [text(r["how"]), number(r["count"]), estimate(r["rate"], r["lo"], r["hi"], r["n"])]
                for r in d.endings.iter_rows(named=True)
            ],
        ),
        f"<h3>Won by the seat that opened the {unit}</h3>",
        table(
            [
                "group",
                plural,
                "drawn: share of all [95 % CI], n drawn",
                "decided",
                "won by opener: share of decided [95 % CI], n won",
            ],
            _opener_rows(d.openers, None) + _opener_rows(d.openers_by_how, "how"),
            caption=f"The opener is the seat that took the {unit}'s first turn; drawn {plural} (no winner) "
            "are left out of the share won. Rows below the first split by how the " + unit + " ended.",
            sortable=False,
        ),
    ]
    if d.counters.height:
        rows = [
            [
                text(r["counter"]),
                number(r["n"]),
                estimate(r["mean"], r["lo"], r["hi"], percent=False),
                number(r["sd"]),
            ]
            for r in d.counters.iter_rows(named=True)
        ]
        parts += [
            f"<h3>Per {unit} (mean over all {plural})</h3>",
            table(["column", plural, "mean [95 % CI]", "sd"], rows),
        ]
    else:
        parts.append(note(f"The turns table has no other numeric column to average per {unit}."))
    return section("steps", plural.capitalize(), *parts)
