/*
 * gen_game.h - one self-play game of the engine for training data (xqgen
 * play): a random opening, then a fixed-node search of every position, each
 * recorded as a PackedPos (src/eval/nnue/nnue_data.h) with the game's result.
 *
 * Determinism: a game depends only on the GenConfig and its game index. Its
 * random opening comes from a generator seeded by (seed, index), and every
 * game starts from a cleared transposition table and search thread, so a
 * fixed node budget gives the same moves on any thread, in any order.
 */
#ifndef XQG_GEN_GAME_H
#define XQG_GEN_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "eval/nnue/nnue_data.h"
#include "rules/rules.h"
#include "eval/nnue/nnue.h"
#include "search/search.h"

enum {
    GEN_MATE_SCORE = 3000,        /* stored score of a mate (or ban) score, with NNUE_REC_MATE; as the text format */
    GEN_MAX_SCORE = 2999,         /* other scores are clamped to +-this, so |score| >= 3000 means mate */
    GEN_MAX_PLIES = MAX_HISTORY - 2 * MAX_PLY, /* longest game: its history plus a search path must fit */
    GEN_OPENING_TRIES = 1000,     /* openings drawn per game before the last one is taken anyway */
};

/* How games are played and adjudicated (see tools/xqgen/README.md). */
typedef struct GenConfig {
    uint64_t seed;
    uint64_t nodes;               /* node budget of every search */
    int random_min, random_max;   /* random opening plies, uniform in [min, max] */
    int open_limit;               /* an opening whose first search scores beyond +-this is redrawn; 0 = keep all */
    int max_plies;                /* game length (plies from the start position) at which it is a draw */
    int resign_cp, resign_moves;  /* a side at <= -resign_cp for resign_moves own searches loses; resign_cp 0 = off */
    int draw_ply, draw_moves, draw_cp; /* from draw_ply, draw_moves plies in a row at |score| <= draw_cp draw;
                                          draw_moves 0 = off */
    const RuleSet *rules;         /* repetition rules (perpetual check and chase) */
    size_t hash_mb;               /* transposition table per worker */
    const Network *net;           /* the evaluation: a network, or NULL for the hand-crafted one */
} GenConfig;

/* Why a generated game ended. */
typedef enum GenEnd {
    GEN_END_NONE,
    GEN_END_NO_MOVE,      /* mate or stalemate: the side to move loses */
    GEN_END_PERPETUAL,    /* repetition ruled a loss (perpetual check or chase) */
    GEN_END_REPETITION,   /* repetition ruled a draw */
    GEN_END_RULE60,       /* 120 counted plies without a capture */
    GEN_END_MATE_SCORE,   /* the search found a mate */
    GEN_END_RESIGN,       /* resign adjudication */
    GEN_END_ADJ_DRAW,     /* draw adjudication */
    GEN_END_MAX_PLIES,    /* the length cap */
    GEN_ENDS
} GenEnd;

/* A finished game: its records (result filled in), the winner and the reason. */
typedef struct GenGame {
    uint64_t index;
    PackedPos *rec;
    int count, cap;
    int winner;           /* +1 red won, -1 black won, 0 draw */
    GenEnd end;
    int openings;         /* openings drawn (1 + the redrawn ones) */
} GenGame;

/* What one worker thread owns: its search thread, table, position and search state. */
typedef struct GenWorker {
    SearchThread *st;
    TT tt;
    Position *pos;
    Position *scratch;    /* for canonical records (gen_pack_canonical) */
    SearchShared shared;
} GenWorker;

/* Tells a game in progress to give up (a stop request); NULL = never. */
typedef bool (*GenCancelFn)(void *ctx, uint64_t index);

/* Stable short name of an end reason. */
const char *gen_end_name(GenEnd end);
/* Fills a config with the defaults of xqgen play. */
void gen_config_default(GenConfig *cfg);
/* Checks a config's ranges; false with err filled if one is out of range. */
bool gen_config_check(const GenConfig *cfg, XqError *err);
/* Allocates a worker's search thread, table and position; false if out of memory. */
bool gen_worker_init(GenWorker *w, size_t hash_mb);
/* Frees what gen_worker_init allocated. */
void gen_worker_free(GenWorker *w);
/* Packs a position's board and side canonically (same-type pieces in the order a FEN gives them), so one
 * position has one encoding, the one xqgen convert gives its FEN; scratch is a work position. */
void gen_pack_canonical(PackedPos *rec, const Position *pos, Position *scratch);
/* Frees a game's records. */
void gen_game_free(GenGame *g);
/* Plays game `index`; false if cancelled or out of memory (then *g holds no records). */
bool gen_play_game(GenWorker *w, const GenConfig *cfg, uint64_t index, GenCancelFn cancel, void *cancel_ctx,
                   GenGame *g);

#endif
