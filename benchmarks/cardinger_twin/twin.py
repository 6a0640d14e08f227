"""Build, run and check the C twin of the Cardinger kernel (``cardinger_twin.c``, greedy mirror, modern rules).

The twin must play the kernel's games exactly; ``check`` proves it on a range of games
(every column of the ``games`` and ``seats`` tables, and the number of bot decisions).
``benchmarks/cardinger_speed.py twin`` and ``ratio`` and ``tests/sims/cardinger/test_twin.py``
use these functions.

    .venv/bin/python benchmarks/cardinger_twin/twin.py inputs > modern_greedy.txt   # the twin's inputs
    .venv/bin/python benchmarks/cardinger_twin/twin.py check -n 200000              # twin vs kernel
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

import sims

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "cardinger_twin.c"
FLAGS = ("-O3", "-march=native", "-ffp-contract=off")  # no fused multiply-add: Numba does not contract either
VALGRIND_FLAGS = ("-O3", "-march=x86-64-v3", "-ffp-contract=off")  # valgrind cannot run AVX-512 code
GAME_COLUMNS = ("game", "seed", "first_seat", "winner", "turns", "end_reason", "score_0", "score_1")
SEAT_COLUMNS = (
    "game", "seat", "bot", "score", "won", "first", "points_score", "points_prosperity", "points_steal",
    "points_replenish", "cards_played", "attacks", "draws", "scores", "cards_destroyed", "own_fragile_losses",
    "replenishes", "deck_total_cost",
)  # fmt: skip


class TwinError(RuntimeError):
    """The twin could not be built or run (one line: what and why)."""


def inputs_text(variant: str = "modern", bot: str = "greedy") -> str:
    """Return the twin's input file: exactly the params, pool (card id = row) and weights the kernel gets.

    Doubles are written with ``repr`` so ``strtod`` reads back the identical bits.
    """
    game = sims.load("cardinger")
    params = game.make_params(variant)
    pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    weights = game.make_weights(bot)
    out = [f"# cardinger twin inputs: variant {variant}, bot {bot} (written by benchmarks/cardinger_twin/twin.py)"]
    out.append("params " + " ".join(f"{k}={int(v)}" for k, v in params._asdict().items()))
    out.append(f"weights {len(weights)} " + " ".join(repr(float(x)) for x in weights))
    out.append(f"cards {len(pool)}  # id cost hp atk def draw score keywords name")
    t = pool.table
    for c in range(len(pool)):
        r = t[c]
        stats = (r["cost"], r["hp"], r["atk"], r["def_"], r["draw"], r["score"], r["keywords"])
        out.append(f"{c} " + " ".join(str(int(x)) for x in stats) + f" {pool.names[c].replace(' ', '_')}")
    return "\n".join(out) + "\n"


def build(out_dir: str | Path, defines: tuple[str, ...] = (), flags: tuple[str, ...] = FLAGS) -> Path:
    """Compile the twin with the system ``gcc`` into ``out_dir``; return the binary (TwinError: no gcc, or failed)."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise TwinError("gcc not found on PATH: the C twin of the Cardinger kernel needs the system C compiler")
    name = (
        "twin"
        + "".join("_" + d.lower() for d in defines)
        + ("" if flags == FLAGS else "_" + "_".join(f.strip("-").replace("=", "") for f in flags))
    )
    binary = Path(out_dir) / name
    cmd = [gcc, *flags, *(f"-D{d}" for d in defines), "-o", str(binary), str(SOURCE), "-lm"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise TwinError(f"{SOURCE.name}: gcc failed: {done.stderr.strip().splitlines()[-1] if done.stderr else '?'}")
    return binary


def run(binary: Path, inputs: Path, n: int, seed: int, first: int = 0, games_csv=None, seats_csv=None, pin=None):
    """Run the twin on games ``first ..``; return wall and CPU seconds of its game loop, decisions, checksum."""
    cmd = [str(binary), str(inputs), str(n), str(seed), str(first)]
    if games_csv is not None:
        cmd += [str(games_csv)] + ([str(seats_csv)] if seats_csv is not None else [])
    if pin is not None:
        cmd = ["taskset", "-c", str(pin), *cmd]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise TwinError(f"{binary.name} exited {done.returncode}: {done.stderr.strip()}")
    pattern = r"in ([\d.]+) s = \d+ games/s; cpu ([\d.]+) s = \d+ games/CPU-s; (\d+) decisions .*checksum (\w+)"
    m = re.search(pattern, done.stdout)
    if m is None:
        raise TwinError(f"{binary.name}: unexpected output {done.stdout!r}")
    return {
        "wall": float(m.group(1)),
        "cpu": float(m.group(2)),
        "decisions": int(m.group(3)),
        "checksum": m.group(4),
        "text": done.stdout.strip(),
    }


def read_csv(path: Path, columns: tuple[str, ...], deck: bool = False) -> dict[str, np.ndarray]:
    """Return a twin CSV as int64 columns (plus ``deck``, a 2-D array, for seats)."""
    with open(path) as f:
        header = f.readline().strip().split(",")
        rows = [line.rstrip("\n").split(",") for line in f]
    assert tuple(header[: len(columns)]) == columns, header
    out = {
        name: np.array([int(r[k]) for r in rows], np.uint64 if name == "seed" else np.int64)
        for k, name in enumerate(columns)
    }
    if deck:
        out["deck"] = np.array([[int(x) for x in r[len(columns)].split()] for r in rows], np.int64)
    return out


def kernel_tables(n: int, seed: int, first: int = 0, variant: str = "modern", bot: str = "greedy"):
    """Return the kernel's games and seats tables and its bot decisions for the same games (``check_games``)."""
    from sims.cardinger import kernel

    game = sims.load("cardinger")
    params = game.make_params(variant)
    pool = game.prepare_pool(game.load_pool(game.cards_path), params)
    decks = np.zeros((2, params.deck_size), np.int16)
    ids = np.array([game.bots.index(bot)] * 2, np.int64)
    weights = np.stack([game.make_weights(bot)] * 2)
    rec = game.play_chunk(params, pool, decks, ids, weights, seed, first, n, ("games", "seats"))
    report = np.zeros(4, np.int64)
    kernel.check_games(params, pool.table, decks, ids, weights, np.uint64(seed), first, n, report)
    return rec["games"], rec["seats"], int(report[0]), params.deck_size


def check(n: int, seed: int, first: int = 0, work: str | Path | None = None) -> dict:
    """Play games ``first ..`` with the twin (games + seats build) and the kernel; return the comparison.

    Keys: ``games``/``seats`` (rows compared), ``mismatches`` (column -> rows that differ),
    ``decisions`` (twin, kernel).
    """
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(work or tmp)
        binary = build(work, ("TALLY",))
        inputs = work / "inputs.txt"
        inputs.write_text(inputs_text())
        games_csv, seats_csv = work / "games.csv", work / "seats.csv"
        twin = run(binary, inputs, n, seed, first, games_csv, seats_csv)
        c_games = read_csv(games_csv, GAME_COLUMNS)
        c_seats = read_csv(seats_csv, SEAT_COLUMNS, deck=True)
    k_games, k_seats, k_decisions, deck_size = kernel_tables(n, seed, first)
    mismatches: dict[str, int] = {}
    for table, c_tab, k_tab, columns in (
        ("games", c_games, k_games, GAME_COLUMNS),
        ("seats", c_seats, k_seats, (*SEAT_COLUMNS, "deck")),
    ):
        for col in columns:
            c_col = c_tab[col]
            k_col = k_tab[col].astype(c_col.dtype)
            if col == "deck":
                k_col = k_col[:, :deck_size]
            if c_col.shape != k_col.shape:
                mismatches[f"{table}.{col}"] = max(len(c_col), len(k_col))
                continue
            diff = c_col != k_col
            bad = int(diff.any(axis=1).sum()) if diff.ndim == 2 else int(diff.sum())
            if bad:
                mismatches[f"{table}.{col}"] = bad
    return {
        "games": len(k_games),
        "seats": len(k_seats),
        "mismatches": mismatches,
        "decisions": (twin["decisions"], k_decisions),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("inputs")
    p = sub.add_parser("check")
    p.add_argument("-n", "--n-games", type=int, default=200_000)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    if args.cmd == "inputs":
        sys.stdout.write(inputs_text())
        return
    try:
        result = check(args.n_games, args.seed, args.first)
    except TwinError as exc:
        sys.exit(f"error: {exc}")
    ok = not result["mismatches"] and result["decisions"][0] == result["decisions"][1]
    print(
        f"twin vs kernel, games {args.first}..{args.first + args.n_games - 1} (seed {args.seed}): "
        f"{result['games']} games and {result['seats']} seat rows compared column by column; "
        f"decisions twin {result['decisions'][0]} kernel {result['decisions'][1]} "
        f"({result['decisions'][1] / max(result['games'], 1):.2f}/game); "
        + ("IDENTICAL" if ok else f"DIFFER: {result['mismatches']}")
    )
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
