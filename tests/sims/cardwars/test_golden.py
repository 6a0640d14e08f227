"""Golden results: a fixed-seed batch of Card Wars games must reproduce ``golden.json`` exactly.

The summary (win counts, end reasons, mean turns, a SHA-256 of every column of every
table) changes only when simulated behaviour changes: then bump ``rules_version`` in
``sims/cardwars/__init__.py`` and regenerate with ``UPDATE_GOLDEN=1 pytest
tests/sims/cardwars/test_golden.py`` in the same commit (or explain there why nothing a
player sees changed).
"""

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest

import sims

GAME = sims.load("cardwars")
GOLDEN = Path(__file__).with_name("golden.json")
CASES = {
    "greedy_mirror": ("standard", ("greedy", "greedy"), 300),
    "random_mirror": ("standard", ("random", "random"), 300),
    "greedy_vs_random": ("cp1_finn_vs_jake", ("greedy", "random"), 200),
    "planner_vs_greedy": ("standard", ("planner", "greedy"), 12),
}


def summary(variant: str, bots: tuple[str, str], n: int) -> dict:
    params = GAME.make_params(variant)
    pool = GAME.prepare_pool(GAME.load_pool(GAME.cards_path), params)
    ids = np.array([GAME.bots.index(b) for b in bots], dtype=np.int64)
    weights = np.stack([GAME.make_weights(b) for b in bots])
    out = GAME.play_chunk(params, pool, np.zeros((2, 1), np.int16), ids, weights, 20261123, 0, n)
    digest = hashlib.sha256()
    for table in ("games", "seats", "cards", "turns"):
        for field in out[table].dtype.names:
            digest.update(np.ascontiguousarray(out[table][field]).tobytes())
    games = out["games"]
    return {
        "rules_version": GAME.rules_version,
        "wins": [int((games["winner"] == p).sum()) for p in (-1, 0, 1)],
        "end_reasons": np.bincount(games["end_reason"], minlength=3).tolist(),
        "mean_turns": round(float(games["turns"].mean()), 6),
        "sha256": digest.hexdigest(),
    }


@pytest.mark.parametrize("case", list(CASES))
def test_fixed_seed_batch_matches_golden(case):
    got = summary(*CASES[case])
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden[case] = got
        GOLDEN.write_text(json.dumps(golden, indent=2, sort_keys=True) + "\n")
        pytest.skip("golden.json updated")
    assert case in golden, "no golden entry: run UPDATE_GOLDEN=1 pytest on this file and commit golden.json"
    assert got == golden[case]
