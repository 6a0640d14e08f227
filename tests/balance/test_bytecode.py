"""`make install` byte-compiles the project so that no process compiles it from source, never running stale code."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bytecompile_args() -> list[str]:
    """Return the Makefile's ``BYTECOMPILE`` arguments (what ``make install`` passes to python)."""
    found = re.search(r"^BYTECOMPILE := (.+)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert found, "Makefile has no BYTECOMPILE line"
    return shlex.split(found.group(1))


def test_install_compiles_balance_and_sims_and_runs_the_byte_code() -> None:
    args = bytecompile_args()
    assert args[:2] == ["-m", "compileall"]
    assert args[-2:] == ["balance", "sims"]
    assert "$(BIN)/python $(BYTECOMPILE)" in (ROOT / "Makefile").read_text()


def test_an_edited_module_never_runs_from_its_stale_pyc(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    source = package / "mod.py"
    source.write_text("VALUE = 1\n")
    args = [a for a in bytecompile_args() if a not in ("balance", "sims")]
    subprocess.run([sys.executable, *args, "pkg"], cwd=tmp_path, check=True)
    pycs = list((package / "__pycache__").glob("mod.*.pyc"))
    assert len(pycs) == 1
    assert int.from_bytes(pycs[0].read_bytes()[4:8], "little") == 0b11  # checked hash-based .pyc
    # the worst case of a timestamp .pyc: same size, same modification time
    stat = source.stat()
    source.write_text("VALUE = 2\n")
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", "import pkg.mod; print(pkg.mod.VALUE)"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    assert done.stdout.strip() == "2"


def test_byte_code_stays_out_of_git_status() -> None:
    probe = "balance/__pycache__/cli.cpython-311.pyc"
    done = subprocess.run(["git", "check-ignore", "-q", probe], cwd=ROOT, check=False)
    assert done.returncode == 0, f"{probe} is not git-ignored"
