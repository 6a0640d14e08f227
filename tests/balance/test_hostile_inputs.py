"""Hostile inputs, generated: every bad card file, deck list, TOML spec, scenario file and flag ends in one
line naming the file and line/key and field, a non-zero exit, and nothing written.

Each format gets at least 1 000 generated bad inputs (hypothesis, derandomized so CI sees the same ones),
spread over every registered game; every input goes through the ``balance`` command line as a user's
would. Mutations are chosen so that the result is invalid by construction (a cell too many, a duplicate
name, junk in a number column ...), never "probably invalid".
"""

from __future__ import annotations

import csv
import io
import math
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sims
from balance.cli import cli
from sims.core import CardDataError

GAMES = sims.available()
PER_GAME = max(300, math.ceil(1000 / len(GAMES)))  # >= 1 000 per format over all games
SETTINGS = settings(
    max_examples=PER_GAME,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
JUNK = st.one_of(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters=",\n\r\"'"), max_size=12).filter(
        lambda t: not t.strip().lstrip("-").isdigit()
    ),
    st.sampled_from(["1.5", "0x10", "--1", "1e3", "NaN", "∞", "½", "١", "  ", "", "None", "null"]),
)
HUGE = st.integers(min_value=4, max_value=30).flatmap(lambda k: st.sampled_from([10**k, -(10**k)]))


def rows_of(path: Path) -> list[list[str]]:
    return list(csv.reader(path.read_text(encoding="utf-8-sig").splitlines()))


def to_csv(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def parsed_columns(game: str) -> tuple[list[str], list[str]]:
    """Return (required columns, integer columns) of a game's card file, found by trying the loader."""
    spec = sims.load(game)
    rows = rows_of(spec.cards_path)
    header, body = rows[0], rows[1:]
    tmp = Path(tempfile.mkdtemp()) / "probe.csv"

    def fails(new_rows: list[list[str]]) -> bool:
        tmp.write_text(to_csv(new_rows))
        try:
            spec.load_pool(tmp)
        except CardDataError:
            return True
        return False

    required = [h for i, h in enumerate(header) if fails([[c for j, c in enumerate(r) if j != i] for r in rows])]
    numeric = [
        h
        for i, h in enumerate(header)
        if all(r[i].strip().lstrip("-").isdigit() for r in body if len(r) == len(header))
        and fails([header, *[[*r[:i], "junk", *r[i + 1 :]] for r in body[:1]], *body[1:]])
    ]
    return required, numeric


COLUMNS = {g: parsed_columns(g) for g in GAMES}


@pytest.fixture(scope="module")
def runner():
    return CliRunner()


@pytest.fixture
def fresh(tmp_path):
    """Return a function giving a new empty directory per generated example (examples share ``tmp_path``)."""
    return lambda: Path(tempfile.mkdtemp(dir=tmp_path))


def assert_one_line_error(result, *needles: str) -> None:
    __tracebackhide__ = True
    assert result.exit_code not in (0, None), result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    for needle in needles:
        assert needle in errors[0], (needle, errors[0])


def test_every_game_has_required_and_number_columns_to_fuzz():
    for game, (required, numeric) in COLUMNS.items():
        assert "name" in required or "id" in required, game
        assert numeric, game


# -- card files ----------------------------------------------------------------------------------------
@st.composite
def bad_card_file(draw, game: str) -> tuple[bytes, list[str]]:
    """Return (file bytes, texts the error must contain besides the path)."""
    rows = rows_of(sims.load(game).cards_path)
    header, body = rows[0], rows[1:]
    required, numeric = COLUMNS[game]
    kind = draw(st.sampled_from(["cells", "duplicate", "empty_name", "drop_column", "number", "binary", "empty"]))
    i = draw(st.integers(0, len(body) - 1))
    line = f":{i + 2}:"
    name_col = header.index("name") if "name" in header else header.index(required[0])
    if kind == "cells":
        extra = draw(st.booleans())
        body[i] = [*body[i], draw(JUNK)] if extra else body[i][:-1]
        return to_csv([header, *body]).encode(), [line, "cells"]
    if kind == "duplicate":
        body.append(list(body[i]))
        return to_csv([header, *body]).encode(), [f":{len(body) + 1}:", "duplicate"]
    if kind == "empty_name":
        body[i][name_col] = draw(st.sampled_from(["", " ", "   "]))
        return to_csv([header, *body]).encode(), [line, header[name_col]]
    if kind == "drop_column":
        j = header.index(draw(st.sampled_from(required)))
        return to_csv([[c for k, c in enumerate(r) if k != j] for r in rows]).encode(), [":1:", header[j]]
    if kind == "number":
        col = draw(st.sampled_from(numeric))
        body[i][header.index(col)] = str(draw(st.one_of(JUNK, HUGE)))
        return to_csv([header, *body]).encode(), [line, f"'{col}'"]
    if kind == "binary":
        return b"\xff\xfe" + draw(st.binary(max_size=64)), ["cannot read"]
    keep_header = draw(st.booleans())
    return (to_csv([header]) if keep_header else "").encode(), []


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(data=st.data())
def test_bad_card_files(runner, fresh, game, data):
    tmp_path = fresh()
    content, needles = data.draw(bad_card_file(game))
    path = tmp_path / "cards.csv"
    path.write_bytes(content)
    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", "-g", game, "--cards", str(path), "-o", str(out), "-n", "3", "-q"])
    assert_one_line_error(result, str(path), *needles)
    assert not out.exists()


# -- deck lists ----------------------------------------------------------------------------------------
DECK_GAMES = [g for g in GAMES if getattr(sims.load(g).params, "deck_size", 0)]


@st.composite
def bad_deck_file(draw, game: str) -> tuple[str, list[str]]:
    spec = sims.load(game)
    names = list(spec.prepare_pool(spec.load_pool(spec.cards_path), spec.params).names)
    size = spec.params.deck_size
    decks = {"a": names[:size], "b": names[-size:]}
    rows = [["deck", "card"], *[[d, c] for d, cards in decks.items() for c in cards]]
    kind = draw(st.sampled_from(["unknown_card", "twice", "short", "header", "missing_cell", "binary"]))
    i = draw(st.integers(1, len(rows) - 1))
    if kind == "unknown_card":
        rows[i][1] = draw(JUNK.filter(lambda t: t.strip() not in names))
        return to_csv(rows), [f":{i + 1}:", "card"]
    if kind == "twice":
        j = draw(st.integers(1, size - 1))
        rows[j][1] = rows[j + 1][1]
        return to_csv(rows), [f":{j + 2}:", "twice"]
    if kind == "short":
        drop = draw(st.integers(1, size - 1))
        return to_csv(rows[: 1 + size - drop] + rows[1 + size :]), ["'a'", "cards"]
    if kind == "header":
        rows[0] = [draw(JUNK), "card"]
        return to_csv(rows), [":1:", "header"]
    if kind == "missing_cell":
        rows[i] = rows[i][:1]
        return to_csv(rows), [f":{i + 1}:"]
    return "\udcff", ["cannot read"]


@pytest.mark.parametrize("game", DECK_GAMES)
@settings(SETTINGS, max_examples=max(PER_GAME, math.ceil(1000 / max(1, len(DECK_GAMES)))))
@given(data=st.data())
def test_bad_deck_files(runner, fresh, game, data):
    tmp_path = fresh()
    content, needles = data.draw(bad_deck_file(game))
    path = tmp_path / "decks.csv"
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    out = tmp_path / "out"
    args = ["run", "-g", game, "--decks", str(path), "--deck-names", "a,b", "-o", str(out), "-n", "3", "-q"]
    assert_one_line_error(runner.invoke(cli, args), str(path), *needles)
    assert not out.exists()


# -- TOML run specs ------------------------------------------------------------------------------------
WRONG_TYPES = st.one_of(st.booleans(), st.floats(allow_nan=False), st.lists(st.integers(), max_size=2), st.just({}))


@st.composite
def bad_spec(draw, game: str) -> tuple[str, list[str]]:
    spec = sims.load(game)
    bots = ", ".join(f'"{spec.bots[-1]}"' for _ in range(spec.seats))
    lines = [f'game = "{game}"', "n_games = 5", f"bots = [{bots}]"]
    kind = draw(
        st.sampled_from(["unknown_key", "wrong_type", "variant", "bot", "param", "weight", "syntax", "range", "name"])
    )
    if kind == "unknown_key":
        key = draw(st.from_regex(r"[a-z]{3,10}", fullmatch=True).filter(lambda k: k not in RUN_KEYS))
        lines.append(f"{key} = 1")
        return "\n".join(lines), [key]
    if kind == "wrong_type":
        keys = ["n_games", "seed", "workers", "chunk_size", "variant", "out", "tables", "params", "raw_sample"]
        key = draw(st.sampled_from([*keys, "aggregates", "checked"]))
        flag = key in ("aggregates", "checked")  # true or false only
        value = draw(WRONG_TYPES.filter(lambda v: not (key == "params" and v == {}) and not (flag and v is True)))
        value = 1 if flag and value is False else value
        lines = [line for line in lines if not line.startswith(f"{key} =")]
        lines.append(f"{key} = {toml_value(value)}")
        return "\n".join(lines), [key]
    if kind == "variant":
        name = draw(st.from_regex(r"[a-z_]{2,12}", fullmatch=True).filter(lambda v: v not in spec.variants))
        lines.append(f'variant = "{name}"')
        return "\n".join(lines), [name]
    if kind == "bot":
        name = draw(st.from_regex(r"[a-z_]{2,12}", fullmatch=True).filter(lambda v: v not in spec.bots))
        lines[2] = "bots = [" + ", ".join([f'"{name}"'] * spec.seats) + "]"
        return "\n".join(lines), [name]
    if kind == "param":
        if draw(st.booleans()):
            key = draw(st.from_regex(r"[a-z_]{2,12}", fullmatch=True).filter(lambda k: k not in spec.params._fields))
            lines += ["[params]", f"{key} = 1"]
            return "\n".join(lines), [key]
        key = draw(st.sampled_from(spec.params._fields))
        lines += ["[params]", f'{key} = "{draw(st.from_regex(r"[a-z]{2,8}x", fullmatch=True))}"']
        return "\n".join(lines), [key]
    if kind == "weight":
        bot = spec.bots[-1]
        weight = draw(st.sampled_from(spec.bot_params[bot]._fields))
        lines += [f"[bot_weights.{bot}]", f'{weight} = "{draw(st.from_regex(r"[a-z]{1,6}", fullmatch=True))}"']
        return "\n".join(lines), [weight]
    if kind == "syntax":
        junk = draw(st.sampled_from(["= =", 'x = "unterminated', "[[[", "a = 1\na = 2", "x = [1,", "= 3"]))
        lines.insert(draw(st.integers(0, len(lines))), junk)
        return "\n".join(lines), ["invalid TOML"]
    if kind == "range":
        key, value = draw(
            st.sampled_from(
                [
                    ("seed", -1),
                    ("seed", -(2**63)),
                    ("n_games", 0),
                    ("n_games", -5),
                    ("workers", 0),
                    ("chunk_size", -1),
                    ("raw_sample", -1),
                ]
            )
        )
        lines = [line for line in lines if not line.startswith(f"{key} =")]
        lines.append(f"{key} = {value}")
        return "\n".join(lines), [key]
    name = draw(st.sampled_from(["../escape", "a/b", "..", ".", " ", "x\\\\y"]))
    lines.append(f'name = "{name}"')
    return "\n".join(lines), ["name"]


RUN_KEYS = {
    "game",
    "variant",
    "n_games",
    "n",
    "seed",
    "bots",
    "params",
    "bot_weights",
    "cards_file",
    "decks_file",
    "deck_names",
    "tables",
    "raw_sample",
    "aggregates",
    "checked",
    "workers",
    "chunk_size",
    "out",
    "name",
    "cluster",
    "decks",
}


def toml_value(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, dict):
        return "{}"
    return repr(value)


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(data=st.data())
def test_bad_spec_files(runner, fresh, game, data):
    tmp_path = fresh()
    text, needles = data.draw(bad_spec(game))
    path = tmp_path / "spec.toml"
    path.write_text(text)
    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", str(path), "-o", str(out), "-q"])
    assert_one_line_error(result, str(path), *needles)
    assert not out.exists()


# -- scenario files ------------------------------------------------------------------------------------
@st.composite
def bad_scenario(draw, game: str) -> tuple[str, list[str]]:
    kind = draw(st.sampled_from(["no_expect", "game", "unknown_key", "syntax", "variant", "param", "types"]))
    head = f'game = "{game}"'
    if kind == "no_expect":
        return head + "\n", ["expect"]
    if kind == "game":
        name = draw(st.from_regex(r"[a-z]{2,10}", fullmatch=True).filter(lambda g: g not in GAMES))
        return f'game = "{name}"\n[expect]\nx = 1\n', ["game"]
    if kind == "unknown_key":
        key = draw(st.from_regex(r"[a-z]{3,10}x", fullmatch=True))
        return f"{head}\n{key} = 1\n[expect]\nx = 1\n", [key]
    if kind == "syntax":
        junk = draw(st.sampled_from(["= =", "[[[", "x = [1,", "a = 1\na = 2"]))
        return f"{head}\n{junk}\n", ["invalid TOML"]
    if kind == "variant":
        name = draw(st.from_regex(r"[a-z]{2,10}q", fullmatch=True))
        return f'{head}\nvariant = "{name}"\n[expect]\nx = 1\n', [name]
    if kind == "param":
        key = draw(st.from_regex(r"[a-z]{2,10}q", fullmatch=True))
        return f"{head}\n[params]\n{key} = 1\n[expect]\nx = 1\n", [key]
    key = draw(st.sampled_from(["variant", "params", "expect"]))
    return f"{head}\n{key} = {toml_value(draw(st.one_of(st.integers(), st.lists(st.integers(), max_size=2))))}\n", [key]


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(data=st.data())
def test_bad_scenario_files(runner, fresh, game, data):
    tmp_path = fresh()
    text, needles = data.draw(bad_scenario(game))
    path = tmp_path / "scenario.toml"
    path.write_text(text)
    result = runner.invoke(cli, ["scenario", str(path)])
    assert_one_line_error(result, str(path))
    if sims.load(game).play_scenario is not None or "TOML" in needles[0] or needles == ["game"]:
        for needle in needles:
            assert needle in result.output, (needle, result.output)


# -- command-line flags --------------------------------------------------------------------------------
@st.composite
def bad_flags(draw, game: str) -> tuple[list[str], list[str]]:
    spec = sims.load(game)
    name = st.from_regex(r"[a-z_]{2,10}q", fullmatch=True)
    kinds = ["n", "seed", "bots", "param", "weight", "tables", "workers", "chunk", "raw", "variant"]
    kind = draw(st.sampled_from(kinds))
    if kind == "n":
        value = draw(st.one_of(st.integers(max_value=0), st.integers(min_value=2**31), JUNK))
        return ["-n", str(value)], ["n"]
    if kind == "seed":
        value = draw(st.one_of(st.integers(max_value=-1), st.integers(min_value=2**64), JUNK))
        return ["--seed", str(value)], ["seed"]
    if kind == "bots":
        bots = draw(st.lists(name, min_size=1, max_size=3))
        return ["--bots", ",".join(bots)], ["bot"]
    if kind == "param":
        if draw(st.booleans()):
            return ["-p", f"{draw(name)}=1"], ["parameter"]
        return ["-p", draw(st.sampled_from(["=1", "x", "max_turns", "=", " = "]))], ["KEY=VALUE"]
    if kind == "weight":
        return ["--weight", draw(st.sampled_from(["x=1", "greedy=1", f"{spec.bots[-1]}.{draw(name)}=1"]))], ["weight"]
    if kind == "tables":
        return ["--tables", ",".join(draw(st.lists(name, min_size=1, max_size=3)))], ["tables"]
    if kind == "workers":
        return ["-w", str(draw(st.one_of(st.integers(max_value=0), JUNK)))], ["workers"]
    if kind == "chunk":
        return ["--chunk-size", str(draw(st.one_of(st.integers(max_value=0), JUNK)))], ["chunk"]
    if kind == "raw":
        return ["--raw-sample", str(draw(st.one_of(st.integers(max_value=-1), JUNK)))], ["raw"]
    return ["--variant", draw(name)], ["variant"]


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(data=st.data())
def test_bad_flags(runner, fresh, game, data):
    tmp_path = fresh()
    flags, needles = data.draw(bad_flags(game))
    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", "-g", game, *flags, "-o", str(out), "-q"])
    assert_one_line_error(result)
    assert any(n in result.output for n in needles), (needles, result.output)
    assert not out.exists()
