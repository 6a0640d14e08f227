"""Cardinger kernel under different Numba/LLVM settings, side by side on one core (issue 13). Prints figures only.

Each ``--config NAME:SETTINGS`` is a set of environment variables (``NUMBA_OPT=2``,
``NUMBA_LOOP_VECTORIZE=0``, ``NUMBA_CPU_NAME=generic`` ...) and/or LLVM command-line options
(``LLVM=-inline-threshold=1000``, applied with ``llvmlite.binding.set_option`` before anything
compiles); an empty SETTINGS is the default build. Every config gets its own Numba cache
(``--cache-root/NAME``, kept between runs: the cache key does not include the optimisation
level or LLVM's options). ``TREE=/path`` plays another checkout instead (its own
``cardinger_speed.py`` with that tree on ``PYTHONPATH``, in its own default cache unless the
config sets ``NUMBA_CACHE_DIR``): two commits side by side. A config whose cache is new is
compiled first and its cold compile (CPU-s of import + 200 games in a fresh process) is
printed. Then ``--rounds`` rounds run ``cardinger_speed.py play N --report`` once per config,
alternating, each in a fresh process pinned to ``--core``: the kernel CPU-s of the games
alone, the median per config and the median and range of each round's ratio to the first
config (> 1 = faster than the first).

Examples (from the project root; the second is this checkout against /tmp/s7_before, pinned to core 1):
    .venv/bin/python benchmarks/cardinger_numba_env.py -n 200000 --rounds 5 \
        --config base: --config novec:NUMBA_LOOP_VECTORIZE=0 --config opt2:NUMBA_OPT=2 \
        --config nocmov:LLVM=-x86-cmov-converter=false
    .venv/bin/python benchmarks/cardinger_numba_env.py -n 200000 --rounds 8 --core 1 \
        --config before:TREE=/tmp/s7_before --config after:TREE=.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import runpy
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPEED = HERE / "cardinger_speed.py"


def parse_config(text: str) -> tuple[str, dict[str, str], list[str]]:
    """Return (name, environment, LLVM options) of ``NAME:K=V,K=V,LLVM=-opt`` (``TREE`` stays in the environment)."""
    name, _, settings = text.partition(":")
    env, llvm = {}, []
    for item in filter(None, settings.split(",")):
        key, _, value = item.partition("=")
        if key == "LLVM":
            llvm.append(value)
        else:
            env[key] = value
    return name, env, llvm


def command(n: int, llvm: list[str], core: int | None, tree: str | None = None) -> list[str]:
    """Return the command that plays ``n`` games (``cardinger_speed.py play`` of ``tree``, default this one's)
    with ``llvm`` options set first."""
    cmd = [sys.executable, __file__, "run", *(f"--llvm={o}" for o in llvm), f"--tree={tree or HERE.parent}"]
    cmd += ["--", "play", str(n), "--report"]
    return ["taskset", "-c", str(core), *cmd] if core is not None else cmd


def child_cpu(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Run ``cmd``; return (CPU-s of the child, its stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, out


def load() -> str:
    """Return the 1-minute load average as text."""
    return f"{os.getloadavg()[0]:.2f}"


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "run":  # a child: set LLVM's options, then be cardinger_speed.py
        import llvmlite.binding as ll

        args = sys.argv[2:]
        split = args.index("--")
        speed = SPEED
        for opt in args[:split]:
            if opt.startswith("--tree="):
                tree = opt.removeprefix("--tree=")
                speed = Path(tree) / "benchmarks" / SPEED.name
                sys.path.insert(0, tree)
            else:
                ll.set_option("cardinger_numba_env", opt.removeprefix("--llvm="))
        sys.argv = [str(speed), *args[split + 1 :]]
        sys.path.insert(0, str(speed.parent))
        runpy.run_path(str(speed), run_name="__main__")
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--n-games", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--core", type=int, default=0, help="CPU to pin every run to (-1: no pinning)")
    parser.add_argument("--cache-root", default="/tmp/cardinger_numba_env")
    parser.add_argument("--config", action="append", required=True, help="NAME:K=V,K=V,LLVM=-option (repeatable)")
    args = parser.parse_args()
    core = args.core if args.core >= 0 else None
    configs = [parse_config(c) for c in args.config]
    envs = {}
    for name, env, llvm in configs:
        envs[name] = {**os.environ, **env}
        if "TREE" in env:
            envs[name]["PYTHONPATH"] = env["TREE"]
        else:
            envs[name].setdefault("NUMBA_CACHE_DIR", str(Path(args.cache_root) / name))
        cache = envs[name].get("NUMBA_CACHE_DIR")
        if cache and not Path(cache).exists():
            cpu, _ = child_cpu(command(200, llvm, None, env.get("TREE")), envs[name])
            print(f"{name}: cold compile {cpu:.1f} CPU-s (import + 200 games, fresh cache; load {load()})", flush=True)
    cpu: dict[str, list[float]] = {name: [] for name, _, _ in configs}
    loads = []
    for r in range(args.rounds):
        for name, env, llvm in configs:
            loads.append(os.getloadavg()[0])
            _, out = child_cpu(command(args.n_games, llvm, core, env.get("TREE")), envs[name])
            cpu[name].append(float(re.search(r"cpu ([\d.]+)", out).group(1)))
        line = " ".join(f"{name} {cpu[name][r]:.3f}" for name, _, _ in configs)
        print(f"round {r + 1}: kernel CPU-s {line} (load {load()})", flush=True)
    first = configs[0][0]
    print(f"cardinger greedy mirror, games table, {args.n_games} games a run, {args.rounds} rounds, ", end="")
    print(f"core {core}; load 1-min {min(loads):.2f}-{max(loads):.2f}")
    for name, env, llvm in configs:
        med = statistics.median(cpu[name])
        pairs = [a / b for a, b in zip(cpu[first], cpu[name], strict=True)]
        settings = ",".join([*(f"{k}={v}" for k, v in env.items()), *llvm]) or "default"
        print(
            f"  {name:10s} {settings:40s} median {med:.3f} CPU-s = {args.n_games / med:8.0f} games/CPU-s; "
            f"x{statistics.median(pairs):.3f} vs {first} (pairs {min(pairs):.3f}-{max(pairs):.3f})"
        )


if __name__ == "__main__":
    main()
