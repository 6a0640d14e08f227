"""Small HTML builders for the self-contained reports: escaping, cells, tables, figures, page.

Every string that came from data goes through :func:`esc`; builders return HTML
fragments (``str``) that are already safe. The page carries its CSS and a few lines of
JavaScript (click a column header to sort) inline; figures are embedded as base64 PNG,
so the file has no external resources and reads offline.
"""

from __future__ import annotations

import base64
import functools
import html
import io
import json
import math
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from balance.charts import DRAWING

DASH = "–"

if TYPE_CHECKING:
    from concurrent.futures import Future

    from matplotlib.figure import Figure

    from balance.report.render import Renderer


class Cell(NamedTuple):
    """One table cell: safe HTML content and the value it sorts by."""

    html: str
    sort: Any = None


def esc(value: Any) -> str:
    """Return ``value`` as text escaped for HTML content and attributes."""
    return html.escape("" if value is None else str(value), quote=True)


def _missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def num(x: Any, digits: int = 2) -> str:
    """Format a number for a table (thin-space thousands; integers without decimals)."""
    if _missing(x):
        return DASH
    if isinstance(x, int) or (isinstance(x, float) and x.is_integer() and abs(x) >= 1000):
        return f"{int(x):,}".replace(",", "\u202f")
    return f"{x:,.{digits}f}".replace(",", "\u202f")


def pct(x: Any, digits: int | None = None, *, signed: bool = False) -> str:
    """Format a fraction as a percentage (``0.523`` -> ``52.3 %``; more digits near 0 % and 100 %)."""
    if _missing(x):
        return DASH
    if digits is None:
        edge = min(abs(x), abs(1 - x))
        digits = 1 if edge == 0 or edge >= 0.01 else 2 if edge >= 0.001 else 3
    return f"{x * 100:{'+' if signed else ''}.{digits}f}\u202f%"


def text(value: Any) -> Cell:
    """Return an escaped text cell."""
    return Cell(esc(value), "" if value is None else str(value))


def number(x: Any, digits: int = 2) -> Cell:
    """Return a numeric cell."""
    return Cell(num(x, digits), None if _missing(x) else x)


def estimate(
    x: Any, lo: Any, hi: Any, n: Any = None, *, percent: bool = True, signed: bool = False, unit: str = ""
) -> Cell:
    """Return a cell showing an estimate, its interval and (optionally) its ``n``."""
    if _missing(x):
        return Cell(f"{DASH}<small>n {num(n)}</small>" if n is not None else DASH, None)
    if percent:
        main = pct(x, signed=signed)
        interval = f"{pct(lo)}{DASH}{pct(hi)}".replace("\u202f%", "") + "\u202f%" if not _missing(lo) else ""
    else:
        main = f"{x:+.2f}" if signed else num(x)
        interval = f"{num(lo)}{DASH}{num(hi)}" if not _missing(lo) and math.isfinite(lo) else ""
    body = f"<b>{main}{esc(unit)}</b>"
    if interval:
        body += f"<small>[{interval}]</small>"
    if n is not None:
        body += f"<small>n {num(n)}</small>"
    return Cell(body, x)


def points(x: Any, lo: Any, hi: Any, n: Any = None) -> Cell:
    """Return a cell for a difference of two fractions, in signed percentage points."""
    scaled = [None if _missing(v) else v * 100 for v in (x, lo, hi)]
    return estimate(*scaled, n, percent=False, signed=True, unit=" pp")


def flag(value: Any) -> Cell:
    """Return a yes/blank cell for a boolean flag (yes is highlighted)."""
    return Cell('<span class="flag">yes</span>' if value else "", 1 if value else 0)


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[Cell]],
    *,
    caption: str = "",
    sortable: bool = True,
    table_id: str | None = None,
    compact: bool = False,
    titles: Sequence[str] | None = None,
) -> str:
    """Return an HTML table; ``headers`` (and the optional header tooltips ``titles``) are plain text.

    ``caption`` is a safe HTML fragment. A ``sortable`` table sorts by a column when its
    header is clicked (numbers by value, empty cells last); ``compact`` tables wrap their
    headers and use smaller type so that many columns fit the page; ``table_id`` lets a
    :func:`filter_box` find the table.
    """
    tips = list(titles) if titles is not None else [""] * len(headers)
    tip = ["" if not t else ' title="' + esc(t) + '"' for t in tips]
    head = "".join(f"<th{t}>{esc(h)}</th>" for h, t in zip(headers, tip, strict=True))
    body = []
    for row in rows:
        cells = "".join(f'<td data-v="{esc("" if c.sort is None else c.sort)}">{c.html}</td>' for c in row)
        body.append(f"<tr>{cells}</tr>")
    cap = f"<caption>{caption}</caption>" if caption else ""
    classes = " ".join(c for c, on in (("sortable", sortable), ("compact", compact)) if on)
    attrs = (f' id="{esc(table_id)}"' if table_id else "") + (f' class="{classes}"' if classes else "")
    inner = f"{cap}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody>"
    return f'<div class="scroll"><table{attrs}>{inner}</table></div>'


def filter_box(table_id: str, what: str, *, hint: str = "") -> str:
    """Return a text box that shows only the rows of table ``table_id`` whose text matches what is typed.

    The match is case-insensitive over the row's text columns (names, provenance,
    verdicts), so typing ``too strong`` or a part of a card's name filters the table; the
    box reports how many of the ``what`` (plural noun) are shown. No server is involved.
    """
    label = f"Filter {what}"
    return (
        f'<p class="filter"><label>{esc(label)} <input type="search" data-filter="{esc(table_id)}" '
        f'placeholder="{esc(hint or "part of a name, or a word such as too strong")}" autocomplete="off"></label> '
        f'<span class="muted" data-count="{esc(table_id)}" data-noun="{esc(what)}"></span></p>'
    )


def bullets(items: Iterable[tuple[str, str]]) -> str:
    """Return a list of ``(topic, sentence)`` items (plain text) with the topic in bold."""
    lines = "".join(f"<li><b>{esc(topic)}.</b> {esc(sentence)}</li>" for topic, sentence in items)
    return f'<ul class="summary">{lines}</ul>'


def key_values(items: Mapping[str, Any]) -> str:
    """Return a two-column table of names and values (non-scalar values as JSON)."""
    rows = []
    for key, value in items.items():
        shown = (
            value if isinstance(value, str | int | float | bool) or value is None else json.dumps(value, default=str)
        )
        rows.append([text(key), text(shown)])
    return table(["name", "value"], rows, sortable=False)


def note(message: str) -> str:
    """Return a highlighted note paragraph (``message`` is plain text)."""
    return f'<p class="note">{esc(message)}</p>'


def section(anchor: str, title: str, *parts: str) -> str:
    """Return a ``<section>`` with a heading; ``parts`` are safe HTML fragments."""
    return f'<section id="{esc(anchor)}"><h2>{esc(title)}</h2>{"".join(parts)}</section>'


# zlib level 3 rather than Pillow's 6: a Card Wars 1 M report's 10 charts encode in 0.27 instead
# of 0.44 CPU-s (a third of their drawing) for 4 % more bytes (584 instead of 559 kB).
PNG_OPTIONS = {"compress_level": 3}


def png(fig: Figure) -> bytes:
    """Render a figure to PNG bytes (Agg; the figure is not kept by any global state).

    The figure is drawn holding :data:`~balance.charts.DRAWING` (not while another thread's
    chart style is in force) and encoded after: the very ``savefig`` call, whose last step
    (``matplotlib.image.imsave`` of the drawn pixels: PNG compression, in Pillow, which
    releases the GIL) runs once the lock is free, so another section draws its chart
    meanwhile. The bytes are those of ``fig.savefig(buffer, format="png", pil_kwargs=PNG_OPTIONS)``.
    """
    import matplotlib.image

    canvas = _deferred_canvas()(fig)
    with DRAWING:
        # draws and keeps the pixels (canvas.drawn) instead of encoding
        fig.savefig(io.BytesIO(), format="png", pil_kwargs=PNG_OPTIONS)
    pixels, kwargs = canvas.drawn
    buffer = io.BytesIO()
    matplotlib.image.imsave(buffer, pixels, **kwargs)
    return buffer.getvalue()


@functools.cache
def _deferred_canvas() -> type:
    """Return an Agg canvas whose PNG output keeps the drawn pixels and ``imsave``'s arguments (``drawn``)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    class Deferred(FigureCanvasAgg):
        def _print_pil(self, filename_or_obj: Any, fmt: str, pil_kwargs: Any, metadata: Any = None) -> None:
            FigureCanvasAgg.draw(self)  # as FigureCanvasAgg._print_pil, which then calls imsave with these
            pixels = memoryview(np.array(self.buffer_rgba()))  # a copy: the renderer is reused by the next draw
            kwargs = {"format": fmt, "origin": "upper", "dpi": self.figure.dpi, "metadata": metadata}
            self.drawn = pixels, kwargs | {"pil_kwargs": pil_kwargs}

    return Deferred


def figure(data: bytes, alt: str, caption: str = "") -> str:
    """Return an ``<img>`` embedding PNG ``data`` as base64, with an escaped caption."""
    src = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
    cap = f"<figcaption>{esc(caption)}</figcaption>" if caption else ""
    return f'<figure><img alt="{esc(alt)}" src="{src}">{cap}</figure>'


class Charts:
    """Collect rendered charts: write each as ``<out_dir>/<name>.png`` and embed it.

    With a ``renderer`` (:class:`balance.report.render.Renderer`), :meth:`add` hands the
    figure to its drawing processes and returns a placeholder; :meth:`resolve` puts the
    figures in. Without one, :meth:`add` draws at once and returns the figure's HTML.
    """

    def __init__(self, out_dir: Path, renderer: Renderer | None = None) -> None:
        """Write charts into ``out_dir`` (created if needed), drawn by ``renderer``'s processes if given."""
        self.out_dir = out_dir
        out_dir.mkdir(parents=True, exist_ok=True)
        self.files: list[Path] = []
        self.renderer = renderer
        self._pending: dict[str, tuple[Future[bytes], str, str]] = {}
        self._lock = threading.Lock()  # sections add charts from several threads

    def add(self, name: str, fig: Figure, alt: str, caption: str = "") -> str:
        """Save ``fig`` as ``name.png``; return the HTML that embeds it (a placeholder while a process draws it)."""
        path = self.out_dir / f"{name}.png"
        job = self.renderer.submit(path, fig) if self.renderer is not None else None
        with self._lock:
            self.files.append(path)
            if job is not None:
                token = f"<!--chart {len(self._pending)}-->"  # no data can make it: esc() turns "<" into "&lt;"
                self._pending[token] = (job, alt, caption)
                return token
        data = png(fig)
        path.write_bytes(data)
        return figure(data, alt, caption)

    def resolve(self, text: str) -> str:
        """Return ``text`` with every placeholder of :meth:`add` replaced by its figure (waiting for the drawings)."""
        for token, (job, alt, caption) in self._pending.items():
            text = text.replace(token, figure(job.result(), alt, caption), 1)
        return text


CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;margin:0;background:#fafafa}
main{max-width:1180px;margin:0 auto;padding:1.2rem 1.5rem 3rem;background:#fff}
h1{font-size:1.6rem;margin:.2rem 0 .3rem}
h2{font-size:1.25rem;margin:2rem 0 .6rem;border-bottom:2px solid #0072B2;padding-bottom:.2rem}
h3{font-size:1.05rem;margin:1.2rem 0 .4rem}nav a{margin-right:.9rem;color:#0072B2;text-decoration:none}
.scroll{overflow-x:auto;margin:.4rem 0 1rem}table{border-collapse:collapse;font-size:12.5px}
th,td{border-bottom:1px solid #e4e4e4;padding:.3rem .55rem;text-align:right;vertical-align:top;white-space:nowrap}
th:first-child,td:first-child{text-align:left;white-space:normal;min-width:8rem}
th{background:#f2f4f7;position:sticky;top:0}table.sortable th{cursor:pointer}table.sortable th:hover{background:#e3e9f2}
td small{display:block;color:#666;font-size:11px}caption{text-align:left;color:#555;padding:.2rem 0;caption-side:bottom}
figure{margin:.6rem 0 1.2rem}figure img{max-width:100%;height:auto}figcaption{color:#555;font-size:12.5px}
.note{background:#fff6e0;border-left:4px solid #E69F00;padding:.5rem .8rem}.flag{color:#D55E00;font-weight:bold}
.summary li{margin:.25rem 0}.muted{color:#666}footer{margin-top:2.5rem;color:#666;font-size:12px}
ul.summary{padding-left:1.2rem;font-size:14.5px;max-width:62rem}ul.summary li{margin:.45rem 0}
table.compact{font-size:11.5px;width:100%}table.compact th{white-space:normal;vertical-align:bottom}
table.compact th,table.compact td{padding:.25rem .3rem}table.compact td small{font-size:10px}
table.compact th:first-child,table.compact td:first-child{min-width:7rem}
table.sortable th[aria-sort=ascending]::after{content:" ▲"}table.sortable th[aria-sort=descending]::after{content:" ▼"}
.filter input{font:inherit;padding:.2rem .4rem;width:22rem;max-width:60%}.strong{color:#D55E00;font-weight:bold}
.weak{color:#0072B2;font-weight:bold}p.explain{color:#444;font-size:12.5px;margin:.2rem 0 .6rem}
"""

JS = """
(function () {
  function value(row, i) { var c = row.cells[i]; return c ? c.dataset.v : ""; }
  function compare(x, y) {
    var ex = x === "", ey = y === "";
    if (ex || ey) { return ex === ey ? 0 : (ex ? 1 : -1); }
    var nx = Number(x), ny = Number(y);
    if (!isNaN(nx) && !isNaN(ny)) { return nx - ny; }
    return String(x).localeCompare(String(y));
  }
  function sortBy(th) {
    var table = th.closest("table"), body = table.tBodies[0];
    var i = Array.prototype.indexOf.call(th.parentNode.children, th);
    var asc = th.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(th.parentNode.children, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
    Array.from(body.rows).sort(function (a, b) {
      var x = value(a, i), y = value(b, i), c = compare(x, y);
      if (x === "" || y === "") { return c; }  // empty cells stay last in both directions
      return asc ? c : -c;
    }).forEach(function (r) { body.appendChild(r); });
  }
  document.querySelectorAll("table.sortable th").forEach(function (th) {
    th.tabIndex = 0;  // the keyboard reaches the headers too: Enter or space sorts
    th.addEventListener("click", function () { sortBy(th); });
    th.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(th); }
    });
  });
  function rowText(row) {
    return Array.from(row.cells).filter(function (c) { return c.dataset.v === "" || isNaN(Number(c.dataset.v)); })
      .map(function (c) { return c.textContent; }).join(" ").toLowerCase();
  }
  function applyFilter(input) {
    var table = document.getElementById(input.dataset.filter);
    if (!table) { return; }
    var words = input.value.toLowerCase().split(/\\s+/).filter(Boolean), shown = 0, rows = table.tBodies[0].rows;
    Array.from(rows).forEach(function (r) {
      var text = rowText(r), keep = words.every(function (w) { return text.indexOf(w) >= 0; });
      r.hidden = !keep; shown += keep ? 1 : 0;
    });
    var count = document.querySelector('[data-count="' + input.dataset.filter + '"]');
    if (count) { count.textContent = shown + " of " + rows.length + " " + count.dataset.noun + " shown"; }
  }
  document.querySelectorAll("input[data-filter]").forEach(function (input) {
    input.addEventListener("input", function () { applyFilter(input); });
    applyFilter(input);
  });
})();
"""


def page(
    title: str, heading: str, subtitle: str, nav: Sequence[tuple[str, str]], body: Sequence[str], footer: str
) -> str:
    """Return the whole HTML document; ``title``/``heading``/``subtitle``/``footer``/nav labels are plain text."""
    links = "".join(f'<a href="#{esc(anchor)}">{esc(label)}</a>' for anchor, label in nav)
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body><main>"
        f'<header><h1>{esc(heading)}</h1><p class="muted">{esc(subtitle)}</p><nav>{links}</nav></header>'
        f"{''.join(body)}<footer>{esc(footer)}</footer></main><script>{JS}</script></body></html>\n"
    )
