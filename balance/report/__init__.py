"""Self-contained HTML reports of a run, or of two runs compared, plus one PNG per chart.

``write_report(run, out_dir)`` and ``write_compare_report(a, b, out_dir, label_a=...,
label_b=...)`` write ``out_dir/index.html`` (charts embedded as base64 PNG, CSS inline,
no external resources) and ``out_dir/<chart>.png``, and return the HTML path. Every
string that comes from data (card, bot and variant names, parameter values) is
HTML-escaped.
"""

from balance.report.compare import write_compare_report
from balance.report.single import run_info, write_report

__all__ = ["run_info", "write_compare_report", "write_report"]
