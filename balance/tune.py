"""Auto-balance proposals (``balance tune``): search small edits, keep the smallest that reach the target band,
and verify each on fresh seeds, before and after side by side.

Objectives:

- ``first_seat``: the first-seat advantage (first-seat win rate among decided games − 50 %)
  within ``±band`` (default 1 pp), by editing one rule parameter (or two).
- ``cards``: every card's counterfactual Δ within ``±band`` (default 2 pp) of the median
  card's, by editing the stats of the cards furthest out (one column ±1, ±2 ... per card).
- ``gradient``: the bot tiers (``GameSpec.bots`` order: a later bot is a higher tier) in
  order, each higher tier beating each lower one by at least ``band`` (default 5 pp), by
  editing one rule parameter; the objective is the smallest such margin.

The search plays ``search_games`` (or pairs) per candidate on the search seed; the
proposals are then replayed on a fresh seed (``verify_seed``) with ``verify_games`` per
arm, before (the current rules or card file) and after (the proposal) on the same games,
and the change comes with its paired 95 % interval. The user's card file is never
edited: a card proposal is written as a copy, ``DIR/proposed-<file>``.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

import sims
from balance.cardfile import card_columns, card_file, cell, edit_cards
from balance.pairs import Batch, Pool, Setup, check_value_support, play, pool_names
from balance.spec import SpecError, resolve
from balance.value import SUMS, ValueOptions, arms, card_values, paired_interval

OBJECTIVES = ("cards", "first_seat", "gradient")
DEFAULT_BAND = {"cards": 0.02, "first_seat": 0.01, "gradient": 0.05}


@dataclass(frozen=True)
class TuneOptions:
    """Sizes, seeds and limits of a tune run."""

    band: float | None = None  # None: DEFAULT_BAND of the objective
    search_games: int = 20_000  # games (pairs for ``cards``) per candidate on the search seed
    verify_games: int = 40_000  # games (pairs) per arm on the verify seed
    seed: int = 1
    verify_seed: int = 0  # 0: seed + 1_000_003 (fresh seeds, never those of the search)
    workers: int = 0
    batch: int = 5_000
    max_proposals: int = 3  # proposals verified (first_seat, gradient); cards edited (cards)
    params: tuple[str, ...] = ()  # rule parameters the search may edit; empty = every eligible one
    value_half_width: float = 0.01  # cards: the half-width every card's Δ is first measured to

    def fresh_seed(self) -> int:
        """Return the verification seed."""
        return self.verify_seed or self.seed + 1_000_003


# -- per-game measures played in workers ------------------------------------------------------


def outcome_codes(games: np.ndarray, measure: str) -> np.ndarray:
    """Return each game's outcome for ``measure``'s seat: 0 = it won, 1 = the other seat won, 2 = no winner.

    ``measure`` is ``first_win`` (the seat that moved first) or ``seat<k>_win`` (seat ``k``).
    """
    if measure == "first_win":
        seat = games["first_seat"].astype(np.int64)
    elif measure.startswith("seat") and measure.endswith("_win"):
        seat = np.full(len(games), int(measure[4:-4]), dtype=np.int64)
    else:
        raise ValueError(measure)
    winner = games["winner"].astype(np.int64)
    return np.where(winner < 0, 2, np.where(winner == seat, 0, 1))


def paired_batch(before: Setup, after: Setup, measure: str, seed: int, first: int, n: int) -> np.ndarray:
    """Play games ``[first, first + n)`` under both setups; return the 3 x 3 table of joint outcomes (int64[9]).

    Cell ``3 * i + j`` counts the games whose outcome (:func:`outcome_codes`) is ``i`` under
    ``before`` and ``j`` under ``after``: everything :func:`ratio_change` needs.
    """
    a = play(after, seed, first, n)["games"]
    b = play(before, seed, first, n)["games"] if before != after else a
    cells = 3 * outcome_codes(b, measure) + outcome_codes(a, measure)
    return np.bincount(cells, minlength=9).astype(np.int64)


def ratio_change(table: np.ndarray) -> dict[str, float]:
    """Return the win rate among decided games before and after (Wilson 95 %) and its paired change.

    ``table`` is :func:`paired_batch`'s joint outcome counts. The change ``r_after −
    r_before`` of the two ratios ``wins / decided`` gets a delta-method interval over the
    paired games: each game contributes ``(w − r d) / d̄`` in each arm, and the interval is
    the t interval of the per-game difference of those contributions.

    Examples
    --------
    >>> t = np.array([40, 10, 0, 5, 45, 0, 0, 0, 0])  # before: 50 of 100 won; after: 45 won
    >>> r = ratio_change(t)
    >>> round(r["before"], 2), round(r["after"], 2), round(r["change"], 2)
    (0.5, 0.45, -0.05)
    """
    from balance import stats

    counts = np.asarray(table, dtype=float).reshape(3, 3)  # [before outcome, after outcome]
    n = counts.sum()
    won_b, dec_b = counts[0].sum(), counts[:2].sum()
    won_a, dec_a = counts[:, 0].sum(), counts[:, :2].sum()
    out = {"n": int(n), "decided_before": int(dec_b), "decided_after": int(dec_a)}
    for side, k, d in (("before", won_b, dec_b), ("after", won_a, dec_a)):
        est = stats.wilson(int(k), int(d))
        out[side], out[f"{side}_lo"], out[f"{side}_hi"] = (float(np.asarray(v).reshape(-1)[0]) for v in est)
    if n < 2 or not dec_a or not dec_b:
        return {**out, "change": float("nan"), "change_lo": float("nan"), "change_hi": float("nan")}
    r_b, r_a = won_b / dec_b, won_a / dec_a
    win, dec = np.array([1.0, 0.0, 0.0]), np.array([1.0, 1.0, 0.0])
    u_b = (win - r_b * dec) / (dec_b / n)  # by before outcome
    u_a = (win - r_a * dec) / (dec_a / n)  # by after outcome
    z = u_a[None, :] - u_b[:, None]
    var = float((counts * z * z).sum() / (n - 1))
    est = stats.mean_ci_stats(np.array([r_a - r_b]), np.array([np.sqrt(var)]), np.array([int(n)]))
    return {**out, "change": r_a - r_b, "change_lo": float(est.lo[0]), "change_hi": float(est.hi[0])}


def value_change_batch(
    before: Setup, after: Setup, card: int, baseline: str, seed: int, first: int, n: int
) -> dict[str, np.ndarray]:
    """Play the card's two value arms under both card files; return paired sums of Δ before, after and the change."""
    won = {}
    for key, setup in (("before", before), ("after", after)):
        for arm, s in zip((0, 1), arms(setup, card, baseline), strict=True):
            g = play(s, seed, first, n)["games"]
            won[key, arm] = (g["winner"] == g["game"] % 2).astype(np.int64)
    d_before = won["before", 0] - won["before", 1]
    d_after = won["after", 0] - won["after", 1]
    change = d_after - d_before
    return {
        "before": np.array([n, won["before", 0].sum(), won["before", 1].sum(), int((d_before != 0).sum())]),
        "after": np.array([n, won["after", 0].sum(), won["after", 1].sum(), int((d_after != 0).sum())]),
        "change": np.array([n, int(change.sum()), int((change * change).sum())]),
    }


def _interval(sums: np.ndarray) -> tuple[float, float, float, float]:
    """Return ``paired_interval`` of the first four paired sums."""
    full = np.zeros(len(SUMS), np.int64)
    full[:4] = sums[:4]
    return paired_interval(full)


def mean_interval(n: int, total: int, squares: int) -> tuple[float, float, float]:
    """Return the mean of integer values from their count, sum and sum of squares, with a 95 % t interval."""
    from balance import stats

    if n < 2:
        return float("nan"), float("nan"), float("nan")
    mean = total / n
    sd = np.sqrt(max((squares - n * mean * mean) / (n - 1), 0.0))
    est = stats.mean_ci_stats(np.array([mean]), np.array([sd]), np.array([n]))
    return mean, float(est.lo[0]), float(est.hi[0])


# -- candidates ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """A proposed edit: rule parameters (``params``) or card cells (``cells``: (card, column) -> value)."""

    label: str
    size: float  # smaller = a smaller edit (number of changes, then how far)
    params: tuple[tuple[str, Any], ...] = ()
    cells: tuple[tuple[tuple[str, str], str], ...] = ()


def param_candidates(base: Setup, allowed: tuple[str, ...] = ()) -> list[Candidate]:
    """Return one-parameter edits of ``base``: integers ±1 and ±2, every other value of a choice, flags flipped.

    Left out: the ``value_*`` parameters, caps (``max_*``), flag sets (e.g. ``card_sets``)
    and any value the game refuses (its ``prepare_pool`` checks).
    """
    game = sims.load(base.game)
    current = game.make_params(base.variant, dict(base.params))
    out = []
    for key, value in current._asdict().items():
        if key.startswith("value_") or key.startswith("max_") or (allowed and key not in allowed):
            continue
        choice = game.choices.get(key)
        if choice is not None and issubclass(choice, enum.Flag):
            continue
        if choice is not None:  # a value such as a fixed deck needs input the search does not have
            options = [int(m.value) for m in choice if int(m.value) != value and m.name.lower() != "fixed"]
            names = {int(m.value): m.name.lower() for m in choice}
            out += [Candidate(f"{key} = {names[v]} (was {names[value]})", 1.0, ((key, v),)) for v in options]
            continue
        for step in (-1, 1, -2, 2):
            new = value + step
            if new < 0:
                continue
            out.append(Candidate(f"{key} = {new} (was {value})", 1.0 + abs(step) / 10, ((key, new),)))
    valid = []
    for c in out:
        try:
            resolve(base.with_params(**dict(c.params)).run_spec())
        except SpecError:
            continue
        valid.append(c)
    return valid


def integer_columns(path: Path) -> list[str]:
    """Return the card-file columns whose every cell is a whole number (the stats a search may edit)."""
    import csv

    rows = list(csv.DictReader(path.read_text(encoding="utf-8-sig").splitlines()))
    out = []
    for column in card_columns(path):
        cells = [r[column].strip() for r in rows if r.get(column) is not None]
        if cells and all(c.lstrip("-").isdigit() for c in cells):
            out.append(column)
    return out


# -- the search --------------------------------------------------------------------------------


@dataclass
class TuneResult:
    """What ``tune`` found: searched candidates, verified proposals, a summary, the proposed card file."""

    search: pl.DataFrame
    verified: pl.DataFrame
    summary: dict[str, Any]
    proposed_file: Path | None = None
    extra: dict[str, pl.DataFrame] = field(default_factory=dict)


def tune(
    base: Setup, objective: str, options: TuneOptions, out: Path, *, progress: Callable[[str], None] | None = None
) -> TuneResult:
    """Search and verify edits for ``objective`` (see the module docstring); write nothing but card-file copies."""
    if objective not in OBJECTIVES:
        raise SpecError(f"--objective {objective!r}: choose {', '.join(OBJECTIVES)}")
    band = options.band if options.band is not None else DEFAULT_BAND[objective]
    say = progress or (lambda _m: None)
    game = sims.load(base.game)
    if objective in ("first_seat", "gradient") and game.seats != 2:
        raise SpecError(f"--objective {objective} needs a two-seat game; {base.game} has {game.seats} seat")
    with Pool(options.workers) as pool:
        if objective == "first_seat":
            result = _tune_first_seat(base, options, band, pool, say)
        elif objective == "gradient":
            result = _tune_gradient(base, options, band, pool, say)
        else:
            result = _tune_cards(base, options, band, pool, say, out)
    result.summary.update(
        game=base.game,
        variant=base.variant or game.default_variant,
        bots=list(base.bots),
        objective=objective,
        band=band,
        seed=options.seed,
        verify_seed=options.fresh_seed(),
        search_games=options.search_games,
        verify_games=options.verify_games,
    )
    return result


def _split(n: int, batch: int) -> list[tuple[int, int]]:
    return [(g, min(batch, n - g)) for g in range(0, n, batch)]


def _paired(
    pool: Pool, jobs: list[tuple[Any, Setup, Setup, str]], seed: int, n: int, batch: int
) -> dict[Any, np.ndarray]:
    """Play every ``(key, before, after, measure)`` job on games ``0 .. n-1`` of ``seed``; return summed sums by key."""
    batches = [
        Batch((key, g), paired_batch, (before, after, measure, seed, g, k))
        for key, before, after, measure in jobs
        for g, k in _split(n, batch)
    ]
    totals: dict[Any, np.ndarray] = {}
    for done in pool.run(batches):
        key = done.key[0]
        totals[key] = totals.get(key, 0) + done.result
    return totals


def _first_seat_row(label: str, size: float, table: np.ndarray, band: float) -> dict[str, Any]:
    """Return a candidate's first-seat advantage before and after, and the paired change (all as rate − 0.5)."""
    r = ratio_change(table)
    row = {"edit": label, "size": size, "n": r["n"]}
    for key in ("before", "after"):
        row.update({key: r[key] - 0.5, f"{key}_lo": r[f"{key}_lo"] - 0.5, f"{key}_hi": r[f"{key}_hi"] - 0.5})
    row.update(change=r["change"], change_lo=r["change_lo"], change_hi=r["change_hi"])
    before, after = row["before"], row["after"]
    closer = abs(after) < abs(before)
    row["in_band"] = bool(abs(after) <= band)
    row["closer"] = bool(closer)
    row["improved"] = bool(closer and (r["change_hi"] < 0 if before > 0 else r["change_lo"] > 0))
    return row


def _tune_first_seat(
    base: Setup, options: TuneOptions, band: float, pool: Pool, say: Callable[[str], None]
) -> TuneResult:
    candidates = param_candidates(base, options.params)
    say(f"first_seat: {len(candidates)} one-parameter edits on {options.search_games:,} games each")
    jobs = [(i, base, base.with_params(**dict(c.params)), "first_win") for i, c in enumerate(candidates)]
    totals = _paired(pool, jobs, options.seed, options.search_games, options.batch)
    rows = [
        _first_seat_row(candidates[i].label, candidates[i].size, totals[i], band) for i in _distinct(candidates, totals)
    ]
    search = pl.DataFrame(rows).with_columns(pl.col("after").abs().alias("distance")) if rows else pl.DataFrame()
    chosen = _choose(search, options.max_proposals)
    if search.height and not chosen.filter(pl.col("in_band")).height:  # no single edit reaches the band: try two
        pairs = _pair_candidates(candidates, search, options.max_proposals)
        jobs = [(i, base, base.with_params(**dict(c.params)), "first_win") for i, c in enumerate(pairs)]
        more = _paired(pool, jobs, options.seed, options.search_games, options.batch)
        extra = [_first_seat_row(c.label, c.size, more[i], band) for i, c in enumerate(pairs)]
        if extra:
            search = pl.concat([search, pl.DataFrame(extra).with_columns(pl.col("after").abs().alias("distance"))])
            chosen = _choose(search, options.max_proposals)
    say(f"verifying {chosen.height} proposal(s) on {options.verify_games:,} fresh games each")
    by_label = {c.label: c for c in [*candidates, *(_pair_candidates(candidates, search, options.max_proposals))]}
    jobs = [(r, base, base.with_params(**dict(by_label[r].params)), "first_win") for r in chosen["edit"].to_list()]
    verified = _paired(pool, jobs, options.fresh_seed(), options.verify_games, options.batch)
    rows = [_first_seat_row(r, by_label[r].size, verified[r], band) for r in chosen["edit"].to_list()]
    table = pl.DataFrame(rows) if rows else pl.DataFrame()
    summary = {"metric": "first-seat advantage (first-seat win rate among decided games − 50 %)"}
    return TuneResult(search.sort("distance", "size") if search.height else search, table, summary)


def _distinct(candidates: list[Candidate], totals: dict[Any, np.ndarray]) -> list[int]:
    """Return the indices of the candidates that played games of their own.

    Of edits with identical results (a flag set to 2 instead of 1, an excluded cost no card
    has) only the smallest is kept; edits under which no game was decided are dropped.
    """
    seen: dict[bytes, int] = {}
    for i in sorted(range(len(candidates)), key=lambda i: candidates[i].size):
        if totals[i].reshape(3, 3)[:, :2].sum():  # some game was decided
            seen.setdefault(totals[i].tobytes(), i)
    return sorted(seen.values())


def _choose(search: pl.DataFrame, k: int) -> pl.DataFrame:
    """Return the smallest edits in band (then the closest), at most ``k``; only edits that moved toward the band."""
    if not search.height:
        return search
    useful = search.filter(pl.col("closer"))
    in_band = useful.filter(pl.col("in_band")).sort("size", "distance")
    rest = useful.filter(~pl.col("in_band")).sort("distance", "size")
    return pl.concat([in_band, rest]).head(k)


def _pair_candidates(candidates: list[Candidate], search: pl.DataFrame, k: int) -> list[Candidate]:
    """Return two-parameter edits made of the best improving single edits (different parameters)."""
    best = search.filter(pl.col("closer") & (pl.col("size") < 2)).sort("distance").head(k + 1)["edit"].to_list()
    by_label = {c.label: c for c in candidates}
    singles = [by_label[b] for b in best if b in by_label]
    out = []
    for i, a in enumerate(singles):
        for b in singles[i + 1 :]:
            if a.params[0][0] != b.params[0][0]:
                out.append(Candidate(f"{a.label}; {b.label}", a.size + b.size, a.params + b.params))
    return out


def _tune_gradient(
    base: Setup, options: TuneOptions, band: float, pool: Pool, say: Callable[[str], None]
) -> TuneResult:
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
    totals = _paired(pool, jobs, options.seed, half, options.batch)
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
    verified = _paired(pool, jobs, options.fresh_seed(), max(options.verify_games // 2, 1), options.batch)
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


def _tune_cards(
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
                dest = out / "search" / f"{abs(hash((name, column, step))) % 10**8:08d}.csv"
                try:
                    edit_cards(base.game, source, {(name, column): str(now + step)}, dest)
                except SpecError:
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
                for g, k in _split(options.verify_games, options.batch)
            ]
            total = {"before": 0, "after": 0, "change": 0}
            for done in inner.run(batches):
                total = {k: total[k] + done.result[k] for k in total}
            d_b, b_lo, b_hi, _ = _interval(total["before"])
            d_a, a_lo, a_hi, _ = _interval(total["after"])
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
    for done in pool.run(Batch(g, value_batch, (setup, card, baseline, seed, g, k)) for g, k in _split(n, batch)):
        total = total + done.result
    return total


def write_tune(result: TuneResult, out: Path | str) -> Path:
    """Write ``search.parquet``, ``verified.parquet`` and ``tune.json`` under ``out``; return ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    result.search.write_parquet(out / "search.parquet")
    result.verified.write_parquet(out / "verified.parquet")
    for name, frame in result.extra.items():
        frame.write_parquet(out / f"{name}.parquet")
    (out / "tune.json").write_text(json.dumps(result.summary, indent=2, default=str) + "\n", encoding="utf-8")
    return out
