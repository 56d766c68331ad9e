/* engine.c - the engine facade: root position, hash, options, search thread (see engine.h). */
#include "engine.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_book.h"
#include "eval/eval.h"
#include "board/move.h"
#include "board/movegen.h"
#include "board/perft.h"
#include "base/platform.h"
#include "rules/rules.h"
#include "search/strength.h"
#include "tb/tb_probe.h"

enum {
    /* the root history never grows past this, leaving room for the search path */
    HISTORY_LIMIT = MAX_HISTORY - MAX_PLY - 64,
    /* when no capture happened for longer than this, older plies are dropped anyway */
    HISTORY_KEEP_MAX = HISTORY_LIMIT / 2,
    PV_MAX_OUT = 64,        /* keeps every info line far below 1000 bytes */
    /* the 16-bit move counters stop here on a long move list, so the search's plies cannot wrap them */
    COUNTER_CAP = UINT16_MAX - MAX_HISTORY,
};

/* Where a probe asked during a search stands (Engine.probe_state, guarded by Engine.lock). */
typedef enum ProbeState { PROBE_IDLE, PROBE_ASKED, PROBE_ANSWERED } ProbeState;

/* Drops the history before the last capture (those positions can never repeat). */
static void trim_history(Position *pos)
{
    int keep = pos->rule60 < pos->ply ? pos->rule60 : pos->ply;
    if (keep > HISTORY_KEEP_MAX)
        keep = HISTORY_KEEP_MAX;
    memmove(pos->hist, pos->hist + (pos->ply - keep), (size_t)keep * sizeof pos->hist[0]);
    pos->ply = (uint16_t)keep;
}

/* Plays a legal move onto a game: the history stays within its limit, the counters cannot wrap. */
static void play_on(Position *pos, Move m)
{
    if (pos->ply >= HISTORY_LIMIT)
        trim_history(pos);
    pos_make(pos, m);
    if (pos->rule60 > COUNTER_CAP)
        pos->rule60 = COUNTER_CAP;
    if (pos->fullmove > COUNTER_CAP)
        pos->fullmove = COUNTER_CAP;
}

/* Builds a position from a FEN (NULL = start) and move texts into out. */
bool engine_build_position(const char *fen, char *const *moves, int n_moves, Position *out, XqError *err)
{
    if (!pos_from_fen(out, fen ? fen : START_FEN, err))
        return false;
    for (int i = 0; i < n_moves; i++) {
        Move m;
        XqError merr;
        if (!move_parse_legal(out, moves[i], &m, &merr)) {
            snprintf(err->msg, sizeof err->msg, "%.100s (move %d of the list)", merr.msg, i + 1);
            return false;
        }
        play_on(out, m);
    }
    return true;
}

/* Search-thread report hook: checks the PV move by move, then passes it on. */
static void engine_report(void *ctx, const SearchReport *report)
{
    Engine *e = ctx;
    SearchReport r = *report;
    Position *p = e->pv_pos;
    memcpy(p, e->root, sizeof *p);
    int n = 0, limit = r.pv_len < PV_MAX_OUT ? r.pv_len : PV_MAX_OUT;
    while (n < limit && p->ply < MAX_HISTORY - 1 && move_is_pseudo_legal(p, r.pv[n]) && move_is_legal(p, r.pv[n]))
        pos_make(p, r.pv[n++]);
    r.pv_len = n;
    if (e->cb.info)
        e->cb.info(e->cb.ctx, e->root, &r);
}

/* Search-thread hook: passes a root move announcement on. */
static void engine_currmove(void *ctx, Move move, int number)
{
    Engine *e = ctx;
    e->cb.currmove(e->cb.ctx, move, number);
}

/* Is the position after legal root move m a draw by the rules in force (repetition, quiet-move limit, dead
 * position)? */
static bool move_reaches_rule_draw(Engine *e, Move m)
{
    Position *p = e->pv_pos;
    RulesReport report;
    memcpy(p, e->root, sizeof *p);
    if (p->ply >= MAX_HISTORY - 1)
        return false;
    pos_make(p, m);
    return rules_game_status(p, e->opt.rules, &report) == RULES_DRAW;
}

/* Body of the search thread: search, hold an open-ended result, check it, report it. */
static void *search_main(void *arg)
{
    Engine *e = arg;
    EngineResult res;
    memset(&res, 0, sizeof res);
    memset(&e->result, 0, sizeof e->result);
    if (e->position_ok && e->n_legal > 0 && !(e->go.depth < 0)) {
        res.book = engine_book_deliver(e->book, &e->result); /* a book move chosen at the go: no search */
        if (res.book && e->cb.book)
            e->cb.book(e->cb.ctx, e->root, e->book->moves, e->book->n, e->book->chosen);
        if (!res.book) {
            pool_search(e->pool, &e->shared, e->root, &e->result);
            res.searched = true;
        }
    }
    pthread_mutex_lock(&e->lock);
    e->tt_busy = false; /* no more writes: a probe reads the table itself from now on */
    pthread_cond_broadcast(&e->probe_cond);
    while (e->wait_for_stop && !e->released)
        pthread_cond_wait(&e->cond, &e->lock);
    pthread_mutex_unlock(&e->lock);

    res.best = e->result.best;
    res.ponder = e->result.ponder;
    res.score = e->result.score;
    e->has_last = res.searched && e->result.depth > 0;
    e->last_key = e->root->key;
    e->last_score = e->result.score;
    res.depth = e->result.depth;
    res.nodes = e->result.nodes;
    res.time_ms = now_ms() - atomic_load(&e->shared.start_ms);
    res.draw_offered = atomic_load(&e->draw_offered);
    res.in_check = e->position_ok && e->root->in_check;
    if (res.searched && !move_listed(e->legal, e->n_legal, res.best)) {
        /* never print an illegal move: fall back to an allowed legal one */
        res.best = e->shared.limits.n_root_moves ? e->shared.limits.root_moves[0] : e->legal[0];
        res.ponder = MOVE_NONE;
    }
    if (res.best != MOVE_NONE && res.ponder != MOVE_NONE) {
        Position *p = e->pv_pos;
        memcpy(p, e->root, sizeof *p);
        pos_make(p, res.best);
        if (!move_is_pseudo_legal(p, res.ponder) || !move_is_legal(p, res.ponder))
            res.ponder = MOVE_NONE;
    }
    res.rule_draw = res.best != MOVE_NONE && move_reaches_rule_draw(e, res.best);
    if (e->cb.bestmove)
        e->cb.bestmove(e->cb.ctx, &res);
    return NULL;
}

/* Creates an engine with the start position and a default-sized hash. */
Engine *engine_new(const EngineCallbacks *cb)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->root = malloc(sizeof *e->root);
    e->scratch = malloc(sizeof *e->scratch);
    e->pv_pos = malloc(sizeof *e->pv_pos);
    e->pool = pool_new();
    e->book = engine_book_new();
    if (!e->root || !e->scratch || !e->pv_pos || !e->pool || !e->book) {
        free(e->root);
        free(e->scratch);
        free(e->pv_pos);
        pool_free(e->pool);
        engine_book_free(e->book);
        free(e);
        return NULL;
    }
    XqError err;
    pos_from_fen(e->root, START_FEN, &err);
    e->position_ok = true;
    e->cb = *cb;
    e->opt.threads = 1;
    e->opt.multipv = 1;
    e->opt.level_centi = SKILL_MAX * SKILL_CENTI;
    e->noise_seed = (uint64_t)now_us();
    e->opt.move_overhead_ms = 10;
    e->opt.rules = rules_default();
    e->opt.tb_use = true;
    e->opt.tb_probe_limit = ENGINE_TB_PIECES_MAX;
    search_params_default(&e->opt.search_params);
    atomic_init(&e->shared.stop, false);
    atomic_init(&e->shared.pondering, false);
    atomic_init(&e->shared.start_ms, now_ms());
    atomic_init(&e->draw_offered, false);
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->cond, NULL);
    pthread_cond_init(&e->probe_cond, NULL);
    atomic_init(&e->shared.serve_wanted, false);
    engine_set_hash(e, TT_DEFAULT_MB);
    e->net = nnue_default();
    e->opt.use_nnue = e->net != NULL;
    return e;
}

/* Stops any search and frees everything. */
void engine_free(Engine *e)
{
    if (!e)
        return;
    engine_stop(e);
    engine_wait(e);
    tt_free(&e->tt);
    pool_free(e->pool);
    nnue_net_free(e->file_net);
    engine_book_free(e->book);
    if (e->tb)
        tb_set_free(e->tb);
    free(e->tb);
    pthread_mutex_destroy(&e->lock);
    pthread_cond_destroy(&e->cond);
    pthread_cond_destroy(&e->probe_cond);
    free(e->root);
    free(e->scratch);
    free(e->pv_pos);
    free(e);
}

/* Sets the root; all or nothing (see engine.h). */
bool engine_set_position(Engine *e, const char *fen, char *const *moves, int n_moves, XqError *err)
{
    e->n_banned = 0;
    if (!engine_build_position(fen, moves, n_moves, e->scratch, err)) {
        e->position_ok = false;
        return false;
    }
    Position *old = e->root;
    e->root = e->scratch;
    e->scratch = old;
    e->position_ok = true;
    return true;
}

/* Sets the banned root moves; all or nothing. */
bool engine_set_banmoves(Engine *e, char *const *moves, int n_moves, XqError *err)
{
    Move list[MAX_MOVES];
    int n = 0;
    if (!e->position_ok) {
        snprintf(err->msg, sizeof err->msg, "banmoves without a valid position");
        return false;
    }
    for (int i = 0; i < n_moves; i++) {
        Move m;
        if (!move_parse_legal(e->root, moves[i], &m, err))
            return false;
        if (!move_listed(list, n, m) && n < MAX_MOVES)
            list[n++] = m;
    }
    memcpy(e->banned, list, (size_t)n * sizeof list[0]);
    e->n_banned = n;
    return true;
}

/* Plays one move onto the game (the root); all or nothing. */
bool engine_play(Engine *e, const char *text, Move *played, XqError *err)
{
    Move m;
    if (e->searching || !e->position_ok) {
        snprintf(err->msg, sizeof err->msg, "%s", e->searching ? "a search is running" : "no valid position");
        return false;
    }
    if (!move_parse_legal(e->root, text, &m, err))
        return false;
    play_on(e->root, m);
    e->n_banned = 0;
    if (played)
        *played = m;
    return true;
}

/* Plays a move the engine found (legal in the root) onto the game; false, nothing changed, if it is not. */
bool engine_play_move(Engine *e, Move m)
{
    if (e->searching || !e->position_ok || m == MOVE_NONE || !move_is_pseudo_legal(e->root, m)
        || !move_is_legal(e->root, m))
        return false;
    play_on(e->root, m);
    e->n_banned = 0;
    return true;
}

/* Takes back the last move played onto the game; false when there is none (the game starts here). */
bool engine_undo(Engine *e)
{
    if (e->searching || !e->position_ok || e->root->ply == 0 || e->root->hist[e->root->ply - 1].move == MOVE_NONE)
        return false;
    pos_unmake(e->root);
    e->n_banned = 0;
    return true;
}

/* Number of moves that engine_undo can take back. */
int engine_undo_depth(const Engine *e) { return e->position_ok ? e->root->ply : 0; }

/* What the rules say about the game now (no legal move, repetition, the 60-move limit). */
RulesVerdict engine_game_status(Engine *e, RulesReport *report)
{
    memcpy(e->scratch, e->root, sizeof *e->scratch);
    return rules_game_status(e->scratch, e->opt.rules, report);
}

/* Parses a move text legal in the root, on the scratch copy (move_parse_legal needs a mutable position). */
bool engine_parse_root_move(Engine *e, const char *text, Move *m, XqError *err)
{
    if (!e->position_ok) {
        snprintf(err->msg, sizeof err->msg, "no valid position");
        return false;
    }
    memcpy(e->scratch, e->root, sizeof *e->scratch);
    return move_parse_legal(e->scratch, text, m, err);
}

/* Marks the engine as having no valid position. */
void engine_invalidate_position(Engine *e)
{
    e->position_ok = false;
    e->n_banned = 0;
}

/* Is there a valid root position? */
bool engine_position_ok(const Engine *e) { return e->position_ok; }
/* The root position. */
const Position *engine_root(const Engine *e) { return e->root; }

/* Fills the root move restriction from searchmoves and banmoves. */
static void set_root_moves(Engine *e, const EngineGo *go, SearchLimits *lim)
{
    lim->n_root_moves = 0;
    if (go->n_searchmoves == 0 && e->n_banned == 0)
        return;
    const Move *from = go->n_searchmoves ? go->searchmoves : e->legal;
    int count = go->n_searchmoves ? go->n_searchmoves : e->n_legal;
    for (int i = 0; i < count; i++)
        if (move_listed(e->legal, e->n_legal, from[i]) && !move_listed(e->banned, e->n_banned, from[i])
            && !move_listed(lim->root_moves, lim->n_root_moves, from[i]))
            lim->root_moves[lim->n_root_moves++] = from[i];
    /* if every move is banned, a banned move still beats no move at all */
    if (lim->n_root_moves == 0 && go->n_searchmoves == 0)
        return;
    if (lim->n_root_moves == 0) { /* searchmoves all banned or illegal: search everything allowed */
        set_root_moves(e, &(EngineGo){ .n_searchmoves = 0 }, lim);
    }
}

/* Main search thread's hook: answers a pending probe from the table (lock-free: a consistent entry). */
static void engine_serve_probe(void *ctx)
{
    Engine *e = ctx;
    pthread_mutex_lock(&e->lock);
    if (e->probe_state == PROBE_ASKED) {
        e->probe_found = tt_probe(&e->tt, e->probe_key, 0, &e->probe_entry);
        e->probe_state = PROBE_ANSWERED;
        pthread_cond_broadcast(&e->probe_cond);
    }
    pthread_mutex_unlock(&e->lock);
}

/* Restricts the root to the moves that play the tablebases' value best when a loaded table holds the
 * root (and every move); returns the probes made (0: no restriction). */
static int tb_root_moves(Engine *e, SearchLimits *lim)
{
    if (!e->tb || !e->opt.tb_use || !e->position_ok || e->n_legal == 0)
        return 0;
    int pieces = 0;
    for (int id = RED_TAG; id < RED_TAG + 2 * SIDE_PIECES; id++)
        pieces += e->root->piece_sq[id] != 0;
    if (pieces > e->opt.tb_probe_limit)
        return 0;
    Move moves[MAX_MOVES];
    int n = lim->n_root_moves ? lim->n_root_moves : e->n_legal;
    memcpy(moves, lim->n_root_moves ? lim->root_moves : e->legal, sizeof(Move) * (size_t)n);
    TbValue value;
    int kept = tb_root_filter(e->tb, e->root, moves, n, &value); /* edits and restores the root */
    if (kept <= 0)
        return 0;
    memcpy(lim->root_moves, moves, sizeof(Move) * (size_t)kept);
    lim->n_root_moves = kept;
    return n;
}

/* Loads the endgame tablebases of a directory ("" or "<empty>": none); -1 during a search. */
int engine_set_tb_path(Engine *e, const char *dir, void (*on_error)(void *ctx, const char *msg), void *ctx)
{
    if (e->searching)
        return -1;
    if (e->tb)
        tb_set_free(e->tb);
    free(e->tb);
    e->tb = NULL;
    if (!dir || !*dir || strcmp(dir, "<empty>") == 0)
        return 0;
    TbSet *set = malloc(sizeof *set);
    if (!set) {
        if (on_error)
            on_error(ctx, "out of memory for the tablebases");
        return 0;
    }
    char found[TB_PATH_MAX];
    tb_dir_resolve(dir, found, sizeof found); /* a relative name: also beside the executable, as nets are */
    tb_set_init(set, found);
    int n = tb_set_load_dir(set, on_error, ctx);
    if (n > 0)
        e->tb = set;
    else
        free(set);
    return n;
}

/* Plies played since the game's first position, from the move number and the side to move. */
static int game_ply(const Position *pos)
{
    return (pos->fullmove > 0 ? pos->fullmove - 1 : 0) * 2 + (pos->side == BLACK);
}

/* Starts a search on its own thread. */
bool engine_go(Engine *e, const EngineGo *go)
{
    if (e->searching)
        return false;
    e->go = *go;
    e->n_legal = e->position_ok ? gen_legal(e->root, e->legal) : 0;

    SearchLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.depth = go->depth > 0 ? go->depth : 0;
    lim.nodes = go->nodes;
    lim.mate = go->mate;
    lim.infinite = go->infinite;
    lim.multipv = e->opt.multipv;
    StrengthPlan plan = strength_plan(e->opt.level_centi, e->opt.randomness);
    if (plan.nodes && (!lim.nodes || lim.nodes > plan.nodes))
        lim.nodes = plan.nodes;
    set_root_moves(e, go, &lim);
    /* A book move, if the book has one this go allows; never for a go that waits for stop, a mate search,
     * go depth 0 or an offered draw (their answers need a searched score). The root is edited and restored:
     * no search runs now. */
    bool may_play = e->position_ok && e->n_legal > 0 && !go->infinite && !go->ponder && go->depth >= 0
                    && go->mate <= 0 && !go->draw_offered;
    bool booked = engine_book_choose(e->book, e->root, may_play, &lim, e->banned, e->n_banned);
    /* else the tablebases' best moves, if they hold the root */
    int tb_root_probes = booked ? 0 : tb_root_moves(e, &lim);
    TimeInput ti = go->time;
    ti.overhead_ms = e->opt.move_overhead_ms;
    ti.game_ply = game_ply(e->root);
    ti.ponder = e->opt.ponder;
    ti.forced = (lim.n_root_moves ? lim.n_root_moves : e->n_legal) == 1 && !go->infinite && !go->ponder;
    if (tm_is_timed(&ti) && !go->infinite) {
        TimeLimits tl = tm_allocate(&ti);
        lim.soft_ms = tl.soft_ms;
        lim.hard_ms = tl.hard_ms;
        /* the score of our search two plies back in this game, if that is what ran last */
        const Position *r = e->root;
        lim.has_prev_score = e->has_last && r->ply >= 2 && r->hist[r->ply - 2].key == e->last_key;
        lim.prev_score = e->last_score;
    }
    search_shared_init(&e->shared, &e->tt, &lim, e->opt.rules, engine_report, e);
    /* a limited strength plays with the hand-crafted evaluation, the one its Elo table was measured with */
    bool limited = e->opt.level_centi < SKILL_MAX * SKILL_CENTI;
    e->shared.net = e->opt.use_nnue && !limited ? e->net : NULL;
    e->shared.eval_noise = plan.noise;
    e->shared.noise_seed = e->noise_seed;
    e->shared.serve = engine_serve_probe;
    e->shared.serve_ctx = e;
    e->shared.currmove = e->cb.currmove ? engine_currmove : NULL;
    e->shared.tb = e->tb && e->opt.tb_use ? e->tb : NULL;
    e->shared.tb_probe_limit = e->opt.tb_probe_limit;
    e->shared.params = e->opt.search_params;
    atomic_store(&e->shared.tbhits, (uint64_t)tb_root_probes);
    atomic_store(&e->shared.pondering, go->ponder);
    atomic_store(&e->draw_offered, go->draw_offered);
    e->wait_for_stop = go->infinite || go->ponder;
    e->released = false;
    if (e->in_caller && e->wait_for_stop)
        return false; /* nothing could ever stop it */
    e->tt_busy = true; /* before the thread exists: no probe may read the table directly from here on */
    if (e->in_caller) {
        e->searching = true;
        search_main(e);
        return true;
    }
    if (pthread_create(&e->thread, NULL, search_main, e) != 0) {
        e->tt_busy = false;
        return false;
    }
    e->searching = true;
    return true;
}

/* Body of the perft thread: divide counts of the root, stoppable through the search's stop flag. */
static void *perft_main(void *arg)
{
    Engine *e = arg;
    Position *pos = e->pv_pos; /* the search thread's scratch; no search runs */
    memcpy(pos, e->root, sizeof *pos);
    bool complete;
    uint64_t total = perft_divide_stoppable(pos, e->perft_depth, e->cb.perft_move, e->cb.ctx, &e->shared.stop,
                                            &complete);
    if (e->cb.perft_done)
        e->cb.perft_done(e->cb.ctx, total, complete);
    return NULL;
}

/* Starts perft divide on the search thread. */
bool engine_perft(Engine *e, int depth)
{
    if (e->searching)
        return false;
    memset(&e->go, 0, sizeof e->go); /* not open-ended: at the end of input it runs to its end */
    e->perft_depth = depth;
    atomic_store(&e->shared.stop, false);
    atomic_store(&e->shared.pondering, false);
    e->wait_for_stop = false;
    e->released = false;
    e->tt_busy = false; /* perft never touches the table: a probe reads it directly */
    if (e->in_caller) {
        e->searching = true;
        perft_main(e);
        return true;
    }
    if (pthread_create(&e->thread, NULL, perft_main, e) != 0)
        return false;
    e->searching = true;
    return true;
}

/* Asks a running search to stop and releases a held result. */
void engine_stop(Engine *e)
{
    if (!e->searching)
        return;
    atomic_store(&e->shared.stop, true);
    pthread_mutex_lock(&e->lock);
    e->released = true;
    pthread_cond_signal(&e->cond);
    pthread_mutex_unlock(&e->lock);
}

/* The expected move was played: the clock starts now. */
void engine_ponderhit(Engine *e, bool draw_offered)
{
    if (!e->searching || !atomic_load(&e->shared.pondering))
        return;
    if (draw_offered)
        atomic_store(&e->draw_offered, true);
    atomic_store(&e->shared.start_ms, now_ms());
    atomic_store(&e->shared.pondering, false);
    pthread_mutex_lock(&e->lock);
    if (!e->go.infinite)
        e->released = true;
    pthread_cond_signal(&e->cond);
    pthread_mutex_unlock(&e->lock);
}

/* Waits for the search thread to end. */
void engine_wait(Engine *e)
{
    if (!e->searching)
        return;
    if (!e->in_caller)
        pthread_join(e->thread, NULL);
    e->searching = false;
}

/* Is a search started and not yet joined? */
bool engine_searching(const Engine *e) { return e->searching; }

/* Does the running search wait for stop (infinite, or ponder before ponderhit)? */
bool engine_search_is_open_ended(Engine *e)
{
    return e->searching && (e->go.infinite || atomic_load(&e->shared.pondering));
}

/* Searches run in the calling thread from now on (no search may be running). */
void engine_set_in_caller(Engine *e, bool on) { e->in_caller = on; }

/* Do searches run in the calling thread? */
bool engine_in_caller(const Engine *e) { return e->in_caller; }

/* The options in use. */
const EngineOptions *engine_options(const Engine *e) { return &e->opt; }
/* Pondering enabled in the GUI. */
void engine_set_ponder(Engine *e, bool on) { e->opt.ponder = on; }
/* Lines to search and report, clamped. */
void engine_set_multipv(Engine *e, int lines)
{
    e->opt.multipv = lines < 1 ? 1 : lines > ENGINE_MULTIPV_MAX ? ENGINE_MULTIPV_MAX : lines;
}
/* The move overhead in ms (at least 0). */
void engine_set_move_overhead(Engine *e, int ms) { e->opt.move_overhead_ms = ms < 0 ? 0 : ms; }
/* Probing the loaded tablebases on or off (UCCI useegtb). */
void engine_set_tb_use(Engine *e, bool on) { e->opt.tb_use = on; }
/* Probe positions of at most this many pieces, kings included (EGTBProbeLimit). */
void engine_set_tb_probe_limit(Engine *e, int pieces) { e->opt.tb_probe_limit = pieces; }
/* A tunable search constant (search_params.h), for the searches that start after it; false when out of range. */
bool engine_set_search_param(Engine *e, int index, int value)
{
    return search_param_set(&e->opt.search_params, index, value);
}
/* The rule set in force (NULL: the default). */
void engine_set_rules(Engine *e, const struct RuleSet *rules) { e->opt.rules = rules ? rules : rules_default(); }
/* The strength level and UCCI's randomness. */
void engine_set_strength(Engine *e, int level_centi, int randomness)
{
    e->opt.level_centi = level_centi;
    e->opt.randomness = randomness;
}

/* Sets the number of search threads, between searches only. */
int engine_set_threads(Engine *e, int threads)
{
    if (e->searching)
        return -1;
    e->opt.threads = pool_resize(e->pool, threads);
    return e->opt.threads;
}

/* Resizes the hash, falling back to smaller sizes. */
size_t engine_set_hash(Engine *e, size_t mb)
{
    if (e->searching)
        return e->tt.mb; /* the threads are using the table: keep it */
    if (mb < 1)
        mb = 1;
    if (mb > TT_MAX_MB)
        mb = TT_MAX_MB;
    while (!tt_resize(&e->tt, mb) && mb > 1)
        mb /= 2;
    return e->tt.mb;
}

/* Clears the hash and learned search data. */
void engine_new_game(Engine *e)
{
    if (e->tt.table)
        tt_clear(&e->tt);
    pool_clear(e->pool);
    e->noise_seed = e->noise_seed * 6364136223846793005ULL + (uint64_t)now_us(); /* another game, other noise */
    engine_book_new_game(e->book);
}

/* Is path one of the names of the built-in net? */
static bool names_embedded_net(const char *path)
{
    return !path || !*path || strcmp(path, "<embedded>") == 0 || strcmp(path, "<empty>") == 0;
}

/* Opens the book files of a list in place of those in use; all or nothing. */
bool engine_set_book_files(Engine *e, const char *list, XqError *err) { return engine_book_open(e->book, list, err); }

/* Turns playing from the book on or off. */
void engine_set_use_book(Engine *e, bool on) { e->book->use = on; }

/* Seeds the book's choices (0: from the clock). */
void engine_set_book_seed(Engine *e, uint64_t seed) { engine_book_seed(e->book, seed); }

/* The book moves of the root, or of back_plies before it (probed on the protocol thread's scratch copy: a
 * search thread may be reading the root meanwhile, CECP's bk while thinking). */
int engine_book_moves(Engine *e, int back_plies, BookMove *out)
{
    if (!e->position_ok)
        return 0;
    memcpy(e->scratch, e->root, sizeof *e->scratch);
    if (back_plies > e->scratch->ply)
        return 0;
    for (int i = 0; i < back_plies; i++)
        pos_unmake(e->scratch);
    return book_probe(&e->book->book, e->scratch, out);
}

/* Loads a net file (a relative name is looked for as fileload.h says) or selects the built-in net; all or nothing. */
bool engine_set_eval_file(Engine *e, const char *path, XqError *err)
{
    const Network *old = e->net;
    if (names_embedded_net(path)) {
        if (!nnue_default()) {
            snprintf(err->msg, sizeof err->msg, "this build has no built-in net; kept the current one");
            return false;
        }
        e->net = nnue_default();
        nnue_net_free(e->file_net);
        e->file_net = NULL;
    } else {
        Network *net = nnue_load_file(path, e->book->exe_dir, err);
        if (!net)
            return false;
        nnue_net_free(e->file_net);
        e->file_net = net;
        e->net = net;
    }
    if (e->net != old && e->tt.table)
        tt_clear(&e->tt); /* the table stores static evaluations of the old net */
    return true;
}

/* Turns the network evaluation on or off. */
bool engine_set_use_nnue(Engine *e, bool on, XqError *err)
{
    if (on && !e->net) {
        snprintf(err->msg, sizeof err->msg, "no net loaded (this build has none built in): set EvalFile first");
        return false;
    }
    if (on != e->opt.use_nnue && e->tt.table)
        tt_clear(&e->tt);
    e->opt.use_nnue = on;
    return true;
}

/* The static evaluation of a position by the evaluation in use. */
int engine_static_eval(const Engine *e, const Position *pos)
{
    return e->opt.use_nnue && e->net ? nnue_evaluate_fresh(e->net, pos, NULL) : evaluate(pos, &EVAL_DEFAULTS);
}

/* Looks a position up in the hash: through the search thread while it writes the table, else directly. */
bool engine_probe(Engine *e, const Position *pos, TTEntry *entry)
{
    if (!e->tt.table)
        return false;
    pthread_mutex_lock(&e->lock);
    if (e->tt_busy) {
        e->probe_key = pos->key;
        e->probe_state = PROBE_ASKED;
        atomic_store(&e->shared.serve_wanted, true);
        while (e->probe_state == PROBE_ASKED && e->tt_busy)
            pthread_cond_wait(&e->probe_cond, &e->lock);
        atomic_store(&e->shared.serve_wanted, false);
    }
    bool found;
    if (e->probe_state == PROBE_ANSWERED) {
        found = e->probe_found;
        *entry = e->probe_entry;
    } else { /* no search writes the table (or it stopped before answering) */
        found = tt_probe(&e->tt, pos->key, 0, entry);
    }
    e->probe_state = PROBE_IDLE;
    pthread_mutex_unlock(&e->lock);
    return found;
}
