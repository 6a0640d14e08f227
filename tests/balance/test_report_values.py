"""Counterfactual card values (``values.parquet``) in the report: found, checked, shown, and refused when wrong."""

from __future__ import annotations

import html as htmllib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from balance.cli import cli
from balance.io import Run
from balance.report import write_report
from balance.report.counterfactual import ValuesError, find_values, read_values

SCRIPT = "<script>alert(1)</script>"
# the small run's pool (conftest.CARD_DIM): 0 Bumblebee, 1 <script>, 2 Pick & Boy, 3 Unused (never dealt)
# median card Δ = (0.00 + 0.01) / 2 = 0.005: Bumblebee +8 pp [5, 11] is too strong, card 1 -6 pp [-9, -3] too weak
VALUES: dict[str, list[Any]] = {
    "card": [0, 1, 2, 3],
    "name": ["Bumblebee", SCRIPT, "Pick & Boy", "Unused"],
    "delta": [0.08, -0.06, 0.0, 0.01],
    "ci_low": [0.05, -0.09, -0.02, -0.01],
    "ci_high": [0.11, -0.03, 0.02, 0.03],
    "n_pairs": [4000, 4200, 3900, 4100],
    "gih_wr": [0.5, 0.4, 0.6, 0.5],  # observational metrics ride along; the report reads only the Δ columns
}


def write_values(path: Path, values: dict[str, Any] = VALUES, metadata: dict[str, str] | None = None) -> Path:
    """Write a hand-made values.parquet (with optional schema metadata, as balance value may add)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pl.DataFrame(values).to_arrow()
    if metadata:
        table = table.replace_schema_metadata({k.encode(): v.encode() for k, v in metadata.items()})
    pq.write_table(table, path)
    return path


def _items(html: str) -> dict[str, str]:
    start = html.index('<section id="summary">')
    part = html[start : html.index("</section>", start)]
    return {
        htmllib.unescape(t): htmllib.unescape(s).replace("\u202f", " ")
        for t, s in re.findall(r"<li><b>(.*?)\.</b> (.*?)</li>", part)
    }


def test_values_in_the_run_directory_feed_the_summary_and_the_card_table(small_run: Run, tmp_path: Path) -> None:
    meta = {"variant": "modern & <i>new</i>", "baseline": "same_cost"}  # the run's own variant: no caveat
    write_values(small_run.path / "values.parquet", metadata=meta)
    out = tmp_path / "report"
    html = write_report(small_run, out).read_text(encoding="utf-8")
    items = _items(html)
    assert items["Too strong cards"] == (
        "By counterfactual value Δ, more than 2 pp from the median card (+0.5 pp) with the 95 % interval beyond it: "
        "Bumblebee +8.0 pp (+5.0 pp to +11.0 pp)."
    )
    assert items["Too weak cards"].endswith(f"{SCRIPT} -6.0 pp (-9.0 pp to -3.0 pp).")
    assert items["Cards in line"] == "2 of 4 cards are not flagged by counterfactual value Δ."
    assert "Caution" not in items  # no bias warning when the verdicts rest on Δ
    cards = html[html.index('<section id="cards">') : html.index('<section id="card-attributes">')]
    assert "counterfactual Δ" in cards
    assert '<td data-v="8.0"><b>+8.00 pp</b><small>[5.00–11.00]</small><small>n 4\u202f000</small></td>' in cards
    assert "Unused" in cards  # a card with a Δ but never dealt in this run still gets its row
    assert "Verdicts by counterfactual Δ" in cards
    assert "baseline same_cost" in cards  # what the file says about itself
    assert (out / "card_delta.png").exists()
    assert "Counterfactual Δ (balance value)" in html  # the methods describe it
    assert SCRIPT not in html


def test_values_option_takes_a_directory_or_the_file_and_wins_over_the_run_s_own(
    small_run: Run, tmp_path: Path
) -> None:
    write_values(small_run.path / "values.parquet")
    zero = {**VALUES, "delta": [0.0] * 4, "ci_low": [-0.01] * 4, "ci_high": [0.01] * 4}
    other = write_values(tmp_path / "value-out" / "values.parquet", zero)
    for given in (other.parent, other):
        assert find_values(small_run, given) == other
        html = write_report(small_run, tmp_path / f"r-{given.name}", values=given).read_text(encoding="utf-8")
        assert _items(html)["Cards"].startswith("No card is flagged by counterfactual value Δ")


def test_without_values_the_run_has_none(small_run: Run) -> None:
    assert find_values(small_run) is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda v: v.pop("ci_high") and v, r"values.parquet: missing column\(s\) ci_high"),
        (lambda v: {**v, "card": [0, 1, 2, 9]}, r"row 4, card 9 \('Unused'\): no such card in the run's card pool"),
        (lambda v: {**v, "name": ["Bumblebee", "Impostor", "Pick & Boy", "Unused"]},
         r"row 2, card 1 \('Impostor'\): the run's card 1 is '<script>alert\(1\)</script>'; these values were"),
        (lambda v: {**v, "card": [0, 1, 1, 3]}, r"row 3, card 1 \('Pick & Boy'\): the card appears twice"),
        (lambda v: {**v, "delta": [0.2, -0.06, 0.0, 0.01]},
         r"row 1, card 0 \('Bumblebee'\): delta 0.2 lies outside its interval \[0.05, 0.11\]"),
        (lambda v: {**v, "delta": ["a", "b", "c", "d"]}, r"column delta must be numeric"),
        (lambda v: {**v, "n_pairs": [1.5, 2.0, 3.0, 4.0]}, r"column n_pairs must hold whole numbers"),
        (lambda v: {**v, "n_pairs": [4000, -1, 3900, 4100]}, r"row 2, card 1 .*: column n_pairs must be a count >= 0"),
        (lambda v: {**v, "ci_low": [None, -0.09, -0.02, -0.01]}, r"row 1, .*must be all set or all empty"),
        (lambda v: {**v, "delta": [8.0, -0.06, 0.0, 0.01], "ci_high": [11.0, -0.03, 0.02, 0.03]},
         r"row 1, .*must lie in \[-1, 1\]"),
    ],
)  # fmt: skip
def test_a_values_file_that_does_not_fit_is_one_line_naming_file_row_and_field(
    small_run: Run, tmp_path: Path, change: Callable[[dict[str, Any]], dict[str, Any]], message: str
) -> None:
    path = write_values(tmp_path / "bad" / "values.parquet", change({k: list(v) for k, v in VALUES.items()}))
    with pytest.raises(ValuesError, match=message) as info:
        read_values(path, small_run)
    assert "\n" not in str(info.value)
    assert str(path) in str(info.value)
    out = tmp_path / "never"
    with pytest.raises(ValuesError):
        write_report(small_run, out, values=path)
    assert not out.exists()  # nothing written


def test_values_of_another_game_or_no_parquet_at_all_are_refused(small_run: Run, tmp_path: Path) -> None:
    other = write_values(tmp_path / "o" / "values.parquet", metadata={"game": "blessings"})
    with pytest.raises(ValuesError, match=r"values of game 'blessings', but run small is 'cardinger'"):
        read_values(other, small_run)
    junk = tmp_path / "junk" / "values.parquet"
    junk.parent.mkdir()
    junk.write_text("card,delta\n0,0.1\n")
    with pytest.raises(ValuesError, match=r"junk/values.parquet: not a readable Parquet file"):
        read_values(junk, small_run)
    (tmp_path / "empty-dir").mkdir()
    with pytest.raises(ValuesError, match=r"empty-dir/values.parquet: no such values file"):
        find_values(small_run, tmp_path / "empty-dir")


def test_report_command_reads_values_and_refuses_bad_ones_in_one_line(small_run: Run, tmp_path: Path) -> None:
    runner = CliRunner()
    good = write_values(tmp_path / "v" / "values.parquet")
    result = runner.invoke(
        cli, ["report", str(small_run.path), "--values", str(good.parent), "--out", str(tmp_path / "r")]
    )
    assert result.exit_code == 0, result.output
    assert "counterfactual Δ" in (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    bad = write_values(tmp_path / "b" / "values.parquet", {**VALUES, "card": [0, 1, 2, 7]})
    result = runner.invoke(cli, ["report", str(small_run.path), "--values", str(bad), "--out", str(tmp_path / "x")])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert result.output.count("\n") == 1
    assert "card 7 ('Unused'): no such card in the run's card pool" in result.output
    assert not (tmp_path / "x").exists()


def test_a_one_seat_run_shows_values_and_verdicts_too(solo_run: Run, tmp_path: Path) -> None:
    values = {"card": [0, 1, 2], "name": ["spade:ace", "heart:5", "club:king"], "delta": [0.1, 0.0, -0.1],
              "ci_low": [0.08, -0.01, -0.12], "ci_high": [0.12, 0.01, -0.08], "n_pairs": [500, 500, 500]}  # fmt: skip
    path = write_values(tmp_path / "solo-values" / "values.parquet", values)
    html = write_report(solo_run, tmp_path / "solo", values=path).read_text(encoding="utf-8")
    items = _items(html)
    assert items["Too strong cards"].endswith("spade:ace +10.0 pp (+8.0 pp to +12.0 pp).")
    assert items["Too weak cards"].endswith("club:king -10.0 pp (-12.0 pp to -8.0 pp).")
    assert "counterfactual Δ" in html


def test_balance_value_s_summary_beside_the_file_describes_the_values(small_run: Run, tmp_path: Path) -> None:
    import json

    path = write_values(tmp_path / "value-out" / "values.parquet")
    summary = {
        "game": "cardinger",
        "variant": "digital",
        "bots": ["tuned", "tuned"],
        "baseline": "same_cost",
        "seed": 3,
    }
    (path.parent / "value.json").write_text(json.dumps(summary), encoding="utf-8")
    cv = read_values(path, small_run)
    assert cv.meta == {
        "game": "cardinger",
        "variant": "digital",
        "baseline": "same_cost",
        "bots": "tuned,tuned",
        "seed": "3",
    }
    assert cv.caveats == ["the values were measured under variant digital, this run is modern & <i>new</i>"]
    html = write_report(small_run, tmp_path / "r", values=path).read_text(encoding="utf-8")
    assert (
        "Careful: the values were measured under variant digital, this run is modern &amp; &lt;i&gt;new&lt;/i&gt;."
        in html
    )
    assert _items(html)["Caution"] == "The values were measured under variant digital, this run is modern & <i>new</i>."
    how = _items(html)["How values are measured"]
    assert "replaced by the same cost baseline" in how
    assert "played by tuned vs tuned" in how
    (path.parent / "value.json").write_text('{"game": "blessings"}', encoding="utf-8")
    with pytest.raises(ValuesError, match="values of game 'blessings'"):
        read_values(path, small_run)
    (path.parent / "value.json").write_text('{"game":\n "cardinger",,}', encoding="utf-8")
    with pytest.raises(ValuesError, match=r"value.json:2: not valid JSON"):
        read_values(path, small_run)
