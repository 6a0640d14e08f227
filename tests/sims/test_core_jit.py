"""The Numba cache directory follows the sims sources, so an edit never runs stale code."""

from sims.core import jit


def test_source_digest_changes_when_any_sims_file_changes(tmp_path, monkeypatch):
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "bots.py").write_text("WEIGHT = 1\n")
    (tmp_path / "game" / "kernel.py").write_text("def play(): pass\n")
    monkeypatch.setattr(jit, "SIMS", tmp_path)
    before = jit.source_digest()
    assert jit.source_digest() == before
    (tmp_path / "game" / "bots.py").write_text("WEIGHT = 2\n")
    assert jit.source_digest() != before


def test_kernels_cache_under_the_current_digest():
    assert jit.numba.config.CACHE_DIR.endswith(jit.source_digest()) or jit.os.environ.get("NUMBA_CACHE_DIR")
