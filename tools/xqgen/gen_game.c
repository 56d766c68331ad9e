/*
 * gen_game.c - one self-play game for training data: the random opening, the
 * fixed-node searches, the records, and the game-end rules and adjudication.
 */
#include "gen_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"

enum {
    DEFAULT_NODES = 5000,
    DEFAULT_RANDOM_MIN = 6,
    DEFAULT_RANDOM_MAX = 10,
    DEFAULT_OPEN_LIMIT = 200,
    DEFAULT_MAX_PLIES = 400,
    DEFAULT_RESIGN_CP = 1500,
    DEFAULT_RESIGN_MOVES = 3,
    DEFAULT_DRAW_PLY = 80,
    DEFAULT_DRAW_MOVES = 10,
    DEFAULT_DRAW_CP = 10,
    MAX_RANDOM_PLIES = 100,
    INITIAL_RECORDS = 256,
};

static const uint64_t RNG_GOLDEN = 0x9E3779B97F4A7C15ull;

static const char *const END_NAMES[GEN_ENDS] = {
    "none", "no legal move", "perpetual", "repetition", "60-move rule", "mate score", "resign", "adjudicated draw",
    "max plies",
};

/* splitmix64: a small, fast generator whose whole state is one word. */
typedef struct GenRng {
    uint64_t state;
} GenRng;

/* Next 64 random bits (splitmix64). */
static uint64_t rng_next(GenRng *r)
{
    uint64_t z = (r->state += RNG_GOLDEN);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Seeds a game's generator from the run's seed and the game index only. */
static void rng_seed(GenRng *r, uint64_t seed, uint64_t index)
{
    GenRng mix = { seed };
    GenRng game = { rng_next(&mix) ^ index };
    r->state = rng_next(&game);
}

/* A random number in [0, n) (n > 0; the modulo bias is below 2^-56 for any n here). */
static uint64_t rng_below(GenRng *r, uint64_t n) { return rng_next(r) % n; }

/* Stable short name of an end reason. */
const char *gen_end_name(GenEnd end) { return (unsigned)end < GEN_ENDS ? END_NAMES[end] : "?"; }

/* Fills a config with the defaults of xqgen play. */
void gen_config_default(GenConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->seed = 1;
    cfg->nodes = DEFAULT_NODES;
    cfg->random_min = DEFAULT_RANDOM_MIN;
    cfg->random_max = DEFAULT_RANDOM_MAX;
    cfg->open_limit = DEFAULT_OPEN_LIMIT;
    cfg->max_plies = DEFAULT_MAX_PLIES;
    cfg->resign_cp = DEFAULT_RESIGN_CP;
    cfg->resign_moves = DEFAULT_RESIGN_MOVES;
    cfg->draw_ply = DEFAULT_DRAW_PLY;
    cfg->draw_moves = DEFAULT_DRAW_MOVES;
    cfg->draw_cp = DEFAULT_DRAW_CP;
    cfg->rules = rules_default();
    cfg->hash_mb = TT_DEFAULT_MB;
    cfg->net = nnue_default();
}

/* Checks a config's ranges. */
bool gen_config_check(const GenConfig *cfg, XqError *err)
{
    const char *bad = NULL;
    if (cfg->nodes < 1)
        bad = "-nodes must be at least 1";
    else if (cfg->random_min < 0 || cfg->random_min > cfg->random_max || cfg->random_max > MAX_RANDOM_PLIES)
        bad = "-random-plies must be MIN-MAX with 0 <= MIN <= MAX <= 100";
    else if (cfg->max_plies <= cfg->random_max || cfg->max_plies > GEN_MAX_PLIES)
        bad = "-max-plies must exceed the random plies and be at most 1792";
    else if (cfg->open_limit < 0 || cfg->resign_cp < 0 || cfg->draw_cp < 0)
        bad = "-open-limit, -resign and -draw-score must not be negative";
    else if (cfg->resign_moves < 1 || cfg->draw_moves < 0 || cfg->draw_ply < 0)
        bad = "-resign-moves must be at least 1, -draw-moves and -draw-ply not negative";
    else if (cfg->hash_mb < 1 || cfg->hash_mb > TT_MAX_MB)
        bad = "-hash must be 1 to 65536 MB";
    else if (!cfg->rules)
        bad = "unknown rule set";
    if (bad)
        snprintf(err->msg, sizeof err->msg, "%s", bad);
    return bad == NULL;
}

/* Allocates a worker's search thread, table and position. */
bool gen_worker_init(GenWorker *w, size_t hash_mb)
{
    memset(w, 0, sizeof *w);
    atomic_init(&w->shared.stop, false);
    atomic_init(&w->shared.pondering, false);
    atomic_init(&w->shared.start_ms, 0);
    w->st = search_thread_new();
    w->pos = malloc(sizeof *w->pos);
    w->scratch = malloc(sizeof *w->scratch);
    if (!w->st || !w->pos || !w->scratch || !tt_resize(&w->tt, hash_mb)) {
        gen_worker_free(w);
        return false;
    }
    return true;
}

/* Frees what gen_worker_init allocated. */
void gen_worker_free(GenWorker *w)
{
    search_thread_free(w->st);
    free(w->pos);
    free(w->scratch);
    tt_free(&w->tt);
    w->st = NULL;
    w->pos = w->scratch = NULL;
}

/* Packs a position canonically: through its FEN, as xqgen convert would. */
void gen_pack_canonical(PackedPos *rec, const Position *pos, Position *scratch)
{
    XqError err;
    packed_from_position(rec, pos);
    if (packed_to_position(rec, scratch, &err)) /* always: pos is a legal position */
        packed_from_position(rec, scratch);
}

/* Frees a game's records. */
void gen_game_free(GenGame *g)
{
    free(g->rec);
    g->rec = NULL;
    g->count = g->cap = 0;
}

/* Prepares one search: the node budget (no time limit, no depth limit), the rules, and the evaluation. */
static void search_setup(GenWorker *w, const GenConfig *cfg)
{
    SearchLimits limits;
    memset(&limits, 0, sizeof limits);
    limits.nodes = cfg->nodes;
    search_shared_init(&w->shared, &w->tt, &limits, cfg->rules, NULL, NULL);
    w->shared.net = cfg->net;
}

/* Searches the worker's position at the node budget. */
static void search_position(GenWorker *w, const GenConfig *cfg, SearchResult *res)
{
    search_setup(w, cfg);
    search_run(w->st, &w->shared, w->pos, res);
}

/* Forgets everything learned in earlier games, so a game does not depend on them. */
static void fresh_search_state(GenWorker *w)
{
    tt_clear(&w->tt);
    search_thread_clear(w->st);
}

/* Plays a random opening from the start position; false if it ended the game. */
static bool random_opening(Position *pos, GenRng *rng, const GenConfig *cfg, bool random)
{
    XqError err;
    pos_from_fen(pos, START_FEN, &err);
    int plies = random ? cfg->random_min + (int)rng_below(rng, (uint64_t)(cfg->random_max - cfg->random_min + 1)) : 0;
    for (int i = 0; i < plies; i++) {
        Move moves[MAX_MOVES];
        int n = gen_legal(pos, moves);
        if (n == 0)
            return false;
        pos_make(pos, moves[rng_below(rng, (uint64_t)n)]);
    }
    RulesReport rep;
    return rules_game_status(pos, cfg->rules, &rep) == RULES_ONGOING;
}

/*
 * Draws openings until the first search of one scores within the opening
 * limit (res gets that search). After GEN_OPENING_TRIES draws the last one is
 * kept (or, if it had ended the game, the start position itself).
 */
static void choose_opening(GenWorker *w, const GenConfig *cfg, GenRng *rng, GenGame *g, SearchResult *res)
{
    for (;;) {
        g->openings++;
        bool last = g->openings >= GEN_OPENING_TRIES;
        if (!random_opening(w->pos, rng, cfg, true)) {
            if (!last)
                continue;
            random_opening(w->pos, rng, cfg, false);
        }
        fresh_search_state(w);
        search_position(w, cfg, res);
        if (last || cfg->open_limit == 0 || abs(res->score) <= cfg->open_limit)
            return;
    }
}

/* The score a record stores: mates and bans as +-GEN_MATE_SCORE, the rest clamped to +-GEN_MAX_SCORE. */
static int16_t stored_score(int score)
{
    if (score_is_mate(score) || score_is_ban(score))
        return (int16_t)(score > 0 ? GEN_MATE_SCORE : -GEN_MATE_SCORE);
    return (int16_t)(score > GEN_MAX_SCORE ? GEN_MAX_SCORE : score < -GEN_MAX_SCORE ? -GEN_MAX_SCORE : score);
}

/* Appends the record of the searched position; false if out of memory. */
static bool push_record(GenGame *g, const Position *pos, Position *scratch, const SearchResult *res)
{
    if (g->count == g->cap) {
        int cap = g->cap ? 2 * g->cap : INITIAL_RECORDS;
        PackedPos *rec = realloc(g->rec, (size_t)cap * sizeof *rec);
        if (!rec)
            return false;
        g->rec = rec;
        g->cap = cap;
    }
    PackedPos *r = &g->rec[g->count++];
    memset(r, 0, sizeof *r);
    gen_pack_canonical(r, pos, scratch);
    r->score = stored_score(res->score);
    r->ply = pos->ply;
    r->flags = (uint8_t)((pos->in_check ? NNUE_REC_IN_CHECK : 0)
                         | (pos->board[move_to(res->best)] != EMPTY ? NNUE_REC_CAPTURE : 0)
                         | (score_is_mate(res->score) || score_is_ban(res->score) ? NNUE_REC_MATE : 0));
    return true;
}

/* Winner (+1 red, -1 black) when `side` wins; its negation when it loses. */
static int winner_if_wins(int side) { return side == RED ? 1 : -1; }

/* Ends the game by the rules module's verdict if it rules the game over; true if it does. */
static bool rules_end(Position *pos, const GenConfig *cfg, GenGame *g)
{
    RulesReport rep;
    RulesVerdict v = rules_game_status(pos, cfg->rules, &rep);
    if (v == RULES_ONGOING)
        return false;
    g->winner = v == RULES_RED_LOSES ? -1 : v == RULES_BLACK_LOSES ? 1 : 0;
    switch (rep.reason) {
    case REASON_NO_LEGAL_MOVE: g->end = GEN_END_NO_MOVE; break;
    case REASON_PERPETUAL_CHECK:
    case REASON_PERPETUAL_CHASE: g->end = GEN_END_PERPETUAL; break;
    case REASON_QUIET_LIMIT: g->end = GEN_END_RULE60; break;
    default: g->end = GEN_END_REPETITION; break;
    }
    return true;
}

/* Score adjudication after a search: mate found, resignation, or a dead draw; true if the game ends. */
static bool score_end(const Position *pos, const GenConfig *cfg, int score, int resign_run[2], int *draw_run,
                      GenGame *g)
{
    const int side = pos->side;
    if (score_is_mate(score)) {
        g->winner = score > 0 ? winner_if_wins(side) : -winner_if_wins(side);
        g->end = GEN_END_MATE_SCORE;
        return true;
    }
    resign_run[side] = cfg->resign_cp && score <= -cfg->resign_cp ? resign_run[side] + 1 : 0;
    if (resign_run[side] >= cfg->resign_moves) {
        g->winner = -winner_if_wins(side);
        g->end = GEN_END_RESIGN;
        return true;
    }
    *draw_run = cfg->draw_moves && pos->ply >= cfg->draw_ply && abs(score) <= cfg->draw_cp ? *draw_run + 1 : 0;
    if (cfg->draw_moves && *draw_run >= cfg->draw_moves) {
        g->winner = 0;
        g->end = GEN_END_ADJ_DRAW;
        return true;
    }
    return false;
}

/* Plays game `index` and fills each record's result from its side to move's view. */
bool gen_play_game(GenWorker *w, const GenConfig *cfg, uint64_t index, GenCancelFn cancel, void *cancel_ctx,
                   GenGame *g)
{
    memset(g, 0, sizeof *g);
    g->index = index;
    GenRng rng;
    rng_seed(&rng, cfg->seed, index);
    Position *pos = w->pos;
    SearchResult res;
    int resign_run[2] = { 0, 0 }, draw_run = 0;
    if (cancel && cancel(cancel_ctx, index))
        return false;
    choose_opening(w, cfg, &rng, g, &res);
    for (;;) {
        if (!push_record(g, pos, w->scratch, &res)) {
            gen_game_free(g);
            return false;
        }
        if (score_end(pos, cfg, res.score, resign_run, &draw_run, g))
            break;
        pos_make(pos, res.best);
        if (rules_end(pos, cfg, g))
            break;
        if (pos->ply >= cfg->max_plies) {
            g->winner = 0;
            g->end = GEN_END_MAX_PLIES;
            break;
        }
        if (cancel && cancel(cancel_ctx, index)) {
            gen_game_free(g);
            return false;
        }
        search_position(w, cfg, &res);
    }
    for (int i = 0; i < g->count; i++)
        g->rec[i].result = (int8_t)(g->rec[i].stm == RED ? g->winner : -g->winner);
    return true;
}
