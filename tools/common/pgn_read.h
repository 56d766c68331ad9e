/*
 * pgn_read.h - reads games from PGN files in the xqbase conventions (what
 * xqmatch writes, and ICCS PGNs of XiangQi Wizard): the tags FEN, Result
 * and Termination, the moves written "H2-E2", and xqmatch's "{opening: N
 * plies" note. Other tags, move numbers and comments are skipped.
 */
#ifndef XQT_PGN_READ_H
#define XQT_PGN_READ_H

#include <stdbool.h>

enum { PGN_TAG_VALUE_MAX = 160, PGN_PLIES_MAX = 1024 };

/* One game as read: its tags and its moves as ICCS text ("h2e2"). */
typedef struct PgnGame {
    char fen[PGN_TAG_VALUE_MAX];          /* the start position (the standard one without a FEN tag) */
    char result[PGN_TAG_VALUE_MAX];
    char termination[PGN_TAG_VALUE_MAX];
    int book_plies;                       /* plies xqmatch took from its openings file (0 if none noted) */
    int n_moves;                          /* moves past PGN_PLIES_MAX are dropped */
    char moves[PGN_PLIES_MAX][8];
} PgnGame;

/* Called once per game read; return false to stop reading. */
typedef bool (*PgnGameFn)(void *ctx, const PgnGame *game);

/* Reads every game of the PGN file at path, in order; false if the file cannot be read. */
bool pgn_read_file(const char *path, PgnGameFn fn, void *ctx);
/* Red's score of a game (1, 0.5, 0), or a negative number when it has no result or ended for a reason that
 * says nothing about the play (time forfeit, crash, hang, illegal move, no move, start failure). */
double pgn_result_value(const PgnGame *game);

#endif
