"""How ``balance value`` spends its games: per-card tallies with sequential stopping, and the scheduler.

Every card gets ``min_pairs`` first, then batches go to the cards whose interval is
furthest from ``half_width``; a card stops at the first batch boundary where its 95 %
half-width is at most ``half_width``. A card's result uses its batches in order up to where
it stopped, so it does not depend on the number of workers (unless the budget cut it short).

Cards whose arm-0 games are the very same games (:func:`arm_groups`: Card Wars' cards of one
starter deck, Cardia's deck) share them: a batch plays arm 0 once and arm 1 per card, so a
pair costs about one game instead of two, and every card's sums are exactly those of its own
two-arm batches.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from balance.pairs import Batch, Setup, play
from balance.value_batch import SUMS, S, arms, group_batch, observes, paired_interval


@dataclass(frozen=True)
class ValueOptions:
    """How hard to try: target half-width, time budget, batch sizes, seed and workers."""

    baseline: str | None = None  # default: the game's first value baseline
    half_width: float = 0.005  # stop a card once its 95 % half-width is at most this (a fraction)
    budget: float = 120.0  # seconds of play, from the first batch's start (worker start-up not counted)
    seed: int = 1
    workers: int = 0  # 0 = one per CPU
    batch: int = 2500  # pairs per batch
    min_pairs: int = 5000  # pairs every card gets before it may stop
    cards: tuple[str, ...] = ()  # card names to value; empty = every card of the prepared pool
    share_arms: bool = True  # cards whose arm-0 games are the same games play them once (arm_groups)
    probe: int = 256  # games per card compared (games and card rows) to find the cards that share arm 0
    group_cards: int = 8  # at most this many cards per batch that shares arm 0


@dataclass
class CardTally:
    """One card's batches: results by batch index, the prefix used so far, and whether it is resolved."""

    card: int
    name: str
    results: dict[int, np.ndarray] = field(default_factory=dict)
    submitted: int = 0  # batches handed to workers
    used: int = 0  # batches 0 .. used-1 make up ``total``
    total: np.ndarray = field(default_factory=lambda: np.zeros(len(SUMS), np.int64))
    resolved: bool = False
    half: float = float("inf")  # the 95 % half-width of ``total`` (kept up to date by ``add``)

    @property
    def pairs(self) -> int:
        """Return the pairs in the result (its batches in order)."""
        return int(self.total[S["n"]])

    def add(self, index: int, sums: np.ndarray, half_width: float, min_pairs: int) -> None:
        """Record batch ``index``; extend the prefix in order and stop at the first resolved boundary."""
        self.results[index] = sums
        while not self.resolved and self.used in self.results:
            self.total = self.total + self.results[self.used]
            self.used += 1
            self.half = paired_interval(self.total)[3]
            if self.pairs >= min_pairs and self.half <= half_width:
                self.resolved = True

    @property
    def sd(self) -> float:
        """Return the per-pair standard deviation implied by ``half`` (NaN before two pairs)."""
        return self.half * np.sqrt(self.pairs) / 1.96 if self.pairs >= 2 and np.isfinite(self.half) else float("nan")


def arm_digest(setup: Setup, card: int, baseline: str, seed: int, n: int) -> str:
    """Return a digest of ``card``'s arm-0 games ``[0, n)`` (equal digests: the same games).

    The tables are those a value batch records (``games``, and ``cards`` when the metrics read
    it): every column of every game and of every card row must agree.
    """
    out = play(arms(setup, card, baseline)[0], seed, 0, n, ("games", "cards") if observes(setup) else ("games",))
    digest = hashlib.sha256()
    for name in sorted(out):
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(out[name]).tobytes())
    return digest.hexdigest()


def group_key(digests: dict[int, str]) -> dict[int, int]:
    """Return each card's group: the smallest card with the same arm-0 digest.

    Examples
    --------
    >>> group_key({3: "a", 5: "b", 7: "a"})
    {3: 3, 5: 5, 7: 3}
    """
    first: dict[str, int] = {}
    for card in sorted(digests):
        first.setdefault(digests[card], card)
    return {card: first[digests[card]] for card in digests}


def _need(tally: CardTally, options: ValueOptions, default_sd: float) -> float:
    """Return the pairs ``tally``'s card is predicted to need for the target half-width."""
    sd = tally.sd if np.isfinite(tally.sd) else default_sd
    return max(float(options.min_pairs), (1.96 * sd / options.half_width) ** 2)


class Scheduler:
    """Hand out value batches: the minimum to every card first, then to the cards furthest from the target."""

    def __init__(
        self,
        tallies: list[CardTally],
        setup: Setup,
        baseline: str,
        options: ValueOptions,
        groups: dict[int, int] | None = None,
    ) -> None:
        """Schedule ``tallies``' cards under ``options`` (``baseline`` already checked).

        ``groups`` maps each card to its arm-0 group (:func:`group_key`); none: every card alone.
        """
        self.tallies, self.setup, self.baseline, self.options = tallies, setup, baseline, options
        self.groups = groups or {t.card: t.card for t in tallies}
        self.t0: float | None = None  # when the first batch started (set when its result arrives)

    def started(self, seconds: float) -> None:
        """Start the budget's clock at the first batch's start (``seconds`` ago), once.

        Worker start-up (spawning, loading or compiling the kernels after a code change) is
        not charged to the budget: a first run after an update would otherwise spend it there.
        """
        if self.t0 is None:
            self.t0 = time.perf_counter() - seconds

    @property
    def elapsed(self) -> float:
        """Return seconds since the first batch started (0 before any result)."""
        return 0.0 if self.t0 is None else time.perf_counter() - self.t0

    def default_sd(self) -> float:
        """Return the typical per-pair standard deviation seen so far (0.35 before any result)."""
        sds = [t.sd for t in self.tallies if np.isfinite(t.sd)]
        return float(np.median(sds)) if sds else 0.35

    def remaining(self) -> float:
        """Return the pairs still predicted to be needed over all unresolved cards."""
        sd = self.default_sd()
        return sum(max(0.0, _need(t, self.options, sd) - t.pairs) for t in self.tallies if not t.resolved)

    def _pick(self) -> CardTally | None:
        batch, pilot = self.options.batch, -(-self.options.min_pairs // self.options.batch)
        open_ = [t for t in self.tallies if not t.resolved]
        if not open_:
            return None
        short = [t for t in open_ if t.submitted < pilot]
        if short:
            return min(short, key=lambda t: (t.submitted, t.card))
        sd = self.default_sd()
        ahead = [(_need(t, self.options, sd) - t.submitted * batch, t) for t in open_]
        gap, tally = max(ahead, key=lambda x: (x[0], -x[1].card))
        if gap > 0:
            return tally
        # every open card has enough in flight: add to the one whose interval is widest
        return max(open_, key=lambda t: (t.half, -t.card))

    def members(self, tally: CardTally) -> list[CardTally]:
        """Return ``tally`` and the open cards of its arm-0 group at the same batch that still need games."""
        batch, pilot, sd = self.options.batch, -(-self.options.min_pairs // self.options.batch), self.default_sd()
        out = [tally]
        for t in self.tallies:
            if len(out) >= self.options.group_cards:
                break
            if t is tally or t.resolved or self.groups[t.card] != self.groups[tally.card]:
                continue
            if t.submitted == tally.submitted and (
                t.submitted < pilot or _need(t, self.options, sd) > t.submitted * batch
            ):
                out.append(t)
        return out

    def batches(self) -> Iterator[Batch]:
        """Yield batches until every card is resolved or the budget is spent (key: batch index, cards)."""
        while self.elapsed < self.options.budget:
            tally = self._pick()
            if tally is None:
                return
            index, members = tally.submitted, self.members(tally)
            for t in members:
                t.submitted += 1
            cards = tuple(t.card for t in members)
            first = index * self.options.batch
            args = (self.setup, cards, self.baseline, self.options.seed, first, self.options.batch)
            yield Batch(key=(index, cards), func=group_batch, args=args)
