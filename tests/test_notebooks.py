"""Every notebook runs top to bottom on small runs (its own assertions check the numbers)."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
MARKERS = {  # the line each notebook prints when its checks have passed
    "01-card-values.ipynb": "identical to balance.metrics.card_values",
    "02-cardinger-workflow.ipynb": "workflow complete",
    "03-blessings-workflow.ipynb": "workflow complete",
    "04-cardrpg-workflow.ipynb": "workflow complete",
    "05-cardia-workflow.ipynb": "workflow complete",
    "06-cardwars-workflow.ipynb": "workflow complete",
}


def test_every_notebook_has_its_completion_marker():
    """01 rebuilds the card table; 02-06 walk run -> values -> sweep -> proposal, one game each."""
    assert {p.name for p in NOTEBOOKS} == set(MARKERS)


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes_without_error(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BALANCE_RUN", raising=False)
    monkeypatch.delenv("BALANCE_FULL", raising=False)
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=600, kernel_name="python3").execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any(MARKERS[path.name] in o.get("text", "") for o in outputs)
