"""The report of one run: ``write_report(run, out_dir, values=None)`` -> ``out_dir/index.html`` + PNGs.

The page is the list :data:`SECTIONS`: each entry has an anchor, a navigation label and a
builder that takes the :class:`ReportContext` and returns the section's HTML, or None to
leave it out of this run's page. A new section is one more line in that list (its
builder can read the run, the charts collector and the shared background results from the
context). The summary comes first on the page but is handed to the builders last, from what
the other sections computed (cached on the context, so it waits for what it needs).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

import polars as pl

import sims
from balance import aggregates
from balance.io import Run
from balance.metrics import sources, verdicts
from balance.report import counterfactual, render
from balance.report.cards import MIRROR_CARDS, CardFacts, Pending, attributes_section, card_facts, cards_section
from balance.report.counterfactual import CardValues
from balance.report.games import (
    TempoData,
    counters_section,
    first_seat_section,
    game_length_section,
    outcomes_section,
    sample_note,
    tempo_data,
    tempo_problem,
    tempo_section,
    win_rates_section,
)
from balance.report.groups import card_events_section, groups_by_setting_section
from balance.report.html import Charts, bullets, esc, key_values, note, page, section
from balance.report.matchups import DeckFacts, deck_facts, matchups_section
from balance.report.solitaire import (
    SOLITAIRE_METHODS,
    SolitaireData,
    groups_section,
    length_section,
    levels_section,
    solitaire_data,
    step_outcomes_section,
)
from balance.report.steps import StepData, shows_steps, step_data, steps_section
from balance.report.summary import (
    BIAS_WARNING,
    DECK_CARDS,
    Sentence,
    bots_sentence,
    decks_sentence,
    draws_sentence,
    flagged_sentences,
    iwd_sentence,
    length_sentence,
    rules_sentence,
    seat_sentence,
    solitaire_sentences,
    tier_sentence,
)
from balance.report.tiers import TierResult, tiers_section


def _cols(lf: pl.LazyFrame) -> list[str]:
    return lf.collect_schema().names()


def manifest_value(run: Run, *keys: str) -> Any:
    """Return the first of ``keys`` found in the manifest (or its ``spec`` mapping), else None."""
    spec = run.manifest.get("spec")
    for source in (run.manifest, spec if isinstance(spec, dict) else {}):
        for key in keys:
            if source.get(key) not in (None, ""):
                return source[key]
    return None


def run_info(run: Run) -> dict[str, Any]:
    """Return the header facts of a run: game, variant, rules version, games, bots, seed, id, created."""
    variant = manifest_value(run, "variant")
    if not variant and "variant" in _cols(run.games):  # a run that did not record it: its games' variants
        variants = run.games.select(pl.col("variant").unique().sort()).collect()["variant"].to_list()
        variant = ", ".join(str(v) for v in variants) or None
    bots = sources.bots_of(run)
    return {
        "game": manifest_value(run, "game", "game_name"),
        "variant": variant or None,
        "rules version": manifest_value(run, "rules_version"),
        "games": sources.n_games_of(run),
        "bots": ", ".join(str(b) for b in bots) if bots is not None else None,
        "root seed": manifest_value(run, "root_seed", "seed"),
        "run id": run.name,
        "created": manifest_value(run, "created", "created_at", "started_at", "finished_at"),
    }


class VariantInfo(NamedTuple):
    """The rule reading a run rests on: its variant's name and note from the game's ``GameInfo.variants``."""

    name: str | None
    note: str | None
    caveat: str | None  # why the note may not describe the run (unknown variant, other rules version)


def variant_info(run: Run) -> VariantInfo:
    """Return the run's variant with its note from the registered game (when the game and variant are known)."""
    name = manifest_value(run, "variant")
    game = manifest_value(run, "game", "game_name")
    if not name:
        return VariantInfo(None, None, None)
    try:
        spec = sims.info(str(game))  # the game's name, rules version and variants, without its kernels
    except (KeyError, ImportError, AttributeError):
        return VariantInfo(str(name), None, f"game {game!r} is not registered here, so its variants are unknown")
    variant = spec.variants.get(str(name))
    if variant is None:
        return VariantInfo(
            str(name), None, f"not a named variant of {spec.name}; the run's parameters are listed under Run"
        )
    version = manifest_value(run, "rules_version")
    caveat = None
    if version is not None and str(version) != str(spec.rules_version):
        caveat = f"the note is from rules version {spec.rules_version}; the run was made under version {version}"
    return VariantInfo(str(name), variant.note or None, caveat)


class _Pending(NamedTuple):
    """The large scans running in the background, and the turn unit."""

    unit: str
    cards: Pending
    tempo: Future[TempoData] | None
    steps: Future[StepData] | None
    solitaire: Future[SolitaireData] | None
    seen: Future[pl.DataFrame] | None  # verdicts.seen_unseen: the IWD explanation
    tiers: Future[pl.DataFrame] | None  # tier_counts: card metric per bot and half


@dataclass
class ReportContext:
    """What a section builder may use: the run, the chart collector, background results, card values."""

    run: Run
    info: dict[str, Any]
    out: Charts
    pending: _Pending
    values: CardValues | None
    variant: VariantInfo

    @property
    def unit(self) -> str:
        """Return what one row of the turns table is (``turn``, ``battle`` ...)."""
        return self.pending.unit

    @property
    def n_seats(self) -> int:
        """Return the seats of a game of this run."""
        return self.run.n_seats

    @property
    def solitaire(self) -> bool:
        """Return whether the game has one seat."""
        return self.run.n_seats == 1

    @functools.cached_property
    def cards(self) -> CardFacts | None:
        """Return the per-card figures with verdicts (waits for the cards scan), or None without a cards table."""
        decks = self.decks.overall["deck"].to_list() if self.decks is not None else None
        return card_facts(self.run, self.pending.cards, self.values, self.pending.seen, decks)

    @functools.cached_property
    def decks(self) -> DeckFacts | None:
        """Return the deck matrix and each deck's win rate, or None when the seats name no decks."""
        return deck_facts(self.run)

    @functools.cached_property
    def tempo(self) -> TempoData | None:
        """Return the tempo metrics (waits for the turns scan), or None when the run has none."""
        return self.pending.tempo.result() if self.pending.tempo is not None else None

    @functools.cached_property
    def tiers(self) -> TierResult | None:
        """Return the card ranking under the run's first two bots (seat 0's first), or None.

        None with fewer than two bots, and with mirror decks, where card win rates do not
        measure the cards (so neither does their ranking under two bots).
        """
        if self.pending.tiers is None or (self.cards is not None and self.cards.mirror):
            return None
        a, b = _tier_pair(self.run)
        return TierResult(self.pending.tiers.result(), a, b, self.run.card_dim)


def _tier_pair(run: Run) -> tuple[str, str]:
    """Return two bots of the run, seat 0's first."""
    first = sources.first_bot_of(run)
    names = sources.tier_names_of(run)
    others = [b for b in names if b != first]
    return (first, others[0]) if first in names and others else (names[0], names[1])


# -- sections ------------------------------------------------------------------------------


def _overview(c: ReportContext) -> str:
    params = c.run.manifest.get("params") or {}
    parts = [key_values(c.info)]
    parts += (
        ["<h3>Parameters</h3>", key_values(params)]
        if isinstance(params, dict) and params
        else [note("The manifest lists no parameters.")]
    )
    return section("overview", "Run", *parts)


def _values_how(meta: dict[str, str]) -> str:
    """Return the one-line method of counterfactual values, naming the bots that played them."""
    bots = meta.get("bots", "").replace(",", " vs ") or "the run's bots"
    baseline = meta.get("baseline", "").replace("_", " ")
    baseline = f"the {baseline} baseline" if baseline else "the game's default baseline"
    return (
        f"Δ is the holder's win rate with the card minus with its copies replaced by {baseline}, "
        f"on the same seeds, played by {bots}. A value belongs to the bot that played it: a bot that misplays a "
        "card makes it look weak, so check a surprising verdict with a stronger bot (balance value --bots)."
    )


def _card_sentences(c: ReportContext) -> list[Sentence]:
    facts = c.cards
    if facts is None:
        return [("Cards", "The run did not record the cards table: no card figures.")]
    if facts.basis is not None:
        b = facts.basis
        frame = facts.values.select(
            "name",
            "reference",
            "verdict",
            pl.col(b).alias("value"),
            pl.col(f"{b}_lo").alias("lo"),
            pl.col(f"{b}_hi").alias("hi"),
            *(["decks"] if facts.by_deck else []),
        )
        out = [("Decks and cards", DECK_CARDS)] if facts.by_deck else []
        out += flagged_sentences(frame, counterfactual=facts.basis == "delta")
        if facts.basis == "delta" and facts.counterfactual is not None:
            out.append(("How values are measured", _values_how(facts.counterfactual.meta)))
        if facts.counterfactual is not None and facts.counterfactual.caveats:
            out.append(("Caution", "; ".join(facts.counterfactual.caveats).capitalize() + "."))
        if facts.basis == "gih_wr":
            out.append(("Caution", BIAS_WARNING))
            if facts.seen is not None and verdicts.iwd_biased(facts.seen):
                out.append(("IWD", iwd_sentence(facts.seen)))
        return out
    if facts.mirror:
        return [("Cards", MIRROR_CARDS)]
    return [
        (
            "Cards",
            "No winner, so no card win rates: the card section shows how often each card comes into play and what "
            "it does; counterfactual values need balance value.",
        )
    ]


def _summary(c: ReportContext) -> str:
    games, items = c.run.games, []
    if c.solitaire:
        items += solitaire_sentences(c.run)
        items.append(length_sentence(c.run, c.unit, rounds=False, solitaire=True))
    else:
        if {"winner", "first_seat"} <= set(_cols(games)) and sources.has_first_seat_of(c.run):
            items.append(seat_sentence(sources.first_seat_advantage_of(c.run)))
        decks = decks_sentence(c.decks.matrix, c.decks.overall) if c.decks is not None else None
        items += [s for s in (bots_sentence(c.run), decks, draws_sentence(c.run)) if s is not None]
        rounds = c.unit == "turn" and c.tempo is not None and c.tempo.curve_unit == "round"  # turns paired
        items.append(length_sentence(c.run, c.unit, rounds=rounds))
    items += _card_sentences(c)
    if c.tiers is not None and c.tiers.agreement.cards >= 4:
        items.append(tier_sentence(c.tiers.agreement, c.tiers.ranks))
    items.append(rules_sentence(c.variant.name, c.variant.note or c.variant.caveat))
    return section(
        "summary", "Summary", bullets(items), '<p class="muted">Figures, intervals and definitions: below.</p>'
    )


def _tiers(c: ReportContext) -> str | None:
    if c.solitaire or not sources.has_card_values(c.run):
        return None
    names = sources.tier_names_of(c.run)
    if c.cards is not None and c.cards.mirror and len(names) >= 2:
        why = (
            "Every seat holds every card (mirror decks), so card win rates do not measure the cards and ranking "
            "them under two bots says nothing; compare counterfactual values (balance value) per bot instead."
        )
        return tiers_section(None, c.out, why=why)
    why = (
        f"One bot plays every seat of this run ({', '.join(names) or 'unnamed'}): to see how card values depend on "
        "the bot, run the same seeds with another bot and compare the runs (balance compare RUN_A RUN_B)."
    )
    return tiers_section(c.tiers, c.out, why=why)


def _methods(c: ReportContext) -> str:
    methods = f"{SOLITAIRE_METHODS} {METHODS}" if c.solitaire else METHODS
    v = c.variant
    if v.name:
        rules = f"Rule reading: variant {v.name}" + (f": {v.note}" if v.note else "")
        rules = rules.rstrip(".") + (f" ({v.caveat})." if v.caveat else ".")
    else:
        rules = "Rule reading: the run does not record its variant."
    parts = [f"<p><b>{esc(rules)}</b></p>", f"<p>{esc(methods)}</p>", f"<p>{esc(VERDICTS)}</p>"]
    if c.values is not None:
        parts.append(f"<p>{esc(COUNTERFACTUAL)}</p>")
    if c.tiers is not None:
        parts.append(f"<p>{esc(TIERS)}</p>")
    return section("methods", "Definitions and methods", *parts)


class Section(NamedTuple):
    """One section of the page: its anchor, its navigation label and its builder (None: left out)."""

    anchor: str
    label: str | Callable[[ReportContext], str]
    build: Callable[[ReportContext], str | None]


SECTIONS: list[Section] = [
    Section("summary", "Summary", _summary),  # built last, from what the other sections computed (LAST)
    Section("overview", "Run", _overview),
    Section("win-rates", "Win rates", lambda c: win_rates_section(c.run, c.n_seats, c.out)),
    Section("first-seat", "First seat", lambda c: first_seat_section(c.run, c.n_seats, c.out)),
    Section("matchups", "Decks", lambda c: matchups_section(c.decks, c.out)),  # any game naming a deck per seat
    Section("outcomes", "Outcomes", lambda c: outcomes_section(c.run, solitaire=c.solitaire)),
    Section(
        "game-length",
        "Length",
        lambda c: length_section(c.run, c.unit, c.out) if c.solitaire else game_length_section(c.run, c.out),
    ),
    Section("settings", "Settings", lambda c: groups_by_setting_section(c.run)),
    Section("card-events", "Card events", lambda c: card_events_section(c.run)),
    Section("groups", "Groups", lambda c: groups_section(c.run, c.out) if c.solitaire else None),
    Section(
        "levels",
        "Levels",
        lambda c: levels_section(c.run, c.unit, c.out, c.pending.solitaire) if c.solitaire else None,
    ),
    Section(
        "step-outcomes",
        lambda c: f"{c.unit.capitalize()}s",
        lambda c: (
            step_outcomes_section(c.unit, c.out, c.pending.solitaire, sample_note(c.run)) if c.solitaire else None
        ),
    ),
    Section(
        "steps",
        lambda c: f"{c.unit.capitalize()}s",
        lambda c: (
            steps_section(c.unit, c.out, c.pending.steps, sample_note(c.run)) if c.pending.steps is not None else None
        ),
    ),
    Section("cards", "Cards", lambda c: cards_section(c.run, c.out, c.pending.cards, c.cards)),
    Section("card-attributes", "Card attributes", lambda c: attributes_section(c.run, c.out, c.pending.cards)),
    Section("bot-dependence", "Bot dependence", _tiers),
    Section("tempo", "Tempo", lambda c: tempo_section(c.run, c.unit, c.out, c.pending.tempo)),
    Section("seat-counters", "Counters", lambda c: counters_section(c.run, solitaire=c.solitaire)),
    Section("methods", "Methods", _methods),
]
LAST = ("summary",)  # sections handed to the builders after all others (what they need is cached on the context)
SECTION_THREADS = 3
SEEN_GAMES = 200_000  # the IWD note pools the first this many games (its cost does not grow with the run)


METHODS = (
    "Win = won == 1; draws and timeouts count as not won and are reported separately. "
    "Rates: Wilson score 95 % intervals. "
    "IWD = GIH WR − GNS WR with Newcombe's hybrid score interval. Means: Student-t 95 % intervals. "
    "GP WR: card in deck; OH WR: in opening hand; GD WR: drawn after the opening hand; GIH WR: opening hand or drawn; "
    "GNS WR: never seen; played WR: played at least once; play rate: share of deck games it was played; "
    "avg turn first played: global turn number (both seats counted). "
    "Games recorded one row per battle (or other step): the opener is the seat that took the step's first "
    "turn, and drawn steps are left out of its share won. Card value by attribute: card-level rows pooled "
    "over the cards sharing a value; intervals use the most-held card's n (conservative). "
    "Tempo of a game whose seats alternate: the score difference after each round (both seats' turns); lead "
    "changes and the lead for good are counted per turn."
)
VERDICTS = (
    f"Card verdicts: a card is too strong (too weak) when its value is more than {verdicts.BAND * 100:.0f} "
    "percentage points above (below) the median card's and its 95 % interval lies entirely above (below) that "
    "median; by counterfactual Δ when the run has values, else by GIH WR (observational, so a lead to check, "
    "not a finding). When the seats play fixed named decks (e.g. starter decks), GIH WR verdicts use the median "
    "card of the card's own deck (of all the decks holding it, pooled), since across decks GIH WR mostly measures "
    "the deck. Not corrected for multiple comparisons."
)
COUNTERFACTUAL = (
    "Counterfactual Δ (balance value): for each card, the same seeds are played with the card in the holder's "
    "deck and with its copies replaced by the baseline; Δ = difference in the holder's win rate with a paired "
    "95 % interval, n = paired games."
)
TIERS = (
    "Bot dependence: GIH WR per card counted separately for each bot's seats; cards ranked under each bot "
    "(1 = highest) and compared with Spearman's ρ (Fisher-z interval, standard error √(1.06 / (n − 3)) over n "
    "cards); reliability from the two halves of the games (even and odd ids) with the Spearman-Brown step-up."
)


def write_report(
    run: Run, out_dir: Path | str, *, values: Path | str | None = None, renderer: render.Renderer | None = None
) -> Path:
    """Write the report of ``run`` to ``out_dir/index.html`` plus one PNG per chart; return the HTML path.

    The HTML is self-contained (charts embedded, CSS inline, no external resources).
    Sections whose table the run lacks (cards, turns) are replaced by a note.
    Counterfactual card values come from ``values`` (a ``balance value`` output directory
    or its ``values.parquet``), else from a ``values.parquet`` in the run directory; a
    values file that does not fit the run raises :class:`~balance.report.counterfactual.ValuesError`
    before anything is written. The charts are drawn by ``renderer``'s processes when given
    (``balance.following``: started while the run played), else by a renderer of its own.
    """
    cv = counterfactual.load(run, values)
    # The charts are drawn by forked processes (render.Renderer: drawing holds the GIL) while
    # the sections go on; it forks before any thread of the report starts.
    own = render.Renderer(render.processes()) if renderer is None else contextlib.nullcontext(renderer)
    with own as drawing:
        out = Charts(Path(out_dir), drawing)
        info = run_info(run)
        unit = run.turn_unit
        # The card and turn figures (from the run's stored sums, or large scans of raw rows) are
        # computed in background threads (polars frees the GIL) while the builder threads compute
        # the small metrics and make the charts' figures.
        background = ThreadPoolExecutor(max_workers=2)
        with background, ThreadPoolExecutor(max_workers=SECTION_THREADS) as builders:
            two_seats = run.n_seats >= 2 and sources.has_card_values(run)
            steps = run.turns is not None or (run.sums is not None and aggregates.STEPS in run.sums)
            pending = _Pending(
                unit,
                background.submit(sources.card_tables, run) if sources.has_cards(run) else None,
                background.submit(tempo_data, run, unit) if tempo_problem(run) is None else None,
                background.submit(step_data, run, unit) if shows_steps(run, unit) else None,
                background.submit(solitaire_data, run) if run.solitaire and steps else None,
                background.submit(sources.seen_unseen_of, run, max_games=SEEN_GAMES) if two_seats else None,
                background.submit(sources.tier_counts_of, run)
                if two_seats and len(sources.tier_names_of(run)) >= 2
                else None,
            )
            ctx = ReportContext(run, info, out, pending, cv, variant_info(run))
            first = {s.anchor: builders.submit(s.build, ctx) for s in SECTIONS if s.anchor not in LAST}
            last = {s.anchor: builders.submit(s.build, ctx) for s in SECTIONS if s.anchor in LAST}
            built: dict[str, str | None] = {anchor: f.result() for anchor, f in (first | last).items()}
        shown = [s for s in SECTIONS if built[s.anchor] is not None]
        nav = [(s.anchor, s.label(ctx) if callable(s.label) else s.label) for s in shown]
        body = [str(built[s.anchor]) for s in shown]
        title = " — ".join(str(v) for v in (info["game"], info["variant"]) if v) or run.name
        subtitle = f"{info['games']:,} games · run {run.name} · report generated {datetime.now(UTC):%Y-%m-%d %H:%M} UTC"
        path = out.out_dir / "index.html"
        text = out.resolve(page(f"Balance report: {title}", title, subtitle, nav, body, "Generated by balance.report."))
    path.write_text(text, encoding="utf-8")
    return path
