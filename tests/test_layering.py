"""The one dependency rule: sims imports only numpy, numba, the stdlib and sims itself."""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = {"numpy", "numba", "sims"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_sims_imports_only_numpy_numba_and_stdlib():
    bad = {}
    for path in (ROOT / "sims").rglob("*.py"):
        extra = {m for m in _imports(path) if m not in ALLOWED and m not in sys.stdlib_module_names}
        if extra:
            bad[str(path.relative_to(ROOT))] = sorted(extra)
    assert bad == {}


def test_balance_reaches_games_only_through_the_registry():
    offenders = []
    for path in (ROOT / "balance").rglob("*.py"):
        text = path.read_text()
        for game in (ROOT / "sims").iterdir():
            if game.is_dir() and game.name not in ("core", "__pycache__") and f"sims.{game.name}" in text:
                offenders.append(f"{path.name} -> sims.{game.name}")
    assert offenders == []


def test_layering_check_detects_a_forbidden_import(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("import polars as pl\nfrom balance import run\nimport numpy\n")
    assert _imports(module) - ALLOWED - set(sys.stdlib_module_names) == {"polars", "balance"}
