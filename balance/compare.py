"""Paired comparisons: two rule variants (or card pools) on the same per-game seeds."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from balance import io
from balance.run import run
from balance.spec import RunSpec, SpecError


def run_pair(
    base: RunSpec,
    variants: tuple[str, str],
    cards: tuple[str | None, str | None] = (None, None),
    *,
    progress: bool = False,
) -> tuple[Path, Path]:
    """Run ``base`` under two variants (or card files) with the same seed; return both run dirs.

    Same root seed and game indices mean every game ``g`` starts from the same seed in
    both runs: same first seat, same decks (when the deck rules agree), same bot tie-breaks.
    """
    if variants[0] == variants[1] and cards[0] == cards[1]:
        raise SpecError("compare needs two different variants (--variants A,B) or card files (--cards A.csv,B.csv)")
    stem = base.name or f"{base.game}-{variants[0]}-vs-{variants[1]}-s{base.seed}"
    dirs = []
    for side, (variant, card_file) in zip("ab", zip(variants, cards, strict=True), strict=True):
        spec = replace(base, variant=variant, cards_file=card_file or base.cards_file, name=f"{stem}-{side}")
        dirs.append(run(spec, progress=progress))
    return dirs[0], dirs[1]


def check_paired(a: io.Run, b: io.Run) -> None:
    """Raise ``SpecError`` unless runs ``a`` and ``b`` share game, seed and size (so pair by game)."""
    for key in ("game", "root_seed", "n_games"):
        if a.manifest.get(key) != b.manifest.get(key):
            raise SpecError(
                f"runs are not paired: {key} differs ({a.manifest.get(key)!r} in {a.path} vs "
                f"{b.manifest.get(key)!r} in {b.path}); rerun with the same --seed and -n"
            )
    from balance.metrics.compare import pairing

    p = pairing(a, b).row(0, named=True)
    if p["n_paired"] and p["same_seed"] < p["n_paired"]:  # e.g. CardRPG sessions of different campaigns
        raise SpecError(
            f"runs are not paired game by game: {p['n_paired'] - p['same_seed']:,} of {p['n_paired']:,} games "
            f"with the same id have different seeds ({a.path} vs {b.path}); compare runs whose games are the "
            "same simulated games (e.g. the same n_sessions)"
        )
