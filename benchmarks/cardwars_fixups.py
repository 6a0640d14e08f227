"""Negative-index fix-ups left in Card Wars' compiled code: ``cmovns`` / ``sar $0x3f`` per function.

Numba compiles ``a[i]`` for a signed ``i`` as ``i < 0 ? i + len : i`` unless LLVM can prove
``i >= 0``; on x86-64 that select is usually a ``cmovns`` (or a ``sar $0x3f`` sign mask and an
``and``/``add``). This script loads (or compiles) the kernels, plays a few games so every
compiled function is loaded, reads each function's machine code from memory (addresses from
Numba's engine), disassembles it with ``objdump`` and prints, per compiled function, its
instructions, sign-flag selects and shifts by 63. A static count, not a cost: a fix-up on a
path that never runs costs nothing (``cardwars_profile.py`` gives the time per function).

Example (from the project root):
    .venv/bin/python benchmarks/cardwars_fixups.py --top 25
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import kernel_speed

from balance.spec import RunSpec, resolve

INSN = re.compile(r"^\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(.*)$")


def functions() -> list[tuple[str, bytes]]:
    """Return (short name, code bytes) of every compiled function after a few greedy games."""
    r = resolve(RunSpec(game="cardwars", bots=("greedy", "greedy"), seed=1))
    r.game.play_chunk(r.params, r.pool, r.decks, r.bot_ids, r.weights, 1, 0, 50, tables=("games",))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "symbols.txt"
        kernel_speed.symbol_map(path)
        rows = sorted((int(x), n) for n, x in (ln.split("\t") for ln in path.read_text().splitlines()))
    out = []
    for i, (start, name) in enumerate(rows):
        size = min(rows[i + 1][0] - start if i + 1 < len(rows) else 4096, 1 << 16)
        out.append((kernel_speed.short_name(name), ctypes.string_at(start, size)))
    return out


def count(code: bytes) -> tuple[int, int, int, int]:
    """Return (instructions, sign-flag selects, sign shifts, entry zero stores) of one function's code bytes.

    Selects: ``cmovs``/``cmovns``/``cmovl``/``cmovge``; shifts: ``sar``/``shr`` by 63 (LLVM also
    writes ``i < 0 ? i + n : i`` as ``i + (i >>u 63) * n``).
    """
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        f.write(code)
        f.flush()
        text = subprocess.run(
            ["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", f.name], check=True, capture_output=True, text=True
        ).stdout
    ins = [m.group(2) for m in map(INSN.match, text.splitlines()) if m and m.group(2).strip()]
    sel = sum(i.split()[0] in ("cmovs", "cmovns", "cmovl", "cmovge") for i in ins)
    shift = sum(i.split()[0] in ("sar", "shr") and "$0x3f," in i for i in ins)
    zeros = 0  # stores of zero into the stack frame before the first branch or call (Numba's slot initialisation)
    for i in ins:
        op = i.split()[0]
        if op.startswith("j") or op.startswith("call") or op == "ret":
            break
        zeros += (op == "movq" and i.split()[1].startswith("$0x0,") and "(%rsp)" in i) or (
            op in ("vmovapd", "vmovups", "vmovaps", "vmovdqu", "vmovdqa") and "(%rsp)" in i
        )
    return len(ins), sel, shift, zeros


def main() -> None:
    """Print the fix-up counts of the compiled Card Wars functions, most ``cmovns`` first."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=30)
    a = ap.parse_args()
    total: collections.Counter[str] = collections.Counter()
    rows = []
    for name, code in functions():
        if not re.match(r"^[a-z_]+\.[A-Za-z_0-9]+(\[v\d+\])?$", name):
            continue
        n, cmov, sar, zeros = count(code)
        rows.append((cmov, sar, n, zeros, name))
        total.update(ins=n, sel=cmov, shift=sar, zeros=zeros)
    print(
        f"{len(rows)} functions, {total['ins']} instructions, {total['sel']} cmovs/ns/l/ge, "
        f"{total['shift']} sar/shr $63 (also max(x, 0)), {total['zeros']} entry zero stores"
    )
    print(f"{'cmov':>7} {'shift63':>7} {'insns':>7} {'zeros':>6}  function")
    for cmov, sar, n, zeros, name in sorted(rows, reverse=True)[: a.top]:
        print(f"{cmov:7d} {sar:7d} {n:7d} {zeros:6d}  {name}")


if __name__ == "__main__":
    main()
