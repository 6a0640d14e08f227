/* cardinger_twin.c -- an exact C twin of the project's Cardinger kernel (greedy vs greedy, modern rules).
 *
 * It plays the SAME games as sims/cardinger at rules_version 3 (kernel.py, actions.py, decks.py,
 * bots.py, appraise.py) and its plain-Python reference benchmarks/cardinger_reference.py: game g
 * of a run with root seed S is the identical game (same counter-based splitmix64 RNG lanes, same
 * deck building, same Fisher-Yates shuffles, same greedy decisions with the same float
 * arithmetic and tie-breaks), so its `games` rows and (with -DTALLY) its `seats` rows equal the
 * kernel's row for row, and it takes the same number of bot decisions. twin.py check proves it.
 *
 * The greedy bot is today's (appraise.py): the best action over the whole field, DOUBLE as two
 * attacks, DEVOUR/DECAY/FRAGILE self-changes, discards priced by the values of the cards PAY
 * would discard (the hand's values sorted once per decision, cards that cannot beat the best
 * play not priced, as the kernel does), PROSPERITY points lost by plays or won by draws.
 *
 * Scope: the `modern` variant's choices are fixed in the code (recommended random deck
 * builder, each seat its own set, random first seat, half-hand-up play allowance, tabletop
 * end-of-turn replenish, PROSPERITY as one gain, no value arms); the numeric rule parameters,
 * the card pool and the bot weights are read from a text file written by
 * `twin.py inputs` from the project itself. Other inputs are refused.
 *
 * Build (twin.py builds these; flags used for every figure):
 *   gcc -O3 -march=native -ffp-contract=off -o twin cardinger_twin.c -lm                # games only
 *   gcc -O3 -march=native -ffp-contract=off -DTALLY -o twin_tally cardinger_twin.c -lm  # + kernel bookkeeping
 *   ... -DKERNEL_CALLS, -DKERNEL_CALLS_NOW, -DCONST_PARAMS (see below)
 * -ffp-contract=off: no fused multiply-add. Numba (LLVM without fast-math) does not contract
 * a*b+c either, and the bot compares sums such as value + 0.5 * (hp - printed hp) with strict
 * < and >, so a fused rounding could flip a tie-break.
 *
 * Variants (compile-time):
 *   (none)        the games table only: exactly the state the rules and the bot need.
 *   -DTALLY       also keeps every counter the kernel keeps whether or not its table is
 *                 wanted (per-seat counters, per-card records, one turn row per turn, the
 *                 replay-log on/off test at each event) and writes the seats rows as well:
 *                 the same internal work as the kernel's `games,seats` run.
 *   -DKERNEL_CALLS the functions marked KFN are noinline (an experiment: the cost of calls).
 *   -DKERNEL_CALLS_NOW only the functions marked KCALL are noinline: those the kernel's compiled
 *                 game loop still calls (set_up, build_decks, deal, replenish, gain_points,
 *                 leave_field, play_or_retire, best_field_action; RULES.md §11, eighth pass).
 *   -DCONST_PARAMS the modern numbers (hand limit 10, ...) as compile-time constants instead
 *                 of fields read at run time (the kernel reads them from s.params).
 *
 * Run:  ./twin INPUTS n_games root_seed [first_game=0] [games.csv] [seats.csv]
 *   Prints games/s (game loop only: set-up, play, writing the rows into an in-memory table) in
 *   wall-clock and CPU time, decisions (bot calls) and ns per decision (CPU). CSV files are
 *   written after the timed loop.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* KFN marks the functions that stay separate (not inlined) in the kernel's machine code:
 * with -DKERNEL_CALLS they are noinline here too, so the twin makes the same calls. */
#ifdef KERNEL_CALLS
#define KFN static __attribute__((noinline))
#else
#define KFN static inline
#endif
/* KCALL marks the KFN functions that are still calls in the kernel's compiled game loop today:
 * -DKERNEL_CALLS_NOW keeps only these noinline (-DKERNEL_CALLS: every KFN function). */
#if defined(KERNEL_CALLS) || defined(KERNEL_CALLS_NOW)
#define KCALL static __attribute__((noinline))
#else
#define KCALL static inline
#endif

/* ---------------------------------------------------------------- constants (state.py) */
#define MAX_DECK 40
#define MAX_FIELD 8
#define MAX_CARDS 128
#define MAX_TURNS 1000
#define N_LANES 5
#define N_WEIGHTS 32
#define NO_CARD (-1)
#define ALL_TARGETS 63
#define NO_ACTION (-1)
#define NEVER (-1)

enum { LANE_SETUP = 0, LANE_SHUFFLE = 1, LANE_BOT = 3 };
enum { PH_PLAY = 0, PH_PAY = 1, PH_ACTION = 2, PH_OVER = 3 };
enum { A_END = 0, A_PLAY, A_PAY, A_RETIRE, A_ATTACK, A_DRAW, A_SCORE };
enum { TARGET_SCORE = 0, TIMEOUT = 1 };
enum { READY = 1, DOUBLE = 2, FRAGILE = 4, OMNI = 8, STEAL = 16, DECAY = 32, PROSPERITY = 64, DEVOUR = 128 };
enum { PILE_COSTLY = 0, PILE_FREE = 1, PILE_ALL = 2 };
enum {
    W_SCORE, W_DRAW, W_ATK, W_DEF, W_HP, W_READY, W_DOUBLE, W_OMNI, W_STEAL, W_PROSPERITY, W_FRAGILE,
    W_DECAY, W_DEVOUR, W_COST, W_PLAY_MIN, W_RETIRE_MARGIN, W_ACT_SCORE, W_ACT_DRAW, W_ACT_KILL, W_ACT_HIT,
    W_ACT_STEAL, W_ACT_SELF_LOSS, W_ACT_MIN, W_THREAT, W_DANGER_TURNS, W_DRAW_FIRST, W_CYCLE, W_DISCARD
};
#define ENC(kind, i, j) (((kind) << 12) | ((i) << 6) | (j))
#define END_TURN 0

/* ---------------------------------------------------------------- RNG (sims/core/rng.py) */
static const uint64_t GOLDEN = 0x9E3779B97F4A7C15ULL;

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static inline uint64_t game_seed(uint64_t root, uint64_t g) { return mix64(root ^ mix64(g * GOLDEN + GOLDEN)); }
static inline int randint(uint64_t *rng, int lane, int n) {
    rng[lane] += GOLDEN;
    uint64_t hi = mix64(rng[lane]) >> 32;
    return (int)((hi * (uint64_t)n) >> 32);
}
KFN void shuffle(uint8_t *items, int n, uint64_t *rng, int lane) {
    for (int i = n - 1; i > 0; i--) {
        int j = randint(rng, lane, i + 1);
        uint8_t t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* ---------------------------------------------------------------- batch context */
typedef struct {
    int builder_cost_target, builder_excluded_cost, target_score, deck_size, opening_hand, hand_limit;
    int field_limit, first_turn_draw, idle_extra_draw, replenish_point, prosperity_step, devour_hp_cap, max_turns;
} Params;

typedef struct {
    int8_t cost, hp, atk, def, draw, score;
    uint8_t kw, acts; /* acts: actions per turn, 2 with DOUBLE (R12) */
} Card;

typedef struct {
    Params P;
    int n_cards;
    Card cards[MAX_CARDS];
    double w[2][N_WEIGHTS];
    double values[2][MAX_CARDS], net[2][MAX_CARDS], lowest[2];
    int max_gain;
    uint8_t piles[3][MAX_CARDS];
    int piles_n[3];
} Ctx;

#ifdef CONST_PARAMS
#define BUILDER_COST_TARGET 10
#define BUILDER_EXCLUDED_COST 8
#define TARGET 20
#define DECK_SIZE 20
#define OPENING_HAND 4
#define HAND_LIMIT 10
#define FIELD_LIMIT 5
#define FIRST_TURN_DRAW 0
#define IDLE_EXTRA_DRAW 1
#define REPLENISH_POINT 1
#define PROSPERITY_STEP 5
#define DEVOUR_HP_CAP 4
#define MAX_TURNS_P 200
#else
#define BUILDER_COST_TARGET (C->P.builder_cost_target)
#define BUILDER_EXCLUDED_COST (C->P.builder_excluded_cost)
#define TARGET (C->P.target_score)
#define DECK_SIZE (C->P.deck_size)
#define OPENING_HAND (C->P.opening_hand)
#define HAND_LIMIT (C->P.hand_limit)
#define FIELD_LIMIT (C->P.field_limit)
#define FIRST_TURN_DRAW (C->P.first_turn_draw)
#define IDLE_EXTRA_DRAW (C->P.idle_extra_draw)
#define REPLENISH_POINT (C->P.replenish_point)
#define PROSPERITY_STEP (C->P.prosperity_step)
#define DEVOUR_HP_CAP (C->P.devour_hp_cap)
#define MAX_TURNS_P (C->P.max_turns)
#endif

/* ---------------------------------------------------------------- output rows (state.GAME_DTYPE) */
typedef struct {
    int64_t game;
    uint64_t seed;
    int8_t first_seat, winner;
    int16_t turns;
    int8_t end_reason;
    int16_t score_0, score_1;
} GameRow;

#ifdef TALLY
/* state.SEAT_DTYPE, CARD_RECORD_DTYPE and TURN_DTYPE: the counters the kernel keeps in s.tally */
typedef struct {
    int64_t game;
    int8_t seat, bot;
    int16_t score;
    int8_t won, first;
    int16_t points_score, points_prosperity, points_steal, points_replenish, cards_played, attacks, draws, scores;
    int16_t cards_destroyed, own_fragile_losses, replenishes, deck_total_cost;
    int16_t deck[MAX_DECK];
} SeatRow;
typedef struct {
    int64_t game;
    int8_t seat;
    int16_t card;
    int8_t won, in_opening_hand;
    int16_t first_drawn_turn, first_played_turn, times_played, times_drawn, points_scored, steal_points;
    int16_t damage_dealt, cards_destroyed, cards_drawn, times_destroyed, times_discarded, times_retired;
} CardRec;
typedef struct {
    int64_t game;
    int16_t turn;
    int8_t seat;
    int16_t score_0, score_1;
    int8_t field_0, field_1, hand_0, hand_1, deck_0, deck_1, plays, actions;
} TurnRow;
#define T(x) x
#define LOG(g) log_event(g)
#else
#define T(x)
#define LOG(g)
#endif

/* ---------------------------------------------------------------- game state */
typedef struct {
    uint64_t rng[N_LANES];
    int64_t game;
    uint64_t seed;
    int turn, mover, first_seat, phase, plays_left, pending_cost, plays, actions, winner, end_reason;
    int score[2], replenished[2];
    int deck_n[2], hand_n[2], discard_n[2], fn[2];
    uint8_t deck[2][MAX_DECK], hand[2][MAX_DECK], discard[2][MAX_DECK], built[2][MAX_DECK];
    uint8_t fcard[2][MAX_FIELD];
    int8_t fhp[2][MAX_FIELD], fdef[2][MAX_FIELD], facts[2][MAX_FIELD];
    uint8_t pick[3][MAX_CARDS];
    int pick_n[3];
#ifdef TALLY
    int log_on, log_n, pending_card;
    SeatRow seats[2];
    CardRec cards[2][MAX_CARDS];
    TurnRow turns[MAX_TURNS];
#endif
} Game;

#ifdef TALLY
/* kernel.log_event with the log off: the kernel tests meta.log_on at every event */
static inline __attribute__((always_inline)) void log_event(Game *g) {
    if (!g->log_on || g->log_n >= 16384) return;
    g->log_n++; /* never reached in these runs (log_on = 0) */
}
static void record_turn(Game *g) {
    TurnRow *t = &g->turns[g->turn - 1];
    t->game = g->game;
    t->turn = (int16_t)g->turn;
    t->seat = (int8_t)g->mover;
    t->score_0 = (int16_t)g->score[0];
    t->score_1 = (int16_t)g->score[1];
    t->field_0 = (int8_t)g->fn[0];
    t->field_1 = (int8_t)g->fn[1];
    t->hand_0 = (int8_t)g->hand_n[0];
    t->hand_1 = (int8_t)g->hand_n[1];
    t->deck_0 = (int8_t)g->deck_n[0];
    t->deck_1 = (int8_t)g->deck_n[1];
    t->plays = (int8_t)g->plays;
    t->actions = (int8_t)g->actions;
}
#endif

static inline int imin(int a, int b) { return a < b ? a : b; }

/* ---------------------------------------------------------------- piles and points (kernel.py) */
static inline int draw(Game *g, const Ctx *C, int p) {
    if (g->deck_n[p] == 0 || g->hand_n[p] >= HAND_LIMIT) return NO_CARD;
    int c = g->deck[p][--g->deck_n[p]];
    g->hand[p][g->hand_n[p]++] = (uint8_t)c;
#ifdef TALLY
    CardRec *r = &g->cards[p][c];
    r->times_drawn++;
    if (r->first_drawn_turn == NEVER) r->first_drawn_turn = (int16_t)g->turn;
#endif
    return c;
}

enum { SRC_SCORE, SRC_PROSPERITY, SRC_STEAL, SRC_REPLENISH };

/* kernel.add_points: add n points from `source`, without the win check */
static inline void add_points(Game *g, int p, int n, int source) {
    g->score[p] += n;
#ifdef TALLY
    SeatRow *st = &g->seats[p];
    if (source == SRC_SCORE) st->points_score += n;
    else if (source == SRC_PROSPERITY) st->points_prosperity += n;
    else if (source == SRC_STEAL) st->points_steal += n;
    else st->points_replenish += n;
    LOG(g);
#else
    (void)source;
#endif
}

/* kernel.reached_target: end the game if seat p has reached the target (R10) */
static inline int reached_target(Game *g, const Ctx *C, int p) {
    if (g->score[p] < TARGET) return 0;
    g->winner = p;
    g->end_reason = TARGET_SCORE;
    g->phase = PH_OVER;
    LOG(g);
    return 1;
}

/* kernel.gain_points: add n points; return 1 if that one gain wins at once (R10) */
KCALL int gain_points(Game *g, const Ctx *C, int p, int n, int source) {
    add_points(g, p, n, source);
    return reached_target(g, C, p);
}

KCALL void replenish(Game *g, const Ctx *C, int p) {
    (void)C;
    int n = g->discard_n[p];
    if (n == 0) return;
    for (int k = 0; k < n; k++) g->deck[p][k] = g->discard[p][k];
    g->deck_n[p] = n;
    g->discard_n[p] = 0;
    shuffle(g->deck[p], n, g->rng, LANE_SHUFFLE + p);
    g->replenished[p] = 1;
    T(g->seats[p].replenishes++;)
    LOG(g);
}

/* ---------------------------------------------------------------- set-up (kernel.set_up, decks.py) */
static inline int draw_random(Game *g, int pile) {
    int n = g->pick_n[pile];
    if (n == 0) return NO_CARD;
    int j = randint(g->rng, LANE_SETUP, n);
    int c = g->pick[pile][j];
    n -= 1;
    g->pick_n[pile] = n;
    g->pick[pile][j] = g->pick[pile][n];
    return c;
}

KFN int pick_card(Game *g, const Ctx *C, int total_cost) {
    if (total_cost < BUILDER_COST_TARGET && g->pick_n[PILE_COSTLY] > 0) return draw_random(g, PILE_COSTLY);
    if (g->pick_n[PILE_FREE] > 0) return draw_random(g, PILE_FREE);
    return draw_random(g, PILE_COSTLY);
}

KFN void start_turn(Game *g, const Ctx *C);

KCALL void build_decks(Game *g, const Ctx *C);
KCALL void deal(Game *g, const Ctx *C);

KCALL void set_up(Game *g, const Ctx *C, int64_t game, uint64_t seed) {
    g->game = game;
    g->seed = seed;
    g->turn = g->mover = g->first_seat = 0;
    g->phase = PH_PLAY;
    g->plays_left = g->pending_cost = g->plays = g->actions = 0;
    g->winner = -1;
    g->end_reason = TIMEOUT;
    for (int p = 0; p < 2; p++) {
        g->deck_n[p] = g->hand_n[p] = g->discard_n[p] = g->fn[p] = 0;
        g->score[p] = g->replenished[p] = 0;
    }
#ifdef TALLY
    g->log_n = 0;
    g->pending_card = NO_CARD;
    for (int p = 0; p < 2; p++) { /* kernel.clear_counters */
        SeatRow *st = &g->seats[p];
        st->score = st->won = st->first = 0;
        st->points_score = st->points_prosperity = st->points_steal = st->points_replenish = 0;
        st->cards_played = st->attacks = st->draws = st->scores = 0;
        st->cards_destroyed = st->own_fragile_losses = st->replenishes = st->deck_total_cost = 0;
    }
#endif
    for (int lane = 0; lane < N_LANES; lane++) g->rng[lane] = mix64(seed + (uint64_t)(lane + 1) * GOLDEN);
    int coin = randint(g->rng, LANE_SETUP, 2); /* R3: modern = random first seat */
    g->first_seat = g->mover = coin;
    T(g->seats[coin].first = 1;)
    build_decks(g, C);
    deal(g, C);
    start_turn(g, C);
}

KCALL void build_decks(Game *g, const Ctx *C) { /* R2: recommended random, each seat its own full set */
    int size = DECK_SIZE;
    for (int p = 0; p < 2; p++) {
#ifdef TALLY
        for (int k = size; k < MAX_DECK; k++) g->seats[p].deck[k] = NO_CARD;
#endif
        for (int k = 0; k < 3; k++) { /* decks.fill_piles */
            for (int i = 0; i < C->piles_n[k]; i++) g->pick[k][i] = C->piles[k][i];
            g->pick_n[k] = C->piles_n[k];
        }
        int total = 0;
        for (int k = 0; k < size; k++) {
            int c = pick_card(g, C, total);
            g->built[p][k] = (uint8_t)c;
            T(g->seats[p].deck[k] = (int16_t)c;)
            total += C->cards[c].cost;
        }
        T(g->seats[p].deck_total_cost = (int16_t)total;)
    }
}

KCALL void deal(Game *g, const Ctx *C) { /* kernel.deal: shuffle, opening hands */
    int size = DECK_SIZE;
    for (int p = 0; p < 2; p++) {
        for (int k = 0; k < size; k++) {
            int c = g->built[p][k];
            g->deck[p][k] = (uint8_t)c;
#ifdef TALLY
            CardRec *r = &g->cards[p][c]; /* kernel.clear_card_record */
            r->game = g->game;
            r->seat = (int8_t)p;
            r->card = (int16_t)c;
            r->won = r->in_opening_hand = 0;
            r->first_drawn_turn = r->first_played_turn = NEVER;
            r->times_played = r->times_drawn = r->points_scored = r->steal_points = 0;
            r->damage_dealt = r->cards_destroyed = r->cards_drawn = 0;
            r->times_destroyed = r->times_discarded = r->times_retired = 0;
            LOG(g);
#endif
        }
        g->deck_n[p] = size;
        shuffle(g->deck[p], size, g->rng, LANE_SHUFFLE + p);
        for (int k = 0; k < OPENING_HAND; k++) {
            int c = draw(g, C, p);
            T(if (c != NO_CARD) g->cards[p][c].in_opening_hand = 1;)
            (void)c;
        }
        LOG(g);
    }
}

/* ---------------------------------------------------------------- phases 1 and 4 */
KFN void start_turn(Game *g, const Ctx *C) {
    int p = g->mover;
    g->turn += 1;
    g->phase = PH_PLAY;
    g->plays = g->actions = g->pending_cost = 0;
    LOG(g);
    if (g->replenished[p]) {
        g->replenished[p] = 0;
        if (REPLENISH_POINT > 0 && gain_points(g, C, p, REPLENISH_POINT, SRC_REPLENISH)) return; /* E19 */
    }
    if (g->turn > 1 || FIRST_TURN_DRAW) {
        int c = draw(g, C, p);
        T(if (c != NO_CARD) LOG(g);)
        (void)c;
    }
    g->plays_left = (g->hand_n[p] + 1) / 2; /* R4 half hand, rounded up */
    for (int slot = 0; slot < g->fn[p]; slot++) g->facts[p][slot] = (int8_t)C->cards[g->fcard[p][slot]].acts;
}

KFN void end_turn(Game *g, const Ctx *C) {
    int p = g->mover;
    if (IDLE_EXTRA_DRAW && g->plays == 0 && g->actions == 0) {
        int c = draw(g, C, p);
        T(if (c != NO_CARD) LOG(g);)
        (void)c;
    }
    if (g->deck_n[p] == 0) replenish(g, C, p); /* R15 tabletop: end of own turn */
    LOG(g);
    T(record_turn(g);)
    if (g->turn >= MAX_TURNS_P) {
        g->phase = PH_OVER;
        g->winner = -1;
        g->end_reason = TIMEOUT;
        LOG(g);
        return;
    }
    g->mover = 1 - p;
    start_turn(g, C);
}

/* ---------------------------------------------------------------- the field and actions (actions.py) */
KCALL void leave_field(Game *g, int p, int slot, int *out) {
    int c = g->fcard[p][slot];
    int n = g->fn[p] - 1;
    for (int k = slot; k < n; k++) {
        g->fcard[p][k] = g->fcard[p][k + 1];
        g->fhp[p][k] = g->fhp[p][k + 1];
        g->fdef[p][k] = g->fdef[p][k + 1];
        g->facts[p][k] = g->facts[p][k + 1];
    }
    g->fn[p] = n;
    g->discard[p][g->discard_n[p]++] = (uint8_t)c;
    *out = c;
}

static inline void destroy(Game *g, int p, int slot) {
    int c;
    leave_field(g, p, slot, &c);
    T(g->cards[p][c].times_destroyed++;)
    LOG(g);
}

KFN int take_from_hand(Game *g, int p, int i) {
    uint8_t *h = g->hand[p];
    int c = h[i];
    int n = g->hand_n[p] - 1;
    for (int k = i; k < n; k++) h[k] = h[k + 1];
    g->hand_n[p] = n;
    return c;
}

KFN void play_card(Game *g, const Ctx *C, int i) {
    int p = g->mover;
    int c = take_from_hand(g, p, i);
    const Card *cd = &C->cards[c];
    int slot = g->fn[p];
    g->fcard[p][slot] = (uint8_t)c;
    g->fhp[p][slot] = cd->hp;
    g->fdef[p][slot] = cd->def;
    g->facts[p][slot] = (int8_t)((cd->kw & READY) ? cd->acts : 0); /* E5 */
    g->fn[p] = slot + 1;
    g->plays_left -= 1;
    g->plays += 1;
#ifdef TALLY
    g->seats[p].cards_played++;
    CardRec *r = &g->cards[p][c];
    r->times_played++;
    if (r->first_played_turn == NEVER) r->first_played_turn = (int16_t)g->turn;
    LOG(g);
    g->pending_card = c;
#endif
    g->pending_cost = cd->cost;
    if (g->pending_cost > 0) g->phase = PH_PAY;
}

KFN void pay_cost(Game *g, int i) {
    int p = g->mover;
    int c = take_from_hand(g, p, i);
    g->discard[p][g->discard_n[p]++] = (uint8_t)c;
    T(g->cards[p][c].times_discarded++;)
    LOG(g);
    g->pending_cost -= 1;
    if (g->pending_cost == 0) g->phase = PH_PLAY;
}

static inline void retire(Game *g, int slot) {
    int p = g->mover, c;
    leave_field(g, p, slot, &c);
    T(g->cards[p][c].times_retired++;)
    LOG(g);
}

KFN void self_effects(Game *g, const Ctx *C, int p, int slot) {
    int c = g->fcard[p][slot];
    int kw = C->cards[c].kw;
    if ((kw & DEVOUR) && g->fhp[p][slot] < DEVOUR_HP_CAP) {
        g->fhp[p][slot] += 1;
        LOG(g);
    }
    if ((kw & DECAY) && g->fdef[p][slot] > 0) {
        g->fdef[p][slot] -= 1;
        LOG(g);
    }
    if (kw & FRAGILE) {
        g->fhp[p][slot] -= 1;
        LOG(g);
        if (g->fhp[p][slot] <= 0) {
            destroy(g, p, slot);
            T(g->seats[p].own_fragile_losses++;)
        }
    }
}

KFN int hit(Game *g, int p, int c, int t) {
    int o = 1 - p;
    g->fhp[o][t] -= 1;
    T(g->cards[p][c].damage_dealt++;)
    LOG(g);
    (void)c;
    if (g->fhp[o][t] > 0) return 0;
    destroy(g, o, t);
#ifdef TALLY
    g->cards[p][c].cards_destroyed++;
    g->seats[p].cards_destroyed++;
#endif
    return 1;
}

KFN void attack(Game *g, const Ctx *C, int slot, int t) {
    int p = g->mover, o = 1 - p;
    int c = g->fcard[p][slot];
    const Card *cd = &C->cards[c];
    g->facts[p][slot] -= 1; /* DOUBLE: one of two attacks (R12) */
    T(g->seats[p].attacks++;)
    int destroyed;
    if (cd->kw & OMNI) { /* R13: every eligible card, back to front keeps slots valid */
        LOG(g);
        destroyed = 0;
        for (int u = g->fn[o] - 1; u >= 0; u--)
            if (cd->atk > g->fdef[o][u]) destroyed += hit(g, p, c, u);
    } else {
        LOG(g);
        destroyed = hit(g, p, c, t);
    }
    if (cd->kw & STEAL) {
        for (int k = 0; k < destroyed; k++) { /* a point per destroyed card, each may win */
            T(g->cards[p][c].steal_points++;)
            if (gain_points(g, C, p, 1, SRC_STEAL)) return;
        }
    }
    self_effects(g, C, p, slot);
}


KFN void take_draw_action(Game *g, const Ctx *C, int slot) {
    int p = g->mover;
    int c = g->fcard[p][slot];
    int n = imin(imin(C->cards[c].draw, g->deck_n[p]), HAND_LIMIT - g->hand_n[p]); /* E14 */
    g->facts[p][slot] = 0;
#ifdef TALLY
    g->seats[p].draws++;
    g->cards[p][c].cards_drawn += n;
    LOG(g);
#endif
    for (int k = 0; k < n; k++) {
        draw(g, C, p);
        LOG(g);
    }
    self_effects(g, C, p, slot);
}

KFN void score_action(Game *g, const Ctx *C, int slot) { /* R10, R14: SCORE and bonus are one gain (one_gain) */
    int p = g->mover;
    int c = g->fcard[p][slot];
    const Card *cd = &C->cards[c];
    g->facts[p][slot] = 0;
    T(g->seats[p].scores++;)
    T(g->cards[p][c].points_scored += cd->score;)
    int bonus = (cd->kw & PROSPERITY) ? g->hand_n[p] / PROSPERITY_STEP : 0;
    add_points(g, p, cd->score, SRC_SCORE);
    if (bonus > 0) {
        T(g->cards[p][c].points_scored += bonus;)
        add_points(g, p, bonus, SRC_PROSPERITY);
    }
    if (reached_target(g, C, p)) return; /* E19: no FRAGILE after the win */
    self_effects(g, C, p, slot);
}

KFN void apply_action(Game *g, const Ctx *C, int a) {
    int kind = a >> 12, i = (a >> 6) & 63;
    switch (kind) {
    case A_END: end_turn(g, C); break;
    case A_PLAY: play_card(g, C, i); break;
    case A_PAY: pay_cost(g, i); break;
    case A_RETIRE: retire(g, i); break;
    default:
        g->phase = PH_ACTION; /* R7 */
        g->actions += 1;
        if (kind == A_ATTACK) attack(g, C, i, a & 63);
        else if (kind == A_DRAW) take_draw_action(g, C, i);
        else score_action(g, C, i);
    }
}

/* ---------------------------------------------------------------- the greedy bot (bots.py, appraise.py) */
static inline int can_score(const Game *g, const Ctx *C, int p, int slot) {
    const Card *cd = &C->cards[g->fcard[p][slot]];
    return g->facts[p][slot] == cd->acts && cd->score > 0;
}
static inline int can_draw(const Game *g, const Ctx *C, int p, int slot) {
    const Card *cd = &C->cards[g->fcard[p][slot]];
    return g->facts[p][slot] == cd->acts && cd->draw > 0 && g->deck_n[p] > 0 && g->hand_n[p] < HAND_LIMIT;
}
static inline int bonus_of(const Ctx *C, int hand) { return hand / PROSPERITY_STEP; } /* R14 */
static inline int score_points(const Game *g, const Ctx *C, int p, int slot) {
    const Card *cd = &C->cards[g->fcard[p][slot]];
    int pts = cd->score;
    if (cd->kw & PROSPERITY) pts += bonus_of(C, g->hand_n[p]);
    return pts;
}
static inline double field_value(const Game *g, const Ctx *C, int owner, int slot, int judge) {
    int c = g->fcard[owner][slot];
    const double *w = C->w[judge];
    double value = C->values[judge][c] + w[W_HP] * (double)(g->fhp[owner][slot] - C->cards[c].hp);
    return value + w[W_DEF] * (double)(g->fdef[owner][slot] - C->cards[c].def);
}

KFN int winning_score(const Game *g, const Ctx *C, int p) {
    if (TARGET - g->score[p] > C->max_gain) return NO_ACTION;
    int need = TARGET - g->score[p];
    for (int slot = 0; slot < g->fn[p]; slot++)
        if (can_score(g, C, p, slot) && score_points(g, C, p, slot) >= need) return ENC(A_SCORE, slot, 0);
    return NO_ACTION;
}

/* appraise.prosperity_outlook: PROSPERITY cards that can still score; cards the other drawers can draw */
static inline int prosperity_outlook(const Game *g, const Ctx *C, int p, int *drawable_out) {
    int scorers = 0;
    for (int slot = 0; slot < g->fn[p]; slot++)
        if ((C->cards[g->fcard[p][slot]].kw & PROSPERITY) && can_score(g, C, p, slot)) scorers++;
    *drawable_out = 0;
    if (scorers == 0) return 0;
    int drawable = 0;
    for (int slot = 0; slot < g->fn[p]; slot++) {
        const Card *cd = &C->cards[g->fcard[p][slot]];
        if (!(cd->kw & PROSPERITY) && can_draw(g, C, p, slot)) drawable += cd->draw;
    }
    *drawable_out = imin(drawable, imin(g->deck_n[p], HAND_LIMIT - g->hand_n[p]));
    return scorers;
}

/* appraise.sort_hand: the hand's values, ascending (insertion sort), once per decision */
static inline void sort_hand(const Game *g, const Ctx *C, int p, double *out) {
    for (int i = 0; i < g->hand_n[p]; i++) {
        double v = C->values[p][g->hand[p][i]];
        int j = i;
        while (j > 0 && out[j - 1] > v) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = v;
    }
}

/* appraise.sorted_discard_value: the k lowest values without one copy of card `skip`'s, in PAY's order */
static inline double sorted_discard_value(const Game *g, const Ctx *C, int p, const double *hv, int skip, int k) {
    double v_skip = C->values[p][g->hand[p][skip]];
    int skipped = 0, j = 0;
    double total = 0.0;
    for (int m = 0; m < k; m++) {
        double v = hv[j];
        if (!skipped && v == v_skip) {
            skipped = 1;
            j++;
            v = hv[j];
        }
        total += v;
        j++;
    }
    return total;
}

/* appraise.best_card_to_play: best value less price the hand can pay for (R5); unpriceable cards skipped */
KFN int best_card_to_play(const Game *g, const Ctx *C, int p, double *out) {
    const double *w = C->w[p];
    double best = -INFINITY, hv[MAX_DECK];
    int best_i = -1, n = g->hand_n[p], drawable;
    int scorers = prosperity_outlook(g, C, p, &drawable);
    int sorted = 0;
    int nonneg = w[W_DISCARD] >= 0.0 && w[W_ACT_SCORE] >= 0.0 && C->lowest[p] >= 0.0;
    for (int i = 0; i < n; i++) {
        int c = g->hand[p][i], k = C->cards[c].cost;
        if (n - 1 >= k && !(nonneg && C->net[p][c] <= best)) {
            if (!sorted && k > 0) {
                sort_hand(g, C, p, hv);
                sorted = 1;
            }
            double price = 0.0; /* appraise.play_price */
            if (k > 0 && w[W_DISCARD] != 0.0) price += w[W_DISCARD] * sorted_discard_value(g, C, p, hv, i, k);
            if (scorers > 0) price += w[W_ACT_SCORE] * scorers * (double)(bonus_of(C, n) - bonus_of(C, n - 1 - k));
            double v = C->net[p][c] - price;
            if (v > best) {
                best = v;
                best_i = i;
            }
        }
    }
    *out = best;
    return best_i;
}

KFN int weakest_slot(const Game *g, const Ctx *C, int p, double *out) {
    double weak = INFINITY;
    int weak_slot = 0;
    for (int slot = 0; slot < g->fn[p]; slot++) {
        double v = field_value(g, C, p, slot, p);
        if (v < weak) {
            weak = v;
            weak_slot = slot;
        }
    }
    *out = weak;
    return weak_slot;
}

KCALL int play_or_retire(const Game *g, const Ctx *C, int p) {
    if (g->plays_left <= 0) return NO_ACTION;
    const double *w = C->w[p];
    int full = g->fn[p] >= FIELD_LIMIT;
    double best, weak;
    int best_i = best_card_to_play(g, C, p, &best);
    if (best_i < 0 || best < w[W_PLAY_MIN]) return NO_ACTION;
    if (!full) return ENC(A_PLAY, best_i, 0);
    int weak_slot = weakest_slot(g, C, p, &weak); /* R6: retire only for a clearly better card */
    if (best - weak >= w[W_RETIRE_MARGIN]) return ENC(A_RETIRE, weak_slot, 0);
    return NO_ACTION;
}

/* appraise.hit_value: a kill is worth act_kill x value (+ act_steal), a hit act_hit x value / HP */
static inline double hit_value(const double *w, double steal, double value, int hp) {
    return hp <= 1 ? w[W_ACT_KILL] * value + steal : w[W_ACT_HIT] * value / (double)hp;
}

/* appraise.best_attack for greedy (threat 0): one attack (target, value) and two attacks of a DOUBLE card */
KFN int best_attack(const Game *g, const Ctx *C, int p, int slot, double *one_out, int *t2_out, double *two_out) {
    int o = 1 - p;
    const double *w = C->w[p];
    const Card *cd = &C->cards[g->fcard[p][slot]];
    int twice = g->facts[p][slot] >= 2;
    double hp_weight = w[W_HP];
    double steal = (cd->kw & STEAL) ? w[W_ACT_STEAL] : 0.0;
    double best = -INFINITY, second = -INFINITY, total = 0.0, total2 = 0.0, pair = -INFINITY;
    int best_t = -1, pair_t = -1;
    for (int t = 0; t < g->fn[o]; t++) {
        if (cd->atk > g->fdef[o][t]) { /* R8 */
            int hp = g->fhp[o][t];
            double value = field_value(g, C, o, t, p);
            double v = hit_value(w, steal, value, hp);
            total += v;
            if (v > best) {
                second = best;
                best = v;
                best_t = t;
            } else if (v > second) {
                second = v;
            }
            if (twice && hp >= 2) { /* the second attack hits it again, one HP lower */
                double v2 = hit_value(w, steal, value - hp_weight, hp - 1);
                total2 += v2;
                double both = v + (v2 > 0.0 ? v2 : 0.0);
                if (both > pair) {
                    pair = both;
                    pair_t = t;
                }
            }
        }
    }
    int omni = cd->kw & OMNI;
    int first = best_t >= 0 && omni ? ALL_TARGETS : best_t;
    *one_out = omni ? total : best;
    *t2_out = -1;
    *two_out = -INFINITY;
    if (best_t < 0 || !twice) return first;
    if (omni) { /* two OMNI actions: the second hits the survivors */
        *t2_out = first;
        *two_out = total + (total2 > 0.0 ? total2 : 0.0);
        return first;
    }
    double spread = best + (second > 0.0 ? second : 0.0);
    if (spread >= pair) {
        *t2_out = best_t;
        *two_out = spread;
    } else {
        *t2_out = pair_t;
        *two_out = pair;
    }
    return first;
}

/* appraise.self_change: DEVOUR, DECAY, FRAGILE on the acting card after `times` actions (R11) */
KFN double self_change(const Game *g, const Ctx *C, int p, int slot, int times) {
    int kw = C->cards[g->fcard[p][slot]].kw;
    if (!(kw & (DEVOUR | DECAY | FRAGILE))) return 0.0;
    const double *w = C->w[p];
    int hp = g->fhp[p][slot], def = g->fdef[p][slot];
    for (int k = 0; k < times; k++) {
        if ((kw & DEVOUR) && hp < DEVOUR_HP_CAP) hp++;
        if ((kw & DECAY) && def > 0) def--;
        if (kw & FRAGILE) hp--;
        if (hp <= 0) return k == times - 1 ? -w[W_ACT_SELF_LOSS] * field_value(g, C, p, slot, p) : -INFINITY;
    }
    return w[W_ACT_SELF_LOSS] * (w[W_HP] * (double)(hp - g->fhp[p][slot]) + w[W_DEF] * (double)(def - g->fdef[p][slot]));
}

KFN int card_action(const Game *g, const Ctx *C, int p, int slot, int scorers, int drawable, double *out) {
    const double *w = C->w[p];
    const Card *cd = &C->cards[g->fcard[p][slot]];
    int hand = g->hand_n[p];
    double best = -INFINITY;
    int best_a = NO_ACTION;
    if (can_score(g, C, p, slot)) {
        best = w[W_ACT_SCORE] * (double)score_points(g, C, p, slot);
        best_a = ENC(A_SCORE, slot, 0);
        if ((cd->kw & PROSPERITY) && drawable > 0)
            best -= w[W_ACT_SCORE] * (double)(bonus_of(C, hand + drawable) - bonus_of(C, hand));
    }
    if (can_draw(g, C, p, slot)) {
        int n = imin(imin(cd->draw, g->deck_n[p]), HAND_LIMIT - hand);
        double v = w[W_ACT_DRAW] * (double)n; /* + cycle bonus (0.0 for greedy) */
        if (scorers > 0 && !(cd->kw & PROSPERITY))
            v += w[W_ACT_SCORE] * scorers * (double)(bonus_of(C, hand + n) - bonus_of(C, hand));
        if (v > best) {
            best = v;
            best_a = ENC(A_DRAW, slot, 0);
        }
    }
    int t2 = -1;
    double v2 = -INFINITY;
    if (g->facts[p][slot] > 0 && cd->atk > 0) {
        double v;
        int t = best_attack(g, C, p, slot, &v, &t2, &v2);
        if (t >= 0 && v > best) {
            best = v;
            best_a = ENC(A_ATTACK, slot, t);
        }
    }
    if (best_a != NO_ACTION) best += self_change(g, C, p, slot, 1);
    if (t2 >= 0) {
        v2 += self_change(g, C, p, slot, 2);
        if (v2 > best) {
            best = v2;
            best_a = ENC(A_ATTACK, slot, t2);
        }
    }
    *out = best;
    return best_a;
}

KCALL int best_field_action(const Game *g, const Ctx *C, int p, double *out) {
    int drawable;
    int scorers = prosperity_outlook(g, C, p, &drawable);
    double best = -INFINITY;
    int best_a = NO_ACTION;
    for (int slot = 0; slot < g->fn[p]; slot++) {
        if (g->facts[p][slot] > 0) {
            double v;
            int a = card_action(g, C, p, slot, scorers, drawable, &v);
            if (a != NO_ACTION && v > best) {
                best = v;
                best_a = a;
            }
        }
    }
    *out = best;
    return best_a;
}

KFN int cheapest_in_hand(const Game *g, const Ctx *C, int p) { /* lowest-valued card, first on ties */
    double best = INFINITY;
    int best_i = 0;
    for (int i = 0; i < g->hand_n[p]; i++) {
        double v = C->values[p][g->hand[p][i]];
        if (v < best) {
            best = v;
            best_i = i;
        }
    }
    return best_i;
}

KFN int greedy(const Game *g, const Ctx *C) {
    int p = g->mover;
    if (g->phase == PH_PAY) return ENC(A_PAY, cheapest_in_hand(g, C, p), 0);
    int a = winning_score(g, C, p);
    if (a == NO_ACTION && g->phase == PH_PLAY) a = play_or_retire(g, C, p);
    if (a != NO_ACTION) return a;
    double v;
    a = best_field_action(g, C, p, &v);
    if (a != NO_ACTION && v > C->w[p][W_ACT_MIN]) return a;
    return END_TURN;
}

/* bots.choose: the kernel dispatches on the seat's bot id at every decision (here: greedy only) */
KFN int choose(int bot_id, const Game *g, const Ctx *C) {
    if (bot_id == 1) return greedy(g, C);
    return END_TURN;
}

/* ---------------------------------------------------------------- a game and a batch */
KFN long long play_game(Game *g, const Ctx *C, const int8_t *bot_ids, int64_t game, uint64_t seed) {
    set_up(g, C, game, seed);
    long long cap = 64LL * MAX_TURNS_P * (DECK_SIZE + FIELD_LIMIT), decisions = 0;
    while (g->phase != PH_OVER && cap > 0) {
        cap--;
        decisions++;
        apply_action(g, C, choose(bot_ids[g->mover], g, C));
    }
    T(if (g->end_reason == TARGET_SCORE) record_turn(g);)
    return decisions;
}

static void prepare(Ctx *C) { /* bots.card_values and decks.lay_out_piles */
    for (int p = 0; p < 2; p++) {
        const double *w = C->w[p];
        for (int c = 0; c < C->n_cards; c++) {
            const Card *cd = &C->cards[c];
            int kw = cd->kw;
            /* grouped exactly as the kernel's expression, so every value has the same bits */
            double v = w[W_SCORE] * cd->score + w[W_DRAW] * cd->draw + w[W_ATK] * cd->atk;
            v += w[W_DEF] * cd->def + w[W_HP] * cd->hp;
            v += w[W_READY] * ((kw & READY) > 0) + w[W_DOUBLE] * ((kw & DOUBLE) > 0) + w[W_OMNI] * ((kw & OMNI) > 0);
            v += w[W_STEAL] * ((kw & STEAL) > 0) + w[W_PROSPERITY] * ((kw & PROSPERITY) > 0);
            v += w[W_FRAGILE] * ((kw & FRAGILE) > 0) + w[W_DECAY] * ((kw & DECAY) > 0) + w[W_DEVOUR] * ((kw & DEVOUR) > 0);
            C->values[p][c] = v;
            if (c == 0 || v < C->lowest[p]) C->lowest[p] = v;
            C->net[p][c] = v - w[W_COST] * cd->cost;
        }
    }
    int gain = 0;
    for (int c = 0; c < C->n_cards; c++) {
        int bonus = (C->cards[c].kw & PROSPERITY) ? C->P.hand_limit / C->P.prosperity_step : 0;
        if (C->cards[c].score + bonus > gain) gain = C->cards[c].score + bonus;
    }
    C->max_gain = gain;
    C->piles_n[0] = C->piles_n[1] = C->piles_n[2] = 0;
    for (int c = 0; c < C->n_cards; c++) {
        C->piles[PILE_ALL][C->piles_n[PILE_ALL]++] = (uint8_t)c;
        int cost = C->cards[c].cost;
        if (cost != C->P.builder_excluded_cost) {
            int k = cost == 0 ? PILE_FREE : PILE_COSTLY;
            C->piles[k][C->piles_n[k]++] = (uint8_t)c;
        }
    }
}

/* ---------------------------------------------------------------- inputs (export_pool.py) */
static int param_of(const char *line, const char *key) {
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *at = strstr(line, pat);
    if (!at) {
        fprintf(stderr, "inputs: parameter %s missing\n", key);
        exit(2);
    }
    return atoi(at + strlen(pat));
}

static void load_inputs(Ctx *C, const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(2);
    }
    char line[4096];
    int n_cards = -1, got_params = 0, got_weights = 0;
    memset(C, 0, sizeof *C);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        if (!strncmp(line, "params ", 7)) {
            const char *L = line + 6;
            /* the modern variant's choices are fixed in the code: refuse anything else */
            if (param_of(L, "deck_builder") != 0 || param_of(L, "deck_source") != 0 || param_of(L, "first_seat") != 0 ||
                param_of(L, "play_limit") != 0 || param_of(L, "replenish_timing") != 0 ||
                param_of(L, "prosperity_gain") != 0 || param_of(L, "value_card") != -1) {
                fprintf(stderr, "inputs: this twin implements only the modern variant's choices\n");
                exit(2);
            }
            Params *P = &C->P;
            P->builder_cost_target = param_of(L, "builder_cost_target");
            P->builder_excluded_cost = param_of(L, "builder_excluded_cost");
            P->target_score = param_of(L, "target_score");
            P->deck_size = param_of(L, "deck_size");
            P->opening_hand = param_of(L, "opening_hand");
            P->hand_limit = param_of(L, "hand_limit");
            P->field_limit = param_of(L, "field_limit");
            P->first_turn_draw = param_of(L, "first_turn_draw");
            P->idle_extra_draw = param_of(L, "idle_extra_draw");
            P->replenish_point = param_of(L, "replenish_point");
            P->prosperity_step = param_of(L, "prosperity_step");
            P->devour_hp_cap = param_of(L, "devour_hp_cap");
            P->max_turns = param_of(L, "max_turns");
            got_params = 1;
        } else if (!strncmp(line, "weights ", 8)) {
            char *s = line + 8, *end;
            int n = (int)strtol(s, &end, 10);
            for (int k = 0; k < n && k < N_WEIGHTS; k++) {
                double x = strtod(end, &end);
                C->w[0][k] = C->w[1][k] = x; /* greedy in both seats */
            }
            got_weights = 1;
        } else if (!strncmp(line, "cards ", 6)) {
            n_cards = atoi(line + 6);
            for (int c = 0; c < n_cards; c++) {
                int id, cost, hp, atk, def, drw, score, kw;
                if (!fgets(line, sizeof line, f) ||
                    sscanf(line, "%d %d %d %d %d %d %d %d", &id, &cost, &hp, &atk, &def, &drw, &score, &kw) != 8 || id != c) {
                    fprintf(stderr, "inputs: bad card line %d\n", c);
                    exit(2);
                }
                Card *cd = &C->cards[c];
                cd->cost = (int8_t)cost;
                cd->hp = (int8_t)hp;
                cd->atk = (int8_t)atk;
                cd->def = (int8_t)def;
                cd->draw = (int8_t)drw;
                cd->score = (int8_t)score;
                cd->kw = (uint8_t)kw;
                cd->acts = (kw & DOUBLE) ? 2 : 1;
            }
        }
    }
    fclose(f);
    if (!got_params || !got_weights || n_cards <= 0 || n_cards > MAX_CARDS) {
        fprintf(stderr, "inputs: %s lacks params, weights or cards\n", path);
        exit(2);
    }
    C->n_cards = n_cards;
#ifdef CONST_PARAMS
    const Params *P = &C->P;
    if (P->builder_cost_target != 10 || P->builder_excluded_cost != 8 || P->target_score != 20 || P->deck_size != 20 ||
        P->opening_hand != 4 || P->hand_limit != 10 || P->field_limit != 5 || P->first_turn_draw != 0 ||
        P->idle_extra_draw != 1 || P->replenish_point != 1 || P->prosperity_step != 5 || P->devour_hp_cap != 4 ||
        P->max_turns != 200) {
        fprintf(stderr, "inputs: CONST_PARAMS build needs the modern numbers\n");
        exit(2);
    }
#endif
    prepare(C);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s INPUTS n_games root_seed [first_game=0] [games.csv] [seats.csv]\n", argv[0]);
        return 2;
    }
    Ctx *C = calloc(1, sizeof *C); /* on the heap: its address is a run-time value, as the kernel's state is */
    if (!C) return 3;
    load_inputs(C, argv[1]);
    long long n = atoll(argv[2]);
    uint64_t root = strtoull(argv[3], NULL, 10);
    int64_t first = argc > 4 ? atoll(argv[4]) : 0;
    const char *games_csv = argc > 5 ? argv[5] : NULL;
    GameRow *rows = calloc((size_t)n, sizeof *rows);
    Game *g = calloc(1, sizeof *g);
    int8_t bot_ids[2] = {1, 1}; /* greedy in both seats (bots.Bot.GREEDY = 1) */
#ifdef TALLY
    SeatRow *seats = calloc((size_t)(2 * n), sizeof *seats);
    const char *seats_csv = argc > 6 ? argv[6] : NULL;
#endif
    if (!rows || !g) return 3;
    long long decisions = 0;
    double t0 = now(), c0 = cpu_now();
    for (long long k = 0; k < n; k++) {
        int64_t game = first + k;
        decisions += play_game(g, C, bot_ids, game, game_seed(root, (uint64_t)game));
        GameRow *r = &rows[k]; /* kernel.write_records */
        r->game = game;
        r->seed = g->seed;
        r->first_seat = (int8_t)g->first_seat;
        r->winner = (int8_t)g->winner;
        r->turns = (int16_t)g->turn;
        r->end_reason = (int8_t)g->end_reason;
        r->score_0 = (int16_t)g->score[0];
        r->score_1 = (int16_t)g->score[1];
#ifdef TALLY
        for (int p = 0; p < 2; p++) {
            SeatRow *st = &g->seats[p];
            st->game = game;
            st->seat = (int8_t)p;
            st->bot = bot_ids[p];
            st->score = (int16_t)g->score[p];
            st->won = g->winner == p;
            seats[2 * k + p] = *st;
        }
#endif
    }
    double dt = now() - t0, cpu = cpu_now() - c0;
    long long turns = 0, wins0 = 0, wins1 = 0, timeouts = 0;
    uint64_t h = 0;
    for (long long k = 0; k < n; k++) {
        const GameRow *r = &rows[k];
        turns += r->turns;
        wins0 += r->winner == 0;
        wins1 += r->winner == 1;
        timeouts += r->winner < 0;
        h = mix64(h ^ (uint64_t)((r->winner + 1) | (r->turns << 8) | ((uint64_t)r->score_0 << 24) |
                                 ((uint64_t)r->score_1 << 40) | ((uint64_t)r->first_seat << 56)));
    }
#if defined(TALLY) && defined(KERNEL_CALLS)
    const char *variant = "tally + the kernel's calls";
#elif defined(KERNEL_CALLS)
    const char *variant = "games only, the kernel's calls (noinline)";
#elif defined(TALLY)
    const char *variant = "tally (games+seats, kernel bookkeeping)";
#elif defined(CONST_PARAMS)
    const char *variant = "games only, compile-time params";
#else
    const char *variant = "games only";
#endif
    printf("twin[%s]: %lld games (seed %llu, first %lld) in %.3f s = %.0f games/s; cpu %.3f s = %.0f games/CPU-s; "
           "%lld decisions = %.2f/game, %.1f ns/decision; mean turns %.3f; wins %lld/%lld, timeouts %lld; "
           "checksum %016llx\n",
           variant, n, (unsigned long long)root, (long long)first, dt, n / dt, cpu, n / cpu, decisions,
           (double)decisions / n, 1e9 * cpu / decisions, (double)turns / n, wins0, wins1, timeouts, (unsigned long long)h);
    if (games_csv) {
        FILE *f = fopen(games_csv, "w");
        fprintf(f, "game,seed,first_seat,winner,turns,end_reason,score_0,score_1\n");
        for (long long k = 0; k < n; k++) {
            const GameRow *r = &rows[k];
            fprintf(f, "%lld,%llu,%d,%d,%d,%d,%d,%d\n", (long long)r->game, (unsigned long long)r->seed, r->first_seat,
                    r->winner, r->turns, r->end_reason, r->score_0, r->score_1);
        }
        fclose(f);
    }
#ifdef TALLY
    if (seats_csv) {
        FILE *f = fopen(seats_csv, "w");
        fprintf(f, "game,seat,bot,score,won,first,points_score,points_prosperity,points_steal,points_replenish,"
                   "cards_played,attacks,draws,scores,cards_destroyed,own_fragile_losses,replenishes,deck_total_cost,deck\n");
        for (long long k = 0; k < 2 * n; k++) {
            const SeatRow *s = &seats[k];
            fprintf(f, "%lld,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,", (long long)s->game, s->seat, s->bot,
                    s->score, s->won, s->first, s->points_score, s->points_prosperity, s->points_steal,
                    s->points_replenish, s->cards_played, s->attacks, s->draws, s->scores, s->cards_destroyed,
                    s->own_fragile_losses, s->replenishes, s->deck_total_cost);
            for (int j = 0; j < C->P.deck_size; j++) fprintf(f, "%s%d", j ? " " : "", s->deck[j]);
            fprintf(f, "\n");
        }
        fclose(f);
    }
#endif
    return 0;
}
