"""Paired measures of ``balance tune``: joint outcome tables played in workers, and their intervals."""

from __future__ import annotations

import numpy as np

from balance.pairs import Setup, play
from balance.value import SUMS, arms, paired_interval


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
    return {**out, "change": float(r_a - r_b), "change_lo": float(est.lo[0]), "change_hi": float(est.hi[0])}


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


def arm_interval(sums: np.ndarray) -> tuple[float, float, float, float]:
    """Return ``paired_interval`` of the first four paired sums."""
    full = np.zeros(len(SUMS), np.int64)
    full[:4] = sums[:4]
    return paired_interval(full)


def mean_interval(n: int, total: float, squares: float) -> tuple[float, float, float]:
    """Return the mean of values from their count, sum and sum of squares, with a 95 % t interval."""
    from balance import stats

    if n < 2:
        return float("nan"), float("nan"), float("nan")
    mean = total / n
    sd = np.sqrt(max((squares - n * mean * mean) / (n - 1), 0.0))
    est = stats.mean_ci_stats(np.array([mean]), np.array([sd]), np.array([n]))
    return float(mean), float(est.lo[0]), float(est.hi[0])


def solo_tier_batch(before: Setup, after: Setup, tiers: tuple[str, str], column: str, seed: int, first: int, n: int):
    """Play games ``[first, first + n)`` of a one-seat game with the higher and the lower tier under both setups.

    Returns float64 sums ``[n, Σm_b, Σm_b², Σm_a, Σm_a², Σ(m_a − m_b), Σ(m_a − m_b)², Σlow_b, Σlow_a]`` where
    ``m = x_high − x_low`` is the per-game margin of ``column`` (game ``g`` is the same character for
    every bot: the tiers are paired too) under ``before`` (``_b``) and ``after`` (``_a``).
    """
    x = {}
    for key, setup in (("b", before), ("a", after)):
        for tier, bot in zip(("high", "low"), tiers, strict=True):
            games = play(Setup(**{**setup.__dict__, "bots": (bot,)}), seed, first, n)["games"]
            x[key, tier] = games[column].astype(np.float64)
    m_b, m_a = x["b", "high"] - x["b", "low"], x["a", "high"] - x["a", "low"]
    d = m_a - m_b
    sums = (n, m_b.sum(), (m_b * m_b).sum(), m_a.sum(), (m_a * m_a).sum(), d.sum(), (d * d).sum())
    return np.array([*sums, x["b", "low"].sum(), x["a", "low"].sum()])
