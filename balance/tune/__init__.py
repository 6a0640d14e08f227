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

import json
from collections.abc import Callable
from pathlib import Path

import sims
from balance.pairs import Pool, Setup
from balance.spec import SpecError
from balance.tune.measures import outcome_codes, paired_batch, ratio_change
from balance.tune.objectives import tune_cards, tune_gradient, tune_solo_gradient
from balance.tune.options import DEFAULT_BAND, OBJECTIVES, TuneOptions, TuneResult
from balance.tune.search import Candidate, param_candidates, tune_first_seat


def tune(
    base: Setup, objective: str, options: TuneOptions, out: Path, *, progress: Callable[[str], None] | None = None
) -> TuneResult:
    """Search and verify edits for ``objective`` (see the module docstring); write nothing but card-file copies."""
    if objective not in OBJECTIVES:
        raise SpecError(f"--objective {objective!r}: choose {', '.join(OBJECTIVES)}")
    band = options.band if options.band is not None else DEFAULT_BAND[objective]
    say = progress or (lambda _m: None)
    game = sims.load(base.game)
    if objective == "first_seat" and game.seats != 2:
        raise SpecError(f"--objective {objective} needs a two-seat game; {base.game} has {game.seats} seat")
    with Pool(options.workers) as pool:
        if objective == "first_seat":
            result = tune_first_seat(base, options, band, pool, say)
        elif objective == "gradient":
            solo = game.seats == 1
            result = (tune_solo_gradient if solo else tune_gradient)(base, options, band, pool, say)
        else:
            result = tune_cards(base, options, band, pool, say, out)
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


__all__ = [
    "OBJECTIVES",
    "Candidate",
    "TuneOptions",
    "TuneResult",
    "outcome_codes",
    "paired_batch",
    "param_candidates",
    "ratio_change",
    "tune",
    "write_tune",
]
