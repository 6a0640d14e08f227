"""The one-minute summary that opens every report: the answers, each as one plain sentence.

A sentence is a ``(topic, text)`` pair of plain text (escaped when rendered by
:func:`balance.report.html.bullets`). The single-run summary gives the headline numbers
with their intervals (seat advantage, bots, draws and timeouts, game length), the cards
flagged as too strong or too weak (by counterfactual value when the run has it, else by
GIH WR with its bias warning), how much the card ranking depends on the bot, and the
rule reading the figures rest on. The comparison summary gives both runs' headline
numbers and the significant paired differences.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from balance import metrics as m
from balance.io import Run
from balance.metrics import sources, verdicts
from balance.metrics.groups import has_first_seat
from balance.metrics.tiers import Agreement, metric_label
from balance.report.html import pct

Sentence = tuple[str, str]
SHOW = 5  # flagged cards named per direction; the rest are counted
NOISY = 0.8  # below this noise ceiling the ranks are mostly sampling noise: no verdict on bot dependence


def _n(x: Any) -> str:
    return f"{int(x):,}".replace(",", "\u202f")


def _ci(lo: Any, hi: Any) -> str:
    return f"95 % CI {pct(lo)}–{pct(hi)}"


def _pp(x: float) -> str:
    return f"{x * 100:+.1f} pp"


def _mean(x: float, lo: float, hi: float, unit: str) -> str:
    return f"{x:.1f} {unit} on average (95 % CI {lo:.1f}–{hi:.1f})"


# -- headline numbers of one run -----------------------------------------------------------


def seat_sentence(advantage: pl.DataFrame) -> Sentence:
    """Return the first-seat advantage (``first_seat_advantage`` of all games) as a sentence."""
    r = advantage.row(0, named=True)
    fair = pct(r["fair"])
    if not r["n"]:
        return "Seat advantage", "No game was decided, so there is no first-seat advantage to measure."
    share = f"{pct(r['rate'])} of decided games ({_ci(r['lo'], r['hi'])}, n = {_n(r['n'])})"
    if r["significant"]:
        kind = "an advantage" if r["advantage"] > 0 else "a disadvantage"
        return (
            "Seat advantage",
            f"The seat that moves first wins {share}: {kind} of {_pp(r['advantage'])} against a fair {fair}.",
        )
    return "Seat advantage", f"No significant first-seat advantage: the seat that moves first wins {share}."


def bots_sentence(run: Run) -> Sentence | None:
    """Return each bot's win rate when the run has more than one bot, else None."""
    names = set(run.seats.collect_schema().names())
    if "bot" not in names or "won" not in names:
        return None
    rates = sources.win_rates_of(run, "bot")
    if rates.height < 2:
        return None
    parts = [
        f"{r['bot']} {pct(r['rate'])} ({_ci(r['lo'], r['hi'])}, n = {_n(r['n'])})"
        for r in rates.sort("rate", descending=True).iter_rows(named=True)
    ]
    return "Bots", "Share of its seats each bot wins: " + "; ".join(parts) + "."


def draws_sentence(run: Run) -> Sentence | None:
    """Return the share of games without a winner (draws and timeouts) and how they ended."""
    games = run.games
    if "winner" not in games.collect_schema().names():
        return None
    out = sources.outcomes_of(run)
    row = out.filter((pl.col("kind") == "result") & (pl.col("value") == "no winner")).row(0, named=True)
    total = f"{_n(row['count'])} of {_n(row['n'])} games ({pct(row['rate'])}, {_ci(row['lo'], row['hi'])})"
    if not row["count"]:
        return (
            "Draws and timeouts",
            f"Every game has a winner: 0 of {_n(row['n'])} end without one ({_ci(row['lo'], row['hi'])}).",
        )
    how = ""
    if "end_reason" in games.collect_schema().names():
        reasons = sources.no_winner_reasons_of(run)
        how = ": " + ", ".join(f"{str(r).replace('_', ' ')} {_n(k)}" for r, k in reasons.iter_rows())
    return "Draws and timeouts", f"{total} end without a winner{how}."


def length_sentence(run: Run, unit: str, *, rounds: bool, solitaire: bool = False) -> Sentence:
    """Return the mean game length with its interval, median and 10–90 % range (and rounds or steps)."""
    games = run.games
    have = games.collect_schema().names()
    steps = f"{unit}s" if unit != "turn" and f"{unit}s" in have else None
    column = steps if solitaire and steps else "turns"
    label = steps if column == steps else ("turns" if steps or unit == "turn" else f"{unit}s")  # turns = units
    whole = sources.turns_summary_of(run) if column == "turns" else m.summarize(games.select(column), column)
    s = whole.row(0, named=True)
    text = (
        f"Games last {_mean(s['mean'], s['lo'], s['hi'], label)}; median {s['median']:g}, "
        f"10–90 % of games {s['p10']:g}–{s['p90']:g}"
    )
    if rounds:
        r = sources.turns_summary_of(run, rounds=True).row(0, named=True)
        text += f", i.e. {r['mean']:.1f} rounds of both seats"
    elif steps and column != steps:
        r = m.summarize(games.select(steps), steps).row(0, named=True)
        text += f", in {_mean(r['mean'], r['lo'], r['hi'], steps)}"
    return "Game length", text + "."


def solitaire_sentences(run: Run) -> list[Sentence]:
    """Return the headline outcome of a one-seat game, its best and worst group, and how games end."""
    out: list[Sentence] = [("One seat", "No opponent, so no win rates, seat advantage or draws: outcomes instead.")]
    names = m.outcome_columns(run.games)
    from balance.report.solitaire import headline  # local: solitaire imports the report's html helpers

    metric = headline(names)
    if metric is not None:
        s = m.summarize(run.games.select(metric), metric).row(0, named=True)
        ci = f"95 % CI {s['lo']:.2f}–{s['hi']:.2f}, n = {_n(s['n'])}"
        text = f"Mean {metric.replace('_', ' ')} per game: {s['mean']:.2f} ({ci})"
        groups = m.group_columns(run.games)
        if groups:
            by = groups[0]
            g = m.group_outcomes(run.games, by=by, columns=[metric]).sort("mean", descending=True)
            if g.height >= 2:
                hi_row, lo_row = g.row(0, named=True), g.row(-1, named=True)
                text += (
                    f"; by {by.replace('_', ' ')}, highest {hi_row[by]} {hi_row['mean']:.2f} "
                    f"({hi_row['lo']:.2f}–{hi_row['hi']:.2f}) and lowest {lo_row[by]} {lo_row['mean']:.2f} "
                    f"({lo_row['lo']:.2f}–{lo_row['hi']:.2f})"
                )
        out.append(("Headline outcome", text + "."))
    if "end_reason" in run.games.collect_schema().names():
        reasons = m.outcomes(run.games).filter(pl.col("kind") == "end_reason").sort("count", descending=True)
        top = [
            f"{str(r['value']).replace('_', ' ')} {pct(r['rate'])} ({_ci(r['lo'], r['hi'])})"
            for r in reasons.head(3).iter_rows(named=True)
        ]
        if top:
            out.append(("How games end", "Most often by " + "; then ".join(top) + "."))
    return out


# -- cards ---------------------------------------------------------------------------------


def _named(rows: pl.DataFrame, value: str, lo: str, hi: str, *, points: bool) -> str:
    shown = rows.head(SHOW)
    fmt = _pp if points else pct
    by_deck = "decks" in rows.columns

    def one(r: dict[str, Any]) -> str:
        deck = f"; {r['decks']} median {fmt(r['reference'])}" if by_deck and r["decks"] else ""
        return f"{r['name']} {fmt(r[value])} ({fmt(r[lo])} to {fmt(r[hi])}{deck})"

    items = [one(r) for r in shown.iter_rows(named=True)]
    more = rows.height - shown.height
    return ", ".join(items) + (f" and {more} more" if more > 0 else "")


def flagged_sentences(flagged: pl.DataFrame, *, counterfactual: bool, band: float = verdicts.BAND) -> list[Sentence]:
    """Return the too-strong and too-weak cards of a :func:`~balance.metrics.verdicts.flag_cards` frame.

    ``flagged`` has ``name``, ``reference``, ``verdict`` and the metric as ``value``,
    ``lo``, ``hi`` (Δ win rate when ``counterfactual``, else GIH WR); with a ``decks``
    column (the decks holding each card) the references are each card's own deck median.
    """
    known = flagged.filter(pl.col("value").is_not_null())
    if known.height == 0:
        return [("Cards", "No card has a value to judge.")]
    what = "counterfactual value Δ" if counterfactual else "GIH WR"
    if "decks" in known.columns:
        rule = f"more than {band * 100:.0f} pp from the median card of its own deck with the 95 % interval beyond it"
    else:
        ref = float(known["reference"][0])
        ref_text = _pp(ref) if counterfactual else pct(ref)
        rule = f"more than {band * 100:.0f} pp from the median card ({ref_text}) with the 95 % interval beyond it"
    out: list[Sentence] = []
    for verdict, order in ((verdicts.STRONG, True), (verdicts.WEAK, False)):
        rows = known.filter(pl.col("verdict") == verdict).sort(pl.col("value") - pl.col("reference"), descending=order)
        if rows.height:
            named = _named(rows, "value", "lo", "hi", points=counterfactual)
            out.append((f"{verdict.capitalize()} cards", f"By {what}, {rule}: {named}."))
    n_flagged = known.filter(pl.col("verdict").is_not_null()).height
    if n_flagged == 0:
        out.append(("Cards", f"No card is flagged by {what}: none is {rule}."))
    else:
        out.append(("Cards in line", f"{known.height - n_flagged} of {known.height} cards are not flagged by {what}."))
    return out


def decks_sentence(matrix: pl.DataFrame, overall: pl.DataFrame) -> Sentence | None:
    """Return the deck headline: each deck's win rate over all pairings and the most one-sided pairing.

    ``matrix`` is :func:`~balance.metrics.matchups.deck_matchups`, ``overall`` the win rates
    by deck (``deck, n, wins, rate, lo, hi``).

    Examples
    --------
    >>> matrix = pl.DataFrame({"deck": ["a", "a", "b", "b"], "opponent": ["a", "b", "a", "b"],
    ...     "n": [200, 100, 100, 200], "wins": [99, 80, 20, 98], "rate": [0.495, 0.8, 0.2, 0.49],
    ...     "lo": [0.43, 0.71, 0.13, 0.42], "hi": [0.56, 0.87, 0.29, 0.56]})
    >>> overall = pl.DataFrame({"deck": ["a", "b"], "n": [300, 300], "wins": [179, 118], "rate": [0.597, 0.393],
    ...     "lo": [0.54, 0.34], "hi": [0.65, 0.45]})
    >>> print(decks_sentence(matrix, overall)[1].replace("\u202f", " "))  # doctest: +NORMALIZE_WHITESPACE
    Over all pairings a wins 59.7 % of its seat-games (95 % CI 54.0 %–65.0 %, n = 300), b 39.3 % (34.0 %–45.0 %,
    n = 300). Most one-sided pairing: a against b, 80.0 % (71.0 %–87.0 %, n = 100 seat-games).
    """
    if overall.height < 2:
        return None
    ranked = overall.sort(["rate", "deck"], descending=[True, False])
    first, *rest = ranked.iter_rows(named=True)
    text = (
        f"Over all pairings {first['deck']} wins {pct(first['rate'])} of its seat-games "
        f"({_ci(first['lo'], first['hi'])}, n = {_n(first['n'])}), "
        + ", ".join(f"{r['deck']} {pct(r['rate'])} ({pct(r['lo'])}–{pct(r['hi'])}, n = {_n(r['n'])})" for r in rest)
        + "."
    )
    pairs = matrix.filter(pl.col("deck") != pl.col("opponent"))
    pairs = pairs.sort(["rate", "deck", "opponent"], descending=[True, False, False])
    if pairs.height:
        r = pairs.row(0, named=True)
        text += (
            f" Most one-sided pairing: {r['deck']} against {r['opponent']}, {pct(r['rate'])} "
            f"({pct(r['lo'])}–{pct(r['hi'])}, n = {_n(r['n'])} seat-games)."
        )
    return ("Decks", text)


DECK_CARDS = (
    "Each card here belongs to fixed starter decks, so a card's GIH WR is mostly its deck's win rate: cards are "
    "flagged against the median card of their own deck (the deck figures above say which deck is strong)."
)


BIAS_WARNING = (
    "GIH WR is observational: it mixes a card's strength with when it is drawn, what else is in the deck and how "
    "long games last, so read these flags as leads and confirm them with counterfactual values (balance value)."
)


def iwd_sentence(seen: pl.DataFrame) -> str:
    """Return the one-line explanation of IWD's bias from :func:`~balance.metrics.verdicts.seen_unseen`."""
    rows = {r["seen"]: r for r in seen.iter_rows(named=True)}
    s, u = rows["seen"], rows["unseen"]
    if not u["n"] or not s["n"]:
        which = "seen" if not u["n"] else "never seen"
        return f"IWD = GIH WR − GNS WR; here every card in a deck was {which}, so IWD is undefined."
    figures = (
        f"a card that is never seen sits in games of {u['length']:.1f} turns on average, which its holder wins "
        f"{pct(u['rate'])} of the time, against {s['length']:.1f} turns and {pct(s['rate'])} when it is seen "
        f"(n = {_n(u['n'])} and {_n(s['n'])} card-games)"
    )
    if verdicts.iwd_biased(seen):
        return (
            f"IWD (and GNS WR) are biased by construction here: {figures}. When a game that lasts draws every "
            "card, never seen mostly means the game ended early; every card inherits that gap, so compare IWD "
            "between cards, never against 0."
        )
    return (
        f"IWD = GIH WR − GNS WR; here {figures}, so the not-seen games are no shorter and IWD carries no length bias."
    )


def tier_sentence(a: Agreement, top: pl.DataFrame | None = None, *, what: str = "the bot") -> Sentence:
    """Return how much the card ranking depends on ``what`` (the bot, or the rules of a comparison).

    The rank correlation of the two tiers and its noise ceiling; a comparison of two runs
    passes ``what`` = "the rules" (same bots) or "the run" (anything else differs).
    """
    label = metric_label(a.metric)
    base = (
        f"Ranking {a.cards} cards by {label}, {a.tier_a} and {a.tier_b} agree with Spearman ρ = {a.rho:.2f} "
        f"(95 % CI {a.lo:.2f}–{a.hi:.2f})"
    )
    if a.ceiling == a.ceiling:  # not NaN
        base += f", against about {a.ceiling:.2f} if only sampling noise moved the ranks"
    if not a.ceiling >= NOISY:  # NaN or low: sampling noise alone scrambles the ranks
        verdict = f"too few games per card to tell {what} from noise"
    elif a.hi < a.ceiling:
        verdict = f"card values depend on {what}"
    else:
        verdict = f"the ranking hardly depends on {what}"
    mover = ""
    if top is not None and top.height and a.moved:
        moved = top.filter(pl.col("moved"))
        if moved.height:
            r = moved.row(0, named=True)
            mover = f"; largest significant move: {r['name']} (rank {r['rank_a']:g} → {r['rank_b']:g})"
    topic = "Bot dependence" if what == "the bot" else "Card ranking"
    return topic, f"{base}: {verdict}; {a.moved} cards move significantly{mover}."


def rules_sentence(variant: str | None, note: str | None) -> Sentence:
    """Return the rule reading the figures rest on (variant name and its note from the game's spec)."""
    if not variant:
        return "Rules", "The run does not record its variant."
    text = f"Figures rest on variant {variant}" + (f": {note}" if note else " (the game's spec has no note on it)")
    return "Rules", text.rstrip(".") + "."


# -- a comparison of two runs --------------------------------------------------------------


def compare_sentences(a: Run, b: Run, la: str, lb: str) -> list[Sentence]:
    """Return both runs' headline numbers side by side, each with its own interval (not the paired Δ)."""
    out: list[Sentence] = []
    ga, gb = a.games, b.games
    have = set(ga.collect_schema().names()) & set(gb.collect_schema().names())
    if {"winner", "first_seat"} <= have and a.n_seats >= 2 and b.n_seats >= 2 and has_first_seat(ga):
        ra = m.first_seat_advantage(ga, n_seats=a.n_seats).row(0, named=True)
        rb = m.first_seat_advantage(gb, n_seats=b.n_seats).row(0, named=True)
        out.append(
            (
                "Seat advantage",
                f"The seat that moves first wins {pct(ra['rate'])} of decided games under {la} "
                f"({_ci(ra['lo'], ra['hi'])}, n = {_n(ra['n'])}) and {pct(rb['rate'])} under {lb} "
                f"({_ci(rb['lo'], rb['hi'])}, n = {_n(rb['n'])}).",
            )
        )
    if "winner" in have:
        rows = []
        for games in (ga, gb):
            o = m.outcomes(games)
            rows.append(o.filter((pl.col("kind") == "result") & (pl.col("value") == "no winner")).row(0, named=True))
        ra, rb = rows
        out.append(
            (
                "Draws and timeouts",
                f"{pct(ra['rate'])} of games end without a winner under {la} ({_ci(ra['lo'], ra['hi'])}) and "
                f"{pct(rb['rate'])} under {lb} ({_ci(rb['lo'], rb['hi'])}).",
            )
        )
    steps = f"{a.turn_unit}s"
    column = steps if a.solitaire and steps in have else "turns"  # a one-seat game's length is its steps
    sa, sb = (m.summarize(g.select(column), column).row(0, named=True) for g in (ga, gb))
    label = steps if column == "turns" and a.turn_unit != "turn" and steps not in have else column  # turns = units
    out.append(
        (
            "Game length",
            f"Games last {_mean(sa['mean'], sa['lo'], sa['hi'], label)} under {la} and "
            f"{_mean(sb['mean'], sb['lo'], sb['hi'], label)} under {lb}.",
        )
    )
    if a.solitaire:
        from balance.report.solitaire import headline  # local: solitaire imports the report's html helpers

        metric = headline([c for c in m.outcome_columns(ga) if c in have and c != column])
        if metric is not None:
            ma, mb = (m.summarize(g.select(metric), metric).row(0, named=True) for g in (ga, gb))
            label = metric.replace("_", " ")
            out.append(
                (
                    "Headline outcome",
                    f"Mean {label} per game: {ma['mean']:.2f} under {la} (95 % CI {ma['lo']:.2f}–{ma['hi']:.2f}) "
                    f"and {mb['mean']:.2f} under {lb} (95 % CI {mb['lo']:.2f}–{mb['hi']:.2f}).",
                )
            )
    return out
