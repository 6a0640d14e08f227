"""Two runs with different card pools: which cards differ, whether the decks stayed the same, and each
edited card's paired effect for the seats holding it (issue 14).

Runs of one game on the same seed pair game by game. When an edit leaves the decks alone
(Cardinger's decks depend on card names and costs only), game ``g`` has the same decks in
both runs and the seats holding an edited card are a paired sample: the per-seat
difference ``won_A − won_B`` has a much narrower interval than two independent win rates.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
import polars as pl

import sims
from balance import stats
from balance.aggregates import DECKS
from balance.fingerprints import BLOCK
from balance.io import Run
from balance.metrics._common import columns

NONE = "none"


def card_flags(run: Run) -> Mapping[str, type[enum.Flag]]:
    """Return the game's bitmask card columns (``GameSpec.extra["card_flags"]``: column -> flag enum)."""
    game = run.manifest.get("game")
    if game not in sims.GAMES:
        return {}
    return sims.load(game).extra.get("card_flags", {})


def _shown(value: object, column: str, flags: Mapping[str, type[enum.Flag]]) -> str:
    """Return a card-dimension value as the card file writes it (flag codes as ``A|B``, 0 as ``none``)."""
    flag = flags.get(column)
    if flag is not None and isinstance(value, int):
        names = [m.name for m in flag if m.value & value and m.name]
        return "|".join(names) if names else NONE
    return str(value)


def _label(column: str) -> str:
    """Return a column's name as a designer reads it: short stat names upper-case (``atk`` -> ``ATK``)."""
    return column.upper() if len(column) <= 5 and column.isalpha() else column


def pool_diff(a: Run, b: Run) -> pl.DataFrame:
    """Return the cards whose rows differ between the pools of ``a`` and ``b``, matched by name.

    Columns ``name, change, columns, text``: ``change`` is ``edited``, ``only in A`` or
    ``only in B``; ``columns`` lists the changed card-dimension columns; ``text`` reads like
    ``"Blood Knight: ATK 2→0, DEF 1→0, keywords DEVOUR|STEAL|DECAY→none"`` (A's value, then
    B's). Every column of the card dimension but the id counts (stats, keywords, provenance).
    """
    da, db = a.card_dim, b.card_dim
    flags = card_flags(a)
    shared = [c for c in da.columns if c in db.columns and c not in ("card", "name")]
    rows_a = {r["name"]: r for r in da.iter_rows(named=True)}
    rows_b = {r["name"]: r for r in db.iter_rows(named=True)}
    out = []
    for name in sorted(rows_a.keys() | rows_b.keys()):
        if name not in rows_b or name not in rows_a:
            change = "only in A" if name in rows_a else "only in B"
            out.append((name, change, [], f"{name}: {change}"))
            continue
        ra, rb = rows_a[name], rows_b[name]
        changed = [c for c in shared if ra[c] != rb[c]]
        if changed:
            parts = [f"{_label(c)} {_shown(ra[c], c, flags)}→{_shown(rb[c], c, flags)}" for c in changed]
            out.append((name, "edited", changed, f"{name}: {', '.join(parts)}"))
    schema = {"name": pl.String, "change": pl.String, "columns": pl.List(pl.String), "text": pl.String}
    return pl.DataFrame(out, schema=schema, orient="row")


class Decks(NamedTuple):
    """Both runs' decks aligned by (game, seat), as indices into one sorted list of card names (-1 = padding)."""

    game: np.ndarray  # int64[n]: game of each row (rows sorted by game, then seat)
    seat: np.ndarray  # int8[n]
    a: np.ndarray  # int32[n, width]: what is compared of run A (``what``) for that seat
    b: np.ndarray  # int32[n, width]: the same of run B
    held: np.ndarray  # int32[n, width]: run A's deck of that seat (any order): who holds a card
    won_a: np.ndarray  # int8[n]
    won_b: np.ndarray  # int8[n]
    names: tuple[str, ...]  # name index -> card name
    what: str  # "deck lists" (seats.deck, build order), "opening hands" (cards table) or "" (not recorded)


def _matrix(lists: pl.Series, remap: np.ndarray) -> np.ndarray:
    """Return a list column of card ids as an int32 matrix of name indices, rows padded with -1."""
    width = int(lists.list.len().max() or 0)
    ids = np.full((len(lists), width), -1, dtype=np.int64)
    lengths = lists.list.len().fill_null(0).to_numpy().astype(np.int64)
    flat = lists.explode().drop_nulls().to_numpy().astype(np.int64)
    rows = np.repeat(np.arange(len(lists)), lengths)
    cols = np.arange(len(flat)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    ids[rows, cols] = flat
    return np.where(ids >= 0, remap[np.clip(ids, 0, len(remap) - 1)], -1).astype(np.int32)


def _seat_lists(run: Run, index: Mapping[str, int], what: str) -> pl.DataFrame:
    """Return ``game, seat, won, cards, held``: compared card ids (``what``) and the deck's card ids."""
    seats = run.seats.select("game", "seat", "won")
    if what == "deck lists":  # games past a default run's first ones keep a print, not the list (empty)
        lists = run.seats.filter(pl.col("deck").list.len() > 0)
        lists = lists.select("game", "seat", pl.col("deck").alias("cards"), pl.col("deck").alias("held"))
    else:
        cards = run.cards
        assert cards is not None
        hand = pl.when(pl.col("in_opening_hand") == 1).then(pl.col("card"))
        lists = cards.group_by("game", "seat").agg(
            hand.drop_nulls().sort().alias("cards"), pl.col("card").alias("held")
        )
    how = "inner" if what == "deck lists" else "left"
    return seats.join(lists, on=["game", "seat"], how=how).sort("game", "seat").collect()


def aligned_decks(a: Run, b: Run) -> Decks:
    """Return both runs' decks aligned by (game, seat) over the games both runs played.

    Decks are compared by card **name**, so pools that list the same cards in other rows
    (other ids) still match. With deck lists in ``seats.deck`` (Cardinger) the lists are
    compared in build order; a game that records none is compared by its opening hands
    (``cards.in_opening_hand``): equal hands in every game mean equal shuffles of equal decks.
    """
    names = tuple(sorted(set(a.card_dim["name"]) | set(b.card_dim["name"])))
    index = {n: i for i, n in enumerate(names)}
    schemas = [r.seats.collect_schema().names() for r in (a, b)]
    cards = [r.cards is not None and "in_opening_hand" in r.cards.collect_schema().names() for r in (a, b)]
    what = "deck lists" if all("deck" in s for s in schemas) else "opening hands" if all(cards) else ""
    if not what or not all("won" in s for s in schemas):
        none = np.zeros((0, 0), np.int32)
        return Decks(
            np.zeros(0, np.int64), np.zeros(0, np.int8), none, none, none, *(np.zeros(0, np.int8),) * 2, names, ""
        )
    sa, sb = _seat_lists(a, index, what), _seat_lists(b, index, what)
    joined = sa.join(sb, on=["game", "seat"], suffix="_b").sort("game", "seat")
    ra, rb = _remap(a, index), _remap(b, index)
    deck_a, deck_b = _matrix(joined["cards"], ra), _matrix(joined["cards_b"], rb)
    width = max(deck_a.shape[1], deck_b.shape[1])
    deck_a, deck_b = (np.pad(m, ((0, 0), (0, width - m.shape[1])), constant_values=-1) for m in (deck_a, deck_b))
    won = (joined[c].to_numpy().astype(np.int8) for c in ("won", "won_b"))
    held = _matrix(joined["held"], ra)
    return Decks(joined["game"].to_numpy(), joined["seat"].to_numpy(), deck_a, deck_b, held, *won, names, what)


def _remap(run: Run, index: Mapping[str, int]) -> np.ndarray:
    """Return card id -> index of its name in ``index`` (-1 for ids the dimension lacks)."""
    dim = run.card_dim
    remap = np.full(int(dim["card"].max()) + 1 if dim.height else 1, -1, dtype=np.int32)
    remap[dim["card"].to_numpy()] = [index[n] for n in dim["name"]]
    return remap


def deck_changes(decks: Decks) -> dict[str, int | list[int]]:
    """Return how many paired games (and seats) have a deck that differs between the runs, and the first such games.

    Keys: ``n_games``, ``games_changed``, ``n_seats``, ``seats_changed``, ``examples`` (up to
    ten game ids whose decks differ) and ``what`` was compared (:func:`aligned_decks`).
    """
    seat_changed = (decks.a != decks.b).any(axis=1) if decks.a.size else np.zeros(len(decks.game), bool)
    games = np.unique(decks.game)
    changed = np.unique(decks.game[seat_changed])
    return {
        "n_games": len(games),
        "games_changed": len(changed),
        "n_seats": len(decks.game),
        "seats_changed": int(seat_changed.sum()),
        "examples": [int(g) for g in changed[:10]],
        "what": decks.what,
    }


def edited_card_deltas(decks: Decks, edited: list[str]) -> pl.DataFrame:
    """Return each edited card's paired effect on the seats holding it (games whose decks are identical).

    For card ``c``: the seats whose deck (the same in both runs) holds ``c`` while the
    opponent's does not; ``n`` of them, ``win_a``/``win_b`` their win rates in each run,
    ``delta`` = mean of ``won_A − won_B`` with a paired t interval (``lo``, ``hi``), and
    ``unpaired_lo``/``unpaired_hi``: Newcombe's interval for the same two rates treated as
    independent samples, to show what pairing gains. ``both_hold`` counts the games left
    out because both seats hold ``c`` (the edit acts on both sides).
    """
    schema = {"name": pl.String, "n": pl.Int64, "both_hold": pl.Int64}
    schema |= {k: pl.Float64 for k in ("win_a", "win_b", "delta", "lo", "hi", "unpaired_lo", "unpaired_hi")}
    if not len(decks.game) or not edited:
        return pl.DataFrame(schema=schema)
    same_game = _per_game_all((decks.a == decks.b).all(axis=1), decks.game)
    rows = []
    index = {n: i for i, n in enumerate(decks.names)}
    for name in edited:
        holds = (decks.held == index[name]).any(axis=1)
        other = _opponent(holds, decks.game)
        mine = holds & ~other & same_game
        both = int((holds & other & same_game).sum()) // 2
        wa, wb = decks.won_a[mine].astype(float), decks.won_b[mine].astype(float)
        r = stats.paired_difference(wa, wb)
        k_a, k_b, n = int(wa.sum()), int(wb.sum()), int(mine.sum())
        u = stats.newcombe(k_a, n, k_b, n)
        rows.append((name, n, both, r.mean_a, r.mean_b, r.delta, r.lo, r.hi, float(u.lo), float(u.hi)))
    return pl.DataFrame(rows, schema=schema, orient="row").fill_nan(None)


def _per_game_all(flags: np.ndarray, game: np.ndarray) -> np.ndarray:
    """Return, per row, whether ``flags`` holds for every row of the same game (rows sorted by game)."""
    starts = np.flatnonzero(np.r_[True, game[1:] != game[:-1]])
    ok = np.logical_and.reduceat(flags, starts)
    return np.repeat(ok, np.diff(np.r_[starts, len(game)]))


def _opponent(holds: np.ndarray, game: np.ndarray) -> np.ndarray:
    """Return, per row, whether the other seat of the same game holds the card (two seats per game)."""
    starts = np.flatnonzero(np.r_[True, game[1:] != game[:-1]])
    count = np.add.reduceat(holds.astype(np.int64), starts)
    per_row = np.repeat(count, np.diff(np.r_[starts, len(game)]))
    return per_row - holds > 0


class PoolComparison(NamedTuple):
    """Everything the compare report says about two card pools."""

    diff: pl.DataFrame  # pool_diff
    decks: dict[str, int | list[int]]  # deck_changes
    edited: pl.DataFrame  # edited_card_deltas


def compare_pools(a: Run, b: Run) -> PoolComparison | None:
    """Return the card-pool comparison of two paired two-seat runs, or None when their pools are the same.

    Examples
    --------
    >>> # compare_pools(load_run("runs/original"), load_run("runs/edited")).diff["text"].to_list()
    >>> # ['Blood Knight: ATK 2→0, DEF 1→0, keywords DEVOUR|STEAL|DECAY→none']
    """
    diff = pool_diff(a, b)
    if diff.height == 0:
        return None
    decks = aligned_decks(a, b)
    edited = diff.filter(pl.col("change") == "edited")["name"].to_list()
    changes = print_changes(a, b) if decks.what == "deck lists" and has_prints(a, b) else deck_changes(decks)
    return PoolComparison(diff, changes, edited_card_deltas(decks, edited))


def has_prints(a: Run, b: Run) -> bool:
    """Return whether both runs keep deck prints and digests (``balance.fingerprints``) but not every list."""
    both = all(r.sums is not None and DECKS in r.sums and "deck_fp" in columns(r.seats) for r in (a, b))
    return both and any(r.manifest.get("deck_lists") is not None for r in (a, b))


def print_changes(a: Run, b: Run) -> dict[str, int | list[int]]:
    """Return :func:`deck_changes` over every paired game from the runs' deck prints and block digests.

    A block of games with the same seats and digest in both runs dealt the same decks
    (``balance.fingerprints``: exact up to a 2⁻¹²⁸ chance); the seats of the other blocks are
    compared by their 16-bit prints (a changed deck goes unseen once in 65,536 seats).
    """
    da, db = (r.sums.frame(DECKS) for r in (a, b) if r.sums is not None)
    assert da is not None
    assert db is not None
    blocks = da.join(db, on="block", suffix="_b")
    same = blocks.filter(
        (pl.col("n") == pl.col("n_b")) & (pl.col("x0") == pl.col("x0_b")) & (pl.col("x1") == pl.col("x1_b"))
    )
    seats_same = int(same["n"].sum())
    other = pl.col("game") // BLOCK
    keep = ~other.is_in(same["block"].implode())
    sa = a.seats.filter(keep).select("game", "seat", "deck_fp")
    sb = b.seats.filter(keep).select("game", "seat", pl.col("deck_fp").alias("deck_fp_b"))
    rest = sa.join(sb, on=["game", "seat"]).collect()
    changed_seats = rest.filter(pl.col("deck_fp") != pl.col("deck_fp_b"))
    changed = changed_seats["game"].unique().sort()
    per_game = max(a.n_seats, 1)
    return {
        "n_games": seats_same // per_game + rest["game"].n_unique(),
        "games_changed": changed.len(),
        "n_seats": seats_same + rest.height,
        "seats_changed": changed_seats.height,
        "examples": [int(g) for g in changed.head(10)],
        "what": "deck lists",
    }
