"""Charts drawn by forked processes (balance.report.render) give the very files and page drawn in-process."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from balance.charts import new_axes
from balance.io import Run
from balance.report import html, render, write_report


def _page(path: Path) -> str:
    return re.sub(r"report generated [0-9: -]+ UTC", "", path.read_text(encoding="utf-8"))


def test_a_report_drawn_by_processes_is_the_report_drawn_in_process(
    shared_run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    submit = render.Renderer.submit

    def counted(self: render.Renderer, path: Path, fig: object) -> object:
        job = submit(self, path, fig)  # type: ignore[arg-type]
        if job is not None:
            drawn.append(path.name)
        return job

    monkeypatch.setattr(render.Renderer, "submit", counted)
    monkeypatch.setattr(render, "processes", lambda: 2)
    forked = write_report(shared_run, tmp_path / "forked")
    monkeypatch.setattr(render, "processes", lambda: 0)
    alone = write_report(shared_run, tmp_path / "alone")

    pngs = sorted(p.name for p in alone.parent.glob("*.png"))
    assert len(pngs) >= 5
    assert sorted(drawn) == pngs  # every chart went to a process the first time, none the second
    assert sorted(p.name for p in forked.parent.glob("*.png")) == pngs
    for name in pngs:
        assert (forked.parent / name).read_bytes() == (alone.parent / name).read_bytes(), name
    assert "<!--chart" not in forked.read_text(encoding="utf-8")
    assert _page(forked) == _page(alone)


def _unpicklable_figure():
    from matplotlib.ticker import FuncFormatter

    ax = new_axes()[0]
    ax.plot([0, 1, 2], [3, 1, 2])
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"<{x:g}>"))  # a lambda: pickle refuses it
    return ax.figure


def test_a_figure_pickle_refuses_is_drawn_in_process(tmp_path: Path) -> None:
    fig = _unpicklable_figure()
    expected = io.BytesIO()
    fig.savefig(expected, format="png", pil_kwargs=html.PNG_OPTIONS)
    with render.Renderer(1) as drawing:
        assert drawing.submit(tmp_path / "x.png", fig) is None
        charts = html.Charts(tmp_path, drawing)
        embedded = charts.add("lambda", fig, "a chart")
        assert charts.resolve(embedded) == embedded  # drawn at once: no placeholder
    assert (tmp_path / "lambda.png").read_bytes() == expected.getvalue()


class _Broken:
    """Pickles fine, but drawing it fails (in the drawing process)."""


def test_a_drawing_that_fails_in_a_process_fails_the_report(tmp_path: Path) -> None:
    with render.Renderer(1) as drawing:
        charts = html.Charts(tmp_path, drawing)
        token = charts.add("broken", _Broken(), "a chart")  # type: ignore[arg-type]
        assert token.startswith("<!--chart")
        with pytest.raises(AttributeError):
            charts.resolve(f"<p>{token}</p>")


def test_no_processes_with_one_cpu_or_without_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render.os, "sched_getaffinity", lambda _: {0}, raising=False)
    assert render.processes() == 0
    monkeypatch.setattr(render.os, "sched_getaffinity", lambda _: {0, 1, 2, 3}, raising=False)
    assert render.processes() == render.MAX_PROCESSES
    monkeypatch.setattr(render.multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    assert render.processes() == 0
    with render.Renderer(0) as drawing:
        assert drawing.submit(Path("unused.png"), _unpicklable_figure()) is None
