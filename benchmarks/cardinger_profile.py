"""Where the Cardinger kernel's time goes: CPU samples per compiled function and per instruction (``perf record``).

Greedy mirror, modern rules, games table only (what issue 13 times). The script runs itself under
``perf record -e cpu-clock`` (software sampling: this machine has no hardware counters), writes a
perf map of every compiled function after the warm-up, and prints each function's share of the
samples taken in compiled code. With ``--asm N`` it also disassembles the machine code of the
functions (read from memory, ``objdump``) and prints the N instructions with the most samples,
each with its function and offset, and with ``--listing FUNC`` the whole annotated listing of
every function whose name contains FUNC (samples per instruction; a sample lands on the
instruction after the one that stalled, so read a hot spot together with its predecessor).
``@hot`` functions are inlined: their cost shows in the caller.

Example (from the project root):
    .venv/bin/python benchmarks/cardinger_profile.py --games 300000 --asm 40
    .venv/bin/python benchmarks/cardinger_profile.py --games 300000 --listing greedy_field_action > /tmp/gfa.txt
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cardinger_speed
import kernel_speed

INSN = re.compile(r"^\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(.*)$")


def play(a: argparse.Namespace, tmp: Path) -> None:
    """Warm up, write the perf map and the functions' code bytes, play the measured games (under perf)."""
    args = cardinger_speed.inputs("greedy")
    game = cardinger_speed.GAME
    game.play_chunk(*args, cardinger_speed.SEED, 0, 200, ("games",))
    symbols = tmp / "symbols.txt"
    kernel_speed.symbol_map(symbols)
    rows = sorted((int(x), n) for n, x in (ln.split("\t") for ln in symbols.read_text().splitlines()))
    funcs = []
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for i, (start, name) in enumerate(rows):
            size = min(rows[i + 1][0] - start if i + 1 < len(rows) else 4096, 1 << 16)
            short = kernel_speed.short_name(name)
            out.write(f"{start:x} {size:x} {short}\n")
            funcs.append({"start": start, "size": size, "name": short})
            (tmp / f"code_{start:x}.bin").write_bytes(ctypes.string_at(start, size))
    (tmp / "funcs.json").write_text(json.dumps(funcs))
    (tmp / "pid").write_text(str(os.getpid()))
    t = time.process_time()
    game.play_chunk(*args, cardinger_speed.SEED, 1000, a.games, ("games",))
    print(f"{a.games / (time.process_time() - t):,.0f} games per CPU-second (under perf)", file=sys.stderr)


def disassemble(tmp: Path, f: dict) -> list[tuple[int, str]]:
    """Return (address, instruction text) of function ``f``'s code bytes."""
    out = subprocess.run(
        ["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", f"--adjust-vma={f['start']:#x}",
         str(tmp / f"code_{f['start']:x}.bin")],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    return [(int(m.group(1), 16), m.group(2).strip()) for m in map(INSN.match, out.splitlines()) if m]


def report(a: argparse.Namespace, tmp: Path) -> None:
    """Print the samples per function, and per instruction with ``--asm`` / ``--listing``."""
    funcs = json.loads((tmp / "funcs.json").read_text())
    out = subprocess.run(
        ["perf", "script", "-i", str(tmp / "perf.data"), "-F", "ip"], check=True, capture_output=True, text=True
    ).stdout
    ips = collections.Counter(int(x, 16) for x in out.split())
    total = sum(ips.values())
    per_func: collections.Counter[str] = collections.Counter()
    per_ip: dict[int, tuple[str, int]] = {}
    for f in funcs:
        for ip in range(f["start"], f["start"] + f["size"]):
            if ip in ips:
                per_func[f["name"]] += ips[ip]
                per_ip[ip] = (f["name"], ip - f["start"])
    compiled = sum(per_func.values())
    print(f"{total} samples, {compiled} in compiled code ({compiled / total:.1%}); load {os.getloadavg()[0]:.2f}")
    for name, n in per_func.most_common(a.top):
        print(f"  {n / compiled:6.1%}  {name}")
    if not (a.asm or a.listing):
        return
    text: dict[int, str] = {}
    for f in funcs:
        if per_func[f["name"]] and (a.asm or a.listing in f["name"]):
            for ip, ins in disassemble(tmp, f):
                text[ip] = ins
    if a.asm:
        print(f"\nthe {a.asm} instructions with the most samples (share of compiled-code samples):")
        for ip, n in sorted(((ip, ips[ip]) for ip in per_ip), key=lambda x: -x[1])[: a.asm]:
            name, off = per_ip[ip]
            print(f"  {n / compiled:6.2%}  {name}+{off:#x}  {text.get(ip, '?')}")
    if a.listing:
        for f in funcs:
            if a.listing in f["name"] and per_func[f["name"]]:
                print(f"\n{f['name']}: {per_func[f['name']] / compiled:.1%} of compiled-code samples")
                for ip, ins in disassemble(tmp, f):
                    n = ips.get(ip, 0)
                    share = f"{n / compiled:6.2%}" if n else ""
                    print(f"  {share:>6s} {ip - f['start']:5x}  {ins}")


def main() -> None:
    """Run the games under ``perf record`` (or, with --child, play them); print the profile."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300_000)
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--asm", type=int, default=0, help="also print the N instructions with the most samples")
    ap.add_argument("--listing", default="", help="also print the annotated code of the functions named so")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.games < 1 or a.top < 1 or a.asm < 0:
        ap.error("--games and --top must be >= 1, --asm >= 0")
    if a.child:
        play(a, Path(a.child))
        return
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        cmd = ["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "-o", str(tmp / "perf.data")]
        try:
            subprocess.run([*cmd, sys.executable, __file__, *sys.argv[1:], "--child", name], check=True)
            report(a, tmp)
        finally:
            pid = tmp / "pid"
            if pid.exists():
                Path(f"/tmp/perf-{pid.read_text()}.map").unlink(missing_ok=True)


if __name__ == "__main__":
    main()
