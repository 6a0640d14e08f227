"""The PNG render worker: the same bytes as drawing in this process, and this process draws when it cannot."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from matplotlib.figure import Figure

from balance import charts
from balance.charts.render import PngWorker, WorkerGone
from balance.io import Run
from balance.report import single
from balance.report.html import Charts, png


def _figure(title: str) -> Figure:
    (ax,) = charts.new_axes(4.0, 3.0)
    ax.plot([0, 1, 2], [2, 0, 1], label=title)
    ax.set_title(title)
    ax.legend()
    return ax.figure


def test_worker_renders_the_bytes_this_process_renders() -> None:
    figs = [_figure(f"chart {i}") for i in range(3)]
    worker = PngWorker()
    futures = [worker.submit(fig) for fig in figs]
    got = [f.result(timeout=60) for f in futures]
    worker.close()
    assert got == [png(fig) for fig in figs]
    assert len(set(got)) == 3  # answers in the order asked, not one figure thrice


def test_a_stolen_figure_is_not_rendered_by_the_worker_and_one_in_the_worker_cannot_be_stolen() -> None:
    worker = PngWorker()
    futures = [worker.submit(_figure(f"chart {i}")) for i in range(4)]
    assert not worker.steal(futures[0])  # forked at once: no child was running
    assert worker.steal(futures[3])
    assert not worker.steal(futures[3])
    assert futures[2].result(timeout=60)[:8] == b"\x89PNG\r\n\x1a\n"
    worker.close()
    assert not futures[3].done()


def _fork_failing() -> int:
    raise OSError("no more processes")


def _fork_child_exits() -> int:
    pid = os.fork()
    if pid == 0:
        os._exit(3)  # the child dies before rendering
    return pid


@pytest.mark.parametrize("fork", [_fork_failing, _fork_child_exits])
def test_charts_draw_here_when_the_worker_fails(fork: Callable[[], int], tmp_path: Path) -> None:
    worker = PngWorker(fork)
    figs = [_figure(f"chart {i}") for i in range(3)]
    with pytest.raises(WorkerGone):
        worker.submit(figs[0]).result(timeout=60)
    out = Charts(tmp_path, worker=worker)
    page = "<main>" + "".join(out.add(f"c{i}", fig, f"alt {i}") for i, fig in enumerate(figs)) + "</main>"
    assert "<img" not in page
    expected = Charts(tmp_path / "direct")
    direct = "<main>" + "".join(expected.add(f"c{i}", fig, f"alt {i}") for i, fig in enumerate(figs)) + "</main>"
    assert out.embed(page) == direct
    assert [p.read_bytes() for p in out.files] == [p.read_bytes() for p in expected.files]


def test_charts_with_a_worker_embed_what_charts_without_one_write(tmp_path: Path) -> None:
    figs = [_figure(f"chart {i}") for i in range(5)]
    out = Charts(tmp_path / "worker", worker=PngWorker())
    parts = [out.add(f"c{i}", fig, f"alt {i}", caption=f"caption {i}") for i, fig in enumerate(figs)]
    assert all("\x00" in p for p in parts)  # placeholders until embed
    page = "<p>\x00chart 0\x00 is data, not a chart</p>" + "".join(parts)  # text that merely looks like one stays
    direct = Charts(tmp_path / "direct")
    expected = "<p>\x00chart 0\x00 is data, not a chart</p>" + "".join(
        direct.add(f"c{i}", fig, f"alt {i}", caption=f"caption {i}") for i, fig in enumerate(figs)
    )
    assert out.embed(page) == expected
    assert [p.name for p in out.files] == [f"c{i}.png" for i in range(5)]
    assert [p.read_bytes() for p in out.files] == [p.read_bytes() for p in direct.files]


def test_report_is_the_same_when_its_worker_fails(
    shared_run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_worker = single.write_report(shared_run, tmp_path / "worker")
    monkeypatch.setattr(single, "PngWorker", lambda: PngWorker(_fork_failing))
    without = single.write_report(shared_run, tmp_path / "here")

    def text(path: Path) -> str:
        return re.sub(r"report generated [\d: -]+ UTC", "", path.read_text(encoding="utf-8"))

    assert "\x00" not in text(with_worker)
    assert text(with_worker) == text(without)
    pngs = sorted(p.name for p in (tmp_path / "worker").glob("*.png"))
    assert pngs
    assert pngs == sorted(p.name for p in (tmp_path / "here").glob("*.png"))
    for name in pngs:
        assert (tmp_path / "worker" / name).read_bytes() == (tmp_path / "here" / name).read_bytes()
