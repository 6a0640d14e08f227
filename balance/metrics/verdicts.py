"""Which cards are too strong or too weak, and how far an observational metric can be trusted.

:func:`flag_cards` marks a card when its value sits outside a band around the median
card and its 95 % interval excludes the median: the rule a designer reads as "this card
is out of line, and not by chance". The band is the one ``balance tune --objective
cards`` aims for (every card within ±2 pp of the median card).

:func:`seen_unseen` measures the bias that IWD (and GNS WR) carry by construction in a
game whose deck cycles: a card that is never seen sits in games that ended early, which
its holder mostly loses, so every card shows a large positive IWD.
"""

from __future__ import annotations

import polars as pl

from balance.metrics._common import columns, with_mean_ci, with_wilson

BAND = 0.02  # ± around the median card (2 percentage points of win rate)
STRONG, WEAK = "too strong", "too weak"
SHORTER = 0.9  # unseen-card games shorter than this share of seen-card games: IWD is biased by construction


def flag_cards(
    df: pl.DataFrame,
    metric: str,
    *,
    lo: str | None = None,
    hi: str | None = None,
    band: float = BAND,
    members: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Add ``reference`` (the median card's ``metric``) and ``verdict`` to a per-card frame.

    ``verdict`` is ``too strong`` when ``metric`` exceeds the reference by more than
    ``band`` and the interval (``lo``/``hi``, default ``<metric>_lo``/``<metric>_hi``)
    lies above the reference, ``too weak`` in mirror image, else null. Cards without a
    value get no verdict and do not count towards the median.

    With ``members`` (``card, deck``: which fixed decks hold each card, as
    :func:`balance.metrics.matchups.deck_members` returns) a card is judged against the
    median card of its own deck (of the decks holding it, pooled, for a card in several),
    so an observational metric stops flagging whole decks: in a game of fixed starter
    decks a card's GIH WR is mostly its deck's win rate. Cards in no listed deck keep
    the median of all cards.

    Examples
    --------
    >>> df = pl.DataFrame({"name": list("abcde"), "delta": [0.06, 0.01, 0.0, -0.01, -0.03],
    ...     "delta_lo": [0.04, -0.01, -0.02, -0.03, -0.05], "delta_hi": [0.08, 0.03, 0.02, 0.01, 0.01]})
    >>> flag_cards(df, "delta")["verdict"].to_list()
    ['too strong', None, None, None, None]
    >>> wr = pl.DataFrame({"card": [0, 1, 2, 3, 4, 5], "w": [0.70, 0.65, 0.66, 0.35, 0.30, 0.31],
    ...     "w_lo": [0.69, 0.64, 0.65, 0.34, 0.29, 0.30], "w_hi": [0.71, 0.66, 0.67, 0.36, 0.31, 0.32]})
    >>> flag_cards(wr, "w")["verdict"].to_list()  # the strong deck's cards against all cards' median
    ['too strong', 'too strong', 'too strong', 'too weak', 'too weak', 'too weak']
    >>> decks = pl.DataFrame({"card": [0, 1, 2, 3, 4, 5], "deck": ["a", "a", "a", "b", "b", "b"]})
    >>> flag_cards(wr, "w", members=decks).select("reference", "verdict").rows()
    [(0.66, 'too strong'), (0.66, None), (0.66, None), (0.31, 'too strong'), (0.31, None), (0.31, None)]
    """
    lo, hi = lo or f"{metric}_lo", hi or f"{metric}_hi"
    values = df[metric].drop_nulls().drop_nans() if df.schema[metric].is_float() else df[metric].drop_nulls()
    reference = float(values.median()) if values.len() else None  # type: ignore[arg-type]
    if reference is None:
        return df.with_columns(pl.lit(None, pl.Float64).alias("reference"), pl.lit(None, pl.String).alias("verdict"))
    ref = pl.lit(reference) if members is None else _deck_references(df, metric, members, reference)
    x = pl.col(metric)
    verdict = (
        pl.when((x - ref > band) & (pl.col(lo) > ref))
        .then(pl.lit(STRONG))
        .when((ref - x > band) & (pl.col(hi) < ref))
        .then(pl.lit(WEAK))
    )
    return df.with_columns(ref.cast(pl.Float64).alias("reference"), verdict.alias("verdict"))


def _deck_references(df: pl.DataFrame, metric: str, members: pl.DataFrame, default: float) -> pl.Series:
    """Return each row's reference: the median ``metric`` of the cards sharing a deck with it (see flag_cards)."""
    value = {c: v for c, v in zip(df["card"].to_list(), df[metric].to_list(), strict=True) if v is not None and v == v}
    decks: dict[int, set[str]] = {}
    for card, deck in members.select("card", "deck").iter_rows():
        decks.setdefault(int(card), set()).add(str(deck))
    holding: dict[str, set[int]] = {}
    for card, held in decks.items():
        for deck in held:
            holding.setdefault(deck, set()).add(card)
    out = []
    for card in df["card"].to_list():
        pool = set().union(*(holding[d] for d in decks.get(int(card), ())))
        known = sorted(value[c] for c in pool if c in value)
        out.append(float(pl.Series(known).median()) if known else default)  # type: ignore[arg-type]
    return pl.Series("reference", out, pl.Float64)


def seen_unseen(cards: pl.LazyFrame, games: pl.LazyFrame, *, max_games: int | None = None) -> pl.DataFrame:
    """Return the card-games where the card was seen and where it was not: length and win rate.

    Two rows, ``seen`` (``first_drawn_turn >= 0``) and ``unseen``, pooled over every card:
    ``n`` card-games, ``hands`` (distinct game × seat) and ``games`` among them, ``wins``,
    ``rate`` = wins / n with a Wilson 95 % interval ``lo``/``hi`` and the game length
    ``length`` (mean ``games.turns`` per card-game) with a t interval ``length_lo``/
    ``length_hi``. The card-games of one hand share its result and its game's length, so
    the intervals count hands (rate) and games (length), not card-games. ``max_games``
    keeps only the games with the smallest ids (a report uses the first 200 000: the pooled
    figures are then precise to a few tenths of a turn and a percentage point, at a cost
    that does not grow with the run). When unseen
    cards sit in much shorter games that their holders mostly lose, GNS WR is low and
    IWD = GIH WR − GNS WR high for every card by construction (:func:`iwd_biased`).

    Examples
    --------
    >>> cards = pl.LazyFrame({"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "card": [3, 3, 3, 3],
    ...     "first_drawn_turn": [2, -1, 0, 4], "won": [1, 0, 0, 1]})
    >>> games = pl.LazyFrame({"game": [0, 1], "turns": [10, 30]})
    >>> seen_unseen(cards, games).select("seen", "n", "wins", "length").rows()
    [('seen', 3, 2, 23.333333333333332), ('unseen', 1, 0, 10.0)]
    """
    if max_games is not None:  # the first max_games games (by id): enough for pooled figures, and bounded cost
        cutoff = games.select(pl.col("game").bottom_k(max_games).max()).collect().item()
        if cutoff is not None:
            games = games.filter(pl.col("game") <= cutoff)
            cards = cards.filter(pl.col("game") <= cutoff)
    length = games.select("game", pl.col("turns").cast(pl.Float64).alias("length"))
    seen = pl.col("first_drawn_turn") >= 0
    # one row per hand (game x seat) first: its result and game length are shared by its cards
    hands = cards.group_by("game", "seat").agg(
        seen.sum().cast(pl.Int64).alias("seen"),
        (~seen).sum().cast(pl.Int64).alias("unseen"),
        (pl.col("won") == 1).max().cast(pl.Int64).alias("w"),
    )
    hands = hands.join(length, on="game", how="inner").collect()
    parts = []
    for flag, column in ((True, "seen"), (False, "unseen")):
        c, part = pl.col(column), hands.filter(pl.col(column) > 0)
        parts.append(
            part.select(
                pl.lit(flag).alias("is_seen"),
                c.sum().alias("n"),
                (c * pl.col("w")).sum().alias("wins"),
                pl.len().cast(pl.Int64).alias("hands"),
                pl.col("game").n_unique().cast(pl.Int64).alias("games"),
                ((c * pl.col("length")).sum() / c.sum()).alias("length"),
                ((c * pl.col("length") ** 2).sum()).alias("ss"),
            )
        )
    return _seen_table(pl.concat(parts))


def seen_unseen_from(sums: pl.DataFrame) -> pl.DataFrame:
    """Return :func:`seen_unseen` from a run's stored ``agg_hands`` sums (every game of the run pooled)."""
    out = sums.select(
        pl.col("seen").alias("is_seen"),
        pl.col("n", "wins", "hands", "games").cast(pl.Int64),
        (pl.col("length_sum").cast(pl.Float64) / pl.col("n")).alias("length"),
        pl.col("length_sumsq").cast(pl.Float64).alias("ss"),
    )
    return _seen_table(out)


def _seen_table(out: pl.DataFrame) -> pl.DataFrame:
    """Finish :func:`seen_unseen` from ``is_seen, n, wins, hands, games, length, ss`` (raw rows or sums alike)."""
    out = out.with_columns(
        pl.when(pl.col("n") > 1)
        .then(((pl.col("ss") - pl.col("n") * pl.col("length") ** 2) / (pl.col("n") - 1)).clip(lower_bound=0).sqrt())
        .alias("sd")
    )
    frame = pl.DataFrame({"is_seen": [True, False]}).join(out, on="is_seen", how="left")
    frame = frame.with_columns(pl.col("n", "wins", "hands", "games").fill_null(0))
    # the card-games of one hand share its result and game length: intervals count hands and games
    k_eff = (pl.col("wins") * pl.col("hands") / pl.when(pl.col("n") > 0).then(pl.col("n")).otherwise(1)).alias("k")
    frame = with_wilson(frame.with_columns(k_eff), "k", "hands", ("rate", "lo", "hi"))
    frame = frame.with_columns((pl.col("wins") / pl.col("n")).alias("rate"))
    frame = with_mean_ci(frame, "length", "sd", "games", ("length_lo", "length_hi"))
    seen = pl.when(pl.col("is_seen")).then(pl.lit("seen")).otherwise(pl.lit("unseen")).alias("seen")
    return frame.select(seen, "n", "hands", "games", "wins", "rate", "lo", "hi", "length", "length_lo", "length_hi")


def iwd_biased(seen: pl.DataFrame, *, shorter: float = SHORTER) -> bool:
    """Return whether :func:`seen_unseen` shows the construction bias of IWD.

    True when unseen-card games are shorter than ``shorter`` × the seen-card games' mean
    length and the two length intervals do not overlap.

    Examples
    --------
    >>> seen = pl.DataFrame({"seen": ["seen", "unseen"], "length": [32.9, 19.8], "length_lo": [32.8, 19.6],
    ...     "length_hi": [33.0, 20.0]})
    >>> iwd_biased(seen)
    True
    """
    rows = {r["seen"]: r for r in seen.iter_rows(named=True)}
    s, u = rows.get("seen"), rows.get("unseen")
    if not s or not u or s["length"] is None or u["length"] is None:
        return False
    return u["length"] < shorter * s["length"] and (u["length_hi"] or 0) < (s["length_lo"] or 0)


def has_seen_columns(cards: pl.LazyFrame | None, games: pl.LazyFrame) -> bool:
    """Return whether :func:`seen_unseen` applies: cards with ``first_drawn_turn`` and ``won``, games with ``turns``."""
    if cards is None:
        return False
    return all(c in columns(cards) for c in ("first_drawn_turn", "won")) and "turns" in columns(games)
