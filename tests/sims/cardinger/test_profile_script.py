"""``benchmarks/cardinger_profile.py``: bad arguments get a one-line usage error, not a traceback."""

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "cardinger_profile.py"


@pytest.mark.parametrize("args", [["--games", "0"], ["--top", "0"], ["--asm", "-1"]])
def test_bad_counts_are_a_usage_error(args):
    done = subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].endswith("--games and --top must be >= 1, --asm >= 0")
