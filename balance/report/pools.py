"""The card-pool section of a comparison report: the card-level diff, deck identity, edited cards' paired Δ."""

from __future__ import annotations

from balance.io import Run
from balance.metrics.pools import PoolComparison, compare_pools
from balance.report.html import esc, note, number, points, section, table, text


def deck_sentence(decks: dict) -> str:
    """Return one plain sentence on whether the two runs dealt the same decks (plain text)."""
    what = decks.get("what", "")
    if not what:
        return "This game records neither deck lists nor opening hands, so deck identity was not checked."
    n, changed = decks["n_games"], decks["games_changed"]
    if changed == 0:
        return f"The {what} are identical in all {n:,} paired games: the comparison is fully paired."
    examples = ", ".join(str(g) for g in decks["examples"])
    return (
        f"The {what} differ in {changed:,} of {n:,} paired games ({decks['seats_changed']:,} of "
        f"{decks['n_seats']:,} seats; e.g. games {examples}): the edit changed what the deck builder draws "
        f"(a cost, an added or removed card), so those games are not paired on their decks."
    )


def _edited_table(found: PoolComparison, la: str, lb: str) -> str:
    """Return the table of each edited card's paired Δ for the seats holding it."""
    rows = []
    for r in found.edited.iter_rows(named=True):
        rows.append(
            [
                text(r["name"]),
                number(r["n"]),
                points(r["win_a"], None, None),
                points(r["win_b"], None, None),
                points(r["delta"], r["lo"], r["hi"]),
                points(None if r["lo"] is None else (r["hi"] - r["lo"]) / 2, None, None),
                points(None if r["unpaired_lo"] is None else (r["unpaired_hi"] - r["unpaired_lo"]) / 2, None, None),
                number(r["both_hold"]),
            ]
        )
    headers = [
        "edited card",
        "holder seats",
        f"holder win % {la}",
        f"holder win % {lb}",
        "Δ = A − B [95 % CI]",
        "± paired",
        "± unpaired",
        "games both hold it (left out)",
    ]
    caption = (
        "Seats whose deck holds the card while the opponent's does not, in games whose decks are identical in both "
        "runs; Δ: mean of won_A − won_B over those seats, t interval. '± unpaired': Newcombe's half-width for the "
        "same two rates as independent samples, for comparison."
    )
    return table(headers, rows, caption=caption)


def pool_section(a: Run, b: Run, la: str, lb: str) -> tuple[str, str] | None:
    """Return ``(section html, one-line summary)`` on the two runs' card pools, or None when the pools are the same."""
    found = compare_pools(a, b)
    if found is None:
        return None
    diff = found.diff
    items = "".join(f"<li>{esc(t)}</li>" for t in diff["text"].to_list())
    parts = [
        f"<p>{diff.height} card(s) differ between the pools ({esc(la)} → {esc(lb)}):</p>",
        f"<ul class='summary'>{items}</ul>",
        note(deck_sentence(found.decks)),
    ]
    if found.edited.height and found.edited["n"].sum():
        parts.append(_edited_table(found, la, lb))
    elif diff.filter(diff["change"] == "edited").height:
        parts.append(note("No seat holds an edited card alone in a game with identical decks: no paired card Δ."))
    lines = [f"{diff.height} card(s) differ between the pools. " + deck_sentence(found.decks)]
    for r in found.edited.filter(found.edited["n"] > 0).iter_rows(named=True):
        lo, hi = sorted((r["lo"] * 100, r["hi"] * 100))
        lines.append(
            f"{r['name']}: the holder's win rate is {r['delta'] * 100:+.2f} pp under {la} vs {lb} "
            f"(paired, 95 % CI {lo:+.2f} to {hi:+.2f}; {r['n']:,} seats)."
        )
    return section("pools", "Card pools", *parts), " ".join(lines)
