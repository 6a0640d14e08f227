"""What a worker plays for ``balance value`` and sends back: the two arms of a card and their paired sums.

For card ``c`` game ``g`` is played twice on the same seed (``value_card = c``): arm 0 with
``c`` in the holder's deck (seat ``g % 2``), arm 1 with the holder's copies replaced by the
baseline card (``value_swap = 1``). A batch returns a few integer sums (``SUMS``) from which
the paired interval (:func:`paired_interval`) and the observational metrics follow.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import sims
from balance import stats
from balance.pairs import Setup, play
from balance.spec import SpecError

CHECK = 32  # games of each shared-arm batch replayed under another card of the group (a continuous check)
OBSERVED_COLUMNS = {"game", "seat", "card", "won", "in_opening_hand", "first_drawn_turn", "times_played"}

# the sums a batch returns, in this order (int64 array)
SUMS = (
    "n", "wins_with", "wins_without", "discordant",
    "gp_n", "gp_k", "oh_n", "oh_k", "gd_n", "gd_k", "gih_n", "gih_k", "gns_n", "gns_k", "played_n", "played_k",
)  # fmt: skip
S = {name: i for i, name in enumerate(SUMS)}
OBSERVED = {"gp_wr": "gp", "oh_wr": "oh", "gd_wr": "gd", "gih_wr": "gih", "gns_wr": "gns", "played_wr": "played"}


def arms(setup: Setup, card: int, baseline: str) -> tuple[Setup, Setup]:
    """Return the two arms of ``card``: with it in the holder's deck, and with the baseline in its place."""
    base = setup.with_params(value_card=card, value_baseline=baseline)
    return base.with_params(value_swap=0), base.with_params(value_swap=1)


def observes(setup: Setup) -> bool:
    """Return whether ``setup``'s game records the card columns the observational metrics need."""
    return set(sims.load(setup.game).tables["cards"].names or ()) >= OBSERVED_COLUMNS


def pair_sums(card: int, with_card: dict[str, np.ndarray], without: np.ndarray, observe: bool) -> np.ndarray:
    """Return ``card``'s batch sums (``SUMS``) from arm 0's tables (``games``, and ``cards`` if ``observe``)
    and arm 1's ``games`` rows of the same games."""
    n = len(without)
    holder = with_card["games"]["game"] % 2
    won_0 = (with_card["games"]["winner"] == holder).astype(np.int64)
    won_1 = (without["winner"] == holder).astype(np.int64)
    out = np.zeros(len(SUMS), np.int64)
    out[: S["gp_n"]] = n, won_0.sum(), won_1.sum(), int((won_0 != won_1).sum())
    if not observe:  # a cards table without these columns: no observational metrics (null in values.parquet)
        return out
    rows = with_card["cards"]
    mine = rows[(rows["card"] == card) & (rows["seat"] == rows["game"] % 2)]
    won, drawn = mine["won"] == 1, mine["first_drawn_turn"]
    subsets = {
        "gp": np.ones(len(mine), bool),
        "oh": mine["in_opening_hand"] == 1,
        "gd": drawn > 0,
        "gih": drawn >= 0,
        "gns": drawn == -1,
        "played": mine["times_played"] > 0,
    }
    for key, mask in subsets.items():
        out[S[f"{key}_n"]], out[S[f"{key}_k"]] = int(mask.sum()), int((mask & won).sum())
    return out


def value_batch(setup: Setup, card: int, baseline: str, seed: int, first: int, n: int) -> np.ndarray:
    """Play games ``[first, first + n)`` in both arms of ``card``; return the batch's sums (``SUMS``).

    Only the ``games`` table is recorded, plus arm 0's ``cards`` rows for the observational
    metrics of the holder's copy (when the game's cards table has the columns they need).
    """
    return group_batch(setup, (card,), baseline, seed, first, n)[0]


def group_batch(setup: Setup, cards: Sequence[int], baseline: str, seed: int, first: int, n: int) -> list[np.ndarray]:
    """Return :func:`value_batch` of each of ``cards``, playing arm 0 once: that of ``cards[0]``.

    Only for cards whose arm-0 games are the very same games (``balance.value_schedule.arm_groups``).
    Each batch re-checks that on its first ``CHECK`` games with another of the cards (in turn) and
    raises ``SpecError`` if they differ, rather than pairing a card with another card's games.
    """
    observe = observes(setup)
    a = play(arms(setup, cards[0], baseline)[0], seed, first, n, ("games", "cards") if observe else ("games",))
    if len(cards) > 1:
        other = cards[1 + (first // max(n, 1)) % (len(cards) - 1)]
        m = min(n, CHECK)
        if not np.array_equal(play(arms(setup, other, baseline)[0], seed, first, m)["games"], a["games"][:m]):
            raise SpecError(
                f"{setup.game}: cards {cards[0]} and {other} were found to share their arm-0 games, but games "
                f"{first}..{first + m - 1} differ; run balance value with share_arms off and report this"
            )
    return [pair_sums(c, a, play(arms(setup, c, baseline)[1], seed, first, n)["games"], observe) for c in cards]


def paired_interval(sums: np.ndarray) -> tuple[float, float, float, float]:
    """Return ``(delta, lo, hi, half_width)`` of the mean paired difference from a batch's sums.

    ``d`` is −1, 0 or 1, so its sum of squares is the number of discordant pairs; the
    interval is the t interval of the mean of ``d`` (95 %).

    Examples
    --------
    >>> s = np.zeros(len(SUMS), np.int64)
    >>> s[[S["n"], S["wins_with"], S["wins_without"], S["discordant"]]] = 100, 60, 50, 30
    >>> [round(x, 4) for x in paired_interval(s)]
    [0.1, -0.0074, 0.2074, 0.1074]
    """
    n = int(sums[S["n"]])
    if n < 2:
        return float("nan"), float("nan"), float("nan"), float("inf")
    total = int(sums[S["wins_with"]] - sums[S["wins_without"]])
    mean = total / n
    var = (int(sums[S["discordant"]]) - n * mean * mean) / (n - 1)
    est = stats.mean_ci_stats(np.array([mean]), np.array([np.sqrt(max(var, 0.0))]), np.array([n]))
    lo, hi = float(est.lo[0]), float(est.hi[0])
    return mean, lo, hi, (hi - lo) / 2
