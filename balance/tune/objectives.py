"""The ``gradient`` and ``cards`` objectives of ``balance tune``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

import sims
from balance.cardfile import card_file, cell, edit_cards
from balance.pairs import Batch, Pool, Setup, check_value_support, pool_names
from balance.spec import SpecError
from balance.tune.measures import arm_interval, mean_interval, ratio_change, solo_tier_batch, value_change_batch
from balance.tune.options import TuneOptions, TuneResult
from balance.tune.search import Candidate, integer_columns, paired_totals, param_candidates, split
from balance.value import SUMS, ValueOptions, card_values, paired_interval


def tune_gradient(base: Setup, options: TuneOptions, band: float, pool: Pool, say: Callable[[str], None]) -> TuneResult:
    bots = sims.load(base.game).bots
    pairs = [(hi, lo) for i, hi in enumerate(bots) for lo in bots[:i]]
    candidates = [Candidate("no edit (current rules)", 0.0), *param_candidates(base, options.params)]

    def matchups(setup: Setup) -> list[tuple[str, Setup, str]]:
        out = []
        for hi, lo in pairs:
            out.append((f"{hi}>{lo}|0", Setup(**{**setup.__dict__, "bots": (hi, lo)}), "seat0_win"))
            out.append((f"{hi}>{lo}|1", Setup(**{**setup.__dict__, "bots": (lo, hi)}), "seat1_win"))
        return out

    def margins(totals: dict, tag: Any, side: str) -> dict[str, float]:
        """Return each match-up's higher-tier win rate among decided games (both seatings together)."""
        return {
            f"{hi} vs {lo}": ratio_change(sum(totals[(tag, f"{hi}>{lo}|{s}")] for s in (0, 1)))[side]
            for hi, lo in pairs
        }

    half = max(options.search_games // 2, 1)
    say(f"gradient: {len(candidates)} candidates x {2 * len(pairs)} match-ups on {half:,} games each")
    jobs = []
    for i, c in enumerate(candidates):
        edited = base.with_params(**dict(c.params))
        for (key, before, measure), (_, after, _) in zip(matchups(base), matchups(edited), strict=True):
            jobs.append(((i, key), before, after, measure))
    totals = paired_totals(pool, jobs, options.seed, half, options.batch)
    rows = []
    for i, c in enumerate(candidates):
        rates = margins(totals, i, "after")
        current = margins(totals, i, "before")
        worst = min(rates, key=lambda k: rates[k])
        rows.append(
            {"edit": c.label, "size": c.size, "worst_pair": worst, "margin": rates[worst] - 0.5,
             "margin_before": min(current.values()) - 0.5, **{f"wr[{k}]": v for k, v in rates.items()}}
        )  # fmt: skip
    search = pl.DataFrame(rows).with_columns(
        (pl.col("margin") >= band).alias("in_band"), (pl.col("margin") > pl.col("margin_before")).alias("improved")
    )
    useful = search.filter(pl.col("improved") & (pl.col("size") > 0))
    chosen = pl.concat([useful.filter(pl.col("in_band")).sort("size"), useful.filter(~pl.col("in_band"))])
    chosen = chosen.sort(pl.col("margin"), descending=True).head(options.max_proposals)
    say(f"verifying {chosen.height} proposal(s) on {options.verify_games:,} fresh games per match-up")
    by_label = {c.label: c for c in candidates}
    jobs = []
    for label in chosen["edit"].to_list():
        edited = base.with_params(**dict(by_label[label].params))
        for (key, before, measure), (_, after, _) in zip(matchups(base), matchups(edited), strict=True):
            jobs.append(((label, key), before, after, measure))
    verified = paired_totals(pool, jobs, options.fresh_seed(), max(options.verify_games // 2, 1), options.batch)
    vrows = []
    for label in chosen["edit"].to_list():
        for hi, lo in pairs:
            r = ratio_change(sum(verified[(label, f"{hi}>{lo}|{s}")] for s in (0, 1)))
            vrows.append({"edit": label, "match_up": f"{hi} vs {lo}", **r})
    now = search.filter(pl.col("size") == 0).row(0, named=True)
    summary = {
        "metric": "smallest margin over match-ups: higher tier's win rate − 50 %",
        "tiers": list(bots),
        "current_margin": now["margin"],
        "current_worst_pair": now["worst_pair"],
        "current_in_band": now["in_band"],
    }
    return TuneResult(search.sort("margin", descending=True), pl.DataFrame(vrows) if vrows else pl.DataFrame(), summary)


def tune_cards(
    base: Setup, options: TuneOptions, band: float, pool: Pool, say: Callable[[str], None], out: Path
) -> TuneResult:
    _, baseline = check_value_support(base, None)
    source = card_file(base.game, base.cards_file)
    say(f"cards: valuing every card (balance value, ±{options.value_half_width * 100:.1f} pp)")
    value_options = ValueOptions(
        baseline=baseline, half_width=options.value_half_width, budget=240, seed=options.seed,
        batch=min(options.batch, 2500), min_pairs=min(options.batch, 5000),
    )  # fmt: skip
    values, _ = card_values(base, value_options, pool=pool)
    median = float(values["delta"].median())
    values = values.with_columns((pl.col("delta") - median).alias("off"))
    outliers = values.filter(pl.col("off").abs() > band).sort(pl.col("off").abs(), descending=True)
    outliers = outliers.head(options.max_proposals)
    columns = [c for c in integer_columns(source) if c not in ("copies",)]
    names = pool_names(base)
    search_rows, chosen_cells = [], {}
    inner = pool
    for r in outliers.iter_rows(named=True):
        name, card = r["name"], names.index(r["name"])
        say(f"cards: searching edits of {name} (Δ {r['delta'] * 100:+.2f} pp, median {median * 100:+.2f} pp)")
        best = None
        for column in columns:
            now = int(cell(base.game, source, name, column))
            for step in (-1, 1, -2, 2, -3, 3):
                dest = out / "search" / f"{card:03d}-{columns.index(column):02d}-{step + 3}.csv"  # one file per edit
                try:
                    edit_cards(base.game, source, {(name, column): str(now + step)}, dest)
                except SpecError:  # a value the game refuses (out of its range): not a candidate
                    dest.unlink(missing_ok=True)
                    continue
                setup = Setup(**{**base.__dict__, "cards_file": str(dest)})
                sums = _value_sums(inner, setup, card, baseline, options.seed, options.search_games, options.batch)
                delta, lo, hi, _ = paired_interval(sums)
                row = {"card": name, "edit": f"{name}: {column} {now}→{now + step}", "size": abs(step),
                       "delta_before": r["delta"], "delta_after": delta, "after_lo": lo, "after_hi": hi,
                       "distance": abs(delta - median), "in_band": bool(abs(delta - median) <= band)}  # fmt: skip
                search_rows.append(row)
                if row["distance"] < abs(r["off"]) and (
                    best is None
                    or (row["in_band"], -row["size"], -row["distance"])
                    > (best[0]["in_band"], -best[0]["size"], -best[0]["distance"])
                ):
                    best = (row, (name, column), str(now + step))
        if best is not None:
            chosen_cells[best[1]] = best[2]
    search = pl.DataFrame(search_rows) if search_rows else pl.DataFrame()
    proposed = None
    verified_rows = []
    if chosen_cells:
        proposed = edit_cards(base.game, source, chosen_cells, out / f"proposed-{source.name}")
        after = Setup(**{**base.__dict__, "cards_file": str(proposed)})
        say(f"verifying {len(chosen_cells)} card edit(s) on {options.verify_games:,} fresh pairs each")
        for (name, column), value in chosen_cells.items():
            card = names.index(name)
            batches = [
                Batch(g, value_change_batch, (base, after, card, baseline, options.fresh_seed(), g, k))
                for g, k in split(options.verify_games, options.batch)
            ]
            total = {"before": 0, "after": 0, "change": 0}
            for done in inner.run(batches):
                total = {k: total[k] + done.result[k] for k in total}
            d_b, b_lo, b_hi, _ = arm_interval(total["before"])
            d_a, a_lo, a_hi, _ = arm_interval(total["after"])
            change, c_lo, c_hi = mean_interval(*(int(x) for x in total["change"]))
            toward = (d_b - median) * change < 0
            verified_rows.append(
                {"card": name, "edit": f"{name}: {column} {cell(base.game, source, name, column)}→{value}",
                 "n": int(total["before"][0]), "before": d_b, "before_lo": b_lo, "before_hi": b_hi,
                 "after": d_a, "after_lo": a_lo, "after_hi": a_hi, "change": change, "change_lo": c_lo,
                 "change_hi": c_hi, "median": median, "in_band": bool(abs(d_a - median) <= band),
                 "improved": bool(toward and (c_hi < 0 if d_b > median else c_lo > 0))}
            )  # fmt: skip
    summary = {"metric": "card Δ against the median card's", "median": median, "outliers": outliers.height,
               "proposed_file": str(proposed) if proposed else None, "baseline": baseline}  # fmt: skip
    verified = pl.DataFrame(verified_rows) if verified_rows else pl.DataFrame()
    return TuneResult(search, verified, summary, proposed, {"values": values})


def _value_sums(pool: Pool, setup: Setup, card: int, baseline: str, seed: int, n: int, batch: int) -> np.ndarray:
    from balance.value import value_batch

    total = np.zeros(len(SUMS), np.int64)
    for done in pool.run(Batch(g, value_batch, (setup, card, baseline, seed, g, k)) for g, k in split(n, batch)):
        total = total + done.result
    return total


def solo_column(base: Setup, wanted: str) -> str:
    """Return the outcome column a one-seat gradient compares: ``wanted``, else ``kills``, else the first outcome."""
    from balance.metrics.games import outcome_columns

    names = [n for n in sims.load(base.game).tables["games"].names if n not in ("game", "seed", "turns")]
    numeric = outcome_columns(pl.DataFrame({n: [0] for n in names}))
    if wanted:
        if wanted not in names:
            raise SpecError(f"--outcome {wanted!r}: {base.game}'s games table has {', '.join(numeric)}")
        return wanted
    return "kills" if "kills" in numeric else numeric[0]


def tune_solo_gradient(
    base: Setup, options: TuneOptions, band: float, pool: Pool, say: Callable[[str], None]
) -> TuneResult:
    """The gradient objective of a one-seat game: each higher tier's mean ``column`` at least ``band`` (relative) above
    each lower tier's, on the same characters."""
    bots = sims.load(base.game).bots
    pairs = [(hi, lo) for i, hi in enumerate(bots) for lo in bots[:i]]
    column = solo_column(base, options.outcome)
    candidates = [Candidate("no edit (current rules)", 0.0), *param_candidates(base, options.params)]
    say(
        f"gradient ({column}): {len(candidates)} candidates x {len(pairs)} tier pairs on {options.search_games:,} games"
    )

    def play_all(items: list[tuple[Any, Setup]], seed: int, n: int) -> dict[Any, np.ndarray]:
        batches = [
            Batch((key, pair), solo_tier_batch, (base, after, pair, column, seed, g, k))
            for key, after in items
            for pair in pairs
            for g, k in split(n, options.batch)
        ]
        totals: dict[Any, np.ndarray] = {}
        for done in pool.run(batches):
            totals[done.key] = totals.get(done.key, 0) + done.result
        return totals

    def margin(t: np.ndarray, side: str) -> float:
        i, low = (3, 8) if side == "after" else (1, 7)
        return float(t[i] / max(t[low], 1e-12))  # mean margin relative to the lower tier's mean

    totals = play_all([(i, base.with_params(**dict(c.params))) for i, c in enumerate(candidates)], options.seed,
                      options.search_games)  # fmt: skip
    rows = []
    for i, c in enumerate(candidates):
        rel = {f"{hi} vs {lo}": margin(totals[(i, (hi, lo))], "after") for hi, lo in pairs}
        worst = min(rel, key=lambda k: rel[k])
        before = min(margin(totals[(i, p)], "before") for p in pairs)
        rows.append({"edit": c.label, "size": c.size, "worst_pair": worst, "margin": rel[worst],
                     "margin_before": before, **{f"rel[{k}]": v for k, v in rel.items()}})  # fmt: skip
    search = pl.DataFrame(rows).with_columns(
        (pl.col("margin") >= band).alias("in_band"), (pl.col("margin") > pl.col("margin_before")).alias("improved")
    )
    useful = search.filter(pl.col("improved") & (pl.col("size") > 0)).sort("margin", descending=True)
    chosen = useful.head(options.max_proposals)["edit"].to_list()
    by_label = {c.label: c for c in candidates}
    say(f"verifying {len(chosen)} proposal(s) on {options.verify_games:,} fresh games per tier")
    verified = play_all([(label, base.with_params(**dict(by_label[label].params))) for label in chosen],
                        options.fresh_seed(), options.verify_games)  # fmt: skip
    vrows = []
    for label in chosen:
        for hi, lo in pairs:
            t = verified[(label, (hi, lo))]
            n = int(t[0])
            before, b_lo, b_hi = mean_interval(n, t[1], t[2])
            after, a_lo, a_hi = mean_interval(n, t[3], t[4])
            change, c_lo, c_hi = mean_interval(n, t[5], t[6])
            vrows.append({"edit": label, "match_up": f"{hi} vs {lo}", "n": n, "column": column,
                          "before": before, "before_lo": b_lo, "before_hi": b_hi, "after": after, "after_lo": a_lo,
                          "after_hi": a_hi, "change": change, "change_lo": c_lo, "change_hi": c_hi})  # fmt: skip
    now = search.filter(pl.col("size") == 0).row(0, named=True)
    summary = {
        "metric": f"smallest margin over tier pairs: (higher tier's mean {column} − lower's) / lower's",
        "tiers": list(bots),
        "outcome": column,
        "current_margin": now["margin"],
        "current_worst_pair": now["worst_pair"],
        "current_in_band": now["in_band"],
    }
    return TuneResult(search.sort("margin", descending=True), pl.DataFrame(vrows) if vrows else pl.DataFrame(), summary)
