"""Card Wars: ``stats.refresh`` skips its recompute only when the recompute would change nothing.

``refresh`` recomputes every Creature's ATK/DEF only while ``board.st_fresh`` is 0; every writer
of an input of ``stats.recompute`` clears it (``marks.stale``; ``marks.stale_turn`` for the
turn's state, ``marks.stale_piles`` for pile sizes and ``marks.stale_board`` for a Creature
leaving play, which clear it only while a stat in play reads them). Damage to a Creature's DEF
sets ``board.st_dying`` instead, which ``refresh`` reports while the stats are fresh. A missed
writer would leave stale stats behind a set flag. Two checks:

- compiled, at every decision of games over every deck pairing, every variant of the rulings
  and the settled questions' parameters: the board's ATK/DEF equal a full recompute of a copy;
- pure Python (``NUMBA_DISABLE_JIT=1``, in a subprocess), at every ``refresh`` call of whole
  games, i.e. after every event: when the flag says fresh, a full recompute changes no stat and
  gives the same answer about deaths.

and, on hand-built boards, each case of ``stale_board`` and of ``board.st_dying``.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sims
from sims.cardwars import actions as act
from sims.cardwars import board, bots, flow, kernel, marks, setup, stats
from sims.cardwars.layout import STATE_DTYPE, Phase
from sims.core import rng

GAME = sims.load("cardwars")
POOL = GAME.load_pool(GAME.cards_path)
ROOT = Path(__file__).resolve().parents[3]


def setup_state(bot_a: str, bot_b: str, variant: str | None, overrides: dict):
    """Return (state, bot ids, decks) for games of ``bot_a`` vs ``bot_b`` under a variant."""
    params = GAME.make_params(variant, overrides)
    pool = GAME.prepare_pool(POOL, params)
    weights = np.stack([GAME.make_weights(bot_a), GAME.make_weights(bot_b)])
    ids = [bots.Bot[bot_a.upper()], bots.Bot[bot_b.upper()]]
    decks = np.zeros((2, 1), np.int16)
    return kernel.prepare(pool.table, params, weights, decks, 0).view(STATE_DTYPE), ids, decks


def play(state, ids, decks, games, at_decision) -> int:
    """Play ``games`` decision by decision (as ``kernel.play_game``), calling ``at_decision(g)``; return decisions."""
    decisions = 0
    for g in games:
        s, sim = state[0], state[1]
        flow.set_up(s, decks, g, np.uint64(rng.game_seed(np.uint64(11), g)), -1)
        while s.meta.phase != Phase.OVER and s.meta.turn <= s.params.max_turns:
            at_decision(g)
            who = s.meta.decider if s.meta.phase == Phase.CHOOSE else s.meta.mover
            if bots.needs_legal(ids[who]):
                s.scratch.n_legal = act.legal_actions(s, s.scratch.legal)
            act.apply_action(s, np.int64(bots.choose(ids[who], s, sim, who)))
            decisions += 1
    return decisions


def stale_slots(state) -> list[tuple[int, int]]:
    """Return the occupied slots whose ATK/DEF differ from a full recompute of a copy of ``state``."""
    fresh = state.copy()
    stats.recompute(fresh[0])
    b, f = state[0]["board"], fresh[0]["board"]
    occupied = b["cr_card"] >= 0
    differ = (b["cr_atk"] != f["cr_atk"]) | (b["cr_def"] != f["cr_def"])
    return [(int(q), int(lane)) for q, lane in np.argwhere(occupied & differ)]


def check_decisions(bot_a, bot_b, games, variant=None, overrides=None) -> tuple[int, int, list]:
    """Return (decisions, decisions with the flag set, [(game, turn, slot) of every stale stat])."""
    state, ids, decks = setup_state(bot_a, bot_b, variant, overrides or {})
    stale, fresh = [], [0]

    def at_decision(g):
        s = state[0]
        fresh[0] += int(s.board.st_fresh)
        stale.extend((g, int(s.meta.turn), slot) for slot in stale_slots(state))

    return play(state, ids, decks, games, at_decision), fresh[0], stale


PAIRINGS = [(a, b) for a in ("finn", "jake", "bmo", "rainicorn") for b in ("finn", "jake", "bmo", "rainicorn")]


@pytest.mark.parametrize(("deck_0", "deck_1"), PAIRINGS)
def test_stats_current_at_every_decision_of_every_deck_pairing(deck_0, deck_1):
    overrides = {"deck_0": deck_0, "deck_1": deck_1}
    decisions, fresh, stale = check_decisions("greedy", "greedy", range(4), overrides=overrides)
    decisions_r, fresh_r, stale_r = check_decisions("random", "random", range(4, 8), overrides=overrides)
    assert stale == []
    assert stale_r == []
    assert 0 < fresh + fresh_r < decisions + decisions_r  # both the skip and the recompute were exercised


SETTLED = [  # the settled questions' parameters that are no named variant (RULES.md §8)
    {"turn_bonus": "at_resolution"},
    {"repeat_targets": "up_to"},
    {"silo_unplayable": "thief_hand"},
    {"empty_pick": "forbidden"},
]


@pytest.mark.parametrize("variant", sorted(GAME.variants))
def test_stats_current_at_every_decision_of_every_variant(variant):
    decisions, fresh, stale = check_decisions("greedy", "random", range(6), variant=variant)
    assert stale == []
    assert 0 < fresh <= decisions  # every decision may find them fresh (both ways: the deck pairings' test)


@pytest.mark.parametrize("overrides", SETTLED, ids=lambda o: "_".join(f"{k}_{v}" for k, v in o.items()))
def test_stats_current_at_every_decision_of_the_settled_parameters(overrides):
    decisions, fresh, stale = check_decisions("greedy", "random", range(6), overrides=overrides)
    assert stale == []
    assert 0 < fresh < decisions


def test_stats_current_at_every_decision_of_planner_games():
    decisions, fresh, stale = check_decisions("planner", "greedy", range(2))
    assert decisions > 100
    assert stale == []
    assert 0 < fresh < decisions


def test_a_stale_stat_behind_a_set_flag_is_seen():
    """The check itself: an input changed behind ``marks.stale``'s back shows at the next decision."""
    state, ids, decks = setup_state("greedy", "greedy", None, {})
    s = state[0]
    flow.set_up(s, decks, 0, np.uint64(rng.game_seed(np.uint64(11), 0)), -1)
    while s.meta.phase != Phase.OVER and (s["board"]["cr_card"] < 0).all():
        who = s.meta.decider if s.meta.phase == Phase.CHOOSE else s.meta.mover
        act.apply_action(s, np.int64(bots.choose(ids[who], s, state[1], who)))
    q, lane = (int(x) for x in np.argwhere(s["board"]["cr_card"] >= 0)[0])
    stats.refresh(s)
    assert s.board.st_fresh == 1
    assert stale_slots(state) == []
    s["board"]["cr_pdef"][q, lane] += 1  # an input written without marks.stale
    stats.refresh(s)  # skipped: the flag says fresh
    assert stale_slots(state) == [(q, lane)]
    marks.stale(s)
    stats.refresh(s)
    assert stale_slots(state) == []


@pytest.mark.parametrize(
    ("mark", "field", "reads", "other"),
    [
        (lambda s: marks.stale_turn(s, marks.TURN_SPELLS), "st_turn", marks.TURN_SPELLS, marks.TURN_PLAYED),
        (lambda s: marks.stale_turn(s, marks.TURN_FLOOPED), "st_turn", marks.TURN_FLOOPED, marks.TURN_COUNTS),
        (lambda s: marks.stale_piles(s, marks.DISC << 1), "st_piles", marks.DISC << 1, marks.HAND * 3 | marks.DISC),
    ],
    ids=["turn", "flooped", "piles"],
)
def test_a_partial_mark_applies_only_when_a_stat_reads_its_input(mark, field, reads, other):
    state, _, decks = setup_state("greedy", "greedy", None, {})
    s = state[0]
    flow.set_up(s, decks, 0, np.uint64(rng.game_seed(np.uint64(11), 0)), -1)
    s.board.st_fresh, s.board.st_turn, s.board.st_piles = 1, 0, 0
    mark(s)
    assert s.board.st_fresh == 1
    s.board[field] = other  # a stat reads something else of it: still fresh
    mark(s)
    assert s.board.st_fresh == 1
    s.board[field] = reads
    mark(s)
    assert s.board.st_fresh == 0


def board_of(*slots: tuple[int, int, str]):
    """Return a state set up for game 0 with the Creatures ``(seat, lane, name)`` placed, its stats current."""
    state, _, decks = setup_state("greedy", "greedy", None, {})
    s = state[0]
    flow.set_up(s, decks, 0, np.uint64(rng.game_seed(np.uint64(11), 0)), -1)
    assert (s["board"]["cr_card"] < 0).all()
    for q, lane, name in slots:
        board.place(s, q, lane, POOL.names.index(name), q)
    stats.refresh(s)
    assert s.board.st_fresh == 1
    assert s.board.st_dying == 0
    return state


def test_a_creature_leaving_play_keeps_the_stats_when_no_other_stat_can_change():
    state = board_of((0, 0, "Phyllis"), (0, 1, "Evil Eye"), (1, 1, "Teeth Leaf"))
    s = state[0]
    assert s.board.st_board == 0
    board.take_off(s, 0, 0, 0)
    assert s.board.st_fresh == 1
    assert stale_slots(state) == []
    assert not stats.refresh(s)


def test_a_creature_leaving_the_side_no_stat_counts_keeps_the_stats():
    state = board_of((0, 0, "Husker Worm"), (0, 1, "Corn Lord"), (1, 2, "Husker Worm"))
    s = state[0]
    assert s.board.st_board == 1  # Corn Lord counts its own side's Cornfield Creatures only
    board.take_off(s, 1, 2, 0)
    assert s.board.st_fresh == 1
    assert stale_slots(state) == []


@pytest.mark.parametrize("punk_cat", [True, False], ids=["Punk Cat in play", "none"])
def test_a_creature_that_changed_lanes_marks_the_stats_at_the_turn_end_only_if_punk_cat_reads_it(punk_cat):
    slots = [(0, 1, "Phyllis")] + ([(1, 3, "Punk Cat")] if punk_cat else [])  # Punk Cat: either side's movers
    state = board_of(*slots)
    s = state[0]
    s.board.cr_moved[0, 1] = 1  # Phyllis changed Lanes this turn
    marks.stale(s)
    stats.refresh(s)
    flow.clear_this_turn(s)
    assert s.board.cr_moved[0, 1] == 0
    assert s.board.st_fresh == (not punk_cat)
    assert (stale_slots(state) != []) == punk_cat  # Phyllis loses the +2 ATK only with Punk Cat


@pytest.mark.parametrize(("chief_side", "marked"), [(0, True), (1, False)], ids=["mover's", "other side's"])
def test_a_new_turn_marks_the_stats_only_if_a_counter_it_clears_is_read_on_its_side(chief_side, marked):
    state = board_of((chief_side, 0, "Woadic Chief"))  # +ATK for each Spell its controller played this turn
    s = state[0]
    s.meta.mover = 0
    s.turnfx.spells[0] = 1  # seat 0 played a Spell this turn
    marks.stale(s)
    stats.refresh(s)
    assert s.board.st_turn == marks.TURN_SPELLS << (marks.SIDE * chief_side)
    s.meta.turn += 1
    s.meta.mover = 1
    setup.clear_turn(s)  # seat 1's turn: seat 0's Spell counter cleared
    assert s.board.st_fresh == (not marked)
    assert (stale_slots(state) != []) == marked  # marked only when a recompute changes a stat


@pytest.mark.parametrize(
    ("slots", "leaving"),
    [
        ([(0, 0, "Phyllis"), (0, 1, "X-Large Spirit Soldier")], (0, 1)),  # its aura reaches Phyllis
        ([(0, 0, "Husker Worm"), (0, 1, "Corn Lord")], (0, 0)),  # Corn Lord counts the other Cornfield ones
        ([(0, 0, "Green Cactiball"), (0, 1, "Green Cactiball")], (0, 0)),  # counts its copies
        ([(0, 0, "Phyllis"), (1, 0, "Nice Ice Baby")], (0, 0)),  # counts the opposing Creature
    ],
    ids=["aura source", "other creatures", "copies", "opposing in lane"],
)
def test_a_creature_leaving_play_marks_the_stats_when_another_stat_reads_it(slots, leaving):
    state = board_of(*slots)
    s = state[0]
    board.take_off(s, *leaving, 0)
    assert s.board.st_fresh == 0
    assert stale_slots(state) != []  # a recompute changes a stat: the mark was needed
    stats.refresh(s)
    assert stale_slots(state) == []


def test_damage_to_def_is_reported_without_a_recompute_and_cleared_by_the_deaths():
    state = board_of((0, 0, "Phyllis"), (0, 1, "Evil Eye"))
    s = state[0]
    board.deal_damage(s, 0, 1, 5, -1, 1)  # Evil Eye: DEF 5
    assert s.board.st_fresh == 1
    assert s.board.st_dying == 1
    assert stats.refresh(s)
    board.destroy_dead(s)
    assert s.board.cr_card[0, 1] < 0
    assert s.board.st_dying == 0
    assert s.board.st_fresh == 1
    assert not stats.refresh(s)


@pytest.mark.parametrize("event", ["heal", "leaves"])
def test_a_heal_or_a_creature_leaving_while_one_is_dying_marks_the_stats(event):
    state = board_of((0, 0, "Phyllis"), (0, 1, "Evil Eye"))
    s = state[0]
    board.deal_damage(s, 0, 1, 5, -1, 1)
    if event == "heal":
        board.heal(s, 0, 1)  # 4 damage on DEF 5: no longer dying
    else:
        board.take_off(s, 0, 1, 0)  # the dying one itself
    assert s.board.st_fresh == 0
    assert not stats.refresh(s)
    assert s.board.st_dying == 0


# -- after every event: pure Python in a subprocess -------------------------------------------------

EVENT_RUNS = [  # (bot, bot, games, parameters): about 15 CPU-s in pure Python
    ("greedy", "greedy", 8, {}),
    ("random", "random", 8, {}),
    ("greedy", "random", 3, {"turn_bonus": "at_resolution"}),
    ("planner", "greedy", 1, {}),  # its look-ahead copies the board (and the flags) into state[1]
    ("greedy", "random", 8, {"deck_0": "bmo", "deck_1": "bmo"}),  # Dark Angel, Mouthball: stats read the discard
]


def check_events() -> dict:
    """Wrap ``stats.refresh`` (run with NUMBA_DISABLE_JIT=1) and check every skip against a recompute."""
    skip_path = stats.refresh
    count = {"calls": 0, "skipped": 0, "bad": 0}

    def checked(s):
        b = s.board
        count["calls"] += 1
        if not b.st_fresh:
            return stats.recompute(s)
        count["skipped"] += 1
        atk, df, occupied = b.cr_atk.copy(), b.cr_def.copy(), b.cr_card >= 0
        dying = skip_path(s)
        again = stats.recompute(s)
        same = (atk[occupied] == b.cr_atk[occupied]).all() and (df[occupied] == b.cr_def[occupied]).all()
        count["bad"] += not (same and again == dying)
        return again

    board.refresh = stats.refresh = kernel.refresh = checked
    for bot_a, bot_b, n, overrides in EVENT_RUNS:
        state, ids, decks = setup_state(bot_a, bot_b, None, overrides)
        play(state, ids, decks, range(n), lambda g: None)
    return count


def test_a_fresh_flag_is_right_after_every_event():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-W", "ignore", __file__], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    count = json.loads(out.stdout.strip().splitlines()[-1])
    assert count["bad"] == 0
    assert 0 < count["skipped"] < count["calls"]
    assert count["calls"] > 50 * sum(run[2] for run in EVENT_RUNS)


if __name__ == "__main__":
    print(json.dumps(check_events()))
