"""The C twin of the kernel (``benchmarks/cardinger_twin``) plays the kernel's games exactly.

The twin is the speed reference of issue 13 (kernel / C). A twin that plays other games
measures nothing, so any change of Cardinger's rules or of the greedy bot must be made in
``cardinger_twin.c`` too, and this test says when it was not. It builds the twin with the
system ``gcc``; without one it fails with that reason (it is never skipped). ``make test`` needs
only Python, so these tests are opt-in: ``make test-twin`` runs them and ``.ci/run`` runs that
after installing ``gcc`` when missing. The full proof runs on 200 000 games:
``benchmarks/cardinger_speed.py twin``.
"""

import numba
import pytest

from tests.sims.differential import load_reference

twin = load_reference("cardinger_twin/twin")

pytestmark = [
    pytest.mark.twin,
    pytest.mark.skipif(numba.config.DISABLE_JIT, reason="compares compiled games; too slow interpreted"),
]


@pytest.mark.parametrize(("seed", "first", "n"), [(2026, 0, 2000), (7, 1_000_000, 500)])
def test_the_twin_plays_the_kernels_games_column_by_column(seed, first, n):
    result = twin.check(n, seed, first)
    assert result["games"] == n
    assert result["seats"] == 2 * n
    assert result["mismatches"] == {}
    twin_decisions, kernel_decisions = result["decisions"]
    assert twin_decisions == kernel_decisions
    assert kernel_decisions > 100 * n  # greedy takes about 146 decisions a game: the count is real


def test_without_gcc_the_build_fails_with_one_clear_line(monkeypatch, tmp_path):
    monkeypatch.setattr(twin.shutil, "which", lambda name: None)
    with pytest.raises(twin.TwinError, match=r"^gcc not found on PATH: the C twin"):
        twin.build(tmp_path)


@pytest.mark.parametrize(("key", "value"), [("prosperity_gain", 1), ("value_card", 3), ("play_limit", 1)])
def test_the_twin_refuses_rules_it_does_not_implement(tmp_path, key, value):
    binary = twin.build(tmp_path, flags=("-O1", "-ffp-contract=off"))
    text = twin.inputs_text().replace(f" {key}=0", f" {key}={value}").replace(f" {key}=-1", f" {key}={value}")
    inputs = tmp_path / "inputs.txt"
    inputs.write_text(text)
    with pytest.raises(twin.TwinError, match="implements only the modern variant"):
        twin.run(binary, inputs, 10, 1)


@pytest.mark.parametrize("defines", [("KERNEL_CALLS",), ("KERNEL_CALLS_NOW",)])
def test_the_calls_variants_play_the_same_games(tmp_path, defines):
    """``-DKERNEL_CALLS`` / ``-DKERNEL_CALLS_NOW`` only keep functions out of line: same games, same decisions."""
    inputs = tmp_path / "inputs.txt"
    inputs.write_text(twin.inputs_text())
    plain = twin.run(twin.build(tmp_path), inputs, 300, 11)
    calls = twin.run(twin.build(tmp_path, defines), inputs, 300, 11)
    assert (calls["checksum"], calls["decisions"]) == (plain["checksum"], plain["decisions"])
    assert plain["decisions"] > 100 * 300
