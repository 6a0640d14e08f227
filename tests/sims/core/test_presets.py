"""sims.core.jit's presets: ``inlined`` functions are compiled once and inlined by LLVM, and call no kernel."""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SIMS = ROOT / "sims"
COMPILED = {"kernel", "nonzero_div", "top_kernel"}  # presets whose functions are compiled calls, not copies

# A kernel calling an ``inlined`` leaf at three sites (one through a ``hot`` copy), compiled in a fresh
# interpreter with an empty cache (a function loaded from the cache cannot be inspected).
CHILD = r"""
import json
import numpy as np
from sims.core.jit import hot, inlined, kernel

@inlined
def leaf(a, i):
    return a[i] * 3 + 1

@hot
def copied(a, i):
    return leaf(a, i) - leaf(a, i + 1)

@kernel
def caller(a):
    t = 0
    for i in range(a.shape[0] - 1):
        t += copied(a, i) + leaf(a, i)
    return t

a = np.arange(9, dtype=np.int64)
result = int(caller(a))
cres = caller.overloads[caller.signatures[0]]
llvm = cres.library.get_llvm_str()
print(json.dumps({
    "result": result,
    "leaf_signatures": len(leaf.signatures),
    "calls_left": [line for line in llvm.splitlines() if " call " in line and "leaf" in line],
    "cfunc_wrapper": cres.fndesc.llvm_cfunc_wrapper_name in llvm,
    "leaf_alwaysinline": "alwaysinline" in leaf.overloads[leaf.signatures[0]].library.get_llvm_str(),
}))
"""


def test_an_inlined_function_is_compiled_once_and_leaves_no_call_in_its_caller(tmp_path):
    script = tmp_path / "child.py"  # Numba caches only functions defined in a file
    script.write_text(CHILD)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(script)], env=env, check=True, capture_output=True, text=True)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["result"] == sum((3 * i + 1) - (3 * i + 4) + (3 * i + 1) for i in range(8))
    assert got["leaf_signatures"] == 1  # three call sites, one compile
    assert got["leaf_alwaysinline"]  # forceinline: LLVM must inline it, however large
    assert got["calls_left"] == []  # and did, at every call
    assert got["cfunc_wrapper"] is False  # no_cfunc_wrapper: nothing takes a kernel's C address


def _presets(path: Path) -> tuple[dict[str, str], dict[str, set[str]]]:
    """Each decorated top-level function's preset (its decorator's name) and the names it calls."""
    preset, calls = {}, {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef) and node.decorator_list:
            deco = node.decorator_list[0]
            preset[node.name] = deco.attr if isinstance(deco, ast.Attribute) else getattr(deco, "id", "")
            calls[node.name] = {
                c.func.attr if isinstance(c.func, ast.Attribute) else getattr(c.func, "id", "")
                for c in ast.walk(node)
                if isinstance(c, ast.Call)
            }
    return preset, calls


def test_no_inlined_function_reaches_a_kernel():
    """A compiled callee that sets no ``forceinline`` inherits its caller's (Numba's flags): a kernel
    reached from an ``inlined`` function would be inlined into every caller."""
    checked = 0
    for game in sorted(p for p in SIMS.iterdir() if (p / "__init__.py").exists()):
        preset, calls = {}, {}
        for path in sorted(game.glob("*.py")):
            p, c = _presets(path)
            preset.update(p)
            calls.update(c)
        for name in [n for n, k in preset.items() if k == "inlined"]:
            seen, todo = {name}, [name]
            while todo:
                for callee in calls.get(todo.pop(), ()):
                    assert preset.get(callee) not in COMPILED, f"{game.name}: inlined {name} reaches {callee}"
                    if callee in preset and callee not in seen:
                        seen.add(callee)
                        todo.append(callee)
            checked += 1
    assert checked >= 5  # Card Wars' fight and creature values
