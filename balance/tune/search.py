"""Candidate edits of ``balance tune`` and the first-seat objective: one or two rule parameters."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

import sims
from balance.cardfile import card_columns
from balance.pairs import Batch, Pool, Setup
from balance.spec import SpecError, resolve
from balance.tune.measures import paired_batch, ratio_change
from balance.tune.options import TuneOptions, TuneResult


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


def split(n: int, batch: int) -> list[tuple[int, int]]:
    return [(g, min(batch, n - g)) for g in range(0, n, batch)]


def paired_totals(
    pool: Pool, jobs: list[tuple[Any, Setup, Setup, str]], seed: int, n: int, batch: int
) -> dict[Any, np.ndarray]:
    """Play every ``(key, before, after, measure)`` job on games ``0 .. n-1`` of ``seed``; return summed sums by key."""
    batches = [
        Batch((key, g), paired_batch, (before, after, measure, seed, g, k))
        for key, before, after, measure in jobs
        for g, k in split(n, batch)
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


def tune_first_seat(
    base: Setup, options: TuneOptions, band: float, pool: Pool, say: Callable[[str], None]
) -> TuneResult:
    candidates = param_candidates(base, options.params)
    say(f"first_seat: {len(candidates)} one-parameter edits on {options.search_games:,} games each")
    jobs = [(i, base, base.with_params(**dict(c.params)), "first_win") for i, c in enumerate(candidates)]
    totals = paired_totals(pool, jobs, options.seed, options.search_games, options.batch)
    rows = [
        _first_seat_row(candidates[i].label, candidates[i].size, totals[i], band) for i in _distinct(candidates, totals)
    ]
    search = pl.DataFrame(rows).with_columns(pl.col("after").abs().alias("distance")) if rows else pl.DataFrame()
    chosen = _choose(search, options.max_proposals)
    if search.height and not chosen.filter(pl.col("in_band")).height:  # no single edit reaches the band: try two
        pairs = _pair_candidates(candidates, search, options.max_proposals)
        jobs = [(i, base, base.with_params(**dict(c.params)), "first_win") for i, c in enumerate(pairs)]
        more = paired_totals(pool, jobs, options.seed, options.search_games, options.batch)
        extra = [_first_seat_row(c.label, c.size, more[i], band) for i, c in enumerate(pairs)]
        if extra:
            search = pl.concat([search, pl.DataFrame(extra).with_columns(pl.col("after").abs().alias("distance"))])
            chosen = _choose(search, options.max_proposals)
    say(f"verifying {chosen.height} proposal(s) on {options.verify_games:,} fresh games each")
    by_label = {c.label: c for c in [*candidates, *(_pair_candidates(candidates, search, options.max_proposals))]}
    jobs = [(r, base, base.with_params(**dict(by_label[r].params)), "first_win") for r in chosen["edit"].to_list()]
    verified = paired_totals(pool, jobs, options.fresh_seed(), options.verify_games, options.batch)
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
