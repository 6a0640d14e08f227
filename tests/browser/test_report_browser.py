"""Generated reports in headless Chromium: the summary renders, the card table sorts and filters, nothing runs.

Two real Cardinger runs on the same seeds (tuned vs greedy, and greedy vs greedy) on a card
pool where one card is named ``<script>alert(1)</script>``, a hand-made ``values.parquet``
in the first run, then its report and the comparison are opened in Chromium and driven
with real mouse clicks and typed text. Screenshots go to ``$BROWSER_OUT`` (default
``runs/browser/``) for a person to look at.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

from balance.io import Run, load_run
from balance.report import write_compare_report, write_report
from balance.run import run
from balance.spec import RunSpec
from tests.browser.cdp import Browser

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = "<script>alert(1)</script>"
GAMES = 3000
OUT = Path(os.environ.get("BROWSER_OUT", ROOT / "runs" / "browser"))


def _values(run_: Run) -> None:
    """Write a hand-made values.parquet: every card of the pool, the renamed card clearly too strong."""
    dim = run_.card_dim.select("card", "name")
    delta = [0.001 * ((int(c) * 37) % 21 - 10) for c in dim["card"]]
    frame = dim.with_columns(
        pl.Series("delta", delta),
        pl.Series("half", [0.008] * dim.height),
        pl.lit(5000, pl.Int64).alias("n_pairs"),
    )
    special = {SCRIPT: 0.06, "Pick Boy": -0.05}  # clearly too strong, clearly too weak
    frame = frame.with_columns(
        pl.col("name").replace_strict(special, default=pl.col("delta"), return_dtype=pl.Float64).alias("delta")
    )
    frame = frame.with_columns(
        (pl.col("delta") - pl.col("half")).alias("ci_low"), (pl.col("delta") + pl.col("half")).alias("ci_high")
    )
    frame.drop("half").write_parquet(run_.path / "values.parquet")


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Generate the two runs and their reports; return the HTML paths."""
    root = tmp_path_factory.mktemp("browser")
    source = ROOT / "sims" / "cardinger" / "cards.csv"
    cards = root / "cards.csv"
    cards.write_text(source.read_text(encoding="utf-8").replace(",Idealogue,", f",{SCRIPT},"), encoding="utf-8")
    runs = {}
    for name, bots in (("tuned-greedy", ("tuned", "greedy")), ("greedy", ("greedy", "greedy"))):
        spec = RunSpec(
            game="cardinger", n_games=GAMES, seed=7, bots=bots, cards_file=str(cards), out=str(root), name=name
        )
        runs[name] = load_run(run(spec))
    _values(runs["tuned-greedy"])
    single = write_report(runs["tuned-greedy"], root / "report")
    compare = write_compare_report(
        runs["tuned-greedy"], runs["greedy"], root / "compare", label_a="tuned", label_b="greedy"
    )
    return {"single": single, "compare": compare}


@pytest.fixture
def browser() -> Iterator[Browser]:
    with Browser(width=1280, height=900) as b:
        yield b


def _column(b: Browser, table: str, header: str) -> list[str]:
    """Return the sort values (data-v) of the visible rows of a table's column named ``header``."""
    return b.js(
        f"""(function () {{
        var t = document.getElementById("{table}");
        var i = Array.from(t.tHead.rows[0].cells).findIndex(function (h) {{ return h.textContent === {header!r}; }});
        return Array.from(t.tBodies[0].rows).filter(function (r) {{ return !r.hidden; }})
          .map(function (r) {{ return r.cells[i].dataset.v; }});
    }})()"""
    )


def _index(b: Browser, table: str, header: str) -> int:
    i = b.js(
        f"Array.from(document.getElementById('{table}').tHead.rows[0].cells)"
        f".findIndex(function (h) {{ return h.textContent === {header!r}; }})"
    )
    assert i >= 0, header
    return int(i) + 1


def test_single_report_summary_renders_first_and_no_script_runs(pages: dict[str, Path], browser: Browser) -> None:
    browser.open(pages["single"])
    assert browser.problems == []  # no alert() dialog, no uncaught exception, no console error
    assert browser.js("document.querySelector('main section').id") == "summary"
    items = browser.js(
        "Array.from(document.querySelectorAll('#summary li')).map(function (li) { return li.textContent; })"
    )
    topics = [item.split(".")[0] for item in items]
    for topic in ("Seat advantage", "Bots", "Draws and timeouts", "Game length", "Too strong cards", "Rules"):
        assert topic in topics, topics
    strong = next(item for item in items if item.startswith("Too strong cards"))
    assert SCRIPT in strong  # the name is shown as text, not run as a script
    assert "By counterfactual value Δ" in strong
    top = browser.js("document.getElementById('summary').getBoundingClientRect().bottom")
    assert top < 2 * 900  # the summary is read without scrolling far
    OUT.mkdir(parents=True, exist_ok=True)
    browser.screenshot(OUT / "report-top.png", full=False)
    browser.screenshot(OUT / "report-full.png")


def test_card_table_fits_the_page_width(pages: dict[str, Path], browser: Browser) -> None:
    browser.open(pages["single"])
    widths = browser.js(
        """(function () {
        var t = document.getElementById("card-table"), wrap = t.parentElement, main = document.querySelector("main");
        var style = getComputedStyle(main);
        return [t.getBoundingClientRect().right, main.getBoundingClientRect().right - parseFloat(style.paddingRight),
                wrap.scrollWidth, wrap.clientWidth];
    })()"""
    )
    table_right, content_right, scroll_width, client_width = widths
    assert table_right <= content_right + 1
    assert scroll_width <= client_width  # no horizontal scrolling inside the table's box


def test_card_table_sorts_by_a_click_on_its_header(pages: dict[str, Path], browser: Browser) -> None:
    browser.open(pages["single"])
    header = "counterfactual Δ"
    n = _index(browser, "card-table", header)
    browser.click(f"#card-table thead th:nth-child({n})")
    values = _column(browser, "card-table", header)
    numbers = [float(v) for v in values if v != ""]
    assert len(numbers) >= 60
    assert numbers == sorted(numbers)
    assert values[: len(numbers)] == [v for v in values if v != ""]  # empty cells last
    assert browser.js(f"document.querySelector('#card-table thead th:nth-child({n})').getAttribute('aria-sort')") == (
        "ascending"
    )
    browser.click(f"#card-table thead th:nth-child({n})")
    numbers = [float(v) for v in _column(browser, "card-table", header) if v != ""]
    assert numbers == sorted(numbers, reverse=True)
    browser.click("#card-table thead th:nth-child(1)")
    assert browser.js(
        "(function () { var v = Array.from(document.querySelectorAll('#card-table tbody tr td:first-child'))"
        ".map(function (c) { return c.dataset.v; }); for (var i = 1; i < v.length; i++) "
        "{ if (v[i - 1].localeCompare(v[i]) > 0) return false; } return true; })()"
    )
    assert browser.problems == []


def test_card_table_filters_by_typed_text(pages: dict[str, Path], browser: Browser) -> None:
    browser.open(pages["single"])
    total = browser.js("document.querySelectorAll('#card-table tbody tr').length")
    box = "input[data-filter='card-table']"
    browser.type(box, "too strong")
    verdicts = _column(browser, "card-table", "verdict")
    assert verdicts
    assert set(verdicts) == {"too strong"}
    assert browser.js("document.querySelector('[data-count=\"card-table\"]').textContent") == (
        f"{len(verdicts)} of {total} cards shown"
    )
    browser.type(box, "alert")
    names = browser.js(
        "Array.from(document.querySelectorAll('#card-table tbody tr')).filter(function (r) { return !r.hidden; })"
        ".map(function (r) { return r.cells[0].textContent; })"
    )
    assert names == [SCRIPT]
    y = browser.js("document.getElementById('cards').getBoundingClientRect().top + window.scrollY")
    browser.screenshot(OUT / "cards-filtered.png", clip=(0, y, 1280, 700))
    browser.type(box, "")
    assert browser.js("document.querySelectorAll('#card-table tbody tr:not([hidden])').length") == total
    assert browser.problems == []


def test_compare_report_summary_and_bot_dependence(pages: dict[str, Path], browser: Browser) -> None:
    browser.open(pages["compare"])
    assert browser.problems == []
    assert browser.js("document.querySelector('main section').id") == "summary"
    text = browser.js("document.getElementById('summary').textContent")
    assert "Seat advantage" in text
    assert "under tuned" in text
    browser.screenshot(OUT / "compare-top.png", full=False)
    title = browser.js("document.querySelector('#bot-dependence h2').textContent")
    assert title == "How much do card values depend on the bot?"
    browser.type("input[data-filter='rank-table']", "alert(1)")
    rows = browser.js("document.querySelectorAll('#rank-table tbody tr:not([hidden])').length")
    assert rows == 1
