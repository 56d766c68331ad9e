/*
 * game.h - one game between two engines: clocks, the move loop, the
 * engines' errors and score-based adjudication.
 */
#ifndef XQM_GAME_H
#define XQM_GAME_H

#include "adjudicate.h"
#include "common/engine_client.h"

enum { GAME_PLIES_MAX = 2000 }; /* hard cap on a game's length (Position keeps 2048 plies) */

typedef enum TcKind { TC_CLOCK, TC_DEPTH, TC_NODES, TC_MOVETIME } TcKind;

/* How long engines may think. */
typedef struct TimeControl {
    TcKind kind;
    int64_t base_ms;        /* TC_CLOCK: time per period (or for the game) */
    int64_t inc_ms;         /* TC_CLOCK: increment per move */
    int moves_per_period;   /* TC_CLOCK: 0 = one period for the whole game */
    int depth;              /* TC_DEPTH */
    int64_t nodes;          /* TC_NODES */
    int64_t movetime_ms;    /* TC_MOVETIME */
    int64_t margin_ms;      /* overrun allowed beyond the clock before a time loss */
    int64_t hang_ms;        /* TC_DEPTH/TC_NODES: a move taking longer is a hang */
} TimeControl;

/* Optional adjudication by the engines' scores (0 = off) and the length cap. */
typedef struct AdjudicationConfig {
    const RuleSet *rules;   /* the rule set (src/rules/rules.h), never NULL */
    int max_plies;          /* draw after this many plies (0 = GAME_PLIES_MAX) */
    int resign_moves;       /* both engines agree for this many moves each ... */
    int resign_score;       /* ... that the score is beyond this (cp) */
    int draw_movenumber;    /* from this move number ... */
    int draw_moves;         /* ... both engines' |score| <= draw_score for this many moves each */
    int draw_score;
    const TbSet *tb;        /* -tb DIR: the loaded tablebases that decide a game reaching them (NULL = off) */
} AdjudicationConfig;

/* Everything one game needs. */
typedef struct GameSetup {
    const EngineConfig *engine[2];      /* [RED], [BLACK] */
    const char *fen;                    /* start position */
    const char (*open_moves)[MOVE_TEXT_MAX];
    int open_count;                     /* opening moves played before the engines take over */
    const TimeControl *tc;
    const AdjudicationConfig *adj;
    const ProcLog *log;
    int64_t init_timeout_ms;            /* handshake limit */
} GameSetup;

/* The record of a finished game. */
typedef struct GameRecord {
    char start_fen[FEN_MAX];
    char names[2][ENGINE_NAME_MAX];
    int count;                          /* plies, opening included */
    int open_count;
    char moves[GAME_PLIES_MAX][MOVE_TEXT_MAX];
    Verdict verdict;
    int64_t time_used_ms[2];
} GameRecord;

/* Plays one game; the record is always filled (an engine failure is a result too). */
void game_play(const GameSetup *setup, GameRecord *rec);
/* Checks an opening (FEN and moves) and writes an error if it is unusable. */
bool game_check_opening(const char *fen, const char (*moves)[MOVE_TEXT_MAX], int count,
                        char *msg, size_t msg_size);

#endif
