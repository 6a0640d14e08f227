"""Hostile Card Wars deck lists (CSV ``deck,card,copies``) through the CLI: one error line, nothing written.

The shared fuzz tests (tests/balance/test_hostile_inputs.py) cover decks of one distinct card
per slot; Card Wars' lists have copies, a size range (40..64) and at most 3 copies (E18).
"""

import csv
import io
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sims
from balance.cli import cli

GAME = sims.load("cardwars")
POOL = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), GAME.params)
JUNK = st.one_of(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters=",\n\r\"'"), max_size=8).filter(
        lambda t: t.strip() and not (t.strip().lstrip("+").isascii() and t.strip().lstrip("+").isdigit())
    ),
    st.sampled_from(["1.5", "0x3", "--1", "1e1", "NaN", "½", "١", "３", "0", "-2", "None"]),
)


def starter(field: str, deck: str) -> list[list[str]]:
    """Return the rows ``deck,card,copies`` of a starter deck (``field`` = e.g. ``in_finn``)."""
    copies = POOL.table[field]
    return [[deck, POOL.names[c], str(int(copies[c]))] for c in range(len(POOL.names)) if copies[c] > 0]


def to_csv(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


@st.composite
def bad_deck_file(draw) -> tuple[str, list[str]]:
    """Return (file text, texts the one error line must contain besides the path)."""
    a, b = starter("in_finn", "a"), starter("in_jake", "b")
    rows = [["deck", "card", "copies"], *a, *b]
    kind = draw(st.sampled_from(["unknown", "copies", "many", "short", "long", "header", "cell", "binary"]))
    i = draw(st.integers(1, len(rows) - 1))
    if kind == "unknown":
        rows[i][1] = draw(JUNK.filter(lambda t: t.strip() not in POOL.names))
        return to_csv(rows), [f":{i + 1}:", "column 'card'"]
    if kind == "copies":
        rows[i][2] = draw(JUNK)
        return to_csv(rows), [f":{i + 1}:", "column 'copies'"]
    if kind == "many":
        rows[i][2] = str(draw(st.integers(4, 10**6)))
        return to_csv(rows), [f":{i + 1}:", "the rules allow 3"]
    if kind == "short":
        k = draw(st.integers(1, len(a) - 1))
        return to_csv([rows[0], *a[:k], *b]), ["deck 'a'", "at least 40"]
    if kind == "long":
        extra = [["a", POOL.names[c], "3"] for c in range(len(POOL.names)) if POOL.table["in_finn"][c] == 0][:9]
        return to_csv([*rows, *extra]), ["deck 'a'", "at most 64"]
    if kind == "header":
        rows[0] = [draw(JUNK), "card", "copies"]
        return to_csv(rows), [":1:", "header"]
    if kind == "cell":
        rows[i] = rows[i][:1]
        return to_csv(rows), [f":{i + 1}:"]
    return "\udcff\udcfe", ["cannot read"]


@pytest.fixture(scope="module")
def runner():
    return CliRunner()


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_bad_deck_lists_are_one_line_errors(runner, data):
    text, needles = data.draw(bad_deck_file())
    tmp = Path(tempfile.mkdtemp())
    path = tmp / "decks.csv"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    out = tmp / "out"
    args = ["run", "-g", "cardwars", "--decks", str(path), "--deck-names", "a,b", "-o", str(out), "-n", "3", "-q"]
    result = runner.invoke(cli, args)
    assert result.exit_code not in (0, None), result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    for needle in (str(path), *needles):
        assert needle in errors[0], (needle, errors[0])
    assert not out.exists()
