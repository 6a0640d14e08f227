"""The report leads with answers: the summary, verdicts, the card table's script, bot dependence, methods."""

from __future__ import annotations

import html as htmllib
import re
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

import sims
from balance import charts
from balance.io import Run
from balance.report import write_compare_report, write_report
from balance.report.html import Charts, bullets, filter_box, table, text
from balance.report.summary import tier_sentence
from balance.report.tiers import TierResult, tiers_section

SCRIPT = "<script>alert(1)</script>"


def _text(html: str, anchor: str) -> str:
    """Return the plain text of one section (tags dropped, entities decoded)."""
    start = html.index(f'<section id="{anchor}">')
    end = html.index("</section>", start)
    return htmllib.unescape(re.sub(r"<[^>]+>", " ", html[start:end])).replace("\u202f", " ")


def _items(html: str) -> dict[str, str]:
    """Return the summary's items by topic."""
    start = html.index('<section id="summary">')
    part = html[start : html.index("</section>", start)]
    items = re.findall(r"<li><b>(.*?)\.</b> (.*?)</li>", part)
    return {htmllib.unescape(t): htmllib.unescape(s).replace("\u202f", " ") for t, s in items}


@pytest.fixture(scope="module")
def small_html(shared_run: Run, tmp_path_factory: pytest.TempPathFactory) -> str:
    return write_report(shared_run, tmp_path_factory.mktemp("summary")).read_text(encoding="utf-8")


def test_the_summary_comes_first_on_the_page_and_in_the_navigation(small_html: str) -> None:
    sections = re.findall(r'<section id="([^"]+)">', small_html)
    assert sections[0] == "summary"
    assert sections[1] == "overview"
    assert re.findall(r'<a href="#([^"]+)">', small_html)[0] == "summary"
    assert sections.count("summary") == 1


def test_summary_gives_the_headline_numbers_with_intervals(small_html: str) -> None:
    items = _items(small_html)
    # decided games 0-4; the first seat won games 0, 1, 2 (3 of 5); Wilson 95 % CI 23.1-88.2 %
    assert items["Seat advantage"] == (
        "No significant first-seat advantage: the seat that moves first wins 60.0 % of decided games "
        "(95 % CI 23.1 %–88.2 %, n = 5)."
    )
    assert items["Bots"].startswith("Share of its seats each bot wins: alpha 50.0 % (95 % CI 18.8 %–81.2 %, n = 6)")
    assert items["Draws and timeouts"] == (
        "1 of 6 games (16.7 %, 95 % CI 3.0 %–56.4 %) end without a winner: timeout 1."
    )
    # turns 5, 4, 5, 4, 3, 3 (mean 4); rounds 3, 2, 3, 2, 2, 2 (mean 2.33)
    assert items["Game length"].startswith("Games last 4.0 turns on average (95 % CI 3.1–4.9); median 4")
    assert "2.3 rounds of both seats" in items["Game length"]


def test_summary_flags_cards_by_gih_wr_with_the_bias_warning(small_html: str) -> None:
    items = _items(small_html)
    # GIH WR: card 0 3/4, card 1 2/6 (hi 70.0 % < the median card's 75.0 %), card 2 1/1 (lo 20.7 %)
    assert items["Too weak cards"] == (
        "By GIH WR, more than 2 pp from the median card (75.0 %) with the 95 % interval beyond it: "
        f"{SCRIPT} 33.3 % (9.7 % to 70.0 %)."
    )
    assert "Too strong cards" not in items
    assert items["Cards in line"] == "2 of 3 cards are not flagged by GIH WR."
    assert items["Caution"].startswith("GIH WR is observational")
    assert SCRIPT not in small_html  # the card name is escaped in the summary as everywhere


def test_summary_and_methods_name_the_variant_and_its_note(
    make_run: Callable[..., Run], tmp_path: Path, small_html: str
) -> None:
    note = sims.load("cardinger").variants["digital"].note
    html = write_report(make_run("digital", variant="digital"), tmp_path / "digital").read_text(encoding="utf-8")
    assert _items(html)["Rules"] == f"Figures rest on variant digital: {note.rstrip('.')}."
    assert f"Rule reading: variant digital: {note.rstrip('.')}" in _text(html, "methods")
    # a variant the game does not name: said so, and its name stays escaped
    assert "not a named variant of cardinger" in _text(small_html, "methods")
    assert "modern &amp; &lt;i&gt;new&lt;/i&gt;" in small_html


def test_summary_of_a_mirror_deck_battle_run(battle_run: Run, tmp_path: Path) -> None:
    html = write_report(battle_run, tmp_path / "battles").read_text(encoding="utf-8")
    items = _items(html)
    assert "mirror decks" in items["Cards"]
    assert "Too strong cards" not in items
    assert "in 1.8 battles on average" in items["Game length"]  # battles 2, 3, 1, 1
    assert items["Draws and timeouts"].endswith("end without a winner: battle cap 1, mutual wipeout 1.")
    assert "rounds" not in items["Game length"]  # one turns row per battle: no rounds


def test_summary_of_a_one_seat_run(solo_run: Run, tmp_path: Path) -> None:
    items = _items(write_report(solo_run, tmp_path / "solo").read_text(encoding="utf-8"))
    assert "Seat advantage" not in items
    assert items["One seat"].startswith("No opponent")
    # kills 3, 0, 2, 1, 1, 2: mean 1.5; spade_king 3, 2, 1 (mean 2), heart_jack 0, 1, 2 (mean 1)
    assert items["Headline outcome"].startswith("Mean kills per game: 1.50 (95 % CI 0.40–2.60, n = 6)")
    assert "highest spade_king 2.00" in items["Headline outcome"]
    assert "lowest heart_jack 1.00" in items["Headline outcome"]
    assert items["How games end"].startswith("Most often by draw failed monster 50.0 %")
    assert items["Game length"].startswith("Games last 2.7 battles on average")  # 4, 2, 2, 4, 1, 3 battles


def test_card_table_is_compact_sortable_filterable_and_explains_its_columns(small_html: str) -> None:
    cards = small_html[small_html.index('<section id="cards">') : small_html.index('<section id="card-attributes">')]
    assert '<table id="card-table" class="sortable compact">' in cards
    assert 'data-filter="card-table"' in cards
    assert 'title="Improvement when drawn: GIH WR − GNS WR' in cards  # header tooltips define the columns
    assert '<span class="weak">too weak</span>' in cards
    assert "Verdicts by GIH WR" in cards
    assert "IWD = GIH WR − GNS WR; here a card that is never seen sits in games of" in htmllib.unescape(cards)
    assert small_html.count("<script>") == 1  # the page's own script only


def test_iwd_note_says_biased_when_unseen_cards_sit_in_short_games(
    make_run: Callable[..., Run], game_specs: list[dict], tmp_path: Path
) -> None:
    """Many long games where card 0 is seen and short ones where it is not: the note calls IWD biased."""
    games, cards = [], []
    for g in range(60):
        seen = g % 3 != 0
        path = [(t % 2, t // 2) for t in range(1, 12 if seen else 4)]
        games.append({"winner": 0 if seen else 1, "path": path})
        cards.append((g, 0, 0, 0, 1 if seen else -1, -1, 0, 0))
        cards.append((g, 1, 1, 1, 0, -1, 0, 0))
    html = write_report(make_run("cycling", games, cards), tmp_path / "cycling").read_text(encoding="utf-8")
    text_ = _text(html, "cards")
    assert "IWD (and GNS WR) are biased by construction here" in text_
    assert "never against 0" in text_
    assert _items(html)["IWD"].startswith("IWD (and GNS WR) are biased by construction here")


def test_tempo_is_drawn_by_round_when_the_seats_alternate(small_html: str, battle_run: Run, tmp_path: Path) -> None:
    tempo = _text(small_html, "tempo")
    assert 'alt="Score difference by round"' in small_html
    assert "Rounds: the first seat's turn and then the second's" in tempo
    assert "turn the winner takes the lead for good" in tempo  # leads stay per turn
    battle = write_report(battle_run, tmp_path / "b").read_text(encoding="utf-8")
    assert 'alt="Score difference by battle"' in battle


def test_one_bot_run_says_how_to_see_bot_dependence(make_run: Callable[..., Run], tmp_path: Path) -> None:
    run = make_run("one-bot")
    one_bot = Run(run.path, run.manifest, run.games, run.seats.with_columns(pl.lit("greedy").alias("bot")),
                  run.cards, run.turns, run.card_dim)  # fmt: skip
    html = write_report(one_bot, tmp_path / "one").read_text(encoding="utf-8")
    assert "One bot plays every seat of this run (greedy)" in _text(html, "bot-dependence")
    assert "Bot dependence" not in _items(html)


def test_two_bot_run_with_too_few_cards_says_so(small_html: str) -> None:
    assert "too few to rank" in _text(small_html, "bot-dependence")


def _tier_result(n_cards: int = 12) -> TierResult:
    rows = []
    for card in range(n_cards):
        for tier, p in (("tuned", 0.3 + 0.03 * card), ("greedy", 0.3 + 0.03 * ((card * 5) % n_cards))):
            rows += [(card, tier, half, round(p * 500), 500) for half in (0, 1)]
    counts = pl.DataFrame(rows, schema=["card", "tier", "half", "k", "n"], orient="row")
    dim = pl.DataFrame({"card": list(range(n_cards)), "name": [SCRIPT, *(f"card {i}" for i in range(1, n_cards))]})
    return TierResult(counts, "tuned", "greedy", dim)


def test_bot_dependence_section_ranks_escapes_and_charts(tmp_path: Path) -> None:
    result = _tier_result()
    out = Charts(tmp_path)
    html = tiers_section(result, out)
    assert SCRIPT not in html
    assert "&lt;script&gt;" in html
    assert '<table id="rank-table" class="sortable compact">' in html
    assert "Spearman ρ [95 % CI]" in html
    assert (tmp_path / "card_rank_shift.png").exists()
    sentence = tier_sentence(result.agreement, result.ranks)[1]
    assert sentence.startswith(
        f"Ranking 12 cards by GIH WR, tuned and greedy agree with Spearman ρ = {result.agreement.rho:.2f}"
    )
    assert "card values depend on the bot" in sentence  # a reshuffled ranking, no noise: far below the ceiling


def test_compare_report_opens_with_both_runs_numbers_and_the_differences(
    small_run: Run, make_run: Callable[..., Run], game_specs: list[dict], tmp_path: Path
) -> None:
    longer = make_run("longer", [{**g, "path": [*g["path"], g["path"][-1]]} for g in game_specs])
    html = write_compare_report(small_run, longer, tmp_path / "cmp", label_a="tabletop", label_b="digital")
    page = html.read_text(encoding="utf-8")
    assert re.findall(r'<section id="([^"]+)">', page)[0] == "summary"
    items = _items(page)
    assert items["Seat advantage"].startswith("The seat that moves first wins 60.0 % of decided games under tabletop")
    assert items["Game length"].startswith("Games last 4.0 turns on average (95 % CI 3.1–4.9) under tabletop and 5.0")
    assert items["Difference"].startswith("Games are 1.00 turns shorter under tabletop than under digital")
    assert items["Rules"] == "A = tabletop: modern & <i>new</i>; B = digital: modern & <i>new</i>."
    assert "Card ranking under tabletop and digital" in page  # same bots: ranked by run, not by bot
    assert SCRIPT not in page


def test_html_builders_escape_what_they_are_given() -> None:
    assert (
        bullets([("A<b>", "x & <i>y</i>")])
        == '<ul class="summary"><li><b>A&lt;b&gt;.</b> x &amp; &lt;i&gt;y&lt;/i&gt;</li></ul>'
    )
    box = filter_box('t"1', "cards <x>")
    assert 'data-filter="t&quot;1"' in box
    assert "cards &lt;x&gt;" in box
    out = table(["h"], [[text("v")]], titles=['say "<hi>"'], table_id="x")
    assert 'title="say &quot;&lt;hi&gt;&quot;"' in out
    assert '<table id="x" class="sortable">' in out


def test_card_value_chart_draws_deltas_in_points_around_zero() -> None:
    df = pl.DataFrame({"name": ["a", "b"], "delta": [0.03, -0.01], "delta_lo": [0.01, -0.02], "delta_hi": [0.05, 0.0],
                       "delta_n": [4000, 5000]})  # fmt: skip
    ax = charts.plot_card_values(df, metric="delta")
    assert ax.get_xlabel() == "Counterfactual Δ (percentage points)"
    assert "paired games per card" in ax.get_title(loc="left")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    assert ax.lines[0].get_xdata()[0] == 0.0  # the dashed reference at Δ = 0


@pytest.mark.parametrize(
    ("rho", "lo", "hi", "ceiling", "verdict"),
    [
        (0.60, 0.42, 0.74, 0.96, "card values depend on the bot"),
        (0.93, 0.88, 0.96, 0.95, "the ranking hardly depends on the bot"),
        (0.49, 0.29, 0.65, 0.56, "too few games per card to tell the bot from noise"),
        (0.49, 0.29, 0.65, float("nan"), "too few games per card to tell the bot from noise"),
    ],
)
def test_bot_dependence_sentence_weighs_rho_against_the_noise_ceiling(
    rho: float, lo: float, hi: float, ceiling: float, verdict: str
) -> None:
    from balance.metrics.tiers import Agreement

    a = Agreement("tuned", "greedy", "gih_wr", 70, rho, lo, hi, ceiling, ceiling, ceiling, 3)
    ranks = pl.DataFrame({"name": ["Sea Dragon", "Rollord"], "rank_a": [1.0, 53.0], "rank_b": [28.0, 1.0],
                          "moved": [False, True]})  # fmt: skip
    topic, sentence = tier_sentence(a, ranks)
    assert topic == "Bot dependence"
    assert f": {verdict}; 3 cards move significantly; largest significant move: Rollord (rank 53 → 1)." in sentence


def test_a_comparison_says_what_moved_the_card_ranking() -> None:
    from balance.metrics.tiers import Agreement
    from balance.report.compare import _what_differs

    a = Agreement("standard", "no_first_player_rule", "gih_wr", 87, 0.98, 0.96, 0.99, 0.995, 0.99, 0.999, 32)
    topic, sentence = tier_sentence(a, None, what="the rules")
    assert topic == "Card ranking"
    assert "card values depend on the rules" in sentence
    assert "bot" not in sentence
    info = {"bots": "greedy", "variant": "standard"}
    assert _what_differs(info, info | {"variant": "no_mulligan"}) == "the rules"
    assert _what_differs(info, dict(info)) == "the card pool"
    assert _what_differs(info, info | {"bots": "planner"}) == "the run"


def test_a_mirror_deck_run_with_two_bots_does_not_rank_its_cards(battle_run: Run, tmp_path: Path) -> None:
    bots = pl.when(pl.col("seat") == 0).then(pl.lit("tactician")).otherwise(pl.lit("greedy")).alias("bot")
    two = Run(battle_run.path, battle_run.manifest, battle_run.games, battle_run.seats.with_columns(bots),
              battle_run.cards, battle_run.turns, battle_run.card_dim)  # fmt: skip
    html = write_report(two, tmp_path / "mirror-two").read_text(encoding="utf-8")
    assert "Every seat holds every card (mirror decks)" in _text(html, "bot-dependence")
    assert "Bot dependence" not in _items(html)
    assert "tactician" in _items(html)["Bots"]


def test_compare_summary_of_one_seat_runs_gives_steps_and_the_headline_outcome(
    solo_run: Run, solo_run_b: Run, tmp_path: Path
) -> None:
    page = write_compare_report(solo_run, solo_run_b, tmp_path / "solo-cmp").read_text(encoding="utf-8")
    items = _items(page)
    assert "Seat advantage" not in items
    assert items["Game length"].startswith("Games last 2.7 battles on average (95 % CI 1.4–3.9) under advanced")
    # kills A 3, 0, 2, 1, 1, 2 (mean 1.5); B 2, 0, 2, 1, 0, 1 (mean 1.0)
    assert items["Headline outcome"].startswith("Mean kills per game: 1.50 under advanced (95 % CI 0.40–2.60)")
    assert "and 1.00 under no_ace_spades" in items["Headline outcome"]
    assert '<section id="bot-dependence">' not in page  # no card win rates to rank in a one-seat game
