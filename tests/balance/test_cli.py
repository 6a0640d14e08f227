"""CLI: every command has help with an example and is documented; bad input is one line."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from balance.cli import cli

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = sorted(cli.commands)


@pytest.fixture
def runner():
    return CliRunner()


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(runner, command):
    result = runner.invoke(cli, [command, "--help"])
    assert result.exit_code == 0
    assert "Example:" in result.output
    assert f"balance {command}" in result.output


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_appears_in_the_readme(command):
    assert f"balance {command}" in (ROOT / "README.md").read_text()


def test_games_lists_cardinger_variants_and_bots(runner):
    result = runner.invoke(cli, ["games"])
    assert result.exit_code == 0
    for word in ("cardinger", "modern", "digital", "starter_pool", "classic", "random", "greedy", "tuned"):
        assert word in result.output


def test_run_then_replay_a_game(runner, tmp_path):
    result = runner.invoke(
        cli, ["run", "-g", "cardinger", "-n", "300", "--seed", "2", "--out", str(tmp_path), "--name", "r", "-q"]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "r" / "games" / "part-00000.parquet").is_file()
    replayed = runner.invoke(cli, ["replay", str(tmp_path / "r"), "17"])
    assert replayed.exit_code == 0, replayed.output
    assert "game 17" in replayed.output
    assert re.search(r"win|timeout", replayed.output, re.IGNORECASE)


def test_run_from_spec_file_with_flag_override(runner, tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(
        'game = "cardinger"\nn_games = 500\nseed = 5\nbots = ["random", "greedy"]\n[params]\nmax_turns = 150\n'
    )
    result = runner.invoke(cli, ["run", str(spec), "-n", "120", "--out", str(tmp_path), "--name", "s", "-q"])
    assert result.exit_code == 0, result.output
    manifest = (tmp_path / "s" / "manifest.json").read_text()
    assert '"n_games": 120' in manifest
    assert '"max_turns": 150' in manifest


BAD_INPUTS = [
    (["run", "-g", "nosuchgame"], "unknown game 'nosuchgame'"),
    (["run", "-g", "cardinger", "--variant", "ancient"], "unknown variant 'ancient'"),
    (["run", "-g", "cardinger", "--variant", "classic"], "not runnable"),
    (["run", "-g", "cardinger", "-p", "warp=3"], "unknown parameter 'warp'"),
    (["run", "-g", "cardinger", "-p", "max_turns=lots"], "parameter 'max_turns': 'lots' is not a whole number"),
    (["run", "-g", "cardinger", "-p", "replenish_timing=never"], "parameter 'replenish_timing': unknown value"),
    (["run", "-g", "cardinger", "--bots", "greedy,genius"], "unknown bot 'genius'"),
    (["run", "-g", "cardinger", "--bots", "greedy"], "needs 2 name(s)"),
    (["run", "-g", "cardinger", "--weight", "greedy.nope=1"], "unknown weight(s) ['nope']"),
    (["run", "-g", "cardinger", "--tables", "games,moves"], "tables must include"),
    (["run", "-g", "cardinger", "-n", "0"], "n_games must be from 1 to"),
    (["run", "-g", "cardinger", "--seed", "-1"], "seed must be a whole number from 0 to"),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUTS)
def test_bad_flags_give_one_line_error_and_write_nothing(runner, tmp_path, args, message):
    out = tmp_path / "runs"
    result = runner.invoke(cli, [*args, "--out", str(out), "-q"])
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not out.exists()


def _bad_card_file(tmp_path, edit):
    source = (ROOT / "sims" / "cardinger" / "cards.csv").read_text().splitlines()
    lines = edit(source)
    path = tmp_path / "cards.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def _edit_line(index, old, new):
    return lambda lines: [line.replace(old, new) if i == index else line for i, line in enumerate(lines)]


CARD_EDITS = {
    "missing column": (_edit_line(0, ",atk", ",attack"), ":1: missing column(s) atk"),
    "non-numeric stat": (_edit_line(1, ",0,1,0,0,1,1,", ",0,x,0,0,1,1,"), ":2: column 'hp'"),
    "unknown keyword": (_edit_line(4, "READY", "READDY"), "unknown keyword 'READDY'"),
    "duplicate name": (lambda lines: [*lines, lines[1]], "duplicate card 'Bumblebee' (first on line 2)"),
}


@pytest.mark.parametrize("case", sorted(CARD_EDITS))
def test_bad_card_file_gives_file_line_field_error(runner, tmp_path, case):
    edit, message = CARD_EDITS[case]
    path = _bad_card_file(tmp_path, edit)
    out = tmp_path / "runs"
    result = runner.invoke(cli, ["run", "-g", "cardinger", "--cards", str(path), "--out", str(out), "-q"])
    assert result.exit_code == 1
    assert str(path) in result.output
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not out.exists()


def test_wrong_deck_size_in_deck_file_is_reported_with_line(runner, tmp_path):
    decks = tmp_path / "decks.csv"
    decks.write_text("deck,card\nshort,Bumblebee\nshort,Pick Boy\n")
    out = tmp_path / "runs"
    result = runner.invoke(cli, ["run", "-g", "cardinger", "--decks", str(decks), "--out", str(out), "-q"])
    assert result.exit_code == 1
    assert f"{decks}:2: deck 'short' has 2 cards; the rules require 20" in result.output
    assert not out.exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('game = "cardinger"\nspeed = 3\n', "unknown key 'speed'"),
        ('game = "cardinger"\nn_games = "many"\n', "key 'n_games' must be a whole number"),
        ('game = "cardinger"\nn_games = \n', "invalid TOML"),
    ],
)
def test_bad_spec_file_names_the_file(runner, tmp_path, text, message):
    spec = tmp_path / "bad.toml"
    spec.write_text(text)
    result = runner.invoke(cli, ["run", str(spec), "--out", str(tmp_path / "runs"), "-q"])
    assert result.exit_code == 1
    assert str(spec) in result.output
    assert message in result.output
    assert not (tmp_path / "runs").exists()


def test_fixed_decks_from_file_are_used(runner, tmp_path):
    names = [line.split(",")[1] for line in (ROOT / "sims/cardinger/cards.csv").read_text().splitlines()[1:21]]
    decks = tmp_path / "decks.csv"
    decks.write_text("deck,card\n" + "".join(f"starter,{n}\n" for n in names))
    flags = ["--decks", str(decks), "--tables", "games,seats,cards", "--out", str(tmp_path), "--name", "d", "-q"]
    result = runner.invoke(cli, ["run", "-g", "cardinger", "-n", "50", *flags])
    assert result.exit_code == 0, result.output
    import polars as pl

    seats = pl.read_parquet(tmp_path / "d" / "seats" / "part-00000.parquet")
    dim = pl.read_parquet(tmp_path / "d" / "cards.parquet")
    ids = set(dim.filter(pl.col("name").is_in(names))["card"].to_list())
    assert all(set(deck) == ids for deck in seats["deck"].to_list())


def test_replay_of_missing_game_is_one_line(runner, tmp_path):
    runner.invoke(cli, ["run", "-g", "cardinger", "-n", "20", "--out", str(tmp_path), "--name", "r", "-q"])
    result = runner.invoke(cli, ["replay", str(tmp_path / "r"), "20"])
    assert result.exit_code == 1
    assert "game 20 is not in run r" in result.output


def test_report_and_compare_commands_write_html(runner, tmp_path):
    run = runner.invoke(cli, ["run", "-g", "cardinger", "-n", "400", "--out", str(tmp_path), "--name", "r", "-q"])
    assert run.exit_code == 0, run.output
    report = runner.invoke(cli, ["report", str(tmp_path / "r"), "--out", str(tmp_path / "rep")])
    assert report.exit_code == 0, report.output
    assert (tmp_path / "rep" / "index.html").is_file()
    compare = runner.invoke(
        cli,
        ["compare", "-g", "cardinger", "--variants", "modern,digital", "-n", "400", "--out", str(tmp_path),
         "--report-dir", str(tmp_path / "cmp"), "-q"],
    )  # fmt: skip
    assert compare.exit_code == 0, compare.output
    html = (tmp_path / "cmp" / "index.html").read_text()
    assert "digital" in html
    assert "modern" in html


def test_compare_refuses_unpaired_runs(runner, tmp_path):
    for name, seed in (("a", "1"), ("b", "2")):
        runner.invoke(
            cli, ["run", "-g", "cardinger", "-n", "30", "--seed", seed, "--out", str(tmp_path), "--name", name, "-q"]
        )
    result = runner.invoke(cli, ["compare", str(tmp_path / "a"), str(tmp_path / "b")])
    assert result.exit_code == 1
    assert "runs are not paired: root_seed differs" in result.output


def test_replay_refuses_a_run_whose_card_file_changed(runner, tmp_path):
    cards = tmp_path / "cards.csv"
    cards.write_text((ROOT / "sims" / "cardinger" / "cards.csv").read_text())
    made = runner.invoke(
        cli, ["run", "-g", "cardinger", "-n", "20", "--cards", str(cards), "--out", str(tmp_path), "--name", "r", "-q"]
    )
    assert made.exit_code == 0, made.output
    cards.write_text(cards.read_text().replace("Starter,Bumblebee,0,1,0,0,1,1", "Starter,Bumblebee,0,2,0,0,1,1"))
    result = runner.invoke(cli, ["replay", str(tmp_path / "r"), "3"])
    assert result.exit_code == 1
    assert "the card pool or decks changed since this run was made" in result.output


def test_compare_refuses_runs_whose_games_are_different_simulated_games(runner, tmp_path):
    """CardRPG: a 2-session campaign's game ids are sessions of other characters than one-session runs'."""
    for name, variant in (("one", "advanced"), ("two", "advanced")):
        extra = ["-p", "n_sessions=2"] if name == "two" else []
        result = runner.invoke(
            cli,
            ["run", "-g", "cardrpg", "--variant", variant, "--bots", "greedy", "-n", "20", *extra,
             "--out", str(tmp_path), "--name", name, "-q"],
        )  # fmt: skip
        assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["compare", str(tmp_path / "one"), str(tmp_path / "two")])
    assert result.exit_code == 1
    assert "runs are not paired game by game" in result.output
    same = runner.invoke(cli, ["compare", str(tmp_path / "one"), str(tmp_path / "one"), "--report-dir", str(tmp_path)])
    assert same.exit_code == 0, same.output


def _balance(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run ``python -m balance ARGS`` in a fresh process (``run --report`` forks its report process there)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "balance", *args], cwd=cwd, env=env, capture_output=True, text=True)


@pytest.mark.parametrize("fresh", [True, False], ids=["own process", "in-process"])
def test_run_with_report_writes_what_balance_report_writes(runner, tmp_path, monkeypatch, fresh):
    monkeypatch.chdir(tmp_path)
    args = ["run", "-g", "cardinger", "-n", "300", "--out", "runs", "--name", "r", "-q", "--report"]
    if fresh:  # the command as a shell runs it: the report written by the process it forks at its start
        done = _balance(*args, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        output = done.stdout
    else:  # called from a process that has imported polars: the report written in-process
        made = runner.invoke(cli, args)
        assert made.exit_code == 0, made.output
        output = made.output
    assert output.split() == [str(Path("runs") / "r"), str(Path("reports") / "r" / "index.html")]
    again = runner.invoke(cli, ["report", str(Path("runs") / "r"), "--out", "again"])
    assert again.exit_code == 0, again.output
    first, second = Path("reports") / "r", Path("again")
    pngs = sorted(p.name for p in first.glob("*.png"))
    assert pngs
    assert pngs == sorted(p.name for p in second.glob("*.png"))
    assert all((first / n).read_bytes() == (second / n).read_bytes() for n in pngs)

    def page(d: Path) -> str:
        return re.sub(r"report generated [0-9: -]+ UTC", "", (d / "index.html").read_text(encoding="utf-8"))

    assert page(first) == page(second)


@pytest.mark.parametrize("fresh", [True, False], ids=["own process", "in-process"])
def test_run_report_dir_puts_the_report_there_and_implies_report(runner, tmp_path, monkeypatch, fresh):
    monkeypatch.chdir(tmp_path)
    args = ["run", "-g", "cardwars", "-n", "200", "--out", "runs", "--name", "r", "-q", "--report-dir", "mine/cw"]
    if fresh:
        done = _balance(*args, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        output = done.stdout
    else:
        made = runner.invoke(cli, args)
        assert made.exit_code == 0, made.output
        output = made.output
    assert output.split() == [str(Path("runs") / "r"), str(Path("mine") / "cw" / "index.html")]
    assert "200 games" in (Path("mine") / "cw" / "index.html").read_text(encoding="utf-8")
    assert not Path("reports").exists()


def test_run_with_report_that_fails_says_why_once_and_writes_no_report(tmp_path):
    done = _balance("run", "-g", "cardinger", "-n", "0", "--out", "runs", "--name", "r", "-q", "--report", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.count("Error:") == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "reports").exists()
