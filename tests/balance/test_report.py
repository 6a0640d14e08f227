"""HTML reports: every section, charts embedded and written, data escaped, nothing external."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest

from balance.io import Run, load_run, write_json
from balance.parts import records_to_table, write_part
from balance.report import write_compare_report, write_report

SECTIONS = (
    "overview",
    "win-rates",
    "first-seat",
    "outcomes",
    "game-length",
    "cards",
    "card-attributes",
    "tempo",
    "seat-counters",
    "methods",
)
CHARTS = (
    "win_rates",
    "first_seat_advantage",
    "game_length",
    "card_gih_wr",
    "card_iwd",
    "tempo",
    "lead_changes",
    "lead_for_good",
    "card_attributes",
)


def _assert_self_contained(html: str) -> None:
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.IGNORECASE)
    assert "http://" not in html
    assert "https://" not in html
    assert "<link" not in html


@pytest.fixture(scope="module")
def report(shared_run: Run, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The report of the shared small run: (output directory, HTML text)."""
    out = tmp_path_factory.mktemp("report")
    path = write_report(shared_run, out)
    assert path == out / "index.html"
    return out, path.read_text(encoding="utf-8")


def test_report_writes_html_and_pngs_with_every_section(report: tuple[Path, str]) -> None:
    out, html = report
    for anchor in SECTIONS:
        assert f'<section id="{anchor}">' in html
    for chart in CHARTS:
        assert (out / f"{chart}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert html.count('src="data:image/png;base64,') == len(CHARTS)
    for fact in ("cardinger", "alpha", "beta", "42", "target_score", "2026-11-22T12:00:00Z"):
        assert fact in html
    assert "Bumblebee" in html
    assert "rulebook" in html  # provenance beside the card
    assert "partly reconstructed" in html
    assert '<section id="steps">' not in html  # one row per turn: no steps section
    assert "End reason ×" not in html  # end_reason is the only enum column
    assert "Score difference by round" in html  # the seats alternate: tempo by round
    assert "Turn the winner takes the lead for good" in html
    assert "mirror decks" not in html
    _assert_self_contained(html)


def test_report_escapes_every_string_from_data(report: tuple[Path, str], script_name: str) -> None:
    html = report[1]
    assert script_name not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Pick &amp; Boy" in html
    assert "<b>bold</b>" not in html  # a parameter value
    assert "&lt;b&gt;bold&lt;/b&gt;" in html
    assert "<i>new</i>" not in html  # the variant name
    assert "modern &amp; &lt;i&gt;new&lt;/i&gt;" in html
    assert html.count("<script>") == 1  # only our own sorting script


def test_report_skips_missing_tables_with_a_note(make_run: Callable[..., Run], tmp_path: Path) -> None:
    run = make_run("bare", tables=("games", "seats"))
    out = tmp_path / "bare-report"
    html = write_report(run, out).read_text(encoding="utf-8")
    assert "did not record the cards table" in html
    assert "did not record the turns table" in html
    assert not (out / "tempo.png").exists()
    assert (out / "win_rates.png").exists()
    _assert_self_contained(html)


def test_compare_report_shows_paired_and_unpaired_results(
    small_run: Run, make_run: Callable[..., Run], game_specs: list[dict[str, Any]], tmp_path: Path
) -> None:
    longer = make_run("longer", [{**g, "path": [*g["path"], g["path"][-1]]} for g in game_specs])
    out = tmp_path / "cmp"
    path = write_compare_report(small_run, longer, out, label_a="tabletop <1>", label_b="digital")
    html = path.read_text(encoding="utf-8")
    for anchor in ("overview", "summary", "headline", "cards"):
        assert f'<section id="{anchor}">' in html
    assert "Games are 1.00 turns shorter under tabletop &lt;1&gt; than under digital" in html
    assert "tabletop <1>" not in html
    assert "unpaired" in html
    assert "Paired on 6 games (6 with identical per-game seeds)" in html
    assert (out / "comparison.png").exists()
    assert (out / "card_gih_wr_delta.png").exists()
    _assert_self_contained(html)


def test_report_of_a_one_seat_game_without_cards_degrades_gracefully(tmp_path: Path) -> None:
    """A solitaire-style run: one seat, extra game columns, turns with only score_0, no cards."""
    games = np.zeros(4, [("game", "i8"), ("seed", "u8"), ("first_seat", "i1"), ("winner", "i1"), ("turns", "i2"),
                         ("end_reason", "i1"), ("level", "i2")])  # fmt: skip
    games["game"], games["winner"], games["turns"], games["level"] = range(4), [0, -1, 0, 0], [2, 3, 2, 1], [3, 1, 4, 2]
    seats = np.zeros(
        4, [("game", "i8"), ("seat", "i1"), ("bot", "i1"), ("score", "i2"), ("won", "i1"), ("kills", "i2")]
    )
    seats["game"], seats["won"], seats["kills"] = range(4), [1, 0, 1, 1], [5, 2, 7, 1]
    turns = np.zeros(8, [("game", "i8"), ("turn", "i2"), ("seat", "i1"), ("score_0", "i2")])
    turns["game"], turns["turn"] = [0, 0, 1, 1, 1, 2, 2, 3], [1, 2, 1, 2, 3, 1, 2, 1]
    root = tmp_path / "solo"
    reasons = {"end_reason": ["cleared", "gave_up"]}
    write_part(
        records_to_table(games, names=reasons, constants={"run_id": "solo", "variant": "v", "chunk": 0}),
        root / "games",
        0,
    )
    write_part(records_to_table(seats, names={"bot": ["hero"]}), root / "seats", 0)
    write_part(records_to_table(turns), root / "turns", 0)
    pl.DataFrame({"card": pl.Series([], dtype=pl.Int16), "name": pl.Series([], dtype=pl.String)}).write_parquet(
        root / "cards.parquet"
    )
    write_json(
        root / "manifest.json", {"run_id": "solo", "game": "cardrpg", "chunks": [{"index": 0, "status": "done"}]}
    )
    out = tmp_path / "solo-report"
    html = write_report(load_run(root), out).read_text(encoding="utf-8")
    assert "Single-seat game" in html
    assert "tempo needs two seats" in html
    assert "did not record the cards table" in html
    assert "kills" in html
    assert (out / "win_rates.png").exists()
    _assert_self_contained(html)


def test_report_of_a_battle_level_run_has_steps_outcome_details_and_attributes(battle_run: Run, tmp_path: Path) -> None:
    out = tmp_path / "battles"
    html = write_report(battle_run, out).read_text(encoding="utf-8")
    for anchor in (*SECTIONS, "steps"):
        assert f'<section id="{anchor}">' in html
    order = [html.index(f'<section id="{a}">') for a in ("game-length", "steps", "cards", "card-attributes", "tempo")]
    assert order == sorted(order)
    assert '<a href="#steps">Battles</a>' in html
    assert "<h2>Battles</h2>" in html
    assert "How battles end" in html
    assert "Won by the seat that opened the battle" in html
    assert "Per battle (mean over all battles)" in html
    assert "winner_bonus" in html
    assert "End reason × final how" in html
    assert "mutual_wipeout" in html
    assert "Score difference by battle" in html
    assert "Battle the winner takes the lead for good" in html
    assert "battle the winner takes the lead for good" in html
    assert "Score difference by turn" not in html
    assert "mirror decks" in html  # every seat holds every card: GP WR left out of the attribute tables
    assert "By suit" in html
    assert "By rank" in html
    assert "partly reconstructed" not in html  # suit, rank, type are attributes, not provenance
    for chart in (*CHARTS, "steps_per_game"):
        assert (out / f"{chart}.png").exists(), chart
    _assert_self_contained(html)


def test_report_of_a_battle_run_without_step_columns_has_no_steps_section(battle_run: Run, tmp_path: Path) -> None:
    turns = battle_run.turns.drop("how")
    run = Run(
        battle_run.path, battle_run.manifest, battle_run.games, battle_run.seats, None, turns, battle_run.card_dim
    )
    html = write_report(run, tmp_path / "no-steps").read_text(encoding="utf-8")
    assert '<section id="steps">' not in html
    assert '<section id="card-attributes">' not in html  # no cards table
    assert "Score difference by battle" in html


def test_a_report_never_loads_numba(tmp_path: Path) -> None:
    """`balance report` reads Parquet and draws: the kernels' compiler (Numba) stays out of its process."""
    from balance.run import run
    from balance.spec import RunSpec

    made = run(RunSpec(game="cardinger", n_games=200, seed=5, workers=1, out=str(tmp_path), name="r"))
    code = (
        "import sys\n"
        "from balance.cli import cli\n"
        f"cli.main(['report', {str(made)!r}, '--out', {str(tmp_path / 'report')!r}], standalone_mode=False)\n"
        "print(sorted(m for m in ('numba', 'llvmlite', 'sims.core.jit') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "[]"
    assert (tmp_path / "report" / "index.html").is_file()


def test_the_report_reads_a_games_info_not_its_kernels() -> None:
    code = """
import sys
from types import SimpleNamespace
from balance.report.groups import declared_events
from balance.report.single import variant_info
run = SimpleNamespace(manifest={"game": "cardwars", "variant": "cp1_finn_vs_jake", "rules_version": "2"})
print(variant_info(run), declared_events(run))
cardia = SimpleNamespace(manifest={"game": "cardia", "variant": "first_games"})
print(declared_events(cardia))
print(sorted(m for m in sys.modules if m.startswith(("sims.cardwars.", "sims.cardia."))))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert (
        out[0]
        == "VariantInfo(name='cp1_finn_vs_jake', note=\"Collector's Pack 1: Finn (seat 0) vs Jake\", caveat=None) ()"
    )
    assert out[1] == "('activations', 'flips')"
    assert "kernel" not in out[2]
    assert "bots" not in out[2]


def _win_rates_html(page: str) -> str:
    return page.split('id="win-rates"', 1)[1].split("<section", 1)[0]


@pytest.mark.parametrize(("bots", "mirror"), [(("greedy", "greedy"), True), (("greedy", "random"), False)])
def test_a_mirror_says_why_it_has_no_win_rate_by_bot(tmp_path: Path, bots: tuple[str, str], mirror: bool) -> None:
    """One bot in both seats wins half the decided games by construction: no one-bar chart, no bot rows."""
    from balance.run import run
    from balance.spec import RunSpec

    made = load_run(run(RunSpec(game="cardinger", n_games=300, seed=5, bots=bots, out=str(tmp_path), name="r")))
    part = _win_rates_html(write_report(made, tmp_path / "report").read_text(encoding="utf-8"))
    assert ("a mirror" in part) is mirror
    assert ("bot greedy" in part) is not mirror  # the table's by-bot row
    assert ("By bot and turn order" in part) is not mirror
    assert ("Win rate by bot and by seat" in part) is not mirror  # the chart's caption
    assert "seat 0" in part
    assert "moved first" in part
