"""Compare two runs of one game: paired headline metrics, unpaired card metrics, a summary.

Runs made with the same root seed share per-game seeds, decks and seat assignment where
the variants allow, so games are paired by index: every headline Δ is the mean over
common games of ``x_A,g − x_B,g`` with a t interval on those per-game differences (valid,
only wider, even if the pairing turns out weaker than hoped). Card pools may differ, so
card metrics are joined by card name and compared as independent samples (Newcombe).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from balance import stats
from balance.io import Run
from balance.metrics import sources
from balance.metrics._common import columns, info_columns
from balance.metrics.games import descriptor_columns, group_columns, outcome_columns
from balance.metrics.groups import has_first_seat
from balance.metrics.turns import TEMPO_COLUMNS

CARD_DELTAS = {"gp_wr": "GP WR", "gih_wr": "GIH WR", "iwd": "IWD", "played_wr": "Played WR"}
CARD_DELTA_METHOD = "unpaired (independent samples): Newcombe hybrid score; MOVER for IWD"


def end_reasons(*runs: Run) -> list[str]:
    """Return the ``end_reason`` values found in any of ``runs``, sorted (as text)."""
    values: set[str] = set()
    for run in runs:
        values |= set(run.games.select(pl.col("end_reason").cast(pl.String).unique()).collect().to_series())
    return sorted(v for v in values if v is not None)


def _per_game(
    run: Run, reasons: list[str] | None = None, skip: Sequence[str] = ()
) -> tuple[pl.DataFrame, dict[str, tuple[str, str]]]:
    """Return one row per game of per-game metric values, and each value's label and unit.

    Besides the fixed headline metrics: the share of games ending for each of ``reasons``
    (default: the run's own end reasons) and the mean of every numeric outcome column of
    ``games`` (:func:`~balance.metrics.games.outcome_columns`: battles per game, a
    solitaire session's kills and level reached ...) except ``skip``, so a game's own
    outcome measures are compared without special cases. The winner-based rates need
    ``games.winner`` (and ``first_seat``), which a one-seat game does not have.
    """
    have = columns(run.games)
    scores = [c for c in TEMPO_COLUMNS if c in have]
    reasons = end_reasons(run) if reasons is None else reasons
    extras = [c for c in outcome_columns(run.games) if c not in scores and c not in skip]
    reason = pl.col("end_reason").cast(pl.String)
    winner, first = pl.col("winner"), pl.col("first_seat")
    rates = {
        "seat_0_win_rate": (["winner"], winner == 0, "Seat 0 win rate"),
        "first_seat_win_rate": (["winner", "first_seat"], winner == first, "First-seat win rate"),
        "no_winner_rate": (["winner"], winner < 0, "Draw/timeout rate"),
    }
    rates = {k: v for k, v in rates.items() if all(c in have for c in v[0])}
    if "first_seat_win_rate" in rates and not has_first_seat(run.games):  # simultaneous choices: no first mover
        del rates["first_seat_win_rate"]
    unit = "turns" if run.turn_unit == "turn" else f"{run.turn_unit}s"
    frame = run.games.select(
        "game",
        "seed",
        *(expr.cast(pl.Float64).alias(key) for key, (_, expr, _) in rates.items()),
        pl.col("turns").cast(pl.Float64).alias("game_length"),
        *((reason == r).cast(pl.Float64).alias(f"end_reason[{r}]") for r in reasons),
        *(pl.col(c).cast(pl.Float64).alias(f"mean[{c}]") for c in extras),
        *(pl.col(c).cast(pl.Float64).alias(f"final_{c}") for c in scores),
    ).collect()
    meta = {key: (label, "rate") for key, (_, _, label) in rates.items()}
    meta["game_length"] = ("Mean game length", unit)
    meta.update({f"end_reason[{r}]": (f"Games ending by {r.replace('_', ' ')}", "rate") for r in reasons})
    meta.update({f"mean[{c}]": (f"Mean {c.replace('_', ' ')} per game", c.replace("_", " ")) for c in extras})
    if "bot" in columns(run.seats) and "won" in columns(run.seats):
        bots = run.seats.group_by("game", "bot").agg(pl.col("won").eq(1).cast(pl.Float64).mean()).collect()
        # a bot that fills every seat (a mirror match) always has win rate (1 - draws) / seats:
        # not a bot metric, so it is left out
        mirror = bots.group_by("bot").len()["len"].max() == bots.height
        if bots.height and not mirror:
            wide = bots.pivot(on="bot", index="game", values="won")
            wide = wide.rename({b: f"win_rate[{b}]" for b in wide.columns if b != "game"})
            frame = frame.join(wide, on="game", how="left")
            meta.update({c: (f"Win rate of {c[9:-1]}", "rate") for c in sorted(wide.columns) if c != "game"})
    leads = sources.leads_of(run)  # from the stored per-game values, else from the raw turns
    if leads is not None:
        lead = leads.with_columns(pl.col("lead_changes", "lead_for_good").cast(pl.Float64))
        frame = frame.join(lead, on="game", how="left")
        meta["lead_changes"] = ("Mean lead changes per game", "changes")
        unit = run.turn_unit  # "turn", or e.g. "battle" when the turns table has one row per battle
        meta["lead_for_good"] = (f"Mean {unit} winner leads for good", unit)
    meta.update({f"final_{c}": (f"Mean final score of seat {c[-1]}", "points") for c in scores})
    return frame, meta


def per_game_metrics(
    run: Run, reasons: list[str] | None = None, skip: Sequence[str] = ()
) -> tuple[pl.DataFrame, dict[str, tuple[str, str]]]:
    """Return one row per game of the headline metric values and each metric's ``(label, unit)``.

    The per-game values :func:`compare_runs` pairs (win indicators, game length, end-reason
    shares, outcome columns ...); ``balance sweep`` uses them for every point of a sweep.
    """
    return _per_game(run, reasons, skip)


def pairing(a: Run, b: Run) -> pl.DataFrame:
    """Return how well two runs pair up: ``n_a, n_b, n_paired, same_seed`` (one row).

    ``same_seed`` counts paired games whose per-game seeds are equal; it equals
    ``n_paired`` for runs made with the same root seed.
    """
    ga, gb = a.games.select("game", "seed").collect(), b.games.select("game", "seed").collect()
    joined = ga.join(gb, on="game", suffix="_b")
    return pl.DataFrame(
        {
            "n_a": [ga.height],
            "n_b": [gb.height],
            "n_paired": [joined.height],
            "same_seed": [int((joined["seed"] == joined["seed_b"]).sum())],
        }
    )


def compare_runs(a: Run, b: Run) -> pl.DataFrame:
    """Return headline metrics of two runs side by side with paired differences.

    Columns: ``metric, label, unit, n, value_a, value_b, delta, lo, hi, p_value,
    significant``. Games are paired by index; ``n`` counts the games where the metric
    is defined in both runs (e.g. decided games for ``lead_for_good``), and ``value_a``/
    ``value_b`` are means over those same games, so ``delta = value_a − value_b``. ``lo``/
    ``hi`` bound delta (95 %, t on per-game differences); ``significant`` means the
    interval excludes 0 (no multiple-comparison correction). Rates are fractions (unit
    ``rate``). Per-bot win rates appear only when both runs have the same bots and at least
    two different bots play. Winner-based rows need ``games.winner``: for a one-seat game
    the headline is the game length, the end-reason shares and the mean of each outcome
    column, leaving out the columns fixed by a group (:func:`fixed_columns`: a class's
    rank and suit are the same in every paired game).
    """
    reasons = end_reasons(a, b)
    skip = [c for _, cols in fixed_columns(a, b).items() for c in cols]
    fa, meta_a = _per_game(a, reasons, skip)
    fb, meta_b = _per_game(b, reasons, skip)
    bots_a = {k for k in meta_a if k.startswith("win_rate[")}
    bots_b = {k for k in meta_b if k.startswith("win_rate[")}
    keep = [k for k in meta_a if k in meta_b and (not k.startswith("win_rate[") or bots_a == bots_b)]
    joined = fa.join(fb, on="game", suffix="\0b")
    rows = []
    for key in keep:
        r = stats.paired_difference(
            joined[key].fill_null(np.nan).to_numpy(), joined[f"{key}\0b"].fill_null(np.nan).to_numpy()
        )
        label, unit = meta_a[key]
        rows.append((key, label, unit, r.n, r.mean_a, r.mean_b, r.delta, r.lo, r.hi, r.p_value))
    schema = ["metric", "label", "unit", "n", "value_a", "value_b", "delta", "lo", "hi", "p_value"]
    out = pl.DataFrame(rows, schema=schema, orient="row").fill_nan(None)
    return out.with_columns(((pl.col("lo") > 0) | (pl.col("hi") < 0)).fill_null(False).alias("significant"))


def fixed_columns(a: Run, b: Run) -> dict[str, list[str]]:
    """Return, per group column of ``a.games`` (:func:`group_columns`), the outcome columns it fixes in both runs.

    A column is fixed by a group column when it is constant within each of its groups over
    the games of both runs together (:func:`~balance.metrics.games.descriptor_columns`):
    e.g. a solitaire class's rank and suit, or a starting level every session shares. Its
    paired difference is 0 by construction, so comparisons leave it out.
    """
    out: dict[str, list[str]] = {}
    for by in group_columns(a.games):
        if by not in columns(b.games):
            continue
        candidates = [c for c in outcome_columns(a.games) if c in columns(b.games)]
        both = pl.concat([r.games.select(by, *candidates) for r in (a, b)], how="vertical_relaxed")
        fixed = descriptor_columns(both, by, candidates)
        if fixed:
            out[by] = fixed
    return out


def compare_groups(
    a: Run, b: Run, *, by: Sequence[str] | None = None, metrics: Sequence[str] | None = None
) -> pl.DataFrame:
    """Return the paired differences of outcome columns within each group of games.

    Long format ``column, group, metric, n, value_a, value_b, delta, sd, lo, hi, p_value,
    significant``: games are paired by index (as :func:`compare_runs`), grouped by the
    value of ``column`` in run A (``by``, default :func:`group_columns` of ``a.games``:
    a solitaire character's class), and for each ``metric`` (default: the outcome columns
    both runs share, less those the group fixes) ``delta`` is the mean of ``x_A − x_B``
    over the group's ``n`` paired games with a t interval (95 %).

    Examples
    --------
    A paired-difference table per class, from two runs ``a`` and ``b``::

        compare_groups(a, b, by=["class_card"], metrics=["kills"])
    """
    groups = group_columns(a.games) if by is None else list(by)
    schema = {"column": pl.String, "group": pl.String, "metric": pl.String, "n": pl.Int64}
    schema |= {c: pl.Float64 for c in ("value_a", "value_b", "delta", "sd", "lo", "hi", "p_value")}
    parts = []
    fixed = fixed_columns(a, b) if metrics is None else {}
    shared = [c for c in outcome_columns(a.games) if c in columns(b.games)] if metrics is None else list(metrics)
    for column in groups:
        names = [c for c in shared if c not in fixed.get(column, [])]
        if not names:
            continue
        side_a = a.games.select("game", pl.col(column).cast(pl.String).alias("group"), *names)
        side_b = b.games.select("game", *(pl.col(c).alias(f"{c}\0b") for c in names))
        joined = side_a.join(side_b, on="game")
        aggs = [pl.len().cast(pl.Int64).alias("n")]
        for c in names:
            x, y = pl.col(c).cast(pl.Float64), pl.col(f"{c}\0b").cast(pl.Float64)
            aggs += [
                x.mean().alias(f"{c}\0a"),
                y.mean().alias(f"{c}\0mb"),
                (x - y).mean().alias(f"{c}\0d"),
                (x - y).std().alias(f"{c}\0sd"),
            ]
        wide = joined.group_by("group").agg(aggs).sort("group").collect()
        for c in names:
            parts.append(
                wide.select(
                    pl.lit(column).alias("column"),
                    "group",
                    pl.lit(c).alias("metric"),
                    "n",
                    pl.col(f"{c}\0a").alias("value_a"),
                    pl.col(f"{c}\0mb").alias("value_b"),
                    pl.col(f"{c}\0d").alias("delta"),
                    pl.col(f"{c}\0sd").alias("sd"),
                )
            )
    if not parts:
        return pl.DataFrame(schema=schema).with_columns(pl.lit(False).alias("significant"))
    out = pl.concat(parts)
    d, sd, n = (out[c].fill_null(np.nan).to_numpy().astype(float) for c in ("delta", "sd", "n"))
    _, lo, hi = stats.mean_ci_stats(d, sd, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = stats.p_value(d, sd / np.sqrt(n), df=n - 1)
    out = out.with_columns(
        pl.Series("lo", lo, nan_to_null=True),
        pl.Series("hi", hi, nan_to_null=True),
        pl.Series("p_value", p, nan_to_null=True),
    )
    finite = pl.col("lo").is_finite() & pl.col("hi").is_finite()
    significant = (finite & ((pl.col("lo") > 0) | (pl.col("hi") < 0))).fill_null(False)
    return out.with_columns(significant.alias("significant"))


def compare_cards(a: Run, b: Run) -> pl.DataFrame:
    """Return GP WR, GIH WR, IWD and played WR per card name in both runs, with deltas.

    For each metric ``m`` in ``gp_wr, gih_wr, iwd, played_wr``: ``m_a, m_b, m_n_a, m_n_b``
    (for IWD the GIH counts), ``m_delta`` = A − B, ``m_delta_lo``/``m_delta_hi`` (95 %)
    and ``m_significant``. The deltas are **unpaired** (column ``delta_method``): the
    card samples of the two runs are treated as independent. Cards in only one pool get
    nulls on the other side. Empty when either run has no cards table or its cards
    table has no win columns (:func:`~balance.metrics.cards.has_card_values`). Card figures
    come from the runs' stored sums when they have them (:mod:`balance.metrics.sources`).
    """
    va, vb = sources.card_values_of(a), sources.card_values_of(b)
    if va is None or vb is None:
        return pl.DataFrame(schema={"name": pl.String})
    info = [c for c in info_columns(a.card_dim) if c in va.columns]
    wanted = []
    for m in CARD_DELTAS:
        wanted += [m, f"{m}_lo", f"{m}_hi"] + ([f"{m}_n"] if m != "iwd" else ["gih_wr_n"])
    wanted = list(dict.fromkeys(wanted))
    side_a = va.select("name", *info, *(pl.col(c).alias(f"{c}_a") for c in wanted))
    side_b = vb.select("name", *(pl.col(c).alias(f"{c}_b") for c in wanted))
    out = side_a.join(side_b, on="name", how="full", coalesce=True).sort("name")
    cols: dict[str, object] = {}
    for m in CARD_DELTAS:
        if m == "iwd":
            est = stats.mover(
                *(out[f"{c}_{s}"].fill_null(np.nan).to_numpy() for s in "ab" for c in ("iwd", "iwd_lo", "iwd_hi"))
            )
            n_a, n_b = out["gih_wr_n_a"], out["gih_wr_n_b"]
        else:
            n_a, n_b = out[f"{m}_n_a"], out[f"{m}_n_b"]
            k_a = (out[f"{m}_a"] * n_a).round().fill_null(np.nan).to_numpy()
            k_b = (out[f"{m}_b"] * n_b).round().fill_null(np.nan).to_numpy()
            est = stats.newcombe(k_a, n_a.fill_null(0).to_numpy(), k_b, n_b.fill_null(0).to_numpy())
            missing = np.isnan(k_a) | np.isnan(k_b)
            est = stats.Interval(*(np.where(missing, np.nan, x) for x in est))
        cols.update(
            {
                f"{m}_a": out[f"{m}_a"],
                f"{m}_b": out[f"{m}_b"],
                f"{m}_n_a": n_a,
                f"{m}_n_b": n_b,
                f"{m}_delta": pl.Series(est.estimate, nan_to_null=True),
                f"{m}_delta_lo": pl.Series(est.lo, nan_to_null=True),
                f"{m}_delta_hi": pl.Series(est.hi, nan_to_null=True),
                f"{m}_significant": pl.Series(stats.significant(est.lo, est.hi) & ~np.isnan(est.estimate)),
            }
        )
    result = out.select("name", *info).with_columns(**cols)
    return result.with_columns(pl.lit(CARD_DELTA_METHOD).alias("delta_method"))


def _fmt(x: float, unit: str, *, magnitude: bool = True) -> str:
    x = abs(x) if magnitude else x
    if unit == "rate":
        return f"{x * 100:.1f}"
    return f"{x:.2f}" if abs(x) < 10 else f"{x:.1f}"


def summarize_comparison(
    runs: pl.DataFrame, *, label_a: str = "A", label_b: str = "B", cards: pl.DataFrame | None = None
) -> list[str]:
    """Return plain-language sentences on what changed significantly from B to A.

    ``runs`` is :func:`compare_runs` output and ``cards`` optionally :func:`compare_cards`
    output. Sentences are plain text (escape them before putting them in HTML).

    Examples
    --------
    >>> runs = pl.DataFrame({"metric": ["game_length"], "label": ["Mean game length"], "unit": ["turns"],
    ...     "n": [1000], "value_a": [40.1], "value_b": [37.0], "delta": [3.1], "lo": [2.9], "hi": [3.3],
    ...     "p_value": [1e-9], "significant": [True]})
    >>> summarize_comparison(runs, label_a="digital", label_b="tabletop")[0]
    'Games are 3.10 turns longer under digital than under tabletop (95 % CI 2.90–3.30; 40.1 vs 37.0).'
    """
    lines, quiet = [], []
    for row in runs.iter_rows(named=True):
        if not row["significant"]:
            quiet.append(row["label"])
            continue
        up = row["delta"] > 0
        lo, hi = (row["lo"], row["hi"]) if up else (-row["hi"], -row["lo"])
        unit = row["unit"]
        ci = f"95 % CI {_fmt(lo, unit)}–{_fmt(hi, unit)}"
        if unit == "rate":
            size, values = (
                f"{_fmt(row['delta'], unit)} percentage points",
                f"{row['value_a']:.1%} vs {row['value_b']:.1%}",
            )
        else:
            size, values = (
                f"{_fmt(row['delta'], unit)} {unit}",
                f"{_fmt(row['value_a'], unit, magnitude=False)} vs {_fmt(row['value_b'], unit, magnitude=False)}",
            )
        where = f"under {label_a} than under {label_b}"
        if row["metric"] == "game_length":
            lines.append(f"Games are {size} {'longer' if up else 'shorter'} {where} ({ci}; {values}).")
        else:
            lines.append(f"{row['label']} is {size} {'higher' if up else 'lower'} {where} ({ci}; {values}).")
    if not lines:
        lines.append(f"No headline metric differs significantly (95 %) between {label_a} and {label_b}.")
    if quiet:
        lines.append("No significant difference in: " + ", ".join(quiet) + ".")
    if cards is not None and "gih_wr_significant" in cards.columns and cards.height:
        flagged = cards.filter(pl.col("gih_wr_significant")).sort(pl.col("gih_wr_delta").abs(), descending=True)
        known = cards.filter(pl.col("gih_wr_delta").is_not_null()).height
        head = ", ".join(
            f"{r['name']} ({r['gih_wr_delta'] * 100:+.1f} pp)" for r in flagged.head(8).iter_rows(named=True)
        )
        lines.append(
            f"GIH WR differs significantly for {flagged.height} of {known} cards (unpaired, 95 %; about 5 % are "
            f"flagged by chance alone){': ' + head if head else ''}."
        )
    return lines
